"""Gwet's two-rater standard errors and intervals (irrCAC's ``*.table``) and the item bootstrap (issue 12, item 3)."""

from __future__ import annotations

import csv
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chance_agreement import bootstrap_coefficient_intervals, coefficient_intervals
from chance_agreement.reliability.agreement_coefficients import coefficients
from chance_agreement.reliability.table_inference import TABLE_COEFFICIENTS

# SOURCE.md, "Standard errors printed by irrCAC": value, standard error, interval (3 digits)
PRINTED = {
    "cohen_kappa": (0.7964094, 0.05891072, (0.68, 0.913)),
    "scott_pi": (0.7962397, 0.05905473, (0.679, 0.913)),
    "gwet_ac1": (0.8493305, 0.04321747, (0.764, 0.935)),
    "bennett_s": (0.835, 0.04693346, (0.742, 0.928)),
    "krippendorff_alpha": (0.7972585, 0.05905473, (0.68, 0.914)),
    "observed_agreement": (0.89, 0.03128898, (0.828, 0.952)),
}


@pytest.fixture(scope="module")
def abstractors(shared_data):
    with (shared_data / "agreement_reference" / "irrCAC_R_package" / "cont3x3abstractors.csv").open() as handle:
        rows = list(csv.reader(handle))
    return np.array([[int(cell) for cell in row[1:]] for row in rows[1:]]), rows[0][1:]


def _printed(value: float, like: float) -> float:
    """``value`` rounded to the significant digits R printed ``like`` with (7, or fewer when exact)."""
    text = f"{like:.10g}"
    decimals = len(text.split(".")[1]) if "." in text else 0
    return round(value, decimals)


def test_reproduces_every_printed_value_standard_error_and_interval(abstractors):
    table, categories = abstractors
    result = coefficient_intervals(table, confidence_level=0.95, categories=categories)
    assert set(PRINTED) == set(TABLE_COEFFICIENTS)
    for name, (value, error, (low, high)) in PRINTED.items():
        entry = result[name]
        assert _printed(entry["value"], value) == value, name
        digits = len(f"{error:.10g}".split(".")[1])
        assert round(entry["standard_error"], digits) == error, name
        assert [round(bound, 3) for bound in entry["ci"]] == [low, high], name
        assert 0 <= entry["p_value"] < 1e-20
    assert result["n_items"] == 100.0 and result["warnings"] == []


def test_values_equal_the_point_coefficients(abstractors):
    table, _ = abstractors
    intervals = coefficient_intervals(table)
    point = coefficients(table, distance=1 - np.eye(3))
    for name in ("observed_agreement", "cohen_kappa", "scott_pi", "bennett_s", "krippendorff_alpha"):
        assert intervals[name]["value"] == pytest.approx(point[name], rel=1e-12)


def test_standard_errors_match_the_exact_variance_on_a_small_case():
    """The delta-method variance is the first-order variance: check kappa's by exact enumeration
    of multinomial tables with Fractions, n large enough that the two agree to a few percent."""
    cells = [Fraction(3, 10), Fraction(1, 10), Fraction(1, 10), Fraction(1, 2)]
    n = 40

    def kappa(counts):
        a, b, c, d = counts
        rows, cols = (a + b, c + d), (a + c, b + d)
        expected = Fraction(rows[0] * cols[0] + rows[1] * cols[1], n * n)
        if expected == 1:
            return None
        return (Fraction(a + d, n) - expected) / (1 - expected)

    mean = second = Fraction(0)
    total = Fraction(0)
    for a in range(n + 1):
        for b in range(n + 1 - a):
            for c in range(n + 1 - a - b):
                d = n - a - b - c
                probability = Fraction(math.factorial(n), math.factorial(a) * math.factorial(b) * math.factorial(c)
                                       * math.factorial(d)) * cells[0] ** a * cells[1] ** b * cells[2] ** c * cells[3] ** d
                value = kappa((a, b, c, d))
                if value is not None:
                    mean += probability * value
                    second += probability * value * value
                    total += probability
    exact_sd = math.sqrt(float(second / total - (mean / total) ** 2))
    expected_table = np.array([[0.3, 0.1], [0.1, 0.5]]) * n
    analytic = coefficient_intervals(expected_table)["cohen_kappa"]["standard_error"]
    assert analytic == pytest.approx(exact_sd, rel=0.08)


