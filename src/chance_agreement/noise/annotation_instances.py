"""Instances and their per-annotator categories, from k annotators' spans of the same items.

Two units (used by the noise bound of ``noise.py``):

- ``"token"``: every token is an instance; an annotator's category for it is the entity type of
  the span covering it, or ``"O"``.
- ``"entity"``: every distinct span ``(item, start, end)`` proposed by any annotator is an
  instance; an annotator's category is the type it gave that exact span, or ``"O"`` when it did
  not propose that span (a span it covered differently counts as ``"O"`` too).

Spans are ``(entity_type, start, end)`` with ``end`` exclusive, as ``tags.spans_from_tags`` gives.
"""

from __future__ import annotations

from ..reliability.contingency_table import token_categories

OUTSIDE = "O"


def instance_labels(spans, lengths, unit: str) -> list[tuple]:
    """Instances x annotators categories.

    ``spans[i][j]``: the spans annotator j marked in item i; ``lengths[i]``: item i's tokens.
    Instances come item by item, tokens in order, entity spans sorted by (start, end).
    """

    rows: list[tuple] = []
    if unit == "token":
        for item_spans, length in zip(spans, lengths, strict=True):
            columns = [token_categories(annotator_spans, length) for annotator_spans in item_spans]
            rows.extend(zip(*columns, strict=True))
        return rows
    if unit == "entity":
        for item_spans in spans:
            given = [{(start, end): type_ for type_, start, end in s} for s in item_spans]
            for position in sorted(set().union(*given)):
                rows.append(tuple(g.get(position, OUTSIDE) for g in given))
        return rows
    raise ValueError(f"unit must be 'token' or 'entity', got {unit!r}")


__all__ = ["OUTSIDE", "instance_labels"]
