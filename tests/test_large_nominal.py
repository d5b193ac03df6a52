"""Large nominal data (issue 26, item 3): Fleiss' kappa by sparse counting whatever the number of
labels, the same value as the dense count matrix, and an error that fits nominal data where a
dense table really is needed."""

from __future__ import annotations

import math

import numpy as np
import pytest

import tracemalloc

from chance_agreement import conger_kappa, fleiss_kappa, krippendorff_alpha
from chance_agreement.reliability import multi_annotator
from chance_agreement.reliability.rater_coefficients.conger_kappa import conger_item_terms
from chance_agreement.reliability.weights import agreement_weights

from oracles import conger_item_terms_reference


def labelled(items: int, labels: int, raters: int, seed: int, missing: float = 0.0):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, labels, items)
    codes = np.where(rng.random((items, raters)) < 0.8, truth[:, None], rng.integers(0, labels, (items, raters)))
    names = np.array([f"label-{i}" for i in range(labels)], dtype=object)
    ratings = names[codes].tolist()
    if missing:
        for i, g in zip(*np.nonzero(rng.random((items, raters)) < missing)):
            ratings[i][g] = None
    return ratings


def traced_peak(call):
    """``(call(), peak bytes Python allocated during it)`` (tracemalloc)."""
    tracemalloc.start()
    try:
        result = call()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("raters,missing", [(2, 0.0), (3, 0.1), (5, 0.3)])
def test_sparse_counting_equals_the_count_matrix(monkeypatch, raters, missing):
    ratings = labelled(3_000, 60, raters, seed=raters, missing=missing)
    dense = fleiss_kappa(ratings, details=True)
    monkeypatch.setattr(multi_annotator, "MAX_COUNT_CELLS", 10)  # every table is "too large": sparse path
    sparse = fleiss_kappa(ratings, details=True)
    for key in ("kappa", "observed_agreement", "expected_agreement"):
        assert sparse[key] == pytest.approx(dense[key], rel=1e-13, abs=0)
    assert sparse["n_items"] == dense["n_items"] and sparse["categories"] == dense["categories"]


def test_sparse_counting_keeps_the_undefined_cases(monkeypatch):
    monkeypatch.setattr(multi_annotator, "MAX_COUNT_CELLS", 1)
    same = fleiss_kappa([["a", "a"], ["a", "a"], ["a", None]], details=True)
    assert same["kappa"] is None and "chance agreement is 1" in same["warnings"][0]
    lonely = fleiss_kappa([["a", None], [None, "b"]], details=True)
    assert lonely["kappa"] is None and "no item has two" in lonely["warnings"][0]


def test_half_a_million_tokens_and_222_labels():
    """The issue's shape: 483,000 tokens x 222 nominal labels (a dense table would be 107 million
    cells): Fleiss' kappa and Krippendorff's alpha are both computed (alpha refused it before); a
    label set whose coincidence matrix is too large says why and what to do."""
    ratings = labelled(483_000, 222, 2, seed=9)
    kappa, alpha = fleiss_kappa(ratings), krippendorff_alpha(ratings)
    assert 0.5 < kappa < 1.0 and 0.5 < alpha < 1.0
    assert abs(alpha - kappa) < 1e-4  # two annotators, nominal: alpha = kappa (1 - 1/2n) + 1/2n
    with pytest.raises(ValueError, match="coincidence cells per unit size.*per entity type or merge rare labels"):
        multi_annotator.coincidences_from_codes(np.array([[0, 10_001]]), 10_002)


@pytest.mark.parametrize("weights", ["identity", "linear", "quadratic"])
@pytest.mark.parametrize("seed", range(6))
def test_conger_item_terms_equal_the_dense_arrays(weights, seed):
    """Conger's per-item chance terms without the items x raters x categories one-hot array equal
    the dense computation (the oracle) to rounding, missing ratings included."""
    rng = np.random.default_rng(seed)
    n, r, q = int(rng.integers(5, 80)), int(rng.integers(2, 7)), int(rng.integers(2, 9))
    raw = rng.integers(0, q, (n, r))
    raw[rng.random((n, r)) < 0.2] = -1
    raw[0] = rng.integers(0, q, r)  # every rater rates something
    w = agreement_weights(weights, range(q))
    dense = conger_item_terms_reference(raw, w, q)
    counts = np.stack([np.bincount(c[c >= 0], minlength=q) for c in raw.T]).astype(float)
    n_g = counts.sum(axis=1)
    p_gk = counts / n_g[:, None]
    sparse = conger_item_terms(raw, raw >= 0, p_gk, p_gk.mean(axis=0), w, n_g / n)
    np.testing.assert_allclose(sparse, dense, rtol=1e-12, atol=1e-13)


