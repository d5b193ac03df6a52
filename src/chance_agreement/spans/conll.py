"""Reading CoNLL-style column files: one token per line, blank line between sentences.

Columns are separated by whitespace (tabs or spaces); ``-DOCSTART-`` lines are document markers
and are skipped. ``"-"`` reads standard input.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import IO, Iterable


def _lines(source) -> Iterable[str]:
    if source == "-" or source is None:
        return sys.stdin
    if isinstance(source, (str, Path)):
        return Path(source).read_text(encoding="utf-8").splitlines()
    return source  # an open text file


def read_columns(source) -> list[list[list[str]]]:
    """Sentences as lists of rows (each row the line's columns); every row has the same width."""
    sentences: list[list[list[str]]] = []
    current: list[list[str]] = []
    width = None
    for number, line in enumerate(_lines(source), start=1):
        fields = line.split()
        if not fields or fields[0] == "-DOCSTART-":
            if current:
                sentences.append(current)
                current = []
            continue
        if width is None:
            width = len(fields)
        elif len(fields) != width:
            raise ValueError(f"line {number}: expected {width} columns like the first line, found {len(fields)}")
        current.append(fields)
    if current:
        sentences.append(current)
    if not sentences:
        raise ValueError("empty input: no token lines found")
    return sentences


def read_conll(source, reference_column: int = 1, prediction_columns=(-1,)):
    """``(tokens, references, [predictions per prediction column])`` from a column file.

    Default layout: ``token reference prediction`` (the prediction is the last column).
    """
    sentences = read_columns(source)
    width = len(sentences[0][0])
    for column in (reference_column, *prediction_columns):
        if not -width <= column < width:
            raise ValueError(f"column {column} does not exist: the file has {width} columns")
    tokens = [[row[0] for row in sentence] for sentence in sentences]
    references = [[row[reference_column] for row in sentence] for sentence in sentences]
    predictions = [[[row[column] for row in sentence] for sentence in sentences] for column in prediction_columns]
    return tokens, references, predictions


def write_conll(handle: IO[str], tokens, references, predictions) -> None:
    """Write ``token reference prediction`` lines with a blank line after each sentence."""
    for sentence_tokens, sentence_refs, sentence_preds in zip(tokens, references, predictions):
        for row in zip(sentence_tokens, sentence_refs, sentence_preds):
            handle.write(" ".join(row) + "\n")
        handle.write("\n")
