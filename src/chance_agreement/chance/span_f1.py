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
    """``chance_f1`` of span lists; ``kwargs`` as ``chance_f1`` (``model``, ``level``, ``zero_division``,
    ``return_sentence_scores``; the tag options ``scheme``, ``mode``, ``suffix`` do not apply)."""
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
