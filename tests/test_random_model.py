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
    np.testing.assert_allclose(coverage_probabilities(n, lengths, model=model), [float(c) for c in coverage], rtol=0, atol=1e-12)
    for index in range(len(lengths)):
        got = start_probabilities(n, lengths, index, model=model)
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
        starts = sample_annotation(n, lengths, random_state=rng, model=model)
        for start, length in zip(starts, lengths):
            hits[start : start + length] += 1
        first_starts[starts[4]] += 1
    coverage = coverage_probabilities(n, lengths, model=model)
    # the number of segments on a token is at most 1 (non-overlapping) or len(lengths) (overlapping)
    bound = 1 if model == "non_overlapping" else len(lengths)
    standard_error = np.sqrt(np.maximum(coverage * (bound - coverage), 1e-12) / draws)
    assert np.all(np.abs(hits / draws - coverage) <= 4 * standard_error + 1e-12)
    p = start_probabilities(n, lengths, 4, model=model)
    standard_error = np.sqrt(p * (1 - p) / draws)
    assert np.all(np.abs(first_starts / draws - p) <= 4 * standard_error + 1e-12)


def test_sampled_non_overlapping_annotations_never_overlap():
    rng = np.random.default_rng(0)
    for _ in range(500):
        lengths = list(rng.integers(1, 6, size=rng.integers(1, 6)))
        n = int(sum(lengths) + rng.integers(0, 10))
        starts = sample_annotation(n, lengths, random_state=rng)
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
    coverage = coverage_probabilities(n, lengths, model=model)
    assert coverage.shape == (n,)
    assert coverage.sum() == pytest.approx(sum(lengths), abs=1e-9)
    np.testing.assert_allclose(coverage, coverage[::-1], atol=1e-12)  # reflection symmetry
    if model == "non_overlapping":
        assert np.all(coverage <= 1 + 1e-12)


@settings(max_examples=100, deadline=None)
@given(length=st.integers(1, 8), n=st.integers(8, 40))
def test_models_agree_for_a_single_segment(length, n):
    np.testing.assert_allclose(coverage_probabilities(n, [length]), coverage_probabilities(n, [length], model="overlapping"))
    np.testing.assert_allclose(start_probabilities(n, [length], 0), start_probabilities(n, [length], 0, model="overlapping"))


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
        (lambda: coverage_probabilities(5, [6], model="overlapping"), "does not fit"),
        (lambda: coverage_probabilities(5, [0]), r"lengths\[0\] must be >= 1"),
        (lambda: coverage_probabilities(-1, []), "n must be >= 0"),
        (lambda: coverage_probabilities(5.5, [1]), "n must be an integer"),
        (lambda: coverage_probabilities(5, [1], model="random"), "model must be one of"),
        (lambda: start_probabilities(5, [1, 2], 2), "index must be an integer in"),
    ],
)
def test_bad_input_raises_a_clear_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_large_text_log_path_agrees_with_the_small_text_table(monkeypatch):
    """Both ways of forming hypergeometric logs give the same matrix (relative 1e-10)."""
    from chance_agreement.chance.random_models import exact_expectations, non_overlapping_bands

    assert non_overlapping_bands._SMALL < 1000 + 100  # the table path is used for small texts only
    table = non_overlapping_bands._hypergeometric_matrix(1000, 40, 300, 40)
    monkeypatch.setattr(non_overlapping_bands, "_SMALL", 10)
    careful = non_overlapping_bands._hypergeometric_matrix(1000, 40, 300, 40)
    np.testing.assert_allclose(careful, table, rtol=1e-11, atol=1e-300)
    assert table[299].sum() == pytest.approx(1.0, rel=1e-12)
    assert careful[299].sum() == pytest.approx(1.0, rel=1e-12)
    huge = non_overlapping_bands._hypergeometric_matrix(100_000, 2000, 50, 49)
    assert huge.sum(axis=1) == pytest.approx(np.ones(50), rel=1e-12)


# --- the fast core against today's algorithm, exact rationals and Monte Carlo (issue 11) ---------


def _subset_counts(excesses):
    """counts[j][x]: number of j-subsets of the segments with total excess x (plain integers)."""
    total = sum(excesses)
    counts = [[0] * (total + 1) for _ in range(len(excesses) + 1)]
    counts[0][0] = 1
    for pool, excess in enumerate(excesses, start=1):
        for j in range(pool, 0, -1):
            for x in range(total - excess, -1, -1):
                counts[j][x + excess] += counts[j - 1][x]
    return counts


