"""The several-rater family from the nonzero cells of the items x categories count table (issue 26,
item 3): the same bits as the dense table (the oracle in ``tests/oracles.py``) for percent
agreement, Brennan-Prediger, Gwet's AC1/AC2, (weighted) Fleiss' kappa and Krippendorff's alpha;
Fleiss' kappa per category and Light's kappa, whose sums over items changed order, against exact
fractions and the dense table; and 483,000 tokens x 3 raters x 222 nominal labels computed."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from chance_agreement._numerics.exact_sum import sparse_row_sums
from chance_agreement.reliability import multi_rater
from chance_agreement.reliability.multi_rater import (
    fleiss_kappa_per_category, light_kappa, multi_rater_agreement,
)
from chance_agreement.reliability.multi_rater_tags import multi_rater_report
from chance_agreement.reliability.rater_coefficients.light_kappa import cohen_pair

from oracles import DenseRatings, alpha_inference_reference, family_reference, light_reference, per_category_reference
from test_large_nominal import labelled, traced_peak

FAMILY = (("percent_agreement", "percent_agreement"), ("brennan_prediger", "brennan_prediger"),
          ("gwet_ac", "gwet_ac1"), ("fleiss_kappa", "fleiss_kappa"))


@st.composite
def ratings(draw, max_categories=300):
    """Items x raters codes (NaN missing), raters agreeing often, up to 300 categories (numpy's
    pairwise row sums change shape at 8 and 128 terms)."""
    n, r = draw(st.integers(1, 40)), draw(st.integers(2, 6))
    q = draw(st.sampled_from([1, 2, 3, 7, 8, 9, 17, 130, max_categories]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    raw = rng.integers(0, q, (n, r)).astype(float)
    agree = rng.random(n) < 0.6
    raw[agree] = raw[agree, :1]
    raw[rng.random((n, r)) < draw(st.sampled_from([0.0, 0.2, 0.5]))] = np.nan
    return raw


@settings(max_examples=150)
@given(st.integers(1, 30), st.integers(1, 700), st.integers(0, 2**32 - 1), st.sampled_from([None, 10, 2**60]))
def test_sparse_row_sums_are_numpys_row_reduction(n_rows, length, seed, whole):
    """Fractions in numpy's pairwise order; whole numbers (exact in any order below 2^53, or not)."""
    rng = np.random.default_rng(seed)
    table = np.zeros((n_rows, length))
    for i in range(n_rows):
        for _ in range(int(rng.integers(0, 7))):
            value = (2 * rng.random() - 1) * float(Fraction(10) ** int(rng.integers(-4, 5)))
            table[i, rng.integers(0, length)] = value if whole is None else float(rng.integers(-whole, whole))
    rows, columns = np.nonzero(table)
    assert np.array_equal(sparse_row_sums(rows, columns, table[rows, columns], n_rows, length),
                          np.add.reduce(table, axis=1))


@settings(max_examples=120)
@given(ratings(), st.sampled_from(["identity", "linear", "quadratic"]), st.booleans())
def test_family_is_the_dense_tables_bits(raw, weights, as_counts):
    """Every coefficient of Gwet's family and alpha's inference: the dense path's dicts exactly."""
    dense = DenseRatings(raw, None, None, weights)
    if as_counts:
        if not dense.counts.size:
            return
        dense = DenseRatings(None, dense.counts, None, weights)
        ours = multi_rater_agreement(counts=dense.counts, weights=weights)
    else:
        try:
            ours = multi_rater_agreement(raw, weights=weights)
        except ValueError as error:  # nobody rated anything
            assert "no item has a rating" in str(error)
            return
    gwet = "gwet_ac1" if weights == "identity" else "gwet_ac2"
    for name, key in FAMILY:
        assert ours[gwet if name == "gwet_ac" else key] == family_reference(name, dense.counts, dense.weights,
                                                                            dense.warnings), name
    expected = alpha_inference_reference(dense)
    assert expected is None or ours["krippendorff_alpha"] == expected
    assert ours["n_items"] == dense.counts.shape[0]


def exact_per_category(counts, k):
    """Fleiss' kappa of category k (the "k" / "not k" table) and Gwet's variance, in fractions."""
    rows = [(Fraction(int(row[k])), Fraction(int(row.sum()))) for row in counts]
    n, pairable = len(rows), [(c, r) for c, r in rows if r >= 2]
    pi = sum(c / r for c, r in rows) / n
    pe = pi**2 + (1 - pi) ** 2
    pa = sum((c * (c - 1) + (r - c) * (r - c - 1)) / (r * (r - 1)) for c, r in pairable) / len(pairable)
    value = (pa - pe) / (1 - pe)
    terms = [Fraction(n, len(pairable)) * (((c * (c - 1) + (r - c) * (r - c - 1)) / (r * (r - 1)) if r >= 2 else 0)
                                          - (pe if r >= 2 else 0)) / (1 - pe)
             - 2 * (1 - value) * ((c * pi + (r - c) * (1 - pi)) / r - pe) / (1 - pe) for c, r in rows]
    return value, sum((t - value) ** 2 for t in terms) / (n * (n - 1))


