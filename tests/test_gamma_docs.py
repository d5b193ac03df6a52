"""The docs page on gamma (docs/howto/gamma.md): its examples run and print the lines below, and its
CoNLL table comes out of the code (to the digits shown)."""

from __future__ import annotations

from chance_agreement import gamma_agreement
from docs_pages import page, run_code_cells
from docs_pages import table_after as _table_after

PAGE = page("howto/gamma.md")

SHOWN = [
    "gamma 0.7752 = 1 - 0.3056 / 1.3590 (se 0.0076, 30 samples)\n"
    "0.1111 0 {'gold': ['PER', 0, 2], 'system': ['PER', 0, 1]}\n"
    "0.1111 0 {'gold': ['LOC', 4, 5], 'system': ['LOC', 4, 6]}\n"
    "0.0 1 {'gold': ['ORG', 8, 10], 'system': ['ORG', 8, 10]}\n"
    "1.0 1 {'gold': ['MISC', 11, 12], 'system': ['PER', 11, 12]}\n"
    "gamma-cat 0.7027 {'LOC': 1.0, 'MISC': -0.1111, 'ORG': 1.0, 'PER': 0.2647}\n",
    "gamma 0.7332 (se 0.0048) against 1.1454\n",
    "gamma 0.3371 (se 0.0156) after 74 samples\n"
    "0.0038 {'ann1': ['speech', 0, 2.5], 'ann2': ['speech', 0.2, 2.4], 'ann3': ['speech', 0, 2.6]}\n"
    "0.6708 {'ann1': ['laugh', 3.1, 3.9], 'ann2': None, 'ann3': ['laugh', 3, 4]}\n"
    "0.0855 {'ann1': ['speech', 4.2, 7], 'ann2': ['speech', 4, 7.1], 'ann3': ['speech', 5.6, 7]}\n"
    "1.0 {'ann1': None, 'ann2': None, 'ann3': ['speech', 4.3, 5.5]}\n"
    "0.435\n",
    "0 0.0 12.0 60 139,470 > 100,000\n",  # the limits section: a component's candidates counted before enumerating
]


def table_after(heading: str) -> list[list[str]]:
    return _table_after(PAGE, heading)


def test_the_examples_run_and_print_these_lines():
    assert run_code_cells(PAGE) == SHOWN


def test_conll_gamma_table(conll_systems):
    references, systems = conll_systems
    rows = table_after("| system (vs gold) |")
    assert [row[0] for row in rows] == list(systems)
    for name, *printed in rows:
        items = [[r, p] for r, p in zip(references, systems[name])]
        statistical = gamma_agreement(items, annotators=["gold", name])
        uniform = gamma_agreement(items, annotators=["gold", name], sampler="random_model")
        ours = [f"{statistical.observed_disorder:.4f}", f"{statistical.expected_disorder:.4f}",
                f"{statistical.gamma:.4f} ({statistical.gamma_se:.4f})", f"{statistical.gamma_cat:.4f}",
                f"{uniform.expected_disorder:.4f}", f"{uniform.gamma:.4f} ({uniform.gamma_se:.4f})"]
        assert ours == printed, name
