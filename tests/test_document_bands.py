"""The long-unit band (``chance.random_models.document_bands``, issue 26) against exact rationals, today's band,
Monte Carlo sampling and itself in any batch."""

from __future__ import annotations

import random
import sys
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from chance_agreement import chance_f1, coverage_probabilities, expected_overlap, sample_annotation, start_probabilities
from chance_agreement._numerics import portable_math as pm
from chance_agreement.chance.random_models import clear_caches, non_overlapping_bands
from chance_agreement.chance.random_models.document_bands import _count_table, side_bands, side_bands_many, tail_rows
from oracles import count_table_reference, coverage_reference, start_distribution_reference
from oracles_random_model import exact_coverage, exact_start, exact_v, subset_counts

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from bench_long_documents import long_document_corpus  # noqa: E402

sys.path.pop(0)


def heavy_tailed(seed: int, k: int, top: int):
    """``k`` segment lengths with a discrete Pareto tail (the benchmark's law), capped at ``top``."""
    rng = np.random.default_rng(seed)
    return tuple(sorted(int(x) for x in np.minimum(np.floor(pm.exp(pm.log(rng.random(k)) * (-1 / 1.3))), top)))


def long_units(count: int, seed: int, n_range=(256, 700), k_range=(3, 14), top=40):
    """Long units (n >= 256) that take the document band, each with its lengths."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        n = rng.randint(*n_range)
        lengths = heavy_tailed(rng.randint(0, 10**6), rng.randint(*k_range), top)
        if non_overlapping_bands._long_side(n, lengths, 0):
            out.append((n, lengths))
    return out


def relative_error(values, exact) -> float:
    return max(abs(Fraction(float(v)) - e) / e for v, e in zip(values, exact))


@pytest.mark.parametrize("n,lengths", long_units(12, seed=1))
def test_band_equals_exact_rationals(n, lengths):
    """Every band value and the flat value of every exclusion, within 1e-13 of the exact V."""
    excesses = tuple(sorted({a - 1 for a in lengths}))
    total = sum(lengths) - len(lengths)
    for excess, (band, flat) in zip(excesses, side_bands(n, lengths, excesses)):
        others = list(lengths)
        others.remove(excess + 1)
        exact = exact_v(n - total - 1, [a - 1 for a in others], range(total - excess + 1))
        assert relative_error(list(band) + [flat], exact) < 1e-13


@pytest.mark.parametrize("n,lengths", long_units(4, seed=2))
def test_public_distributions_of_long_units_equal_exact_rationals(n, lengths):
    """start_probabilities and coverage_probabilities through the long-unit path: all n values."""
    assert non_overlapping_bands._long_side(n, lengths, lengths[-1] - 1)
    start = start_probabilities(n, lengths, len(lengths) - 1)
    assert relative_error(start, exact_start(n, lengths, len(lengths) - 1)) < 1e-13
    assert relative_error(coverage_probabilities(n, lengths), exact_coverage(n, lengths)) < 1e-13
    assert start.sum() == pytest.approx(1.0, abs=1e-13)
    np.testing.assert_array_equal(start, start[::-1])


@pytest.mark.parametrize("n,lengths", long_units(10, seed=3, n_range=(300, 3000), k_range=(5, 60), top=300))
def test_long_units_agree_with_todays_band(n, lengths):
    """The full-band reference algorithm (``tests/oracles.py``) as oracle, on document-sized units:
    within its own precision (hypergeometric weights from logs, about 1e-11 here; the new band is
    within 1e-14 of exact rationals, see above)."""
    today = coverage_reference(n, lengths, "non_overlapping")
    np.testing.assert_allclose(non_overlapping_bands._coverage_of(n, lengths), today, rtol=1e-10, atol=0)
    for index in {0, len(lengths) - 1}:
        others = lengths[:index] + lengths[index + 1 :]
        today = start_distribution_reference(n, others, lengths[index], "non_overlapping")
        fast = non_overlapping_bands._start_distribution_of(n, others, lengths[index])
        np.testing.assert_allclose(fast, today, rtol=1e-10, atol=0)


def test_a_document_agrees_with_monte_carlo():
    """n = 2,000 with heavy-tailed segments: the first 200 start positions of the longest segment and
    the coverage of the first 200 tokens agree with 20,000 sampled annotations (4 standard errors)."""
    n, lengths = 2000, list(heavy_tailed(7, 40, 300))
    index = len(lengths) - 1
    rng = np.random.default_rng(11)
    draws, window = 20_000, 200
    starts = np.array([sample_annotation(n, lengths, random_state=rng)[index] for _ in range(draws)])
    hits = np.bincount(starts[starts < window], minlength=window) / draws
    expected = start_probabilities(n, lengths, index)[:window]
    assert np.all(np.abs(hits - expected) <= 4 * np.sqrt(expected * (1 - expected) / draws) + 1e-12)
    covered = np.zeros(window)
    for _ in range(4_000):
        placement = sample_annotation(n, lengths, random_state=rng)
        for start, length in zip(placement, lengths):
            covered[start : min(start + length, window)] += start < window
    coverage = coverage_probabilities(n, lengths)[:window]
    assert np.all(np.abs(covered / 4_000 - coverage) <= 4 * np.sqrt(coverage * (1 - coverage) / 4_000) + 1e-12)


def test_batches_give_each_unit_the_bits_it_has_alone():
    """side_bands_many pads units to a common shape: every value equals the unit computed alone."""
    jobs = [(n, lengths, tuple(sorted({a - 1 for a in lengths})))
            for n, lengths in long_units(30, seed=4, n_range=(256, 2500), k_range=(2, 50), top=300)]
    together = side_bands_many(jobs)
    for job, bands in zip(jobs, together):
        for (band, flat), (alone, alone_flat) in zip(bands, side_bands(*job)):
            np.testing.assert_array_equal(band, alone)
            assert flat == alone_flat
    for bands, again in zip(together[::-1], side_bands_many(jobs[::-1])):  # another order, other batches
        for (band, flat), (other, other_flat) in zip(bands, again):
            np.testing.assert_array_equal(band, other)
            assert flat == other_flat


def test_a_dense_text_past_the_long_band_takes_the_document_band_and_agrees_with_todays():
    """7,000 tokens, 560 heavy-tailed segments, total excess 2,170: past ``_LONG_BAND`` but dense
    (its converged band is most of the total excess), so the document band computes it; the
    full-band reference algorithm agrees within its own precision (hypergeometric weights from
    logs, about 1e-10 here)."""
    n, lengths = 7000, heavy_tailed(5, 560, 300)
    assert sum(lengths) - len(lengths) > non_overlapping_bands._LONG_BAND
    assert non_overlapping_bands._long_side(n, lengths, 0) and non_overlapping_bands._long_side(n, lengths, lengths[-1] - 1)
    today = coverage_reference(n, lengths, "non_overlapping")
    np.testing.assert_allclose(non_overlapping_bands._coverage_of(n, lengths), today, rtol=1e-9, atol=0)
    today = start_distribution_reference(n, lengths[:-1], lengths[-1], "non_overlapping")
    fast = non_overlapping_bands._start_distribution_of(n, lengths[:-1], lengths[-1])
    np.testing.assert_allclose(fast, today, rtol=1e-9, atol=0)


@pytest.mark.parametrize("n,lengths,why", [
    (100_000, (150,) * 20, "sparse: the converged band is a third of the total excess"),
    (200_000, (3,) * 1100, "more than _LONG_SEGMENTS segments of positive excess"),
    (20_000, (9,) * 950, "lambda E above _LONG_DENSITY"),
])
def test_other_texts_past_the_long_band_keep_the_converged_band(n, lengths, why):
    assert sum(lengths) - len(lengths) > non_overlapping_bands._LONG_BAND
    assert not non_overlapping_bands._long_side(n, lengths, 0), why
    assert not non_overlapping_bands._long_side(n, lengths, lengths[-1] - 1), why


@pytest.mark.parametrize("seed", range(40))
def test_count_tables_limited_to_their_reach_equal_the_whole_table(seed):
    """Subset counts built over the part of the table each segment can reach are the integers of
    the whole-table build, whatever the rows and columns asked for."""
    rng = random.Random(seed)
    excesses = sorted(rng.choice([1, 1, 1, 2, 2, 3, 5, 8, 20, 60]) for _ in range(rng.randint(0, 40)))
    rows, columns = rng.randint(1, 30), rng.randint(1, sum(excesses) + 5)
    np.testing.assert_array_equal(_count_table(excesses, rows, columns), count_table_reference(excesses, rows, columns))


def test_truncation_keeps_all_but_two_to_the_minus_60():
    """The rows left out by tail_rows carry less than 2^-60 of V(t) (exact rationals, all terms)."""
    from math import comb

    for n, lengths in long_units(5, seed=5, n_range=(400, 1500), k_range=(8, 40), top=120):
        positive = [a - 1 for a in lengths if a > 1]
        slots, total = n - sum(positive) - 1, sum(positive)
        cut = int(tail_rows([slots], [len(positive)], [total])[0])
        assert cut <= len(positive)
        bound = sum(Fraction(comb(slots - total, len(positive) - s) * comb(total + 1, s + 1), comb(slots - total, len(positive)))
                    for s in range(cut + 1, len(positive) + 1))
        assert bound <= Fraction(1, 2**60)


def _row_terms(slots: int, excesses: list[int], t: int) -> list[Fraction]:
    """``C(N - t, K' - s) / C(N, K') * Z_s(t)`` for ``s = 0..K'`` (item 2 of ``document_bands``), exactly:
    integer sums per ``(j, s)``, one fraction each."""
    from math import comb

    draws = len(excesses)
    sums: dict[tuple[int, int], int] = {}
    for (j, x), count in subset_counts(excesses).items():
        if x <= t:
            for p in range(min(x, draws - j) + 1):
                sums[j, j + p] = sums.get((j, j + p), 0) + count * comb(t - x, j) * comb(x, p)
    rows = [Fraction(0)] * (draws + 1)
    for (j, s), total in sums.items():
        rows[s] += Fraction(total * comb(slots - t, draws - s), comb(draws, j) * comb(slots, draws))
    return rows


def _hypergeometric_tail(slots: int, draws: int, t: int, cut: int) -> Fraction:
    """``P(H_t > cut)``, ``H_t`` the marked among ``t`` of ``slots`` (``draws`` marked), exactly."""
    from math import comb

    return Fraction(sum(comb(t, s) * comb(slots - t, draws - s) for s in range(cut + 1, draws + 1)), comb(slots, draws))


@pytest.mark.parametrize("seed", range(6))
def test_the_rows_past_s_are_bounded_by_the_hypergeometric_tail_and_v_by_one_minus_e_over_n(seed):
    """Item 3's second bound on random small configurations, exactly: the rows sum to ``V(t)``,
    ``V(t) >= 1 - E/N``, and the rows past every ``S`` add at most ``P(H_t > S)``."""
    rng = random.Random(seed)
    for _ in range(4):
        excesses = [rng.choice([1, 1, 1, 2, 3, 5, 9]) for _ in range(rng.randint(1, 9))]
        total = sum(excesses)
        slots = total + len(excesses) + rng.randint(0, 30)  # N - E >= K' (the callers' guarantee)
        for t in range(total + 1):
            rows = _row_terms(slots, excesses, t)
            assert sum(rows) == exact_v(slots, excesses, [t])[0] >= 1 - Fraction(total, slots)
            for cut in range(len(excesses) + 1):
                assert sum(rows[cut + 1 :]) <= _hypergeometric_tail(slots, len(excesses), t, cut)


@pytest.mark.parametrize("seed", range(4))
def test_tail_rows_with_the_excess_keep_all_but_two_to_the_minus_60_with_fewer_rows(seed):
    """``tail_rows`` given ``E``: fewer rows than the first bound alone on dense sides, the rows left
    out below ``2^-60`` of ``V(t)`` (exact rationals) at the last position and before it, and ``S``
    the least with ``P(H_t > S) <= 2^-61 (1 - E/N)`` (the margin: at least that tail one row earlier)."""
    rng = random.Random(seed)
    excesses = [rng.choice([1, 1, 2, 2, 3]) for _ in range(rng.randint(50, 70))]
    total = sum(excesses)
    slots = total + len(excesses) + rng.randint(100, 300)  # lambda E about 30: 2^-43 of the first bound
    draws, floor = len(excesses), Fraction(slots - total, slots) / 2**60
    cut = int(tail_rows([slots], [draws], [total], [total])[0])
    assert cut < int(tail_rows([slots], [draws], [total])[0]) and cut < draws
    assert _hypergeometric_tail(slots, draws, total, cut) <= floor
    assert _hypergeometric_tail(slots, draws, total, cut - 1) > floor / 4
    for t in sorted({total, total - 1, total // 2, rng.randint(1, total)}):
        rows = _row_terms(slots, excesses, t)
        assert sum(rows[cut + 1 :]) <= sum(rows) / 2**60


def test_tail_rows_with_the_excess_do_not_depend_on_the_batch():
    """Each row's ``S`` given ``E`` is the one it has alone (blocks pad rows with zero terms), and never
    above the first bound's."""
    rng = np.random.default_rng(29)
    draws = np.concatenate((rng.integers(0, 80, size=300), rng.integers(0, 700, size=40), [0, 1, 2, 64, 700]))
    last = rng.integers(0, 3000, size=draws.size)
    slots = last + draws + rng.integers(0, 50_000, size=draws.size)  # N - t >= K' (the callers' guarantee)
    excess = last + rng.integers(0, 2, size=draws.size) * rng.integers(0, 40_000, size=draws.size)
    got = tail_rows(slots, draws, last, excess)
    alone = [int(tail_rows([a], [b], [c], [d])[0]) for a, b, c, d in zip(slots, draws, last, excess, strict=True)]
    assert got.tolist() == alone and (got <= tail_rows(slots, draws, last)).all() and (got < tail_rows(slots, draws, last)).any()


