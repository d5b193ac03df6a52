"""doccano's sequence-labelling export: one JSON Lines file per user (``admin.jsonl``, ...).

Each line is one example: ``id``, ``text`` and its spans in either layout doccano writes,
``"label": [[start, end, "LABEL"], ...]`` or ``"entities": [{"id", "label", "start_offset",
"end_offset"}, ...]`` (with ``relations`` beside them, which carry no span). The annotator is the
file (its name without ``.jsonl``); examples align with the other users' files by ``id``.

doccano's front end counts offsets in UTF-16 code units, so that is the default here
(``--offsets utf16``); ``codepoint`` and ``grapheme`` read other counts. A span that misses token
boundaries but would fit counted another way says so; offsets that fit either way cannot say, so
without ``--offsets`` a file whose texts with spans have characters outside the Basic
Multilingual Plane (emoji, ...) gets one warning naming the first. Tokens come from the tokenizer.
"""

from __future__ import annotations

import warnings
from pathlib import Path

from .base import Reader, ReadOptions
from .jsonl import first_object, read_records

DEFAULT_OFFSETS = "utf16"


def _sniff(head: bytes, path: Path) -> bool:
    record = first_object(head)
    if record is None or not isinstance(record.get("text"), str) or "spans" in record or "_input_hash" in record:
        return False
    entities = record.get("entities")
    return isinstance(record.get("label"), list) or (
        isinstance(entities, list) and all(isinstance(e, dict) and "start_offset" in e for e in entities))


def _read(path: Path, options: ReadOptions):
    annotators = read_records(path, options, DEFAULT_OFFSETS)
    if options.offsets is None:
        astral = next((unit for annotator in annotators for unit in annotator.units
                       if unit.spans and any(ord(char) > 0xFFFF for char in unit.text)), None)
        if astral is not None:
            warnings.warn(f"{astral.where}: the text has characters outside the Basic Multilingual Plane, where "
                          f"UTF-16 units and code points differ: its offsets were read as UTF-16 code units "
                          f"(doccano's count); give --offsets utf16 to confirm or --offsets codepoint if the export "
                          f"counts code points", UserWarning, stacklevel=2)
    return annotators


READERS = (Reader("doccano", "doccano sequence-labelling JSONL, one file per user ('label' triples or "
                  "'entities' with start_offset/end_offset; UTF-16 offsets)", _sniff, _read),)

__all__ = ["DEFAULT_OFFSETS", "READERS"]
