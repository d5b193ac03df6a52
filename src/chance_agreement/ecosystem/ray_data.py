"""Score a Ray Dataset where it lives: per-block ``ChanceF1State`` in the workers, merged by Ray's
aggregation API (``Dataset.aggregate`` with an ``AggregateFnV2``), the same numbers as ``chance_f1``.

    import ray
    from chance_agreement.ecosystem.ray_data import ray_chance_f1, ray_chance_state

    ds = ray.data.read_parquet("annotations/")       # columns: predictions, references (tag lists), doc_id
    ray_chance_f1(ds, zero_division=0)                # == chance_f1(all predictions, all references, zero_division=0)
    state = ray_chance_state(ds, levels=("token", "entity"), contingency_views=("all",),
                             confidence_level=0.95, resampling="poisson", random_state=0, id_column="doc_id")
    state.result(level="entity"); state.contingency_report()

Each batch of rows becomes one ``ChanceF1State`` in a worker (``map_batches``, ``batch_size`` rows
at a time, streamed), carried as its strict JSON; Ray's aggregation (``ChanceF1Aggregation``)
merges them: ``aggregate_block`` the states of one block, ``combine`` two accumulators. Counts are integers,
expectations exact sums and the Poisson bootstrap's sums exact integers (``chance.poisson_bootstrap``), so every number
is bit-identical to ``chance_f1`` on the collected rows, whatever the number of blocks or workers and
the order Ray combines them in. Memory per worker holds one batch and one state (whose size
depends on the entity types and resamples, never on the rows). (The states are computed in
``map_batches`` rather than in ``aggregate_block`` itself because Ray's shuffle map stage gathers
input blocks up to ``DataContext.shuffle_input_batch_bytes``, 1 GiB, before aggregating: that would
put whole corpora of compact Parquet tags into one task.)

Columns: ``predictions_column`` and ``references_column`` hold tag sequences, or, with
``lengths_column`` (tokens per sentence), each annotator's ``{"start", "end", "label"}`` token spans
(``span_chance_f1``'s input). Poisson intervals need ``id_column`` (an int or str per row, the
document id the weights depend on): a Ray block does not know its rows' positions. Ray is the
optional extra ``ray`` (``pip install ".[ray]"`` in a clone).
"""

from __future__ import annotations

from ..spans.nested import tags_from_spans
from .chance_state import ChanceF1State

try:  # Ray is optional: the module imports without it, its functions say how to install it
    from ray.data.aggregate import AggregateFnV2
    from ray.data.block import BlockAccessor
except ImportError:  # pragma: no cover - exercised only without the extra
    AggregateFnV2 = BlockAccessor = None

AGGREGATION_NAME = "chance_f1_state"
STATE_COLUMN = "chance_f1_state_json"
BATCH_ROWS = 10_000  # sentences a worker scores at once (about 40 MB of Python objects at 14 tokens each)
# Tries of a batch whose worker dies (Ray Data's own default retries a task forever: a batch that kills
# its worker, out of memory say, would never end); an error the code raises is never retried.
MAX_RETRIES = 3


def _require_ray() -> None:
    if AggregateFnV2 is None:
        raise ImportError('the Ray adapter needs Ray Data: pip install "ray[data]"')


def _python_lists(table, name: str) -> list:
    """A column as Python values; tag lists stored dictionary-encoded (as Parquet readers may give
    them) are cast to plain strings first (``to_pylist`` of dictionary values is 25x slower)."""
    import pyarrow as pa

    column = table.column(name)
    kind = column.type
    if (pa.types.is_list(kind) or pa.types.is_large_list(kind)) and pa.types.is_dictionary(kind.value_type):
        column = column.cast(pa.list_(kind.value_type.value_type))
    return column.to_pylist()


def table_state(table, *, predictions_column: str = "predictions", references_column: str = "references",
                lengths_column: str | None = None, id_column: str | None = None, **options) -> ChanceF1State:
    """The ``ChanceF1State`` of a pyarrow Table's rows (one Ray block, one Spark ``mapInArrow`` batch, one
    Parquet row group), columns and ``options`` as ``ray_chance_state``; bad input raises the error
    of ``ChanceF1State.update`` prefixed with the rows' ids."""
    state = ChanceF1State(**options)
    if table.num_rows == 0:
        return state
    predictions, references = _python_lists(table, predictions_column), _python_lists(table, references_column)
    ids = table.column(id_column).to_pylist() if id_column else None
    where = f"a block of {table.num_rows} rows" + (f" (ids {ids[0]!r} .. {ids[-1]!r})" if ids else "")
    try:
        if lengths_column:
            lengths = table.column(lengths_column).to_pylist()
            predictions = tags_from_spans(predictions, lengths, role=predictions_column)
            references = tags_from_spans(references, lengths, role=references_column)
        return state.update(predictions, references, document_ids=ids if state.bootstrap is not None else None)
    except (ValueError, TypeError) as error:
        raise type(error)(f"{where}: {error}") from None


