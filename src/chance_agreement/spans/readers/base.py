"""What every reader gives back, and the options every reader takes.

A reader turns one file (or folder) into one or more ``Annotator`` s; each holds the sentence
units it annotated, in file order. A ``Unit`` carries its tokens (strings: always the file's own
when the file has tokens), either the file's BIO tags (CoNLL) or token spans ``(start, end,
label)`` (half-open, see ``spans.nested``), and what aligns it with the other annotators' units:
a ``key`` (document id and sentence number, when the file has ids) and its ``text``. ``where``
names the file and line (or document) for error messages.

A reader is a ``Reader``: its name, a one-line description, ``sniff(head, path)`` (does this
content look like the format? ``head`` is the file's first bytes) and ``read(path, options)``;
optionally ``resembles(head, path)`` for content close to the format that no reader takes, and
``near_misses``: the formats close to its own that its reader recognises and refuses, saying what
to do (an older version of the tool's export, one task where the export has an array).
"""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..annotated_text import AnnotatedText, annotate, convert_offset, offset_table
from ..conll import decode_lines
from ..nested import TokenSpan

OFFSET_UNITS = ("codepoint", "utf16", "grapheme")
CROSSING = ("error", "skip")
BOM = "\ufeff"  # the byte order mark, as a character
HEAD_BYTES = 65536  # what detection looks at, at least (``file_head``)
_DECODER = json.JSONDecoder()


class SkippedRecordsWarning(UserWarning):
    """A reader left records out on purpose (rejected, ignored, cancelled): the count and why."""


@dataclass
class Unit:
    """One sentence unit of one annotator (see the module docstring)."""

    tokens: list
    where: str
    spans: list | None = None
    tags: list | None = None
    text: str | None = None
    key: str | None = None
    token_lines: list | None = None  # 1-based line of each token (column files), for errors


@dataclass
class Annotator:
    """One annotator of a file: ``name`` (the id the file gives, else the file's name), where it
    comes from (``source``: the file, and its column for column files) and its units."""

    name: str
    source: str
    units: list
    named_by_file: bool = field(default=False, compare=False)  # the name is the file's, not an id in it
    column_file: object = field(default=None, compare=False, repr=False)  # spans.conll.ColumnFile
    column: int | None = None


@dataclass(frozen=True)
class ReadOptions:
    """Options a reader may use; each reader documents which (the others ignore them).

    ``widen``: widen character spans off token boundaries (else an error); ``tokenizer``: offsets
    for texts without tokens; ``offsets``: how character offsets count (``codepoint``, ``utf16``
    code units, ``grapheme`` clusters; None: the format's own default); ``layer``/``feature``: the
    annotation layer and label feature of INCEpTION files; ``typesystem``: the UIMA type system of
    XMI files; ``column``: the tag column of column files (None: the reader's default)."""

    widen: bool = False
    tokenizer: Callable | None = None
    offsets: str | None = None
    layer: str | None = None
    feature: str | None = None
    typesystem: str | None = None
    column: int | None = None
    all_columns: bool = False


@dataclass(frozen=True)
class Reader:
    """One format: ``sniff(head: bytes, path: Path) -> bool`` and ``read(path, options) -> [Annotator]``."""

    name: str
    description: str
    sniff: Callable
    read: Callable
    extra: str | None = None  # the pip extra the reader needs, if any
    folders: bool = False  # reads a folder too (brat)
    # resembles(head, path): content close to the format but not quite (ragged columns): when no
    # reader takes a file, the first that this says resembles it reads it, so that its own error
    # names the line that is off
    resembles: Callable | None = None
    # near_misses: the formats close to this one that its ``read`` recognises and refuses with what
    # to do (``resembles`` sends them to it): named when no reader takes a file
    near_misses: tuple[str, ...] = ()


