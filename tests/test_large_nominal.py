"""Large nominal data (issue 26, item 3): Fleiss' kappa by sparse counting whatever the number of
labels, the same value as the dense count matrix, and an error that fits nominal data where a
dense table really is needed."""

from __future__ import annotations

import numpy as np
import pytest

from chance_agreement import fleiss_kappa, krippendorff_alpha
from chance_agreement.reliability import multi_annotator


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
    cells): Fleiss' kappa is computed; Krippendorff's alpha, which needs the table, says why and what to do."""
    ratings = labelled(483_000, 222, 2, seed=9)
    assert 0.5 < fleiss_kappa(ratings) < 1.0
    with pytest.raises(ValueError, match="count cells for this coefficient.*per entity type.*merge rare labels"):
        krippendorff_alpha(ratings)
