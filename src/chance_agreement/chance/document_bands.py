"""The band of the random annotation model on long units (documents), all segments of one side at once.

``random_model`` writes, for a segment among ``others`` (or a free token among all segments),

    P(t) = scale * V(t),   V(t) = sum_{q + x = t} sum_j H(j; q) D_j(x),
    H(j; q) = C(q, j) C(N - q, K - j) / C(N, K)

(``N`` slots besides the segment's own, ``K`` other segments, ``D_j(x)`` the probability that a
uniform ``j``-subset of them has total excess ``x``), flat from ``t = E`` (the others' total
excess) to the mirrored end (Proposition 3). Computing ``V`` on the band ``t <= E`` costs
``E^2 * j`` there; here it costs ``(K' + S^2 / 2) * E``, and the subset-excess table is built once
per annotator and unit and shared by all its segments:

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
   ``2^-60`` at the band's last position (the bound grows with ``t``).
4. *Counts and exclusion.* ``c_j(x)``, the number of ``j``-subsets of excess ``x``, is built once
   for all ``K'`` segments of the side (float64, exact integers below ``2^53``); the table
   without one segment of excess ``e`` is ``c'_j(x) = c_j(x) - c'_{j - 1}(x - e)``, exact
   while the counts are exact (otherwise each table is built from its own segments).
5. *Scaling.* ``C(q, j)`` and ``C(x, p)`` are carried times ``lambda^j`` and ``lambda^p``
   (``lambda = K'/N``, the side's density) and the weights divided by ``lambda^s``, so no
   intermediate overflows; every weight is a running product of ratios of integers.

The flat middle value is ``V(E)`` itself (exact formula, no subtraction from the total mass).
Every operation is an IEEE basic operation (running sums and products in a fixed order, no
BLAS, no libm), and the values of a segment depend only on its own signature ``(n, others,
length)``: the batch pads rows and columns that the signature does not read and adds zero
weights, which leave a sum's bits as they are. Accuracy: relative error of the order of
``(S + E) * 2^-53`` (running sums of non-negative terms) plus the ``2^-60`` truncation, checked
against exact fractions in ``tests/test_document_bands.py``.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["side_bands", "side_bands_many", "tail_rows"]

# Terms of V left out by the truncation in s, relative to V(t).
_TAIL = 2.0**-60


def tail_rows(slots, draws, last) -> np.ndarray:
    """``S`` of each ``(N, K', t)`` (arrays of one shape): rows ``s <= S`` keep all of ``V(t)``
    for positions up to ``t`` but ``2^-60`` (item 3 above).

    ``r_s = C(N - t, K - s) / C(N - t, K) * C(t + 1, s + 1)``; the tail ``sum_{s > S} r_s``
    is bounded by its terms (all non-negative, summed from the end)."""
    slots, draws, last = (np.atleast_1d(np.asarray(a, dtype=float)) for a in (slots, draws, last))
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


def _by_excess(excesses: list[list[int]]) -> list[tuple[int, np.ndarray]]:
    """``(e, members)`` steps that add every list's segments in increasing excess: the ``m``-th
    step of excess ``e`` holds the lists with at least ``m`` segments of that excess."""
    counts: dict[int, list[int]] = {}
    for i, values in enumerate(excesses):
        for value in values:
            counts.setdefault(value, [0] * len(excesses))[i] += 1
    steps = []
    for value in sorted(counts):
        multiplicity = np.array(counts[value])
        for m in range(1, int(multiplicity.max()) + 1):
            steps.append((value, np.flatnonzero(multiplicity >= m)))
    return steps


def _count_tables(excesses: list[list[int]], rows: int, columns: int) -> np.ndarray:
    """``c[i, j, x]``: ``j``-subsets of ``excesses[i]`` (all >= 1) with total excess ``x``;
    float64, exact while below ``2^53``. Segments are added in increasing excess."""
    tables = np.zeros((len(excesses), rows, columns))
    tables[:, 0, 0] = 1.0
    for excess, members in _by_excess(excesses):
        if excess >= columns:
            continue
        if members.size == len(excesses):
            tables[:, 1:, excess:] += tables[:, :-1, : columns - excess]
        else:
            part = tables[members]
            part[:, 1:, excess:] += part[:, :-1, : columns - excess].copy()
            tables[members] = part
    return tables


def _without(tables: np.ndarray, excesses: np.ndarray) -> np.ndarray:
    """Each count table with one segment of excess ``excesses[i]`` left out:
    ``c'_j(x) = c_j(x) - c'_{j-1}(x - e)`` (item 4); exact for exact counts."""
    out = tables.copy()
    rows, columns = tables.shape[1], tables.shape[2]
    for excess in np.unique(excesses).tolist():
        if excess >= columns:
            continue
        members = np.flatnonzero(excesses == excess)
        part = out[members]
        for j in range(1, rows):
            part[:, j, excess:] -= part[:, j - 1, : columns - excess]
        out[members] = part
    return out


def _binomial_rows(rows: int, columns: int, scales: np.ndarray) -> np.ndarray:
    """``out[i, p, x] = scales[i]^p C(x, p)`` by running sums: ``C(x, p) = sum_{y < x} C(y, p - 1)``."""
    out = np.zeros((scales.size, rows, columns))
    out[:, 0, :] = 1.0
    for p in range(1, rows):
        out[:, p, 1:] = np.cumsum(out[:, p - 1, :-1], axis=1) * scales[:, None]
    return out


def _weights(slots: np.ndarray, draws: np.ndarray, scales: np.ndarray, rows: int, columns: int) -> np.ndarray:
    """``w[i, s, t] = C(N - t, K - s) / C(N, K) / scale^s`` as running products of ratios
    (``N = slots[i]``, ``K = draws[i]``)."""
    t = np.arange(columns, dtype=float)[None, :]
    n, k, scale = slots[:, None].astype(float), draws[:, None].astype(float), scales[:, None]
    first = np.ones((slots.size, columns))
    first[:, 1:] = np.cumprod((n - k - t[:, :-1]) / (n - t[:, :-1]), axis=1)  # C(N - t, K) / C(N, K)
    s = np.arange(1, rows, dtype=float)[None, :, None]
    steps = (k[:, :, None] - s + 1.0) / ((n[:, :, None] - t[:, None, :] - k[:, :, None] + s) * scale[:, :, None])
    return np.concatenate((first[:, None, :], first[:, None, :] * np.cumprod(steps, axis=1)), axis=1)


def _horner(tables: np.ndarray, binomials: np.ndarray) -> np.ndarray:
    """``Z[i, s, t]`` (item 2) of every scaled table ``tables[i, j, x]`` at once: at step ``j``
    the live rows ``s >= j`` become ``T(acc) + v_j`` (``T``: running sum of the earlier positions)."""
    count, rows, columns = tables.shape
    acc, shifted = np.zeros((count, rows, columns)), np.zeros((count, rows, columns))
    for j in range(rows - 1, -1, -1):
        live, running = acc[:, j:, :], shifted[:, j:, :]
        if j < rows - 1 and columns > 1:
            np.cumsum(live[:, :, :-1], axis=2, out=running[:, :, 1:])  # column 0 stays 0
        np.multiply(tables[:, j, None, :], binomials[:, : rows - j, :], out=live)
        live += running
    return np.cumsum(acc, axis=2)


class _Job:
    """One side of a unit: its positive excesses, ``N``, the density ``lambda`` and, per wanted
    exclusion, ``[excess, K', E_e, S]`` (``S`` filled in by ``side_bands_many``)."""

    def __init__(self, n: int, lengths, exclusions):
        self.positive = sorted(a - 1 for a in lengths if a > 1)
        total = sum(self.positive)
        self.slots = n - total - 1
        self.scale = len(self.positive) / self.slots if self.positive else 1.0
        self.items = [[e, len(self.positive) - (e > 0), total - e, 0] for e in exclusions]

    def shape(self) -> None:
        self.rows = max(item[3] for item in self.items) + 1
        self.columns = max(item[2] for item in self.items) + 1


def _batch(jobs: list[_Job]) -> list[list[tuple[np.ndarray, float]]]:
    """``side_bands`` of several jobs in one set of array operations (padded to the largest)."""
    rows, columns = max(job.rows for job in jobs), max(job.columns for job in jobs)
    counts = _count_tables([job.positive for job in jobs], rows, columns)
    owner = np.array([i for i, job in enumerate(jobs) for _ in job.items])
    items = [item for job in jobs for item in job.items]
    excess = np.array([item[0] for item in items])
    draws = np.array([item[1] for item in items])
    tables = _without(counts[owner], np.where(excess > 0, excess, columns))
    for i in np.flatnonzero((excess > 0) & (counts.max(axis=(1, 2)) >= 2.0**53)[owner]).tolist():
        others = list(jobs[owner[i]].positive)
        others.remove(excess[i])  # inexact counts: each table from its own segments
        tables[i] = _count_tables([others], rows, columns)[0]
    scales = np.array([jobs[i].scale for i in owner])
    j = np.arange(1, rows, dtype=float)[None, :]
    factors = np.ones((len(items), rows))  # scale^j / C(K', j), 0 above K'
    factors[:, 1:] = np.cumprod(scales[:, None] * j / np.maximum(draws[:, None] - j + 1.0, 1.0), axis=1)
    factors[:, 1:][j.repeat(len(items), axis=0) > draws[:, None]] = 0.0
    tables *= factors[:, :, None]
    binomials = _binomial_rows(rows, columns, np.array([job.scale for job in jobs]))
    slots = np.array([jobs[i].slots for i in owner])
    values = np.zeros((len(items), columns))
    for members, height, width in _item_groups([(item[3] + 1, item[2] + 1) for item in items]):
        sums = _horner(tables[members, :height, :width], binomials[owner[members], :height, :width])
        weights = _weights(slots[members], draws[members], scales[members], height, width)
        for k, i in enumerate(members.tolist()):
            weights[k, items[i][3] + 1 :] = 0.0
        for s in range(height):  # a fixed order; rows past an item's S add zeros, which change no bit
            values[members, :width] += weights[:, s] * sums[:, s]
    out, index = [], 0
    for job in jobs:
        out.append([(values[index + k, : item[2]].copy(), float(values[index + k, item[2]]))
                    for k, item in enumerate(job.items)])
        index += len(job.items)
    return out


# Largest padded (items x rows x columns) block formed at once, and how much of a batch's padded
# Horner work (items x rows^2 x columns) may be padding.
_BLOCK = 1 << 19
_WASTE = 1.25


def _item_groups(shapes: list[tuple[int, int]]):
    """``(members, rows, columns)``: items of similar ``(rows, columns)``, padded Horner work
    at most ``_WASTE`` times their own."""
    order = sorted(range(len(shapes)), key=lambda i: shapes[i])
    groups, members, rows, columns, work = [], [], 0, 0, 0
    for i in order:
        height, width = shapes[i]
        wide = (max(rows, height), max(columns, width))
        if members and (len(members) + 1) * wide[0] ** 2 * wide[1] > _WASTE * (work + height**2 * width):
            groups.append((np.array(members), rows, columns))
            members, wide, work = [], (height, width), 0
        members.append(i)
        (rows, columns), work = wide, work + height**2 * width
    if members:
        groups.append((np.array(members), rows, columns))
    return groups


def _batches(prepared: list[_Job]) -> list[list[int]]:
    """Job indices in batches of similar shape: sorted by (rows, columns), a batch closes when
    its padded Horner work would exceed ``_WASTE`` times its own or its block ``_BLOCK``."""
    order = sorted(range(len(prepared)), key=lambda i: (prepared[i].rows, prepared[i].columns))
    batches, batch = [], []
    rows = columns = items = 0
    work = 0.0
    for i in order:
        job = prepared[i]
        own = len(job.items) * job.rows**2 * job.columns
        wide_rows, wide_columns = max(rows, job.rows), max(columns, job.columns)
        padded = (items + len(job.items)) * wide_rows**2 * wide_columns
        if batch and (padded > _WASTE * (work + own) or (items + len(job.items)) * wide_rows * wide_columns > _BLOCK):
            batches.append(batch)
            batch, rows, columns, items, work = [], 0, 0, 0, 0.0
            wide_rows, wide_columns = job.rows, job.columns
        batch.append(i)
        rows, columns, items, work = wide_rows, wide_columns, items + len(job.items), work + own
    if batch:
        batches.append(batch)
    return batches


def side_bands_many(jobs) -> list[list[tuple[np.ndarray, float]]]:
    """``side_bands`` of many ``(n, lengths, exclusions)`` at once: jobs of similar shape share
    array operations (the values of each are the same bits as alone)."""
    prepared = [_Job(*job) for job in jobs]
    items = [item for job in prepared for item in job.items]
    if items:
        cuts = tail_rows([job.slots for job in prepared for _ in job.items], [item[1] for item in items],
                         [item[2] for item in items])
        for item, cut in zip(items, cuts.tolist()):
            item[3] = cut
    for job in prepared:
        job.shape()
    out: list = [None] * len(prepared)
    for batch in _batches(prepared):
        for i, result in zip(batch, _batch([prepared[i] for i in batch])):
            out[i] = result
    return out


def side_bands(n: int, lengths: tuple[int, ...], exclusions: tuple[int, ...]) -> list[tuple[np.ndarray, float]]:
    """``V`` on the band and its flat value for each excess ``e`` in ``exclusions``: ``e = 0``
    is a free token (or a segment of length 1) among all ``lengths``; ``e >= 1`` a segment of
    length ``e + 1`` among the others. Returns ``[(V[0..E_e - 1], V(E_e))]``, ``E_e`` the total
    excess besides that segment; ``N = n - E - 1`` slots, ``E`` the total excess of ``lengths``.

    The caller guarantees the flat middle exists (``n - e >= 2 E_e + 1``) and
    ``N - E >= K'`` (the running products stay positive)."""
    return side_bands_many([(n, lengths, exclusions)])[0]
