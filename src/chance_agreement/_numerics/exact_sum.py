"""Exactly rounded, exactly mergeable float sums (so results do not depend on summation order).

A sum is kept as a list of *partials*: floats of increasing magnitude whose low bits do not
overlap, and whose exact (real-number) sum is the exact sum of everything added so far
(Shewchuk's "grow expansion": each step replaces ``x + y`` by its rounded value ``hi`` and its
rounding error ``lo = x + y - hi``, which is exactly representable). Two such lists merge exactly
by adding the partials of one to the other, and ``math.fsum(partials)`` is the correctly rounded
exact sum, so the reported value is the same for any order and any grouping of the terms. The
products (``exact_dot``, ``ordered_matmul``, ``quadratic_form``, ``ordered_convolve``) replace BLAS
under the same-bits contract of ``chance_agreement._numerics`` (its docstring). ``fsum_segments``
gives ``math.fsum`` of many segments in a few array passes: its array sums may run in any order
(numpy's), since each result is either proved to be the correctly rounded sum or recomputed by
``math.fsum``, so it too depends on the values alone.
"""

from __future__ import annotations

import math

import numpy as np

from .compiled import compiled_kernels


def add_exactly(partials: list[float], value: float) -> list[float]:
    """Add ``value`` to the exact sum held in ``partials`` (in place); returns ``partials``."""
    x = float(value)
    if not math.isfinite(x):
        raise ValueError(f"cannot add a non-finite value exactly: {value!r}")
    kept = 0
    for y in partials:
        if abs(x) < abs(y):
            x, y = y, x
        high = x + y
        low = y - (high - x)  # exact: |x| >= |y| (Dekker's fast two-sum)
        if low:
            partials[kept] = low
            kept += 1
        x = high
    partials[kept:] = [x]
    return partials


def exact_partials(values) -> list[float]:
    """Partials of the exact sum of many floats, at C speed: ``p1 = fsum(values)`` (correctly
    rounded), ``p2 = fsum(values + [-p1])`` (the rounded remainder), ... until the remainder is 0.
    Each step is exact in the real numbers, so ``sum(p) == sum(values)`` exactly; every step gains
    at least 53 bits, so a few steps suffice."""
    values = list(map(float, values))
    if not all(map(math.isfinite, values)):
        raise ValueError("cannot add a non-finite value exactly")
    partials: list[float] = []
    while True:
        remainder = math.fsum(values + [-p for p in partials])
        if remainder == 0.0:
            return partials[::-1] or [0.0]
        partials.append(remainder)


def merge_exactly(first, second) -> list[float]:
    """A new partials list holding the exact sum of two partials lists."""
    out = list(first)
    for value in second:
        add_exactly(out, value)
    return out


def exact_dot(first, second) -> float:
    """``sum_i first[i] * second[i]``: each product rounded once (IEEE, the same on every CPU), the
    sum correctly rounded (``math.fsum``). Replaces ``first @ second``, whose BLAS kernel (and so
    its last bits) depends on the processor."""
    products = np.multiply(first, second, dtype=float)
    return math.fsum(products.ravel().tolist())


# Segments of ``fsum_segments`` up to this many terms are certified (the error bound assumes far fewer
# than 2^53 terms); longer ones take ``math.fsum``.
_CERTIFIED_TERMS = 1 << 20


