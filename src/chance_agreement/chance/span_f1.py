"""``chance_f1`` for span lists instead of tags.

A span list carries no sentence length, so span input is its own function with a ``lengths``
argument rather than a mode of ``chance_f1``: ``span_chance_f1(predictions, references, lengths)``
with, per sentence, ``(start, end, label)`` token spans (half-open: tokens ``start .. end - 1``).
The spans are written as IOB2 tags (``spans.nested.tags_from_spans``), which seqeval's chunker
reads back as exactly the same spans, and scored by ``chance_f1``: every number is the tag path's,
``overall_accuracy`` is the IOB2 tag accuracy. Spans of one annotator that share tokens have no
flat form: use ``nested_chance_f1`` (or the flat views ``outermost``/``innermost``).
"""

from __future__ import annotations

from ..spans.nested import check_lengths, tags_from_spans
from .corrected_f1 import chance_f1


def span_chance_f1(predictions, references, lengths, **kwargs) -> dict:
    """``chance_f1`` of span lists; ``kwargs`` as ``chance_f1`` (``model``, ``level``, ``zero_division``,
    ``return_sentence_scores``; the tag options ``scheme``, ``mode``, ``suffix`` do not apply)."""
    for name in ("scheme", "mode", "suffix"):
        if kwargs.get(name):
            raise ValueError(f"{name} is a tag option and does not apply to span input")
    lengths = check_lengths(lengths)
    return chance_f1(tags_from_spans(predictions, lengths, role="predictions"),
                     tags_from_spans(references, lengths, role="references"), **kwargs)


__all__ = ["span_chance_f1"]
