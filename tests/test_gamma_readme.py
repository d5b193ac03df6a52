"""The README's gamma section: its examples run and print what it shows, and its CoNLL table comes
out of the code (to the digits shown)."""

from __future__ import annotations

import doctest
import re

from chance_agreement import gamma_agreement
from conftest import REPO
from test_readme import table_after  # cells of the first table after a heading (its headings are unique)

README = (REPO / "README.md").read_text(encoding="utf-8")
SECTION = README[README.index("## Gamma: agreement on units, with their alignment"):README.index("## Training and distributed evaluation")]


def test_the_examples_run_and_print_what_the_readme_shows():
    source = "\n".join(re.findall(r"```python\n(.*?)```", SECTION, re.DOTALL))
    test = doctest.DocTestParser().get_doctest(source, {}, "README gamma", "README.md", 0)
    runner = doctest.DocTestRunner()
    report: list[str] = []
    runner.run(test, out=report.append)
    results = runner.summarize(verbose=False)
    assert results.attempted >= 8 and results.failed == 0, "".join(report)


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
