"""Fleiss' kappa and Krippendorff's alpha for two or more annotators: published values (Fleiss
1971, Krippendorff's C data, irrCAC) and cross-checks against statsmodels and krippendorff."""

from __future__ import annotations

import csv

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chance_agreement import as_items, coefficients, fleiss_kappa, krippendorff_alpha, multi_annotator_agreement
from chance_agreement.reliability.multi_annotator import token_ratings


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
    alpha = krippendorff_alpha(ratings, distance=distance)
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
    interval = krippendorff_alpha(ratings, distance="interval")
    assert krippendorff_alpha(ratings, distance=matrix) == pytest.approx(interval)
    assert krippendorff_alpha(ratings, distance=lambda a, b: (a - b) ** 2) == pytest.approx(interval)


# -- relations and cross-checks --------------------------------------------------------------------


@settings(max_examples=40, deadline=None, derandomize=True)
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
    ours = krippendorff_alpha(data.tolist(), distance=level, categories=sorted(set(data[~np.isnan(data)])))
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
        krippendorff_alpha(ratings, distance=distance)


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
    with pytest.raises(ValueError, match=r"multi_annotator_agreement: annotations\[1\]: the annotators' tag sequences have different lengths \[1, 2\]"):
        multi_annotator_agreement([[["O"], ["O"]], [["O"], ["O", "O"]]])
    with pytest.raises(ValueError, match=r"annotations\[1\]: 3 annotator slots but sentence 0 has 2"):
        multi_annotator_agreement([[["O"], ["O"]], [["O"], ["O"], ["O"]]])
    with pytest.raises(ValueError, match=r"multi_annotator_agreement: annotations\[0\]\[1\]: position 0: the tag is an empty string"):
        multi_annotator_agreement([[["O"], [""]]])
    with pytest.raises(ValueError, match="need at least 2 annotators per sentence, sentence 0 has 1"):
        multi_annotator_agreement([[["O"]]])


# -- the numpy counting against the former loop over every cell (issue 11) -------------------------


def _loop_counts(rows):
    """The former implementation: one Python step per cell (None/NaN missing), categories sorted."""
    def missing(v):
        return v is None or (isinstance(v, float) and v != v)

    seen = sorted({v for row in rows for v in row if not missing(v)},
                  key=lambda v: (0, v, "") if isinstance(v, (int, float)) else (1, 0, str(v)))
    index = {c: j for j, c in enumerate(seen)}
    counts = np.zeros((len(rows), len(seen)))
    for i, row in enumerate(rows):
        for v in row:
            if not missing(v):
                counts[i, index[v]] += 1
    return counts, seen


def _loop_fleiss(rows):
    counts, _ = _loop_counts(rows)
    per_item = counts.sum(axis=1)
    pairable, rated = per_item >= 2, per_item >= 1
    a, r = counts[pairable], per_item[pairable]
    observed = np.mean((a * (a - 1)).sum(axis=1) / (r * (r - 1)))
    p = (counts[rated] / per_item[rated, None]).mean(axis=0)
    expected = np.sum(p**2)
    return (observed - expected) / (1 - expected)


def _loop_alpha(rows, level):
    counts, cats = _loop_counts(rows)
    o = np.zeros((len(cats), len(cats)))
    for u in counts:
        m = u.sum()
        if m >= 2:
            o += (np.outer(u, u) - np.diag(u)) / (m - 1)
    n_c = o.sum(axis=1)
    n = n_c.sum()
    values = np.array(cats, dtype=float) if level == "interval" else None
    delta = (values[:, None] - values[None, :]) ** 2 if level == "interval" else 1 - np.eye(len(cats))
    return 1 - (np.sum(o * delta) / n) / (np.sum(np.outer(n_c, n_c) * delta) / (n * (n - 1)))


def _random_ratings(seed, n_items=300, k=6, q=4, missing=0.15, labels=None):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, q, size=n_items)
    codes = np.where(rng.random((n_items, k)) < 0.5, truth[:, None], rng.integers(0, q, size=(n_items, k)))
    rows = [[(labels[c] if labels else int(c) + 1) for c in row] for row in codes]
    for i, j in zip(*np.nonzero(rng.random((n_items, k)) < missing)):
        rows[i][j] = None
    return rows


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("form", ["list of ints", "list of strings", "float array with NaN"])
def test_numpy_counting_matches_the_cell_loop(seed, form):
    labels = ["PER", "LOC", "ORG", "O"] if form == "list of strings" else None
    rows = _random_ratings(seed, labels=labels)
    given = rows
    if form == "float array with NaN":
        given = np.array([[np.nan if v is None else float(v) for v in row] for row in rows])
    assert fleiss_kappa(given) == pytest.approx(_loop_fleiss(rows), rel=1e-12, abs=1e-15)
    assert krippendorff_alpha(given) == pytest.approx(_loop_alpha(rows, "nominal"), rel=1e-12, abs=1e-15)
    if form != "list of strings":
        assert krippendorff_alpha(given, distance="interval") == pytest.approx(
            _loop_alpha(rows, "interval"), rel=1e-12, abs=1e-15)


