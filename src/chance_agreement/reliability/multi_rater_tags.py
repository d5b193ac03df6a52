"""The several-rater family (``multi_rater``) from m annotators' BIO tags or from an
items-by-annotators array: what coefficients_metric's "multi" configuration returns.

Items from tags (``annotations[i]``: the m annotators' tag sequences of sentence ``i``, ``None``
for an annotator who did not annotate it):

- ``unit="token"``: every token is an item; an annotator's rating is the entity type of the span
  covering it, or ``"O"`` (``multi_annotator.token_ratings``);
- ``unit="entity"``: every distinct span ``(sentence, start, end)`` proposed by any annotator is
  an item, as the two-annotator path and the noise metric count them; an annotator's rating is
  the type it gave that exact span, or ``"O"`` if it annotated the sentence without that span.

A missing annotator's rating is missing (``None``), never ``"O"``.
"""

from __future__ import annotations

from ..spans.tags import effective_scheme, spans_from_tags
from .multi_annotator import alpha_of_codes, fleiss_of_codes, token_ratings
from .multi_rater import multi_rater_agreement, multi_rater_agreement_of_codes
from .rater_coefficients.ratings import rating_codes

UNITS = ("token", "entity")
OUTSIDE = "O"
# result key -> key of fleiss_kappa(details=True) / krippendorff_alpha(details=True)
_FLEISS_KEYS = (("fleiss_kappa", "kappa"), ("observed_agreement", "observed_agreement"),
                ("expected_agreement", "expected_agreement"))
_ALPHA_KEYS = (("krippendorff_alpha", "alpha"), ("observed_disagreement", "observed_disagreement"),
               ("expected_disagreement", "expected_disagreement"))


def tag_ratings(annotations, *, unit="token", scheme=None, mode=None, suffix=False, function="tag_ratings"):
    """Turn m annotators' tag sequences into items x annotators ratings.

    Parameters
    ----------
    annotations : list of list of list of str or None
        ``annotations[i]`` holds the m annotators' tag sequences of sentence ``i``; None for an
        annotator who did not annotate it.
    unit : {"token", "entity"}, default "token"
        What an item is. ``"token"``: every token; its rating is the entity type of the span
        covering it, or ``"O"``. ``"entity"``: every distinct span ``(sentence, start, end)`` any
        annotator proposed (as the two-annotator path and the noise metric count them); its rating is
        the type the annotator gave that exact span, or ``"O"`` if the annotator annotated the
        sentence without it.
    scheme, mode, suffix : optional
        As in seqeval and :func:`spans_from_tags`.
    function : str, default "tag_ratings"
        The name the error messages give the caller.

    Returns
    -------
    ratings : list of list
        One row per item, one label per annotator; None where the annotator is missing (never
        ``"O"``).
    m : int
        The number of annotators.

    Raises
    ------
    ValueError
        An unknown ``unit``; bad input, naming the sentence and the annotator; with
        ``unit="entity"``, no span proposed by anyone.

    See Also
    --------
    multi_rater_report : The coefficients of these ratings.

    Examples
    --------
    >>> annotations = [
    ...     [["B-PER", "I-PER", "O"], ["B-PER", "I-PER", "O"], ["B-PER", "O", "O"]],
    ...     [["O", "B-LOC"], ["O", "B-LOC"], None],
    ... ]
    >>> tag_ratings(annotations)
    ([['PER', 'PER', 'PER'], ['PER', 'PER', 'O'], ['O', 'O', 'O'], ['O', 'O', None], ['LOC', 'LOC', None]], 3)
    >>> tag_ratings(annotations, unit="entity")[0]  # spans (0, 1), (0, 2) and (1, 2)
    [['O', 'O', 'PER'], ['PER', 'PER', 'O'], ['LOC', 'LOC', None]]
    """
    if unit not in UNITS:
        raise ValueError(f"unit must be one of {list(UNITS)}, got {unit!r}")
    ratings, m = token_ratings(annotations, scheme=scheme, mode=mode, suffix=suffix,
                               function=function)  # also validates
    if unit == "token":
        return ratings, m
    resolved = effective_scheme([seq for item in annotations for seq in item if seq is not None], scheme, mode, suffix)
    rows = []
    for item in annotations:
        given = [None if seq is None else {(start, end): type_ for type_, start, end in
                                           spans_from_tags(list(seq), scheme=resolved, mode=mode, suffix=suffix)}
                 for seq in item]
        proposed = set().union(*(spans for spans in given if spans is not None))
        for position in sorted(proposed):
            rows.append([None if spans is None else spans.get(position, OUTSIDE) for spans in given])
    if not rows:
        raise ValueError("no annotator proposed any entity span: there are no entity items")
    return rows, m


def _is_tag_input(annotations) -> bool:
    for item in annotations:
        for value in item if item is not None and not isinstance(item, str) else ():
            if value is not None:
                return isinstance(value, (list, tuple)) or (hasattr(value, "tolist") and getattr(value, "ndim", 0) > 0)
    return True