def test_the_corpus_totals_do_not_depend_on_batching_or_order():
    """chance_f1 on generated long documents: the array pass (one prefetched batch) equals itself
    keeping the sentences and on a reversed corpus with cold caches, to the last bit (against the
    per-sentence loop: tests/test_sentence_pass.py)."""
    predictions, references = long_document_corpus(24, seed=5)
    warnings.simplefilter("ignore")
    for level in ("token", "entity"):
        non_overlapping_bands._long_bands.cache_clear()
        fast = chance_f1(predictions, references, level=level)
        non_overlapping_bands._long_bands.cache_clear()
        loop = chance_f1(predictions, references, level=level, return_sentence_scores=True)
        non_overlapping_bands._long_bands.cache_clear()
        clear_caches()
        reverse = chance_f1(predictions[::-1], references[::-1], level=level)
        loop.pop("sentence_scores")
        assert fast == loop == reverse


def test_expected_overlap_of_a_long_unit_is_exact():
    n, a, b = 600, heavy_tailed(8, 12, 60), heavy_tailed(9, 10, 60)
    exact = sum(x * y for x, y in zip(exact_coverage(n, a), exact_coverage(n, b)))
    assert abs(Fraction(expected_overlap(n, a, b)) - exact) / exact < 1e-13


def test_group_shapes_and_chunks_leave_every_value_as_it_is(monkeypatch):
    """How the items are grouped (the time model) and cut into chunks (the block size) chooses
    the array shapes only: every band is the same bits under any choice."""
    from chance_agreement.chance.random_models import document_bands

    jobs = [(n, lengths, tuple(sorted({a - 1 for a in lengths})))
            for n, lengths in long_units(25, seed=8, n_range=(256, 2000), k_range=(2, 45), top=200)]
    default = side_bands_many(jobs)
    for per_position, block in ((1.0, 1 << 21), (0.0, 1 << 21), (4e-5, 64)):
        monkeypatch.setattr(document_bands, "_PER_POSITION", per_position)
        monkeypatch.setattr(document_bands, "_COMPILED_PER_POSITION", per_position)
        monkeypatch.setattr(document_bands, "_BLOCK", block)
        for bands, again in zip(default, side_bands_many(jobs)):
            for (band, flat), (other, other_flat) in zip(bands, again):
                np.testing.assert_array_equal(band, other)
                assert flat == other_flat