@settings(max_examples=80)
@given(ratings(max_categories=140))
def test_fleiss_per_category_is_exact_to_rounding(raw):
    """One sparse pass for every category: within 1e-14 of the exact fractions (the dense path, one
    pass per category, loses digits to p_a - p_e near 1 for rare categories: checked at its own
    error, 1e-15 / (1 - p_e))."""
    dense = DenseRatings(raw, None, None, "identity")
    if not dense.counts.size or dense.counts.shape[0] < 2:
        return
    ours = fleiss_kappa_per_category(raw)
    reference = per_category_reference(dense.counts, dense.categories)
    for k, category in enumerate(dense.categories):
        mine, old = ours[category], reference[category]
        assert (mine["value"] is None) == (old["value"] is None) and mine["warnings"] == dense.warnings + old["warnings"]
        if mine["value"] is None:
            continue
        value, variance = exact_per_category(dense.counts, k)
        assert mine["value"] == pytest.approx(float(value), rel=1e-14, abs=1e-15)
        assert mine["value"] == pytest.approx(old["value"], rel=1e-14, abs=1e-15 / (1 - old["expected_agreement"]))
        assert mine["observed_agreement"] == pytest.approx(old["observed_agreement"], rel=1e-15)
        assert mine["standard_error"] == pytest.approx(math.sqrt(variance), rel=1e-12, abs=1e-15)
        assert mine["standard_error"] == pytest.approx(old["standard_error"], rel=1e-9)


@settings(max_examples=60)
@given(ratings(max_categories=40), st.sampled_from(["identity", "quadratic"]))
def test_light_jackknife_without_a_table_per_deleted_item(raw, weights):
    """Light's kappa and its jackknife from each pair's nonzero cells: with identity weights every
    pair kappa and every delete-one kappa is the exact fraction (A N - S) / (N^2 - S) correctly
    rounded; against the dense q x q recomputation to its rounding."""
    try:
        ours = light_kappa(raw, weights=weights)
    except ValueError:
        return
    dense = DenseRatings(raw, None, None, weights)
    value, se, pairwise = light_reference(dense.raw[:, (dense.raw >= 0).any(axis=0)], dense.weights, len(dense.categories))
    assert (ours["value"] is None) == (value is None)
    if value is None:
        return
    assert ours["value"] == pytest.approx(value, rel=1e-13, abs=1e-15)
    assert (ours["standard_error"] is None) == (se is None)
    if se is not None:
        assert ours["standard_error"] == pytest.approx(se, rel=1e-10, abs=1e-14)  # perfect pairs: 0 here, 1e-15 there
    if weights == "identity":
        codes = dense.raw[:, (dense.raw >= 0).any(axis=0)]
        q = len(dense.categories)
        for g, h in itertools.combinations(range(codes.shape[1]), 2):
            both = (codes[:, g] >= 0) & (codes[:, h] >= 0)
            first, second = codes[both, g], codes[both, h]
            kappa, without = cohen_pair(first, second, np.eye(q), q)
            for i in range(first.size):  # delete item i
                a, b = np.delete(first, i), np.delete(second, i)
                n_left = a.size
                agree = int((a == b).sum())
                chance = int((np.bincount(a, minlength=q) * np.bincount(b, minlength=q)).sum())
                exact = Fraction(agree * n_left - chance, n_left**2 - chance) if n_left**2 != chance else None
                assert (without[i] == float(exact)) if exact is not None else np.isnan(without[i])


def test_half_a_million_tokens_3_raters_and_222_labels_within_memory():
    """The issue's shape with three raters: the whole family and the report computed (the dense
    table would be 107 million cells, refused before), in far less memory than that table (860 MB)."""
    ratings = labelled(483_000, 222, 3, seed=26, missing=0.05)
    rated = sum(any(label is not None for label in row) for row in ratings)
    report, peak = traced_peak(lambda: multi_rater_report(ratings))
    family = report["multi_rater"]
    assert family["n_items"] == rated > 482_000 and family["n_raters"] == 3 and len(family["categories"]) == 222
    for name in ("percent_agreement", "brennan_prediger", "gwet_ac1", "fleiss_kappa", "krippendorff_alpha",
                 "conger_kappa", "light_kappa"):
        assert 0.5 < family[name]["value"] < 1 and 0 < family[name]["standard_error"] < 0.01, name
    per_category = family["fleiss_kappa_per_category"]
    assert len(per_category) == 222 and all(0 < result["value"] < 1 for result in per_category.values())
    assert report["fleiss_kappa"] == pytest.approx(family["fleiss_kappa"]["value"], rel=1e-12)
    assert peak < 450e6, f"peak {peak / 1e6:.0f} MB"


def test_too_many_labels_is_a_clear_nominal_error_up_front(monkeypatch):
    monkeypatch.setattr(multi_rater, "MAX_COUNT_CELLS", 100)
    with pytest.raises(ValueError, match=r"11 distinct labels: .* 11 x 11 category tables .*merge rare labels") as error:
        multi_rater_agreement([[f"l{i}", f"l{(i + 1) % 11}"] for i in range(11)])
    assert "bin" not in str(error.value) and "interval" not in str(error.value)
