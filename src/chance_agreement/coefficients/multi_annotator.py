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

import math
from typing import Any, Callable, Sequence

import numpy as np

DISTANCES = ("nominal", "ordinal", "interval", "ratio")


def _is_missing(value) -> bool:
    if value is None or type(value).__name__ == "NAType":  # None, pandas.NA
        return True
    try:
        return isinstance(value, (float, np.floating)) and math.isnan(value)
    except TypeError:
        return False


def _rows(ratings) -> list[list]:
    """Validate an items-by-annotators array; return it as a list of lists."""
    if isinstance(ratings, np.ndarray):
        if ratings.ndim != 2:
            raise ValueError(
                f"ratings must be a 2-d items-by-annotators array, got {ratings.ndim} dimension(s)"
            )
        rows = ratings.tolist()
    else:
        try:
            rows = [list(row) for row in ratings]
        except TypeError as error:
            raise ValueError(
                "ratings must be a sequence of items, each a sequence of annotators' labels"
            ) from error
    if not rows:
        raise ValueError("ratings is empty: no items")
    width = len(rows[0])
    for i, row in enumerate(rows):
        if len(row) != width:
            raise ValueError(
                f"item {i} has {len(row)} annotator columns, item 0 has {width}: every item needs "
                "one column per annotator (use None for a missing label)"
            )
    if width < 2:
        raise ValueError(f"need at least two annotators (columns), got {width}")
    for i, row in enumerate(rows):
        for value in row:
            if not _is_missing(value):
                try:
                    hash(value)
                except TypeError as error:
                    raise ValueError(
                        f"item {i}: label {value!r} is not a hashable category label"
                    ) from error
    return rows


def _sort_key(value):
    return (0, value, "") if isinstance(value, (int, float, np.number)) else (1, 0, str(value))


def _categories(rows, categories=None) -> list:
    seen = {value for row in rows for value in row if not _is_missing(value)}
    if categories is None:
        return sorted(seen, key=_sort_key)
    categories = list(categories)
    unknown = seen.difference(categories)
    if unknown:
        raise ValueError(
            f"labels {sorted(unknown, key=_sort_key)!r} are not in categories {categories!r}"
        )
    return categories


def _count_matrix(rows, categories) -> np.ndarray:
    index = {c: j for j, c in enumerate(categories)}
    counts = np.zeros((len(rows), len(categories)), dtype=float)
    for i, row in enumerate(rows):
        for value in row:
            if not _is_missing(value):
                counts[i, index[value]] += 1
    return counts


def _check_counts(counts) -> np.ndarray:
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
    if counts is not None:
        table = _check_counts(counts)
        cats = list(categories) if categories is not None else list(range(table.shape[1]))
        if len(cats) != table.shape[1]:
            raise ValueError(
                f"counts has {table.shape[1]} category columns but {len(cats)} categories given"
            )
    else:
        rows = _rows(ratings)
        cats = _categories(rows, categories)
        table = _count_matrix(rows, cats)

    warnings: list[str] = []
    per_item = table.sum(axis=1)
    rated = per_item >= 1
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
    r = per_item[pairable]
    a = table[pairable]
    observed = float(np.mean((a * (a - 1)).sum(axis=1) / (r * (r - 1))))
    proportions = (table[rated] / per_item[rated, None]).mean(axis=0)
    expected = float(np.sum(proportions**2))
    result["observed_agreement"] = observed
    result["expected_agreement"] = expected
    if math.isclose(expected, 1.0):
        warnings.append(
            "every rating is the same category, so chance agreement is 1 and kappa is undefined"
        )
        return result if details else None
    kappa = float((observed - expected) / (1.0 - expected))
    result["kappa"] = kappa
    return result if details else kappa


