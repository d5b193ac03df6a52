"""Reading CoNLL-style column files: one token per line, blank line between sentences.

Columns are separated by whitespace (tabs or spaces); ``-DOCSTART-`` lines are document markers
and are skipped. ``"-"`` reads standard input. Files are UTF-8 (a BOM is dropped); every error
names the file and the 1-based line (``FILE: line N: problem``). A missing or unreadable file
raises the OSError ``open`` raises (it carries the file name).

CoNLL-U style: before a sentence's first token, comment lines ``# key = value`` (``# sent_id``,
``# text``, ``# global.columns``), ``# newdoc``, ``# newpar`` and ``#begin document``/``#end
document`` are read as comments (``sent_id`` and ``text`` are kept per sentence). Anywhere else a
line starting with ``#`` is a token line (``#`` is a token in tweets). When every sentence's first
column counts 1, 2, 3, ... (CoNLL-U's ID column, multiword ``1-2`` and empty ``1.1`` lines left
out), or ``# global.columns`` names ``FORM``, the tokens are that column.
"""

from __future__ import annotations

import re
import sys
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from .tags import effective_scheme, spans_from_tags

STDIN_NAME = "<stdin>"


def source_name(source) -> str:
    """How errors name a source: the path as given, ``<stdin>``, or an open file's name."""
    if source == "-" or source is None:
        return STDIN_NAME
    if isinstance(source, (str, Path)):
        return str(source)
    return str(getattr(source, "name", "<file>"))


