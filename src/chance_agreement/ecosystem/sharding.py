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
    """Compute per-sentence statistics of a batch, as a batched ``Dataset.map`` function.

    Parameters
    ----------
    batch : dict
        A batch of a ``datasets.Dataset``: a column of predicted and one of reference tag
        sequences.
    level : {"token", "entity"}, default "token"
        The level whose expectations are computed.
    scheme : str, optional
        As in seqeval. In strict mode give it: detecting it shard by shard could disagree with the
        whole corpus, so that raises ValueError.
    mode : {None, "strict"}, optional
        As in seqeval.
    suffix : bool, default False
        As in seqeval: tags with the type first.
    model : str, default "non_overlapping"
        The random annotation model.
    predictions_column, references_column : str
        The batch's two columns (default ``"predictions"`` and ``"references"``).

    Returns
    -------
    dict
        ``{"statistics": [one JSON string per sentence]}``, for ``scores_from_shards``.

    Raises
    ------
    ValueError
        A missing column, bad tags (naming the sentence), strict mode without ``scheme``.

    See Also
    --------
    scores_from_shards : The scores of the mapped column.

    Examples
    --------
    >>> batch = {"predictions": [["B-PER", "I-PER", "O", "O"], ["O", "B-LOC", "O"]],
    ...          "references": [["B-PER", "O", "O", "O"], ["O", "B-LOC", "O"]]}
    >>> column = sentence_statistics_batch(batch)["statistics"]
    >>> len(column), round(scores_from_shards(column)["overall_corrected_f1"], 4)
    (2, 0.7)
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
    """Add ``ChanceStatistics`` exactly, given as objects, ``to_dict()`` dicts or JSON strings.

    Parameters
    ----------
    items : iterable
        Statistics of sentences or shards, in any order and grouping.

    Returns
    -------
    ChanceStatistics
        Their sum, the same bits whatever the order.

    Raises
    ------
    ValueError
        A malformed item, or items of different models or levels, naming the (0-based) item.

    See Also
    --------
    scores_from_shards : The scores of the sum.
    sentence_statistics_batch : Statistics from a ``datasets.Dataset.map``.

    Examples
    --------
    >>> from chance_agreement import sentence_statistics
    >>> first = sentence_statistics(["B-PER", "I-PER", "O", "O"], ["B-PER", "O", "O", "O"])
    >>> second = sentence_statistics(["O", "B-LOC", "O"], ["O", "B-LOC", "O"])
    >>> total = merge_statistics([first.to_dict(), second])
    >>> sorted(total.per_type), total.total_tokens
    (['LOC', 'PER'], 7)
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
    r"""Compute ``chance_f1``'s result from per-sentence or per-shard statistics.

    Parameters
    ----------
    items : iterable
        ``ChanceStatistics``, their ``to_dict()`` dicts or JSON strings (``merge_statistics``).
    level : {"token", "entity"}, default "token"
        ``"token"``: the paper's token-overlap F1; ``"entity"``: exact span match.
    zero_division : {"warn", 0, 1}, default "warn"
        The value of a 0/0 score ("warn": 0.0 with an ``UndefinedMetricWarning``).

    Returns
    -------
    dict
        ``chance_f1``'s result without sentence scores, bit for bit.

    Raises
    ------
    ValueError
        As ``merge_statistics``; a bad level.

    See Also
    --------
    chance_f1 : The same result from all the tags at once.
    ChanceF1State : The same, added up batch by batch.

    Notes
    -----
    The statistics are sums over sentences (Proposition 1 of [1]_), so shards add exactly and

    .. math::

        \mathrm{corrected} = \frac{\mathrm{observed} - \mathrm{chance}}{1 - \mathrm{chance}}, \qquad
        \mathrm{chance} = \frac{2 \sum E[o]}{\sum (a_1 + a_2)}

    at token level; a 0/0 score takes ``zero_division``, never NaN.

    References
    ----------
    .. [1] D. Li, C. Rosé, A. Yuan, C. Zhou. Estimating Agreement by Chance for Sequence Annotation. ACL 2024.

    Examples
    --------
    Two shards of one sentence each (a shard's statistics are the sum of its sentences'):

    >>> from chance_agreement import sentence_statistics
    >>> shards = [sentence_statistics(["B-PER", "I-PER", "O", "O"], ["B-PER", "O", "O", "O"]),
    ...           sentence_statistics(["O", "B-LOC", "O"], ["O", "B-LOC", "O"])]
    >>> scores = scores_from_shards(shards)
    >>> round(scores["overall_observed_f1"], 4), round(scores["overall_chance_f1"], 4)
    (0.8, 0.3333)
    >>> round(scores["overall_corrected_f1"], 4)
    0.7
    """
    return scores_from_statistics(merge_statistics(items), level, zero_division)


__all__ = ["merge_statistics", "scores_from_shards", "sentence_statistics_batch"]
