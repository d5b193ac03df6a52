"""``chance_f1`` for span lists instead of tags.

A span list carries no sentence length, so span input is its own function with a ``lengths``
argument rather than a mode of ``chance_f1``: ``span_chance_f1(predictions, references, lengths)``
with, per sentence, ``(start, end, label)`` token spans (half-open: tokens ``start .. end - 1``).
The spans become an ``AnnotationSet`` as they are (``AnnotationSet.from_spans``: nothing is
written as tags and chunked back) and are scored by ``chance_f1``: every number is the tag path's
on the spans' IOB2 tags, ``overall_accuracy`` the IOB2 tag accuracy. Spans of one annotator that
share tokens have no flat form: use ``nested_chance_f1`` (or the flat views ``outermost``/``innermost``).
"""

from __future__ import annotations

from ..spans.annotation_set import AnnotationSet
from ..spans.nested import check_lengths
from .corrected_f1 import chance_f1


def span_chance_f1(predictions, references, lengths, **kwargs) -> dict:
    r"""Compute ``chance_f1``'s scores from span lists instead of tags.

    Parameters
    ----------
    predictions, references : list of list of tuple
        Per sentence, the two annotations' ``(start, end, label)`` token spans, half-open (tokens
        ``start .. end - 1``), at most one span per token and annotation.
    lengths : list of int
        Per sentence, its number of tokens.
    **kwargs
        ``chance_f1``'s options: ``model``, ``level``, ``zero_division``, ``return_sentence_scores``
        and the interval options; the tag options ``scheme``, ``mode`` and ``suffix`` do not apply.

    Returns
    -------
    dict
        ``chance_f1``'s result on the same spans written as tags (``overall_accuracy`` is the tag
        accuracy).

    Raises
    ------
    ValueError
        A span out of its sentence, spans of one annotation sharing a token (use
        ``nested_chance_f1``), a bad length, or a tag option.

    See Also
    --------
    chance_f1 : The same scores from tags.
    nested_chance_f1 : Spans that nest or overlap within one annotation.

    Notes
    -----
    With :math:`c_i(t)` the probability that token :math:`t` is covered by annotator :math:`i`'s
    segments placed at random (Propositions 1-3 of [1]_),

    .. math::

        \mathrm{chance} = \frac{2 \sum_t c_1(t)\, c_2(t)}{a_1 + a_2}, \qquad
        \mathrm{corrected} = \frac{\mathrm{observed} - \mathrm{chance}}{1 - \mathrm{chance}},

    summed over sentences and entity types before the ratios; a 0/0 score (no span on either
    side) takes ``zero_division``, never NaN.

    References
    ----------
    .. [1] D. Li, C. Rosé, A. Yuan, C. Zhou. Estimating Agreement by Chance for Sequence Annotation. ACL 2024.

    Examples
    --------
    >>> predictions = [[(0, 2, "PER"), (5, 6, "LOC")]]
    >>> references = [[(0, 2, "PER"), (4, 6, "LOC")]]
    >>> scores = span_chance_f1(predictions, references, [8])
    >>> round(scores["overall_observed_f1"], 4), round(scores["overall_chance_f1"], 4)
    (0.8571, 0.223)
    >>> round(scores["overall_corrected_f1"], 4)
    0.8161
    >>> round(span_chance_f1(predictions, references, [8], level="entity")["overall_corrected_f1"], 4)
    0.4615
    """
    for name in ("scheme", "mode", "suffix"):
        if kwargs.get(name):
            raise ValueError(f"{name} is a tag option and does not apply to span input")
    lengths = check_lengths(lengths)
    for role, spans in (("predictions", predictions), ("references", references)):
        if isinstance(spans, (list, tuple)) and None in spans:
            raise TypeError(f"{role}[{spans.index(None)}]: expected a list of (start, end, label) spans, got None")
    annotations = AnnotationSet.from_spans({"predictions": predictions, "references": references}, lengths)
    return chance_f1(annotations.select([1, 0]), **kwargs)


__all__ = ["span_chance_f1"]
