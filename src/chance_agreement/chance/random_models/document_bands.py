"""The band of the random annotation model on long units (documents), all segments of one side at once.

``random_model`` writes, for a segment among ``others`` (or a free token among all segments),

    P(t) = scale * V(t),   V(t) = sum_{q + x = t} sum_j H(j; q) D_j(x),
    H(j; q) = C(q, j) C(N - q, K - j) / C(N, K)

(``N`` slots besides the segment's own, ``K`` other segments, ``D_j(x)`` the probability that a
uniform ``j``-subset of them has total excess ``x``), flat from ``t = E`` (the others' total
excess) to the mirrored end (Propositions 2 and 3). Computing ``V`` on the band ``t <= E`` costs
``E^2 * j`` there; here it costs about ``(K' + S^2 / 3) * E``, and the subset-excess table is
built once per annotator and unit and shared by all its segments:

1. *Segments of length 1 drop out.* They add no excess, and the ``K'`` others of positive excess
   occupy a uniform ``K'``-subset of the ``N`` slots, so ``V`` is the same sum with ``K'`` in
   place of ``K`` and ``D`` over those ``K'`` only.
2. *Vandermonde.* With ``x = t - q``, ``C(N - q, K - j) = sum_p C(N - t, K - j - p) C(x, p)`` (all
   terms non-negative), so

       V(t) = sum_s C(N - t, K - s) / C(N, K) * Z_s(t),
       Z_s(t) = sum_{j + p = s} sum_{q + x = t} C(q, j) C(x, p) D_j(x).

   ``sum_{q >= 0} C(q, j) z^q = z^j / (1 - z)^(j + 1)``, so with ``Cu`` the running sum over
   ``t`` and ``T = z Cu`` (the running sum of the earlier positions),
   ``Z_s = Cu(v_0 + T(v_1 + T(v_2 + ...)))``, ``v_j(x) = C(x, s - j) D_j(x)``: Horner's rule in
   running sums, one pass per ``j`` for all ``s`` at once. Every term is non-negative, so no
   digit cancels.
3. *Truncation in s.* ``Z_s(t) <= C(t + 1, s + 1)`` (the double sum of binomials, ``D <= 1``) and
   ``V(t) >= C(N - t, K)/C(N, K)`` (its ``j = s = 0`` term), so the terms past ``S`` are bounded
   relative to ``V(t)`` by a sum of known ratios; ``S`` is the least with that bound below
   ``2^-60`` at the band's last position (the bound grows with ``t``). A second bound, far
   tighter on dense sides (``lambda t`` large, where ``C(N - t, K)/C(N, K)`` is near
   ``e^(-lambda t)``), reads ``V`` as a probability. Place the ``K'`` others in a uniform random
   order on the ``N`` slots (slot ``i`` starts at token ``i + X(i)``, ``X(i)`` the excess in
   slots ``< i``); ``H(j; q) D_j(x)`` is the chance of ``j`` others in slots ``< q`` with excess
   ``x``, and item 2's Vandermonde term ``C(q, j) C(x, p) C(N - t, K - s) / C(N, K) D_j(x)``
   that of also ``p`` others in slots ``q .. t - 1`` (``t <= N``). As ``i + X(i)`` grows
   strictly in ``i``, at most one ``q`` has ``q + X(q) = t``, so with ``B_t`` that event and
   ``H_t`` the number of others in slots ``< t`` (hypergeometric: ``t`` of ``N``, ``K'`` marked),

       sum_{s > S} C(N - t, K - s) / C(N, K) Z_s(t) = P(B_t, H_t > S) <= P(H_t > S).

   *Lemma.* ``V(t) = P(B_t) >= 1 - E/N``. ``B_t`` fails only inside some other's excess,
   ``t - e_i <= u < t`` for its start ``u``; given its slot ``i`` (chance ``1/N`` each) the
   start ``i + X(i)`` is again strictly increasing in ``i``, so each ``u`` has chance at most
   ``1/N``, and ``P(not B_t) <= sum_i e_i / N = E/N``. ``H_t <= H_(t + 1)`` (the same order),
   so the bound grows with ``t`` and ``S`` is the least with ``P(H_t > S) <= 2^-60 (1 - E/N)``
   at the band's last position (``_hypergeometric_block``, where ``E < N``), or the first
   bound's ``S`` if smaller. Dense 30,000-token document: ``S = 85`` instead of ``108``.
4. *Counts and exclusion.* ``c_j(x)``, the number of ``j``-subsets of excess ``x``, is built once
   for all ``K'`` segments of the side (float64, exact integers below ``2^53``); the table
   without one segment of excess ``e`` is ``c'_j(x) = c_j(x) - c'_{j - 1}(x - e)``, exact
   while the counts are exact (otherwise each table is built from its own segments, except on
   a short band, item 8, where the deflated table keeps ``V`` to about ``1e-15`` past ``2^53``
   too: ``tests/test_short_bands.py`` checks it against exact integers).
5. *Scaling.* ``C(q, j)`` and ``C(x, p)`` are carried times ``lambda^j`` and ``lambda^p``
   (``lambda = K'/N``, the side's density) and the weights divided by ``lambda^s``, so no
   intermediate overflows; every weight is a running product of ratios of integers. On dense
   long texts the factor ``f_j = lambda^j / C(K', j)`` leaves the double range (``lambda E``
   near 160: below ``2^-1074`` from ``j = 119`` while ``S = 270``) although its products
   ``f_j c_j(x)`` do not (the counts reach ``1e270``). Row ``j`` of the count table is then
   carried times ``2^-k_j`` and ``f_j`` times ``2^k_j`` (``_factor_shifts``: the least ``k_j``
   that keeps ``f_j`` at or above ``2^-1000``); a power of two changes no significand, so
   every product keeps the bits it has on an unbounded exponent range, and where ``k_j = 0``
   (every text on which the factors stayed in range) nothing changes at all.

6. *Position by position.* Every running sum above is a recurrence in ``t``, so all of them
   advance together, one position at a time (``_group_values``): with ``p = s - j`` the chains
   are ``U[p, j](t) = v_{j, p}(t) + R[p - 1, j + 1](t)``, ``R[p, j](t + 1) = R[p, j](t) +
   U[p, j](t)``, ``Z_s(t) = R[s, 0](t + 1)``; ``lambda^p C(t, p)`` follows Pascal's rule, the
   weights ``w_s(t) = w_s(t - 1) (N - t + 1 - K + s) / (N - t + 1)``, and the table without a
   segment the recurrence of item 4 (it reads position ``t - e`` only). Each step is one array
   operation over the items of a whole group (the segments of many units with similar ``S``,
   sorted by band length so that the items still in their band at ``t`` are a prefix), which
   replaces numpy's running sums (about ten times slower per entry than an addition of rows).
   Work: about ``S^2 E / 3`` multiply-adds per segment length of a side (the triangle
   ``p + j <= S`` in a few rectangular blocks, ``_staircase``), plus ``K' S E`` per side for
   the count table. ``S`` grows with the expected number of segments before the band's end
   (``lambda E``), so a long dense document costs more than linear time per length; this is
   what keeps the entity level (one band per distinct length of each side) above seqeval's
   pace in ``benchmarks/bench_long_documents.py``.

7. *Certificate.* ``V`` sums to ``M = n - E`` over the ``n - e`` positions (the identity behind
   a start distribution summing to 1 and the coverage to the annotated length). Every term is
   non-negative, so anything lost to the double range lowers the sum: a band whose sum is off by
   more than ``_MASS_TOLERANCE`` is not returned (``None``) and the caller takes the per-signature
   paths (``random_model``), which work from logarithms. No band is returned uncertified.

8. *Short bands.* ``V`` converges to its flat value long before ``E`` on a dense side: the
   walk behind ``V`` (``certified_end``) gives an exact identity for ``V(t) - V(t + 1)`` and
   from it a bound ``|V(t) - V(E)| <= z^-t beta(z)`` that is a proof, not an estimate. A side
   with ``E >= _SHORT_FROM`` computes its band only up to the least ``L`` where the bound is
   below ``2^-60`` of the flat value, and returns ``V(L)`` as the flat value: every value from
   ``L`` on is within ``2^-60`` of the exact flat value, so within ``2^-59`` of the value
   returned for it (dense 30,000-token document: ``L = 810``, ``S = 85``
   instead of ``E = 4,509``, ``S = 270``). Where the bound gives no shorter end (one long
   segment on a sparse text keeps the band genuinely ``E`` long) nothing changes.

The flat middle value is ``V(E)`` itself (exact formula, no subtraction from the total mass), or
``V(L)`` on a short band (item 8).
Every operation is an IEEE basic operation (running sums and products in a fixed order, no
BLAS, no libm), and the values of a segment depend only on its own signature ``(n, others,
length)``: a group pads rows that the signature does not read (zero weights, which leave a
sum's bits as they are) and stops an item at the end of its band. Accuracy: relative error of the order of
``(S + E) * 2^-53`` (running sums of non-negative terms) plus the ``2^-60`` truncation, checked
against exact fractions in ``tests/test_document_bands.py``.
"""