def _batch_states(batch, *, options: dict, columns: dict) -> dict:
    """``map_batches``: one row holding the JSON state of a batch of rows."""
    return {STATE_COLUMN: [table_state(batch, **columns, **options).to_json()]}


if AggregateFnV2 is not None:

    class ChanceF1Aggregation(AggregateFnV2):
        """``Dataset.aggregate(ChanceF1Aggregation(options))`` over a column of state JSON strings
        -> ``{AGGREGATION_NAME: the merged state's JSON}``.

        The accumulator is a ``ChanceF1State``'s JSON string (what Ray stores and ships between
        workers): ``aggregate_block`` merges the states of one block, ``combine`` two accumulators."""

        def __init__(self, options: dict):
            self._options = dict(options)
            super().__init__(name=AGGREGATION_NAME, zero_factory=self.zero, on=STATE_COLUMN, ignore_nulls=False)

        def zero(self) -> str:
            return ChanceF1State(**self._options).to_json()

        def aggregate_block(self, block) -> str:
            merged = ChanceF1State(**self._options)
            for text in BlockAccessor.for_block(block).to_arrow().column(STATE_COLUMN).to_pylist():
                merged = merged.merge(ChanceF1State.from_json(text))
            return merged.to_json()

        def combine(self, current_accumulator: str, new: str) -> str:
            return ChanceF1State.from_json(current_accumulator).merge(ChanceF1State.from_json(new)).to_json()


def _checked_columns(dataset, columns: dict) -> None:
    schema = dataset.schema()
    if schema is None:  # ray.data.from_items([]) and other datasets without a block
        raise ValueError("the dataset has no rows: nothing to score")
    names = schema.names
    missing = [column for column in columns.values() if column and column not in names]
    if missing:
        raise ValueError(f"the dataset has no column {missing[0]!r} (columns: {names})")


