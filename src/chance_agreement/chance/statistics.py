"""The additive statistics of chance-corrected F1, defined once (chance_agreement_sequence_annotation.txt,
Proposition 1): per entity type, seven numbers that add up over sentences, shards and processes.

``FIELDS`` names them in order (``TRUE_POSITIVES`` ... ``EXPECTED_MATCHES`` are their column
indices); ``ChanceStatistics`` holds them per type with the exact sums of the two expectations
(``to_dict``/``from_dict`` its strict-JSON form); ``f1_terms`` reads the F1 terms of each level off
them:

- token level: agreement ``2 o``, expected agreement ``2 E[o]``, denominator ``a1 + a2`` (the
  overlap ``o`` in tokens, ``a_i`` the tokens each side annotated), so that observed F1 is
  ``2 o / (a1 + a2)`` and chance F1 ``2 E[o] / (a1 + a2)``;
- entity level: ``2 tp``, ``2 E[matches]``, ``k1 + k2`` (spans matched exactly, spans per side).

Every module that computes, resamples or reports these statistics imports them from here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from .._numerics.exact_sum import merge_exactly
from ..spans.validation import refuse_reserved_type
from .random_models import get_model

LEVELS = ("token", "entity")

# Per-type additive statistics, in this order.
FIELDS = (
    "true_positives",  # spans matched exactly (type, start, end)
    "predicted",  # spans in the predictions
    "actual",  # spans in the references (seqeval's "number")
    "overlap",  # tokens inside a span of this type for both annotators
    "expected_overlap",  # the same under the random annotation model
    "annotated_tokens",  # a1 + a2
    "expected_matches",  # exact span matches under the random annotation model
)
TRUE_POSITIVES, PREDICTED, ACTUAL, OVERLAP, EXPECTED_OVERLAP, ANNOTATED_TOKENS, EXPECTED_MATCHES = range(len(FIELDS))
EXPECTATIONS = (EXPECTED_OVERLAP, EXPECTED_MATCHES)  # the two float statistics, summed exactly


@dataclass
class ChanceStatistics:
    r"""Hold the additive sufficient statistics of one sentence, a shard or a whole corpus.

    Statistics add with ``+`` (in any order or grouping, with bit-identical results), travel as
    strict JSON through ``to_dict``/``from_dict``, and give ``chance_f1``'s scores
    (``scores_from_shards``).

    Parameters
    ----------
    per_type : dict of str to numpy.ndarray
        Per entity type, a float vector over ``FIELDS``: ``true_positives``, ``predicted``,
        ``actual``, ``overlap``, ``expected_overlap``, ``annotated_tokens`` and
        ``expected_matches``. The counts are exact integers (up to 2**53).
    correct_tokens, total_tokens : int, default 0
        Tokens whose two tags are equal, and all tokens (seqeval's accuracy).
    model : str, optional
        The random model the expectations come from (``None``: unknown, e.g. the empty start value
        of a sum).
    levels : tuple of str, optional
        The levels whose expectations were computed (``("token", "entity")``).
    partials : dict
        Per type, the exact-sum partials of the two expectations (non-overlapping floats whose
        exact sum is the statistic, see ``exact_sum``); kept by ``+``.

    Raises
    ------
    ValueError
        Adding statistics of different models or levels; ``from_dict`` of a malformed dict (naming
        the field).

    See Also
    --------
    sentence_statistics : The statistics of one sentence.
    merge_statistics : The sum of many, from objects or dicts.
    scores_from_shards : The scores of summed statistics.

    Notes
    -----
    Per type, the terms of token F1 are :math:`2o`, :math:`2E[o]` and :math:`a_1 + a_2` (overlap in
    tokens, its expectation under the random model, tokens annotated by each side); those of
    entity F1 are :math:`2\,tp`, :math:`2E[\mathrm{matches}]` and :math:`k_1 + k_2`. Every one is a
    sum over sentences (Proposition 1 of [1]_), so a corpus's statistics are the sum of its
    sentences' and

    .. math::

        \mathrm{observed} = \frac{2o}{a_1 + a_2}, \qquad
        \mathrm{chance} = \frac{2E[o]}{a_1 + a_2}, \qquad
        \mathrm{corrected} = \frac{\mathrm{observed} - \mathrm{chance}}{1 - \mathrm{chance}},

    undefined (``zero_division``) when a denominator is 0.

    References
    ----------
    .. [1] D. Li, C. Rosé, A. Yuan, C. Zhou. Estimating Agreement by Chance for Sequence Annotation. ACL 2024.

    Examples
    --------
    Two sentences' statistics, added:

    >>> from chance_agreement import sentence_statistics
    >>> first = sentence_statistics(["B-PER", "I-PER", "O", "O"], ["B-PER", "O", "O", "O"])
    >>> first.per_type["PER"].tolist()  # tp, predicted, actual, overlap, E[overlap], a1 + a2, E[matches]
    [0.0, 1.0, 1.0, 1.0, 0.5, 3.0, 0.0]
    >>> total = first + sentence_statistics(["O", "B-LOC", "O"], ["O", "B-LOC", "O"])
    >>> sorted(total.per_type), total.correct_tokens, total.total_tokens
    (['LOC', 'PER'], 6, 7)
    >>> ChanceStatistics.from_dict(total.to_dict()) == total
    True
    """

    per_type: dict[str, np.ndarray] = field(default_factory=dict)
    correct_tokens: int = 0
    total_tokens: int = 0
    model: str | None = None
    levels: tuple[str, ...] | None = None
    partials: dict[str, tuple[list[float], list[float]]] = field(default_factory=dict, repr=False, compare=False)

    def exact_partials(self, name: str) -> tuple[list[float], list[float]]:
        """The exact-sum partials of ``expected_overlap`` and ``expected_matches`` of one type."""
        if name in self.partials:
            return self.partials[name]
        vector = self.per_type[name]
        return [float(vector[EXPECTED_OVERLAP])], [float(vector[EXPECTED_MATCHES])]

    def __eq__(self, other: object) -> bool:
        """Equal statistics: the same types, counts, model and levels, and expectations whose exact
        values (the sums of their partials, in fractions) are equal, however they were split."""
        if not isinstance(other, ChanceStatistics):
            return NotImplemented
        same = (self.correct_tokens == other.correct_tokens and self.total_tokens == other.total_tokens
                and self.model == other.model and _levels(self.levels) == _levels(other.levels)
                and set(self.per_type) == set(other.per_type))
        return same and all(self._same_type(other, name) for name in self.per_type)

    __hash__ = None  # type: ignore[assignment]  # mutable, like numpy arrays

    def _same_type(self, other: ChanceStatistics, name: str) -> bool:
        mine, theirs = self.per_type[name], other.per_type[name]
        counts = [i for i in range(len(FIELDS)) if i not in EXPECTATIONS]
        if mine.shape != theirs.shape or not np.array_equal(mine[counts], theirs[counts]):
            return False
        return all(sum(map(Fraction, a)) == sum(map(Fraction, b))
                   for a, b in zip(self.exact_partials(name), other.exact_partials(name), strict=True))

    def __add__(self, other: ChanceStatistics) -> ChanceStatistics:
        if not isinstance(other, ChanceStatistics):
            return NotImplemented
        model = _same(self.model, other.model, "model")
        levels = _same(self.levels, other.levels, "levels")
        merged: dict[str, np.ndarray] = {}
        partials: dict[str, tuple[list[float], list[float]]] = {}
        for name in list(self.per_type) + [n for n in other.per_type if n not in self.per_type]:
            if name in self.per_type and name in other.per_type:
                vector = self.per_type[name] + other.per_type[name]
                (mine_overlap, mine_matches), (their_overlap, their_matches) = (self.exact_partials(name),
                                                                                other.exact_partials(name))
                pairs = (merge_exactly(mine_overlap, their_overlap), merge_exactly(mine_matches, their_matches))
                vector[EXPECTED_OVERLAP], vector[EXPECTED_MATCHES] = math.fsum(pairs[0]), math.fsum(pairs[1])
            else:
                source = self if name in self.per_type else other
                vector = source.per_type[name].copy()
                overlap, matches = source.exact_partials(name)
                pairs = (list(overlap), list(matches))
            merged[name] = vector
            if any(len(p) > 1 for p in pairs):
                partials[name] = pairs
        return ChanceStatistics(merged, self.correct_tokens + other.correct_tokens,
                                self.total_tokens + other.total_tokens, model, levels, partials)

    def to_dict(self) -> dict:
        """Strict-JSON form (no NaN) that records its own model, levels and field order."""
        out: dict = {
            "format": ROW_FORMAT,
            "model": self.model,
            "levels": list(self.levels) if self.levels is not None else None,
            "fields": list(FIELDS),
            "per_type": {name: [float(v) if i in EXPECTATIONS else int(v) for i, v in enumerate(vector)]
                         for name, vector in self.per_type.items()},
            "correct_tokens": int(self.correct_tokens),
            "total_tokens": int(self.total_tokens),
        }
        if self.partials:
            out["partials"] = {name: [list(p) for p in pair] for name, pair in self.partials.items()}
        return out

    @classmethod
    def from_dict(cls, data: dict) -> ChanceStatistics:
        """Inverse of ``to_dict``; every part is checked (ValueError naming the problem)."""
        return _statistics_from_dict(data)


ROW_FORMAT = "chance_agreement.ChanceStatistics/2"


def _levels(levels) -> tuple[str, ...] | None:
    return None if levels is None else tuple(levels)


def _same(mine, theirs, what: str):
    if mine is None:
        return theirs
    if theirs is not None and tuple(mine) != tuple(theirs):
        raise ValueError(f"cannot add statistics computed with different {what}: {mine!r} and {theirs!r}")
    return mine


def _count(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or value < 0 or value != int(value) or abs(value) > 2**53:
        raise ValueError(f"{what} must be a non-negative integer, got {value!r}")
    return int(value)


def _expectation(value, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise ValueError(f"{what} must be a finite non-negative number, got {value!r}")
    return float(value)


def _statistics_from_dict(data) -> ChanceStatistics:
    if not isinstance(data, dict):
        raise ValueError(f"statistics must be a dict, got {type(data).__name__}")
    missing = {"per_type", "correct_tokens", "total_tokens"} - set(data)
    if missing:
        raise ValueError(f"statistics dict lacks {sorted(missing)}")
    if data.get("format", ROW_FORMAT) != ROW_FORMAT:
        raise ValueError(f"unknown statistics format {data.get('format')!r} (expected {ROW_FORMAT!r})")
    if list(data.get("fields", FIELDS)) != list(FIELDS):
        raise ValueError(f"fields must be {list(FIELDS)}, got {data.get('fields')!r}")
    model = data.get("model")
    if model is not None:
        get_model(model)
    levels = data.get("levels")
    if levels is not None:
        if not isinstance(levels, (list, tuple)) or not levels or any(level not in LEVELS for level in levels):
            raise ValueError(f"levels must be a non-empty subset of {list(LEVELS)}, got {levels!r}")
        levels = tuple(level for level in LEVELS if level in levels)
    per_type_data = data["per_type"]
    if not isinstance(per_type_data, dict):
        raise ValueError(f"per_type must be a dict of type -> {len(FIELDS)} numbers, "
                         f"got {type(per_type_data).__name__}")
    partials_data = data.get("partials", {})
    if not isinstance(partials_data, dict) or set(partials_data) - set(per_type_data):
        raise ValueError("partials must be a dict over the types of per_type")
    per_type, partials = {}, {}
    for name, values in per_type_data.items():
        if not isinstance(name, str) or not name:
            raise ValueError(f"entity type names must be non-empty strings, got {name!r}")
        if not isinstance(values, (list, tuple)) or len(values) != len(FIELDS):
            raise ValueError(f"per_type[{name!r}] must be a list of {len(FIELDS)} numbers ({', '.join(FIELDS)}), got "
                             f"{values!r}")
        vector = np.array([_expectation(v, f"per_type[{name!r}].{FIELDS[i]}") if i in EXPECTATIONS
                           else _count(v, f"per_type[{name!r}].{FIELDS[i]}") for i, v in enumerate(values)],
                          dtype=float)
        if name in partials_data:
            pair = partials_data[name]
            if not isinstance(pair, (list, tuple)) or len(pair) != 2 or not all(isinstance(p, (list, tuple))
                                                                                for p in pair):
                raise ValueError(f"partials[{name!r}] must be two lists of numbers")
            pair = tuple([_finite(v, f"partials[{name!r}]") for v in p] for p in pair)
            for index, part in zip(EXPECTATIONS, pair, strict=True):
                if math.fsum(part) != vector[index]:
                    raise ValueError(f"partials[{name!r}] do not add up to per_type[{name!r}].{FIELDS[index]}")
            partials[name] = pair
        _check_bounds(name, vector, model)
        per_type[name] = vector
    correct = _count(data["correct_tokens"], "correct_tokens")
    total = _count(data["total_tokens"], "total_tokens")
    if correct > total:
        raise ValueError(f"correct_tokens ({correct}) exceeds total_tokens ({total})")
    return ChanceStatistics(per_type, correct, total, model, levels, partials)


# an expectation may pass its bound by the rounding of its float terms: this much, relatively
_EXPECTATION_ROUNDING = 1e-9


def _check_bounds(name: str, vector: np.ndarray, model) -> None:
    """Refuse a row of statistics that no annotation gives (its scores would pass 1): a reserved
    type name, matches beyond either side's spans, overlap beyond half the annotated tokens
    ``a1 + a2``; and, under a model whose segments cannot stack (``RandomModel.coverage_at_most_one``:
    the non-overlapping one), expected overlap beyond half of ``a1 + a2`` and expected matches beyond
    half the spans ``k1 + k2`` (under the overlapping model chance F1 may pass 1, Proposition 5)."""
    refuse_reserved_type(name, "statistics")
    tp, predicted, actual, overlap, expected_overlap, annotated, expected_matches = vector.tolist()
    slack = 1.0 + _EXPECTATION_ROUNDING
    bounded = model is not None and get_model(model).coverage_at_most_one
    problems = [(tp > min(predicted, actual), f"true_positives ({tp:g}) exceed predicted ({predicted:g}) or actual "
                                              f"({actual:g})"),
                (2 * overlap > annotated, f"overlap ({overlap:g}) exceeds half of annotated_tokens ({annotated:g})"),
                (bounded and 2 * expected_overlap > annotated * slack,
                 f"expected_overlap ({expected_overlap!r}) exceeds half of annotated_tokens ({annotated:g})"),
                (bounded and 2 * expected_matches > (predicted + actual) * slack,
                 f"expected_matches ({expected_matches!r}) exceeds half of predicted + actual "
                 f"({predicted + actual:g})")]
    for broken, message in problems:
        if broken:
            raise ValueError(f"per_type[{name!r}]: {message}: these statistics are inconsistent")


def _finite(value, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"{what} must hold finite numbers, got {value!r}")
    return float(value)


def f1_terms(values: np.ndarray, level: str) -> tuple:
    """``(agreement, expected, denominator)`` of statistics vectors (the last axis over ``FIELDS``):
    token level ``(2 overlap, 2 expected_overlap, annotated_tokens)``, entity level ``(2
    true_positives, 2 expected_matches, predicted + actual)``; each an array over the leading axes
    (a number for one vector).

    Examples
    --------
    >>> vector = np.array([1.0, 2.0, 2.0, 3.0, 0.5, 8.0, 0.25])
    >>> [float(term) for term in f1_terms(vector, "token")]
    [6.0, 1.0, 8.0]
    >>> [float(term) for term in f1_terms(vector, "entity")]
    [2.0, 0.5, 4.0]
    """
    if level == "token":
        return 2 * values[..., OVERLAP], 2 * values[..., EXPECTED_OVERLAP], values[..., ANNOTATED_TOKENS]
    return (2 * values[..., TRUE_POSITIVES], 2 * values[..., EXPECTED_MATCHES],
            values[..., PREDICTED] + values[..., ACTUAL])


__all__ = ["ACTUAL", "ANNOTATED_TOKENS", "EXPECTATIONS", "EXPECTED_MATCHES", "EXPECTED_OVERLAP", "FIELDS", "LEVELS",
           "OVERLAP", "PREDICTED", "ROW_FORMAT", "TRUE_POSITIVES", "ChanceStatistics", "f1_terms"]