def exact_band(slots, draws, excesses, positions):
    """``sum_{j, x} D_j(x) C(t - x, j) C(S - t + x, K - j) / C(S, K)`` as Fractions (the band sum
    written out term by term, independent of the module's code)."""
    from math import comb

    counts, total = _subset_counts(excesses), sum(excesses)
    out = []
    for t in positions:
        value = Fraction(0)
        for j in range(draws + 1):
            for x in range(min(t, total) + 1):
                if counts[j][x] and t - x <= slots:
                    value += Fraction(counts[j][x] * comb(t - x, j) * comb(slots - t + x, draws - j), comb(draws, j))
        out.append(value / comb(slots, draws))
    return out


def exact_free(n, lengths, positions):
    k, total = len(lengths), sum(lengths)
    slots = n - (total - k)
    return [Fraction(slots - k, slots) * v for v in exact_band(slots - 1, k, [a - 1 for a in lengths], positions)]


def test_exact_band_formula_matches_enumeration():
    """The Fraction oracle used below agrees with brute-force enumeration of placements."""
    n, lengths = 11, [3, 1, 2]
    coverage, _ = exact_distributions(n, lengths, "non_overlapping")
    assert [1 - f for f in exact_free(n, lengths, range(n))] == coverage


def random_signatures(count, seed, max_n=150):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        lengths = tuple(sorted(rng.randint(1, rng.randint(1, 7)) for _ in range(rng.randint(2, 14))))
        n = sum(lengths) + rng.randint(1, max_n)
        out.append((n, lengths))
    return out


@pytest.mark.parametrize("n,lengths", random_signatures(60, seed=11))
def test_fast_core_agrees_with_todays_algorithm_on_random_texts(n, lengths):
    from chance_agreement.chance.random_models import exact_expectations, non_overlapping_bands
    from oracles import coverage_reference, start_distribution_reference

    fast = non_overlapping_bands._coverage_of(n, lengths)
    today = coverage_reference(n, lengths, "non_overlapping")
    np.testing.assert_allclose(fast, today, rtol=0, atol=1e-12)
    for index in {0, len(lengths) - 1}:
        others = lengths[:index] + lengths[index + 1 :]
        fast = non_overlapping_bands._start_distribution_of(n, others, lengths[index])
        today = start_distribution_reference(n, others, lengths[index], "non_overlapping")
        np.testing.assert_allclose(fast, today, rtol=0, atol=1e-12)


def exact_path_signatures(count, seed):
    from chance_agreement.chance.random_models import exact_expectations, non_overlapping_bands

    return [(n, lengths) for n, lengths in random_signatures(4 * count, seed, max_n=60)
            if non_overlapping_bands._exact_terms(n, len(lengths), sum(lengths) - len(lengths)) <= non_overlapping_bands._EXACT_TERMS][:count]


@pytest.mark.parametrize("n,lengths", exact_path_signatures(15, seed=12))
def test_small_signatures_are_correctly_rounded_exact_values(n, lengths):
    exact = [1 - f for f in exact_free(n, lengths, range(n))]
    got = coverage_probabilities(n, lengths)
    assert np.all(np.abs(got - np.array([float(v) for v in exact])) <= 2**-52)


def long_text(seed, k, free_share, top=5):
    rng = np.random.default_rng(seed)
    lengths = [int(x) for x in rng.integers(1, top + 1, size=k)]
    return int(sum(lengths) / (1 - free_share)), lengths


def test_converged_band_is_short_for_sparse_texts_and_its_bound_holds_exactly():
    """A long text whose band is cut short: the proven bound B(t) holds at every t of today's band
    (exact rationals), B is nonincreasing, and the cut band's values equal the exact ones."""
    from chance_agreement.chance.random_models import exact_expectations, non_overlapping_bands

    n, lengths = long_text(3, 40, free_share=0.8)
    k, total = len(lengths), sum(lengths)
    excesses = [a - 1 for a in lengths]
    total_excess = total - k
    slots = n - total_excess
    assert total_excess > non_overlapping_bands._SHORT_BAND  # the converged-band path is the one used
    scale = Fraction(slots - k, slots)
    band = non_overlapping_bands._converged_band(slots - 1, k, excesses, n, float(scale), float(n - total))
    assert 0 < band < total_excess
    free = exact_band(slots - 1, k, excesses, range(total_excess + 1))
    flat = free[total_excess]  # Proposition 3: flat from E on
    log_bound = non_overlapping_bands._log_deviation_bound(slots - 1, k, excesses)
    bounds = [np.exp(log_bound(t)) for t in range(total_excess + 1)]
    assert all(b1 >= b2 for b1, b2 in zip(bounds, bounds[1:]))  # nonincreasing
    for t in range(total_excess):
        assert abs(float(free[t] - flat)) <= bounds[t] * (1 + 1e-9)
    tolerance = non_overlapping_bands._BAND_TOLERANCE * (n - total) / n
    assert all(abs(float(scale * (free[t] - flat))) <= tolerance for t in range(band, total_excess))
    coverage = coverage_probabilities(n, lengths)
    exact = np.array([1 - float(scale * f) for f in free])
    np.testing.assert_allclose(coverage[: total_excess + 1], exact, rtol=0, atol=1e-12)
    np.testing.assert_allclose(coverage[::-1][: total_excess + 1], exact, rtol=0, atol=1e-12)


