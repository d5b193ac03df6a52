"""Fleiss' kappa and Krippendorff's alpha for two or more annotators: published values (Fleiss
1971, Krippendorff's C data, irrCAC) and cross-checks against statsmodels and krippendorff."""

from __future__ import annotations

import csv

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chance_agreement import coefficients, fleiss_kappa, krippendorff_alpha, multi_annotator_agreement
from chance_agreement.coefficients.multi_annotator import token_ratings


def _csv(shared_data, relative, numeric=False):
    """(column names, rows) of a reference CSV without its index column; "" is a missing label."""
    with open(shared_data / "agreement_reference" / relative, newline="") as handle:
        header, *rows = list(csv.reader(handle))

    def cell(text):
        if text == "":
            return None
        return float(text) if numeric else text

    return header[1:], [[cell(text) for text in row[1:]] for row in rows]


def _printed(value, printed: str):
    digits = len(printed.split(".")[1])
    assert isinstance(value, float)
    assert abs(value - float(printed)) < 10.0**-digits, (value, printed)


# -- published values ------------------------------------------------------------------------------


def test_fleiss_1971_diagnoses(shared_data):
    _, ratings = _csv(shared_data, "irr_R_package/diagnoses.csv")
    assert len(ratings) == 30 and len(ratings[0]) == 6
    kappa = fleiss_kappa(ratings)
    _printed(kappa, "0.430")
    _printed(kappa, "0.4302")  # SOURCE.md's verified value
    assert fleiss_kappa(np.array(ratings, dtype=object)) == kappa


def test_irrcac_fleiss_counts_form(shared_data):
    names, counts = _csv(shared_data, "irrCAC_R_package/distrib.6raters.csv", numeric=True)
    result = fleiss_kappa(counts=counts, categories=names, details=True)
    _printed(result["kappa"], "0.4139265")
    _printed(result["observed_agreement"], "0.5511111")
    _printed(result["expected_agreement"], "0.2340741")
    assert result["categories"] == names


def test_counts_form_equals_ratings_form(shared_data):
    # distrib.6raters = the first 15 subjects of Fleiss's diagnoses (SOURCE.md)
    ratings = _csv(shared_data, "irr_R_package/diagnoses.csv")[1][:15]
    counts = _csv(shared_data, "irrCAC_R_package/distrib.6raters.csv", numeric=True)[1]
    assert fleiss_kappa(ratings) == pytest.approx(fleiss_kappa(counts=counts), abs=1e-12)


def test_irrcac_fleiss_with_missing_ratings(shared_data):
    ratings = _csv(shared_data, "irrCAC_R_package/cac.raw4raters.csv", numeric=True)[1]
    assert any(v is None for row in ratings for v in row)
    result = fleiss_kappa(ratings, details=True)
    _printed(result["kappa"], "0.76117")
    _printed(result["expected_agreement"], "0.2387153")
    _printed(result["observed_agreement"], "0.8181818")  # irrCAC's percent agreement
    assert result["n_items"] == 11  # unit 12 has a single rating


def test_irrcac_krippendorff_alpha(shared_data):
    ratings = _csv(shared_data, "irrCAC_R_package/cac.raw4raters.csv", numeric=True)[1]
    _printed(krippendorff_alpha(ratings), "0.74342")


@pytest.mark.parametrize(
    "distance, printed, verified",
    [("nominal", "0.743", "0.7434"), ("ordinal", "0.815", "0.8154"),
     ("interval", "0.849", "0.8491"), ("ratio", "0.797", "0.7974")],
)
def test_krippendorff_c_data(shared_data, distance, printed, verified):
    _, by_coder = _csv(shared_data, "krippendorff_C_data/reliability_data_C.csv", numeric=True)
    ratings = [list(unit) for unit in zip(*by_coder)]  # coders x units -> units x coders
    alpha = krippendorff_alpha(ratings, distance)
    _printed(alpha, printed)
    _printed(alpha, verified)


def test_krippendorff_c_data_details(shared_data):
    by_coder = _csv(shared_data, "krippendorff_C_data/reliability_data_C.csv", numeric=True)[1]
    ratings = [list(unit) for unit in zip(*by_coder)]
    result = krippendorff_alpha(ratings, details=True)
    assert result["n_pairable_values"] == 40  # Krippendorff 2011: n = 40 pairable values
    assert result["observed_disagreement"] == pytest.approx(8 / 40)
    assert result["warnings"] == []


