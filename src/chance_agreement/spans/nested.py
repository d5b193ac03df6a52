"""Span lists over tokens, nested annotations as forests, and their flat BIO views.

A span is ``(start, end, label)`` over the tokens of one sentence, **half-open**: it covers the
tokens ``start, start + 1, ..., end - 1`` (``0 <= start < end <= n``), as Python slices do. A
mapping ``{"start": .., "end": .., "label": ..}`` (what ``datasets`` stores) is read the same way.

Each annotator's spans of one sentence form a forest:

- a span strictly inside another (``a.start <= b.start``, ``b.end <= a.end``, not the same extent)
  is a descendant of it; its **parent** is the smallest span that strictly contains it;
- two spans that share tokens without one containing the other are *crossing*: a ValueError names
  both;
- spans with the same extent and different labels are siblings (same parent, same depth); when they
  contain other spans, those are children of the first of them in label order. The same span
  twice (same extent, same label) is an error.

The **depth** of a span is the number of its ancestors (top-level spans have depth 0). Spans of
one depth never share tokens, except siblings with the same extent.

Flat views (for comparison with seqeval): ``outermost`` keeps the top-level spans, ``innermost``
keeps the leaves (spans with no child); ``tags_from_spans`` writes IOB2 tags, which seqeval chunks
back into exactly those spans.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .validation import refuse_reserved_type

TokenSpan = tuple[int, int, str]  # (start, end, label), end exclusive


@dataclass(frozen=True)
class Node:
    """One span of a forest: its extent, label, depth and parent (an index into the forest)."""

    start: int
    end: int
    label: str
    depth: int
    parent: int | None

    @property
    def length(self) -> int:
        return self.end - self.start


def _check_span(span, n: int, where: str) -> TokenSpan:
    if isinstance(span, Mapping) and {"start", "end", "label"} <= span.keys():
        span = (span["start"], span["end"], span["label"])  # the form datasets gives back
    if type(span) not in (tuple, list) and (isinstance(span, (str, bytes)) or not isinstance(span, Sequence)):
        raise TypeError(f"{where}: a span must be a (start, end, label) triple, got {span!r}")
    if len(span) != 3:
        raise TypeError(f"{where}: a span must be a (start, end, label) triple, got {span!r}")
    start, end, label = span
    try:
        if type(start) is not int or type(end) is not int:
            start, end = operator.index(start), operator.index(end)
    except TypeError:
        raise TypeError(f"{where}: span {tuple(span)!r}: start and end must be integers") from None
    if not isinstance(label, str):
        raise TypeError(f"{where}: span {tuple(span)!r}: the label must be a string")
    if not label:
        raise ValueError(f"{where}: span {tuple(span)!r}: the label is empty")
    refuse_reserved_type(label, f"{where}, position {start}")
    if not 0 <= start < end <= n:
        raise ValueError(
            f"{where}: span {(start, end, label)!r} is not a non-empty token range [start, end) "
            f"inside the sentence of {n} tokens (0 <= start < end <= {n})"
        )
    return start, end, label


def check_span_lists(spans, lengths, role: str) -> list[list[TokenSpan]]:
    """Validated span lists, one per sentence; errors name ``role[sentence]`` (0-based) and the span."""
    if isinstance(spans, (str, bytes)) or not isinstance(spans, Sequence):
        raise TypeError(f"{role} must be a list of span lists (one per sentence), got {type(spans).__name__}")
    if len(spans) != len(lengths):
        raise ValueError(f"{role} has {len(spans)} sentences but lengths has {len(lengths)}")
    out = []
    for index, (sentence, n) in enumerate(zip(spans, lengths, strict=True)):
        where = f"{role}[{index}]"
        if isinstance(sentence, (str, bytes)) or not isinstance(sentence, Sequence):
            raise TypeError(f"{where}: expected a list of (start, end, label) spans, got {sentence!r}")
        out.append([_check_span(span, n, where) for span in sentence])
    return out


def check_lengths(lengths) -> list[int]:
    """Sentence lengths as non-negative integers, at least one sentence, not all empty."""
    if isinstance(lengths, (str, bytes)) or not isinstance(lengths, Sequence):
        raise TypeError(f"lengths must be a list of sentence lengths (token counts), got {lengths!r}")
    checked = []
    for index, n in enumerate(lengths):
        try:
            n = operator.index(n)
        except TypeError:
            raise TypeError(f"lengths[{index}] must be an integer number of tokens, got {n!r}") from None
        if n < 0:
            raise ValueError(f"lengths[{index}] must be >= 0, got {n}")
        checked.append(n)
    if not checked:
        raise ValueError("empty input: no sentences were given")
    if not any(checked):
        raise ValueError("empty input: every sentence has zero tokens")
    return checked


def build_forest(spans: Sequence[TokenSpan], where: str = "spans") -> list[Node]:
    """The forest of one sentence's checked spans, sorted by ``(start, -end, label)``.

    Crossing spans and repeated spans raise ValueError naming ``where`` and the spans. One pass
    after the sort: O(k log k) for k spans, whatever their depth or number of same-extent siblings.
    """
    ordered = sorted(spans, key=lambda span: (span[0], -span[1], span[2]))
    nodes: list[Node] = []
    open_: list[int] = []  # indices of the spans that contain the current position, outermost first
    for start, end, label in ordered:
        while open_ and nodes[open_[-1]].end <= start:
            open_.pop()
        if not open_:
            nodes.append(Node(start, end, label, 0, None))
            open_.append(len(nodes) - 1)
            continue
        top = nodes[open_[-1]]
        if end > top.end:
            raise ValueError(
                f"{where}: spans {(top.start, top.end, top.label)!r} and {(start, end, label)!r} cross "
                f"(they share tokens but neither contains the other)"
            )
        if (start, end) == (top.start, top.end):
            # a sibling with the same extent; in (start, -end, label) order the same span given
            # twice comes right after itself, so the last node is the only one to compare with
            previous = nodes[-1]
            if (previous.start, previous.end, previous.label) == (start, end, label):
                raise ValueError(f"{where}: span {(start, end, label)!r} is given twice")
            nodes.append(Node(start, end, label, top.depth, top.parent))
            continue  # children go to the first twin, which stays open
        nodes.append(Node(start, end, label, top.depth + 1, open_[-1]))
        open_.append(len(nodes) - 1)
    return nodes


def forests(spans, lengths, role: str) -> list[list[Node]]:
    """``build_forest`` of every sentence after ``check_span_lists``."""
    checked = check_span_lists(spans, lengths, role)
    return [build_forest(sentence, f"{role}[{index}]") for index, sentence in enumerate(checked)]


def _flat(spans: Sequence[TokenSpan], n: int, where: str) -> list[str]:
    tags = ["O"] * n
    owner: list[TokenSpan | None] = [None] * n
    for span in sorted(spans):
        start, end, label = span
        for t in range(start, end):
            if owner[t] is not None:
                raise ValueError(
                    f"{where}: spans {owner[t]!r} and {span!r} share tokens, so they have no flat BIO form"
                )
            owner[t] = span
        tags[start] = f"B-{label}"
        tags[start + 1 : end] = [f"I-{label}"] * (end - start - 1)
    return tags


def tags_from_spans(spans, lengths, *, role: str = "spans") -> list[list[str]]:
    """Write flat span lists as IOB2 tags (``B-`` opens every span).

    seqeval (and ``spans_from_tags``) chunk these tags back into exactly the given spans.

    Parameters
    ----------
    spans : list of list of tuple
        Per sentence, ``(start, end, label)`` token spans, half-open (tokens ``start .. end - 1``).
    lengths : list of int
        Per sentence, its number of tokens.
    role : str, default "spans"
        How error messages name the input (e.g. ``"predictions"``).

    Returns
    -------
    list of list of str
        Per sentence, one tag per token.

    Raises
    ------
    ValueError
        A span out of its sentence or empty, spans sharing a token (use ``outermost_tags``,
        ``innermost_tags`` or ``nested_chance_f1``), a bad length; naming the sentence and span.

    See Also
    --------
    spans_from_tags : The inverse, for one sequence.

    Examples
    --------
    >>> tags_from_spans([[(0, 2, "PER"), (3, 4, "LOC")]], [5])
    [['B-PER', 'I-PER', 'O', 'B-LOC', 'O']]
    """
    lengths = check_lengths(lengths)
    checked = check_span_lists(spans, lengths, role)
    return [_flat(sentence, n, f"{role}[{i}]") for i, (sentence, n) in enumerate(zip(checked, lengths, strict=True))]


def outermost(spans, lengths, role: str = "spans") -> list[list[TokenSpan]]:
    """The top-level spans (depth 0) of every sentence."""
    return [[(node.start, node.end, node.label) for node in forest if node.depth == 0]
            for forest in forests(spans, check_lengths(lengths), role)]


def innermost(spans, lengths, role: str = "spans") -> list[list[TokenSpan]]:
    """The leaves (spans with no child) of every sentence."""
    out = []
    for forest in forests(spans, check_lengths(lengths), role):
        parents = {node.parent for node in forest}
        out.append([(node.start, node.end, node.label) for i, node in enumerate(forest) if i not in parents])
    return out


def outermost_tags(spans, lengths, *, role: str = "spans") -> list[list[str]]:
    """Write the outermost view of nested spans as IOB2 tags: the top-level spans only.

    What a flat annotation of the top-level entities gives.

    Parameters
    ----------
    spans : list of list of tuple
        Per sentence, ``(start, end, label)`` token spans (nesting allowed, crossing not),
        half-open (tokens ``start .. end - 1``).
    lengths : list of int
        The sentences' numbers of tokens.
    role : str, default "spans"
        The input's name in error messages (e.g. ``"references"``).

    Returns
    -------
    list of list of str
        The IOB2 tags of each sentence.

    Raises
    ------
    ValueError
        A span out of its sentence, two spans that cross, a bad length; naming the sentence and
        the span.

    See Also
    --------
    innermost_tags : The leaves instead.
    nested_chance_f1 : Every depth at once.

    Examples
    --------
    >>> outermost_tags([[(0, 5, "ORG"), (1, 3, "PER")]], [6])
    [['B-ORG', 'I-ORG', 'I-ORG', 'I-ORG', 'I-ORG', 'O']]
    """
    return tags_from_spans(outermost(spans, lengths, role), lengths, role=role)


def innermost_tags(spans, lengths, *, role: str = "spans") -> list[list[str]]:
    """Write the innermost view of nested spans as IOB2 tags: the leaves (spans holding no other).

    A token inside a parent but outside all of its children is ``O`` in this view.

    Parameters
    ----------
    spans : list of list of tuple
        As in ``outermost_tags``: per sentence, nested ``(start, end, label)`` token spans.
    lengths : list of int
        Tokens per sentence.
    role : str, default "spans"
        The input's name in error messages.

    Returns
    -------
    list of list of str
        One IOB2 tag per token of each sentence.

    Raises
    ------
    ValueError
        As ``outermost_tags``.

    See Also
    --------
    outermost_tags : The top-level spans instead.
    nested_chance_f1 : Every depth at once.

    Examples
    --------
    >>> innermost_tags([[(0, 5, "ORG"), (1, 3, "PER")]], [6])
    [['O', 'B-PER', 'I-PER', 'O', 'O', 'O']]
    """
    return tags_from_spans(innermost(spans, lengths, role), lengths, role=role)


__all__ = [
    "Node",
    "build_forest",
    "check_lengths",
    "check_span_lists",
    "forests",
    "innermost",
    "innermost_tags",
    "outermost",
    "outermost_tags",
    "tags_from_spans",
]