from __future__ import annotations

import math
from functools import lru_cache
from itertools import chain, pairwise

import numpy as np

from ..._numerics.compiled import compiled_kernels
from ..._numerics.exact_sum import fsum_segments
from ..._numerics.portable_math import log

__all__ = ["certified_end", "side_bands", "side_bands_many", "tail_rows"]

# Terms of V left out by the truncation in s, relative to V(t).
_TAIL = 2.0**-60


def tail_rows(slots, draws, last, excess=None) -> np.ndarray:
    """``S`` of each ``(N, K', t)`` (arrays of one shape): rows ``s <= S`` keep all of ``V(t)``
    for positions up to ``t`` but ``2^-60`` (item 3 above).

    ``r_s = C(N - t, K - s) / C(N - t, K) * C(t + 1, s + 1)``; the tail ``sum_{s > S} r_s``
    is bounded by its terms (all non-negative, summed from the end). With ``excess`` (the others'
    total excess ``E``, same shape) also the hypergeometric bound of item 3 (``_hypergeometric_block``),
    and the smaller ``S`` of the two. Formed in blocks of ``K'`` below one power of two (``K'``
    below twice the block's width; a row's terms past its ``K'`` are zeros, which change no sum)."""
    slots, draws, last = (np.atleast_1d(np.asarray(a, dtype=float)) for a in (slots, draws, last))
    out = np.zeros(draws.size, dtype=int)
    blocks = np.frexp(draws)[1]  # 2^(b - 1) <= K' < 2^b
    for block in np.flatnonzero(np.bincount(blocks)).tolist():
        if block == 0:  # K' = 0: no row past the first
            continue
        mine = np.flatnonzero(blocks == block)
        out[mine] = _tail_block(slots[mine], draws[mine], last[mine])
        if excess is not None:
            others = np.atleast_1d(np.asarray(excess, dtype=float))[mine]
            out[mine] = np.minimum(out[mine], _hypergeometric_block(slots[mine], draws[mine], last[mine], others))
    return out


def _hypergeometric_block(slots: np.ndarray, draws: np.ndarray, last: np.ndarray, excess: np.ndarray) -> np.ndarray:
    """The least ``S`` with ``P(H > S) <= 2^-61 (1 - E / N)`` (item 3), ``H`` hypergeometric (``t``
    of ``N`` slots, ``K'`` marked), or ``K'`` where ``E >= N`` (the crude bound is kept there).

    ``g_s = P(H = s) / P(H = m)`` around the mode ``m = floor((t + 1)(K' + 1) / (N + 2))`` by
    running products of ``P(H = s) / P(H = s - 1) = (t - s + 1)(K' - s + 1) / (s (N - t - K' + s))``
    outwards (at most 1: no overflow; terms below ``2^-1074`` of the mode are below the margin),
    and ``P(H > S) = sum_{s > S} g_s / sum_s g_s``. Fewer than ``4 K'`` roundings along any term:
    the factor 2 of the margin covers them."""
    width = int(draws.max(initial=0))
    s = np.arange(1, width + 1, dtype=float)[None, :]
    d, n, t = draws[:, None], slots[:, None], last[:, None]
    mode = np.minimum(np.floor((t + 1.0) * (d + 1.0) / (n + 2.0)), np.minimum(t, d))
    live = (s <= d) & (s <= t)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        ratio = np.maximum(np.where(live, (t - s + 1.0) * (d - s + 1.0) / (s * (n - t - d + s)), 0.0), 0.0)
        up = np.cumprod(np.where(s > mode, ratio, 1.0), axis=1)
        down = np.cumprod(np.where(s <= mode, 1.0 / np.where(live, ratio, 1.0), 1.0)[:, ::-1], axis=1)[:, ::-1]
    terms = np.concatenate((down[:, :1], up * np.concatenate((down[:, 1:], np.ones_like(t)), axis=1)), axis=1)
    tails = np.cumsum(terms[:, ::-1], axis=1)[:, ::-1]  # tails[s] = sum_{s' >= s} terms[s']
    floor = 2.0**-61 * (n - excess[:, None]) / n * tails[:, :1]
    out = (tails[:, 1:] > floor).sum(axis=1)  # tails[S + 1] falls with S: the S failing come first
    return np.where(excess < slots, np.where(last == 0, 0, out), draws).astype(int)


