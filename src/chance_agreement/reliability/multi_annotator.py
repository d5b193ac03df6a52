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

Both values are computed in one place each, ``rater_coefficients.FleissKappa`` (as ``1 - D_o / D_e``
from non-negative terms) and ``rater_coefficients.KrippendorffAlpha``; this module codes the labels
and builds the distance, and ``weighted_fleiss_kappa``, ``krippendorff_alpha_inference`` and
``multi_rater_agreement`` give the same bits. Undefined values (every label the same, so chance
agreement is 1; fewer than two pairable ratings) are ``None``; with ``details=True`` the reason is
in ``warnings``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .._numerics.compiled import compiled_kernels
from ..spans import tags
from ..spans.annotation_set import AnnotationSet
from ..spans.validation import check_annotations, problem
from .agreement_coefficients import check_distance_values, square_distance_matrix
from .contingency_table import lenient_token_categories, token_categories
from .rater_coefficients.fleiss_kappa import FleissKappa
from .rater_coefficients.krippendorff_alpha import (
    KrippendorffAlpha,
    coincidence_matrix,
    coincidences_from_codes,
    patterns_fit,
)
from .rater_coefficients.ratings import MAX_COUNT_CELLS, Ratings, check_counts, count_matrix, rating_codes

DISTANCES = ("nominal", "ordinal", "interval", "ratio")


def fleiss_kappa(ratings=None, *, counts=None, categories=None, details: bool = False):
    r"""Fleiss' kappa (Siegel & Castellan K, eq. 2 of Beigman Klebanov & Beigman 2009).

    Parameters
    ----------
    ratings : array-like, optional
        Items x annotators labels (None/NaN = missing).
    counts : array-like, optional
        Instead of ``ratings``: items x categories numbers of annotators per category (Fleiss
        1971's layout).
    categories : sequence, optional
        The categories (default: the labels found, sorted).
    details : bool, default False
        Return a dict instead of the value.

    Returns
    -------
    float or None or dict
        Kappa, or None when undefined (chance agreement 1, or no item with two ratings). With
        ``details=True`` a dict with ``kappa``, ``observed_agreement``, ``expected_agreement``,
        ``n_items``, ``categories``, ``warnings``.

    Raises
    ------
    ValueError
        Neither or both of ``ratings`` and ``counts``, or a malformed table.

    Notes
    -----
    With :math:`n_{ik}` the number of the :math:`n_i` ratings of item :math:`i` in category
    :math:`k`, and :math:`\pi_k` the proportion of all ratings in category :math:`k`,

    .. math::

        P_o = \frac{1}{N} \sum_i \sum_k \frac{n_{ik} (n_{ik} - 1)}{n_i (n_i - 1)}, \qquad
        P_e = \sum_k \pi_k^2, \qquad
        \kappa = \frac{P_o - P_e}{1 - P_e}.

    Missing labels are handled as in Gwet (2014) / irrCAC (see the module docstring): items with
    fewer than two ratings add to the category proportions only. :math:`P_e = 1` leaves kappa
    undefined: None, never NaN.

    The example's kappa, :math:`P_o` and :math:`P_e` are irrCAC's (``fleiss.kappa.raw``, the Python
    port, given the four categories): 0.77358, 0.83333 and 0.26389.

    References
    ----------
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters. *Psychological
    Bulletin* 76(5). Beigman Klebanov, B. and Beigman, E. (2009). From annotator agreement to
    noise models. *Computational Linguistics* 35(4).

    Examples
    --------
    >>> ratings = [["PER", "PER", "PER"], ["LOC", "LOC", "ORG"], ["O", "O", "O"], ["ORG", "ORG", None]]
    >>> round(fleiss_kappa(ratings), 4)
    0.7736
    >>> details = fleiss_kappa(ratings, details=True)
    >>> round(details["observed_agreement"], 4), round(details["expected_agreement"], 4)
    (0.8333, 0.2639)
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
    """``fleiss_kappa`` of coded labels (``rating_codes``), counted sparsely (``Ratings``): work and
    memory grow with items x annotators, whatever the number of categories."""
    return _fleiss(Ratings(coded=(codes, cats)), details)


def fleiss_from_counts(table: np.ndarray, cats: list, details: bool):
    """``fleiss_kappa`` of an items x categories count matrix."""
    return _fleiss(Ratings(counts=table, categories=cats), details)


_FLEISS_UNDEFINED = {
    "no pairs": "no item has two or more ratings: agreement is undefined",
    "one category": "every rating is the same category, so chance agreement is 1 and kappa is undefined",
}


def _fleiss(ratings: Ratings, details: bool):
    """``fleiss_kappa``'s float, or its dict, from ``FleissKappa`` (the one implementation)."""
    parts = FleissKappa().disagreements(ratings)
    result: dict[str, Any] = {
        "kappa": parts["value"],
        "observed_agreement": parts["observed_agreement"],
        "expected_agreement": parts["expected_agreement"],
        "n_items": parts["n_items"],
        "categories": [c if isinstance(c, (str, int, float)) else str(c) for c in ratings.categories],
        "warnings": [_FLEISS_UNDEFINED[parts["reason"]]] if parts["reason"] else [],
    }
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
            f"{[c for c, v in zip(categories, values, strict=True) if not np.isfinite(v)]!r}"
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