def ray_chance_state(dataset, *, predictions_column: str = "predictions", references_column: str = "references",
                     lengths_column: str | None = None, id_column: str | None = None,
                     batch_size: int = BATCH_ROWS, max_retries: int = MAX_RETRIES, ray_remote_args: dict | None = None,
                     **options) -> ChanceF1State:
    """Compute the merged ``ChanceF1State`` of every row of a ``ray.data.Dataset``, where it lives.

    Each block is scored by a worker and the states are merged exactly (module docstring): the
    result equals ``chance_f1`` on all the rows, bit for bit.

    Parameters
    ----------
    dataset : ray.data.Dataset
        One row per sentence: a column of predicted and one of reference tag sequences (or span
        lists with ``lengths_column``).
    predictions_column, references_column : str
        The two columns (default ``"predictions"`` and ``"references"``).
    lengths_column : str, optional
        The sentence lengths, when the two columns hold ``(start, end, label)`` span lists.
    id_column : str, optional
        A document id per row; needed with intervals (Poisson resampling).
    batch_size : int, optional
        Rows scored at once by a worker (memory per worker grows with it, not with the dataset).
    max_retries : int, default MAX_RETRIES
        Times Ray retries a block whose worker died (then the error is raised, never an endless
        retry).
    ray_remote_args : dict, optional
        More arguments of the workers' tasks (``num_cpus``, ``memory``, ``runtime_env``, ...),
        passed to ``map_batches``.
    **options
        ``ChanceF1State``'s options (``level``, ``levels``, ``model``, ``scheme``, ``mode``,
        ``suffix``, ``confidence_level``, ``n_resamples``, ``random_state``, ``resampling``,
        ``contingency_views``); with intervals give an int ``random_state`` (else one is drawn
        here, once, and every batch uses it) and ``id_column``.

    Returns
    -------
    ChanceF1State
        The state of the whole dataset.

    Raises
    ------
    ImportError
        Ray Data is not installed (``pip install "ray[data]"``).
    ValueError
        A missing column, bad options, intervals without ``id_column``, tag options with span
        columns, or bad tags (naming the row).

    See Also
    --------
    ray_chance_f1 : The scores directly.
    ChanceF1State : The state and its options.

    Examples
    --------
    On a local cluster of one CPU (``ray.init`` starts it; on a real cluster, connect instead),
    five sentences in blocks of two rows, with document-keyed Poisson intervals:

    >>> import ray
    >>> from chance_agreement import chance_f1
    >>> _ = ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, logging_level="ERROR",
    ...              ignore_reinit_error=True)
    >>> references = [["B-PER", "I-PER", "O"], ["O", "B-LOC", "O"], ["B-ORG", "O", "O"], ["O", "O", "B-PER"],
    ...               ["B-LOC", "O", "B-LOC"]]
    >>> predictions = [["B-PER", "I-PER", "O"], ["O", "B-LOC", "I-LOC"], ["B-ORG", "O", "O"], ["O", "O", "O"],
    ...                ["B-LOC", "O", "B-PER"]]
    >>> rows = [{"predictions": p, "references": r, "doc": f"d{i // 2}"}
    ...         for i, (p, r) in enumerate(zip(predictions, references))]
    >>> dataset = ray.data.from_items(rows).repartition(3)
    >>> options = dict(confidence_level=0.95, resampling="poisson", random_state=0, n_resamples=200)
    >>> state = ray_chance_state(dataset, batch_size=2, id_column="doc", **options)
    >>> result = state.result(zero_division=0)
    >>> result == chance_f1(predictions, references, document_ids=[row["doc"] for row in rows], zero_division=0,
    ...                     **options)
    True
    >>> low, high = result["overall_corrected_f1_ci"]
    >>> bool(low <= result["overall_corrected_f1"] <= high)
    True
    >>> ray.shutdown()
    """
    _require_ray()
    if isinstance(max_retries, bool) or not isinstance(max_retries, int) or max_retries < -1:
        raise ValueError(f"max_retries must be a whole number >= 0 (or -1: forever), got {max_retries!r}")
    remote = dict(ray_remote_args or {})
    if "max_retries" in remote:
        raise ValueError("give max_retries as its own argument, not in ray_remote_args")
    options = ChanceF1State(**options).options()  # checked here, once; the seed is fixed for every block
    if options["confidence_level"] is not None and id_column is None:
        raise ValueError("Poisson intervals need id_column (a document id per row): Ray blocks do not know the "
                         "positions of their rows")
    if lengths_column is not None and (options["scheme"] or options["mode"] or options["suffix"]):
        raise ValueError("scheme, mode and suffix are tag options and do not apply to span columns")
    columns = {"predictions_column": predictions_column, "references_column": references_column,
               "lengths_column": lengths_column, "id_column": id_column}
    _checked_columns(dataset, columns)
    states = dataset.map_batches(_batch_states, batch_format="pyarrow", batch_size=batch_size,
                                 fn_kwargs={"options": options, "columns": columns}, max_retries=max_retries,
                                 **remote)
    merged = states.aggregate(ChanceF1Aggregation(options))
    if merged is None or not isinstance(merged.get(AGGREGATION_NAME), str):
        raise ValueError("the dataset has no rows: nothing to score")
    return ChanceF1State.from_json(merged[AGGREGATION_NAME])


def ray_chance_f1(dataset, *, zero_division="warn", **options) -> dict:
    """Compute ``chance_f1``'s result on every row of a ``ray.data.Dataset``, bit for bit.

    ``span_chance_f1``'s result with ``lengths_column``.

    Parameters
    ----------
    dataset : ray.data.Dataset
        One row per sentence (see ``ray_chance_state``).
    zero_division : {"warn", 0, 1}, default "warn"
        The value of a 0/0 score.
    **options
        ``ray_chance_state``'s arguments (columns, batch size, ``ChanceF1State``'s options).

    Returns
    -------
    dict
        ``chance_f1``'s result.

    Raises
    ------
    ImportError
        Ray Data is not installed.
    ValueError
        As ``ray_chance_state``.

    See Also
    --------
    ray_chance_state : The mergeable state.

    Examples
    --------
    On a local cluster of one CPU, the same bits as ``chance_f1`` on the collected rows:

    >>> import ray
    >>> from chance_agreement import chance_f1
    >>> _ = ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, logging_level="ERROR",
    ...              ignore_reinit_error=True)
    >>> references = [["B-PER", "I-PER", "O"], ["O", "B-LOC", "O"], ["B-ORG", "O", "O"]]
    >>> predictions = [["B-PER", "I-PER", "O"], ["O", "B-LOC", "I-LOC"], ["B-ORG", "O", "O"]]
    >>> dataset = ray.data.from_items([{"predictions": p, "references": r} for p, r in zip(predictions, references)])
    >>> result = ray_chance_f1(dataset, batch_size=1)
    >>> result == chance_f1(predictions, references)
    True
    >>> round(result["overall_corrected_f1"], 4)
    0.75
    >>> ray.shutdown()
    """
    return ray_chance_state(dataset, **options).result(zero_division=zero_division)


__all__ = ["AGGREGATION_NAME", "ray_chance_f1", "ray_chance_state", "table_state"]