def annotate_text(text: str, tokens, char_spans, where: str, options: ReadOptions, unit: str = "codepoint",
                  covered=None):
    """``AnnotatedText`` of ``text`` with ``char_spans`` ``(start, end, label, where)`` whose
    offsets count ``unit`` (``options.offsets`` wins when given); ``tokens``: code-point offsets,
    or None for ``options.tokenizer`` / ``tokenize``; ``covered``: what the file says each span
    covers (None: it does not say), checked with ``check_covered``. A span off token boundaries
    (or off its covered text) that would fit counted in another unit says so (``--offsets utf16``)."""

    unit = options.offsets or unit
    if tokens is None and options.tokenizer is not None:
        tokens = options.tokenizer(text)
    try:
        return _annotate_in(unit, text, tokens, char_spans, covered, where, options.widen)
    except ValueError as error:
        hint = _other_unit(text, tokens, char_spans, covered, unit, where)
        if hint is None:
            raise
        raise ValueError(f"{error}; {hint}") from None


def check_covered(where: str, said, text: str, start: int, end: int) -> None:
    """Refuse a span whose file says it covers ``said`` when ``text[start:end]`` (code points)
    is not that: its offsets are off, and it would be scored on the wrong tokens.

    Parameters
    ----------
    where : str
        The file and line (or record) of the span, for the error.
    said : str or None
        The covered text the file gives (None: the file gives none, nothing to check).
    text : str
        The text the offsets point into.
    start, end : int
        The span's code-point offsets, end exclusive.

    Raises
    ------
    ValueError
        The covered text differs from the text at the offsets.

    Examples
    --------
    >>> check_covered("doc.ann line 1", "Ada", "Ada met Bob", 0, 3)
    >>> check_covered("doc.ann line 2", "Bob", "Ada met Bob", 4, 7)
    Traceback (most recent call last):
    ...
    ValueError: doc.ann line 2: the annotation says 'Bob' but the text at 4-7 is 'met'
    """
    if said is not None and said != text[start:end]:
        raise ValueError(f"{where}: the annotation says {said!r} but the text at {start}-{end} is {text[start:end]!r}")


def _in_code_points(text: str, char_spans, unit: str) -> list:

    table = offset_table(text, unit)
    return [(convert_offset(start, table, unit, f"{span_where}: span {(start, end, label)!r}"),
             convert_offset(end, table, unit, f"{span_where}: span {(start, end, label)!r}"), label, span_where)
            for start, end, label, span_where in char_spans]


def _annotate_in(unit: str, text: str, tokens, char_spans, covered, where: str, widen: bool):
    """``annotate`` with the offsets counted in ``unit``, after ``check_covered`` of each span."""
    spans = _in_code_points(text, char_spans, unit)
    if covered is not None:  # one per span
        for (start, end, _, span_where), said in zip(spans, covered, strict=True):
            check_covered(span_where, said, text, start, end)
    return annotate(text, tokens, spans, where, widen)


def _other_unit(text: str, tokens, char_spans, covered, unit: str, where: str) -> str | None:
    """The hint for spans that fail counted in ``unit`` but fit counted in another unit."""

    if all(ord(char) <= 0xFFFF for char in text) and unit != "grapheme":
        return None
    for other in OFFSET_UNITS:
        if other == unit:
            continue
        try:
            _annotate_in(other, text, tokens, char_spans, covered, where, False)
        except ValueError:
            continue
        return (f"the offsets look like {other} units (the text has characters outside the Basic Multilingual "
                f"Plane): give --offsets {other}")
    return None


def first_json_value(text: str):
    """The first complete JSON value of ``text`` (None when it does not start one that is complete).

    Parameters
    ----------
    text : str
        The start of a file (``file_head`` decoded).

    Returns
    -------
    object or None
        The decoded value.

    Examples
    --------
    >>> first_json_value('{"id": 1, "data": {}} trailing')
    {'id': 1, 'data': {}}
    >>> first_json_value('{"id": 1, "da') is None
    True
    """
    try:
        return _DECODER.raw_decode(text.lstrip("\ufeff \t\r\n"))[0]
    except (json.JSONDecodeError, RecursionError):
        return None


def first_array_item(text: str):
    """The first element of the JSON array that ``text`` starts (None when ``text`` does not start
    an array, the array is empty, or its first element is not complete JSON)."""

    text = text.lstrip("\ufeff \t\r\n")
    return first_json_value(text[1:]) if text.startswith("[") else None