def fsum_segments(values, starts) -> np.ndarray:
    """``math.fsum`` of each segment ``values[starts[i]:starts[i + 1]]`` (the last to the end; none
    empty, ``starts`` increasing from 0), the same bits, in a few array passes.

    The correctly rounded sum is unique, so any exact method gives ``math.fsum``'s bits. Per segment
    of ``m`` terms, the largest ``top``: ``sigma = 2^e >= m * top`` (``frexp``), ``q = (sigma + v) -
    sigma`` (a multiple of ``ulp(sigma)``) and ``r = v - q`` (exact, ``|r| <= ulp(sigma) / 2``; Rump,
    Ogita and Oishi, *Accurate floating-point summation* I, 2008, Lemma 3.3). With every term
    non-negative, each partial sum of the ``q`` lies below ``2 sigma`` and is exact in any order;
    the ``r`` add up with an error below ``m^2 2^-105 sigma`` in any order. ``rounded = sum q + sum r``
    is then the correctly rounded exact sum wherever the exact sum minus ``rounded`` (``gap``, exact
    but for one rounding, since ``sum q - rounded`` is exact by Sterbenz's lemma, and that error)
    lies strictly within half the distance to the next double on its side: no other double, and no
    tie, is nearer. The other segments (a negative or non-finite term, a sum within about ``2^-50``
    ulps of a tie, subnormal scales) take ``math.fsum`` itself, which raises where it does.

    Examples
    --------
    >>> fsum_segments([0.1, 0.2, 0.3, 1.0, 2.0**-53], [0, 3]).tolist()
    [0.6, 1.0]
    """
    values = np.asarray(values, dtype=float)
    starts = np.asarray(starts, dtype=np.intp)
    out = np.empty(starts.size)
    if not starts.size:
        return out
    counts = np.diff(np.append(starts, values.size))
    with np.errstate(all="ignore"):
        top, least = np.maximum.reduceat(values, starts), np.minimum.reduceat(values, starts)
        sigma = np.ldexp(1.0, np.frexp(top * counts)[1])  # a power of two >= counts * top
        scale = np.repeat(sigma, counts)
        high = (scale + values) - scale
        high_sum, low_sum = np.add.reduceat(high, starts), np.add.reduceat(values - high, starts)
        rounded = high_sum + low_sum
        gap = (high_sum - rounded) + low_sum  # the exact sum minus rounded, but for one rounding and the r's error
        slack = (np.abs(gap) * 2.0**-50 + counts.astype(float) ** 2 * 2.0**-105 * sigma) * 2.0
        up, down = np.nextafter(rounded, np.inf) - rounded, rounded - np.nextafter(rounded, -np.inf)
        certain = ((least >= 0.0) & np.isfinite(top * counts) & (sigma >= 2.0**-900) & (counts <= _CERTIFIED_TERMS)
                   & (gap + slack < up * 0.5) & (gap - slack > down * -0.5))
    out[certain] = rounded[certain]
    for i in np.flatnonzero(~certain).tolist():
        out[i] = math.fsum(values[starts[i] : starts[i] + counts[i]].tolist())
    return out