def test_weights_finite_population_and_degenerate_tables(abstractors):
    table, _ = abstractors
    unweighted = coefficient_intervals(table)
    identity = coefficient_intervals(table, weights=np.eye(3))
    assert identity == unweighted
    corrected = coefficient_intervals(table, population_size=400)
    assert corrected["cohen_kappa"]["standard_error"] == pytest.approx(
        unweighted["cohen_kappa"]["standard_error"] * math.sqrt(1 - 100 / 400))
    quadratic = 1 - (np.subtract.outer(range(3), range(3)) / 2.0) ** 2
    weighted = coefficient_intervals(table, weights=quadratic)
    assert weighted["cohen_kappa"]["value"] == pytest.approx(
        coefficients(table, distance=1 - quadratic)["weighted_kappa"], rel=1e-12)
    single = coefficient_intervals([[5]])
    assert single["cohen_kappa"]["value"] is None and single["observed_agreement"]["value"] == 1.0
    assert any("chance agreement is 1" in w for w in single["warnings"])
    empty = coefficient_intervals([[0, 0], [0, 0]])
    assert all(empty[name]["value"] is None for name in TABLE_COEFFICIENTS)
    one = coefficient_intervals([[1, 0], [0, 0]])
    assert one["observed_agreement"]["ci"] is None and any("fewer than 2" in w for w in one["warnings"])
    perfect = coefficient_intervals([[5, 0], [0, 5]])
    assert perfect["cohen_kappa"]["standard_error"] == 0.0 and perfect["cohen_kappa"]["p_value"] == 0.0


@pytest.mark.parametrize("kwargs,error,match", [
    (dict(table=[[1, 2, 3]]), ValueError, "square"),
    (dict(table=[[1, 2], [3, 4]], weights=np.eye(3)), ValueError, "shape"),
    (dict(table=[[1, 2], [3, 4]], weights=[[1, 2], [2, 1]]), ValueError, r"\[0, 1\]"),
    (dict(table=[[1, 2], [3, 4]], weights=[[0.5, 0], [0, 1]]), ValueError, "diagonal"),
    (dict(table=[[1, 2], [3, 4]], confidence_level=95), ValueError, "confidence_level"),
    (dict(table=[[1, 2], [3, 4]], population_size=5), ValueError, "population_size"),
])
def test_bad_input(kwargs, error, match):
    with pytest.raises(error, match=match):
        coefficient_intervals(**kwargs)


def test_item_bootstrap_is_seeded_and_close_to_the_analytic_interval(abstractors):
    table, _ = abstractors
    analytic = coefficient_intervals(table)
    for name in ("cohen_kappa", "scott_pi"):
        boot = bootstrap_coefficient_intervals(table, name, n_resamples=1500, random_state=0)
        assert boot == bootstrap_coefficient_intervals(table, name, n_resamples=1500, random_state=0)
        assert boot["value"] == pytest.approx(analytic[name]["value"])
        assert boot["undefined_resamples"] == 0
        assert np.allclose(boot["ci"], analytic[name]["ci"], atol=0.02)
    custom = bootstrap_coefficient_intervals(table, lambda t: float(np.trace(t) / t.sum()), random_state=1)
    assert custom["value"] == 0.89 and custom["ci"][0] < 0.89 < custom["ci"][1]
    with pytest.raises(ValueError, match="coefficient"):
        bootstrap_coefficient_intervals(table, "categories")


