"""Texts with character-offset spans, turned into token spans, and two annotators paired.

Readers (``spans.readers``) give one ``AnnotatedText`` per sentence unit: its text,
its tokens as character offsets and its spans as token spans ``(start, end, label)`` (half-open,
see ``spans.nested``). A character span must start at a token's first character and end at a
token's last one; otherwise it is a ValueError naming the file, line and span, or, with
``widen=True``, it is widened to every token it touches and the reader warns with the count.

Offsets count Unicode code points (Python string indices) unless a reader says otherwise:
``offset_table(text, unit)`` maps offsets counted in UTF-16 code units (what JavaScript front
ends such as doccano's count) or in grapheme clusters to code points.
"""

from __future__ import annotations

import operator
import unicodedata
import warnings
from dataclasses import dataclass, field

from .nested import TokenSpan, build_forest
from .tokenizer import tokenize
from .validation import refuse_reserved_type


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
    tokenized = tokens is None
    tokens = tokenize(text) if tokenized else [tuple(token) for token in tokens]
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
        refuse_reserved_type(label, where)
        if not 0 <= start < end <= len(text):
            raise ValueError(f"{where}: span {shown!r} is not a non-empty character range of the "
                             f"text ({len(text)} characters)")
        if start in first and end in last and first[start] <= last[end]:
            spans.append((first[start], last[end] + 1, label))
            continue
        touched = [index for index, (a, b) in enumerate(tokens) if a < end and b > start]
        unspaced = _unspaced_script(text, tokens, touched) if tokenized else None
        if not widen or not touched or unspaced:
            problem = "covers no token" if not touched else "does not fall on token boundaries"
            hint = "" if not touched else " (widen=True / --widen widens it to the tokens it touches)"
            if unspaced:
                hint = (f": the text has no word separators ({unspaced} is written without spaces) and the default "
                        f"tokenizer takes the whole run as one word; give --tokenizer characters "
                        f"(tokenizer=chance_agreement.spans.tokenizer.characters)")
            raise ValueError(f"{where}: span {shown!r} {text[start:end]!r} {problem}{hint}")
        spans.append((touched[0], touched[-1] + 1, label))
        widened += 1
    return AnnotatedText(text, tokens, spans, source, widened)


_UNSPACED = ("THAI", "LAO", "KHMER", "MYANMAR", "TIBETAN", "JAVANESE", "BALINESE", "NEW TAI LUE", "TAI THAM")


def _unspaced_script(text: str, tokens: list, touched: list) -> str | None:
    """The script written without spaces (``_UNSPACED``: the default tokenizer takes a run of it
    as one word) of the tokens a span cuts into, else None."""
    for index in touched:
        for char in text[slice(*tokens[index])]:
            name = unicodedata.name(char, "")
            script = next((s for s in _UNSPACED if name.startswith(s + " ")), None)
            if script:
                return script.title()
    return None


_EXTEND = {0x200C, 0x200D} | set(range(0xFE00, 0xFE10)) | set(range(0x1F3FB, 0x1F400)) | set(range(0xE0020, 0xE0080))


def _continues_cluster(previous: str, char: str) -> bool:
    """Whether ``char`` extends the grapheme cluster ending in ``previous``: a combining mark, a
    joiner, a variation selector, an emoji modifier or tag, the character after a zero-width
    joiner, the second of a regional-indicator pair, or LF after CR (Unicode UAX #29, simplified)."""

    code = ord(char)
    if unicodedata.category(char).startswith("M") or code in _EXTEND:
        return True
    if previous == "\u200d" or (previous, char) == ("\r", "\n"):
        return True
    return 0x1F1E6 <= code <= 0x1F1FF and 0x1F1E6 <= ord(previous) <= 0x1F1FF


def grapheme_starts(text: str) -> list[int]:
    """The code-point index where each grapheme cluster of ``text`` starts (see ``_continues_cluster``)."""
    starts, pair_open = [], False
    for index, char in enumerate(text):
        regional = 0x1F1E6 <= ord(char) <= 0x1F1FF
        if index and _continues_cluster(text[index - 1], char) and not (regional and not pair_open):
            pair_open = False
            continue
        starts.append(index)
        pair_open = regional
    return starts


