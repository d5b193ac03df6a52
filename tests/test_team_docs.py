"""The docs page "Score a team of annotators" (docs/howto/teams.md): its examples run and give the
numbers below, and its tables come out of the code (to the digits shown)."""

from __future__ import annotations

import numpy as np

from chance_agreement import by_item, multi_rater_agreement, team_chance_f1
from docs_pages import page, run_code_cells
from docs_pages import table_after as _table_after

PAGE = page("howto/teams.md")


def table_after(heading: str) -> list[list[str]]:
    return _table_after(PAGE, heading)


def test_the_examples_run_and_give_these_numbers():
    shown = run_code_cells(PAGE)
    assert shown[0] == "0.7619 0.259 0.6787\n{'ann': 0.7246, 'bob': 0.7246, 'cy': 0.5714}\n"
    assert any("'fleiss_kappa'" in out and "'multi_rater'" in out for out in shown)
    assert "Substantial 0.49 Moderate\n" in shown


def test_conll_team_table(conll_systems):
    references, systems = conll_systems
    rows = table_after("| member |")
    result = team_chance_f1(by_item([references, *systems.values()]), names=["gold", *systems])
    assert [row[0] for row in rows] == ["gold", *systems, "team"]
    for name, *printed in rows:
        scores = result["per_annotator"][name] if name != "team" else {
            key: result[f"overall_{key}"] for key in ("observed_f1", "chance_f1", "corrected_f1")}
        assert [f"{scores[key]:.4f}" for key in ("observed_f1", "chance_f1", "corrected_f1")] == printed, name


def test_distrib6raters_table(shared_data):
    import csv

    with open(shared_data / "agreement_reference" / "irrCAC_R_package" / "distrib.6raters.csv") as handle:
        counts = np.array([[int(v) for v in row[1:]] for row in list(csv.reader(handle))[1:]])
    result = multi_rater_agreement(counts=counts)
    keys = {"Gwet's AC1": "gwet_ac1", "Fleiss' kappa": "fleiss_kappa", "Krippendorff's alpha": "krippendorff_alpha",
            "Brennan-Prediger": "brennan_prediger"}
    rows = table_after("| coefficient |")
    assert len(rows) == 4
    for name, value, pe, se, interval, p_value in rows:
        ours = result[keys[name]]
        for number, printed in ((ours["value"], value), (ours["expected_agreement"], pe), (ours["standard_error"], se)):
            digits = len(printed.split(".")[1])
            assert abs(number - float(printed)) <= 0.5 * 10**-digits + 1e-12, (name, printed)
        low, high = (float(x) for x in interval.strip("()").split(","))
        assert abs(ours["confidence_interval"][0] - low) <= 5e-4 and abs(ours["confidence_interval"][1] - high) <= 5e-4
        assert abs(ours["p_value"] / float(p_value) - 1) < 5e-4
