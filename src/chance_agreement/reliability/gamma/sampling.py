"""Random continua for gamma's expected disorder (Mathet et al. 2015, section 5.2).

The expected disorder is the mean best-alignment disorder of random continua built from the
observed one. Three samplers, each a function of an explicit ``numpy.random.Generator`` (no global
state), drawing whole arrays at a time:

- ``"statistical"`` (pygamma 0.5.9's default, ``StatisticalContinuumSampler``): for every
  annotator a number of units ``|trunc(N(mu_k, sd_k))|`` (at least 1 for the first), then units
  one after the other with gap ``N(mu_g, sd_g)`` before each and length ``|N(mu_l, sd_l)|``
  (redrawn while below 1e-6), categories drawn with their observed frequencies. The means and
  standard deviations (population) are those of the observed units per annotator, gaps (each
  annotator's first start when positive, the gaps between its consecutive units, and one 0) and
  lengths.
- ``"shuffle"`` (Mathet et al. 2015, section 5.2; pygamma's ``ShuffleContinuumSampler``): for
  every annotator place of the sample, the units of a uniformly drawn observed annotator, shifted
  by a pivot drawn uniformly (then truncated to an integer, pygamma's ``int_pivot``) over the part
  of ``[b_inf, b_sup]`` not within half an average unit length of an earlier pivot; units shifted
  past ``b_sup`` wrap around to the start. ``[b_inf, b_sup]`` is ``[min(0, first start),
  max(last end, total length of the texts)]`` (pygamma: the units' extent from 0). (pygamma's
  removal of the pivot neighbourhood also stretches the other free segments up to the pivot; here
  the free part is exactly what is left.)
- ``"random_model"`` (the random annotation model of ``chance_f1``,
  :func:`chance_agreement.sample_annotation`, non-overlapping model): in every text, each
  annotator keeps the number and lengths of its segments of each category, placed uniformly at
  random among all non-overlapping placements inside the text. Needs token positions in texts.

Normal deviates come from Marsaglia's polar method with ``_numerics.portable_math.log`` (IEEE basic
operations only), so a seed gives the same continua, bit for bit, on every machine.
"""

from __future__ import annotations

import math

import numpy as np

from ..._numerics import portable_math
from .continuum import Continuum, build

__all__ = ["SAMPLERS", "make_sampler"]

SAMPLERS = ("statistical", "shuffle", "random_model")