def krippendorff_alpha(
    ratings,
    *,
    distance: str | Sequence | Callable = "nominal",
    categories=None,
    details: bool = False,
):
    r"""Compute Krippendorff's alpha, :math:`1 - D_o/D_e`, of an items x annotators array.

    Parameters
    ----------
    ratings : array-like
        Items x annotators labels; missing labels (None/NaN) are simply absent.
    distance : str, matrix or callable, default "nominal"
        "nominal", "ordinal" (ranks in the order of ``categories``, default sorted labels),
        "interval", "ratio" (numeric labels), a category x category matrix (rows/columns in the
        order of ``categories``) or a callable ``distance(c, k)``.
    categories : sequence, optional
        The categories and their order (default: the labels found, sorted).
    details : bool, default False
        Return a dict instead of the value.

    Returns
    -------
    float or None or dict
        Alpha, or None when undefined (fewer than two pairable values, or :math:`D_e = 0`). With
        ``details=True`` a dict with ``alpha``, ``observed_disagreement``,
        ``expected_disagreement``, ``n_pairable_values``, ``warnings``.

    Raises
    ------
    ValueError
        An unknown distance, or a distance matrix whose shape does not match the categories.

    Notes
    -----
    Units with fewer than two values are not pairable and ignored. With :math:`o_{ck}` the
    coincidence matrix of the pairable values, :math:`n_c = \sum_k o_{ck}`, :math:`n` the number of
    pairable values and :math:`\delta` the distance,

    .. math::

        D_o = \frac{1}{n} \sum_c \sum_k o_{ck}\, \delta(c, k), \qquad
        D_e = \frac{1}{n (n - 1)} \sum_c \sum_k n_c\, n_k\, \delta(c, k), \qquad
        \alpha = 1 - \frac{D_o}{D_e}.

    :math:`D_e = 0` (a single category) leaves alpha undefined: None, never NaN. The examples'
    values are the ``krippendorff`` package's (``krippendorff.alpha`` with the same level of
    measurement) to the last digit shown.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Departmental Papers (ASC),
    University of Pennsylvania.

    Examples
    --------
    >>> ratings = [["PER", "PER", "PER"], ["LOC", "LOC", "ORG"], ["O", "O", "O"], ["ORG", "ORG", None]]
    >>> round(krippendorff_alpha(ratings), 4)
    0.7778
    >>> round(krippendorff_alpha(ratings, details=True)["observed_disagreement"], 4)
    0.1818

    Numeric labels with the interval and ratio distances:

    >>> scores = [[1, 2, 2], [3, 3, 4], [1, 1, None], [4, 4, 4], [2, 3, 3]]
    >>> [round(krippendorff_alpha(scores, distance=name), 6) for name in ("interval", "ratio")]
    [0.838174, 0.786828]
    """
    codes, cats = rating_codes(ratings, categories)
    return alpha_of_codes(codes, cats, distance, details)


def alpha_of_codes(codes: np.ndarray, cats: list, distance, details: bool):
    """``krippendorff_alpha`` of coded labels (``rating_codes``), its coincidence matrix counted the
    cheaper of two ways, the same bits either way (``rater_coefficients.krippendorff_alpha``'s
    ``combine_pair_tables``): from the codes (``coincidences_from_codes``: with the compiled kernels,
    or when a unit's category counts fit in one number (``patterns_fit``), or when there are at most
    as many annotator pairs as category pairs (``q^2``), about ``n r(r - 1)/2`` operations, or when
    the items x categories count table would pass ``MAX_COUNT_CELLS``); else from the count table
    (``n q^2`` multiply-adds)."""
    n, raters = codes.shape
    q = len(cats)
    if (compiled_kernels() is not None or patterns_fit(raters, q) or raters * (raters - 1) // 2 <= q * q
            or n * q > MAX_COUNT_CELLS):
        return alpha_from_coincidences(coincidences_from_codes(codes, q), cats, distance, details)
    return alpha_from_counts(count_matrix(codes, q), cats, distance, details)


def alpha_from_counts(counts: np.ndarray, cats: list, distance, details: bool):
    """``krippendorff_alpha`` of an items x categories count matrix."""
    return alpha_from_coincidences(coincidence_matrix(counts), cats, distance, details)


def alpha_from_coincidences(coincidences: np.ndarray, cats: list, distance, details: bool):
    """``krippendorff_alpha`` of a coincidence matrix: the distance as a matrix (the ordinal one
    from the matrix's marginals), then ``KrippendorffAlpha.disagreements`` (the one implementation)."""
    delta, scale = _scaled_distance_matrix(distance, cats, coincidences.sum(axis=1))
    result = KrippendorffAlpha.disagreements(coincidences, delta, scale)
    return result if details else result["alpha"]