def _holds_first_record(head: bytes) -> bool:
    """Does ``head`` hold the file's first record whole: the first element of a JSON array, else
    the first line that is neither blank nor a ``#`` comment (a JSON Lines object, a column row)?
    XML is sniffed on its first bytes, and a binary file (a NUL byte early on) has no record."""

    if b"\x00" in head[:1024]:
        return True
    text = head.decode("utf-8-sig", errors="replace").lstrip()
    if text.startswith("<"):
        return True
    if text.startswith("["):
        return text[1:].lstrip().startswith("]") or first_array_item(text) is not None
    return any(line.strip() and not line.startswith("#") for line in text.split("\n")[:-1])


def file_head(path: Path) -> bytes:
    """What format detection looks at: the first ``HEAD_BYTES`` of ``path``, read on to the end of
    its first record (``_holds_first_record``) or of the file, so that one long document per line
    is sniffed whole; a folder has no head (``b""``).

    Parameters
    ----------
    path : Path
        The file (or folder) to detect.

    Returns
    -------
    bytes
        The file's first bytes, the first record complete.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> long = folder / "long.jsonl"
    >>> _ = long.write_text('{"text": "' + "a " * HEAD_BYTES + '"}\\n{"text": "b"}\\n')
    >>> file_head(long).count(b"\\n") >= 1
    True
    """

    if path.is_dir():
        return b""
    with path.open("rb") as handle:
        head = handle.read(HEAD_BYTES)
        while not _holds_first_record(head):
            more = handle.read(len(head))  # doubling: linear in the record's length
            if not more:
                break
            head += more
    return head


def split_at_line_breaks(texts: list) -> list[list]:
    r"""The ``AnnotatedText`` s of one text (the annotators of one task) cut into lines: at every
    line break between two tokens that no span of any of them crosses, the same cuts for all.

    Parameters
    ----------
    texts : list of AnnotatedText
        One per annotator, all of the same text and tokens (else none is cut).

    Returns
    -------
    list of list of (int or None, AnnotatedText)
        Per text, its pieces with the 1-based line of the text each starts on (None when the text
        is not cut).

    Examples
    --------
    >>> from chance_agreement.spans.annotated_text import annotate
    >>> text = "Ada met Bob.\nBob left.\nAda stayed in\nLondon."
    >>> alice = annotate(text, None, [(0, 3, "PER", "a"), (34, 43, "LOC", "a")], "alice")
    >>> [(line, piece.text, piece.spans) for line, piece in split_at_line_breaks([alice])[0]]
    [(1, 'Ada met Bob.', [(0, 1, 'PER')]), (2, 'Bob left.', []), (3, 'Ada stayed in\nLondon.', [(2, 4, 'LOC')])]
    """
    first = texts[0]
    tokens = first.tokens
    if any(t.text != first.text or t.tokens != tokens for t in texts[1:]):
        return [[(None, t)] for t in texts]
    crossing = [0] * (len(tokens) + 1)  # crossing[c]: spans holding tokens c - 1 and c (a difference array)
    for text in texts:
        for start, end, _ in text.spans:
            if end - start > 1:
                crossing[start + 1] += 1
                crossing[end] -= 1
    cuts, open_spans = [], 0
    for cut in range(1, len(tokens)):
        open_spans += crossing[cut]
        if not open_spans and "\n" in first.text[tokens[cut - 1][1]:tokens[cut][0]]:
            cuts.append(cut)
    if not cuts:
        return [[(None, t)] for t in texts]
    bounds = list(zip([0, *cuts], [*cuts, len(tokens)], strict=True))
    return [[_piece(text, a, b, index == 0) for index, (a, b) in enumerate(bounds)] for text in texts]


def _piece(annotated, first: int, stop: int, keep_widened: bool):
    """``(line, AnnotatedText)`` of tokens ``first`` to ``stop`` of ``annotated`` (its widened count
    on the first piece only)."""
    begin, end = annotated.tokens[first][0], annotated.tokens[stop - 1][1]
    line = annotated.text.count("\n", 0, begin) + 1
    tokens = [(a - begin, b - begin) for a, b in annotated.tokens[first:stop]]
    spans = [(s - first, e - first, label) for s, e, label in annotated.spans if first <= s and e <= stop]
    return line, AnnotatedText(annotated.text[begin:end], tokens, spans, f"{annotated.source} line {line}",
                               annotated.widened if keep_widened else 0)


