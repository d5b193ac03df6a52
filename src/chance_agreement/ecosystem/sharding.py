"""Score a corpus shard by shard and merge exactly.

Every score of ``chance_f1`` is a ratio of sums over sentences and types of additive statistics
(``ChanceStatistics``: per type true positives, predicted and reference spans, overlap, expected
overlap, a1 + a2, expected matches; correct and total tokens). So sentences can be processed
anywhere (``datasets.Dataset.map(..., num_proc=N)``, several machines), stored as JSON strings
and summed afterwards:

    stats = dataset.map(sentence_statistics_batch, batched=True, num_proc=4,
                        remove_columns=dataset.column_names)
    result = scores_from_shards(stats["statistics"])

The merged result equals ``chance_f1(predictions, references)`` bit for bit, whatever the order
of the rows and however they are grouped into shards (counts are integers and expectations exact
sums, see ``_numerics.exact_sum``).

Rows are strict JSON (no NaN) and self-describing: ``{"format": ..., "model": ..., "levels": [...],
"fields": [...], "per_type": {type: [one number per field]}, "correct_tokens": ...,
"total_tokens": ...}`` plus ``"partials"`` for pre-summed shard totals. Merging checks every row
(format, field list, vector lengths, non-negative integer counts, finite expectations) and refuses
rows of different models or levels, with a ValueError naming the item.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from ..chance.corrected_f1 import corpus_statistics, scores_from_statistics
from ..chance.statistics import LEVELS, ChanceStatistics
from .chance_state import strict_json


def sentence_statistics_batch(
    batch: dict,
    *,
    level: str = "token",
    scheme=None,
    mode=None,
    suffix: bool = False,
    model: str = "non_overlapping",
    predictions_column: str = "predictions",
    references_column: str = "references",
) -> dict[str, list[str]]:
    """A batched ``Dataset.map`` function: ``{"statistics": [one JSON string per sentence]}``.

    Options as in ``chance_f1``; pass them with ``fn_kwargs``. In strict mode give ``scheme``:
    detecting it shard by shard could disagree with the whole corpus, so that raises ValueError.
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {list(LEVELS)}, got {level!r}")
    if mode == "strict" and scheme is None:
        raise ValueError("strict mode needs an explicit scheme when sharding (per-shard detection could differ)")
    for column in (predictions_column, references_column):
        if column not in batch:
            raise ValueError(f"the batch has no column {column!r} (columns: {sorted(batch)})")
    _, sentences = corpus_statistics(
        batch[predictions_column], batch[references_column],
        scheme=scheme, mode=mode, suffix=suffix, model=model, levels=(level,),
    )
    return {"statistics": [json.dumps(stats.to_dict(), allow_nan=False) for stats in sentences]}


def merge_statistics(items: Iterable) -> ChanceStatistics:
    """The exact sum of ``ChanceStatistics``, their ``to_dict()`` dicts or JSON strings of those.

    Every item is checked; a malformed item, or items of different models or levels, raise
    ValueError naming the (0-based) item.
    """
    total = ChanceStatistics()
    count = 0
    for index, item in enumerate(items):
        try:
            if isinstance(item, (str, bytes)):
                item = strict_json(item)
            if isinstance(item, dict):
                item = ChanceStatistics.from_dict(item)
            if not isinstance(item, ChanceStatistics):
                raise ValueError(f"expected ChanceStatistics, a dict or a JSON string, got {type(item).__name__}")
            total = total + item
        except ValueError as error:
            raise ValueError(f"item {index}: {error}") from None
        count += 1
    if count == 0:
        raise ValueError("no statistics to merge")
    return total


def scores_from_shards(items: Iterable, *, level: str = "token", zero_division="warn") -> dict:
    """``chance_f1``'s result (without sentence scores) from merged per-sentence or per-shard statistics."""
    return scores_from_statistics(merge_statistics(items), level, zero_division)


__all__ = ["merge_statistics", "scores_from_shards", "sentence_statistics_batch"]
