"""Texts with character-offset spans, turned into token spans, and two annotators paired.

Readers (``spans.jsonl``, ``spans.brat``) give one ``AnnotatedText`` per sentence unit: its text,
its tokens as character offsets and its spans as token spans ``(start, end, label)`` (half-open,
see ``spans.nested``). A character span must start at a token's first character and end at a
token's last one; otherwise it is a ValueError naming the file, line and span, or, with
``widen=True``, it is widened to every token it touches and the reader warns with the count.
"""

from __future__ import annotations

import operator
import warnings
from dataclasses import dataclass, field

from .nested import TokenSpan
from .tokenizer import tokenize


class WidenedSpansWarning(UserWarning):
    """Some character spans did not fall on token boundaries and were widened (``widen=True``)."""


@dataclass
class AnnotatedText:
    """One sentence unit of a file: text, token offsets, token spans, and where it came from."""

    text: str
    tokens: list[tuple[int, int]]
    spans: list[TokenSpan]
    source: str
    widened: int = field(default=0, compare=False)


def char_offset(value, what: str) -> int:
    """An integer character offset, else a ValueError naming ``what``."""
    if isinstance(value, bool):
        raise ValueError(f"{what}: offset {value!r} is not an integer")
    try:
        return operator.index(value)
    except TypeError:
        raise ValueError(f"{what}: offset {value!r} is not an integer") from None


def annotate(text: str, tokens, char_spans, source: str, widen: bool = False) -> AnnotatedText:
    """``AnnotatedText`` from ``char_spans``: ``(start, end, label, where)`` with character offsets.

    ``tokens`` are character offsets (``None``: ``tokenize(text)``); ``where`` names the file and
    line of each span for error messages.
    """
    tokens = tokenize(text) if tokens is None else [tuple(token) for token in tokens]
    previous_end = 0
    for index, token in enumerate(tokens):
        if len(token) != 2 or not previous_end <= token[0] < token[1] <= len(text):
            raise ValueError(f"{source}: token {index} {token!r} is not a non-empty character range of the text "
                             f"after the previous token")
        previous_end = token[1]
    first = {start: index for index, (start, _) in enumerate(tokens)}
    last = {end: index for index, (_, end) in enumerate(tokens)}
    spans, widened = [], 0
    for start, end, label, where in char_spans:
        shown = (start, end, label)
        if not 0 <= start < end <= len(text):
            raise ValueError(f"{where}: span {shown!r} is not a non-empty character range of the "
                             f"text ({len(text)} characters)")
        if start in first and end in last and first[start] <= last[end]:
            spans.append((first[start], last[end] + 1, label))
            continue
        touched = [index for index, (a, b) in enumerate(tokens) if a < end and b > start]
        if not widen or not touched:
            problem = "covers no token" if not touched else "does not fall on token boundaries"
            hint = "" if not touched else " (widen=True / --widen widens it to the tokens it touches)"
            raise ValueError(f"{where}: span {shown!r} {text[start:end]!r} {problem}{hint}")
        spans.append((touched[0], touched[-1] + 1, label))
        widened += 1
    return AnnotatedText(text, tokens, spans, source, widened)


def warn_widened(texts: list[AnnotatedText], name: str) -> None:
    count = sum(text.widened for text in texts)
    if count:
        warnings.warn(f"{name}: {count} span(s) widened to the tokens they touch", WidenedSpansWarning, stacklevel=3)


def pair_annotations(first: list[AnnotatedText], second: list[AnnotatedText]):
    """``(spans_a, spans_b, lengths)`` of two annotators of the same texts, sentence by sentence.

    The two must have the same number of sentence units with the same text and the same tokens.
    """
    if len(first) != len(second):
        raise ValueError(f"the annotators have {len(first)} and {len(second)} texts "
                         f"({first[0].source if first else 'nothing'} vs {second[0].source if second else 'nothing'})")
    for a, b in zip(first, second):
        if a.text != b.text:
            at = next((i for i, (x, y) in enumerate(zip(a.text, b.text)) if x != y), min(len(a.text), len(b.text)))
            raise ValueError(f"different texts: {a.source} and {b.source} differ at character {at}")
        if a.tokens != b.tokens:
            raise ValueError(f"different tokens for the same text: {a.source} and {b.source}")
    return [a.spans for a in first], [b.spans for b in second], [len(a.tokens) for a in first]


__all__ = ["AnnotatedText", "WidenedSpansWarning", "annotate", "char_offset", "pair_annotations", "warn_widened"]