def test_distance_as_matrix_or_callable_matches_named(shared_data):
    by_coder = _csv(shared_data, "krippendorff_C_data/reliability_data_C.csv", numeric=True)[1]
    ratings = [list(unit) for unit in zip(*by_coder)]
    values = [1.0, 2.0, 3.0, 4.0, 5.0]
    matrix = [[(a - b) ** 2 for b in values] for a in values]
    interval = krippendorff_alpha(ratings, "interval")
    assert krippendorff_alpha(ratings, matrix) == pytest.approx(interval)
    assert krippendorff_alpha(ratings, lambda a, b: (a - b) ** 2) == pytest.approx(interval)


# -- relations and cross-checks --------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("abc"), st.sampled_from("abc")), min_size=2, max_size=60))
def test_two_annotator_fleiss_is_scott_pi(pairs):
    """Fleiss' kappa generalises Scott's pi (Fleiss 1971; Artstein & Poesio 2008)."""
    categories = sorted({label for pair in pairs for label in pair})
    index = {c: i for i, c in enumerate(categories)}
    table = np.zeros((len(categories), len(categories)))
    for a, b in pairs:
        table[index[a], index[b]] += 1
    pi = coefficients(table, categories)["scott_pi"]
    kappa = fleiss_kappa([list(p) for p in pairs])
    if pi is None:
        assert kappa is None
    else:
        assert kappa == pytest.approx(pi, abs=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_cross_check_statsmodels_fleiss(seed):
    from statsmodels.stats.inter_rater import aggregate_raters
    from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss

    rng = np.random.default_rng(seed)
    n_items, k, q = 40 + seed, 2 + seed, 3 + seed % 3
    truth = rng.integers(0, q, size=n_items)
    ratings = np.where(rng.random((n_items, k)) < 0.6, truth[:, None], rng.integers(0, q, size=(n_items, k)))
    counts, _ = aggregate_raters(ratings)
    expected = sm_fleiss(counts, method="fleiss")
    assert fleiss_kappa(ratings) == pytest.approx(expected, abs=1e-12)
    assert fleiss_kappa(counts=counts) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("level", ["nominal", "interval", "ordinal"])
def test_cross_check_krippendorff_package(seed, level):
    import krippendorff

    rng = np.random.default_rng(seed)
    n_items, k = 30, 3 + seed % 2
    truth = rng.integers(1, 6, size=n_items).astype(float)
    data = truth[:, None] + rng.integers(-1, 2, size=(n_items, k))
    data[rng.random((n_items, k)) < 0.2] = np.nan  # missing labels
    ours = krippendorff_alpha(data.tolist(), level, categories=sorted(set(data[~np.isnan(data)])))
    theirs = krippendorff.alpha(reliability_data=data.T, level_of_measurement=level)
    assert ours == pytest.approx(theirs, abs=1e-10)


def test_missing_labels_with_none_and_nan_are_the_same():
    with_none = [["a", "a", None], ["b", "a", "b"], [None, "c", "c"], ["a", "a", "a"]]
    with_nan = [[v if v is not None else float("nan") for v in row] for row in with_none]
    assert fleiss_kappa(with_none) == fleiss_kappa(with_nan)
    assert krippendorff_alpha(with_none) == krippendorff_alpha(with_nan)


def test_complete_data_fleiss_formula_by_hand():
    ratings = [["a", "a", "b"], ["a", "a", "a"], ["b", "b", "a"], ["b", "b", "b"]]
    # P_A = mean(1/3, 1, 1/3, 1) = 2/3 ; p_a = p_b = 1/2 ; P_E = 1/2 ; K = 1/3
    assert fleiss_kappa(ratings) == pytest.approx(1 / 3)


# -- degenerate input ------------------------------------------------------------------------------


def test_single_category_is_none_with_reason():
    result = fleiss_kappa([["x", "x"], ["x", "x"]], details=True)
    assert result["kappa"] is None
    assert "chance agreement is 1" in result["warnings"][0]
    assert fleiss_kappa([["x", "x"], ["x", "x"]]) is None
    alpha = krippendorff_alpha([["x", "x"], ["x", "x"]], details=True)
    assert alpha["alpha"] is None and "expected disagreement is 0" in alpha["warnings"][0]


def test_no_pairable_item_is_none_with_reason():
    result = fleiss_kappa([["x", None], [None, "y"]], details=True)
    assert result["kappa"] is None and "no item has two or more ratings" in result["warnings"][0]
    alpha = krippendorff_alpha([["x", None], [None, "y"]], details=True)
    assert alpha["alpha"] is None and "fewer than two pairable values" in alpha["warnings"][0]


# -- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "ratings, message",
    [
        ([["a", "b"], ["a"]], "item 1 has 1 annotator columns, item 0 has 2"),
        ([["a"], ["b"]], "need at least two annotators"),
        ([], "no items"),
        (np.array(["a", "b"]), "2-d items-by-annotators"),
        ([["a", ["b"]], ["a", "a"]], "item 0: label \\['b'\\] is not a hashable"),
    ],
)
def test_bad_ratings(ratings, message):
    with pytest.raises(ValueError, match=message):
        fleiss_kappa(ratings)
    with pytest.raises(ValueError, match=message):
        krippendorff_alpha(ratings)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(counts=[[1, -1], [2, 0]]), "item 0: counts must be non-negative"),
        (dict(counts=[[1, 0.5], [2, 0]]), "item 0: counts must be whole numbers"),
        (dict(counts=[1, 2]), "2-d items-by-categories"),
        (dict(counts=[[1, 1]], categories=["a"]), "2 category columns but 1 categories"),
        (dict(ratings=[["a", "b"]], counts=[[1, 1]]), "exactly one of ratings"),
        (dict(ratings=[["a", "z"]], categories=["a", "b"]), "labels \\['z'\\] are not in categories"),
    ],
)
def test_bad_fleiss_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        fleiss_kappa(**kwargs)


