"""Agreement among two or more annotators: Fleiss' kappa and Krippendorff's alpha.

Input is an items-by-annotators array (rows items, columns annotators) of category labels;
``None`` or NaN marks a missing label.

- ``fleiss_kappa``: Siegel & Castellan's K (Beigman Klebanov & Beigman 2009, equation 2; the same
  statistic as Fleiss 1971 kappa)::

      P_A = 1/n sum_i 1/(k(k-1)) sum_j a_ij (a_ij - 1)
      P_E = sum_j p_j^2,   p_j = sum_i a_ij / (n k)
      K = (P_A - P_E) / (1 - P_E)

  where a_ij is the number of annotators who put item i in category j, k annotators per item.
  Missing labels: each item i uses its own number of ratings r_i (Gwet 2014, the generalisation
  implemented by irrCAC ``fleiss.kappa.raw``): P_A averages sum_j a_ij (a_ij - 1) / (r_i (r_i - 1))
  over the items with r_i >= 2, and p_j = 1/n' sum_i a_ij / r_i over the items with r_i >= 1.
  With no missing labels this is exactly the formula above.
- ``krippendorff_alpha``: alpha = 1 - D_o / D_e from the coincidence matrix (Krippendorff 2011,
  "Computing Krippendorff's alpha-reliability")::

      o_ck = sum_u (number of c-k pairs in unit u) / (m_u - 1)   (units with m_u >= 2 values)
      n_c = sum_k o_ck,  n = sum_c n_c
      D_o = 1/n sum_c sum_k o_ck delta_ck,   D_e = 1/(n(n-1)) sum_c sum_k n_c n_k delta_ck

  with the nominal, ordinal, interval or ratio distance delta (or a matrix / callable).

Undefined values (every label the same, so chance agreement is 1; fewer than two pairable
ratings) are ``None``; with ``details=True`` the reason is in ``warnings``.
"""

from __future__ import annotations

import itertools
import math
from typing import Any, Callable, Sequence

import numpy as np

from .._numerics.exact_sum import ordered_matmul
from ..spans import tags
from ..spans.validation import check_annotations, problem
from .agreement_coefficients import check_distance_values, square_distance_matrix
from .contingency_table import lenient_token_categories, token_categories
from .table_coefficients.base import sum_of_others

