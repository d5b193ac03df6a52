"""Ratings in: labels coded once, and the nonzero cells of the items x categories count table.

``rating_codes`` codes an items x raters array of labels (None/NaN missing) as category indices;
``check_counts`` checks an items x categories count table (Fleiss 1971's layout); ``Ratings`` holds
either as the nonzero cells of the count table (item, category, count), never the table itself,
so that work and memory grow with items x raters whatever the number of categories. Every
several-rater coefficient (this package) reads a ``Ratings``.
"""

from __future__ import annotations

import copy
import functools
import math

import numpy as np

from ..._numerics.compiled import compiled_kernels
from ..._numerics.exact_sum import sparse_row_sums
from ..weights import agreement_weights

# largest items x categories count matrix (float64: 800 MB); beyond it a clear error up front
MAX_COUNT_CELLS = 100_000_000


def is_missing(value) -> bool:
    if value is None or type(value).__name__ == "NAType":  # None, pandas.NA
        return True
    try:
        return isinstance(value, (float, np.floating)) and math.isnan(value)
    except TypeError:
        return False


def rating_rows(ratings) -> list[list]:
    """Validate an items-by-annotators array; return it as a list of lists."""
    if isinstance(ratings, np.ndarray):
        if ratings.ndim != 2:
            raise ValueError(
                f"ratings must be a 2-d items-by-annotators array, got {ratings.ndim} dimension(s)"
            )
        rows = ratings.tolist()
    else:
        try:
            rows = [row if type(row) is list else list(row) for row in ratings]
        except TypeError as error:
            raise ValueError(
                "ratings must be a sequence of items, each a sequence of annotators' labels"
            ) from error
    if not rows:
        raise ValueError("ratings is empty: no items")
    width = len(rows[0])
    if len({len(row) for row in rows}) > 1:
        i = next(i for i, row in enumerate(rows) if len(row) != width)
        raise ValueError(
            f"item {i} has {len(rows[i])} annotator columns, item 0 has {width}: every item needs "
            "one column per annotator (use None for a missing label)"
        )
    if width < 2:
        raise ValueError(f"need at least two annotators (columns), got {width}")
    return rows


def _sort_key(value):
    return (0, value, "") if isinstance(value, (int, float, np.number)) else (1, 0, str(value))


def _distinct_labels(rows) -> dict:
    """Every distinct cell value (missing ones included) in first-seen order, as dict keys."""
    try:
        return dict.fromkeys(value for row in rows for value in row)
    except TypeError:
        for i, row in enumerate(rows):
            for value in row:
                try:
                    hash(value)
                except TypeError as error:
                    raise ValueError(
                        f"item {i}: label {value!r} is not a hashable category label"
                    ) from error
        raise


def rating_categories(rows, categories=None) -> list:
    seen = [value for value in _distinct_labels(rows) if not is_missing(value)]
    return _ordered_categories(seen, categories)


def _ordered_categories(seen, categories) -> list:
    """The labels seen, sorted (numbers by value first, then the rest by text), or ``categories``
    (which must include every label seen)."""
    if categories is None:
        return sorted(seen, key=_sort_key)
    categories = list(categories)
    unknown = set(seen).difference(categories)
    if unknown:
        raise ValueError(
            f"labels {sorted(unknown, key=_sort_key)!r} are not in categories {categories!r}"
        )
    return categories


def rating_codes(ratings, categories=None) -> tuple[np.ndarray, list]:
    """Validate an items-by-annotators ratings array; return ``(codes, categories)``.

    ``codes`` is an int64 items x annotators array: the index of each label in ``categories``,
    -1 for a missing label (None, NaN, pandas.NA). ``categories`` is the given list, or the
    labels seen sorted (numbers by value first, then the rest by their text). A numeric numpy
    array is coded without a Python loop; other input with one dict look-up per cell.
    """
    if isinstance(ratings, np.ndarray) and ratings.dtype.kind in "biuf":
        if ratings.ndim != 2:
            raise ValueError(
                f"ratings must be a 2-d items-by-annotators array, got {ratings.ndim} dimension(s)"
            )
        if ratings.shape[0] == 0:
            raise ValueError("ratings is empty: no items")
        if ratings.shape[1] < 2:
            raise ValueError(f"need at least two annotators (columns), got {ratings.shape[1]}")
        return _numeric_codes(ratings, categories)
    rows = rating_rows(ratings)
    labels = _distinct_labels(rows)
    cats = _ordered_categories([v for v in labels if not is_missing(v)], categories)
    index = {c: j for j, c in enumerate(cats)}
    code_of = {v: (-1 if is_missing(v) else index[v]) for v in labels}
    flat = [value for row in rows for value in row]
    codes = np.array(list(map(code_of.__getitem__, flat)), dtype=np.int64)
    return codes.reshape(len(rows), len(rows[0])), cats


