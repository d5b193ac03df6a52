"""JSON Lines annotation exports: one JSON object per line, one sentence unit per object.

Each object has ``text`` (a string) and its spans under the first of these keys it has:

- ``spans`` (Prodigy, Label Studio-like) or ``entities`` (doccano, spaCy-style): a list of objects
  with character offsets ``start``/``end`` (or doccano's ``start_offset``/``end_offset``) and a
  ``label``; Label Studio results ``{"value": {"start", "end", "labels": [label]}}`` work too;
- ``label`` or ``labels`` (doccano's sequence-labelling export): a list of ``[start, end, label]``.

A list entry may also be a ``[start, end, label]`` triple under any of these keys. An object with
none of the keys has no spans; an object with two of them is an error (which one counts?).
Offsets are character positions in ``text`` (Python string indices: Unicode code points), end
exclusive; ``offsets="utf16"`` (``--offsets utf16``) reads them as UTF-16 code units, as tools with
a JavaScript front end count, and ``"grapheme"`` as grapheme clusters. A span that misses token
boundaries but would fit counted in another unit says so. An ``id`` key aligns the object with
other annotators' objects of the same id.

Tokens: a ``tokens`` key, either a list of ``{"start", "end"}`` objects (Prodigy) or a list of
token strings (found in the text in order); without it, ``tokenizer(text)`` (default
``spans.tokenizer.tokenize``). Blank lines are skipped; errors name the file and 1-based line.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..annotated_text import AnnotatedText, char_offset, warn_widened
from ..tokenizer import align_tokens, tokenize
from .base import Annotator, Reader, ReadOptions, annotate_text, json_lines, unit_of

SPAN_KEYS = ("spans", "entities", "label", "labels")


def _char_span(item, where: str):
    if isinstance(item, dict):
        value = item.get("value", item)
        start = value.get("start", value.get("start_offset"))
        end = value.get("end", value.get("end_offset"))
        label = value.get("label", value.get("labels"))
        if isinstance(label, list) and len(label) == 1:
            label = label[0]
        if start is None or end is None or label is None:
            raise ValueError(f"{where}: span {item!r} needs start, end and label")
    elif isinstance(item, (list, tuple)) and len(item) == 3:
        start, end, label = item
    else:
        raise ValueError(f"{where}: span {item!r} is neither an object nor a [start, end, label] triple")
    if not isinstance(label, str) or not label:
        raise ValueError(f"{where}: span {item!r} needs a non-empty string label")
    return char_offset(start, f"{where}: span {item!r}"), char_offset(end, f"{where}: span {item!r}"), label


def _tokens(record: dict, text: str, tokenizer, where: str):
    tokens = record.get("tokens")
    if tokens is None:
        return (tokenizer or tokenize)(text)
    if not isinstance(tokens, list):
        raise ValueError(f"{where}: 'tokens' must be a list")
    if tokens and all(isinstance(token, dict) for token in tokens):
        offsets: list[tuple[int, int]] = []
        for token in tokens:
            start = char_offset(token.get("start"), f"{where}: token {token!r}")
            end = char_offset(token.get("end"), f"{where}: token {token!r}")
            if not 0 <= start < end <= len(text) or (offsets and start < offsets[-1][1]):
                raise ValueError(f"{where}: token {token!r} is not a non-empty character range "
                                 "after the previous token")
            offsets.append((start, end))
        return offsets
    return align_tokens(text, tokens, where)


def record_spans(record, where: str) -> tuple[str, list]:
    """``(text, [(start, end, label, where)])`` of one decoded JSON object: its ``text`` and the
    raw character spans under the one span key it has (see the module docstring)."""
    if not isinstance(record, dict):
        raise ValueError(f"{where}: expected a JSON object, got {type(record).__name__}")
    text = record.get("text")
    if not isinstance(text, str):
        raise ValueError(f"{where}: the object needs a 'text' string")
    present = [key for key in SPAN_KEYS if key in record]
    if len(present) > 1:
        raise ValueError(f"{where}: spans under several keys {present}; keep one of {list(SPAN_KEYS)}")
    items = record[present[0]] if present else []
    if not isinstance(items, list):
        raise ValueError(f"{where}: {present[0]!r} must be a list of spans")
    return text, [(*_char_span(item, where), where) for item in items]


def parse_record(record, where: str, tokenizer=None, widen: bool = False, *,
                 offsets: str = "codepoint") -> AnnotatedText:
    """One JSON object (already decoded) as an ``AnnotatedText``; ``where`` names file and line;
    ``offsets``: what the character offsets count (``codepoint``, ``utf16``, ``grapheme``)."""
    text, char_spans = record_spans(record, where)
    options = ReadOptions(widen=widen, tokenizer=tokenizer, offsets=offsets)
    tokens = _tokens(record, text, None, where) if "tokens" in record else None
    return annotate_text(text, tokens, char_spans, where, options)


def read_jsonl(path, *, tokenizer=None, widen: bool = False, offsets: str = "codepoint") -> list[AnnotatedText]:
    """Read every object of a JSON Lines annotation export as an ``AnnotatedText``.

    Prodigy, doccano, Label Studio-like and spaCy-style objects are read (see the module
    docstring for the keys).

    Parameters
    ----------
    path : str or pathlib.Path
        The ``.jsonl`` file, one JSON object (one sentence unit) per line.
    tokenizer : callable, optional
        ``text -> [(start, end), ...]`` character offsets of the tokens (default ``tokenize``).
    widen : bool, default False
        Widen a span that cuts a token to the whole token (counted and warned); default: an error.
    offsets : {"codepoint", "utf16", "grapheme"}, default "codepoint"
        The unit of the character offsets.

    Returns
    -------
    list of AnnotatedText
        Per object: the text, its token offsets, its token spans and where it came from.

    Raises
    ------
    ValueError
        Malformed JSON or a bad span, naming the file and 1-based line.

    See Also
    --------
    read_brat : Files in brat's standoff format.
    pair_annotations : Two annotators' texts as span lists for ``span_chance_f1``.

    Examples
    --------
    >>> from pathlib import Path
    >>> from chance_agreement import examples_path
    >>> texts = read_jsonl(Path(examples_path()) / "annotator_a.jsonl")
    >>> len(texts), texts[0].spans  # token spans, nested ones kept
    (2, [(1, 6, 'ORG'), (3, 4, 'LOC'), (5, 6, 'LOC'), (9, 11, 'PER')])
    """
    path = Path(path)
    texts = [parse_record(record, f"{path} line {number}", tokenizer, widen, offsets=offsets)
             for number, record in json_lines(path)]
    if not texts:
        raise ValueError(f"{path}: no JSON objects found")
    warn_widened(texts, str(path))
    return texts


def first_object(head: bytes):
    """The first JSON Lines object of ``head`` (None when the first non-blank line is not one)."""
    text = head.decode("utf-8-sig", errors="replace")
    line = next((line for line in text.split("\n") if line.strip()), "")
    if not line.lstrip().startswith("{"):
        return None
    try:
        record = json.loads(line)
    except (json.JSONDecodeError, RecursionError):
        return None
    return record if isinstance(record, dict) else None


def _sniff(head: bytes, path: Path) -> bool:
    record = first_object(head)
    return record is not None and isinstance(record.get("text"), str)


def record_key(record) -> str | None:
    """The ``id`` of a record as a string (its key among the annotators' units), else None."""
    record_id = record.get("id") if isinstance(record, dict) else None
    return None if record_id is None or isinstance(record_id, (dict, list)) else str(record_id)


def read_records(path: Path, options: ReadOptions, offsets: str = "codepoint") -> list[Annotator]:
    """The one annotator of a JSON Lines file (named after the file), its objects' units keyed by
    their ``id``; ``offsets``: the unit character offsets count unless ``options.offsets`` says."""
    texts, units = [], []
    for number, record in json_lines(path):
        annotated = parse_record(record, f"{path} line {number}", options.tokenizer, options.widen,
                                 offsets=options.offsets or offsets)
        texts.append(annotated)
        units.append(unit_of(annotated, record_key(record)))
    if not units:
        raise ValueError(f"{path}: no JSON objects found")
    warn_widened(texts, str(path))
    return [Annotator(path.stem, str(path), units, named_by_file=True)]


READERS = (Reader("jsonl", "JSON Lines, one object per text with 'text' and 'spans'/'entities'/'label' "
                  "(character offsets)", _sniff, read_records),)

__all__ = ["READERS", "SPAN_KEYS", "first_object", "parse_record", "read_jsonl", "read_records", "record_key",
           "record_spans"]
