"""Coefficients of a contingency table: the prevalence paper's Tables 1-8 (SPEC_NOTES section 3),
irrCAC's published values, and cross-checks against nltk and statsmodels."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chance_agreement import coefficients
from chance_agreement.reliability.agreement_coefficients import distance_matrix

TABLE_1 = [[71, 13, 23], [8, 69, 15], [7, 8, 18840]]
TABLE_3 = [[71, 13, 23], [8, 69, 15], [7, 8, 951]]
TABLE_4 = [[71, 13], [8, 69]]
TABLE_5 = [[161, 38], [15, 18840]]
NAMES = ["Former", "New", "Nothing"]
TABLE_2_DISTANCE = {"Former": {"New": 0.5, "Nothing": 1}, "New": {"Nothing": 1}}

# Table 6 as printed (strings keep the printed digits); "n/a" and "-" are not numbers in the paper
TABLE_6 = {
    "case 1": (TABLE_1, NAMES, dict(observed_agreement="0.99611", bennett_s="0.99417", finn_r="0.99437",
               scott_pi="0.8012", cohen_kappa="0.80121", f_measure="0.74667", slot_error_rate="0.33867")),
    "case 2": (TABLE_3, NAMES, dict(observed_agreement="0.93648", bennett_s="0.90472", scott_pi="0.77557",
               cohen_kappa="0.77571", f_measure="0.74667", slot_error_rate="0.33867")),
    "case 3": (TABLE_4, NAMES[:2], dict(observed_agreement="0.86956", bennett_s="0.73913", finn_r="0.73913",
               scott_pi="0.73909", cohen_kappa="0.73934", f_measure="0.86957")),
    "case 4": (TABLE_5, ["Former+New", "Nothing"], dict(observed_agreement="0.99722", bennett_s="0.99444",
               finn_r="0.99444", scott_pi="0.85726", cohen_kappa="0.85727", f_measure="0.85867")),
}
FINN_ORDER = ["New", "Former", "Nothing"]


def assert_printed(value, printed: str):
    """``value`` agrees with a printed number to its last digit (the paper rounds or truncates)."""
    digits = len(printed.split(".")[1])
    assert isinstance(value, float)
    assert abs(value - float(printed)) < 10.0**-digits, (value, printed)


@pytest.mark.parametrize("case", sorted(TABLE_6))
def test_table_6(case):
    table, names, printed = TABLE_6[case]
    order = FINN_ORDER if case == "case 1" else None
    result = coefficients(table, names, nothing="Nothing", finn_order=order)
    for column, value in printed.items():
        assert_printed(result[column], value)
    assert result["warnings"] == []


def test_table_6_columns_the_paper_leaves_empty():
    # case 2: R "n/a" (the paper lacked the dictionary counts); we can compute it
    case2 = coefficients(TABLE_3, NAMES, nothing="Nothing", finn_order=FINN_ORDER)
    assert case2["finn_r"] == pytest.approx(1 - (10.5 + 15 + 46) / 1165 / (8 / 12))
    # cases 3 and 4: SER "-" (relevant only for the full typing task); our formula still applies
    case3 = coefficients(TABLE_4, NAMES[:2], nothing="Nothing")
    assert case3["slot_error_rate"] == pytest.approx(0.5 * 21 / (0.5 * (161 + 161)))
    case4 = coefficients(TABLE_5, ["Former+New", "Nothing"], nothing="Nothing")
    assert case4["slot_error_rate"] == pytest.approx((38 + 15) / (0.5 * (199 + 176)))


def test_section_3_1_expected_agreements():
    result = coefficients(TABLE_1, NAMES, nothing="Nothing")
    assert_printed(result["observed_agreement"], "0.996116")
    assert_printed(result["expected_agreement"]["bennett_s"], "0.333333")
    assert_printed(result["expected_agreement"]["scott_pi"], "0.980464")
    assert_printed(result["expected_agreement"]["cohen_kappa"], "0.980463")


def test_weighted_coefficients_with_table_2_distances():
    result = coefficients(TABLE_1, NAMES, distance=TABLE_2_DISTANCE, nothing="Nothing")
    assert result["weighted_kappa"] == pytest.approx(0.8292, abs=1e-4)
    assert result["krippendorff_alpha"] == pytest.approx(0.8292, abs=1e-4)
    # the paper prints kappa_w = 0.8291 and alpha = 0.8292, truncating 0.82920...
    assert_printed(result["weighted_kappa"], "0.8292")
    assert_printed(result["krippendorff_alpha"], "0.8292")
    assert result["weighted_kappa"] > result["cohen_kappa"]


def test_distance_forms_agree():
    matrix = [[0, 0.5, 1], [0.5, 0, 1], [1, 1, 0]]
    pairs = {("Former", "New"): 0.5, ("Former", "Nothing"): 1, ("Nothing", "New"): 1}
    values = [
        coefficients(TABLE_1, NAMES, distance=d, nothing="Nothing")["weighted_kappa"]
        for d in (matrix, np.array(matrix), pairs, TABLE_2_DISTANCE)
    ]
    assert len(set(values)) == 1
    assert distance_matrix(pairs, NAMES).tolist() == matrix


def test_footnote_6_nominal_distance():
    """With all categories perfectly distinct, kappa_w = kappa and alpha = pi (up to alpha's
    small-sample factor: 1 - alpha = (1 - pi) (2N - 1) / 2N, Artstein & Poesio 2008)."""
    nominal = 1 - np.eye(3)
    result = coefficients(TABLE_1, NAMES, distance=nominal, nothing="Nothing")
    assert result["weighted_kappa"] == pytest.approx(result["cohen_kappa"], rel=1e-12)
    n2 = 2 * 19054
    assert 1 - result["krippendorff_alpha"] == pytest.approx((1 - result["scott_pi"]) * (n2 - 1) / n2, rel=1e-12)


def test_f_prime_and_slot_error_rates():
    result = coefficients(TABLE_1, NAMES, nothing="Nothing")
    assert_printed(result["f_prime"], "0.80267")
    assert_printed(result["f_measure"], "0.747")
    assert_printed(result["f_prime"], "0.803")
    assert_printed(result["slot_error_rate"], "0.33867")
    assert_printed(result["slot_error_rate"], "0.339")
    assert_printed(result["slot_error_rate_full"], "0.395")
    assert result["f_prime"] == pytest.approx((2 * 140 + 21) / (2 * 140 + 2 * 21 + 53))


def test_finn_r_depends_on_the_coding_order():
    paper_order = coefficients(TABLE_1, NAMES, finn_order=FINN_ORDER, nothing="Nothing")
    assert_printed(paper_order["finn_r"], "0.9943713")
    default = coefficients(TABLE_1, NAMES, nothing="Nothing")  # Former, New, Nothing
    assert default["finn_r"] == pytest.approx(1 - (10.5 + 60 + 11.5) / 19054 / (8 / 12))
    assert abs(default["finn_r"] - paper_order["finn_r"]) > 1e-4


@settings(max_examples=50, deadline=None, derandomize=True)
@given(st.lists(st.integers(0, 50), min_size=4, max_size=4).filter(lambda c: sum(c) > 0))
def test_finn_r_equals_s_for_two_categories(cells):
    table = np.array(cells).reshape(2, 2)
    result = coefficients(table, ["A", "B"])
    assert result["finn_r"] == pytest.approx(result["bennett_s"], abs=1e-12)
    swapped = coefficients(table, ["A", "B"], finn_order=["B", "A"])
    assert swapped["finn_r"] == pytest.approx(result["finn_r"], abs=1e-12)


TABLE_7 = {
    "Former": {"Former": "0.735751", "New": "0.108808", "Nothing": "0.155440"},
    "New": {"Former": "0.115385", "New": "0.758242", "Nothing": "0.126374"},
    "Nothing": {"Former": "0.000795", "New": "0.000609", "Nothing": "0.998595"},
}
TABLE_8 = {("Former", "New"): "0.112096", ("Former", "Nothing"): "0.078117", ("New", "Nothing"): "0.063491"}


def test_table_7_category_probabilities():
    result = coefficients(TABLE_1, NAMES, nothing="Nothing")["category_probabilities"]
    for c1, row in TABLE_7.items():
        for c2, printed in row.items():
            assert_printed(result[c1][c2], printed)  # P(c2 | c1)
        assert sum(result[c1].values()) == pytest.approx(1.0)


def test_table_8_category_similarity():
    result = coefficients(TABLE_1, NAMES, nothing="Nothing")["category_similarity"]
    for (c1, c2), printed in TABLE_8.items():
        assert_printed(result[c1][c2], printed)
        assert result[c2][c1] == result[c1][c2]
    assert result["Former"]["New"] > result["Former"]["Nothing"] > result["New"]["Nothing"]


def test_result_is_plain_json():
    result = coefficients(np.array(TABLE_1), NAMES, distance=TABLE_2_DISTANCE, nothing="Nothing")
    text = json.dumps(result, allow_nan=False)
    assert json.loads(text) == result
    assert all(type(result[k]) is float for k in ("cohen_kappa", "finn_r", "weighted_kappa"))


def test_default_names_and_nothing_absent():
    result = coefficients(TABLE_4)
    assert result["categories"] == ["0", "1"]
    # no Nothing category: D = I = 0, F = observed agreement
    assert result["f_measure"] == pytest.approx(result["observed_agreement"])


# -- irrCAC published values (SOURCE.md) -----------------------------------------------------------


def test_irrcac_cont3x3abstractors(shared_data):
    with open(shared_data / "agreement_reference/irrCAC_R_package/cont3x3abstractors.csv", newline="") as handle:
        header, *rows = list(csv.reader(handle))
    table = [[int(cell) for cell in row[1:]] for row in rows]
    assert table == [[13, 0, 0], [0, 20, 7], [0, 4, 56]]
    result = coefficients(table, header[1:], distance=1 - np.eye(3))
    assert_printed(result["cohen_kappa"], "0.7964094")
    assert_printed(result["scott_pi"], "0.7962397")
    assert_printed(result["bennett_s"], "0.835")  # Brennan-Prediger = Bennett's S for 3 categories
    assert_printed(result["krippendorff_alpha"], "0.7972585")
    assert_printed(result["observed_agreement"], "0.89")


# -- cross-checks ----------------------------------------------------------------------------------


def _random_table(seed: int, q: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    table = rng.integers(0, 30, size=(q, q)) + np.diag(rng.integers(5, 60, size=q))
    return table


def _annotation_task(table: np.ndarray, distance=None):
    from nltk.metrics.agreement import AnnotationTask

    data = []
    item = 0
    for i, j in np.ndindex(table.shape):
        for _ in range(int(table[i, j])):
            data += [("ref", item, i), ("pred", item, j)]
            item += 1
    return AnnotationTask(data) if distance is None else AnnotationTask(data, distance=distance)


@pytest.mark.parametrize("seed", range(6))
def test_cross_check_nltk(seed):
    q = 2 + seed % 4
    table = _random_table(seed, q)
    weights = np.random.default_rng(100 + seed).uniform(0.1, 1.0, size=(q, q))
    weights = (weights + weights.T) / 2
    np.fill_diagonal(weights, 0.0)
    ours = coefficients(table, distance=weights)
    task = _annotation_task(table)
    assert ours["bennett_s"] == pytest.approx(task.S(), abs=1e-12)
    assert ours["scott_pi"] == pytest.approx(task.pi(), abs=1e-12)
    assert ours["cohen_kappa"] == pytest.approx(task.kappa(), abs=1e-12)
    weighted = _annotation_task(table, distance=lambda a, b: float(weights[a, b]))
    assert ours["weighted_kappa"] == pytest.approx(weighted.weighted_kappa(), abs=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_cross_check_statsmodels_cohens_kappa(seed):
    from statsmodels.stats.inter_rater import cohens_kappa

    q = 2 + seed % 4
    table = _random_table(seed, q)
    codes = np.arange(q, dtype=float)
    linear = np.abs(codes[:, None] - codes[None, :])
    ours = coefficients(table, distance=linear)
    assert ours["cohen_kappa"] == pytest.approx(cohens_kappa(table, return_results=False), abs=1e-12)
    assert ours["weighted_kappa"] == pytest.approx(
        cohens_kappa(table, wt="linear", return_results=False), abs=1e-12
    )


@pytest.mark.parametrize("seed", range(4))
def test_cross_check_krippendorff_package(seed):
    import krippendorff

    q = 2 + seed
    table = _random_table(seed, q)
    ref, pred = [], []
    for i, j in np.ndindex(table.shape):
        ref += [i] * int(table[i, j])
        pred += [j] * int(table[i, j])
    data = np.array([ref, pred], dtype=float)
    codes = np.arange(q, dtype=float)
    nominal = coefficients(table, distance=1 - np.eye(q))["krippendorff_alpha"]
    interval = coefficients(table, distance=(codes[:, None] - codes[None, :]) ** 2)["krippendorff_alpha"]
    assert nominal == pytest.approx(krippendorff.alpha(data, level_of_measurement="nominal"), abs=1e-10)
    assert interval == pytest.approx(krippendorff.alpha(data, level_of_measurement="interval"), abs=1e-10)


# -- degenerate tables -----------------------------------------------------------------------------


def test_single_category_is_undefined_not_a_crash():
    result = coefficients([[7]], ["O"])
    assert result["observed_agreement"] == 1.0
    for name in ("bennett_s", "scott_pi", "cohen_kappa", "finn_r", "f_measure", "slot_error_rate"):
        assert result[name] is None
    text = " | ".join(result["warnings"])
    assert "cohen_kappa: chance agreement is 1" in text
    assert "finn_r: a single category" in text
    assert "f_measure, f_prime, slot_error_rate, slot_error_rate_full: no item is outside" in text
    json.dumps(result, allow_nan=False)


def test_only_nothing_agreement_has_no_f_measure():
    result = coefficients([[0, 0], [0, 12]], ["X", "O"], distance=[[0, 1], [1, 0]])
    assert result["scott_pi"] is None and result["krippendorff_alpha"] is None
    assert result["bennett_s"] == 1.0
    assert result["f_measure"] is None and result["slot_error_rate_full"] is None
    assert result["category_probabilities"]["X"] == {"X": None, "O": None}
    assert any("['X'] are never used" in w for w in result["warnings"])
    assert any("krippendorff_alpha: expected disagreement is 0" in w for w in result["warnings"])


def test_empty_table():
    result = coefficients(np.zeros((2, 2)), ["A", "O"])
    assert result["observed_agreement"] is None and result["cohen_kappa"] is None
    assert "empty" in result["warnings"][0]


# -- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "table, categories, message",
    [
        ([[1, 2, 3], [4, 5, 6]], None, r"must be square .* got shape \(2, 3\)"),
        ([[1, -2], [3, 4]], None, "negative counts"),
        ([[1, 2], [3, 4]], ["A", "B", "C"], "3 categories given for a 2 x 2 table"),
        ([[1, 2], [3, 4]], ["A", "A"], "duplicate category names"),
        ([[1, float("nan")], [3, 4]], None, "NaN or infinite"),
        ([["a", "b"], ["c", "d"]], None, "numeric square matrix"),
    ],
)
def test_bad_tables(table, categories, message):
    with pytest.raises(ValueError, match=message):
        coefficients(table, categories)


@pytest.mark.parametrize(
    "distance, message",
    [
        ({"Former": {"Old": 1}}, "unknown category 'Old'"),
        ({("Former", "New"): 0.5, ("New", "Former"): 0.7, ("Former", "Nothing"): 1, ("New", "Nothing"): 1},
         "not symmetric: d\\('Former', 'New'\\) = 0.5 but d\\('New', 'Former'\\) = 0.7"),
        ([[0, 0.5, 1], [0.4, 0, 1], [1, 1, 0]], "not symmetric"),
        ([[0, -0.5, 1], [-0.5, 0, 1], [1, 1, 0]], "non-negative: d\\('Former', 'New'\\) = -0.5"),
        ([[0, 0.5, 1], [0.5, 0.2, 1], [1, 1, 0]], "0 on the diagonal: d\\('New', 'New'\\) = 0.2"),
        ([[0, 1], [1, 0]], r"shape \(2, 2\), expected \(3, 3\)"),
        ({"Former": {"New": 0.5}}, "no value for the pair \\('Former', 'Nothing'\\)"),
        ({"Former": {"New": "far"}}, "is not a number"),
        ({"Former": 1}, "give a dict of dicts"),
    ],
)
def test_bad_distances(distance, message):
    with pytest.raises(ValueError, match=message):
        coefficients(TABLE_1, NAMES, distance=distance)


def test_bad_finn_order():
    with pytest.raises(ValueError, match="must list each of the categories"):
        coefficients(TABLE_1, NAMES, finn_order=["New", "Former"])
    with pytest.raises(ValueError, match="not a string"):
        coefficients(TABLE_1, NAMES, finn_order="New")


# -- sparse and extreme tables (issue 10 items 1 and 6) -------------------------------------------


def _exact_pi_kappa(table):
    """Scott's pi and Cohen's kappa in exact rationals, straight from section 3.1."""
    from fractions import Fraction

    cells = [[Fraction(x) for x in row] for row in table]
    q = len(cells)
    n = sum(map(sum, cells))
    rows = [sum(row) for row in cells]
    cols = [sum(cells[i][j] for i in range(q)) for j in range(q)]
    observed = sum(cells[i][i] for i in range(q)) / n
    e_pi = sum(((r + c) / (2 * n)) ** 2 for r, c in zip(rows, cols))
    e_kappa = sum(r * c for r, c in zip(rows, cols)) / n**2
    return (observed - e_pi) / (1 - e_pi), (observed - e_kappa) / (1 - e_kappa)


@pytest.mark.parametrize(
    "table, kappa",
    [([[999997, 1], [0, 2]], 999997 / 1249997), ([[5, 1], [2, 10**7]], None), ([[1, 0], [0, 10**12]], 1.0)],
)
def test_sparse_tables_keep_kappa_and_pi(table, kappa):
    """Issue 10 item 1: A_e within 1e-5 of 1 is not "one category"; only the table decides."""
    result = coefficients(table)
    pi, exact_kappa = _exact_pi_kappa(table)
    assert result["cohen_kappa"] == pytest.approx(float(exact_kappa), rel=1e-12)
    assert result["scott_pi"] == pytest.approx(float(pi), rel=1e-12)
    if kappa is not None:
        assert result["cohen_kappa"] == pytest.approx(kappa, rel=1e-12)
    assert not any("chance agreement is 1" in w for w in result["warnings"])


def test_kappa_and_pi_undefined_exactly_when_one_category_is_used():
    assert coefficients([[10**9, 0], [0, 0]])["cohen_kappa"] is None
    assert coefficients([[0, 0], [0, 1e-300]])["scott_pi"] is None
    # rows all in one category, columns all in the other: A_e = 0, kappa = 0, pi = -1
    result = coefficients([[0, 5], [0, 0]])
    assert result["cohen_kappa"] == 0.0 and result["scott_pi"] == -1.0


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    st.integers(2, 4).flatmap(
        lambda q: st.lists(
            st.lists(st.one_of(st.integers(0, 3), st.integers(0, 10**9)), min_size=q, max_size=q),
            min_size=q, max_size=q,
        )
    )
)
def test_pi_and_kappa_match_exact_rationals(table):
    result = coefficients(table)
    used = sum(1 for k in range(len(table)) if sum(table[k]) + sum(row[k] for row in table) > 0)
    if used <= 1:
        assert result["cohen_kappa"] is None and result["scott_pi"] is None
        return
    pi, kappa = _exact_pi_kappa(table)
    assert result["scott_pi"] == pytest.approx(float(pi), rel=1e-12, abs=1e-15)
    assert result["cohen_kappa"] == pytest.approx(float(kappa), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("scale", [1e200, 1e-200, 1e-300])
def test_huge_and_tiny_counts_give_the_scaled_tables_values(scale):
    """Issue 10 item 6: counts of 1e200 or 1e-200 give the same ratios, never NaN or overflow."""
    reference = coefficients(TABLE_1, NAMES, distance=TABLE_2_DISTANCE)
    scaled = coefficients((np.array(TABLE_1) * scale).tolist(), NAMES, distance=TABLE_2_DISTANCE)
    json.dumps(scaled, allow_nan=False)
    for name in ("observed_agreement", "bennett_s", "scott_pi", "cohen_kappa", "finn_r", "f_measure",
                 "f_prime", "slot_error_rate", "weighted_kappa"):
        assert scaled[name] == pytest.approx(reference[name], rel=1e-12), name
    for c in NAMES:
        assert scaled["category_probabilities"][c] == pytest.approx(reference["category_probabilities"][c])


def test_counts_spanning_600_orders_of_magnitude_use_exact_rationals():
    # the off-diagonal mass is 1e-330 of the total: D_e underflows in floats; exactly kappa = 2/3
    result = coefficients([[1e300, 1e-30], [0, 1e-30]])
    assert result["cohen_kappa"] == pytest.approx(2 / 3, rel=1e-12)
    assert result["scott_pi"] == pytest.approx(2 / 3, rel=1e-12)
    assert result["category_probabilities"]["1"]["1"] == pytest.approx(2 / 3)  # 2e-30 / 3e-30


def test_counts_whose_total_overflows_are_refused():
    with pytest.raises(ValueError, match="too large: their sum overflows"):
        coefficients([[1e308, 1e308], [1e308, 1e308]])
    with pytest.raises(ValueError, match="NaN or infinite"):
        coefficients([[float("inf"), 1], [1, 1]])


def test_docs_sparse_table_number():
    from docs_pages import page

    kappa = coefficients([[999997, 1], [0, 2]])["cohen_kappa"]
    assert f"{kappa:.7f} (= 999997/1249997)" in page("howto/coefficients-and-noise.md")
    assert kappa == pytest.approx(999997 / 1249997, rel=1e-12)
