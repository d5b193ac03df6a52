"""doccano's sequence-labelling export: one JSON Lines file per user (``admin.jsonl``, ...).

Each line is one example: ``id``, ``text`` and its spans in either layout doccano writes,
``"label": [[start, end, "LABEL"], ...]`` or ``"entities": [{"id", "label", "start_offset",
"end_offset"}, ...]`` (with ``relations`` beside them, which carry no span). The annotator is the
file (its name without ``.jsonl``); examples align with the other users' files by ``id``.

doccano's front end counts offsets in UTF-16 code units, so that is the default here
(``--offsets utf16``); ``codepoint`` and ``grapheme`` read other counts. A span that misses token
boundaries but would fit counted another way says so; spans that fit either way (on other tokens:
the text has characters outside the Basic Multilingual Plane, emoji, ...) cannot say, so without
``--offsets`` such a file gets one warning naming the first record. Tokens come from the tokenizer.
"""

from __future__ import annotations

import warnings
from pathlib import Path

from .base import Reader, ReadOptions, json_lines
from .jsonl import first_object, parse_record, read_records

DEFAULT_OFFSETS = "utf16"


def _sniff(head: bytes, path: Path) -> bool:
    record = first_object(head)
    if record is None or not isinstance(record.get("text"), str) or "spans" in record or "_input_hash" in record:
        return False
    entities = record.get("entities")
    return isinstance(record.get("label"), list) or (
        isinstance(entities, list) and all(isinstance(e, dict) and "start_offset" in e for e in entities))


def _ambiguous(path: Path, annotators, options: ReadOptions) -> str | None:
    """The first record (its ``where``) whose spans, read as UTF-16 units, also land on token
    boundaries counted in code points, on other tokens: nothing in the file tells the two apart."""
    astral = {unit.where: unit for annotator in annotators for unit in annotator.units
              if unit.spans and any(ord(char) > 0xFFFF for char in unit.text)}
    if not astral:
        return None
    for number, record in json_lines(path):
        unit = astral.get(f"{path} line {number}")
        if unit is None:
            continue
        try:
            other = parse_record(record, unit.where, options.tokenizer, False, offsets="codepoint")
        except ValueError:  # off token boundaries counted in code points: UTF-16 it is
            continue
        if sorted(other.spans) != sorted(unit.spans):
            return unit.where
    return None


def _read(path: Path, options: ReadOptions):
    annotators = read_records(path, options, DEFAULT_OFFSETS)
    where = _ambiguous(path, annotators, options) if options.offsets is None else None
    if where is not None:
        warnings.warn(f"{where}: the text has characters outside the Basic Multilingual Plane and its spans fall on "
                      f"token boundaries counted in UTF-16 units (doccano's count, read) and in code points, on other "
                      f"tokens: give --offsets utf16 to confirm or --offsets codepoint if the export counts code "
                      f"points", UserWarning, stacklevel=2)
    return annotators


READERS = (Reader("doccano", "doccano sequence-labelling JSONL, one file per user ('label' triples or "
                  "'entities' with start_offset/end_offset; UTF-16 offsets)", _sniff, _read),)

__all__ = ["DEFAULT_OFFSETS", "READERS"]