def test_rating_codes_and_count_matrix():
    from chance_agreement.reliability.multi_annotator import count_matrix, rating_codes

    codes, cats = rating_codes([["b", "a", None], ["a", "a", float("nan")]])
    assert cats == ["a", "b"] and codes.tolist() == [[1, 0, -1], [0, 0, -1]]
    assert count_matrix(codes, 2).tolist() == [[1, 1], [2, 0]]
    codes, cats = rating_codes(np.array([[3, 1], [1, 10**12]]))  # a wide range: np.unique
    assert cats == [1, 3, 10**12] and codes.tolist() == [[1, 0], [0, 2]]
    codes, cats = rating_codes(np.array([[3.0, np.nan], [1.0, 3.0]]), categories=[3.0, 1.0, 2.0])
    assert cats == [3.0, 1.0, 2.0] and codes.tolist() == [[0, -1], [1, 0]]
    codes, cats = rating_codes(np.array([[True, False], [True, True]]))
    assert cats == [False, True] and codes.tolist() == [[1, 0], [1, 1]]


def test_array_and_list_forms_give_identical_results():
    rows = _random_ratings(7, n_items=50)
    array = np.array([[np.nan if v is None else v for v in row] for row in rows], dtype=float)
    assert fleiss_kappa(array, details=True) == fleiss_kappa(rows, details=True) | {
        "categories": [float(c) for c in fleiss_kappa(rows, details=True)["categories"]]}
    assert krippendorff_alpha(array, distance="interval") == krippendorff_alpha(rows, distance="interval")


# -- sparse and extreme ratings (issue 10 items 1 and 6) -------------------------------------------


def test_fleiss_sparse_disagreement_is_not_one_category():
    """Issue 10 item 1: P_E within 1e-5 of 1 is not "every rating the same category"."""
    from fractions import Fraction

    ratings = [["a", "a"]] * 999_999 + [["a", "b"], ["b", "b"]]
    # P_A = 1,000,000/1,000,001; p_b = 3/2,000,002; K = (P_A - P_E) / (1 - P_E)
    n = 1_000_001
    p_b = Fraction(3, 2 * n)
    p_e = p_b**2 + (1 - p_b) ** 2
    expected = (Fraction(n - 1, n) - p_e) / (1 - p_e)
    assert fleiss_kappa(ratings) == pytest.approx(float(expected), rel=1e-9)
    assert fleiss_kappa(np.array([[0, 0]] * 999_999 + [[0, 1], [1, 1]])) == pytest.approx(float(expected), rel=1e-9)


def test_fleiss_counts_of_1e200_do_not_overflow():
    small = fleiss_kappa(counts=[[2, 1], [0, 3], [1, 2]])
    huge = fleiss_kappa(counts=[[2e200, 1e200], [0, 3e200], [1e200, 2e200]])
    assert small == pytest.approx(0.0, abs=1e-12)
    assert huge == pytest.approx(1 / 3, rel=1e-12)  # a(a - 1) / (r(r - 1)) -> (a / r)^2
    with pytest.raises(ValueError, match="whole numbers"):
        fleiss_kappa(counts=[[1e-200, 1], [1, 1]])
    with pytest.raises(ValueError, match="overflows"):
        fleiss_kappa(counts=[[1e308, 1e308], [1, 1]])


@pytest.mark.parametrize("scale", [1e100, 1e-200, 1e-300])
def test_interval_alpha_is_scale_free_for_huge_and_tiny_labels(scale):
    rows = _random_ratings(3, n_items=40)
    reference = krippendorff_alpha(rows, distance="interval")
    scaled = [[None if v is None else v * scale for v in row] for row in rows]
    assert krippendorff_alpha(scaled, distance="interval") == pytest.approx(reference, rel=1e-12)
    assert krippendorff_alpha(scaled, distance="ratio") == pytest.approx(krippendorff_alpha(rows, distance="ratio"), rel=1e-12)


def test_interval_alpha_refuses_inf_and_overflowing_labels():
    with pytest.raises(ValueError, match="finite numeric labels"):
        krippendorff_alpha([[1.0, float("inf")], [2.0, 2.0]], distance="interval")
    with pytest.raises(ValueError, match="too far apart"):
        krippendorff_alpha([[1e200, 3e200], [2e200, 2e200]], distance="interval")
    assert krippendorff_alpha([[1e200, 3e200], [2e200, 2e200]], distance="ratio") is not None


