"""The non-overlapping random annotation model's distributions (chance_agreement_sequence_annotation.txt,
Propositions 2 and 3), for ``NonOverlapping`` (``non_overlapping.py``).

For one annotator, one text of ``n`` tokens and one entity type, the model keeps the number ``k``
of segments and their lengths ``a_1..a_k`` and places them uniformly at random over all feasible
placements in which segments may touch but not overlap: there are ``k! * C(n - a + k, k)``
placements, ``a = sum(a_i)`` (Proposition 2).

How the distributions are computed (exactly, without Proposition 2's 2^k subsets):
write each segment as one *slot* plus its excess ``e_i = a_i - 1`` and let ``E = sum(e_i)``.
A placement is then a uniform choice of ``k`` slots among ``M = n - E`` compressed positions,
independent of a uniform order of the segments; a segment in slot ``q`` (0-based) starts at token
``q + X``, where ``X`` is the excess of the segments in earlier slots. Hence, for a segment ``i``,

    P(start_i = l) = 1/M * sum_{q + x = l} sum_j HG(j; M-1, q, k-1) * D_j(x)

with ``HG`` the hypergeometric probability that ``j`` of the other ``k - 1`` slots precede ``q`` and
``D_j(x)`` the probability that a uniform ``j``-subset of the other segments has excess ``x``: only
the number of segments to one side and their total length matter. The same sum with all ``k``
segments gives the probability that token ``t`` is a free (unannotated) token, times ``(M - k)/M``.
Proposition 3 makes both distributions flat in the middle band, so only the two ends (at most
``E`` positions each, mirror images) are computed and the middle value follows from the total
mass. The ends converge to the middle value fast: ``_converged_band`` proves where they are within
half an ulp of it, so long sparse texts cost near-linear time (``n = 10**6``, ``k = 20,000``: 47
positions per end instead of 40,091). The subset-excess table is built one group of equal lengths
at a time. Small signatures (most sentences) are computed exactly in integers and correctly
rounded (``_exact_ends``); large ones with probabilities from logs (never factorials), to about
1e-10 relative on units of a few thousand tokens (``tests/test_document_bands.py``) and less on
longer ones, since the rounding of the log-gamma values grows with ``n``. A text too dense for
the band to be cut is refused up front (``_check_work``). The previous algorithm (full band, one
segment at a time) is the tests' oracle, in ``tests/oracles.py``.

Long units (documents of ``_LONG_UNIT`` tokens or more, total excess up to ``_LONG_BAND``, or
beyond it on dense texts whose arrays stay finite, ``_dense_side``) take ``document_bands``
instead: the same band sum as running sums of non-negative terms (Vandermonde's identity and
Horner's rule, evaluated position by position over rows of many segments at once), one
subset-excess table per annotator and unit shared by all its segments, to about 1e-15, batched
over a corpus (``prefetch_bands``); the entity level reads a segment's band by its side's lengths
(``compact_start_among``). Sentences (units below ``_LONG_UNIT``, 128 tokens: every sentence of
CoNLL-2003, the longest of which has 124) keep the paths above, so their values keep their bits.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from functools import lru_cache

import numpy as np

from ..._numerics.exact_sum import ordered_matmul
from ..._numerics.portable_math import exp, gammaln, log, log_factorial
from .document_bands import certified_end, side_bands_many, tail_rows
from .uniform_segments import one_segment_coverage, single_segment_compact

# Hypergeometric mass left out when the number of segments to one side is truncated: far below
# double precision, so the truncation changes no printed digit.
_TRUNCATED_MASS = 1e-20

# log(x!) for small x, each value to about one ulp: the fast path for texts up to this size.
_SMALL = 1024
_LOG_FACTORIAL = log_factorial(np.arange(_SMALL + 1))


def check(n: int, lengths: tuple[int, ...]) -> None:
    """Raise ValueError when segments of ``lengths`` (checked whole numbers) do not fit without
    overlap in ``n`` tokens."""
    if sum(lengths) > n:
        raise ValueError(f"segments of total length {sum(lengths)} do not fit without overlap in n={n} tokens")


def _log_rising(base: int, steps: int) -> np.ndarray:
    """``out[s] = log((base + s)! / base!)`` for ``s = 0..steps`` by a short cumulative sum."""
    out = np.zeros(steps + 1)
    if steps > 0:
        np.cumsum(log(np.arange(base + 1, base + steps + 1, dtype=float)), out=out[1:])
    return out


def _hypergeometric_matrix(slots: int, draws: int, rows: int, j_max: int, first_row: int = 0) -> np.ndarray:
    """``H[q, j] = C(q, j) C(slots - q, draws - j) / C(slots, draws)``, ``first_row <= q < rows``, ``j <= j_max``.

    The probability that ``j`` of ``draws`` uniformly chosen slots (out of ``slots``) lie among the
    first ``q``. Logs are formed from short cumulative sums of logs, so no large log-factorials
    are subtracted from each other (relative error ~1e-13 even for ``slots`` ~ 1e5).
    """
    q = np.arange(first_row, rows)[:, None]
    j = np.arange(j_max + 1)[None, :]
    rest = slots - draws  # slots that stay empty
    t = j - q  # (slots - q) - (draws - j) = rest + t
    valid = (j <= q) & (draws - j <= slots - q) & (rest + t >= 0) & (j <= draws)
    out = np.zeros((rows - first_row, j_max + 1))
    if slots <= _SMALL:
        lf = _LOG_FACTORIAL
        logp = (
            lf[q] - lf[j] - lf[(q - j).clip(0)]
            + lf[slots - q] - lf[(draws - j).clip(0)] - lf[(rest + t).clip(0)]
            - (lf[slots] - lf[draws] - lf[rest])
        )
        out[valid] = exp(logp[valid])
        return out
    log_fact_small = _log_rising(0, rows)  # log(x!) for x <= rows
    log_c_small = log_fact_small[q] - log_fact_small[j.clip(max=rows)] - log_fact_small[(q - j).clip(0)]
    # log((slots - q)! / slots!)
    log_a = np.concatenate([[0.0], np.cumsum(-log(np.arange(slots, slots - rows + 1, -1, dtype=float)))])[:rows]
    # log(draws! / (draws - j)!)
    log_b = np.concatenate([[0.0],
                            np.cumsum(log(np.arange(draws, draws - j_max, -1, dtype=float).clip(1)))])[: j_max + 1]
    # log(rest! / (rest + t)!) for t in [-(rows - 1), j_max]
    lo = min(rows - 1, rest)
    down = np.concatenate([[0.0], np.cumsum(log(np.arange(rest, rest - lo, -1, dtype=float)))])  # t = 0, -1, ..
    up = -_log_rising(rest, j_max)  # t = 0, 1, ..
    log_c = np.full(rows + j_max, -np.inf)
    log_c[rows - 1 : rows + j_max] = up
    log_c[rows - 1 - lo : rows] = down[::-1]
    logp = log_c_small + log_a[q] + log_b[None, :] + log_c[(t + rows - 1).clip(0)]
    out[valid] = exp(logp[valid])
    return out


def _subset_excess_table(excesses: list[int], j_max: int, x_max: int) -> np.ndarray:
    """``D[j, x]``: probability that a uniform ``j``-subset of the segments has total excess ``x``.

    Built one segment at a time; adding a segment to a pool of ``r - 1``:
    ``D'_j(x) = (r - j)/r * D_j(x) + j/r * D_{j-1}(x - e)``. Only ``j <= j_max``, ``x <= x_max``.
    """
    table = np.zeros((j_max + 1, x_max + 1))
    table[0, 0] = 1.0
    for pool, excess in enumerate(excesses, start=1):
        top = min(pool, j_max)
        j = np.arange(top + 1, dtype=float)
        if excess <= x_max:
            moved = table[:top, : x_max + 1 - excess] * (j[1:] / pool)[:, None]
            table[: top + 1] *= ((pool - j) / pool)[:, None]
            table[1 : top + 1, excess:] += moved
        else:
            table[: top + 1] *= ((pool - j) / pool)[:, None]
    return table


def _grouped_excess_table(excesses: list[int], j_max: int, x_max: int) -> np.ndarray:
    """The same table as ``_subset_excess_table``, one *group of equal excesses* at a time.

    A uniform ``j``-subset of a pool of ``r + c`` segments, ``c`` of them with excess ``e``, takes
    ``i`` of those ``c`` with hypergeometric probability ``C(c, i) C(r, j - i) / C(r + c, j)`` and a
    uniform ``(j - i)``-subset of the rest: ``D'_j(x) = sum_i HG(i) D_{j-i}(x - i e)``. Cost
    ``O(groups * j_max^2 * x_max)`` instead of ``O(k * j_max * x_max)``; a text has at most
    ``sqrt(2 E)`` distinct excesses.
    """
    table = np.zeros((j_max + 1, x_max + 1))
    table[0, 0] = 1.0
    pool = 0
    for excess, count in sorted(Counter(excesses).items()):
        size = pool + count
        top = min(size, j_max)
        i_max = min(count, top)
        if excess:
            i_max = min(i_max, x_max // excess)
        # weights[j, i] = C(j, i) C(size - j, count - i) / C(size, count), the same law as above
        weights = _hypergeometric_matrix(size, count, top + 1, i_max)
        merged = np.zeros_like(table)
        for i in range(i_max + 1):
            shift = i * excess
            merged[i : top + 1, shift:] += weights[i : top + 1, i, None] * table[: top + 1 - i, : x_max + 1 - shift]
        table = merged
        pool = size
    return table


def _j_cap(slots: int, draws: int, rows: int) -> int:
    """Fewest j columns that keep all but _TRUNCATED_MASS of the hypergeometric law at q = rows - 1
    (the law is stochastically increasing in q, so this bound holds for every row)."""
    j_cap = min(draws, rows - 1)
    last_row = _hypergeometric_matrix(slots, draws, rows, j_cap, first_row=rows - 1)[0]
    tail = np.cumsum(last_row[::-1])[::-1]  # tail[j] = P(J >= j) at the last row
    negligible = np.nonzero(tail < _TRUNCATED_MASS)[0]
    if negligible.size:
        j_cap = max(int(negligible[0]) - 1, 0)
    return j_cap


# Up to this many segments the subset-excess table is built one segment at a time (fewer numpy calls).
_PER_SEGMENT = 64

# Largest joint[q, x] block formed at once (float64 entries): bounds the band's working memory.
_BLOCK = 1 << 22


def _band_mass(slots: int, draws: int, excesses: list[int], length: int, scale: float) -> np.ndarray:
    """``out[t] = scale * sum_{q + x = t} sum_j HG(j; slots, q, draws) D_j(x)`` for ``t < length``."""
    out = np.zeros(length)
    if length == 0:
        return out
    rows = min(length, slots + 1)
    j_cap = _j_cap(slots, draws, rows)
    x_max = min(length - 1, sum(excesses), j_cap * max(excesses, default=0))
    _check_work(rows, j_cap, x_max)
    hyper = _hypergeometric_matrix(slots, draws, rows, j_cap)
    grouped = len(excesses) > _PER_SEGMENT
    table = (_grouped_excess_table if grouped else _subset_excess_table)(excesses, j_cap, x_max)
    step = max(1, _BLOCK // (x_max + 1))
    for first in range(0, rows, step):
        # joint[q - first, x] = P(slot q, excess x before it)
        joint = ordered_matmul(hyper[first : first + step], table)
        for q in range(first, min(rows, first + step)):
            stop = min(length, q + x_max + 1)
            out[q:stop] += joint[q - first, : stop - q]
    out *= scale
    return out


# Work (multiply-adds) and memory (float64 entries) the exact band may take before a clear error.
_MAX_WORK = 4e10
_MAX_ENTRIES = 1 << 26


def _check_work(rows: int, j_cap: int, x_max: int) -> None:
    work = float(rows) * (j_cap + 1) * (x_max + 1) * 2
    entries = float(j_cap + 1) * (rows + 2 * (x_max + 1))
    if work > _MAX_WORK or entries > _MAX_ENTRIES:
        raise ValueError(
            f"this text is too dense to compute exactly: the band near each end spans {rows} tokens "
            f"with up to {j_cap} segments before a token ({work:.2g} operations, "
            f"{entries * 8 / 2**30:.2g} GiB; limits {_MAX_WORK:.2g} and {_MAX_ENTRIES * 8 / 2**30:.2g} GiB)"
        )


# Bands up to this many tokens are computed whole (searching for a shorter one costs more).
_SHORT_BAND = 64

# Values outside the computed band differ from the flat middle value by at most this, relative to
# the mean value: below half an ulp, so leaving them out changes no double.
_BAND_TOLERANCE = 2.0**-56


def _log_deviation_bound(slots: int, draws: int, excesses: list[int] | tuple[int, ...]):
    """``t -> log(B(t) / scale)``, the bound of ``_converged_band`` (``-inf`` when no term is left)."""
    top = np.cumsum(sorted(excesses, reverse=True)).astype(float)
    j = np.arange(1, len(top) + 1, dtype=float)
    base = gammaln(np.array([slots + 1.0, draws + 1.0, slots - draws + 1.0]))
    log_base = base[0] - base[1] - base[2]

    def log_bound(t: int) -> float:
        keep = top > t
        jj, m = j[keep], top[keep] - t
        if jj.size == 0:
            return -np.inf
        # one portable gammaln call for the six log-gamma terms of every j
        g = gammaln(np.concatenate([m + jj, jj + 1, m, slots + m + 1, draws - jj + 1, slots + m - draws + jj + 1]))
        g = g.reshape(6, -1)
        logs = g[0] - g[1] - g[2] + g[3] - g[4] - g[5] - log_base
        peak = logs.max()
        return float(peak + log(float(exp(logs - peak).sum())))

    return log_bound


def _converged_band(slots: int, draws: int, excesses: list[int], size: int, scale: float, mass: float) -> int:
    """``_converged_band_of`` (cached: a side's routing, ``_dense_side``, and its coverage ask for the
    same band)."""
    return _converged_band_of(slots, draws, tuple(excesses), size, scale, mass)


@lru_cache(maxsize=1 << 12)
def _converged_band_of(slots: int, draws: int, excesses: tuple[int, ...], size: int, scale: float,
                       mass: float) -> int:
    """A band ``L <= E`` outside of which ``_band_mass`` equals its flat middle value to ``tolerance``.

    Write ``P(t) = scale * sum_{j, x} D_j(x) W_j(t - x)`` with ``W_j(q) = C(q, j) C(S - q, K - j) / C(S, K)``
    (``S = slots``, ``K = draws``): the two binomials are polynomials in ``q`` of degrees ``j`` and
    ``K - j``, so ``F(t)``, the same sum with every ``W_j`` extended to negative ``q`` as a
    polynomial, has degree ``<= K``. ``P = F`` on ``[E, S]`` (there ``0 <= t - x <= S`` for every
    excess ``x <= E``) and ``P`` is flat there (Proposition 3), so when ``S - E >= K`` (``K + 1``
    points) ``F`` is that constant ``c`` everywhere. For ``0 <= t < E`` the terms that ``P`` lacks
    are those with ``x > t`` (``q = -m < 0``), where ``C(-m, j) = (-1)^j C(m + j - 1, j)``:

        |P(t) - c| = scale |sum_{j} sum_{x > t} D_j(x) W_j(t - x)|
                  <= scale * sum_{j: top_j > t} C(m_j + j - 1, j) C(S + m_j, K - j) / C(S, K) =: B(t),

    ``m_j = top_j - t``, ``top_j`` = the sum of the ``j`` largest excesses (``D_j(x) = 0`` above it),
    since ``sum_x D_j(x) <= 1`` and ``|W_j(-m)|`` grows with ``m``. ``B`` is nonincreasing in ``t``
    (fewer terms, each smaller), so the least ``L`` with ``B(L) <= tolerance`` (doubling, then bisection; each
    ``B`` in ``O(K)`` from log-gamma) bounds ``|P(t) - c|`` for every ``t >= L``. The middle value,
    re-derived from the total mass, then moves by at most ``tolerance`` as well. The bound ignores
    the alternating signs, so it is tight for sparse texts (``L`` in the tens for 2% of tokens in
    segments) and loose for dense ones (then ``L`` may stay at ``E``).
    """
    total_excess = sum(excesses)
    if total_excess == 0 or slots - total_excess < draws:
        return total_excess
    tolerance = _BAND_TOLERANCE * mass / size
    if tolerance <= 0:
        return total_excess
    log_limit = log(tolerance / scale) - 1e-6  # margin for log-gamma rounding
    bound = _log_deviation_bound(slots, draws, excesses)

    def converged(t: int) -> bool:
        return bound(t) <= log_limit

    low, high = 0, min(_SHORT_BAND, total_excess)  # converged(total_excess) holds: no term is left
    while not converged(high):  # bands are usually short: double from a short guess
        low, high = high + 1, min(2 * high, total_excess)
    while low < high:
        middle = (low + high) // 2
        if converged(middle):
            high = middle
        else:
            low = middle + 1
    return low


def _mirror_fill(left: np.ndarray, size: int, total: float) -> np.ndarray:
    """A distribution symmetric under ``t -> size - 1 - t``, flat between the two mirrored ends."""
    band = left.size
    out = np.empty(size)
    out[:band] = left
    out[size - band :] = left[::-1]
    out[band : size - band] = (total - 2.0 * left.sum()) / (size - 2 * band)
    return out


# Small signatures (most sentences) are computed exactly with integers: about this many terms.
_EXACT_TERMS = 4096


def _subset_excess_counts(excesses: list[int]) -> dict[tuple[int, int], int]:
    """``{(j, x): number of j-subsets of the segments with total excess x}`` (nonzero entries):
    the coefficients of ``prod_groups (1 + y z^e)^c``, ``c`` segments of excess ``e``."""
    counts = {(0, 0): 1}
    for excess, size in Counter(excesses).items():
        merged: dict[tuple[int, int], int] = {}
        for (j, x), count in counts.items():
            for i in range(size + 1):
                key = (j + i, x + i * excess)
                merged[key] = merged.get(key, 0) + count * math.comb(size, i)
        counts = merged
    return counts


@lru_cache(maxsize=1 << 12)
def _weighted_terms(excesses: tuple[int, ...]) -> list[tuple[int, int, int]]:
    """``(x, j, counts[j, x] j! (K - j)!)`` sorted by ``x``, for ``_exact_two_ended`` (cached:
    sentences of different lengths share their segment lengths)."""
    draws = len(excesses)
    return [(x, j, count * math.factorial(j) * math.factorial(draws - j))
            for (j, x), count in sorted(_subset_excess_counts(list(excesses)).items(), key=lambda item: item[0][::-1])]


def _exact_ends(size: int, slots: int, draws: int, excesses: list[int], scale: tuple[int, int], mass: int,
                complement: bool = False) -> tuple[list[float], float | None]:
    """The band values and the middle value (``None`` when there is no flat middle) of
    ``_two_ended`` in exact integer arithmetic, each correctly rounded; ``complement``: of
    ``1 - value`` (coverage from the free-token probability), also exactly.

    ``P(t) / scale = sum_{j, x} D_j(x) C(t - x, j) C(S - t + x, K - j) / C(S, K)`` with
    ``D_j(x) = counts[j, x] / C(K, j)``; over the common denominator ``C(S, K) K!`` every term is
    the integer ``counts[j, x] j! (K - j)! C(q, j) C(S - q, K - j)``, ``q = t - x``. ``scale`` is
    ``(numerator, denominator)``, not necessarily in lowest terms (each value is one correctly
    rounded division of integers, so only the rational number matters).
    """
    scale_numerator, scale_denominator = scale
    terms = _weighted_terms(tuple(sorted(excesses)))
    total_excess = sum(excesses)
    band = size if size < 2 * total_excess + 1 else total_excess
    comb = math.comb
    numerators = []
    for t in range(band):
        value = 0
        for x, j, weight in terms:
            q = t - x
            if q < 0:
                break
            if j <= q <= slots:
                value += weight * comb(q, j) * comb(slots - q, draws - j)
        numerators.append(value * scale_numerator)
    denominator = math.comb(slots, draws) * math.factorial(draws) * scale_denominator
    if complement:
        left = [(denominator - value) / denominator for value in numerators]
    else:
        left = [value / denominator for value in numerators]
    if band == size:
        return left, None
    middle_numerator, middle_denominator = mass * denominator - 2 * sum(numerators), (size - 2 * band) * denominator
    if complement:
        middle_numerator = middle_denominator - middle_numerator
    return left, middle_numerator / middle_denominator


def _exact_two_ended(size: int, slots: int, draws: int, excesses: list[int], scale: Fraction, mass: int,
                     complement: bool = False) -> np.ndarray:
    """``_two_ended`` from ``_exact_ends``, as an array."""
    left, middle = _exact_ends(size, slots, draws, excesses, (scale.numerator, scale.denominator), mass, complement)
    if middle is None:
        return np.array(left)
    out = np.full(size, middle)
    if left:
        out[: len(left)] = left
        out[size - len(left) :] = left[::-1]
    return out


# Units of at least this many tokens (documents) take the band of ``document_bands``: all segments
# of one side at once, batched over units; shorter ones (sentences) keep the per-signature paths
# above, so sentence corpora keep their bits. On CoNLL-2003 as its 231 documents (first calls,
# best of 5) a unit of 256, 128 or 64 tokens took the entity level 0.136, 0.084 or 0.081 s and the
# token level 0.090, 0.067 or 0.059 s: 128 keeps every CoNLL-2003 sentence (at most 124 tokens) on
# the exact paths, at most of the gain.
_LONG_UNIT = 128

# ... while the side's total excess is at most this; past it, where ``_dense_side`` says so.
_LONG_BAND = 2048
# Past _LONG_BAND the document band keeps its arrays finite with at most this many segments of
# positive excess (every subset count is below 2^K') and lambda E at most _LONG_DENSITY (every
# running product below e^(lambda E)); with a certified short end L (``_dense_side``), with
# C(K', S) below 2^1000 and lambda L at most _LONG_DENSITY.
_LONG_SEGMENTS = 1000
_LONG_DENSITY = 300.0


@lru_cache(maxsize=1 << 16)
def _side_sums(lengths: tuple[int, ...]) -> tuple[int, int]:
    """``(E, K')``: the total excess of ``lengths`` and how many have a positive one."""
    return sum(lengths) - len(lengths), sum(1 for a in lengths if a > 1)


def _long_side(n: int, lengths: tuple[int, ...], excess: int) -> bool:
    """Whether ``document_bands`` computes the distribution of a segment of excess ``excess``
    (``0``: a free token) among the others of ``lengths`` (the whole side, sorted): a long unit,
    a moderate band with a flat middle, and the running products of its weights positive."""
    return bool(_long_excesses(n, lengths, (excess,)))


def _long_excesses(n: int, lengths: tuple[int, ...], excesses) -> list[int]:
    """Those of ``excesses`` for which ``_long_side`` holds, the side's sums formed once."""
    if n < _LONG_UNIT:
        return []
    total, positive = _side_sums(lengths)
    kept = []
    for excess in excesses:
        band = total - excess
        if band > 0 and n - excess >= 2 * band + 1 and n - total - 1 - band >= positive - (excess > 0):
            kept.append(excess)
    return kept if kept and (total <= _LONG_BAND or _dense_side(n, lengths)) else []


@lru_cache(maxsize=1 << 12)
def _dense_side(n: int, lengths: tuple[int, ...]) -> bool:
    """Whether a side whose total excess ``E`` passes ``_LONG_BAND`` takes the document band: where
    its arrays stay finite and the text is dense, its converged band (``_converged_band``, as for
    the side's coverage) at least ``E / 2`` long. The converged band costs about ``2 E^2 j`` per
    segment length when it does not stop early (``j`` the most segments before a position it
    keeps), the document band ``S^2 E / 3``; a short converged band (a sparse text) stays the
    faster. Finite arrays: up to a certified short end ``L < E`` (``certified_end``), every count
    below ``C(K', S) < 2^1000`` and every running product below ``e^(lambda L)``, ``lambda L`` at
    most ``_LONG_DENSITY``; without one, at most ``_LONG_SEGMENTS`` segments of positive excess
    (every count below ``2^K'``) and ``lambda E`` at most ``_LONG_DENSITY``."""
    total, positive = _side_sums(lengths)
    slots = n - total - 1
    # Finite up to E implies finite up to any L < E (at most 1,000 segments keep every count below
    # 2^1000), so the certified end, the costlier test, is computed only when needed, and after the
    # sparse test (the converged band, cached: the coverage reads it too).
    finite_to_total = positive <= _LONG_SEGMENTS and positive * total <= _LONG_DENSITY * slots
    terms_slots, draws, excesses, scale, mass = _coverage_terms(n, lengths)
    if 2 * _converged_band(terms_slots, draws, excesses, n, float(scale), float(mass)) < total:
        return False
    if finite_to_total:
        return True
    end = certified_end(slots, tuple(a - 1 for a in lengths if a > 1))
    if end >= total:
        return False
    rows = int(tail_rows([slots], [positive], [end])[0])
    return positive * end <= _LONG_DENSITY * slots and math.comb(positive, rows).bit_length() <= 1000


def _coverage_terms(n: int, lengths: tuple[int, ...]) -> tuple[int, int, list[int], Fraction, int]:
    """The coverage's band terms ``(slots, draws, excesses, scale, mass)`` (``_two_ended``): with
    ``M = n - E`` slots, ``M - 1`` besides a free token, the ``k`` segments and their excesses,
    ``(M - k) / M`` and the ``n - sum(lengths)`` free tokens."""
    k, total = len(lengths), sum(lengths)
    slots = n - (total - k)
    return slots - 1, k, [a - 1 for a in lengths], Fraction(slots - k, slots), n - total


class _BandCache(dict):
    """``(n, lengths) -> {excess: (V on the band, flat V)}`` of ``document_bands.side_bands``
    (``None`` where a band failed its mass identity), filled one unit at a time or for a whole
    corpus (``prefetch_bands``); a side's length tuple is hashed once for all its excesses.
    Bounded like the other caches: cleared when it would hold more than ``limit`` bands."""

    limit = 1 << 17
    held = 0  # bands in the cache

    def cache_clear(self) -> None:
        self.clear()
        self.held = 0

    def _missing(self, requests) -> dict[tuple[int, tuple[int, ...]], set[int]]:
        wanted: dict[tuple[int, tuple[int, ...]], set[int]] = {}
        for n, lengths, excesses in requests:
            side = self.get((n, lengths), {})
            missing = {e for e in excesses if e not in side}
            if missing:
                wanted.setdefault((n, lengths), set()).update(missing)
        return wanted

    def fill(self, requests) -> None:
        """Compute every ``(n, lengths, excesses)`` request not cached yet, in one batch; every
        requested band is in the cache afterwards."""
        requests = list(requests)
        wanted = self._missing(requests)
        if not wanted:
            return
        if self.held + sum(map(len, wanted.values())) > self.limit:  # full: start over
            self.cache_clear()
            wanted = self._missing(requests)
        jobs = [(n, lengths, tuple(sorted(excesses))) for (n, lengths), excesses in wanted.items()]
        for (n, lengths, excesses), bands in zip(jobs, side_bands_many(jobs), strict=True):
            self.setdefault((n, lengths), {}).update(zip(excesses, bands, strict=True))
            self.held += len(excesses)

    def bands(self, n: int, lengths: tuple[int, ...], excesses) -> list:
        """``band`` of each of ``excesses``, the side looked up once."""
        try:
            return list(map(self.get((n, lengths), {}).__getitem__, excesses))
        except KeyError:
            self.fill([(n, lengths, excesses)])
            return list(map(self[n, lengths].__getitem__, excesses))

    def band(self, n: int, lengths: tuple[int, ...], excess: int):
        """``(V on the band, flat V)``, or ``None`` where the band failed its mass identity."""
        return self.bands(n, lengths, (excess,))[0]


_long_bands = _BandCache()


def prefetch_bands(groups, overlap: bool, matches: bool) -> None:
    """Compute in one batch the long-unit bands that ``expected_overlap`` (``overlap``) and the
    entity level's start distributions (``matches``) will ask for ``groups``: ``(n, lengths_a,
    lengths_b)`` with sorted length tuples. Only a cache fill: every value is the same bits as
    computed alone."""
    requests = []
    for n, lengths_a, lengths_b in groups:
        if n < _LONG_UNIT or len(lengths_a) + len(lengths_b) <= 2:
            continue
        shared = set(lengths_a) & set(lengths_b) if matches else set()
        for lengths in (lengths_a, lengths_b):
            excesses = {length - 1 for length in shared if len(lengths) > 1}
            if overlap and len(lengths) > 1:
                excesses.add(0)
            kept = _long_excesses(n, lengths, excesses)
            if kept:
                requests.append((n, lengths, kept))
    _long_bands.fill(requests)


def _long_coverage(n: int, lengths: tuple[int, ...]) -> tuple[np.ndarray, float] | None:
    """Coverage of a long unit as ``(left, middle)``: ``1 - (M - k)/M * V``, ``M = n - E`` slots;
    ``None`` where the document band cannot be certified (the caller takes the other paths)."""
    if (bands := _long_bands.band(n, lengths, 0)) is None:
        return None
    band, flat = bands
    slots = n - sum(lengths) + len(lengths)
    scale = (slots - len(lengths)) / slots
    return 1.0 - scale * band, 1.0 - scale * flat


def _long_start(n: int, others: tuple[int, ...], length: int) -> tuple[np.ndarray, float] | None:
    """Start distribution of a long unit as ``(left, middle)``: ``V / M``, ``M = n - E`` slots;
    ``None`` where the document band cannot be certified."""
    lengths = tuple(sorted((*others, length)))
    if (bands := _long_bands.band(n, lengths, length - 1)) is None:
        return None
    band, flat = bands
    slots = n - sum(lengths) + len(lengths)
    return band / slots, flat / slots


def _expand(left: np.ndarray, middle: float, size: int) -> np.ndarray:
    out = np.full(size, middle)
    out[: left.size] = left
    out[size - left.size :] = left[::-1]
    return out


@lru_cache(maxsize=1 << 16)
def compact_coverage(n: int, lengths: tuple[int, ...]):
    """Coverage as ``(left, middle)``: ``c(t) = c(n - 1 - t) = left[t]`` for ``t < len(left)``,
    ``middle`` in between (``2 len(left) < n``), for the signatures computed exactly (one segment,
    length-1 segments, small non-overlapping signatures); ``None`` for the others. Lets a
    sentence's expected overlap be summed over the two ends only, without arrays."""
    k = len(lengths)
    if k <= 1:
        return single_segment_compact(n, lengths)
    total = sum(lengths)
    if total == n:
        return (), 1.0
    if total == k:
        return (), k / n
    total_excess = total - k
    if _long_side(n, lengths, 0) and (long := _long_coverage(n, lengths)) is not None:
        return long
    if n < 2 * total_excess + 1 or _exact_terms(n, k, total_excess) > _EXACT_TERMS:
        return None
    slots = n - total_excess
    left, middle = _exact_ends(n, slots - 1, k, [a - 1 for a in lengths], (slots - k, slots), n - total,
                               complement=True)
    return tuple(left), middle


def compact_coverages_many(sides) -> list:
    """``compact_coverage(n, lengths)`` of many ``(n, lengths)``, the same values: the long units'
    free-token bands turned into coverages, ``1 - (M - k)/M * V`` (``_long_coverage``), in one array
    operation (each value rounded as alone); the other sides from ``compact_coverage``."""
    out: list = [None] * len(sides)
    long, bands, scales = [], [], []
    for index, (n, lengths) in enumerate(sides):
        k, total = len(lengths), sum(lengths)
        if k > 1 and total not in (n, k) and _long_side(n, lengths, 0) and (band := _long_bands.band(n, lengths, 0)):
            slots = n - total + k
            long.append(index)
            bands.append(band)
            scales.append((slots - k) / slots)
        else:
            out[index] = compact_coverage(n, lengths)
    if bands:
        sizes = np.fromiter((band.size for band, _ in bands), dtype=np.intp, count=len(bands))
        factors = np.array(scales)
        values = 1.0 - np.repeat(factors, sizes) * np.concatenate([band for band, _ in bands])
        middles = (1.0 - factors * np.array([flat for _, flat in bands])).tolist()
        stops = np.cumsum(sizes).tolist()
        for index, stop, size, middle in zip(long, stops, sizes.tolist(), middles, strict=True):
            out[index] = (values[stop - size : stop], middle)
    return out


@lru_cache(maxsize=1 << 16)
def compact_start(n: int, others: tuple[int, ...], length: int):
    """``start_distribution`` as ``(left, middle)`` (see ``compact_coverage``), or ``None``."""
    support = n - length + 1
    if not others:
        return (), 1.0 / support
    if _long_side(n, tuple(sorted((*others, length))), length - 1) and (
            long := _long_start(n, others, length)) is not None:
        return long
    excess_others = [a - 1 for a in others]
    total_excess = sum(excess_others)
    if support < 2 * total_excess + 1 or _exact_terms(support, len(others), total_excess) > _EXACT_TERMS:
        return None
    if not total_excess:  # the others all of length 1: _exact_ends has no band, a flat 1 / support
        return (), 1.0 / support
    slots = n - total_excess - (length - 1)
    left, middle = _exact_ends(support, slots - 1, len(others), excess_others, (1, slots), 1)
    return tuple(left), middle


def compact_start_among(n: int, lengths: tuple[int, ...], length: int):
    """``compact_start`` of a segment of ``length`` among the other segments of ``lengths``
    (sorted, one of them of that length): a long unit's band straight from the band cache
    (the same values, without forming the others), else ``compact_start``."""
    return compact_starts_among(n, lengths, (length,))[0]


def compact_starts_among(n: int, lengths: tuple[int, ...], wanted) -> list:
    """``compact_start_among`` of each length of ``wanted`` (each one of ``lengths``)."""
    return compact_starts_many([(n, lengths, wanted)])[0]


def compact_starts_many(requests) -> list[list]:
    """``compact_starts_among(n, lengths, wanted)`` of many requests, the same values: each side's
    long-unit checks and band look-ups formed once, every long band of every side divided by its
    ``M = n - E`` in one array operation (the same quotients, each rounded once)."""
    bands: list = []
    sides = []  # per request: its long excesses, the index of the first of their bands, and M
    for n, lengths, wanted in requests:
        long = _long_excesses(n, lengths, [length - 1 for length in wanted]) if len(lengths) > 1 else []
        found = _long_bands.bands(n, lengths, long) if long else []
        if None in found:  # a band failed its mass identity: that length takes compact_start
            long = [excess for excess, band in zip(long, found, strict=True) if band is not None]
            found = [band for band in found if band is not None]
        sides.append((long, len(bands), n - _side_sums(lengths)[0]))
        bands += found
    forms = []
    if bands:  # V / M on the band and in the middle
        counts = [len(long) for long, _, _ in sides]
        divisors = np.repeat(np.array([slots for _, _, slots in sides], dtype=float), counts)
        sizes = np.fromiter((band.size for band, _ in bands), dtype=np.intp, count=len(bands))
        scaled = np.concatenate([band for band, _ in bands]) / np.repeat(divisors, sizes)
        middles = (np.array([flat for _, flat in bands], dtype=float) / divisors).tolist()
        stops = np.cumsum(sizes).tolist()
        forms = [(scaled[stop - size:stop], middle)
                 for stop, size, middle in zip(stops, sizes.tolist(), middles, strict=True)]
    out = []
    for (n, lengths, wanted), (long, first, _) in zip(requests, sides, strict=True):
        if len(long) == len(wanted):  # every length long: its forms in order
            out.append(forms[first:first + len(long)])
            continue
        at = dict(zip(long, range(first, first + len(long)), strict=True))
        row = []
        for length in wanted:
            if (index := at.get(length - 1)) is not None:
                row.append(forms[index])
            else:
                others = list(lengths)
                others.remove(length)
                row.append(compact_start(n, tuple(others), length))
        out.append(row)
    return out


def _exact_terms(size: int, draws: int, total_excess: int) -> int:
    """About the number of integer terms ``_exact_two_ended`` forms."""
    return (min(size, total_excess) + 1) * (total_excess + 1) * (draws + 1)


def _two_ended(size: int, slots: int, draws: int, excesses: list[int], scale: Fraction, mass: int,
               complement: bool = False) -> np.ndarray:
    """A distribution of ``size`` values that is flat in the middle and mirrored at the ends: the
    band ``_band_mass(slots, draws, excesses, band, scale)`` at each end and the middle value from
    the total ``mass``. The band stops where it has converged to double precision
    (``_converged_band``), and small signatures (most sentences) are computed exactly in integers
    (``_exact_two_ended``). The full Proposition-3 band is the tests' oracle (``tests/oracles.py``)."""
    total_excess = sum(excesses)
    if _exact_terms(size, draws, total_excess) <= _EXACT_TERMS:
        return _exact_two_ended(size, slots, draws, excesses, scale, mass, complement)
    scale_f, mass_f = float(scale), float(mass)
    if size < 2 * total_excess + 1:  # no flat middle: every value from the band computation
        out = _band_mass(slots, draws, excesses, size, scale_f)
    else:
        band = (_converged_band(slots, draws, excesses, size, scale_f, mass_f) if total_excess > _SHORT_BAND
                else total_excess)
        out = _mirror_fill(_band_mass(slots, draws, excesses, band, scale_f), size, mass_f)
    return 1.0 - out if complement else out


def _coverage_of(n: int, lengths: tuple[int, ...]) -> np.ndarray:
    k = len(lengths)
    if k == 1:  # one segment is placed uniformly
        return one_segment_coverage(n, lengths)
    total = sum(lengths)
    if k == 0:
        return np.zeros(n)
    if total == n:
        return np.ones(n)
    if total == k:  # k segments of length 1: k tokens chosen uniformly, each covered with k / n
        return np.full(n, k / n)
    if _long_side(n, lengths, 0) and (long := _long_coverage(n, lengths)) is not None:
        return _expand(*long, n)
    return _two_ended(n, *_coverage_terms(n, lengths), complement=True)


def coverage(n: int, lengths: tuple[int, ...]) -> np.ndarray:
    """``c(t)``, the probability that token ``t`` is covered, for the sorted ``lengths``:
    ``c(t) = 1 - (M - k) / M * V(t)`` with ``V`` the free-token band sum of the module docstring
    (Propositions 2 and 3)."""
    return _coverage_of(n, lengths)


def _start_distribution_of(n: int, others: tuple[int, ...], length: int) -> np.ndarray:
    support = n - length + 1
    if not others:
        return np.full(support, 1.0 / support)
    if _long_side(n, tuple(sorted((*others, length))), length - 1) and (
            long := _long_start(n, others, length)) is not None:
        return _expand(*long, support)
    excess_others = [a - 1 for a in others]
    slots = n - sum(excess_others) - (length - 1)  # Proposition 3: flat on [E_others, support - E_others)
    return _two_ended(support, slots - 1, len(others), excess_others, Fraction(1, slots), 1)


def start_distribution(n: int, others: tuple[int, ...], length: int) -> np.ndarray:
    """``P(start = l)``, ``l = 0..n - length``, of a segment of ``length`` among the sorted
    ``others``: Proposition 2 as in the module docstring, flat on the middle band of Proposition 3."""
    return _start_distribution_of(n, others, length)


def clear_caches() -> None:
    """Forget every cached value of this module (benchmarks time first calls with it)."""
    for cache in (_weighted_terms, compact_coverage, compact_start, _long_bands, _dense_side, _side_sums,
                  certified_end, _converged_band_of):
        cache.cache_clear()


def sample(n: int, lengths, rng: np.random.Generator) -> np.ndarray:
    """Start positions (in the order of ``lengths``) of one uniform placement: a uniform order of the
    segments times a uniform choice of ``k`` slots among ``n - sum(a_i - 1)``."""
    sizes = np.asarray(lengths, dtype=np.int64)
    k = sizes.size
    slots = n - int((sizes - 1).sum())
    order = rng.permutation(k)
    chosen = np.sort(rng.choice(slots, size=k, replace=False))
    excess_before = np.concatenate([[0], np.cumsum(sizes[order] - 1)[:-1]]) if k else np.zeros(0, np.int64)
    starts = np.empty(k, dtype=np.int64)
    starts[order] = chosen + excess_before
    return starts


__all__ = ["check", "clear_caches", "compact_coverage", "compact_coverages_many", "compact_start",
           "compact_start_among", "compact_starts_among", "compact_starts_many", "coverage", "prefetch_bands", "sample",
           "start_distribution"]
