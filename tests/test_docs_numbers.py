"""The numbers the docs pages print come out of the code (rounded to the digits shown): the tables of
the random model's and the coefficients' pages, and what their examples give."""

from __future__ import annotations

import pytest
from test_coefficients import FINN_ORDER, TABLE_6

from chance_agreement import chance_f1, coefficients, noise_bound
from chance_agreement.reports.paper_examples import SIMULATIONS
from docs_pages import page, run_code_cells, table_after

RANDOM_MODEL = page("explanation/random-model.md")
COEFFICIENTS = page("howto/coefficients-and-noise.md")


def test_simulation_table():
    rows = table_after(RANDOM_MODEL, "### The paper's simulations")
    assert len(rows) == 6
    by_name = {s.name: s for s in SIMULATIONS}
    for name, *printed in rows:
        simulation = by_name[name.split(" (")[0]]
        result = chance_f1(*map(lambda tags: [tags], simulation.tags()))
        ours = [result["overall_observed_f1"], result["overall_chance_f1"], result["overall_corrected_f1"]]
        assert [f"{value:.4f}" for value in ours] == printed, name


def test_table_6_in_the_docs():
    rows = table_after(COEFFICIENTS, "| Table 6 case |")
    columns = ["observed_agreement", "bennett_s", "finn_r", "scott_pi", "cohen_kappa", "f_measure", "slot_error_rate"]
    assert len(rows) == 4
    for number, row in enumerate(rows, start=1):
        table, names, _ = TABLE_6[f"case {number}"]
        result = coefficients(table, names, nothing="Nothing", finn_order=FINN_ORDER if number == 1 else None)
        for column, cell in zip(columns, row[1:]):
            if cell:
                assert f"{result[column]:.5f}" == cell, (number, column)


@pytest.mark.parametrize(
    "n,d,p,bound",
    [(1000, 100, 0.5, "0.1389"), (992, 121, 0.47, "0.1515"), (1000, 340, 0.0625, "0.0470"), (1000, 150, 0.25, "0.0753")],
)
def test_noise_table(n, d, p, bound):
    assert f"| {bound} |" in COEFFICIENTS or f"bound {bound} |" in COEFFICIENTS
    assert f"{noise_bound(n, d, p).noise:.4f}" == bound


def test_the_evaluate_examples_give_these_numbers():
    _, coefficients_all, chance = run_code_cells(page("howto/evaluate-and-trainer.md"))
    assert coefficients_all == "{'observed_agreement': 0.8, 'cohen_kappa': 0.726, 'scott_pi': 0.7203, 'gwet_ac1': 0.7374}\n"
    assert chance == "0.5 0.8571\n0.2111 0.8189\n"


def test_the_coefficients_and_noise_examples_give_these_numbers():
    *_, coefficients_all, noise = run_code_cells(COEFFICIENTS)
    assert coefficients_all == ("0.8039 {'categories': ['LOC', 'PER', 'O'], 'table': [[1, 0, 0], [0, 2, 0], [0, 1, 6]]}\n"
                                "0.8794 0.8189\n")
    assert noise == "(0.272, 6, 26)\n"


def test_the_explanation_examples_give_these_numbers():
    assert run_code_cells(RANDOM_MODEL) == ["9.0\n5.601361601361601\n", "86 1.0\narray([4, 7, 0])\n"]
    *_, above_one = run_code_cells(page("explanation/undefined-values.md"))
    assert above_one.startswith("10/9 0.0\noverall: corrected F1 is undefined with chance agreement 1.11111 > 1")