@settings(max_examples=50, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.integers(0, 8), st.lists(st.booleans(), min_size=3, max_size=3), st.randoms()),
                min_size=1, max_size=6))
def test_token_ratings_by_tag_match_the_span_path(items):
    """The default chunker's categories come from each tag alone; the span path is the oracle."""
    from chance_agreement.reliability.contingency_table import token_categories
    from chance_agreement.spans.tags import spans_from_tags

    tags = ["O", "O", "B-A", "I-A", "I-B", "E-A", "S-C", "B", "I"]
    annotations = []
    for length, present, rng in items:
        annotations.append([[rng.choice(tags) for _ in range(length)] if keep else None for keep in present])
    if not any(len(seq) for item in annotations for seq in item if seq is not None):
        annotations.append([["O"], ["B-A"], None])
    expected = []
    for item in annotations:
        given_ = [seq for seq in item if seq is not None]
        if not given_:
            continue
        columns = [[None] * len(given_[0]) if seq is None else token_categories(spans_from_tags(seq), len(seq))
                   for seq in item]
        expected.extend([list(row) for row in zip(*columns)])
    ratings, k = token_ratings(as_items(annotations))  # per sentence, stated: every sentence may have one length
    assert k == 3 and ratings == expected


def test_too_many_distinct_labels_are_refused_up_front():
    ratings = np.random.default_rng(0).random((20_000, 3)) * 1e6  # 60,000 distinct interval labels
    with pytest.raises(ValueError, match=r"60,000 distinct labels need 3,600,000,000 coincidence cells.*rounded or binned"):
        krippendorff_alpha(ratings, distance="interval")


def test_benchmark_sized_arrays_agree_with_the_peers():
    """The benchmark's shapes (issue 11), smaller: 20,000 items x 10 annotators."""
    import krippendorff
    from statsmodels.stats.inter_rater import aggregate_raters
    from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss

    rng = np.random.default_rng(11)
    ratings = rng.integers(0, 5, size=(20_000, 10))
    assert fleiss_kappa(ratings) == pytest.approx(sm_fleiss(aggregate_raters(ratings)[0]), abs=1e-9)
    data = rng.integers(1, 6, size=(20_000, 10)).astype(float)
    data[rng.random(data.shape) < 0.1] = np.nan
    for level in ("nominal", "interval"):
        theirs = krippendorff.alpha(reliability_data=data.T, level_of_measurement=level)
        assert krippendorff_alpha(data, distance=level) == pytest.approx(theirs, abs=1e-9)


def test_fleiss_expected_agreement_within_1e_9_of_one_is_still_defined():
    """P_E = 1 - 5e-11 here: a float tolerance on P_E called this "one category" (issue 10 item 1)."""
    from fractions import Fraction

    big = 10**10
    counts = [[big, 1], [2, 0]]
    observed = (Fraction(big * (big - 1), (big + 1) * big) + 1) / 2
    p_b = Fraction(1, big + 1) / 2
    p_e = p_b**2 + (1 - p_b) ** 2
    expected = (observed - p_e) / (1 - p_e)
    result = fleiss_kappa(counts=counts, details=True)
    assert result["kappa"] == pytest.approx(float(expected), rel=1e-6)
    assert result["warnings"] == []


@pytest.mark.parametrize("size", [1e308, 1e-300])
def test_distance_matrices_of_extreme_size_keep_alpha(size):
    ratings = [[1, 2], [2, 2], [1, 1], [3, 2], [3, None]]
    matrix = [[0, 1, 2], [1, 0, 1], [2, 1, 0]]
    reference = krippendorff_alpha(ratings, distance=matrix)
    scaled = krippendorff_alpha(ratings, distance=[[d * (size / 2) for d in row] for row in matrix], details=True)
    assert scaled["alpha"] == pytest.approx(reference, rel=1e-12)
    assert np.isfinite(scaled["observed_disagreement"]) and np.isfinite(scaled["expected_disagreement"])


@pytest.mark.parametrize("distance", ["nominal", "ordinal", "interval", "ratio"])
def test_alpha_without_a_pairable_unit_is_undefined_with_every_distance(distance):
    """No unit holds two values: alpha is None with the reason, also for the ordinal distance,
    whose ranks need the (empty) coincidence matrix's marginals for every category (it raised
    an IndexError before)."""
    result = krippendorff_alpha([[1, None], [None, 2], [3, None]], distance=distance, details=True)
    assert result["alpha"] is None and result["n_pairable_values"] == 0
    assert result["warnings"] == ["fewer than two pairable values: alpha is undefined"]