def _whole(value):
    """1.0 -> 1: labels that are whole numbers read as integers (the evaluate module's table
    stores numeric labels as floats); everything else unchanged."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _read_labels(annotations):
    """The rows with whole-number float labels read as integers (``_whole``); the rows themselves
    when no label is such a float (one pass over the distinct labels instead of a copy per cell)."""
    try:
        distinct = dict.fromkeys(value for row in annotations for value in row)
    except TypeError:  # an unhashable label: rating_codes says which
        distinct = {0.0: None}
    if any(isinstance(value, float) and value.is_integer() for value in distinct):
        return [[_whole(value) for value in row] for row in annotations]
    return annotations


def multi_rater_report(annotations, *, unit="token", weights="identity", categories=None, confidence_level=0.95,
                       population_size=None, benchmark_scale=None, scheme=None, mode=None, suffix=False) -> dict:
    """Report Fleiss' kappa, Krippendorff's alpha and Gwet's whole family from tags or labels.

    Parameters
    ----------
    annotations : list
        Per sentence the m annotators' tag sequences (None for a missing annotator; ``unit`` says
        what an item is), or per item the m raters' labels (an items x annotators array; None or NaN
        missing; float labels that are whole numbers are read as integers).
    unit : {"token", "entity"}, default "token"
        For tag sequences, what an item is (:func:`tag_ratings`).
    weights : str or array-like, default "identity"
        Agreement weights for the family under ``multi_rater`` (:func:`agreement_weights`).
    categories : sequence, optional
        The family's category order (default: the labels found, sorted).
    confidence_level : float, default 0.95
        The level of the family's intervals, in (0, 1).
    population_size : int, optional
        The population's number of items for the finite-population correction; None: infinite.
    benchmark_scale : str, optional
        ``"landis_koch"``, ``"fleiss"`` or ``"altman"``: benchmark each coefficient
        (:func:`benchmark`).
    scheme, mode, suffix : optional
        As in seqeval and :func:`spans_from_tags` (tag sequences only).

    Returns
    -------
    dict
        The keys of :func:`multi_annotator_agreement`: ``fleiss_kappa`` (unweighted),
        ``krippendorff_alpha`` (nominal), their observed and expected agreement and disagreement,
        ``n_items``, ``n_annotators``, ``categories``, ``warnings`` (and ``n_tokens`` for token
        items from tags); ``unit``; and ``multi_rater``, the result of
        :func:`multi_rater_agreement` with ``weights``.

    Raises
    ------
    ValueError
        Empty annotations, bad tags or labels (naming the item), or ``unit``, ``scheme``, ``mode``
        or ``suffix`` given with an items x annotators array.

    See Also
    --------
    multi_rater_agreement : The family of an items x annotators array.

    Notes
    -----
    The labels are coded once, and the top-level coefficients are the bits of :func:`fleiss_kappa`
    and :func:`krippendorff_alpha` on them; see :func:`multi_rater_agreement` for the family's
    formulas, :math:`(p_a - p_e)/(1 - p_e)` with Gwet's (2014) standard errors.

    Examples
    --------
    >>> annotations = [
    ...     [["B-PER", "I-PER", "O"], ["B-PER", "I-PER", "O"], ["B-PER", "O", "O"]],
    ...     [["O", "B-LOC"], ["O", "B-LOC"], None],
    ... ]
    >>> report = multi_rater_report(annotations)
    >>> round(report["fleiss_kappa"], 4), round(report["krippendorff_alpha"], 4), report["n_items"]
    (0.7887, 0.7692, 5)
    >>> round(report["multi_rater"]["gwet_ac1"]["value"], 4)
    0.8052

    Numeric labels, one row per item, with quadratic weights for the family:

    >>> report = multi_rater_report([[1, 1, 2], [2, 2, 2], [3, 3, None]], weights="quadratic")
    >>> round(report["krippendorff_alpha"], 4), round(report["multi_rater"]["gwet_ac2"]["value"], 4)
    (0.65, 0.8448)
    """
    if isinstance(annotations, str) or not hasattr(annotations, "__len__") or not len(annotations):
        raise ValueError("annotations must be a non-empty list of items")
    tags = _is_tag_input(annotations)
    if tags:
        ratings, m = tag_ratings(annotations, unit=unit, scheme=scheme, mode=mode, suffix=suffix,
                                 function="multi_rater_report")
    else:
        if unit != "token" or scheme is not None or mode is not None or suffix:
            raise ValueError("unit, scheme, mode and suffix apply to tag sequences, "
                             "not to an items-by-annotators array")
        ratings = _read_labels(annotations)
        m = len(ratings[0])
    codes, labels = rating_codes(ratings)  # coded once for the bare coefficients and the family
    fleiss = fleiss_of_codes(codes, labels, True)  # the bare functions' values, from these codes
    alpha = alpha_of_codes(codes, labels, "nominal", True)
    options = dict(weights=weights, confidence_level=confidence_level, population_size=population_size,
                   benchmark_scale=benchmark_scale)
    if categories is None:
        family = multi_rater_agreement_of_codes(codes, labels, **options)
    else:  # the family's own category order
        family = multi_rater_agreement(ratings, categories=categories, **options)
    # the keys multi_annotator_agreement gives, from the same two functions
    out = {key: fleiss[source] for key, source in _FLEISS_KEYS}
    out.update({key: alpha[source] for key, source in _ALPHA_KEYS})
    out.update(n_items=len(ratings), n_annotators=m, categories=[str(c) for c in fleiss["categories"]],
               warnings=fleiss["warnings"] + alpha["warnings"], unit=unit, multi_rater=family)
    if tags and unit == "token":
        out["n_tokens"] = len(ratings)  # the key multi_annotator_agreement has always given
    return out


__all__ = ["UNITS", "multi_rater_report", "tag_ratings"]