@pytest.mark.parametrize(
    "ratings, distance, message",
    [
        ([[1, 2], [2, 2]], "euclidean", "distance must be one of"),
        ([["a", "b"], ["b", "b"]], "interval", "interval distance needs numeric labels"),
        ([[1, 2], [2, 2]], [[0, 1], [2, 0]], "distance must be symmetric"),
        ([[1, 2], [2, 2]], [[0, -1], [-1, 0]], "distance must be non-negative"),
        ([[1, 2], [2, 2]], [[1, 1], [1, 0]], "zero between a category and itself"),
        ([[1, 2], [2, 2]], [[0, 1, 1], [1, 0, 1], [1, 1, 0]], r"shape \(3, 3\), expected \(2, 2\)"),
        ([[-1, 2], [2, 2]], "ratio", "ratio distance needs non-negative labels"),
    ],
)
def test_bad_alpha_distances(ratings, distance, message):
    with pytest.raises(ValueError, match=message):
        krippendorff_alpha(ratings, distance)


# -- token level from BIO tags ---------------------------------------------------------------------


ANNOTATIONS = [
    [["B-PER", "I-PER", "O", "B-LOC"], ["B-PER", "O", "O", "B-LOC"], ["B-PER", "I-PER", "O", "O"]],
    [["O", "B-ORG"], None, ["O", "B-ORG"]],
    [["B-LOC", "O", "O"], ["B-LOC", "O", "B-PER"], ["O", "O", "O"]],
]


def test_token_ratings_from_tags():
    ratings, k = token_ratings(ANNOTATIONS)
    assert k == 3
    assert ratings[:4] == [["PER", "PER", "PER"], ["PER", "O", "PER"], ["O", "O", "O"], ["LOC", "LOC", "O"]]
    assert ratings[4:6] == [["O", None, "O"], ["ORG", None, "ORG"]]
    assert len(ratings) == 9


def test_multi_annotator_agreement_from_tags():
    result = multi_annotator_agreement(ANNOTATIONS)
    ratings, _ = token_ratings(ANNOTATIONS)
    assert result["fleiss_kappa"] == fleiss_kappa(ratings)
    assert result["krippendorff_alpha"] == krippendorff_alpha(ratings)
    assert result["n_tokens"] == 9 and result["n_annotators"] == 3
    assert result["categories"] == ["LOC", "O", "ORG", "PER"]
    assert 0 < result["fleiss_kappa"] < 1


def test_multi_annotator_errors_name_the_item():
    with pytest.raises(ValueError, match=r"item 1: the annotators' tag sequences have different lengths \[1, 2\]"):
        multi_annotator_agreement([[["O"], ["O"]], [["O"], ["O", "O"]]])
    with pytest.raises(ValueError, match="item 1 has 3 annotator slots but item 0 has 2"):
        multi_annotator_agreement([[["O"], ["O"]], [["O"], ["O"], ["O"]]])
    with pytest.raises(ValueError, match="item 0, annotator 1: position 0: the tag is an empty string"):
        multi_annotator_agreement([[["O"], [""]]])
    with pytest.raises(ValueError, match="need at least two annotators per item, got 1"):
        multi_annotator_agreement([[["O"]]])