def test_item_bootstrap_resamples_items_exactly():
    """Resampled tables are multinomial(n, p_kl): n = 2 items, one per diagonal cell, so the
    first cell of a resampled table is Binomial(2, 1/2) (probabilities 1/4, 1/2, 1/4)."""
    seen = []

    def first_cell(counts):
        seen.append(int(counts[0, 0]))
        assert counts.sum() == 2 and counts[0, 1] == counts[1, 0] == 0
        return float(counts[0, 0])

    n_resamples = 20000
    boot = bootstrap_coefficient_intervals([[1, 0], [0, 1]], first_cell, confidence_level=0.4,
                                           n_resamples=n_resamples, random_state=3)
    draws = seen[1:]  # the first call scores the table itself
    assert len(draws) == n_resamples
    for k in range(3):
        p = float(Fraction(math.comb(2, k), 4))
        assert abs(draws.count(k) / n_resamples - p) < 4 * math.sqrt(p * (1 - p) / n_resamples)
    assert boot["ci"] == [1.0, 1.0]  # the 30% and 70% quantiles fall in the middle half
    undefined = bootstrap_coefficient_intervals([[1, 1], [0, 0]], "cohen_kappa", n_resamples=200, random_state=0)
    assert 0 < undefined["undefined_resamples"] < 200


def test_coefficients_metric_reports_intervals_when_asked(load_metric):
    references = [["B-PER", "I-PER", "O", "O", "B-LOC", "O", "O", "B-ORG", "O", "O"],
                  ["O", "B-ORG", "I-ORG", "O", "O", "O", "B-PER", "O"]]
    predictions = [["B-PER", "I-PER", "O", "O", "B-ORG", "O", "O", "B-ORG", "O", "O"],
                   ["O", "B-ORG", "O", "O", "O", "O", "B-PER", "B-LOC"]]
    metric = load_metric("coefficients_metric")
    plain = metric.compute(predictions=predictions, references=references)
    assert "intervals" not in plain["all"]
    result = metric.compute(predictions=predictions, references=references, confidence_level=0.9)
    expected = coefficient_intervals(result["all"]["contingency"]["table"], confidence_level=0.9)
    assert result["all"]["intervals"] == expected
    assert result["all"]["intervals"]["cohen_kappa"]["value"] == pytest.approx(result["all"]["cohen_kappa"])
    flat = load_metric("coefficients_metric", "flat").compute(predictions=predictions, references=references,
                                                              confidence_level=0.9)
    assert flat["all_intervals_cohen_kappa_ci_low"] == expected["cohen_kappa"]["ci"][0]
    assert flat["all_intervals_cohen_kappa_standard_error"] == expected["cohen_kappa"]["standard_error"]


def test_docs_table(abstractors):
    from docs_pages import page

    text = page("howto/intervals-and-tests.md")
    lines = text[text.index("| coefficient | value | standard error | 95% interval |"):].splitlines()
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:8]]
    result = coefficient_intervals(abstractors[0])
    assert [row[0] for row in rows] == list(TABLE_COEFFICIENTS)
    for name, value, error, interval in rows:
        entry = result[name]
        assert f"{entry['value']:.4f}" == value
        assert f"{entry['standard_error']:.8f}" == error
        assert "-".join(f"{x:.3f}" for x in entry["ci"]) == interval


@settings(derandomize=True, max_examples=80, deadline=None)
@given(table=st.integers(2, 4).flatmap(
    lambda q: st.lists(st.lists(st.integers(0, 12), min_size=q, max_size=q), min_size=q, max_size=q)))
def test_property_values_agree_with_coefficients_and_intervals_are_ordered(table):
    table = np.array(table)
    result = coefficient_intervals(table)
    point = coefficients(table, distance=1 - np.eye(len(table)))
    for name in TABLE_COEFFICIENTS:
        entry = result[name]
        if name != "gwet_ac1":  # coefficients() has no AC1
            assert (entry["value"] is None) == (point[name] is None), name
            if entry["value"] is not None:
                assert entry["value"] == pytest.approx(point[name], rel=1e-9, abs=1e-12), name
        if entry["value"] is None:
            assert entry["standard_error"] is None and entry["ci"] is None
            continue
        assert entry["standard_error"] >= 0.0
        if table.sum() >= 2:
            low, high = entry["ci"]
            assert low <= entry["value"] + 1e-12 and high <= 1.0
            assert high >= min(entry["value"], 1.0) - 1e-12
            assert 0.0 <= entry["p_value"] <= 1.0
