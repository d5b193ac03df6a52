"""Sentences from any Arrow stream, batch by batch: DuckDB, polars, pandas, pyarrow, Daft.

Every engine that hands out the Arrow PyCapsule stream interface (an object with
``__arrow_c_stream__``: a DuckDB relation, a polars or pandas (>= 2.2) DataFrame, a pyarrow Table or
RecordBatchReader, a Daft DataFrame) can be read here without a copy of the whole table:
``pyarrow.RecordBatchReader.from_stream`` pulls one record batch at a time, and each batch becomes
Python lists of tags for ``ChanceF1State.update``. The state adds its statistics exactly, so the
result equals ``chance_f1`` on all the rows, bit for bit, whatever the batch sizes.

Columns are checked once, from the stream's schema, before any row is read: a missing column names
the columns there are, a column that is not a list of strings per row names its Arrow type. A null
sentence or a null tag names its row (counted from 0 over the whole stream) and position.

pyarrow comes with ``datasets``, a dependency of the package; it is imported when a stream is read.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

__all__ = ["arrow_sentences"]


def _stream_reader(source: Any):
    """A ``pyarrow.RecordBatchReader`` over ``source``'s Arrow stream."""
    import pyarrow as pa

    if isinstance(source, pa.RecordBatchReader):
        return source
    if not hasattr(source, "__arrow_c_stream__"):
        raise TypeError(
            "source must be an Arrow stream (an object with __arrow_c_stream__: a DuckDB relation, a polars or "
            f"pandas DataFrame, a pyarrow Table or RecordBatchReader), got {type(source).__name__}"
        )
    return pa.RecordBatchReader.from_stream(source)


def _is_text(arrow_type) -> bool:
    import pyarrow.types as types

    return types.is_string(arrow_type) or types.is_large_string(arrow_type) or types.is_string_view(arrow_type)


def _is_list(arrow_type) -> bool:
    import pyarrow.types as types

    return any(check(arrow_type) for check in (types.is_list, types.is_large_list, types.is_list_view,
                                               types.is_large_list_view, types.is_fixed_size_list))


def _check_columns(schema, tags: dict[str, str], document_ids: str | None) -> None:
    """Every named column is there and of the right Arrow type (ValueError / TypeError naming it)."""
    import pyarrow.types as types

    names = list(schema.names)
    for option, column in (*tags.items(), ("document_ids", document_ids)):
        if column is None:
            continue
        if not isinstance(column, str):
            raise TypeError(f"{option} must be a column name (a string), got {column!r}")
        if column not in names:
            raise ValueError(f"the stream has no column {column!r} ({option}=); its columns are {names}: "
                             f"pass {option}='<column>'")
    for option, column in tags.items():
        arrow_type = schema.field(column).type
        if not (_is_list(arrow_type) and _is_text(arrow_type.value_type)):
            raise TypeError(f"column {column!r} ({option}=) is {arrow_type}; expected one list of string tags "
                            f"per sentence (list<string>)")
    if document_ids is not None:
        arrow_type = schema.field(document_ids).type
        if not (types.is_integer(arrow_type) or _is_text(arrow_type)):
            raise TypeError(f"column {document_ids!r} (document_ids=) is {arrow_type}; expected integers or strings")


def _column_values(batch, column: str, first_row: int, tags: bool) -> list:
    """One column of a batch as Python values; a null sentence or tag raises naming row and position."""
    values = batch.column(column).to_pylist()
    for offset, value in enumerate(values):
        row = first_row + offset
        if value is None:
            raise ValueError(f"column {column!r}, row {row}: null; give every row a value (an empty list for a "
                             "sentence without tokens)")
        if tags and None in value:
            raise ValueError(f"column {column!r}, row {row}, position {value.index(None)}: null tag; every token "
                             "needs a tag ('O' outside entities)")
    return values


def arrow_sentences(source: Any, *, predictions: str = "predictions", references: str = "references",
                    document_ids: str | None = None) -> Iterator[tuple[list, list, list | None]]:
    """``(predictions, references, document_ids or None)`` of each record batch of an Arrow stream.

    Parameters
    ----------
    source : object with ``__arrow_c_stream__``
        A DuckDB relation, a polars or pandas DataFrame, a pyarrow Table or RecordBatchReader, ...
    predictions, references : str
        The columns holding each sentence's predicted and reference tags (Arrow ``list<string>``,
        any list or string flavour).
    document_ids : str, optional
        A column of integer or string document ids (the Poisson bootstrap's keys).

    Yields
    ------
    tuple of (list of list of str, list of list of str, list or None)
        One batch's sentences, in the stream's order.

    Raises
    ------
    TypeError
        ``source`` is not an Arrow stream, or a column is of the wrong Arrow type.
    ValueError
        A column is missing, or a row holds a null sentence or tag.

    Examples
    --------
    >>> import pyarrow as pa
    >>> table = pa.table({"predictions": [["B-PER", "O"]], "references": [["B-PER", "B-LOC"]]})
    >>> [batch for batch in arrow_sentences(table)]
    [([['B-PER', 'O']], [['B-PER', 'B-LOC']], None)]
    """
    reader = _stream_reader(source)
    columns = {"predictions": predictions, "references": references}
    _check_columns(reader.schema, columns, document_ids)
    row = 0
    for batch in reader:
        if batch.num_rows == 0:
            continue
        predicted = _column_values(batch, predictions, row, tags=True)
        reference = _column_values(batch, references, row, tags=True)
        ids = None if document_ids is None else _column_values(batch, document_ids, row, tags=False)
        yield predicted, reference, ids
        row += batch.num_rows