def _tail_block(slots: np.ndarray, draws: np.ndarray, last: np.ndarray) -> np.ndarray:
    """``tail_rows`` of one block (float arrays), every row padded to the block's largest ``K'``."""
    width = int(draws.max(initial=0))
    s = np.arange(1, width + 1, dtype=float)[None, :]
    d, n, t = draws[:, None], slots[:, None], last[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(s <= d, (d - s + 1.0) / (n - t - d + s) * (t + 1.0 - s) / (s + 1.0), 0.0)
    terms = np.cumprod(np.concatenate((t + 1.0, np.maximum(ratio, 0.0)), axis=1), axis=1)
    tails = np.cumsum(terms[:, ::-1], axis=1)[:, ::-1]  # tails[s] = sum_{s' >= s} terms[s']
    beyond = tails[:, 1:] > _TAIL  # beyond[s]: mass past row s too large
    out = np.where(beyond.any(axis=1), width - np.argmax(beyond[:, ::-1], axis=1), 0)
    return np.minimum(np.where(last == 0, 0, out), draws).astype(int)


# The least binary exponent of a factor ``f_j`` (item 5): far above the subnormals (2^-1022), far
# enough below 1 that ``f_j`` times ``2^k`` never overflows.
_FACTOR_FLOOR = -1000


def _factor_shifts(scale: float, draws: int, rows: int) -> np.ndarray:
    """``k_j`` (``j < rows``): the power of two ``2^k_j`` that carries ``f_j = lambda^j / C(K', j)``
    (``K' = draws``) at or above ``2^_FACTOR_FLOOR``, 0 where it is there already. The factor is the running
    product of ``lambda j / (K' - j + 1)`` in ``_Group.factors``' order, renormalised by ``frexp`` (exact)
    so that its exponent is that of the product on an unbounded exponent range. Where the plain running
    product (the same roundings: a power of two changes no significand) stays at or above
    ``2^_FACTOR_FLOOR``, every ``k_j`` is 0 without the renormalised loop."""
    shifts = np.zeros(rows, dtype=np.int64)
    plain = 1.0
    for j in range(1, min(rows, draws + 1)):  # a few dozen steps: a Python loop beats numpy's calls
        plain *= scale * j / (draws - j + 1.0)  # j <= K': the divisor is at least 1
        if not 2.0**_FACTOR_FLOOR <= plain <= 2.0**-_FACTOR_FLOOR:
            break
    else:
        return shifts
    mantissa, exponent = 1.0, 0
    for j in range(1, min(rows, draws + 1)):
        mantissa, step = math.frexp(mantissa * (scale * j / max(draws - j + 1.0, 1.0)))
        exponent += step
        shifts[j] = max(0, _FACTOR_FLOOR - exponent)
    shifts[min(rows, draws + 1):] = shifts[min(rows, draws + 1) - 1] if rows > draws + 1 else 0
    return shifts


# Sides with at least this total excess ``E`` look for a certified short band (item 8). Measured
# (bound included, all of a side's bands): dense sides of E = 353, 394, 536 and 1,028 took 0.8, 0.5,
# 0.26 and 0.08 of the full band's time, those below E = 300 longer than it; 512 leaves moderate
# units (the benchmark's documents) their bits.
_SHORT_FROM = 512
# A value past the short band is within this of the flat value, relative to it.
_SHORT_TOLERANCE = 2.0**-60


# Rows ``r`` of ``beta``'s sum formed by ``_end_bounds``; the rest is bounded by a geometric series.
_BETA_ROWS = 96


def _positive_sum(terms: list[float]) -> float:
    """``math.fsum`` of non-negative terms, ``inf`` where the sum passes the largest double (a ``z``
    whose ``beta(z)`` is that large certifies no end)."""
    try:
        return math.fsum(terms)
    except OverflowError:
        return math.inf


def _end_bounds(slots: int, excesses: tuple[int, ...], tolerance: float, powers: np.ndarray) -> np.ndarray:
    """For each ``z`` in ``powers`` (all > 1), an ``L`` with ``2 beta(z) z^-t <= tolerance`` for
    every ``t >= L`` (``certified_end``), or ``E + 1`` where none is found.

    ``terms[r] = e_r(g) / C(N, r)``, ``r <= R = _BETA_ROWS``, over the segments one at a time
    (``e_r(g)`` grows by ``g_j e_(r-1)(g)``, and ``C(N, r - 1) / C(N, r) = r / (N - r + 1)``);
    ``g_j(z) = z + .. + z^(e_j)`` by running products and sums. The terms are log-concave in ``r``
    (Newton's inequalities make ``e_r / C(K', r)`` log-concave, and ``C(K', r) / C(N, r)`` has
    the falling ratio ``(K' - r) / (N - r)``), so with ``q = terms[R] / terms[R - 1] < 1`` the
    rows past ``R`` add at most ``terms[R] q / (1 - q)``; a ``z`` with ``q >= 1/2`` is left out.
    Every operation is an IEEE basic one in a fixed order on positive numbers (the same result on
    every machine), each value within a factor ``1 + 2^-20`` of its exact one (fewer than
    ``2^32`` roundings along any term): the factor 2 covers it."""
    draws, total = len(excesses), sum(excesses)
    rows = min(draws, _BETA_ROWS)
    with np.errstate(over="ignore", invalid="ignore"):
        sums = np.cumsum(np.cumprod(np.broadcast_to(powers, (max(excesses), powers.size)), axis=0), axis=0)
        r = np.arange(1, rows + 1, dtype=float)[:, None]
        ratio = r / (slots + 1.0 - r)
        terms = np.zeros((rows + 1, powers.size))
        terms[0] = 1.0
        for added, excess in enumerate(excesses, start=1):
            top = min(added, rows)
            terms[1 : top + 1] += (sums[excess - 1] * ratio[:top]) * terms[:top]
        beta = np.array([_positive_sum(column) for column in terms[1:].T.tolist()])
        if rows < draws:
            q = terms[rows] / terms[rows - 1]
            beta = np.where(q < 0.5, beta + terms[rows] * q / (1.0 - q), np.inf)
    out = np.full(powers.size, float(total + 1))
    finite = np.isfinite(beta)
    if finite.any():
        steps = (log(2.0 * beta[finite]) - log(np.float64(tolerance))) / log(powers[finite])
        out[finite] = np.minimum(np.ceil(steps) + 1.0, out[finite])  # + 1: the logarithms' rounding
    return out


# ``z - 1`` of ``certified_end``'s first grid: 8, 6, 4, 3, .., 1, 3/4, .., 2^-10 (exact binary
# fractions, so the grid, and with it ``L``, is the same on every machine); then sixteenths
# between the neighbours of the best.
_COARSE = np.array([scale * 2.0**-k for k in range(-3, 11) for scale in (1.0, 0.75)][:-1])


@lru_cache(maxsize=1 << 12)
def certified_end(slots: int, excesses: tuple[int, ...]) -> int:
    r"""A band end ``L <= E`` past which ``V`` is within ``2^-60`` of its flat value, for the
    segments of positive ``excesses`` (sorted, total ``E``) among ``N = slots`` slots and for
    every one of them left out; ``E`` where no shorter end is certified.

    Parameters
    ----------
    slots : int
        ``N``, the slots besides the segment's own (``n - E - 1``).
    excesses : tuple of int
        The positive excesses of the side, sorted.

    Returns
    -------
    int
        ``L``: ``E`` below ``_SHORT_FROM``, when ``E >= N``, or when the bound certifies nothing
        shorter.

    Notes
    -----
    ``V(t)`` is the probability that position ``t`` is hit by the walk ``y_0 = 0``,
    ``y_(q+1) = y_q + 1 + e(q)``, ``q < N``, where ``e(q)`` is the excess of the segment in slot
    ``q`` of a uniform placement (0 for an empty slot): ``y_q = q + X_q`` and the walk increases,
    so ``sum_q P(y_q = t)`` (the band sum) is ``P(t in {y_q})``. ``V(0) = 1``, ``V <= 1``.

    *Lemma 1.* For ``0 <= t < N + E``, with ``O\j`` the segments without ``j`` among ``N - 1``
    slots and ``V = 0`` at negative positions,
    ``V_O(t) - V_O(t + 1) = 1/N sum_{j: e_j > 0} [V_(O\j)(t) - V_(O\j)(t - e_j)]``.
    *Proof.* ``t`` is hit and ``t + 1`` not iff ``t = y_q`` with slot ``q < N`` holding a segment
    of positive excess (``t < y_N = N + E``); ``t + 1`` is hit and ``t`` not iff
    ``t + 1 = y_(q+1)`` with slot ``q`` holding one of excess ``e >= 1``, i.e. ``y_q = t - e``.
    Segment ``j`` is in slot ``q`` with probability ``1/N``, and then ``y_q`` is the walk of
    ``O\j`` on the other ``N - 1`` slots at step ``q``; summing over ``q < N`` gives
    ``V_(O\j)``. Subtract the two events. QED

    *Lemma 2.* Let ``N >= E``, ``F_O`` the flat value, ``d_O(t) = |V_O(t) - F_O|``. For every
    ``z > 1`` and ``t >= 0``, ``d_O(t) <= z^-t beta(z)``, ``beta(z) = sum_{r >= 1} e_r(g(z)) /
    C(N, r)``, ``e_r`` the elementary symmetric polynomials of ``g_j(z) = z + ... + z^(e_j)``;
    and ``F_O >= 1 - E/N``.
    *Proof.* ``V_O`` is flat on ``[E, N]`` and ``V_(O\j)`` on ``[E - e_j, N - 1]``
    (Proposition 3), so summing Lemma 1 over ``u = t..N - 1`` telescopes to
    ``V_O(t) - F_O = 1/N sum_j sum_{v = t - e_j}^{t - 1} (F_(O\j) - V_(O\j)(v))``; hence
    ``d_O(t) <= 1/N sum_j sum_v d_(O\j)(v)``, with ``d = F <= 1`` at ``v < 0`` and ``d = 0``
    without segments of positive excess (``V = 1``). At ``t = 0``: ``1 - F_O <= E/N``. Unrolled
    (each step removes a segment, lowers the position by ``1 <= d_i <= e_(j_i)`` and divides by
    ``N - i + 1``; every removal keeps ``N' >= E'``), ``d_O(t)`` is at most the sum over ordered
    distinct ``j_1..j_r`` and steps ``d_i`` whose total first passes ``t`` at ``r`` of
    ``1/(N (N - 1) .. (N - r + 1))``. Each such path has ``z^(sum d_i - t) >= 1``; summing that
    over all paths of every ``r`` gives ``z^-t sum_r r! e_r(g) / (N)_r = z^-t beta(z)``. QED

    With ``F >= 1 - E/N`` for the side and for each segment left out (its ``E`` is smaller,
    ``N`` the same, and its ``beta`` a sub-sum), ``L`` is the least ``t`` with ``2 beta(z) z^-t <=
    2^-60 (1 - E/N)`` over a grid of ``z`` (``_end_bounds``), so every ``V(t)``, ``t >= L``, is
    within ``2^-60 F`` of the flat value ``F``, and ``V(L)`` stands for all of them and for
    ``F`` within ``2^-59``. The bound keeps the removals without replacement (``e_r``, not
    ``(sum g)^r``, which would decay only at the rate where ``sum_j g_j(z) = N``): that is what
    makes it short on dense texts, ``L = 810`` for ``E = 4,509`` on the dense 30,000-token
    document of ``benchmarks/bench_dense_document.py`` (``L = 1,856`` with replacement).

    Examples
    --------
    >>> certified_end(25_000, (3,) * 1_000) < 3_000
    True
    >>> certified_end(100_000, (1_000,))  # one long segment: the band is E long
    1000
    """
    total = sum(excesses)
    if total < _SHORT_FROM or total >= slots:
        return total
    tolerance = _SHORT_TOLERANCE * (slots - total) / slots
    coarse = _end_bounds(slots, excesses, tolerance, 1.0 + _COARSE)
    best = int(np.argmin(coarse))
    high, low = _COARSE[max(best - 1, 0)], _COARSE[min(best + 1, _COARSE.size - 1)]
    fine = low + (high - low) * np.arange(1, 16) / 16.0
    ends = np.concatenate((coarse, _end_bounds(slots, excesses, tolerance, 1.0 + fine)))
    return int(min(ends.min(), total))


def _padded(shifts: np.ndarray, rows: int) -> np.ndarray:
    """``shifts`` cut or extended (by its last value) to ``rows`` entries."""
    if shifts.size >= rows:
        return shifts[:rows]
    out = np.empty(rows, dtype=shifts.dtype)
    out[: shifts.size] = shifts
    out[shifts.size :] = shifts[-1] if shifts.size else 0
    return out


def _count_table(excesses: list[int], rows: int, columns: int, shifts=None) -> np.ndarray:
    """``_numpy_count_table``'s table (``_count_tables`` of one job)."""
    return _count_tables([(excesses, rows, columns, shifts)])[0][0]


def _count_tables(jobs) -> tuple[list[np.ndarray], np.ndarray]:
    """``(tables, peaks)``: ``_numpy_count_table`` of each ``(excesses, rows, columns, shifts)``
    and every row's largest count (the rows of all tables one after the other), from one call of
    the compiled kernel where it is built (the same bits), else one table at a time."""
    kernels = compiled_kernels()
    if kernels is None:
        tables = [_numpy_count_table(*job) for job in jobs]
        return tables, np.concatenate([table.max(axis=1) for table in tables]) if tables else np.zeros(0)
    heights = np.array([rows for _, rows, _, _ in jobs], dtype=np.int64)
    widths = np.array([columns for _, _, columns, _ in jobs], dtype=np.int64)
    sizes = heights * widths
    starts = np.zeros(len(jobs) + 1, dtype=np.int64)
    np.cumsum([len(excesses) for excesses, _, _, _ in jobs], out=starts[1:])
    excesses = np.fromiter(chain.from_iterable(job[0] for job in jobs), dtype=np.int64, count=int(starts[-1]))
    up = np.ones(int(heights.sum()) - len(jobs))  # 1 where nothing is carried: the same products
    carry = 0
    for _, rows, _, shifts in jobs:
        if shifts is not None and shifts.any():
            carried = _padded(np.asarray(shifts, dtype=np.int64), rows)
            up[carry : carry + rows - 1] = np.ldexp(1.0, carried[:-1] - carried[1:])
        carry += rows - 1
    flat, peaks = np.empty(int(sizes.sum())), np.empty(int(heights.sum()))
    kernels.count_tables(len(jobs), excesses.size, up.size, flat.size, peaks.size,
                         np.stack((heights, widths), axis=1), starts, excesses, up, flat, peaks)
    offsets = np.concatenate(([0], np.cumsum(sizes))).tolist()
    tables = [flat[a:b].reshape(rows, columns)
              for a, b, rows, columns in zip(offsets, offsets[1:], heights.tolist(), widths.tolist(), strict=False)]
    return tables, peaks


def _numpy_count_table(excesses: list[int], rows: int, columns: int, shifts=None) -> np.ndarray:
    """``c[j, x]``: ``j``-subsets of ``excesses`` (all >= 1, sorted) with total excess ``x``,
    ``j < rows``, ``x < columns``; float64, exact while below ``2^53``. Segments are added in
    increasing excess, ``c_j(x) += c_{j-1}(x - e)``, each step over the part of the table that can
    be non-zero after it (``j`` at most the segments added so far, ``x`` at most their total
    excess): the same integers as the whole table, in a fraction of the work, since the short
    segments come first. With ``shifts`` (``k_j``, item 5) row ``j`` holds ``c_j(x) 2^-k_j``."""
    table = np.zeros((rows, columns))
    table[0, 0] = 1.0
    up = None if shifts is None or not shifts.any() else np.ldexp(1.0, shifts[:-1] - shifts[1:])[:, None]
    reach = 1  # columns [0, reach) may hold a non-zero count
    for added, excess in enumerate(excesses, start=1):
        if excess >= columns or rows == 1:
            break
        reach, height = min(columns, reach + excess), min(rows, added + 1)
        if up is None:
            table[1:height, excess:reach] += table[: height - 1, : reach - excess]  # numpy reads the old values
        else:  # row j holds c_j 2^-k_j: the row below enters times 2^(k_{j-1} - k_j), exactly
            table[1:height, excess:reach] += table[: height - 1, : reach - excess] * up[: height - 1]
    return table


class _Job:
    """One side of a unit: its positive excesses, ``N``, the density ``lambda`` and, per wanted
    exclusion, ``(excess, K', L_e)``: the band's end ``L_e``, the total excess ``E_e`` of the
    others or the certified end ``certified_end`` if shorter (item 8). ``_Batch`` gives it its
    table's ``rows`` (the largest ``S`` of its items, plus 1), ``columns`` and ``shifts``."""

    rows: int
    columns: int
    shifts: np.ndarray
    inexact: bool  # set by ``_job_counts``, with ``carried`` (some row carried times 2^-k_j)
    carried: bool

    def __init__(self, n: int, lengths, exclusions):
        self.positive = sorted(a - 1 for a in lengths if a > 1)
        self.n = n
        self.total = total = sum(self.positive)
        self.slots = n - total - 1
        self.scale = len(self.positive) / self.slots if self.positive else 1.0
        end = certified_end(self.slots, tuple(self.positive)) if total >= _SHORT_FROM else total
        self.items = [(e, len(self.positive) - (e > 0), min(total - e, end)) for e in exclusions]


def _job_counts(prepared: list[_Job]) -> list[np.ndarray]:
    """Each job's count table ``c[j, x]`` (``j < rows``, ``x < columns``); marks the jobs whose
    counts are not all exact (``inexact``: a row's largest count, times ``2^k_j``, at ``2^53`` or
    more)."""
    for job in prepared:
        job.carried = bool(job.shifts.any())  # some k_j > 0
    tables, peaks = _count_tables([(job.positive, job.rows, job.columns, job.shifts if job.carried else None)
                                   for job in prepared])
    limits = np.full(peaks.size, 2.0**53)
    rows = np.array([job.rows for job in prepared], dtype=np.int64)
    firsts = np.concatenate(([0], np.cumsum(rows)[:-1]))
    for job, first in zip(prepared, firsts.tolist(), strict=True):
        if job.carried:
            limits[first : first + job.rows] = np.ldexp(1.0, 53 - job.shifts)
    inexact = np.logical_or.reduceat(peaks >= limits, firsts) if prepared else np.zeros(0, dtype=bool)
    for job, flag in zip(prepared, inexact.tolist(), strict=True):
        job.inexact = flag
    return tables


def _factor_shifts_many(scales: np.ndarray, draws: np.ndarray, rows: np.ndarray) -> list[np.ndarray]:
    """``_factor_shifts`` of many jobs (arrays over jobs): the plain running products of all of them
    at once (``cumprod`` along each row, the same roundings as the loop), and the renormalised loop
    only for the jobs whose plain product leaves ``[2^_FACTOR_FLOOR, 2^-_FACTOR_FLOOR]``."""
    out = [np.zeros(height, dtype=np.int64) for height in rows.tolist()]
    width = int(rows.max(initial=1)) - 1
    if width < 1:
        return out
    j = np.arange(1, width + 1, dtype=float)[None, :]
    live = j < np.minimum(rows, draws + 1)[:, None]  # j < min(rows, K' + 1), as the loop
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        plain = np.cumprod(np.where(live, scales[:, None] * j / (draws[:, None].astype(float) - j + 1.0), 1.0), axis=1)
        leaves = live & ~((plain >= 2.0**_FACTOR_FLOOR) & (plain <= 2.0**-_FACTOR_FLOOR))
    for k in np.flatnonzero(leaves.any(axis=1)).tolist():
        out[k] = _factor_shifts(float(scales[k]), int(draws[k]), int(rows[k]))
    return out


class _Batch:
    """The jobs of one ``side_bands_many`` call and their items as arrays over items (``owner``: the
    item's job; ``excess``, ``draws`` ``K'``, ``ends`` ``L_e``, ``cuts`` ``S``) and over jobs
    (``n``, ``total``, ``slots``, ``scale``), with the jobs' count tables (``counts``)."""

    def __init__(self, prepared: list[_Job]):
        self.prepared = prepared
        self.owner = np.repeat(np.arange(len(prepared)), [len(job.items) for job in prepared])
        items = np.array([item for job in prepared for item in job.items], dtype=np.int64).reshape(-1, 3)
        self.excess, self.draws, self.ends = items[:, 0], items[:, 1], items[:, 2]
        self.n, self.total, self.slots = (np.array([getattr(job, name) for job in prepared], dtype=np.int64)
                                          for name in ("n", "total", "slots"))
        self.scale = np.array([job.scale for job in prepared])
        self.cuts = tail_rows(self.slots[self.owner], self.draws, self.ends, self.total[self.owner] - self.excess)
        # each job's rows (its items' largest S + 1) and columns (largest L_e + 1); 1 without items
        rows, columns = np.ones(len(prepared), dtype=np.int64), np.ones(len(prepared), dtype=np.int64)
        np.maximum.at(rows, self.owner, self.cuts + 1)
        np.maximum.at(columns, self.owner, self.ends + 1)
        draws = np.array([len(job.positive) for job in prepared], dtype=np.int64)
        shifts = _factor_shifts_many(self.scale, draws, rows)
        for job, height, width, carry in zip(prepared, rows.tolist(), columns.tolist(), shifts, strict=True):
            job.rows, job.columns, job.shifts = height, width, carry
        self.counts = _job_counts(prepared)
        self.inexact = np.array([job.inexact for job in prepared], dtype=bool)
        self.carried = np.array([job.carried for job in prepared], dtype=bool)


class _Group:
    """The items of one group (similar ``S``, in decreasing band length) as arrays over items:
    their count tables (``tables[u]``, each ``c[j, x]`` of its own shape, each item reading
    ``tables[source[i]]`` and leaving out a segment of excess ``excess[i]``), ``lambda``, ``N``,
    ``K'``, ``S`` and band ends."""

    def __init__(self, members: np.ndarray, batch: _Batch, rows: int, columns: int):
        self.rows, self.columns = rows, columns
        owner = batch.owner[members]
        self.scales = batch.scale[owner]
        self.slots = batch.slots[owner].astype(float)
        self.draws = batch.draws[members].astype(float)
        self.cuts = batch.cuts[members]
        # k[j, i] of each item's table; rows past its job's own hold zero counts (any k)
        self.shifts = np.zeros((rows, members.size), dtype=np.int64)
        for k in np.flatnonzero(batch.carried[owner]).tolist():
            self.shifts[:, k] = _padded(batch.prepared[owner[k]].shifts, rows)
        self.widths = widths = batch.ends[members] + 1
        self.active = np.searchsorted(-widths, -np.arange(columns), side="left")  # items reaching t
        excess = batch.excess[members]
        self.excess = np.where(excess > 0, excess, columns)  # columns: nothing left out
        # a table per job, in order of first use ...
        where: dict[int, int] = {}
        self.source = np.array([where.setdefault(o, len(where)) for o in owner.tolist()], dtype=np.int64)
        self.tables = [batch.counts[o] for o in where]
        # ... but inexact counts: the table from its own segments, except on a short band (item 8)
        own = batch.inexact[owner] & (excess > 0) & (batch.ends[members] == batch.total[owner] - excess)
        for k in np.flatnonzero(own).tolist():
            job = batch.prepared[owner[k]]
            others = list(job.positive)
            others.remove(int(excess[k]))
            self.source[k], self.excess[k] = len(self.tables), columns
            self.tables.append(_count_table(others, rows, columns, _padded(job.shifts, rows)))

    def sources(self) -> np.ndarray:
        """``c[u, j, x]``: the tables cut or padded with zeros to the group's rows and columns."""
        out = np.zeros((len(self.tables), self.rows, self.columns))
        for u, table in enumerate(self.tables):
            height, width = min(self.rows, table.shape[0]), min(self.columns, table.shape[1])
            out[u, :height, :width] = table[:height, :width]
        return out

    def factors(self) -> np.ndarray:
        """``f[j, i] = lambda^j / C(K', j)``, 0 above ``K'``, times ``2^k[j, i]`` (the count
        table's rows are carried times ``2^-k``: the products keep their bits)."""
        j = np.arange(1, self.rows, dtype=float)[:, None]
        out = np.ones((self.rows, self.scales.size))
        if self.rows > 1:
            steps = self.scales * j / np.maximum(self.draws - j + 1.0, 1.0)
            if self.shifts.any():
                steps *= np.ldexp(1.0, self.shifts[1:] - self.shifts[:-1])
            np.cumprod(steps, axis=0, out=out[1:])
            out[1:][np.broadcast_to(j > self.draws, out[1:].shape)] = 0.0
        return out

    def first_weights(self) -> np.ndarray:
        """``w[s, i] = C(N, K' - s) / C(N, K') / lambda^s`` (position 0), 0 past the item's ``S``."""
        s = np.arange(1, self.rows, dtype=float)[:, None]
        out = np.ones((self.rows, self.scales.size))
        if self.rows > 1:
            steps = (self.draws - s + 1.0) / ((self.slots - self.draws + s) * self.scales)
            np.cumprod(steps, axis=0, out=out[1:])
        out[np.arange(self.rows)[:, None] > self.cuts] = 0.0
        return out


def _staircase(rows: int) -> list[tuple[int, int, int]]:
    """``(first, stop, width)``: rows ``p`` of the Horner square in a few blocks (more for
    larger squares), each with the levels ``j < width = rows - first`` that its chains need
    (``p + j < rows``), the last block first."""
    steps = 1 if rows <= 4 else 2 if rows <= 12 else 3
    cuts = sorted({round(rows * k / steps) for k in range(steps + 1)})
    return [(first, stop, rows - first) for first, stop in pairwise(cuts)][::-1]


def _group_values(group: _Group) -> np.ndarray:
    """``_numpy_group_values``' values, from the compiled kernel where it is built (the same bits:
    it repeats each item's operations in their order, one item after the other)."""
    kernels = compiled_kernels()
    if kernels is None:
        return _numpy_group_values(group)
    rows, columns, count = group.rows, group.columns, group.scales.size
    values = np.empty((count, columns))
    up = np.ldexp(1.0, group.shifts[:-1] - group.shifts[1:])  # 1 where nothing is carried: the same products
    kernels.group_values(rows, columns, count, group.tables, group.source, group.excess,
                         group.widths, group.factors(), group.first_weights(), up, group.scales, group.slots,
                         group.draws, values)
    return values


def _numpy_group_values(group: _Group) -> np.ndarray:
    """``V[i, t]`` (``t < columns``) of a group's items, one position at a time; every array
    operation works on whole rows of the items whose band reaches ``t`` (``active[t]``).

    At position ``t``: the count table without the item's segment, ``c'_j(t) = c_j(t) -
    c'_{j-1}(t - e)`` (item 4, exact integers); ``B_p(t) = lambda^p C(t, p)`` by Pascal's rule
    ``B_p(t) = B_p(t - 1) + lambda B_{p-1}(t - 1)``; the Horner chains of item 2 with
    ``p = s - j``: ``U[p, j](t) = f_j c'_j(t) B_p(t) + R[p - 1, j + 1](t)``, where
    ``R[p, j](t) = sum_{t' < t} U[p, j](t')`` is the running sum ``T`` of the level above, and
    ``Z_s(t) = R[s, 0](t + 1)``; the weights ``w_s(t) = w_s(t - 1) (N - t + 1 - K' + s) /
    (N - t + 1)``; and ``V(t) = sum_s w_s(t) Z_s(t)``, summed over ``s`` in a fixed order."""
    rows, columns, count = group.rows, group.columns, group.scales.size
    tables = np.zeros((columns + 1, rows, count))  # c'[x, j, i], exact integers; x = columns: zeros
    tables[:columns] = group.sources()[group.source].transpose(2, 1, 0)  # c[x, j, i]
    back = np.arange(columns)[:, None] - group.excess[None, :]  # t - e, or the zero slab
    back[back < 0] = columns
    back *= rows * count
    offsets = (np.arange(rows - 1) * count)[:, None] + np.arange(count)  # j * count + i
    products = np.zeros((columns, rows, count))  # w_s(t) Z_s(t)
    running = np.zeros((rows, rows, count))  # R[p, j]
    powers = np.zeros((rows, count))
    powers[0] = 1.0
    level = np.empty((rows, rows, count))
    factors, weights = group.factors(), group.first_weights()
    numerators = (group.slots - group.draws + 1.0) + np.arange(rows, dtype=float)[:, None]  # N + 1 - K' + s
    with np.errstate(divide="ignore"):  # past an item's band (never read)
        inverses = 1.0 / (group.slots + 1.0 - np.arange(columns, dtype=float)[:, None])  # 1 / (N + 1 - t)
    blocks = _staircase(rows)
    leaving = rows > 1 and bool((group.excess < columns).any())
    up = np.ldexp(1.0, group.shifts[:-1] - group.shifts[1:]) if group.shifts.any() else None
    for t in range(columns):
        a = int(group.active[t])
        table = tables[t, :, :a]
        if leaving:  # c'_j(t) = c_j(t) - c'_{j-1}(t - e): zeros where nothing is left out yet
            if up is None:
                table[1:] -= tables.take(back[t, :a] + offsets[:, :a])
            else:  # rows carried times 2^-k_j: the row below enters times 2^(k_{j-1} - k_j)
                table[1:] -= tables.take(back[t, :a] + offsets[:, :a]) * up[:, :a]
        if t:
            powers[1:, :a] += group.scales[:a] * powers[:-1, :a]
            weights[:, :a] *= numerators[:, :a] - t
            weights[:, :a] *= inverses[t, :a]
        scaled = table * factors[:, :a]
        live = t + 1  # U[p, j](t) = 0 for p > t or j > t (B_p(t) = 0, c'_j(t) = 0): those rows stay zero
        for first, stop, width in blocks:  # rows p in [first, stop), last block first: R[p - 1] still at t - 1
            if first >= live:
                continue
            stop, width = min(stop, live), min(width, live)
            now = np.multiply(powers[first:stop, None, :a], scaled[None, :width, :], out=level[first:stop, :width, :a])
            if first:
                now += running[first - 1 : stop - 1, 1 : width + 1, :a]
            else:
                now[1:, : width - 1] += running[: stop - 1, 1:width, :a]
            running[first:stop, :width, :a] += now
        np.multiply(weights[:, :a], running[:, 0, :a], out=products[t, :, :a])
    values = np.zeros((columns, count))
    for row in range(rows):  # a fixed order; rows past an item's S add zeros, which change no bit
        values += products[:, row]
    return np.ascontiguousarray(values.T)  # item by item, as the kernel writes them


# Largest (items x rows x columns) array of a group formed at once (16 MiB).
_BLOCK = 1 << 21


# Estimated seconds per position of a group's loop (its array calls) and per padded Horner
# entry (item x position x rows^2): how ``_item_groups`` trades calls against padding. They
# choose the groups only; no value depends on them.
_PER_POSITION = 4e-5
_PER_ENTRY = 1.2e-9
# The compiled kernel takes one item after the other: a group costs little more than its entries.
_COMPILED_PER_POSITION = 1e-7


def _item_groups(shapes: list[tuple[int, int]]):
    """``(members, rows, columns)``: the items as groups of consecutive ``rows`` (``S + 1``),
    chosen by dynamic programming over the distinct ``rows`` to minimise the estimated time
    (``_PER_POSITION`` per position of the longest band, ``_COMPILED_PER_POSITION`` with the
    compiled kernel, ``_PER_ENTRY`` per padded entry); the
    members of a group in decreasing ``columns``, cut into chunks of at most ``_BLOCK`` entries."""
    by_rows: dict[int, list[int]] = {}
    for i, (height, _) in enumerate(shapes):
        by_rows.setdefault(height, []).append(i)
    per_position = _PER_POSITION if compiled_kernels() is None else _COMPILED_PER_POSITION
    heights = sorted(by_rows)
    widths = [sum(shapes[i][1] for i in by_rows[h]) for h in heights]
    longest = [max(shapes[i][1] for i in by_rows[h]) for h in heights]
    best, cut = [0.0] + [math.inf] * len(heights), [0] * (len(heights) + 1)
    for stop in range(1, len(heights) + 1):
        total = top = 0
        for first in range(stop - 1, -1, -1):
            total, top = total + widths[first], max(top, longest[first])
            cost = best[first] + per_position * top + _PER_ENTRY * heights[stop - 1] ** 2 * total
            if cost < best[stop]:
                best[stop], cut[stop] = cost, first
    groups, stop = [], len(heights)
    while stop:
        first = cut[stop]
        members = sorted((i for h in heights[first:stop] for i in by_rows[h]), key=lambda i: -shapes[i][1])
        rows, start = heights[stop - 1], 0
        while start < len(members):  # chunks of at most _BLOCK entries (the first is the longest)
            chunk = max(1, _BLOCK // (rows * shapes[members[start]][1]))
            part = members[start : start + chunk]
            groups.append((np.array(part), rows, shapes[part[0]][1]))
            start += chunk
        stop = first
    return groups[::-1]


# Largest relative gap between a band's total mass and its exact value (``_holds_mass``) that
# rounding explains: the values are good to about 1e-15 each and summed exactly.
_MASS_TOLERANCE = 2.0**-40


def _holds_mass(blocks: list[np.ndarray], n, total, excess, widths) -> np.ndarray:
    """Whether each item's ``V`` sums to ``M = n - E`` over its ``n - e`` positions, for the items
    ``k`` of groups one after the other (``blocks``, a group's values each: its row ``k`` holds the
    band ``[:width]`` and the flat value ``[width]``; integer arrays over all items: ``n``,
    ``E = total`` the side's total excess, ``e = excess``, ``widths``): the identity behind both
    distributions (a start sums to 1, the coverage to the annotated length, after dividing by ``M``
    and ``M / (M - k)``).

    Every term of ``V`` is non-negative, so a term lost to the floating-point range (a factor
    ``lambda^j / C(K', j)`` below the smallest double, with counts that are not) can only lower
    the total: a total within ``_MASS_TOLERANCE`` certifies that nothing of weight was lost. Each
    band is summed correctly rounded (``fsum_segments``, ``math.fsum``'s bits), all at once."""
    n, total, excess, widths = (np.asarray(column, dtype=np.int64) for column in (n, total, excess, widths))
    bands, flats, first = [], [], 0
    for values in blocks:
        width = widths[first : first + values.shape[0]]
        bands.append(values[np.arange(values.shape[1])[None, :] < width[:, None]])  # row k's band
        flats.append(values[np.arange(width.size), width])
        first += values.shape[0]
    sums = np.zeros(widths.size)
    some = widths > 0
    sums[some] = fsum_segments(np.concatenate(bands), np.concatenate(([0], np.cumsum(widths[some])[:-1])))
    slots = (n - total).astype(float)
    with np.errstate(invalid="ignore", over="ignore"):
        mass = 2.0 * sums + (n - excess - 2 * widths).astype(float) * np.concatenate(flats)
        return np.isfinite(mass) & (np.abs(mass - slots) <= _MASS_TOLERANCE * slots)


def side_bands_many(jobs) -> list[list[tuple[np.ndarray, float] | None]]:
    """``side_bands`` of many ``(n, lengths, exclusions)`` at once: one count table per job,
    then the items of all jobs in groups of similar shape that share array operations (the
    values of each are the same bits as alone). An item whose band fails its mass identity
    (``_holds_mass``) is ``None``: the caller computes it another way."""
    prepared = [_Job(*job) for job in jobs]
    if not any(job.items for job in prepared):
        return [[] for _ in prepared]
    batch = _Batch(prepared)
    results: list = [None] * batch.owner.size
    shapes = list(zip((batch.cuts + 1).tolist(), (batch.ends + 1).tolist(), strict=True))  # (S + 1, L_e + 1)
    groups = [(members, _group_values(_Group(members, batch, rows, columns)))
              for members, rows, columns in _item_groups(shapes)]
    members = np.concatenate([members for members, _ in groups])
    owner = batch.owner[members]
    held = iter(_holds_mass([values for _, values in groups], batch.n[owner], batch.total[owner],
                            batch.excess[members], batch.ends[members]).tolist())
    for members, values in groups:
        values.setflags(write=False)  # the bands are views of it, kept in the caches
        for k, (i, width) in enumerate(zip(members.tolist(), batch.ends[members].tolist(), strict=True)):
            results[i] = (values[k, :width], float(values[k, width])) if next(held) else None
    out, index = [], 0
    for job in prepared:
        out.append(results[index : index + len(job.items)])
        index += len(job.items)
    return out


def side_bands(n: int, lengths: tuple[int, ...], exclusions: tuple[int, ...]) -> list[tuple[np.ndarray, float] | None]:
    """``V`` on the band and its flat value for each excess ``e`` in ``exclusions``: ``e = 0``
    is a free token (or a segment of length 1) among all ``lengths``; ``e >= 1`` a segment of
    length ``e + 1`` among the others. Returns ``[(V[0..E_e - 1], V(E_e))]``, ``E_e`` the total
    excess besides that segment; ``N = n - E - 1`` slots, ``E`` the total excess of ``lengths``.

    The caller guarantees the flat middle exists (``n - e >= 2 E_e + 1``) and
    ``N - E >= K'`` (the running products stay positive). ``None`` in place of a band that fails
    its mass identity (``_holds_mass``): on dense long texts the factors ``lambda^j / C(K', j)``
    leave the double range (below ``2^-1074`` for ``j`` past about 120 when ``lambda E`` is near
    100) while the products that need them do not."""
    return side_bands_many([(n, lengths, exclusions)])[0]
