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

__all__ = ["csv_cell", "csv_text", "interval_text", "markdown_cell", "markdown_table", "most_used"]

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


def interval_text(interval, digits: int = 4, confidence_level: float | None = None, bound=None) -> str | None:
    """An interval as people read it, labelled with its level: "95% interval 0.7560-0.8506" ("to"
    between the bounds when one is negative, so no minus sign reads as a dash); None for no
    interval (None: the model supports no corrected F1 in some resample).

    Parameters
    ----------
    interval : (low, high) or None
    digits : int, default 4
    confidence_level : float, optional
        Named in front ("95% interval"); without it only the bounds.
    bound : callable, optional
        ``bound(side, value, shown)`` -> the text of a bound (``side`` "low" or "high", ``shown``
        the rounded number), e.g. HTML around it; default the rounded number.

    Returns
    -------
    str or None

    Examples
    --------
    >>> interval_text([0.756, 0.85061], confidence_level=0.95)
    '95% interval 0.7560-0.8506'
    >>> interval_text([-0.125, 0.5], 2)
    '-0.12 to 0.50'
    """
    if interval is None or None in interval:
        return None
    low, high = interval
    between = "-" if low >= 0 and high >= 0 else " to "
    shown = [f"{value:.{digits}f}" for value in interval]
    if bound is not None:
        shown = [bound(side, value, text) for side, value, text in zip(("low", "high"), interval, shown, strict=True)]
    bounds = f"{shown[0]}{between}{shown[1]}"
    return bounds if confidence_level is None else f"{confidence_level:.0%} interval {bounds}"