def decode_lines(data: bytes, name: str) -> list[str]:
    """UTF-8 text lines of ``data``; a byte that is not UTF-8 is a ValueError naming its line."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise ValueError(f"{name}: line {line}: byte 0x{data[error.start]:02x} at column {column} "
                         f"is not UTF-8 (save the file as UTF-8)") from None
    return text.split("\n") if "\r" not in text else text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


COMMENT = re.compile(r"^#\s*(?:[\w.:-]+\s*=|newdoc\b|newpar\b|begin document\b|end document\b)")
_SUBWORD = re.compile(r"^\d+(?:-\d+|\.\d+)$")


def _lines(source) -> list[str]:
    name = source_name(source)
    if source == "-" or source is None:
        stream = sys.stdin.buffer if hasattr(sys.stdin, "buffer") else None
        return decode_lines(stream.read(), name) if stream is not None else sys.stdin.read().splitlines()
    if isinstance(source, (str, Path)):
        path = Path(source)
        if path.is_dir():
            raise IsADirectoryError(21, "is a folder, not a file", str(source))
        return decode_lines(path.read_bytes(), name)
    return [line.rstrip("\n") for line in source]  # an open text file


@dataclass(frozen=True)
class ColumnFile:
    """A column file: ``rows[s][t]`` = the columns of token t of sentence s, ``lines[s][t]`` its
    1-based line in the file, ``name`` how errors name the file."""

    name: str
    rows: list
    lines: list
    width: int
    token_column: int = 0
    sentence_ids: list = field(default_factory=list)  # ``# sent_id`` per sentence (None without)
    texts: list = field(default_factory=list)  # ``# text`` per sentence (None without)

    def column(self, index: int) -> list[list[str]]:
        """One column, sentence by sentence; ValueError naming the file if it does not exist."""
        if not -self.width <= index < self.width:
            raise ValueError(f"{self.name}: column {index} does not exist: the file has {self.width} columns "
                             f"(numbered 0 to {self.width - 1})")
        return [[row[index] for row in sentence] for sentence in self.rows]

    def resolve(self, index: int) -> int:
        """``index`` as a non-negative column number (after checking it exists)."""
        if not -self.width <= index < self.width:
            self.column(index)  # raises the error naming the file
        return index % self.width

    @property
    def tokens(self) -> list[list[str]]:
        return self.column(self.token_column)

    @property
    def tag_columns(self) -> list[int]:
        """The columns after the token column (every annotator's tags in a multi-column file)."""
        return list(range(self.token_column + 1, self.width))


def parse_column_spec(spec) -> tuple[str, int | None]:
    """``FILE`` or ``FILE:COLUMN`` (0-based column) -> (path, column or None); a file whose name
    really ends in ``:N`` is taken as it is."""
    path, sep, column = str(spec).rpartition(":")
    digits = column.lstrip("-")
    if sep and path and digits.isascii() and digits.isdigit() and not Path(spec).exists():
        return path, int(column)
    return str(spec), None


def _comment(line: str, metadata: dict) -> bool:
    """Whether ``line`` (at a sentence start) is a comment; ``key = value`` ones go into ``metadata``."""
    if not COMMENT.match(line):
        return False
    key, equals, value = line.lstrip("#").partition("=")
    if equals:
        metadata[key.strip()] = value.strip()
    return True


def _sentences(lines, name: str):
    """``(rows, lines, metadata)`` per sentence and the file's ``global.columns`` (see the docstring)."""
    current: list[list[str]] = []
    numbers: list[int] = []
    metadata: dict[str, str] = {}
    sentences, width, global_columns = [], None, None
    for number, line in enumerate(lines, start=1):
        fields = line.split()
        if not current and fields and _comment(line, metadata):
            global_columns = metadata.pop("global.columns", global_columns)
            continue
        if not fields or fields[0] == "-DOCSTART-":
            if current:
                sentences.append((current, numbers, metadata))
            current, numbers, metadata = [], [], {}
            continue
        if width is None:
            width = len(fields)
        elif len(fields) != width:
            raise ValueError(f"{name}: line {number}: expected {width} columns like the first line, "
                             f"found {len(fields)}")
        current.append(fields)
        numbers.append(number)
    if current:
        sentences.append((current, numbers, metadata))
    return sentences, width, global_columns


def _token_column(sentences, global_columns) -> int:
    """1 when the first column is CoNLL-U's ID (or ``global.columns`` puts FORM there), else 0."""
    if global_columns and "FORM" in global_columns.split():
        return global_columns.split().index("FORM")
    for rows, _, _ in sentences:
        ids = [row[0] for row in rows if not _SUBWORD.match(row[0])]
        if ids != [str(i) for i in range(1, len(ids) + 1)] or len(rows[0]) < 2:
            return 0
    return 1


def read_column_file(source) -> ColumnFile:
    """Read a column file (path, ``"-"`` for standard input, or an open text file)."""
    name = source_name(source)
    sentences, width, global_columns = _sentences(_lines(source), name)
    if not sentences:
        raise ValueError(f"{name}: empty input: no token lines found")
    token_column = _token_column(sentences, global_columns)
    if token_column:  # CoNLL-U: multiword and empty-node lines carry no tag of their own
        sentences = [([r for r in rows if not _SUBWORD.match(r[0])], [n for r, n in zip(rows, numbers, strict=True)
                      if not _SUBWORD.match(r[0])], metadata) for rows, numbers, metadata in sentences]
    return ColumnFile(name, [rows for rows, _, _ in sentences], [numbers for _, numbers, _ in sentences], width,
                      token_column, [m.get("sent_id") for _, _, m in sentences],
                      [m.get("text") for _, _, m in sentences])


def read_conll(source, reference_column: int = 1, prediction_columns=(-1,)):
    """``(tokens, references, [predictions per prediction column])`` from a column file.

    Default layout: ``token reference prediction`` (the prediction is the last column).
    """
    columns = read_column_file(source)
    references = columns.column(reference_column)
    predictions = [columns.column(column) for column in prediction_columns]
    return columns.tokens, references, predictions


def write_conll(handle: IO[str], tokens, references, predictions) -> None:
    """Write ``token reference prediction`` lines with a blank line after each sentence."""
    for sentence_tokens, sentence_refs, sentence_preds in zip(tokens, references, predictions, strict=True):
        for row in zip(sentence_tokens, sentence_refs, sentence_preds, strict=True):
            handle.write(" ".join(row) + "\n")
        handle.write("\n")


def check_column_tags(columns: ColumnFile, index: int, scheme=None, mode=None, suffix: bool = False) -> None:
    """Chunk every sentence of one tag column as ``spans_from_tags`` does; the first tag it cannot
    take is a ValueError naming the file, its 1-based line and the column. ``scheme`` is the
    already resolved scheme in strict mode (see ``tags.effective_scheme``)."""


    column = columns.column(index)
    for number, tags in enumerate(column):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the computation itself warns, once
            try:
                spans_from_tags(tags, scheme=scheme, mode=mode, suffix=suffix)
                continue
            except ValueError as error:
                message = str(error)
            # the shortest failing prefix ends at the tag at fault
            low, high = 0, len(tags) - 1
            while low < high:
                middle = (low + high) // 2
                try:
                    spans_from_tags(tags[: middle + 1], scheme=scheme, mode=mode, suffix=suffix)
                    low = middle + 1
                except ValueError as error:
                    high, message = middle, str(error)
        message = re.sub(r" at position \d+", "", message)
        if repr(tags[low]) not in message:
            message = f"tag {tags[low]!r}: {message}"
        raise ValueError(f"{columns.name}: line {columns.lines[number][low]}: column {index % columns.width}: "
                         f"{message}")


def column_scheme(columns: ColumnFile, index: int, scheme=None, mode=None, suffix: bool = False):
    """The scheme to chunk the file's tags with (``tags.effective_scheme``): in strict mode without
    a scheme, the one seqeval detects on column ``index``; an error names the file. Nothing is
    chunked."""
    try:
        return effective_scheme(columns.column(index) if mode == "strict" else (), scheme, mode, suffix)
    except ValueError as error:
        raise ValueError(f"{columns.name}: {error}") from None


def check_tag_columns(columns: ColumnFile, indices, scheme=None, mode=None, suffix: bool = False):
    """``check_column_tags`` on several columns of one file; returns the scheme used. In strict
    mode without a scheme it is detected, as seqeval does, from the first column given."""

    indices = list(indices)
    resolved = column_scheme(columns, indices[0], scheme, mode, suffix)
    for index in indices:
        check_column_tags(columns, index, resolved, mode, suffix)
    return resolved


@contextmanager
def lines_named(check: Callable[[], object]) -> Iterator[None]:
    """Chunk tags read from column files in the body, checking them only if it fails: a ValueError
    raised there is replaced by the one ``check()`` raises (``check_tag_columns``: the file, the
    1-based line and the column of the first bad tag), and stands when ``check()`` finds none (an
    error the line-by-line check cannot see, e.g. an entity crossing a sentence break). The tags
    are chunked once, and a bad one is still named by its file and line.

    Examples
    --------
    >>> from io import StringIO
    >>> from chance_agreement.spans.tags import corpus_spans
    >>> columns = read_column_file(StringIO("Ada B-PER\\nLovelace I-PER\\n\\nHe E-PER\\n"))
    >>> iob2 = column_scheme(columns, 1, "IOB2", "strict")
    >>> with lines_named(lambda: check_tag_columns(columns, [1], iob2, "strict")):
    ...     corpus_spans(columns.column(1), "tags", iob2, "strict")
    Traceback (most recent call last):
    ...
    ValueError: <file>: line 4: column 1: tag 'E-PER': Invalid token is found: E-PER. Allowed prefixes are: I|O|B.
    """
    try:
        yield
    except ValueError:
        try:
            check()
        except ValueError as located:
            raise located from None
        raise


def check_same_tokens(first: ColumnFile, other: ColumnFile) -> None:
    """Both files hold the same tokens in the same sentences; else a ValueError naming both files
    and the 1-based line of each where they part."""

    def where(columns: ColumnFile, sentence: int, token: int) -> str:
        if sentence >= len(columns.rows):
            return f"{columns.name} has only {len(columns.rows)} sentences"
        if token >= len(columns.rows[sentence]):
            return f"{columns.name} line {columns.lines[sentence][-1] + 1} ends sentence {sentence + 1}"
        return (f"{columns.name} line {columns.lines[sentence][token]} has "
                f"{columns.rows[sentence][token][columns.token_column]!r}")

    for sentence in range(max(len(first.rows), len(other.rows))):
        a = first.rows[sentence] if sentence < len(first.rows) else []
        b = other.rows[sentence] if sentence < len(other.rows) else []
        for token in range(max(len(a), len(b))):
            if token < len(a) and token < len(b) and a[token][first.token_column] == b[token][other.token_column]:
                continue
            raise ValueError(f"the files are not token-aligned: {where(first, sentence, token)}, "
                             f"{where(other, sentence, token)} (sentence {sentence + 1}, token {token + 1})")


__all__ = [
    "COMMENT",
    "STDIN_NAME",
    "ColumnFile",
    "check_column_tags",
    "check_same_tokens",
    "check_tag_columns",
    "column_scheme",
    "decode_lines",
    "lines_named",
    "parse_column_spec",
    "read_column_file",
    "read_conll",
    "source_name",
    "write_conll",
]