DISTANCES = ("nominal", "ordinal", "interval", "ratio")
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
    small integer range, else by ``np.unique``."""
    values = ratings.astype(np.float64) if ratings.dtype.kind == "b" else ratings
    present = ~np.isnan(values) if values.dtype.kind == "f" else None
    given = values[present] if present is not None else values.ravel()
    codes = np.full(values.shape, -1, dtype=np.int64)
    if given.size == 0:
        distinct, inverse = given[:0], np.zeros(0, dtype=np.int64)
    else:
        low, high = given.min(), given.max()
        span = float(high) - float(low)
        small_integers = (
            np.isfinite(span) and span <= 4 * given.size + 1024
            and (given.dtype.kind in "iu" or bool(np.all(given == np.round(given))))
        )
        if small_integers:
            offsets = (given - low).astype(np.int64)
            used = np.bincount(offsets, minlength=int(span) + 1) > 0
            lookup = np.cumsum(used) - 1
            distinct = np.flatnonzero(used) + low
            inverse = lookup[offsets]
        else:
            distinct, inverse = np.unique(given, return_inverse=True)
    seen = distinct.astype(ratings.dtype).tolist()
    cats = _ordered_categories(seen, categories)
    if categories is not None:  # re-map the sorted distinct values onto the given order
        index = {c: j for j, c in enumerate(cats)}
        inverse = np.array([index[v] for v in seen], dtype=np.int64)[inverse]
    if present is None:
        codes = inverse.reshape(values.shape).astype(np.int64, copy=False)
    else:
        codes[present] = inverse
    return codes, cats


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


def fleiss_kappa(ratings=None, *, counts=None, categories=None, details: bool = False):
    """Fleiss' kappa (Siegel & Castellan K, eq. 2 of Beigman Klebanov & Beigman 2009).

    ``ratings``: items x annotators labels (None/NaN = missing); or ``counts=``: items x
    categories numbers of annotators per category (Fleiss 1971's layout). Missing labels are
    handled as in Gwet (2014) / irrCAC (see the module docstring): items with fewer than two
    ratings add to the category proportions only. Returns a float, or None when undefined
    (chance agreement 1 or no item with two ratings); ``details=True`` returns a dict with
    ``kappa``, ``observed_agreement``, ``expected_agreement``, ``n_items``, ``categories``,
    ``warnings``.
    """
    if (ratings is None) == (counts is None):
        raise ValueError("give exactly one of ratings (items x annotators) or counts=")
    if ratings is not None:
        return fleiss_of_codes(*rating_codes(ratings, categories), details)
    table = check_counts(counts)
    cats = list(categories) if categories is not None else list(range(table.shape[1]))
    if len(cats) != table.shape[1]:
        raise ValueError(f"counts has {table.shape[1]} category columns but {len(cats)} categories given")
    return fleiss_from_counts(table, cats, details)


def fleiss_of_codes(codes: np.ndarray, cats: list, details: bool):
    """``fleiss_kappa`` of coded labels (``rating_codes``): only the labels given are counted for
    many labels, and for two annotators, where that gives the count matrix's bits (an item's sums
    have at most two non-zero terms, so no order to change); else the count matrix."""
    if codes.shape[1] == 2 or codes.shape[0] * len(cats) > MAX_COUNT_CELLS:
        return fleiss_from_codes(codes, cats, details)
    return fleiss_from_counts(count_matrix(codes, len(cats)), cats, details)


def fleiss_from_codes(codes: np.ndarray, cats: list, details: bool):
    """``fleiss_kappa`` by sparse counting: each item's labels sorted, ``a_ij`` the length of each
    run of equal labels, so the work and memory are items x annotators, whatever the number of
    categories (the same formulas as ``fleiss_from_counts``, over the labels an item has)."""
    ordered = np.sort(codes, axis=1)
    given = ordered >= 0
    per_item = given.sum(axis=1).astype(float)
    first = given.copy()  # the first cell of each run of one label
    first[:, 1:] &= ordered[:, 1:] != ordered[:, :-1]
    runs = np.zeros(ordered.shape)
    for column in range(ordered.shape[1]):  # a_ij at the first cell of label j's run
        runs[:, column] = ((ordered == ordered[:, column : column + 1]) & given).sum(axis=1)
    runs[~first] = 0.0
    rated = per_item >= 1
    shares = np.divide(runs, per_item[:, None], out=np.zeros_like(runs), where=rated[:, None])
    proportions = np.bincount(ordered[first], weights=shares[first], minlength=len(cats)) / rated.sum()
    pairable = per_item >= 2
    r, a = per_item[pairable, None], runs[pairable]
    terms = {"agreement": (a / r) * ((a - 1) / (r - 1)), "disagreement": (a / r) * ((r - a) / (r - 1))}
    return _fleiss_result(per_item, {name: t.sum(axis=1) for name, t in terms.items()}, proportions,
                          int(np.count_nonzero(proportions)), cats, details)


def fleiss_from_counts(table: np.ndarray, cats: list, details: bool):
    """``fleiss_kappa`` of an items x categories count matrix."""
    with np.errstate(over="ignore"):
        per_item = table.sum(axis=1)
    if not np.all(np.isfinite(per_item)):
        raise ValueError("counts are too large: an item's total overflows a float")
    rated, pairable = per_item >= 1, per_item >= 2
    r, a = per_item[pairable], table[pairable]
    # a(a - 1) / (r(r - 1)) as a product of two ratios: counts of 1e200 do not overflow; an item's
    # disagreement sum_j a_ij (r_i - a_ij) / (r_i (r_i - 1)) from non-negative terms
    items = {"agreement": ((a / r[:, None]) * ((a - 1) / (r - 1)[:, None])).sum(axis=1),
             "disagreement": ((a / r[:, None]) * (sum_of_others(a) / (r - 1)[:, None])).sum(axis=1)}
    proportions = (table[rated] / per_item[rated, None]).mean(axis=0)
    used = int(np.count_nonzero(table[rated].sum(axis=0)))
    return _fleiss_result(per_item, items, proportions, used, cats, details)


def _fleiss_result(per_item, items: dict, proportions, used: int, cats: list, details: bool):
    """Fleiss' kappa from each pairable item's agreement and disagreement, the category
    proportions and the number of categories used (``fleiss_from_counts``, ``fleiss_from_codes``)."""
    warnings: list[str] = []
    pairable = per_item >= 2
    result: dict[str, Any] = {
        "kappa": None,
        "observed_agreement": None,
        "expected_agreement": None,
        "n_items": int(pairable.sum()),
        "categories": [c if isinstance(c, (str, int, float)) else str(c) for c in cats],
        "warnings": warnings,
    }
    if not pairable.any():
        warnings.append("no item has two or more ratings: agreement is undefined")
        return result if details else None
    result["observed_agreement"] = float(np.mean(items["agreement"]))
    result["expected_agreement"] = float(np.sum(proportions**2))
    # undefined exactly when at most one category is ever used (then P_E = 1), decided from the
    # counts; 1 - P_E = sum_j p_j sum_{k != j} p_k has no cancellation, so it is never 0 otherwise
    if used <= 1:
        warnings.append(
            "every rating is the same category, so chance agreement is 1 and kappa is undefined"
        )
        return result if details else None
    # kappa = 1 - D_o / D_e with D = 1 - P, both from non-negative terms
    observed_disagreement = float(np.mean(items["disagreement"]))
    chance_disagreement = float(np.sum(proportions * sum_of_others(proportions)))
    result["kappa"] = float(1.0 - observed_disagreement / chance_disagreement)
    return result if details else result["kappa"]


def _scaled_distance_matrix(distance, categories, marginals) -> tuple[np.ndarray, int]:
    """``(matrix, e)`` with delta = matrix * 2**e: interval labels are divided by a power of two
    before squaring (exact), so labels of 1e200 or 1e-200 neither overflow nor underflow."""
    m = len(categories)
    scale = 0
    if callable(distance) and not isinstance(distance, str):
        matrix = np.array(
            [[float(distance(c, k)) for k in categories] for c in categories], dtype=float
        )
    elif isinstance(distance, str):
        if distance not in DISTANCES:
            raise ValueError(
                f"distance must be one of {DISTANCES}, a matrix or a callable, got {distance!r}"
            )
        if distance == "nominal":
            return 1.0 - np.eye(m), scale
        if distance == "ordinal":
            # (sum_{g=c}^{k} n_g - (n_c + n_k)/2)^2 over ranks in the order of ``categories``
            cumulative = np.concatenate([[0.0], np.cumsum(marginals)])
            matrix = np.zeros((m, m))
            for c in range(m):
                for k in range(m):
                    lo, hi = min(c, k), max(c, k)
                    total = cumulative[hi + 1] - cumulative[lo]
                    gap = total - (marginals[c] + marginals[k]) / 2.0
                    matrix[c, k] = gap * gap
            return matrix, scale
        return _metric_distance_matrix(distance, categories)
    else:
        matrix = square_distance_matrix(
            distance, list(categories), "or a callable", " (pass categories= to fix their order)"
        )
    matrix = check_distance_values(matrix, list(categories))
    largest = float(matrix.max()) if matrix.size else 0.0
    if largest > 0:  # a given matrix of 1e308 or 1e-320: rescale exactly, as the labels above
        scale = math.frexp(largest)[1]
        matrix = np.ldexp(matrix, -scale)
    return matrix, scale


def _metric_distance_matrix(distance: str, categories) -> tuple[np.ndarray, int]:
    """The interval or ratio distance of numeric labels as ``(matrix, e)``, delta = matrix * 2**e."""
    scale = 0
    try:
        values = np.array([float(c) for c in categories])
    except (TypeError, ValueError) as error:
        raise ValueError(
            f"the {distance} distance needs numeric labels, got {categories!r}"
        ) from error
    if not np.all(np.isfinite(values)):
        raise ValueError(
            f"the {distance} distance needs finite numeric labels, got "
            f"{[c for c, v in zip(categories, values) if not np.isfinite(v)]!r}"
        )
    if distance == "ratio" and np.any(values < 0):
        raise ValueError("the ratio distance needs non-negative labels")
    largest = float(np.max(np.abs(values))) if len(categories) else 0.0
    if largest > 0:  # exact power-of-two rescaling: no overflow of (c - k)^2 or c + k
        exponent = math.frexp(largest)[1]
        values = np.ldexp(values, -exponent)
        if distance == "interval":
            scale = 2 * exponent
    diff = values[:, None] - values[None, :]
    if distance == "interval":
        return diff**2, scale
    total = values[:, None] + values[None, :]
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = np.where(total == 0, 0.0, diff / np.where(total == 0, 1.0, total))
    return ratio**2, scale


def _combine_pair_tables(tables: dict[int, np.ndarray]) -> np.ndarray:
    """``o_ck = sum_m N_m[c, k] / (m - 1)``, summed in increasing ``m``: ``N_m`` counts the ordered
    pairs of values ``(c, k)`` from two different annotators of a unit with ``m`` values (exact
    integers), so the matrix is the same bits whatever the order of units or how they were counted."""
    q = next(iter(tables.values())).shape[0] if tables else 0
    out = np.zeros((q, q))
    for m in sorted(tables):
        out = out + tables[m] / (m - 1.0)
    return out


def coincidence_matrix(counts: np.ndarray) -> np.ndarray:
    """o_ck = sum_u n_uc (n_uk - [c == k]) / (m_u - 1) over units with m_u >= 2 values (Krippendorff
    2011, the coincidence matrix), one integer table per unit size (``_combine_pair_tables``)."""
    m_u = counts.sum(axis=1)
    tables = {}
    for m in np.unique(m_u[m_u >= 2]):
        rows = counts[m_u == m]
        tables[int(m)] = ordered_matmul(rows.T, rows) - np.diag(rows.sum(axis=0))
    return _combine_pair_tables(tables)


def coincidences_from_codes(codes: np.ndarray, n_categories: int) -> np.ndarray:
    """``coincidence_matrix(count_matrix(codes, q))`` without the items x categories table: the
    pairs of annotators counted by one ``bincount`` each, per unit size; memory ``O(sizes q^2)``."""
    given = codes >= 0
    m_u = given.sum(axis=1)
    sizes = np.unique(m_u[m_u >= 2])
    q = n_categories
    if sizes.size * q * q > MAX_COUNT_CELLS:
        raise ValueError(
            f"{q:,} distinct labels need {q * q:,} coincidence cells per unit size ({sizes.size} sizes; limit "
            f"{MAX_COUNT_CELLS:,}): score per entity type or merge rare labels (fleiss_kappa has no limit); "
            "numeric (interval) labels can also be rounded or binned")
    tables = {}
    for m in sizes:
        unit = codes[m_u == m]
        pairs = np.zeros(q * q, dtype=np.int64)
        for g, h in itertools.combinations(range(codes.shape[1]), 2):
            both = (unit[:, g] >= 0) & (unit[:, h] >= 0)
            pairs += np.bincount(unit[both, g] * q + unit[both, h], minlength=q * q)
        table = pairs.reshape(q, q)
        tables[int(m)] = (table + table.T).astype(float)
    return _combine_pair_tables(tables)


def krippendorff_alpha(
    ratings,
    distance: str | Sequence | Callable = "nominal",
    *,
    categories=None,
    details: bool = False,
):
    """Krippendorff's alpha = 1 - D_o/D_e on an items x annotators array (Krippendorff 2011).

    ``distance``: "nominal", "ordinal" (ranks in the order of ``categories``, default sorted
    labels), "interval", "ratio" (numeric labels), a category x category matrix (rows/columns in
    the order of ``categories``) or a callable ``distance(c, k)``. Missing labels (None/NaN) are
    simply absent; units with fewer than two values are not pairable and ignored. Returns a float,
    or None when undefined (fewer than two pairable values, or D_e = 0); ``details=True`` returns
    a dict with ``alpha``, ``observed_disagreement``, ``expected_disagreement``,
    ``n_pairable_values``, ``warnings``.
    """
    codes, cats = rating_codes(ratings, categories)
    return alpha_of_codes(codes, cats, distance, details)


def alpha_of_codes(codes: np.ndarray, cats: list, distance, details: bool):
    """``krippendorff_alpha`` of coded labels (``rating_codes``), its coincidence matrix counted the
    cheaper of two ways, the same bits either way (``_combine_pair_tables``): pairs of annotators
    per unit size (``coincidences_from_codes``, about ``n r(r - 1)/2`` operations) when there are
    at most as many annotator pairs as category pairs (``q^2``), or the items x categories count
    table would pass ``MAX_COUNT_CELLS``; else the count table (``n q^2`` multiply-adds)."""
    n, raters = codes.shape
    q = len(cats)
    if raters * (raters - 1) // 2 <= q * q or n * q > MAX_COUNT_CELLS:
        return alpha_from_coincidences(coincidences_from_codes(codes, q), cats, distance, details)
    return alpha_from_counts(count_matrix(codes, q), cats, distance, details)


def alpha_from_counts(counts: np.ndarray, cats: list, distance, details: bool):
    """``krippendorff_alpha`` of an items x categories count matrix."""
    return alpha_from_coincidences(coincidence_matrix(counts), cats, distance, details)


def alpha_from_coincidences(coincidences: np.ndarray, cats: list, distance, details: bool):
    """``alpha = 1 - D_o / D_e`` from the coincidence matrix ``o``: ``D_o = sum o_ck delta_ck / n``,
    ``D_e = sum n_c n_k delta_ck / (n (n - 1))``, ``n_c`` its marginals (Krippendorff 2011)."""
    marginals = coincidences.sum(axis=1)
    n = float(marginals.sum())
    delta, scale = _scaled_distance_matrix(distance, cats, marginals)
    warnings: list[str] = []
    result: dict[str, Any] = {
        "alpha": None,
        "observed_disagreement": None,
        "expected_disagreement": None,
        "n_pairable_values": int(round(n)),
        "warnings": warnings,
    }
    if n < 2:
        warnings.append("fewer than two pairable values: alpha is undefined")
        return result if details else None
    observed = float(np.sum(coincidences * delta) / n)
    expected = float(np.sum(np.outer(marginals, marginals) * delta) / (n * (n - 1.0)))
    try:
        result["observed_disagreement"] = math.ldexp(observed, scale)
        result["expected_disagreement"] = math.ldexp(expected, scale)
    except OverflowError:
        raise ValueError(
            "the labels are too far apart: their squared differences overflow a float "
            "(rescale the labels; interval alpha does not change)"
        ) from None
    # undefined exactly when no two pairable values differ (D_e = 0); all terms of D_e are
    # non-negative, so a positive distance between two used categories makes it positive
    used = marginals > 0
    if not np.any(delta[np.ix_(used, used)] > 0):
        warnings.append(
            "expected disagreement is 0 (a single value is used), so alpha is undefined"
        )
        return result if details else None
    alpha = float(1.0 - observed / expected)
    result["alpha"] = alpha
    return result if details else alpha


def token_ratings(annotations, scheme=None, mode=None, suffix: bool = False, *, function: str = "token_ratings"):
    """Tokens-by-annotators category labels from per-item lists of k annotators' tag sequences.

    ``annotations[i]`` holds the tag sequences of the k annotators of item (sentence) i, None for
    a missing annotator (the API's one layout, ``spans.validation.check_annotations``; errors
    name ``function``). Each token's label is the entity type of the span covering it, or "O"
    (spans exactly as seqeval finds them; strict mode with no scheme detects it from every given
    sequence). Returns ``(ratings, k)``, ratings a list of rows with None for missing labels.
    """
    annotations = check_annotations(annotations, function=function)
    k = len(annotations[0])
    resolved = tags.effective_scheme(
        [seq for item in annotations for seq in item if seq is not None], scheme, mode, suffix
    )
    ratings: list[list] = []
    categories_of: dict = {}  # tag -> category, for the default chunker
    for i, item in enumerate(annotations):
        given = [seq for seq in item if seq is not None]
        if not given:
            continue
        length = len(given[0])
        columns = []
        for a, seq in enumerate(item):
            if seq is None:
                columns.append([None] * length)
                continue
            if mode is None:  # a token's category depends on its tag alone: no spans needed
                try:
                    columns.append(lenient_token_categories(seq, categories_of, suffix))
                    continue
                except (ValueError, TypeError):
                    pass  # the span path below raises the message naming the position
            try:
                spans = tags.spans_from_tags(list(seq), scheme=resolved, mode=mode, suffix=suffix)
            except ValueError as error:
                raise ValueError(problem(function, "annotations", str(error), i, a)) from None
            columns.append(token_categories(spans, length))
        ratings.extend([list(row) for row in zip(*columns)])
    if not ratings:
        raise ValueError("annotations hold no tokens")
    return ratings, k


def multi_annotator_agreement(annotations, scheme=None, mode=None, suffix: bool = False) -> dict:
    """Token-level Fleiss' kappa and nominal Krippendorff's alpha of k annotators' BIO tags.

    ``annotations`` as in ``token_ratings``. Returns ``fleiss_kappa``, ``krippendorff_alpha``,
    the observed/expected agreement and disagreement behind them, ``n_tokens``,
    ``n_annotators``, ``categories`` and ``warnings`` (reasons for any None).
    """
    ratings, k = token_ratings(annotations, scheme=scheme, mode=mode, suffix=suffix, function="multi_annotator_agreement")
    codes, cats = rating_codes(ratings)
    counts = count_matrix(codes, len(cats))  # counted once for both coefficients
    fleiss = fleiss_from_counts(counts, cats, details=True)
    alpha = alpha_from_counts(counts, cats, "nominal", details=True)
    return {
        "fleiss_kappa": fleiss["kappa"],
        "krippendorff_alpha": alpha["alpha"],
        "observed_agreement": fleiss["observed_agreement"],
        "expected_agreement": fleiss["expected_agreement"],
        "observed_disagreement": alpha["observed_disagreement"],
        "expected_disagreement": alpha["expected_disagreement"],
        "n_tokens": len(ratings),
        "n_annotators": k,
        "categories": [str(c) for c in fleiss["categories"]],
        "warnings": fleiss["warnings"] + alpha["warnings"],
    }


__all__ = [
    "DISTANCES",
    "alpha_from_counts",
    "MAX_COUNT_CELLS",
    "check_counts",
    "alpha_from_coincidences",
    "coincidence_matrix",
    "alpha_of_codes",
    "fleiss_of_codes",
    "coincidences_from_codes",
    "count_matrix",
    "fleiss_from_codes",
    "fleiss_from_counts",
    "fleiss_kappa",
    "is_missing",
    "krippendorff_alpha",
    "multi_annotator_agreement",
    "rating_categories",
    "rating_codes",
    "rating_rows",
    "rows_count_matrix",
    "token_ratings",
]