def _numeric_codes(ratings: np.ndarray, categories) -> tuple[np.ndarray, list]:
    """``rating_codes`` of a bool/int/float array (NaN = missing), by a look-up table over a
    small integer range, else by ``np.unique`` (``_compiled_codes`` or ``_numpy_codes``: the same codes)."""
    values = ratings.astype(np.float64) if ratings.dtype.kind == "b" else ratings
    coded = _compiled_codes(values)
    distinct, codes = coded if coded is not None else _numpy_codes(values)
    seen = distinct.astype(ratings.dtype).tolist()
    cats = _ordered_categories(seen, categories)
    if categories is not None:  # re-map the sorted distinct values onto the given order
        index = {c: j for j, c in enumerate(cats)}
        codes = _remap(codes, np.array([index[v] for v in seen], dtype=np.int64))
    return codes, cats


def _small_integers(low, high, present: int, integers: bool) -> bool:
    """Whether the values from ``low`` to ``high`` (``present`` of them, whole numbers if
    ``integers``) are coded through a look-up table over their range rather than sorted."""
    span = float(high) - float(low)
    return bool(np.isfinite(span) and span <= 4 * present + 1024 and integers)


def _numpy_codes(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(distinct, codes)``: the sorted distinct values and each value's index among them (-1 NaN)."""
    present = ~np.isnan(values) if values.dtype.kind == "f" else None
    given = values[present] if present is not None else values.ravel()
    codes = np.full(values.shape, -1, dtype=np.int64)
    if given.size == 0:
        distinct, inverse = given[:0], np.zeros(0, dtype=np.int64)
    else:
        low, high = given.min(), given.max()
        if _small_integers(low, high, given.size,
                           given.dtype.kind in "iu" or bool(np.all(given == np.round(given)))):
            offsets = (given - low).astype(np.int64)
            used = np.bincount(offsets, minlength=int(float(high) - float(low)) + 1) > 0
            lookup = np.cumsum(used) - 1
            distinct = np.flatnonzero(used) + low
            inverse = lookup[offsets]
        else:
            distinct, inverse = np.unique(given, return_inverse=True)
    if present is None:
        return distinct, inverse.reshape(values.shape).astype(np.int64, copy=False)
    codes[present] = inverse
    return distinct, codes


def _compiled_codes(values: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """``_numpy_codes``'s result by the compiled kernels (one pass for the range, one for the
    offsets, one through the look-up table) when they are built, ``values`` are float64 or int64
    and they code by a look-up table; else None."""
    kernels = compiled_kernels()
    if kernels is None or values.dtype not in (np.dtype(np.float64), np.dtype(np.int64)) or values.size == 0:
        return None
    flat = np.ascontiguousarray(values).reshape(-1)
    integer = values.dtype.kind == "i"
    if integer:
        low, high, present, integers = flat.min(), flat.max(), flat.size, True
    else:
        stats = np.empty(4)
        kernels.float_range(flat.size, flat, stats)
        low, high, present, integers = stats[0], stats[1], int(stats[2]), bool(stats[3])
    if present == 0 or not _small_integers(low, high, present, integers):
        return None
    slots = (int(high) - int(low) if integer else int(high - low)) + 1  # the largest offset, plus one
    codes, marks = np.empty(flat.size, dtype=np.int64), np.zeros(slots, dtype=np.int64)
    kernels.offset_codes(flat.size, slots, 0.0 if integer else float(low), int(low) if integer else 0, integer,
                         flat, codes, marks)
    used = marks > 0
    kernels.remap_codes(flat.size, slots, np.cumsum(used) - 1, codes)
    return np.flatnonzero(used) + low, codes.reshape(values.shape)


def _remap(codes: np.ndarray, lookup: np.ndarray) -> np.ndarray:
    """``lookup[code]`` for each code (-1 stays -1)."""
    kernels = compiled_kernels()
    if kernels is None:
        return np.where(codes >= 0, lookup[codes], -1) if lookup.size else codes
    out = np.array(codes, dtype=np.int64, order="C")
    kernels.remap_codes(out.size, lookup.size, np.ascontiguousarray(lookup, dtype=np.int64), out)
    return out


def count_matrix(codes: np.ndarray, n_categories: int) -> np.ndarray:
    """Items x categories float array: how many annotators put item i in category j.

    ``codes`` as returned by ``rating_codes`` (-1 = missing). One ``np.bincount``, no loop.
    """
    n_items = codes.shape[0]
    if n_items * n_categories > MAX_COUNT_CELLS:
        raise ValueError(
            f"{n_items:,} items x {n_categories:,} distinct labels need {n_items * n_categories:,} "
            f"count cells for this coefficient (limit {MAX_COUNT_CELLS:,}): score fewer items at once "
            "(e.g. per entity type or per document) or merge rare labels; fleiss_kappa counts such "
            "nominal data sparsely and has no limit; numeric (interval) labels can also be rounded or binned"
        )
    rows = np.broadcast_to(np.arange(n_items, dtype=np.int64)[:, None], codes.shape)
    given = codes >= 0
    flat = rows[given] * n_categories + codes[given]
    return np.bincount(flat, minlength=n_items * n_categories).reshape(n_items, n_categories).astype(float)


def rows_count_matrix(rows, categories) -> np.ndarray:
    codes, _ = rating_codes(rows, categories)
    return count_matrix(codes, len(categories))


def check_counts(counts) -> np.ndarray:
    try:
        array = np.asarray(counts, dtype=float)
    except (TypeError, ValueError) as error:
        raise ValueError("counts must be a numeric items-by-categories array") from error
    if array.ndim != 2:
        raise ValueError(
            f"counts must be a 2-d items-by-categories array, got {array.ndim} dimension(s)"
        )
    if array.shape[0] == 0:
        raise ValueError("counts is empty: no items")
    if not np.all(np.isfinite(array)):
        raise ValueError("counts contains NaN or infinite values")
    if np.any(array < 0):
        i = int(np.argwhere(array < 0)[0][0])
        raise ValueError(f"item {i}: counts must be non-negative")
    if np.any(array != np.round(array)):
        i = int(np.argwhere(array != np.round(array))[0][0])
        raise ValueError(f"item {i}: counts must be whole numbers")
    return array


class Ratings:
    """Ratings as the nonzero cells of the items x categories count table (``items``, ``cells``,
    ``values``: item, category and count of each, by item and then category), never the table
    itself, and per rater (``raw``) when raw ratings were given (``table``, the rated items'
    counts, when counts were given). Items nobody rated are left out (said in ``warnings``).
    ``weights`` (Gwet's agreement weights, ``weights.py``) are built when first used, so nominal
    data (``identity``) never needs a q x q array."""

    def __init__(self, ratings=None, counts=None, categories=None, weights="identity", *, coded=None):
        if coded is not None:  # ``rating_codes(ratings, categories)`` already computed by the caller
            ratings = coded
        if (ratings is None) == (counts is None):
            raise ValueError("give exactly one of ratings (items x raters) or counts= (items x categories)")
        self.warnings: list[str] = []
        self.table: np.ndarray | None  # the counts given (None for ratings)
        if counts is not None:
            table = check_counts(counts)
            if categories is None:
                categories = list(range(1, table.shape[1] + 1))
            categories = list(categories)
            if len(categories) != table.shape[1]:
                raise ValueError(f"counts has {table.shape[1]} category columns but {len(categories)} categories given")
            self.raw, self.table = None, table
            n, (items, cells) = table.shape[0], np.nonzero(table)  # row by row, categories increasing
            values = table[items, cells]
        else:
            # raw[i, g] = category index of rater g's label for item i, -1 if missing
            self.raw, categories = coded if coded is not None else rating_codes(ratings, categories)
            self.table = None
            n, (items, cells, values) = self.raw.shape[0], cells_of_codes(self.raw, len(categories))
        self.q = len(categories)
        with np.errstate(over="ignore"):
            r_i = sparse_row_sums(items, cells, values, n, self.q)  # counts.sum(axis=1)'s bits
        if not np.all(np.isfinite(r_i)):
            raise ValueError("counts are too large: an item's total overflows a float")
        rated = r_i > 0
        if not rated.all():
            self.warnings.append(f"{int((~rated).sum())} item(s) without any rating left out")
            items, r_i = (np.cumsum(rated) - 1)[items], r_i[rated]
            if self.raw is not None:
                self.raw = self.raw[rated]
            if self.table is not None:
                self.table = self.table[rated]
        self.items, self.cells, self.values, self.r_i, self.n = items, cells, values, r_i, r_i.size
        self.categories = categories
        self.weights_name = weights if isinstance(weights, str) else "custom"
        self._given_weights = weights
        self.identity = isinstance(weights, str) and weights == "identity"
        if not self.identity:  # checked now; identity weights wait until a coefficient needs them
            self.weights = agreement_weights(weights, categories)
            self.identity = bool(np.array_equal(self.weights, np.eye(self.q)))

    @functools.cached_property
    def weights(self) -> np.ndarray:
        """The q x q agreement weights ``w_kl``."""
        return agreement_weights(self._given_weights, self.categories)

    def row_sums(self, values) -> np.ndarray:
        """``sum_k table_ik``-shaped sums of per-cell ``values`` (zeros elsewhere), the bits of the
        dense table's ``sum(axis=1)`` (``exact_sum.sparse_row_sums``)."""
        return sparse_row_sums(self.items, self.cells, values, self.n, self.q)

    def column_means(self, values) -> np.ndarray:
        """``table.mean(axis=0)``-shaped means of per-cell ``values``: numpy adds the rows of a
        reduction over axis 0 one after another, as ``bincount`` adds the cells in item order."""
        return np.bincount(self.cells, weights=values, minlength=self.q) / self.n

    def subset(self, keep):
        """The cells of the items where ``keep`` is true, renumbered (a shallow copy; sharing the
        arrays, which nobody writes, when every item is kept)."""
        out = copy.copy(self)
        if keep.all():
            return out
        out.table = None if self.table is None else self.table[keep]
        out.raw = None if self.raw is None else self.raw[keep]
        chosen = keep[self.items]
        out.items, out.cells, out.values = ((np.cumsum(keep) - 1)[self.items[chosen]], self.cells[chosen],
                                            self.values[chosen])
        out.r_i, out.n = self.r_i[keep], int(keep.sum())
        return out


def cells_of_codes(raw: np.ndarray, q: int):
    """``(items, categories, counts)`` of the nonzero cells of ``count_matrix(raw, q)``, in its
    row-major order, from each item's sorted codes (work items x raters, whatever ``q``)."""
    kernels = compiled_kernels()
    if kernels is not None:  # the same cells, item by item (its codes sorted, then their runs)
        n, r = raw.shape
        raw = np.ascontiguousarray(raw, dtype=np.int64)
        items, cells, counts = np.empty(n * r, dtype=np.int64), np.empty(n * r, dtype=np.int64), np.empty(n * r)
        written = kernels.code_cells(n, r, q, raw, items, cells, counts)
        return items[:written], cells[:written], counts[:written]
    ordered = np.sort(raw, axis=1)
    keys = (np.arange(raw.shape[0], dtype=np.int64)[:, None] * q + ordered)[ordered >= 0]
    if keys.size == 0:
        return keys, keys, np.zeros(0)
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    counts = np.diff(np.r_[starts, keys.size]).astype(float)
    return keys[starts] // q, keys[starts] % q, counts


__all__ = ["MAX_COUNT_CELLS", "Ratings", "cells_of_codes", "check_counts", "count_matrix", "is_missing",
           "rating_categories", "rating_codes", "rating_rows", "rows_count_matrix"]
