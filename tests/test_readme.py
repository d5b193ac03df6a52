"""The numbers printed in README.md come out of the code (rounded to the digits shown)."""

from __future__ import annotations

import re

import pytest
from test_coefficients import FINN_ORDER, TABLE_6

from chance_agreement import chance_f1, coefficients, noise_bound
from chance_agreement.reports.paper_examples import SIMULATIONS
from conftest import REPO

README = (REPO / "README.md").read_text(encoding="utf-8")


def table_after(heading: str) -> list[list[str]]:
    """Cells of the first Markdown table after ``heading`` (header and rule rows dropped)."""
    text = README[README.index(heading):]
    rows = []
    for line in text.splitlines():
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
        elif rows:
            break
    return rows[2:]


def test_readme_starts_with_the_two_commands():
    blocks = re.findall(r"```bash\n(.*?)```", README, flags=re.S)
    assert blocks[0].strip().endswith("chance-agreement demo")
    assert "pytest" in blocks[1]
    assert blocks[1].strip() in (REPO / ".ci" / "run").read_text()


def test_simulation_table():
    rows = table_after("### The paper's simulations")
    assert len(rows) == 6
    by_name = {s.name: s for s in SIMULATIONS}
    for name, *printed in rows:
        simulation = by_name[name.split(" (")[0]]
        result = chance_f1(*map(lambda tags: [tags], simulation.tags()))
        ours = [result["overall_observed_f1"], result["overall_chance_f1"], result["overall_corrected_f1"]]
        assert [f"{value:.4f}" for value in ours] == printed, name


def test_table_6_in_the_readme():
    rows = table_after("| Table 6 case |")
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
    assert f"| {bound} |" in README or f"bound {bound} |" in README
    assert f"{noise_bound(n, d, p).noise:.4f}" == bound
