"""doccano's sequence-labelling export: one JSON Lines file per user (``admin.jsonl``, ...).

Each line is one example: ``id``, ``text`` and its spans in either layout doccano writes,
``"label": [[start, end, "LABEL"], ...]`` or ``"entities": [{"id", "label", "start_offset",
"end_offset"}, ...]`` (with ``relations`` beside them, which carry no span). The annotator is the
file (its name without ``.jsonl``); examples align with the other users' files by ``id``.

doccano's front end counts offsets in UTF-16 code units, so that is the default here
(``--offsets utf16``); ``codepoint`` and ``grapheme`` read other counts. A span that misses token
boundaries but would fit counted another way says so. Tokens come from the tokenizer.
"""

from __future__ import annotations

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
    return read_records(path, options, DEFAULT_OFFSETS)


READERS = (Reader("doccano", "doccano sequence-labelling JSONL, one file per user ('label' triples or "
                  "'entities' with start_offset/end_offset; UTF-16 offsets)", _sniff, _read),)

__all__ = ["DEFAULT_OFFSETS", "READERS"]