def _distance_matrix(distance, categories, marginals) -> np.ndarray:
    """delta_ck for the categories (Krippendorff 2011 metric differences)."""
    m = len(categories)
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
            return 1.0 - np.eye(m)
        if distance == "ordinal":
            # (sum_{g=c}^{k} n_g - (n_c + n_k)/2)^2 over ranks in the order of ``categories``
            cumulative = np.concatenate([[0.0], np.cumsum(marginals)])
            matrix = np.zeros((m, m))
            for c in range(m):
                for k in range(m):
                    lo, hi = min(c, k), max(c, k)
                    total = cumulative[hi + 1] - cumulative[lo]
                    matrix[c, k] = (total - (marginals[c] + marginals[k]) / 2.0) ** 2
            return matrix
        try:
            values = np.array([float(c) for c in categories])
        except (TypeError, ValueError) as error:
            raise ValueError(
                f"the {distance} distance needs numeric labels, got {categories!r}"
            ) from error
        diff = values[:, None] - values[None, :]
        if distance == "interval":
            return diff**2
        total = values[:, None] + values[None, :]
        if np.any(values < 0):
            raise ValueError("the ratio distance needs non-negative labels")
        with np.errstate(invalid="ignore", divide="ignore"):
            ratio = np.where(total == 0, 0.0, diff / np.where(total == 0, 1.0, total))
        return ratio**2
    else:
        try:
            matrix = np.asarray(distance, dtype=float)
        except (TypeError, ValueError) as error:
            raise ValueError("distance matrix must be numeric") from error
        if matrix.shape != (m, m):
            raise ValueError(
                f"distance matrix has shape {matrix.shape}, expected {(m, m)} for categories "
                f"{categories!r} (pass categories= to fix their order)"
            )
    from .agreement_coefficients import check_distance_values

    return check_distance_values(matrix, list(categories))


def coincidence_matrix(counts: np.ndarray) -> np.ndarray:
    """o_ck = sum_u n_uc (n_uk - [c == k]) / (m_u - 1) over units with m_u >= 2 values."""
    m_u = counts.sum(axis=1)
    pairable = counts[m_u >= 2]
    weights = 1.0 / (m_u[m_u >= 2] - 1.0)
    outer = np.einsum("u,uc,uk->ck", weights, pairable, pairable)
    return outer - np.diag((pairable * weights[:, None]).sum(axis=0))


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
    rows = _rows(ratings)
    cats = _categories(rows, categories)
    counts = _count_matrix(rows, cats)
    coincidences = coincidence_matrix(counts)
    marginals = coincidences.sum(axis=1)
    n = float(marginals.sum())
    delta = _distance_matrix(distance, cats, marginals)
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
    result["observed_disagreement"] = observed
    result["expected_disagreement"] = expected
    if expected <= 0.0:
        warnings.append(
            "expected disagreement is 0 (a single value is used), so alpha is undefined"
        )
        return result if details else None
    alpha = float(1.0 - observed / expected)
    result["alpha"] = alpha
    return result if details else alpha


def token_ratings(annotations, scheme=None, mode=None, suffix: bool = False):
    """Tokens-by-annotators category labels from per-item lists of k annotators' tag sequences.

    ``annotations[i]`` holds the tag sequences of the k annotators of item (sentence) i, None for
    a missing annotator. Each token's label is the entity type of the span covering it, or "O"
    (spans exactly as seqeval finds them; strict mode with no scheme detects it from every given
    sequence). Returns ``(ratings, k)``, ratings a list of rows with None for missing labels.
    """
    from ..spans import tags
    from .contingency_table import token_categories

    tags.check_items(annotations)
    if isinstance(annotations, str) or not len(annotations):
        raise ValueError("annotations must be a non-empty list of items, each a list of k tag sequences")
    k = None
    for i, item in enumerate(annotations):
        if isinstance(item, str) or item is None:
            raise ValueError(f"item {i}: expected a list of the annotators' tag sequences")
        if k is None:
            k = len(item)
        if len(item) != k:
            raise ValueError(
                f"item {i} has {len(item)} annotator slots but item 0 has {k}: give every item one "
                "slot per annotator (None for a missing one)"
            )
        given = [seq for seq in item if seq is not None]
        if any(isinstance(seq, str) for seq in given):
            raise ValueError(f"item {i}: an annotation is a string, expected a list of tags")
        lengths = {len(seq) for seq in given}
        if len(lengths) > 1:
            raise ValueError(
                f"item {i}: the annotators' tag sequences have different lengths {sorted(lengths)}"
            )
    if k is None or k < 2:
        raise ValueError(f"need at least two annotators per item, got {k}")
    resolved = tags.effective_scheme(
        [seq for item in annotations for seq in item if seq is not None], scheme, mode, suffix
    )
    ratings: list[list] = []
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
            try:
                spans = tags.spans_from_tags(list(seq), scheme=resolved, mode=mode, suffix=suffix)
            except ValueError as error:
                raise ValueError(f"item {i}, annotator {a}: {error}") from None
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
    ratings, k = token_ratings(annotations, scheme=scheme, mode=mode, suffix=suffix)
    fleiss = fleiss_kappa(ratings, details=True)
    alpha = krippendorff_alpha(ratings, details=True)
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
