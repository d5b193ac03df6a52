"""JSON Lines annotation exports: one JSON object per line, one sentence unit per object.

Each object has ``text`` (a string) and its spans under the first of these keys it has:

- ``spans`` (Prodigy, Label Studio-like) or ``entities`` (doccano, spaCy-style): a list of objects
  with character offsets ``start``/``end`` (or doccano's ``start_offset``/``end_offset``) and a
  ``label``; Label Studio results ``{"value": {"start", "end", "labels": [label]}}`` work too;
- ``label`` or ``labels`` (doccano's sequence-labelling export): a list of ``[start, end, label]``.

A list entry may also be a ``[start, end, label]`` triple under any of these keys. An object with
none of the keys has no spans; an object with two of them is an error (which one counts?).
Offsets are character positions in ``text`` (Python string indices: Unicode code points), end
exclusive. A tool that counts UTF-16 units instead differs after a character outside the Basic
Multilingual Plane (an emoji); such spans then miss token boundaries and are reported.

Tokens: a ``tokens`` key, either a list of ``{"start", "end"}`` objects (Prodigy) or a list of
token strings (found in the text in order); without it, ``tokenizer(text)`` (default
``spans.tokenizer.tokenize``). Blank lines are skipped; errors name the file and 1-based line.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..annotated_text import AnnotatedText, annotate, char_offset, warn_widened
from ..tokenizer import align_tokens, tokenize

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
        offsets = []
        for token in tokens:
            start = char_offset(token.get("start"), f"{where}: token {token!r}")
            end = char_offset(token.get("end"), f"{where}: token {token!r}")
            if not 0 <= start < end <= len(text) or (offsets and start < offsets[-1][1]):
                raise ValueError(f"{where}: token {token!r} is not a non-empty character range after the previous token")
            offsets.append((start, end))
        return offsets
    return align_tokens(text, tokens, where)


def parse_record(record, where: str, tokenizer=None, widen: bool = False) -> AnnotatedText:
    """One JSON object (already decoded) as an ``AnnotatedText``; ``where`` names file and line."""
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
    char_spans = [(*_char_span(item, where), where) for item in items]
    return annotate(text, _tokens(record, text, tokenizer, where), char_spans, where, widen)


def read_jsonl(path, tokenizer=None, widen: bool = False) -> list[AnnotatedText]:
    """Every object of a JSON Lines file as an ``AnnotatedText`` (see the module docstring)."""
    path = Path(path)
    texts = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path} line {number}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise ValueError(f"{where}: not valid JSON ({error.msg})") from None
        texts.append(parse_record(record, where, tokenizer, widen))
    if not texts:
        raise ValueError(f"{path}: no JSON objects found")
    warn_widened(texts, str(path))
    return texts
