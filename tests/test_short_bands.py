"""Certified short bands for dense sides (issue 32 item 3, ``document_bands.certified_end``):
Lemma 1 and Lemma 2 of its docstring against exact rationals, the certified end against exact
values, and dense documents of 10,000 to 60,000 tokens. Inputs are integers (``random.Random``,
the benchmark's seeded length law), exact values Fractions or Python integers."""

from __future__ import annotations

import math
import random
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from oracles_random_model import exact_v

from chance_agreement import chance_f1, coverage_probabilities, start_probabilities
from chance_agreement.chance.random_models import clear_caches, document_bands, non_overlapping_bands

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from bench_long_documents import dense_document, dense_lengths, long_document_corpus

sys.path.pop(0)


def _v(slots: int, excesses, t: int) -> Fraction:
    """``V(t)`` exactly, 0 at negative positions."""
    return exact_v(slots, list(excesses), [t])[0] if t >= 0 else Fraction(0)


def _small_configurations(count: int, seed: int, most: int = 5):
    """``(N, excesses)`` with ``N >= E``: a few segments (some of excess 0) among a few slots."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        excesses = [rng.choice([0, 1, 1, 2, 3, 5]) for _ in range(rng.randint(1, most))]
        total = sum(excesses)
        out.append((rng.randint(max(total, len(excesses)), total + len(excesses) + 8), excesses))
    return out


@pytest.mark.parametrize("slots,excesses", _small_configurations(40, seed=1))
def test_lemma_1_holds_exactly(slots, excesses):
    """``V_O(t) - V_O(t + 1) = 1/N sum_{e_j > 0} [V_(O\\j)(t) - V_(O\\j)(t - e_j)]`` at every
    position before the last, the segments without ``j`` among ``N - 1`` slots."""
    for t in range(slots + sum(excesses)):
        right = Fraction(0)
        for j, excess in enumerate(excesses):
            if excess:
                rest = excesses[:j] + excesses[j + 1 :]
                right += _v(slots - 1, rest, t) - _v(slots - 1, rest, t - excess)
        assert _v(slots, excesses, t) - _v(slots, excesses, t + 1) == right / slots


def _beta(slots: int, excesses, z: Fraction) -> Fraction:
    """``beta(z) = sum_{r >= 1} e_r(g) / C(N, r)``, ``g_j = z + .. + z^(e_j)``, exactly."""
    elementary = [Fraction(1)]
    for excess in excesses:
        if excess:
            g = sum(z**d for d in range(1, excess + 1))
            grown = zip([*elementary, Fraction(0)], [Fraction(0), *elementary], strict=True)
            elementary = [a + g * b for a, b in grown]
    return sum(e / math.comb(slots, r) for r, e in enumerate(elementary) if r)


@pytest.mark.parametrize("slots,excesses", _small_configurations(30, seed=2, most=7))
def test_lemma_2_bounds_the_distance_to_the_flat_value(slots, excesses):
    """``|V(t) - V(E)| <= z^-t beta(z)`` at every position for several ``z``, and the flat value
    ``V(E) >= 1 - E/N``; some bound is tight to within a factor 50 somewhere (it can fail)."""
    total = sum(excesses)
    flat = _v(slots, excesses, total)
    assert flat >= 1 - Fraction(total, slots)
    assert all(_v(slots, excesses, t) == flat for t in range(total, slots + 1))  # flat on [E, N]
    for z in (Fraction(9, 8), Fraction(5, 4), Fraction(3, 2), Fraction(2)):
        beta = _beta(slots, excesses, z)
        for t in range(total):
            assert abs(_v(slots, excesses, t) - flat) <= beta / z**t


def test_lemma_2_is_not_vacuous():
    """The bound is attained within a small factor at ``t = 0`` for one segment: ``|V(0) - F| =
    e/N`` and ``beta(z) = g(z)/N``, which tends to ``e/N`` as ``z -> 1``."""
    slots, excesses = 20, [3]
    flat = _v(slots, excesses, 3)
    assert 1 - flat == Fraction(3, 20)
    assert _beta(slots, excesses, Fraction(1001, 1000)) < Fraction(3, 20) * Fraction(101, 100)


@pytest.mark.parametrize("seed", range(4))
def test_the_float_bound_covers_the_exact_one(seed):
    """Each ``L`` of ``_end_bounds`` (floats, a geometric tail past ``_BETA_ROWS`` rows) has the
    exact ``beta(z) z^-L`` at most the tolerance, also with more segments than rows."""
    rng = random.Random(seed)
    excesses = tuple(sorted(rng.choice([1, 1, 1, 2, 3, 6, 12]) for _ in range(rng.randint(20, 130))))
    slots = 4 * sum(excesses) + rng.randint(0, 2000)
    tolerance = document_bands._SHORT_TOLERANCE * (slots - sum(excesses)) / slots
    powers = np.array([1.5, 1.25, 1.125, 1.0625])
    ends = document_bands._end_bounds(slots, excesses, tolerance, powers)
    assert (ends <= sum(excesses)).any()
    for z, end in zip(powers.tolist(), ends.tolist(), strict=True):
        if end <= sum(excesses):
            exact_z = Fraction(z)
            assert _beta(slots, excesses, exact_z) / exact_z ** int(end) <= Fraction(tolerance)


def test_a_bound_past_the_double_range_certifies_nothing_for_its_z():
    """One long segment (excess 299) makes ``z^299`` and ``beta(z)`` pass the largest double for the
    coarse grid's large ``z``: that ``z`` gives no end (it raised OverflowError in ``math.fsum``),
    the smaller ones still do, and the end they give satisfies the exact bound."""
    slots, excesses = 1767, (1,) * 13 + (2,) * 6 + (3,) * 7 + (4,) * 3 + (5,) * 2 + (29, 41, 82, 299)
    tolerance = document_bands._SHORT_TOLERANCE * (slots - sum(excesses)) / slots
    powers = np.array([9.0, 5.0, 2.0, 1.5])
    ends = document_bands._end_bounds(slots, excesses, tolerance, powers)
    assert ends[:2].tolist() == [sum(excesses) + 1] * 2 and (ends[2:] <= sum(excesses)).any()
    end = document_bands.certified_end(slots, excesses)
    assert end < sum(excesses)
    best = min(range(2, 4), key=lambda k: ends[k])
    assert _beta(slots, excesses, Fraction(powers[best])) / Fraction(powers[best]) ** int(ends[best]) <= Fraction(tolerance)


def test_chance_f1_of_corpora_with_such_a_side_is_defined():
    """The 60-document corpora of seeds 1 and 6 hold such a side (they raised OverflowError)."""
    for seed in (1, 6):
        result = chance_f1(*long_document_corpus(60, seed=seed), level="entity")
        assert 0.0 < result["overall_chance_f1"] < result["overall_observed_f1"] <= 1.0


def _sparse_side(seed: int):
    """``(n, lengths)``: 30 to 40 short segments in a text about 25 times as long as their excess."""
    rng = random.Random(seed)
    lengths = tuple(sorted(rng.choice([1, 2, 2, 3, 4]) for _ in range(rng.randint(30, 40))))
    return 25 * (sum(lengths) - len(lengths)) + rng.randint(0, 50), lengths


@pytest.mark.parametrize("seed", range(3))
def test_a_certified_end_keeps_every_value_within_two_to_the_minus_60(seed, monkeypatch):
    """With the short band open to every side, the band stops at ``L < E`` and each value past
    it, and the exact flat value, is within ``2^-60`` of ``V(L)`` (exact rationals); the band and
    ``V(L)`` themselves equal the exact values within ``1e-13``, for the free token and each
    segment left out."""
    monkeypatch.setattr(document_bands, "_SHORT_FROM", 0)
    n, lengths = _sparse_side(seed)
    total = sum(lengths) - len(lengths)
    slots = n - total - 1
    excesses = tuple(sorted({0} | {a - 1 for a in lengths}))
    end = document_bands.certified_end(slots, tuple(a - 1 for a in lengths if a > 1))
    assert end < total
    for excess, (band, flat) in zip(excesses, document_bands.side_bands(n, lengths, excesses), strict=True):
        others = list(lengths)
        if excess:
            others.remove(excess + 1)
        others_excess = [a - 1 for a in others if a > 1]
        exact = exact_v(slots, others_excess, range(total - excess + 1))
        assert band.size == min(end, total - excess)
        at_end = exact[band.size]
        assert all(abs(value - at_end) <= at_end / 2**60 for value in exact[band.size :])
        computed = zip([*band, flat], exact[: band.size + 1], strict=True)
        assert max(abs(Fraction(float(v)) - e) / e for v, e in computed) < 1e-13


def _exact_counts(excesses, size: int) -> np.ndarray:
    """``c[j, x]`` for ``j, x < size`` as Python integers."""
    table = np.zeros((size, size), dtype=object)
    table[0, 0] = 1
    for excess in excesses:
        if excess < size:
            table[1:, excess:] = table[1:, excess:] + table[:-1, : size - excess]
    return table


def _exact_v_from_counts(slots: int, draws: int, counts: np.ndarray, t: int) -> Fraction:
    """``V(t)`` over the common denominator ``C(N, K) K!`` (integers, as ``_exact_ends``)."""
    factorials = [math.factorial(j) * math.factorial(draws - j) for j in range(min(draws, t) + 1)]
    total = 0
    for x in range(t + 1):
        q = t - x
        below, beyond = 1, math.comb(slots - q, draws)  # C(q, j), C(N - q, K - j)
        for j in range(min(draws, q, x) + 1):
            if counts[j, x]:
                total += counts[j, x] * factorials[j] * below * beyond
            below = below * (q - j) // (j + 1)
            if draws > j:
                beyond = beyond * (draws - j) // (slots - q - draws + j + 1)
    return Fraction(total, math.comb(slots, draws) * math.factorial(draws))


def test_the_deflated_table_stays_accurate_past_two_to_the_53(monkeypatch):
    """A dense 6,000-token side whose subset counts pass ``2^53`` (not exact as doubles): on its
    short band every segment's table is the side's table with the segment left out
    (``c'_j(x) = c_j(x) - c'_(j-1)(x - e)``, no rebuild), and its values equal the exact ones
    (integer counts) within ``1e-14``."""
    n = 6000
    lengths = tuple(sorted(int(a) for a in dense_lengths(n)))
    excesses = [a - 1 for a in lengths if a > 1]
    slots = n - sum(excesses) - 1
    marked = []
    counted = document_bands._job_counts

    def spy(prepared):
        out = counted(prepared)
        marked.extend(job.inexact for job in prepared)
        return out

    monkeypatch.setattr(document_bands, "_job_counts", spy)
    built = []
    tables = document_bands._count_tables
    monkeypatch.setattr(document_bands, "_count_tables", lambda jobs: built.extend(jobs) or tables(jobs))
    chosen = (max(excesses), excesses[len(excesses) // 2], 1)
    bands = document_bands.side_bands(n, lengths, chosen)
    assert len(built) == 1  # the side's table only: no segment's table rebuilt from its others
    assert marked == [True]
    for excess, (band, flat) in zip(chosen, bands, strict=True):
        others = list(excesses)
        others.remove(excess)
        counts = _exact_counts(others, band.size + 1)
        assert max(counts[:, -1]) > 2**53
        for t in (0, band.size // 3, 2 * band.size // 3, band.size):
            exact = _exact_v_from_counts(slots, len(others), counts, t)
            value = band[t] if t < band.size else flat
            assert abs(Fraction(float(value)) - exact) / exact < 1e-14


DENSE_TOKENS = [10_000, 20_000, 40_000, 60_000]


@pytest.mark.parametrize("n", DENSE_TOKENS)
def test_dense_documents_hold_their_mass_on_short_bands(n):
    """The benchmark's dense documents: coverage sums to the annotated length and start
    distributions to 1 (within 1e-13 relative), through short certified document bands."""
    clear_caches()
    lengths = tuple(sorted(int(a) for a in dense_lengths(n)))
    total = sum(lengths) - len(lengths)
    cover = coverage_probabilities(n, lengths)
    band = non_overlapping_bands._long_bands[n, lengths][0]
    assert band is not None and band[0].size < total / 3
    assert math.fsum(cover.tolist()) == pytest.approx(sum(lengths), rel=1e-13)
    assert cover.min() >= 0 and cover.max() <= 1
    for length in (lengths[-1], 2, 1):
        start = start_probabilities(n, lengths, lengths.index(length))
        assert math.fsum(start.tolist()) == pytest.approx(1.0, abs=1e-13)
        assert start.min() > 0
    clear_caches()


@pytest.mark.parametrize("n", [10_000, 30_000])
def test_chance_f1_of_dense_documents_stays_in_the_unit_interval(n):
    """Token and entity level on one dense document (every band certified, read short)."""
    prediction, reference = dense_document(n)
    clear_caches()
    for level in ("token", "entity"):
        result = chance_f1([prediction], [reference], level=level)
        assert 0.0 < result["overall_chance_f1"] < result["overall_observed_f1"] <= 1.0
    assert all(band is not None for side in non_overlapping_bands._long_bands.values() for band in side.values())
    clear_caches()


@pytest.mark.parametrize("n", [10_000, 12_000])
def test_a_short_band_equals_the_full_band(n, monkeypatch):
    """Where the full band is affordable: every value of the short band and past it (its flat
    value) equals the full band's within 1e-14 relative, for every length of the side."""
    lengths = tuple(sorted(int(a) for a in dense_lengths(n)))
    excesses = tuple(sorted({0} | {a - 1 for a in lengths}))
    short = document_bands.side_bands(n, lengths, excesses)
    monkeypatch.setattr(document_bands, "_SHORT_FROM", 10**9)
    full = document_bands.side_bands(n, lengths, excesses)
    for (band, flat), (whole, whole_flat) in zip(short, full, strict=True):
        assert band.size < whole.size
        np.testing.assert_allclose(band, whole[: band.size], rtol=1e-14, atol=0)
        np.testing.assert_allclose(np.full(whole.size - band.size + 1, flat), [*whole[band.size :], whole_flat],
                                   rtol=1e-14, atol=0)


def test_the_compiled_and_numpy_code_give_the_same_short_bands(monkeypatch):
    """The short band through the compiled kernels and through the numpy code: the same bits."""
    n = 8000
    lengths = tuple(sorted(int(a) for a in dense_lengths(n)))
    excesses = tuple(sorted({0} | {a - 1 for a in lengths}))
    compiled = document_bands.side_bands(n, lengths, excesses)
    monkeypatch.setenv("CHANCE_AGREEMENT_PURE_PYTHON", "1")
    numpy_code = document_bands.side_bands(n, lengths, excesses)
    for (band, flat), (again, again_flat) in zip(compiled, numpy_code, strict=True):
        np.testing.assert_array_equal(band, again)
        assert flat == again_flat
    assert band.size < sum(lengths) - len(lengths)


def test_a_sparse_side_with_one_long_segment_keeps_its_whole_band():
    """One segment of excess 1,000 on a long sparse text: nothing shorter is certified."""
    assert document_bands.certified_end(100_000, (1000,)) == 1000
    assert document_bands.certified_end(100_000, (2,) * 10 + (1000,)) == 1020