def ordered_matmul(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """``left @ right`` without BLAS, the same bits on every CPU: ``out[i, j] = sum_k left[i, k] * right[k, j]``
    with each product rounded once and never fused with the addition.

    With a short inner dimension (``k <= n``) the terms are added in increasing ``k`` (one numpy
    multiply and one add per ``k``, vectorised over ``(m, n)``); with a long one each column is one
    ``numpy.add.reduce`` of the products along ``k`` (numpy's pairwise order, fixed by ``k`` alone).
    Either order depends only on the shapes, never on the processor. ``right`` may be a vector.
    A mostly-zero ``right`` (and a finite ``left``) takes the products at its nonzero entries only,
    in the same order (``_sparse_matmul``): adding a zero product changes no bit. ``left`` is
    read in row-major order whatever its memory layout (numpy's reduction order along an axis
    follows the layout: a column-major ``left`` summed otherwise, one rounding apart)."""
    left = np.ascontiguousarray(left, dtype=float)
    right = np.asarray(right, dtype=float)
    vector_out = right.ndim == 1
    if vector_out:
        right = right[:, None]
    inner, columns = right.shape
    kernels = compiled_kernels()
    sparse = (inner > columns or kernels is None) and _sparse(left, right)
    if kernels is not None and not sparse:  # the dense orders below, compiled: the same bits
        out = np.empty((left.shape[0], columns))
        kernels.ordered_matmul(left.shape[0], inner, columns, left, np.ascontiguousarray(right), out)
    elif sparse:
        out = _sparse_matmul(left, right)
    elif inner <= columns:
        out = np.zeros((left.shape[0], columns))
        for k in range(inner):
            out += left[:, k, None] * right[k]
    else:
        out = np.empty((left.shape[0], columns))
        for j in range(columns):
            out[:, j] = np.add.reduce(left * right[:, j], axis=1)
    return out[:, 0] if vector_out else out


# ``right`` of at least this many entries, at most one in ``_SPARSE_RATIO`` of them nonzero, is
# multiplied sparsely (each nonzero costs about 20 dense products: the break-even is near 1 in 20)
_SPARSE_SIZE = 4096
_SPARSE_RATIO = 64
# products formed at once by ``_sparse_matmul`` (16 MiB of them, about 100 MB with their indices)
_SPARSE_CHUNK = 1 << 21


def _sparse(left: np.ndarray, right: np.ndarray) -> bool:
    """Whether ``right`` is large and mostly zero (and ``left`` finite): ``_sparse_matmul`` is then faster
    than numpy's dense loop (the compiled loop skips the zeros of a short inner dimension itself)."""
    return right.size >= _SPARSE_SIZE and np.count_nonzero(right) * _SPARSE_RATIO <= right.size and bool(
        np.isfinite(left).all())


def _sparse_matmul(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """``ordered_matmul``'s bits from the nonzero entries of ``right``: the products of column
    ``j`` laid out row by row of ``left`` in increasing ``k``, then added as the dense loop adds
    them (in increasing ``k`` for a short inner dimension, ``_fold``; numpy's pairwise order for a
    long one, ``sparse_row_sums``); columns in chunks of about ``_SPARSE_CHUNK`` products.
    Work ``rows(left) x nnz(right)``."""
    m, (inner, columns) = left.shape[0], right.shape
    js, ks = np.nonzero(right.T)  # by column, then increasing k
    starts = np.searchsorted(js, np.arange(columns + 1))
    out = np.zeros(columns * m)  # out[j * m + r]
    first = 0
    while first < columns:
        stop = int(np.searchsorted(starts, starts[first] + max(_SPARSE_CHUNK // max(m, 1), 1), side="right")) - 1
        stop = min(columns, max(stop, first + 1))
        a, b = starts[first], starts[stop]
        column, k = js[a:b], ks[a:b]
        sizes = np.diff(starts[first : stop + 1])[column - first]  # entries of each entry's column
        base = (starts[column] - a) * m  # where the column's block begins
        position = base[None, :] + np.arange(m)[:, None] * sizes[None, :] + (np.arange(a, b) - starts[column])[None, :]
        keys, terms, lanes = (np.empty((b - a) * m, dtype=np.int64), np.empty((b - a) * m),
                              np.empty((b - a) * m, dtype=np.int64))
        keys[position] = (column[None, :] - first) * m + np.arange(m)[:, None]
        terms[position] = left[:, k] * right[k, column]
        lanes[position] = np.broadcast_to(k, (m, b - a))
        size = (stop - first) * m
        if inner <= columns:
            out[first * m : stop * m] = _fold(keys, terms, size)
        else:
            out[first * m : stop * m] = sparse_row_sums(keys, lanes, terms, size, inner)
        first = stop
    return out.reshape(columns, m).T.copy()


def quadratic_form(first, matrix, second) -> float:
    """``sum_ij first[i] matrix[i, j] second[j]`` (``first @ matrix @ second`` without BLAS): the
    outer product and the weighting elementwise, the sum correctly rounded (``exact_dot``)."""
    return exact_dot(np.multiply.outer(np.asarray(first, dtype=float), np.asarray(second, dtype=float)), matrix)


def ordered_convolve(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """``numpy.convolve(first, second)`` (full mode) without its BLAS ``dot``: the shorter
    sequence's terms are added one at a time in increasing index, each product rounded once."""
    first, second = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    if first.size < second.size:
        first, second = second, first
    out = np.zeros(first.size + second.size - 1) if first.size and second.size else np.zeros(0)
    for shift, weight in enumerate(second.tolist()):
        out[shift : shift + first.size] += first * weight
    return out


def _fold(keys: np.ndarray, values: np.ndarray, size: int, out: np.ndarray | None = None) -> np.ndarray:
    """``out[key] = ((out[key] + v_1) + v_2) + ...`` for non-decreasing ``keys``, each key's values
    added in their given order: one vectorised step per rank within a key, over the keys that
    still have a value at that rank (the keys sorted by their number of values, longest first)."""
    out = np.zeros(size) if out is None else out
    if keys.size == 0:
        return out
    kernels = compiled_kernels()
    if kernels is not None and out.dtype == np.float64 and out.flags.c_contiguous:  # the same bits, compiled
        kernels.fold(keys.size, out.size, np.ascontiguousarray(keys, dtype=np.int64),
                     np.ascontiguousarray(values, dtype=np.float64), out)
        return out
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    counts = np.diff(np.r_[starts, keys.size])
    order = np.argsort(-counts, kind="stable")
    starts, counts, unique = starts[order], counts[order], keys[starts[order]]
    for step in range(int(counts[0])):
        live = int(np.searchsorted(-counts, -step, side="left"))  # keys with more than ``step`` values
        out[unique[:live]] += values[starts[:live] + step]
    return out


def sparse_row_sums(rows: np.ndarray, columns: np.ndarray, values: np.ndarray, n_rows: int, length: int) -> np.ndarray:
    """``numpy.add.reduce(table, axis=1)`` of the ``n_rows x length`` table holding ``values`` at
    ``(rows, columns)`` (in row-major order, as ``numpy.nonzero`` gives them) and zeros elsewhere,
    the same bits, without the table: numpy's pairwise summation of a row (sequential below 8
    terms; up to 128, eight interleaved running sums added as ``((r0 + r1) + (r2 + r3)) + ((r4 +
    r5) + (r6 + r7))`` and then the remainder; above, the two halves split at a multiple of 8)
    replayed on the nonzero terms only (adding a zero changes no bit). The order depends only on
    ``length``, never on the processor. Work ``O(nnz log length)``; whole numbers whose absolute
    sum is below 2^53 add exactly in any order, so they take one ``bincount``."""
    values = np.asarray(values, dtype=float)
    if values.size == 0 or (np.all(values == np.trunc(values)) and float(np.abs(values).max()) * values.size < 2.0**53):
        return np.bincount(rows, weights=values, minlength=n_rows)
    return _pairwise_rows(rows, columns, values, n_rows, length)


def _pairwise_rows(rows, columns, values, n_rows, length) -> np.ndarray:
    """``sparse_row_sums`` in numpy's pairwise order."""
    if length < 8:
        return _fold(rows, values, n_rows)
    if length <= 128:
        block = length - length % 8
        lane = np.where(columns < block, columns % 8, 8)  # 8: the remainder after the blocks
        acc = [_fold(rows[lane == j], values[lane == j], n_rows) for j in range(8)]
        out = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]))
        return _fold(rows[lane == 8], values[lane == 8], n_rows, out)
    half = length // 2
    half -= half % 8
    left = columns < half
    return (_pairwise_rows(rows[left], columns[left], values[left], n_rows, half)
            + _pairwise_rows(rows[~left], columns[~left] - half, values[~left], n_rows, length - half))


__all__ = ["add_exactly", "exact_dot", "exact_partials", "fsum_segments", "merge_exactly", "ordered_convolve",
           "ordered_matmul", "quadratic_form", "sparse_row_sums"]
