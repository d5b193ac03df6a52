"""The random annotation model against exact enumeration, Monte Carlo sampling and its invariants."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chance_agreement import (
    coverage_probabilities,
    expected_overlap,
    sample_annotation,
    start_probabilities,
)

MODELS = ("non_overlapping", "overlapping")


def enumerate_placements(n, lengths, model):
    """Every feasible placement (tuple of starts), each equally likely under the model."""
    for starts in itertools.product(*[range(n - a + 1) for a in lengths]):
        if model == "non_overlapping":
            cells = [t for s, a in zip(starts, lengths) for t in range(s, s + a)]
            if len(cells) != len(set(cells)):
                continue
        yield starts


def exact_distributions(n, lengths, model):
    """Coverage (expected number of segments on each token) and start laws, as Fractions."""
    placements = list(enumerate_placements(n, lengths, model))
    weight = Fraction(1, len(placements))
    coverage = [Fraction(0)] * n
    starts = [[Fraction(0)] * (n - a + 1) for a in lengths]
    for placement in placements:
        for i, (start, length) in enumerate(zip(placement, lengths)):
            starts[i][start] += weight
            for t in range(start, start + length):
                coverage[t] += weight
    return coverage, starts


def small_cases(count=250, seed=7):
    rng = random.Random(seed)
    cases = []
    while len(cases) < count:
        n = rng.randint(1, 12)
        lengths = [rng.randint(1, 5) for _ in range(rng.randint(0, 4))]
        model = rng.choice(MODELS)
        if lengths and max(lengths) > n:
            continue
        if model == "non_overlapping" and sum(lengths) > n:
            continue
        cases.append((n, lengths, model))
    return cases


@pytest.mark.parametrize("n,lengths,model", small_cases())
def test_matches_exact_enumeration(n, lengths, model):
    coverage, starts = exact_distributions(n, lengths, model)
    np.testing.assert_allclose(coverage_probabilities(n, lengths, model), [float(c) for c in coverage], rtol=0, atol=1e-12)
    for index in range(len(lengths)):
        got = start_probabilities(n, lengths, index, model)
        np.testing.assert_allclose(got, [float(p) for p in starts[index]], rtol=0, atol=1e-12)


def test_paper_start_distribution_example_is_flat_in_the_middle():
    """Figure 1: n = 100, lengths 1, 5, 10, 15; Proposition 3's middle band is uniform."""
    lengths = [1, 5, 10, 15]
    a, k = sum(lengths), len(lengths)
    for index, length in enumerate(lengths):
        p = start_probabilities(100, lengths, index)
        assert p.size == 100 - length + 1
        assert p.sum() == pytest.approx(1.0, abs=1e-12)
        # 1-based band a - a_i - k + 2 <= l <= n - a + k  ->  0-based [a - a_i - k + 1, n - a + k - 1]
        band = p[a - length - k + 1 : 100 - a + k]
        assert np.ptp(band) < 1e-15
        # the ends are higher than the middle (inverted trapezoid); p(start = 1) = 1 / (n - a + k)
        assert p[0] == pytest.approx(1 / (100 - a + k), rel=1e-12)
        assert p[0] > band[0] or length == max(lengths)


@pytest.mark.parametrize("model", MODELS)
def test_monte_carlo_agrees_within_four_standard_errors(model):
    n, lengths = 60, [7, 1, 3, 3, 12, 2]
    rng = np.random.default_rng(12345)
    draws = 20000
    hits = np.zeros(n)
    first_starts = np.zeros(n - lengths[4] + 1)
    for _ in range(draws):
        starts = sample_annotation(n, lengths, rng, model)
        for start, length in zip(starts, lengths):
            hits[start : start + length] += 1
        first_starts[starts[4]] += 1
    coverage = coverage_probabilities(n, lengths, model)
    # the number of segments on a token is at most 1 (non-overlapping) or len(lengths) (overlapping)
    bound = 1 if model == "non_overlapping" else len(lengths)
    standard_error = np.sqrt(np.maximum(coverage * (bound - coverage), 1e-12) / draws)
    assert np.all(np.abs(hits / draws - coverage) <= 4 * standard_error + 1e-12)
    p = start_probabilities(n, lengths, 4, model)
    standard_error = np.sqrt(p * (1 - p) / draws)
    assert np.all(np.abs(first_starts / draws - p) <= 4 * standard_error + 1e-12)


def test_sampled_non_overlapping_annotations_never_overlap():
    rng = np.random.default_rng(0)
    for _ in range(500):
        lengths = list(rng.integers(1, 6, size=rng.integers(1, 6)))
        n = int(sum(lengths) + rng.integers(0, 10))
        starts = sample_annotation(n, lengths, rng)
        cells = [t for s, a in zip(starts, lengths) for t in range(s, s + a)]
        assert len(cells) == len(set(cells)) and min(cells) >= 0 and max(cells) < n


