"""Score a Spark DataFrame where it lives: one ``ChanceF1State`` per partition, merged exactly.

``DataFrame.mapInArrow`` hands each partition to a Python worker as a stream of Arrow record batches;
the worker reads the stream into one state with ``ChanceF1State.from_arrow`` and returns it as one row
of strict JSON. The driver collects one short string per partition and merges them in a balanced tree
(``ChanceF1State.merge``: integer counts and exact sums, so the result is bit-identical to
``chance_f1`` on the collected rows, whatever the partitioning, the batch size
(``spark.sql.execution.arrow.maxRecordsPerBatch``) and the order). Only the DataFrame API is used, so
it runs on a classic session and through Spark Connect alike.

The package does not depend on Spark: ``df`` is the caller's DataFrame, and its methods are the only
ones called here. Each executor needs ``chance_agreement`` installed (the functions shipped to it are
this module's, pickled by reference).
"""

from __future__ import annotations

import re
from functools import partial
from typing import Any

from .chance_state import ChanceF1State

__all__ = ["spark_chance_f1", "spark_chance_state"]

STATE_COLUMN = "chance_f1_state_json"


def _partition_state(batches, *, options: dict, columns: dict):
    """``mapInArrow``: the record batches of one partition -> one batch holding its state's JSON."""
    import pyarrow as pa

    batches = iter(batches)
    first = next(batches, None)
    if first is None:  # an empty partition gives no row
        return

    def stream():
        yield first
        yield from batches

    reader = pa.RecordBatchReader.from_batches(first.schema, stream())
    state = ChanceF1State.from_arrow(reader, **columns, **options)
    yield pa.RecordBatch.from_pydict({STATE_COLUMN: [state.to_json()]})


_WORKER_ERROR = re.compile(r"^(ValueError|TypeError): (.+)$", re.MULTILINE)


def _worker_error(text: str) -> tuple[type[Exception], str] | None:
    """The last ``ValueError``/``TypeError`` line of a Python worker's traceback inside Spark's error."""
    matches = _WORKER_ERROR.findall(text)
    if not matches:
        return None
    kind, message = matches[-1]
    return (ValueError if kind == "ValueError" else TypeError), message


def _tree_merge(states: list[ChanceF1State]) -> ChanceF1State:
    """Merge in a balanced tree (pairs, then pairs of pairs): depth log2 of the number of states."""
    while len(states) > 1:
        states = [states[i].merge(states[i + 1]) if i + 1 < len(states) else states[i]
                  for i in range(0, len(states), 2)]
    return states[0]


def spark_chance_state(df: Any, *, predictions: str = "predictions", references: str = "references",
                       document_ids: str | None = None, **options) -> ChanceF1State:
    """The merged ``ChanceF1State`` of every row of a Spark DataFrame.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        One row per sentence, with its predicted and reference tags in array-of-string columns.
    predictions, references : str
        The tag columns.
    document_ids : str, optional
        A column of integer or string document ids: the Poisson bootstrap's keys. Required with
        ``confidence_level`` (a partition does not know its rows' positions in the DataFrame).
    **options
        ``ChanceF1State``'s options (``level``, ``levels``, ``model``, ``scheme``, ``mode``,
        ``suffix``, ``confidence_level``, ``n_resamples``, ``random_state``, ``resampling``,
        ``contingency_views``), checked here once, before Spark runs anything.

    Returns
    -------
    ChanceF1State
        Its ``result()`` equals ``chance_f1`` on all the rows, bit for bit.

    Raises
    ------
    ValueError
        A column is missing (the message lists the DataFrame's columns), intervals without
        ``document_ids``, a DataFrame without rows, or bad tags (named by the record batch's first
        row within its partition and the sentence within the batch).
    TypeError
        A tag column that is not an array of strings.

    Examples
    --------
    On a local Spark of one core (``getOrCreate`` joins a running session instead), one DataFrame
    in three partitions, the same bits as ``chance_f1`` on the collected rows:

    >>> import os, sys
    >>> from pyspark.sql import SparkSession
    >>> from chance_agreement import chance_f1
    >>> os.environ["PYSPARK_PYTHON"] = sys.executable  # workers need an interpreter with the package
    >>> spark = (SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false")
    ...          .config("spark.sql.shuffle.partitions", "1").getOrCreate())
    >>> references = [["B-PER", "I-PER", "O"], ["O", "B-LOC", "O"], ["B-ORG", "O", "O"]]
    >>> predictions = [["B-PER", "I-PER", "O"], ["O", "B-LOC", "I-LOC"], ["B-ORG", "O", "O"]]
    >>> df = spark.createDataFrame(list(zip(predictions, references)),
    ...                            "predictions array<string>, references array<string>").repartition(3)
    >>> state = spark_chance_state(df, level="entity")
    >>> state.result() == chance_f1(predictions, references, level="entity")
    True
    >>> spark.stop()
    """
    options = ChanceF1State(**options).options()  # checked once; a drawn seed is fixed for every partition
    if options["confidence_level"] is not None and document_ids is None:
        raise ValueError("Poisson intervals need document_ids (a column of document ids): a Spark partition does "
                         "not know the positions of its rows")
    names = list(df.columns)
    for option, column in (("predictions", predictions), ("references", references), ("document_ids", document_ids)):
        if column is not None and column not in names:
            raise ValueError(f"the DataFrame has no column {column!r} ({option}=); its columns are {names}")
    columns = {"predictions": predictions, "references": references, "document_ids": document_ids}
    selected = df.select(*[column for column in columns.values() if column is not None])
    work = partial(_partition_state, options=options, columns=columns)
    try:
        rows = selected.mapInArrow(work, schema=f"{STATE_COLUMN} string").collect()
    except Exception as error:  # a worker's bad-input error comes back inside Spark's own exception
        found = _worker_error(str(error))
        if found is None:
            raise
        kind, message = found
        raise kind(f"a Spark task: {message}") from None
    if not rows:
        raise ValueError("the DataFrame has no rows: nothing to score")
    return _tree_merge([ChanceF1State.from_json(row[STATE_COLUMN]) for row in rows])


def spark_chance_f1(df: Any, *, zero_division="warn", **options) -> dict:
    """``chance_f1`` of every row of a Spark DataFrame, computed where the data live.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        One row per sentence (see ``spark_chance_state``).
    zero_division : "warn", 0 or 1
        As in ``chance_f1``.
    **options
        ``spark_chance_state``'s column names and options.

    Returns
    -------
    dict
        ``chance_f1``'s result (without per-sentence scores), bit for bit.

    Examples
    --------
    >>> import os, sys
    >>> from pyspark.sql import SparkSession
    >>> os.environ["PYSPARK_PYTHON"] = sys.executable  # workers need an interpreter with the package
    >>> spark = (SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false")
    ...          .config("spark.sql.shuffle.partitions", "1").getOrCreate())
    >>> df = spark.createDataFrame([(["B-PER", "O"], ["B-PER", "O"]), (["O", "B-LOC"], ["O", "O"])],
    ...                            "predictions array<string>, references array<string>")
    >>> result = spark_chance_f1(df, level="entity", zero_division=0)
    >>> result["overall_f1"], result["overall_corrected_f1"]
    (0.6666666666666666, 0.49999999999999994)
    >>> spark.stop()
    """
    return spark_chance_state(df, **options).result(zero_division=zero_division)