def test_a_start_band_read_by_the_sides_lengths_equals_the_one_read_by_its_others():
    """compact_start_among (the entity level's path) gives the bits of compact_start, for long
    units (the band cache) and for sentences (the exact ends)."""
    units = long_units(6, seed=9) + [(40, (1, 2, 2, 5)), (120, (1, 3, 3, 4, 7, 9))]
    for n, lengths in units:
        for length in sorted(set(lengths)):
            others = list(lengths)
            others.remove(length)
            among = non_overlapping_bands.compact_start_among(n, lengths, length)
            alone = non_overlapping_bands.compact_start(n, tuple(others), length)
            assert (among is None) == (alone is None)
            if among is not None:
                np.testing.assert_array_equal(np.asarray(among[0]), np.asarray(alone[0]))
                assert among[1] == alone[1]


def test_tables_built_from_each_segments_own_others_equal_the_left_out_ones(request):
    """The path for sides whose counts are not exact (each table from its own segments instead
    of leaving one out) gives the same bits where both are exact."""
    jobs = [(n, lengths, tuple(sorted({a - 1 for a in lengths})))
            for n, lengths in long_units(10, seed=10, n_range=(256, 1500), k_range=(3, 30), top=120)]
    default = side_bands_many(jobs)
    request.getfixturevalue("own_count_tables")
    for bands, again in zip(default, side_bands_many(jobs)):
        for (band, flat), (other, other_flat) in zip(bands, again):
            np.testing.assert_array_equal(band, other)
            assert flat == other_flat