def token_ratings(annotations, scheme=None, mode=None, suffix: bool = False, *, function: str = "token_ratings"):
    """Tokens-by-annotators category labels from per-item lists of k annotators' tag sequences.

    ``annotations[i]`` holds the tag sequences of the k annotators of item (sentence) i, None for
    a missing annotator (the API's one layout, ``spans.validation.check_annotations``; errors
    name ``function``), or an ``AnnotationSet``. Each token's label is the entity type of the span covering it, or "O"
    (spans exactly as seqeval finds them; strict mode with no scheme detects it from every given
    sequence). Returns ``(ratings, k)``, ratings a list of rows with None for missing labels.
    """
    if isinstance(annotations, AnnotationSet):
        return _set_ratings(annotations, scheme, mode, suffix, function)
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
        columns: list[list] = []
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
        ratings.extend([list(row) for row in zip(*columns, strict=True)])
    if not ratings:
        raise ValueError("annotations hold no tokens")
    return ratings, k


def _set_ratings(annotations: AnnotationSet, scheme, mode, suffix, function: str):
    """``token_ratings`` of an ``AnnotationSet``: each token's category from the set's spans."""
    annotations.chunked_as(scheme, mode, suffix, function)
    spans = [annotations.sentence_spans(a) for a in range(annotations.n_annotators)]
    ratings: list[list] = []
    for s, length in enumerate(annotations.lengths.tolist()):
        if not annotations.present[:, s].any():
            continue
        columns = [[None] * length if sentence[s] is None else token_categories(sentence[s], length)
                   for sentence in spans]
        ratings.extend([list(row) for row in zip(*columns, strict=True)])
    if not ratings:
        raise ValueError("annotations hold no tokens")
    return ratings, annotations.n_annotators


def multi_annotator_agreement(annotations, *, scheme=None, mode=None, suffix: bool = False) -> dict:
    r"""Compute token-level Fleiss' kappa and nominal Krippendorff's alpha of k annotators' tags.

    Parameters
    ----------
    annotations : list of list of list of str or None, or AnnotationSet
        ``annotations[i]`` holds the tag sequences of the k annotators of item (sentence) ``i``,
        None for a missing annotator (the API's one layout, :func:`as_items`); or an
        ``AnnotationSet``, whose spans are not chunked again.
    scheme, mode, suffix : optional
        As in seqeval and :func:`spans_from_tags`.

    Returns
    -------
    dict
        ``fleiss_kappa`` and ``krippendorff_alpha`` (None when undefined), the
        ``observed_agreement`` and ``expected_agreement`` behind kappa, the
        ``observed_disagreement`` and ``expected_disagreement`` behind alpha, ``n_tokens``,
        ``n_annotators``, ``categories`` and ``warnings`` (the reason for any None).

    Raises
    ------
    ValueError
        Bad input, naming the item and the annotator: ragged sequences, a tag that is not a tag
        of the scheme, or no annotations.

    See Also
    --------
    fleiss_kappa, krippendorff_alpha : The coefficients of any items x annotators labels.
    multi_rater_report : Gwet's whole family, with standard errors, from tags.

    Notes
    -----
    Each token is an item; its label from each annotator is the entity type of the span covering
    it, or ``"O"`` (spans exactly as seqeval finds them). Fleiss' kappa is the K of Siegel and
    Castellan, equation 2 of Beigman Klebanov and Beigman (2009),
    :math:`\kappa = (P_o - P_e)/(1 - P_e)`; alpha is :math:`1 - D_o/D_e` with the nominal distance
    (Krippendorff 2011). The table of counts is built once for both.

    The example's kappa is also statsmodels' ``fleiss_kappa`` of the same 5 tokens.

    References
    ----------
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters. *Psychological
    Bulletin* 76(5). Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability.

    Examples
    --------
    >>> annotations = [
    ...     [["B-PER", "I-PER", "O"], ["B-PER", "I-PER", "O"], ["B-PER", "O", "O"]],
    ...     [["O", "B-LOC"], ["O", "B-LOC"], ["O", "B-ORG"]],
    ... ]
    >>> result = multi_annotator_agreement(annotations)
    >>> round(result["fleiss_kappa"], 4), round(result["krippendorff_alpha"], 4)
    (0.589, 0.6164)
    >>> result["n_tokens"], result["n_annotators"], result["categories"]
    (5, 3, ['LOC', 'O', 'ORG', 'PER'])
    """
    ratings, k = token_ratings(annotations, scheme=scheme, mode=mode, suffix=suffix,
                               function="multi_annotator_agreement")
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
    "alpha_from_coincidences",
    "alpha_from_counts",
    "alpha_of_codes",
    "fleiss_from_counts",
    "fleiss_kappa",
    "fleiss_of_codes",
    "krippendorff_alpha",
    "multi_annotator_agreement",
    "token_ratings",
]