def test_long_text_many_segments_is_finite_and_normalised():
    """n = 100,000 tokens, k = 2,000 segments: no overflow, exact sums within 1e-9."""
    rng = np.random.default_rng(2024)
    lengths = [int(x) for x in rng.integers(1, 6, size=2000)]
    coverage = coverage_probabilities(100_000, lengths)
    assert np.all(np.isfinite(coverage)) and coverage.min() > 0 and coverage.max() < 1
    assert coverage.sum() == pytest.approx(sum(lengths), rel=1e-9)
    for index in (0, 1, int(np.argmax(lengths))):
        p = start_probabilities(100_000, lengths, index)
        assert np.all(np.isfinite(p)) and p.min() > 0
        assert p.sum() == pytest.approx(1.0, rel=1e-9)


def test_dense_long_text_has_no_flat_band_and_still_sums():
    lengths = [3] * 300 + [1] * 50
    n = sum(lengths) + 40
    coverage = coverage_probabilities(n, lengths)
    assert coverage.sum() == pytest.approx(sum(lengths), rel=1e-9)
    assert np.all((coverage >= 0) & (coverage <= 1 + 1e-12))


lengths_strategy = st.lists(st.integers(1, 6), min_size=0, max_size=6)


@settings(max_examples=150, deadline=None)
@given(lengths=lengths_strategy, free=st.integers(0, 30), model=st.sampled_from(MODELS))
def test_coverage_sums_to_total_length_and_is_symmetric(lengths, free, model):
    n = sum(lengths) + free if lengths else free + 1
    coverage = coverage_probabilities(n, lengths, model)
    assert coverage.shape == (n,)
    assert coverage.sum() == pytest.approx(sum(lengths), abs=1e-9)
    np.testing.assert_allclose(coverage, coverage[::-1], atol=1e-12)  # reflection symmetry
    if model == "non_overlapping":
        assert np.all(coverage <= 1 + 1e-12)


@settings(max_examples=100, deadline=None)
@given(length=st.integers(1, 8), n=st.integers(8, 40))
def test_models_agree_for_a_single_segment(length, n):
    np.testing.assert_allclose(coverage_probabilities(n, [length]), coverage_probabilities(n, [length], "overlapping"))
    np.testing.assert_allclose(start_probabilities(n, [length], 0), start_probabilities(n, [length], 0, "overlapping"))


@settings(max_examples=100, deadline=None)
@given(a=lengths_strategy.filter(bool), b=lengths_strategy.filter(bool), free=st.integers(0, 20))
def test_expected_overlap_is_symmetric_and_bounded(a, b, free):
    n = max(sum(a), sum(b)) + free
    value = expected_overlap(n, a, b)
    assert value == pytest.approx(expected_overlap(n, b, a), abs=1e-12)
    assert 0 <= value <= min(sum(a), sum(b)) + 1e-9


def test_full_text_is_covered_with_certainty():
    np.testing.assert_array_equal(coverage_probabilities(5, [2, 3]), np.ones(5))
    np.testing.assert_array_equal(coverage_probabilities(5, []), np.zeros(5))


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda: coverage_probabilities(5, [3, 3]), "do not fit without overlap"),
        (lambda: coverage_probabilities(5, [6], "overlapping"), "does not fit"),
        (lambda: coverage_probabilities(5, [0]), r"lengths\[0\] must be >= 1"),
        (lambda: coverage_probabilities(-1, []), "n must be >= 0"),
        (lambda: coverage_probabilities(5.5, [1]), "n must be an integer"),
        (lambda: coverage_probabilities(5, [1], "random"), "model must be one of"),
        (lambda: start_probabilities(5, [1, 2], 2), "index must be an integer in"),
    ],
)
def test_bad_input_raises_a_clear_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_large_text_log_path_agrees_with_the_small_text_table(monkeypatch):
    """Both ways of forming hypergeometric logs give the same matrix (relative 1e-10)."""
    from chance_agreement.chance import random_model

    assert random_model._SMALL < 1000 + 100  # the table path is used for small texts only
    table = random_model._hypergeometric_matrix(1000, 40, 300, 40)
    monkeypatch.setattr(random_model, "_SMALL", 10)
    careful = random_model._hypergeometric_matrix(1000, 40, 300, 40)
    np.testing.assert_allclose(careful, table, rtol=1e-11, atol=1e-300)
    assert table[299].sum() == pytest.approx(1.0, rel=1e-12)
    assert careful[299].sum() == pytest.approx(1.0, rel=1e-12)
    huge = random_model._hypergeometric_matrix(100_000, 2000, 50, 49)
    assert huge.sum(axis=1) == pytest.approx(np.ones(50), rel=1e-12)