def test_long_start_distribution_with_a_cut_band_equals_exact_rationals():
    n, lengths = long_text(4, 40, free_share=0.8)
    index = int(np.argmax(lengths))
    others = lengths[:index] + lengths[index + 1 :]
    excesses = [a - 1 for a in others]
    slots = n - sum(excesses) - (lengths[index] - 1)
    exact = [float(v / slots) for v in exact_band(slots - 1, len(others), excesses, range(sum(excesses) + 1))]
    p = start_probabilities(n, lengths, index)
    np.testing.assert_allclose(p[: len(exact)], exact, rtol=1e-11, atol=0)
    assert p.sum() == pytest.approx(1.0, abs=1e-12)


def sample_prefix_coverage(n, lengths, window, rng):
    """Which of the first ``window`` tokens one random non-overlapping annotation covers, drawn
    item by item: the model is a uniform order of the ``n - sum(lengths)`` free tokens and the
    labelled segments, so the next item is free with probability (free left) / (items left)."""
    free, pool = n - sum(lengths), list(lengths)
    covered = np.zeros(window, dtype=bool)
    t = 0
    while t < window:
        if rng.random() < free / (free + len(pool)):
            free -= 1
            t += 1
        else:
            size = pool.pop(int(rng.integers(len(pool))))
            covered[t : t + size] = True
            t += size
    return covered


def test_long_text_of_a_million_tokens_agrees_with_monte_carlo():
    """n = 1,000,000, k = 20,000 (the speed issue's row): normalised, mirrored, and the first 40
    tokens agree with 8,000 sampled annotations within 4 standard errors."""
    n, k = 1_000_000, 20_000
    lengths = [int(x) for x in np.random.default_rng(2024).integers(1, 6, size=k)]
    coverage = coverage_probabilities(n, lengths)
    assert coverage.sum() == pytest.approx(sum(lengths), rel=1e-12)
    np.testing.assert_array_equal(coverage, coverage[::-1])
    rng = np.random.default_rng(99)
    draws, window = 8_000, 40
    hits = sum(sample_prefix_coverage(n, lengths, window, rng).astype(int) for _ in range(draws))
    expected = coverage[:window]
    standard_error = np.sqrt(expected * (1 - expected) / draws)
    assert np.all(np.abs(hits / draws - expected) <= 4 * standard_error)
    assert np.ptp(coverage[100 : n - 100]) == 0  # the band stopped: flat middle from the total mass
    assert abs(coverage[window] - coverage[n // 2]) < 1e-12


def test_too_dense_long_text_fails_up_front_with_a_clear_error():
    import time

    start = time.perf_counter()
    with pytest.raises(ValueError, match="too dense to compute exactly.*GiB"):
        coverage_probabilities(10**6, [5] * 10**5)
    assert time.perf_counter() - start < 60  # a clear error, not minutes of work (generous: shared machine)


def expand(compact, size):
    left, middle = compact
    out = np.full(size, middle)
    if left:
        out[: len(left)] = left
        out[size - len(left) :] = left[::-1]
    return out


@pytest.mark.parametrize("n,lengths", random_signatures(40, seed=13, max_n=40) + [(9, (4,)), (30, (1, 1, 1)), (12, (5, 7))])
def test_compact_forms_equal_the_arrays(n, lengths):
    """The two-ends form used for sentences: the same values as the arrays, and the same dot products."""
    from chance_agreement.chance.random_models import exact_expectations, non_overlapping_bands

    compact = non_overlapping_bands.compact_coverage(n, lengths)
    if compact is not None:
        np.testing.assert_allclose(expand(compact, n), coverage_probabilities(n, lengths), rtol=0, atol=2**-52)
        single = non_overlapping_bands.compact_coverage(n, (lengths[0],))
        assert exact_expectations.compact_dot(n, compact, single) == pytest.approx(
            expected_overlap(n, lengths, [lengths[0]]), rel=0, abs=1e-12)
    others, length = lengths[1:], lengths[0]
    compact = non_overlapping_bands.compact_start(n, others, length)
    if compact is not None:
        np.testing.assert_allclose(expand(compact, n - length + 1), start_probabilities(n, lengths, 0), rtol=0, atol=1e-15)