def offset_table(text: str, unit: str) -> dict[int, int] | None:
    """``{offset in unit: code-point index}`` for ``unit`` ``"utf16"`` or ``"grapheme"`` (every
    boundary, the end included); None for ``"codepoint"`` (offsets are already code points)."""
    if unit == "codepoint":
        return None
    if unit == "utf16":
        table, position = {}, 0
        for index, char in enumerate(text):
            table[position] = index
            position += 2 if ord(char) > 0xFFFF else 1
        table[position] = len(text)
        return table
    if unit == "grapheme":
        starts = grapheme_starts(text)
        return {**{count: index for count, index in enumerate(starts)}, len(starts): len(text)}
    raise ValueError(f"offsets must be one of codepoint, utf16, grapheme; got {unit!r}")


def convert_offset(value: int, table: dict | None, unit: str, what: str) -> int:
    """``value`` (counted in ``unit``) as a code-point index through ``offset_table``'s ``table``."""
    if table is None:
        return value
    if value not in table:
        raise ValueError(f"{what}: offset {value} is not a {unit} boundary of the text "
                         f"({max(table)} {unit} units long)")
    return table[value]


def warn_widened(texts: list[AnnotatedText], name: str) -> None:
    count = sum(text.widened for text in texts)
    if count:
        warnings.warn(f"{name}: {count} span(s) widened to the tokens they touch", WidenedSpansWarning, stacklevel=3)


def pair_annotations(first: list[AnnotatedText], second: list[AnnotatedText]):
    """Pair two annotators' readings of the same texts as span lists, sentence by sentence.

    Parameters
    ----------
    first, second : list of AnnotatedText
        The two annotators' sentence units (``read_jsonl``, ``read_brat``, ...), in the same order.

    Returns
    -------
    tuple
        ``(spans_a, spans_b, lengths)``: per sentence the two span lists and the number of tokens,
        the input of ``span_chance_f1`` and ``nested_chance_f1``.

    Raises
    ------
    ValueError
        A different number of units, a unit with another text or other tokens, or crossing spans
        (sharing tokens, neither inside the other), naming the unit's file and line.

    See Also
    --------
    nested_chance_f1 : Scores of nested span lists.

    Examples
    --------
    >>> from pathlib import Path
    >>> from chance_agreement import examples_path, nested_chance_f1, read_brat, read_jsonl
    >>> folder = Path(examples_path())
    >>> spans_a, spans_b, lengths = pair_annotations(read_jsonl(folder / "annotator_a.jsonl"),
    ...                                              read_brat(folder / "brat" / "doc.ann"))
    >>> lengths
    [12, 11]
    >>> sorted(nested_chance_f1(spans_a, spans_b, lengths))[:3]
    ['LOC', 'ORG', 'PER']
    """
    for text in (*first, *second):
        build_forest(text.spans, text.source)
    if len(first) != len(second):
        raise ValueError(f"the annotators have {len(first)} and {len(second)} texts "
                         f"({first[0].source if first else 'nothing'} vs {second[0].source if second else 'nothing'})")
    for a, b in zip(first, second, strict=True):
        if a.text != b.text:
            at = next((i for i, (x, y) in enumerate(zip(a.text, b.text, strict=False)) if x != y),
                      min(len(a.text), len(b.text)))
            raise ValueError(f"different texts: {a.source} and {b.source} differ at character {at}")
        if a.tokens != b.tokens:
            raise ValueError(f"different tokens for the same text: {a.source} and {b.source}")
    return [a.spans for a in first], [b.spans for b in second], [len(a.tokens) for a in first]


__all__ = [
    "AnnotatedText",
    "WidenedSpansWarning",
    "annotate",
    "char_offset",
    "convert_offset",
    "grapheme_starts",
    "offset_table",
    "pair_annotations",
    "warn_widened",
]