def unit_of(annotated, key: str | None = None) -> Unit:
    """The ``Unit`` of an ``AnnotatedText`` (token strings cut from its text)."""
    return Unit([annotated.text[a:b] for a, b in annotated.tokens], annotated.source, spans=list(annotated.spans),
                text=annotated.text, key=key)


def warn_skipped(name: str, count: int, what: str) -> None:
    """One warning: ``count`` records of ``name`` left out, and why."""
    if count:
        warnings.warn(f"{name}: {count} {what} left out", SkippedRecordsWarning, stacklevel=3)


def read_text(path: Path, *, keep_bom: bool = False) -> str:
    """The UTF-8 text of ``path`` (a BOM is dropped unless ``keep_bom``: offsets into the text may
    count it); a byte that is not UTF-8 is a ValueError naming its line."""

    data = Path(path).read_bytes()
    try:
        return data.decode("utf-8" if keep_bom else "utf-8-sig")
    except UnicodeDecodeError:
        decode_lines(data, str(path))  # raises the error naming the line
        raise


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _lone_surrogate(value) -> str | None:
    """A lone surrogate (half of a UTF-16 pair: not text, cannot be written as UTF-8) in a string
    of the decoded JSON ``value``, else None."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError as error:
                return item[error.start]
        elif isinstance(item, dict):
            stack += [*item.keys(), *item.values()]
        elif isinstance(item, list):
            stack += item
    return None


def _refuse_lone_surrogates(source: str, value, path: Path, number: int | None = None) -> None:
    """Refuse JSON whose strings hold a lone surrogate (``\\ud800`` escapes decode to one), naming
    the line of its escape (``number``: the line ``source`` is): it would fail much later, writing
    the output, naming nothing."""
    bad = _lone_surrogate(value) if _SURROGATE_ESCAPE.search(source) else None
    if bad is None:
        return
    escape = f"\\u{ord(bad):04x}"
    if number is None:
        number = source.count("\n", 0, max(source.lower().find(escape), 0)) + 1
    raise ValueError(f"{path} line {number}: a string holds {escape}, half of a UTF-16 surrogate pair, which is "
                     f"not text; fix or remove it in the export")


def json_lines(path: Path):
    """``(line number, decoded object)`` of every non-blank line of a JSON Lines file; a line that
    is not JSON (or holds a lone surrogate) is a ValueError naming the file and line. Lines end at
    ``\\n`` only."""

    for number, line in enumerate(read_text(path).split("\n"), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise ValueError(f"{path} line {number}: not valid JSON ({error.msg})") from None
        except RecursionError:
            raise ValueError(f"{path} line {number}: JSON nested too deeply") from None
        _refuse_lone_surrogates(line, record, path, number)
        yield number, record


def json_document(path: Path):
    """The decoded JSON document in ``path``; not JSON (or a lone surrogate) is a ValueError
    naming the line."""

    text = read_text(path)
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"{path} line {error.lineno}: not valid JSON ({error.msg})") from None
    except RecursionError:
        raise ValueError(f"{path}: JSON nested too deeply") from None
    _refuse_lone_surrogates(text, document, path)
    return document


def group_by_annotator(records, name_of, source: str, fallback: str) -> list[Annotator]:
    """``Annotator`` s from ``(annotator id or None, Unit)`` pairs, in order of first appearance;
    records without an id belong to one annotator named ``fallback`` (the file's name)."""
    groups: dict = {}
    for annotator, unit in records:
        groups.setdefault(annotator, []).append(unit)
    return [Annotator(fallback if key is None else str(name_of(key)), source, units, named_by_file=key is None)
            for key, units in groups.items()]


__all__ = [
    "BOM",
    "CROSSING",
    "HEAD_BYTES",
    "OFFSET_UNITS",
    "Annotator",
    "ReadOptions",
    "Reader",
    "SkippedRecordsWarning",
    "TokenSpan",
    "Unit",
    "annotate_text",
    "check_covered",
    "file_head",
    "first_array_item",
    "first_json_value",
    "group_by_annotator",
    "json_document",
    "json_lines",
    "read_text",
    "split_at_line_breaks",
    "unit_of",
    "warn_skipped",
]
