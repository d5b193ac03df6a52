"""The entity level formed a corpus at a time (issue 32, item 4): every value the same bits as one
at a time, against the one-at-a-time code kept in ``tests/oracles.py``."""

from __future__ import annotations

import math
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from chance_agreement import chance_f1
from chance_agreement._numerics.exact_sum import fsum_segments
from chance_agreement.chance.random_models import (
    NonOverlapping,
    Overlapping,
    clear_caches,
    document_bands,
    non_overlapping_bands,
)
from chance_agreement.chance.random_models.exact_expectations import compact_dot, compact_dots
from oracles import (
    compact_start_among_reference,
    expected_matches_reference,
    factor_shifts_reference,
    holds_mass_reference,
    long_side_reference,
    tail_rows_reference,
)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from bench_long_documents import long_document_corpus  # noqa: E402

sys.path.pop(0)


def same_bits(first, second) -> bool:
    return [float(x).hex() for x in first] == [float(x).hex() for x in second]


def segments(rng: np.random.Generator, kind: int, count: int):
    """``count`` segments of one kind of values (all built from integers and powers of two)."""
    sizes = rng.integers(1, 400 if kind % 2 else 12, size=count)
    total = int(sizes.sum())
    if kind == 0:  # probabilities of one scale
        values = rng.integers(1, 2**53, size=total) * 2.0**-53
    elif kind == 1:  # many binades, as products of band values
        values = rng.integers(1, 2**53, size=total) * np.ldexp(1.0, rng.integers(-80, 0, size=total)) * 2.0**-53
    elif kind == 2:  # few significant bits: exact ties are common
        values = rng.integers(0, 4, size=total) * np.ldexp(1.0, rng.integers(-56, 1, size=total))
    else:  # a large value and tiny ones at half an ulp of it
        large = 1.0 + rng.integers(0, 3, size=total) * 2.0**-52
        values = np.where(rng.random(total) < 0.2, large, 2.0**-53)
    return values, np.concatenate(([0], np.cumsum(sizes)[:-1]))


@pytest.mark.parametrize("kind", range(4))
def test_fsum_segments_gives_fsums_bits(kind):
    """Certified where the rounding is clear, ``math.fsum`` elsewhere: the bits of ``math.fsum``."""
    rng = np.random.default_rng(kind)
    for _ in range(30):
        values, starts = segments(rng, kind, int(rng.integers(1, 40)))
        ends = np.append(starts[1:], values.size)
        expected = [math.fsum(values[a:b].tolist()) for a, b in zip(starts, ends, strict=True)]
        assert same_bits(fsum_segments(values, starts), expected)


def test_fsum_segments_ties_signs_and_errors():
    """Exact ties (half-even), zeros, negative terms and the errors of ``math.fsum``."""
    tie = [1.0, 2.0**-53]  # exactly half an ulp above 1: rounds to 1 (even)
    odd_tie = [1.0 + 2.0**-52, 2.0**-53]  # rounds up to the even neighbour
    above_tie = [1.0, 2.0**-53, 2.0**-110]  # a hair above the tie: rounds up, though 1 + 2^-53 alone would not
    below_tie = [1.0 + 2.0**-52, 2.0**-54, 2.0**-54, -(2.0**-110)]
    cases = [tie, odd_tie, above_tie, below_tie, [1.0, 2.0**-54, 2.0**-54, 2.0**-110], [0.0], [0.0, 0.0], [-0.0],
             [1.0, -1.0, 2.0**-60], [2.0**-1074] * 3, [2.0**1020] * 3, [0.1, 0.2, 0.3]]
    values = np.concatenate([np.array(case) for case in cases])
    starts = np.cumsum([0] + [len(case) for case in cases[:-1]])
    assert same_bits(fsum_segments(values, starts), [math.fsum(case) for case in cases])
    with pytest.raises(OverflowError):  # math.fsum refuses this one, and so does fsum_segments
        fsum_segments(np.append(values, [1e308, 1e308]), np.append(starts, values.size))
    assert fsum_segments(tie, [0])[0] == 1.0 and fsum_segments(odd_tie, [0])[0] == 1.0 + 2.0**-51
    assert fsum_segments(above_tie, [0])[0] == 1.0 + 2.0**-52 and fsum_segments(below_tie, [0])[0] == 1.0 + 2.0**-52
    with pytest.raises(ValueError):
        fsum_segments([1.0, math.inf, -math.inf], [0])
    assert fsum_segments([], []).size == 0