_MIN_LENGTH = 1e-6  # pyannote's SEGMENT_PRECISION: pygamma redraws shorter lengths
def standard_normal(rng: np.random.Generator, size: int) -> np.ndarray:
    """``size`` standard normal deviates (Marsaglia's polar method, basic operations only)."""
    out = np.empty(0)
    while out.size < size:
        need = size - out.size
        u, v = rng.random((2, need // 2 + need // 8 + 8)) * 2.0 - 1.0
        s = u * u + v * v
        keep = (s > 0) & (s < 1)
        u, v, s = u[keep], v[keep], s[keep]
        factor = np.sqrt(-2.0 * portable_math.log(s) / s)
        out = np.concatenate([out, u * factor, v * factor])
    return out[:size]


def _mean_sd(values) -> tuple[float, float]:
    """Mean and population standard deviation, exact sums (``math.fsum``)."""
    values = [float(x) for x in values]
    mean = math.fsum(values) / len(values)
    return mean, math.sqrt(math.fsum((x - mean) * (x - mean) for x in values) / len(values))


def make_sampler(continuum: Continuum, sampler: str = "statistical"):
    """A function ``rng -> Continuum`` drawing random continua of the kind ``sampler`` names."""
    if sampler == "statistical":
        return _statistical(continuum)
    if sampler == "shuffle":
        return _shuffle(continuum)
    if sampler == "random_model":
        return _random_model(continuum)
    raise ValueError(f"sampler must be one of {list(SAMPLERS)}, got {sampler!r}")


def _statistical(c: Continuum):
    if c.n_units == 0:
        raise ValueError("the statistical sampler needs at least one unit")
    gaps = [0.0]
    for i in range(c.n_annotators):
        units = c.units_of(i)
        if units.size and c.start[units[0]] > 0:
            gaps.append(float(c.start[units[0]]))
        gaps += (c.start[units[1:]] - c.end[units[:-1]]).tolist()
    counts = np.bincount(c.annotator, minlength=c.n_annotators)
    count_mean, count_sd = _mean_sd(counts)
    gap_mean, gap_sd = _mean_sd(gaps)
    length_mean, length_sd = _mean_sd(c.end - c.start)
    cumulative = np.cumsum(np.bincount(c.category, minlength=len(c.categories)))

    def sample(rng: np.random.Generator) -> Continuum:
        sizes = np.abs(np.trunc(count_mean + count_sd * standard_normal(rng, c.n_annotators))).astype(np.int64)
        sizes[0] = max(sizes[0], 1)
        total = int(sizes.sum())
        gap = gap_mean + gap_sd * standard_normal(rng, total)
        length = _lengths(rng, length_mean, length_sd, total)
        steps = np.empty(2 * total)
        steps[0::2], steps[1::2] = gap, length
        ends = np.empty(2 * total)
        bounds = np.concatenate([[0], np.cumsum(2 * sizes)])
        for i in range(c.n_annotators):  # positions restart at 0 for every annotator
            np.cumsum(steps[bounds[i]:bounds[i + 1]], out=ends[bounds[i]:bounds[i + 1]])
        category = np.searchsorted(cumulative, rng.integers(0, c.n_units, total), side="right")
        annotator = np.repeat(np.arange(c.n_annotators), sizes)
        return build(c.annotators, c.categories, annotator, ends[0::2], ends[1::2], category)

    return sample


def _lengths(rng, mean: float, sd: float, size: int) -> np.ndarray:
    length = np.abs(mean + sd * standard_normal(rng, size))
    short = np.flatnonzero(length < _MIN_LENGTH)
    while short.size:
        if sd == 0:
            raise ValueError(f"every unit is shorter than {_MIN_LENGTH}: the statistical sampler cannot draw lengths")
        length[short] = np.abs(mean + sd * standard_normal(rng, short.size))
        short = short[length[short] < _MIN_LENGTH]
    return length


def _shuffle(c: Continuum):
    if c.n_units == 0:
        raise ValueError("the shuffle sampler needs at least one unit")
    low, high = c.bounds
    radius = math.fsum((c.end - c.start).tolist()) / c.n_units / 2
    groups = [c.units_of(i) for i in range(c.n_annotators)]

    def sample(rng: np.random.Generator) -> Continuum:
        while True:
            free = [(low, high)]
            parts = []
            for place in range(c.n_annotators):
                pivot = _pivot(rng, free, low, high)
                free = [piece for a, b in free for piece in ((a, min(b, pivot - radius)), (max(a, pivot + radius), b))
                        if piece[1] > piece[0]]
                units = groups[int(rng.integers(c.n_annotators))]
                start = c.start[units] + pivot
                wrap = np.where(start > high, high - low, 0.0)
                parts.append((np.full(units.size, place), start - wrap, c.end[units] + pivot - wrap, c.category[units]))
            if sum(part[0].size for part in parts):
                break
        annotator, start, end, category = (np.concatenate(column) for column in zip(*parts, strict=True))
        return build(c.annotators, c.categories, annotator, start, end, category)

    return sample


def _pivot(rng: np.random.Generator, free, low: float, high: float) -> float:
    """A uniform point of the free segments, truncated to an integer (pygamma's ``int_pivot``);
    uniform over ``[low, high)`` when nothing is free (as pygamma)."""
    total = math.fsum(b - a for a, b in free)
    if total <= 0:
        return low + (high - low) * float(rng.random())
    point = total * float(rng.random())
    for a, b in free:
        if point < b - a:
            return float(math.trunc(a + point))
        point -= b - a
    return float(math.trunc(free[-1][1]))


def _random_model(c: Continuum):
    if c.text_offsets is None:
        raise ValueError("the random_model sampler needs texts of tokens (tags or span lists with lengths)")
    if not (np.all(c.start == np.round(c.start)) and np.all(c.end == np.round(c.end))):
        raise ValueError("the random_model sampler needs integer token positions")
    offsets = c.text_offsets.astype(np.int64)
    text = c.text_of(np.arange(c.n_units))
    group_keys = (text * c.n_annotators + c.annotator) * len(c.categories) + c.category
    order = np.argsort(group_keys, kind="stable")
    keys, first, k = np.unique(group_keys[order], return_index=True, return_counts=True)
    lengths = (c.end - c.start).astype(np.int64)[order]
    excess = np.add.reduceat(lengths - 1, first) if keys.size else np.zeros(0, np.int64)
    text_of_group = keys // (c.n_annotators * len(c.categories))
    slots = (offsets[1:] - offsets[:-1])[text_of_group] - excess
    crowded = np.flatnonzero(slots < k)
    if crowded.size:
        g = crowded[0]
        raise ValueError(f"text {text_of_group[g]}: the {k[g]} units of category "
                         f"{c.categories[keys[g] % len(c.categories)]!r} "
                         f"of annotator {c.annotators[keys[g] // len(c.categories) % c.n_annotators]!r} overlap and do "
                         "not fit side by side in the text; the random_model sampler places them without overlap")
    group = np.repeat(np.arange(keys.size), k)
    annotator, category = c.annotator[order], c.category[order]

    def sample(rng: np.random.Generator) -> Continuum:
        slot_group = np.repeat(np.arange(keys.size), slots)
        slot = np.arange(slot_group.size) - np.repeat(np.cumsum(slots) - slots, slots)
        ranked = _shuffled_within(rng, slot_group)
        rank = np.empty_like(ranked)
        rank[ranked] = np.arange(ranked.size) - np.repeat(np.cumsum(slots) - slots, slots)
        taken = rank < np.repeat(k, slots)
        chosen = slot[taken]  # per group, ascending slots
        shuffled = _shuffled_within(rng, group)  # a uniform order of each group's segments
        size = lengths[shuffled]
        before = np.cumsum(size - 1) - (size - 1)
        before -= np.repeat(before[first], k)
        start = np.empty(group.size, dtype=np.int64)
        start[shuffled] = chosen + before + offsets[text_of_group[group]]
        return build(c.annotators, c.categories, annotator, start, start + lengths, category, c.text_offsets)

    return sample


def _shuffled_within(rng: np.random.Generator, group: np.ndarray) -> np.ndarray:
    """Indices sorted by ``group`` (non-decreasing, < 2^23) and uniformly shuffled within each
    group: a stable sort on ``group * 2^40 + 40 random bits`` (two equal keys, chance < 1e-11,
    keep their order)."""
    keys = (group.astype(np.int64) << 40) | rng.integers(0, 1 << 40, group.size, dtype=np.int64)
    return np.argsort(keys, kind="stable")
