"""brat standoff: ``doc.ann`` next to ``doc.txt``.

Text-bound annotations are the ``T`` lines, ``T1<TAB>LABEL START END<TAB>covered text``, with
character offsets into ``doc.txt`` (end exclusive). Discontinuous ones (``0 5;8 12``) are refused
with an error naming the ``.ann`` file and line; a covered text that differs from the ``.txt`` is
an error too. Other lines (relations ``R``, events ``E``, attributes ``A``/``M``, normalisations
``N``, notes ``#``) carry no span and are not read (an event's trigger is its own ``T`` line and
counts as a span).

Sentence units: every non-blank line of ``doc.txt`` is one sentence (brat's own convention of one
sentence per line); a span across a line break is an error. Tokens come from ``tokenizer(line)``
(default ``spans.tokenizer.tokenize``). A byte order mark that starts ``doc.txt`` counts in the
offsets (brat reads it as a character) but is no token.

As a reader (``brat``): a ``.ann`` file, or a folder whose ``.ann`` files (found at any depth) are
one annotator's documents; units align with other annotators' by the ``.ann`` file's path (relative
to the folder) and the line of ``doc.txt``.
"""

from __future__ import annotations

import bisect
import itertools
import re
from pathlib import Path

from ..annotated_text import AnnotatedText, annotate, char_offset, warn_widened
from .base import BOM, Annotator, Reader, ReadOptions, check_covered, read_text, unit_of


def _text_bound(path: Path, number: int, line: str, text: str):
    where = f"{path} line {number}"
    fields = line.split("\t")
    if len(fields) < 2 or len(fields[1].split(" ", 1)) < 2:
        raise ValueError(f"{where}: expected 'T<id>\\tLABEL START END\\ttext', got {line!r}")
    label, offsets = fields[1].split(" ", 1)
    if ";" in offsets:
        raise ValueError(f"{where}: discontinuous annotation {fields[0]} ({offsets}) is not supported")
    parts = offsets.split()
    if len(parts) != 2 or not all(part.isascii() and part.isdigit() for part in parts):  # not '²' nor '٣'
        raise ValueError(f"{where}: offsets {offsets!r} are not 'START END' (two whole numbers in the digits 0-9)")
    start, end = (char_offset(int(part), where) for part in parts)
    if not 0 <= start < end <= len(text):
        raise ValueError(f"{where}: span {(start, end, label)!r} is not a non-empty range of the "
                         f"{len(text)}-character text")
    check_covered(where, fields[2] if len(fields) > 2 else None, text, start, end)
    return start, end, label, where


def read_brat(ann_path, *, tokenizer=None, widen: bool = False) -> list[AnnotatedText]:
    """Read a brat standoff annotation: the sentence units of ``doc.txt`` with the spans of ``doc.ann``.

    Parameters
    ----------
    ann_path : str or pathlib.Path
        The ``.ann`` file; its text is the ``.txt`` file beside it. Each non-blank line of the text
        is a sentence unit.
    tokenizer : callable, optional
        ``text -> [(start, end), ...]`` character offsets of the tokens (default ``tokenize``).
    widen : bool, default False
        Widen a span that cuts a token to the whole token (counted and warned); default: an error.

    Returns
    -------
    list of AnnotatedText
        Per sentence unit: the text, its token offsets, its token spans and where it came from.

    Raises
    ------
    ValueError
        A missing text file, a malformed annotation line or a span out of the text, naming the
        file and line.

    See Also
    --------
    read_jsonl : JSON Lines exports.

    Examples
    --------
    >>> from pathlib import Path
    >>> from chance_agreement import examples_path
    >>> units = read_brat(Path(examples_path()) / "brat" / "doc.ann")
    >>> len(units), units[0].spans
    (2, [(1, 6, 'ORG'), (3, 4, 'LOC'), (7, 11, 'PER')])
    """
    ann_path = Path(ann_path)
    txt_path = ann_path.with_suffix(".txt")
    if not txt_path.is_file():
        raise ValueError(f"{ann_path}: the text file {txt_path.name} is not next to it")
    # brat offsets count characters of the file as it is, so keep '\r' and do not translate newlines
    text = read_text(txt_path, keep_bom=True)
    spans = [
        _text_bound(ann_path, number, line, text)
        for number, line in enumerate(read_text(ann_path).split("\n"), start=1)
        if line.startswith("T")
    ]
    lines = text.split("\n")
    line_starts = list(itertools.accumulate((len(line) + 1 for line in lines[:-1]), initial=0))
    by_line: dict[int, list] = {}  # the spans starting on each line (from its start to its '\n'), in file order
    for span in spans:
        by_line.setdefault(bisect.bisect_right(line_starts, span[0]) - 1, []).append(span)
    units, line_start = [], 0
    for number, line in enumerate(lines, start=1):
        line_end = line_start + len(line)
        inside = by_line.get(number - 1, [])
        bom = 1 if number == 1 and line.startswith(BOM) else 0  # counted by the offsets, not a token
        for start, end, label, where in inside:
            if end > line_end:
                raise ValueError(f"{where}: span {(start, end, label)!r} crosses the end of line {number} of "
                                 f"{txt_path.name}")
            if start < line_start + bom:
                raise ValueError(f"{where}: span {(start, end, label)!r} covers the byte order mark that starts "
                                 f"{txt_path.name}")
        line, line_start = line[bom:], line_start + bom
        if inside and not line.strip():
            raise ValueError(f"{inside[0][3]}: span {inside[0][:3]!r} lies on blank line {number} of {txt_path.name}")
        if line.strip():
            local = [(start - line_start, end - line_start, label, where) for start, end, label, where in inside]
            tokens = tokenizer(line) if tokenizer else None
            units.append(annotate(line, tokens, local, f"{txt_path} line {number}", widen))
        line_start = line_end + 1
    if not units:
        raise ValueError(f"{txt_path}: the text is empty")
    warn_widened(units, str(ann_path))
    return units


_ANN_LINE = re.compile(r"^[TRAEMN*#]\d*\t")


def _sniff(head: bytes, path: Path) -> bool:
    if path.is_dir():
        return any(path.rglob("*.ann"))
    lines = [line for line in head.decode("utf-8-sig", errors="replace").split("\n")[:20] if line.strip()]
    return bool(lines) and all(_ANN_LINE.match(line) for line in lines[:-1] or lines)


def _units(ann: Path, name: str, options: ReadOptions) -> list:
    texts = read_brat(ann, tokenizer=options.tokenizer, widen=options.widen)
    return [unit_of(text, f"{name}:{text.source.rpartition(' line ')[2]}") for text in texts]


def _read(path: Path, options: ReadOptions) -> list[Annotator]:
    if not path.is_dir():
        return [Annotator(path.stem, str(path), _units(path, path.name, options), named_by_file=True)]
    files = sorted(path.rglob("*.ann"))
    if not files:
        raise ValueError(f"{path}: no .ann files")
    units = [unit for ann in files for unit in _units(ann, ann.relative_to(path).as_posix(), options)]
    return [Annotator(path.name, str(path), units, named_by_file=True)]


READERS = (Reader("brat", "brat standoff: a .ann file next to its .txt, or a folder of them", _sniff, _read,
                  folders=True),)

__all__ = ["READERS", "read_brat"]