def random_form(rng: random.Random, size: int, as_array: bool):
    left = [rng.randrange(1, 2**40) / 2**42 for _ in range(rng.randrange(0, max(1, size // 2)))]
    return (np.array(left) if as_array else tuple(left)), rng.randrange(1, 2**40) / 2**43


def test_compact_dots_gives_compact_dots_bits():
    """Tuples and arrays, bands up to hundreds of positions, empty lefts: each pair as alone."""
    rng = random.Random(5)
    pairs = []
    for _ in range(300):
        size = rng.choice([3, 10, 60, 200, 900])
        pairs.append((size, random_form(rng, size, rng.random() < 0.5), random_form(rng, size, rng.random() < 0.5)))
    assert same_bits(compact_dots(pairs), [compact_dot(*pair) for pair in pairs])
    assert compact_dots([]) == []


def corpus_groups(documents: int, seed: int):
    """``(n, lengths_a, lengths_b)`` of every type of a generated long-document corpus whose two
    sides both have segments of it."""
    predictions, references = long_document_corpus(documents, seed=seed)
    groups = []
    for first, second in zip(predictions, references, strict=True):
        sides = []
        for tags in (first, second):
            lengths: dict[str, list[int]] = {}
            for tag in tags:
                if tag.startswith("B-"):
                    lengths.setdefault(tag[2:], []).append(1)
                elif tag.startswith("I-"):
                    lengths[tag[2:]][-1] += 1
            sides.append(lengths)
        groups += [(len(first), tuple(sorted(sides[0][name])), tuple(sorted(sides[1][name])))
                   for name in sides[0] if name in sides[1]]
    return groups


def sentence_groups(count: int, seed: int):
    """Short units of one to four segments a side (the exact-integer and per-signature paths)."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        n = rng.randint(4, 60)
        sides = []
        for _ in range(2):
            lengths = [rng.randint(1, 4) for _ in range(rng.randint(1, 4))]
            while sum(lengths) > n:
                lengths.pop()
            sides.append(tuple(sorted(lengths)))
        out.append((n, *sides))
    return out


def test_long_excesses_agree_with_the_check_one_excess_at_a_time():
    rng = random.Random(11)
    for n, lengths_a, lengths_b in corpus_groups(30, seed=3) + sentence_groups(50, seed=4):
        for lengths in (lengths_a, lengths_b):
            excesses = sorted({rng.randrange(0, 5)} | {a - 1 for a in lengths})
            expected = [e for e in excesses if long_side_reference(n, lengths, e)]
            assert non_overlapping_bands._long_excesses(n, lengths, excesses) == expected
            assert [non_overlapping_bands._long_side(n, lengths, e) for e in excesses] == \
                [long_side_reference(n, lengths, e) for e in excesses]


def test_long_excesses_agree_with_the_check_near_every_threshold():
    """Every excess of sides whose text length sits at, below and above each of the three tests'
    thresholds (flat middle, positive running products, a long unit)."""
    rng = random.Random(12)
    for _ in range(300):
        lengths = tuple(sorted(rng.choice([1, 1, 2, 3, 5, 12]) for _ in range(rng.randint(1, 60))))
        total, positive = sum(lengths) - len(lengths), sum(1 for a in lengths if a > 1)
        sizes = {2 * total + 1 + d for d in range(-3, 4)} | {2 * total + 1 + positive + d for d in range(-3, 4)}
        sizes |= {non_overlapping_bands._LONG_UNIT + d for d in (-1, 0)} | {rng.randint(sum(lengths), 3 * total + 9)}
        for n in sorted(size for size in sizes if size >= max(sum(lengths), 1)):
            excesses = list(range(total + 2))
            expected = [e for e in excesses if long_side_reference(n, lengths, e)]
            assert non_overlapping_bands._long_excesses(n, lengths, excesses) == expected, (n, lengths)


def test_compact_starts_among_give_the_bits_of_one_length_at_a_time():
    clear_caches()
    for n, lengths_a, lengths_b in corpus_groups(12, seed=5) + sentence_groups(40, seed=6):
        for lengths in (lengths_a, lengths_b):
            wanted = sorted(set(lengths))
            for form, length in zip(non_overlapping_bands.compact_starts_among(n, lengths, wanted), wanted,
                                    strict=True):
                expected = compact_start_among_reference(n, lengths, length)
                assert (form is None) == (expected is None)
                if form is not None:
                    assert same_bits([*form[0], form[1]], [*expected[0], expected[1]])


def test_compact_starts_many_give_the_bits_of_one_length_at_a_time():
    """Long and short sides in one call, two of the long bands marked failed (``None``: their lengths
    take ``compact_start``), against the oracle one length at a time."""
    clear_caches()
    requests = [(n, lengths, sorted(set(lengths_a) & set(lengths_b)))
                for n, lengths_a, lengths_b in corpus_groups(12, seed=5) + sentence_groups(40, seed=6)
                for lengths in (lengths_a, lengths_b)]
    non_overlapping_bands.compact_starts_many(requests)
    failed = [(n, lengths, wanted[-1] - 1) for n, lengths, wanted in requests[:4] if wanted]
    for n, lengths, excess in failed:
        assert non_overlapping_bands._long_bands[n, lengths][excess] is not None  # a long band, read before
        non_overlapping_bands._long_bands[n, lengths][excess] = None
    forms = non_overlapping_bands.compact_starts_many(requests)
    assert len(forms) == len(requests)
    for (n, lengths, wanted), row in zip(requests, forms, strict=True):
        assert len(row) == len(wanted)
        for form, length in zip(row, wanted, strict=True):
            expected = compact_start_among_reference(n, lengths, length)
            assert (form is None) == (expected is None)
            if form is not None:
                assert same_bits([*form[0], form[1]], [*expected[0], expected[1]])
    assert [non_overlapping_bands._long_bands[n, lengths][excess] for n, lengths, excess in failed] == [None] * 4
    clear_caches()


def test_a_full_band_cache_keeps_what_a_side_asks_for(monkeypatch):
    """A side whose bands are partly cached when the cache is full: the cache starts over and holds
    every band the side asks for (it used to keep only the missing ones, and the look-up failed)."""
    clear_caches()
    n, lengths, _ = corpus_groups(3, seed=5)[0]
    wanted = sorted(set(lengths))[-4:]
    monkeypatch.setattr(non_overlapping_bands._long_bands, "limit", 3)
    non_overlapping_bands.compact_starts_among(n, lengths, wanted[:2])
    forms = non_overlapping_bands.compact_starts_among(n, lengths, wanted)
    for form, length in zip(forms, wanted, strict=True):
        expected = compact_start_among_reference(n, lengths, length)
        assert same_bits([*form[0], form[1]], [*expected[0], expected[1]])
    assert sorted(non_overlapping_bands._long_bands[n, lengths]) == [length - 1 for length in wanted]
    clear_caches()
    assert non_overlapping_bands._long_bands.bands(n, lengths, []) == []  # a side not cached, no excess asked


@pytest.mark.parametrize("model", [NonOverlapping(), Overlapping()], ids=lambda model: model.name)
def test_expected_matches_many_gives_the_bits_of_one_group_at_a_time(model):
    """A corpus's groups together, and each alone (cached), against the one-at-a-time oracle."""
    clear_caches()
    groups = corpus_groups(40, seed=7) + sentence_groups(100, seed=8)
    expected = [expected_matches_reference(model, *group) for group in groups]
    clear_caches()
    assert same_bits(model.expected_matches_many(groups), expected)
    assert same_bits([model.expected_matches(*group) for group in groups], expected)


def test_chance_f1_entity_level_on_long_documents_keeps_its_bits():
    """The corpus pass (all groups at once) and the per-sentence pass (one group at a time, from
    the cache) give one total."""
    predictions, references = long_document_corpus(25, seed=9)
    clear_caches()
    total = chance_f1(predictions, references, level="entity")
    clear_caches()
    per_sentence = chance_f1(predictions, references, level="entity", return_sentence_scores=True)
    assert total["overall_chance_f1"].hex() == per_sentence["overall_chance_f1"].hex()


def test_holds_mass_of_a_group_decides_as_one_band_at_a_time():
    """Masses on both sides of the tolerance, a lost term (too low), zero-width, infinite and NaN
    values: the same decisions as ``math.fsum`` one band at a time."""
    rng = np.random.default_rng(21)
    columns, count = 300, 400
    values = rng.integers(1, 2**30, size=(columns, count)) * 2.0**-40
    shapes, expected = [], []
    for k in range(count):
        width = int(rng.integers(0, columns - 1))
        n = int(rng.integers(2 * width + 2, 4 * width + 600))
        excess = int(rng.integers(0, 4))
        total = excess + width
        slots = n - total
        tail = n - excess - 2 * width
        target = slots * (1.0 + float(rng.choice([-1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5])) * 2.0**-40)
        if k % 7 == 0:
            target = slots * 0.9  # a lost term
        values[width, k] = (target - 2.0 * math.fsum(values[:width, k].tolist())) / tail
        values[width, k] = np.nextafter(values[width, k], rng.choice([-np.inf, np.inf])) if k % 3 else values[width, k]
        if k % 50 == 1:
            values[0, k] = np.inf if k % 100 == 1 else np.nan
        shapes.append((n, total, excess, width))
        expected.append(holds_mass_reference(n, total, excess, values[:width, k].copy(), float(values[width, k])))
    items = np.ascontiguousarray(values.T)  # item by item, in groups of 150, 200 and 50 items
    held = document_bands._holds_mass([items[:150], items[150:350], items[350:]], *zip(*shapes, strict=True)).tolist()
    assert held == expected and 0 < sum(held) < count - 50


def test_factor_shifts_equal_the_cumprod_check():
    """Sparse and dense sides (factors below 2^-1000 from a few hundred rows on)."""
    rng = random.Random(22)
    for _ in range(300):
        draws = rng.choice([0, 1, 5, 40, 300, 1000])
        slots = draws + rng.randint(1, 20 * draws + 10)
        rows = rng.randint(1, draws + 30)
        scale = draws / slots if draws else 1.0
        assert document_bands._factor_shifts(scale, draws, rows).tolist() == \
            factor_shifts_reference(scale, draws, rows).tolist()
    assert document_bands._factor_shifts(1000 / 20_000, 1000, 600).any()  # the renormalised loop is reached


def test_factor_shifts_of_many_jobs_equal_one_at_a_time():
    """``_factor_shifts_many`` (the plain products of all jobs at once) against ``_factor_shifts`` of
    each job: sparse and dense sides, one row, no segment, and rows past ``K'``."""
    rng = random.Random(24)
    jobs = []
    for _ in range(400):
        draws = rng.choice([0, 1, 5, 40, 300, 1000])
        slots = draws + rng.randint(1, 20 * draws + 10)
        jobs.append((draws / slots if draws else 1.0, draws, rng.randint(1, draws + 30)))
    scales, draws, rows = (np.array(column) for column in zip(*jobs, strict=True))
    many = document_bands._factor_shifts_many(scales, draws, rows)
    assert [shifts.tolist() for shifts in many] == [document_bands._factor_shifts(*job).tolist() for job in jobs]
    assert sum(shifts.any() for shifts in many) > 10  # the renormalised loop is reached


def test_tail_rows_in_blocks_equal_the_definition():
    """Rows of every ``K'`` from 0 to 700 and positions from 0 to past the band: each row's ``S`` as
    its definition gives it, row by row in Python (``tail_rows_reference``), whatever block it fell in."""
    rng = np.random.default_rng(23)
    draws = np.concatenate((rng.integers(0, 80, size=3000), rng.integers(0, 700, size=200), [0, 1, 2, 64, 700]))
    last = rng.integers(0, 3000, size=draws.size)
    slots = last + draws + rng.integers(0, 50_000, size=draws.size)  # N - t >= K' (the callers' guarantee)
    got = document_bands.tail_rows(slots, draws, last)
    assert got.tolist() == tail_rows_reference(slots, draws, last).tolist() and got.max() > 20
    assert document_bands.tail_rows([100], [5], [3]).tolist() == tail_rows_reference([100], [5], [3]).tolist()


def test_a_first_call_imports_nothing(tmp_path):
    """A first call in a fresh process imports no module (numpy 2's ``np.unique`` without indices
    imports ``numpy.ma`` on first use: about 30 ms of a first call)."""
    script = tmp_path / "first_call.py"
    script.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(Path(__file__).resolve().parent.parent / 'benchmarks')!r})\n"
        "from bench_long_documents import long_document_corpus\n"
        "from chance_agreement import chance_f1\n"
        "predictions, references = long_document_corpus(20)\n"
        "before = set(sys.modules)\n"
        "chance_f1(predictions, references, level='token')\n"
        "chance_f1(predictions, references, level='entity')\n"
        "print(sorted(set(sys.modules) - before))\n")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
