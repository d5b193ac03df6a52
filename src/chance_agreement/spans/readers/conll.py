"""CoNLL-style column files as a reader: token, then one tag column per annotator.

A file read alone with no column chosen gives every tag column as an annotator (``NAME:1``,
``NAME:2``, ...); with ``column`` (``FILE:COLUMN`` or ``--column``) that one column, named after
the file. The tags stay the file's own (seqeval's chunking options apply to them); CoNLL-U style
``# sent_id`` comments key the sentences, ``# text`` gives their text (``spans.conll``).
"""

from __future__ import annotations

import re
from pathlib import Path

from ..conll import ColumnFile, read_column_file
from .base import Annotator, Reader, ReadOptions, Unit


def _rows(head: bytes) -> list[list[str]]:
    """The fields of the first 50 non-blank, non-comment lines of ``head`` (not ``-DOCSTART-``)."""
    text = head.decode("utf-8-sig", errors="replace")
    lines = [line for line in text.split("\n")[:-1] or text.split("\n") if line.strip() and not line.startswith("#")]
    return [line.split() for line in lines[:50] if line.split()[0] != "-DOCSTART-"]


_TAG = re.compile(r"^(?:O|[BIESLU]-.+|.+-[BIESLU])$")


def _json(head: bytes, rows: list) -> bool:
    """Text that starts as JSON does (``{`` or ``[``) and whose first row does not end in a tag (as
    a bracket token's row does): JSON, never columns, whatever its spaces split it into."""
    text = head.decode("utf-8-sig", errors="replace").lstrip()
    return text[:1] in ("{", "[") and not (rows and _TAG.match(rows[0][-1]))


def _sniff(head: bytes, path: Path) -> bool:
    rows = _rows(head)
    widths = {len(fields) for fields in rows}
    return len(widths) == 1 and widths.pop() >= 2 and not _json(head, rows)


def _resembles(head: bytes, path: Path) -> bool:
    """Ragged columns (rows of different widths, a header line) at least half of whose rows end in
    a tag: a column file with a line off, which ``read_column_file`` names."""
    rows = _rows(head)
    tagged = sum(len(fields) >= 2 and bool(_TAG.match(fields[-1])) for fields in rows)
    return bool(rows) and 2 * tagged >= len(rows) and not _json(head, rows)


def units_of(columns: ColumnFile, column: int) -> list[Unit]:
    """One ``Unit`` per sentence with the tags of ``column`` (keyed by ``# sent_id`` when given)."""
    tags = columns.column(column)
    return [Unit([row[columns.token_column] for row in rows], f"{columns.name} line {lines[0]}", tags=sentence_tags,
                 text=text, key=key, token_lines=lines)
            for rows, lines, sentence_tags, key, text in zip(columns.rows, columns.lines, tags, columns.sentence_ids,
                                                             columns.texts, strict=True)]


def annotator(columns: ColumnFile, column: int, name: str) -> Annotator:
    resolved = columns.resolve(column)
    return Annotator(name, f"{columns.name}:{resolved}", units_of(columns, resolved), named_by_file=True,
                     column_file=columns, column=resolved)


def _read(path: Path, options: ReadOptions) -> list[Annotator]:
    columns = read_column_file(path)
    if options.column is not None:
        return [annotator(columns, options.column, path.stem)]
    if options.all_columns:
        return [annotator(columns, index, f"{path.stem}:{index}") for index in columns.tag_columns]
    return [annotator(columns, -1, path.stem)]


READERS = (Reader("conll", "CoNLL column files (token, then tag columns; CoNLL-U style '# sent_id' comments)",
                  _sniff, _read, resembles=_resembles),)

__all__ = ["READERS", "annotator", "units_of"]