def test_conger_with_222_labels_needs_no_one_hot_array():
    """20,000 items x 3 raters x 222 labels: the one-hot array alone was 107 MB and the peak 571 MB
    (three such arrays at once); now the peak is 108 MB, the items x categories count table (36 MB)
    and the observed agreement's arrays of its shape."""
    ratings = labelled(20_000, 222, 3, seed=4)
    result, peak = traced_peak(lambda: conger_kappa(ratings))
    assert 0.5 < result["value"] < 1.0 and result["standard_error"] > 0
    assert peak < 200e6, f"peak {peak / 1e6:.0f} MB"


@pytest.mark.parametrize("seed", range(8))
def test_coincidences_from_codes_equal_the_count_table_path(seed):
    """Pairs counted per unit size from the codes give the same coincidence matrix, bit for bit, as
    the items x categories count table, and both equal Krippendorff's formula on the table
    (``sum_u n_uc (n_uk - [c == k]) / (m_u - 1)``, summed unit by unit) to rounding."""
    rng = np.random.default_rng(seed)
    n, r, q = int(rng.integers(3, 200)), int(rng.integers(2, 7)), int(rng.integers(1, 12))
    codes = rng.integers(0, q, (n, r))
    codes[rng.random((n, r)) < 0.3] = -1
    counts = multi_annotator.count_matrix(codes, q)
    from_codes = multi_annotator.coincidences_from_codes(codes, q)
    assert np.array_equal(from_codes, multi_annotator.coincidence_matrix(counts))
    m_u = counts.sum(axis=1)
    formula = sum((np.outer(row, row) - np.diag(row)) / (m - 1) for row, m in zip(counts, m_u) if m >= 2)
    np.testing.assert_allclose(from_codes, formula if np.ndim(formula) else np.zeros((q, q)), rtol=1e-14, atol=1e-12)


def test_alpha_is_the_same_bits_above_the_count_table_limit(monkeypatch):
    """Past the count-table limit alpha takes the pairs path and gives the same bits."""
    ratings = labelled(4_000, 50, 4, seed=3, missing=0.2)
    below = krippendorff_alpha(ratings, details=True)
    monkeypatch.setattr(multi_annotator, "MAX_COUNT_CELLS", 4_000 * 50 - 1)
    above = krippendorff_alpha(ratings, details=True)
    assert above == below and below["alpha"] is not None


def test_light_kappa_memory_does_not_grow_with_pairs_times_items():
    # issue 38 item 3b: 200 raters x 30,000 items took 9.4 GB (a pairs x items array), 300 a MemoryError
    from chance_agreement import light_kappa

    ratings = labelled(2_000, 3, 60, seed=7, missing=0.05)  # 1,770 pairs: 28 MB as pairs x items
    result, peak = traced_peak(lambda: light_kappa(ratings))
    assert peak < 8_000_000, peak
    assert result["n_pairs"] == 1770 and result["standard_error"] > 0


def test_light_kappa_jackknife_keeps_its_bits():
    """The jackknife's mean over pairs, as np.mean over the stacked pairs x items array computed it."""
    from chance_agreement import light_kappa
    from chance_agreement.reliability.rater_coefficients.conger_kappa import rater_codes
    from chance_agreement.reliability.rater_coefficients.light_kappa import cohen_pair
    from chance_agreement.reliability.multi_rater import Ratings

    for seed, raters in ((1, 3), (2, 9), (3, 14)):
        ratings = labelled(300, 4, raters, seed=seed, missing=0.2)
        data = Ratings(ratings, None, None, "identity")
        raw, _ = rater_codes(data)
        stacked = []
        for g in range(raters):
            for h in range(g + 1, raters):
                both = (raw[:, g] >= 0) & (raw[:, h] >= 0)
                kappa, cells = cohen_pair(raw[both, g], raw[both, h], data.weights, len(data.categories))
                without = np.full(raw.shape[0], kappa)
                without[both] = cells
                stacked.append(without)
        jack = np.mean(stacked, axis=0)
        n = raw.shape[0]
        variance = (n - 1) / n * float(((jack - jack.mean()) ** 2).sum())
        assert light_kappa(ratings)["standard_error"] == math.sqrt(variance)
