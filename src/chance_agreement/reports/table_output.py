"""Tables that people open: Markdown (GitHub's table syntax) and CSV (spreadsheets).

Every command that writes a Markdown table or a CSV file goes through here, so names of
systems, annotators and types are made safe in one place:

- Markdown: ``|`` ends a cell, so a name ``a|b`` broke the row; a backslash escapes it. A
  backslash in the name is doubled first (so ``a\\|b`` stays itself), and a line break becomes
  ``<br>`` (a table row is one line).
- CSV: a spreadsheet runs a cell starting with ``=``, ``+``, ``-``, ``@`` (or a tab or carriage
  return) as a formula ("CSV injection", OWASP). Such a *text* cell gets a leading apostrophe,
  which spreadsheets show as text; numbers are written as they are (``-0.25`` stays a number).
"""

from __future__ import annotations

import csv
import io
import numbers

__all__ = ["csv_cell", "csv_text", "markdown_cell", "markdown_table", "most_used"]

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def most_used(categories: list, matrix: list, keep: int, always=None) -> tuple[list, list, int]:
    """The ``keep`` most used categories of a square count ``matrix`` (row plus column sums; the
    category ``always`` kept first), in their order: ``(categories, sub-matrix, number left out)``.
    A square table of many categories is shown this way; its full form stays in the JSON output."""
    if len(categories) <= keep:
        return list(categories), matrix, 0
    used = [row + column for row, column in zip(map(sum, matrix), map(sum, zip(*matrix, strict=True)), strict=True)]
    order = sorted(range(len(categories)), key=lambda i: (categories[i] != always, -used[i]))[:keep]
    order.sort()
    return [categories[i] for i in order], [[matrix[i][j] for j in order] for i in order], len(categories) - keep


def markdown_cell(text) -> str:
    """``text`` as one GitHub-Markdown table cell: ``\\`` and ``|`` escaped, line breaks as ``<br>``."""
    text = str(text).replace("\\", "\\\\").replace("|", "\\|")
    return text.replace("\r\n", "<br>").replace("\n", "<br>").replace("\r", "<br>")


def markdown_table(header, rows, *, left: int = 1) -> list[str]:
    """The lines of a Markdown table: ``header`` and ``rows`` are lists of cells (any values,
    shown with ``str``); the first ``left`` columns are left-aligned, the others right-aligned."""
    lines = ["| " + " | ".join(markdown_cell(cell) for cell in header) + " |",
             "|" + "|".join("---" if index < left else "---:" for index in range(len(header))) + "|"]
    lines += ["| " + " | ".join(markdown_cell(cell) for cell in row) + " |" for row in rows]
    return lines


def csv_cell(value):
    """A CSV cell: None as empty, numbers as they are, text starting like a formula behind an apostrophe."""
    if value is None:
        return ""
    if isinstance(value, (numbers.Number, bool)):
        return value
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def csv_text(header, rows) -> str:
    """The CSV file of ``header`` and ``rows`` (lists of cells), ``\\n`` line ends, cells by :func:`csv_cell`."""
    handle = io.StringIO()
    writer = csv.writer(handle, lineterminator="\n")
    writer.writerow([csv_cell(cell) for cell in header])
    writer.writerows([csv_cell(cell) for cell in row] for row in rows)
    return handle.getvalue()
