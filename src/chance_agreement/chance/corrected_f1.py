"""Observed, chance and chance-corrected F1 over a corpus (chance_agreement_sequence_annotation.txt).

Per sentence and entity type, each annotator's segments are randomised by the random annotation
model (``random_model``) and the two annotators independently, so (Proposition 1):

- token level (the paper's measure): ``F1 = 2 * overlap / (a1 + a2)`` with ``a1 + a2`` fixed under
  the model, hence ``chance F1 = 2 * sum_t c1(t) c2(t) / (a1 + a2)``;
- entity level (exact span match, seqeval's F1): ``chance F1 = 2 * E[matches] / (k1 + k2)`` with
  ``E[matches] = sum over same-length pairs of sum_l P1(start = l) P2(start = l)``.

Over a corpus the paper's micro average sums numerators and denominators over every sentence and
type, and ``corrected = (observed - chance) / (1 - chance)``. The statistics are plain sums, so
shards and ``add_batch`` calls merge exactly (``ChanceStatistics.__add__``).

The seqeval part of the result (per-type precision, recall, f1, number; overall precision, recall,
f1, accuracy) is computed from the same spans and equals ``evaluate.load("seqeval")`` output.
"""

from __future__ import annotations

import warnings
from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np

from .random_model import MODELS, _check_model, _coverage, _start_distribution
from ..spans.tags import paired_spans

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
_TP, _PRED, _TRUE, _OVERLAP, _EXP_OVERLAP, _ANNOTATED, _EXP_MATCHES = range(len(FIELDS))

# 1 - chance below this is treated as chance == 1 (no room for agreement beyond chance).
_CHANCE_ONE = 1e-12


class UndefinedMetricWarning(UserWarning):
    """A score is 0/0 and was set by ``zero_division`` (as seqeval and scikit-learn do)."""


@dataclass
class ChanceStatistics:
    """Additive sufficient statistics of one sentence, a shard or a whole corpus.

    ``per_type[type]`` is a float vector over ``FIELDS``; integers are exact up to 2**53.
    """

    per_type: dict[str, np.ndarray] = field(default_factory=dict)
    correct_tokens: int = 0
    total_tokens: int = 0

    def __add__(self, other: "ChanceStatistics") -> "ChanceStatistics":
        merged = {name: vector.copy() for name, vector in self.per_type.items()}
        for name, vector in other.per_type.items():
            if name in merged:
                merged[name] += vector
            else:
                merged[name] = vector.copy()
        return ChanceStatistics(
            merged,
            self.correct_tokens + other.correct_tokens,
            self.total_tokens + other.total_tokens,
        )

    def to_dict(self) -> dict:
        """JSON-friendly form (for ``datasets.Dataset.map`` or files)."""
        return {
            "per_type": {name: vector.tolist() for name, vector in self.per_type.items()},
            "correct_tokens": self.correct_tokens,
            "total_tokens": self.total_tokens,
        }

    @classmethod
    def from_dict(cls, data: dict) -> "ChanceStatistics":
        return cls(
            {name: np.asarray(values, dtype=float) for name, values in data["per_type"].items()},
            int(data["correct_tokens"]),
            int(data["total_tokens"]),
        )


def _overlap(spans_a, spans_b) -> int:
    """Tokens covered by both lists of (start, end) spans (spans within a list do not overlap)."""
    total = 0
    for start_a, end_a in spans_a:
        for start_b, end_b in spans_b:
            total += max(0, min(end_a, end_b) - max(start_a, start_b))
    return total


def _expected_matches(n: int, lengths_a: tuple, lengths_b: tuple, model: str) -> float:
    """``E[# exact matches] = sum over pairs of equal length of sum_l P_a(l) P_b(l)``."""
    total = 0.0
    for length in set(lengths_a) & set(lengths_b):
        others_a = list(lengths_a)
        others_a.remove(length)
        others_b = list(lengths_b)
        others_b.remove(length)
        start_a = _start_distribution(n, tuple(others_a), length, model)
        start_b = _start_distribution(n, tuple(others_b), length, model)
        total += lengths_a.count(length) * lengths_b.count(length) * float(start_a @ start_b)
    return total


def _sentence(n: int, pred_spans, true_spans, model: str, with_matches: bool) -> dict[str, np.ndarray]:
    by_type: dict[str, tuple[list, list]] = defaultdict(lambda: ([], []))
    for name, start, end in pred_spans:
        by_type[name][0].append((start, end))
    for name, start, end in true_spans:
        by_type[name][1].append((start, end))
    out = {}
    for name, (pred, true) in by_type.items():
        vector = np.zeros(len(FIELDS))
        vector[_TP] = len(set(pred) & set(true))
        vector[_PRED] = len(pred)
        vector[_TRUE] = len(true)
        lengths_pred = tuple(sorted(end - start for start, end in pred))
        lengths_true = tuple(sorted(end - start for start, end in true))
        vector[_ANNOTATED] = sum(lengths_pred) + sum(lengths_true)
        if pred and true:
            vector[_OVERLAP] = _overlap(pred, true)
            vector[_EXP_OVERLAP] = float(
                _coverage(n, lengths_pred, model) @ _coverage(n, lengths_true, model)
            )
            if with_matches:
                vector[_EXP_MATCHES] = _expected_matches(n, lengths_pred, lengths_true, model)
        if not with_matches:
            vector[_EXP_MATCHES] = np.nan  # not computed: entity-level scores will refuse it
        out[name] = vector
    return out


def corpus_statistics(
    predictions, references, *, scheme=None, mode=None, suffix=False, model="non_overlapping", levels=LEVELS
) -> tuple[ChanceStatistics, list[ChanceStatistics]]:
    """Corpus total and per-sentence statistics (the sentences add up to the total).

    ``levels`` says which expectations to compute; leaving out ``"entity"`` skips the start
    distributions (the token level needs only coverage) and marks the statistics as token-only.
    """
    for level in levels:
        if level not in LEVELS:
            raise ValueError(f"levels must be a subset of {list(LEVELS)}, got {list(levels)!r}")
    with_matches = "entity" in levels
    _check_model(model)
    pred_spans, true_spans = paired_spans(predictions, references, scheme, mode, suffix)
    sentences = []
    total = defaultdict(lambda: np.zeros(len(FIELDS)))
    correct = tokens = 0
    for pred_tags, true_tags, pred, true in zip(predictions, references, pred_spans, true_spans):
        per_type = _sentence(len(true_tags), pred, true, model, with_matches)
        for name, vector in per_type.items():
            total[name] += vector
        n_correct = sum(p == t for p, t in zip(pred_tags, true_tags))
        correct += n_correct
        tokens += len(true_tags)
        sentences.append(ChanceStatistics(per_type, n_correct, len(true_tags)))
    return ChanceStatistics(dict(total), correct, tokens), sentences


def sentence_statistics(
    prediction, reference, *, scheme=None, mode=None, suffix=False, model="non_overlapping", levels=LEVELS
) -> ChanceStatistics:
    """Statistics of one sentence. For strict mode give ``scheme`` (else it is detected per call)."""
    return corpus_statistics(
        [prediction], [reference], scheme=scheme, mode=mode, suffix=suffix, model=model, levels=levels
    )[0]


def _zero_division_value(zero_division) -> float:
    if zero_division == "warn":
        return 0.0
    if zero_division in (0, 1):
        return float(zero_division)
    raise ValueError(f'zero_division must be "warn", 0 or 1, got {zero_division!r}')


def _divide(numerator: float, denominator: float, zero_division, what: str) -> float:
    if denominator == 0:
        if zero_division == "warn":
            warnings.warn(f"{what} is ill-defined (0/0) and set to 0.0; use zero_division to control this", UndefinedMetricWarning, stacklevel=4)
        return _zero_division_value(zero_division)
    return numerator / denominator


def _chance_scores(vector: np.ndarray, level: str, zero_division, what: str) -> dict[str, float]:
    if level == "token":
        agreement, expected, denominator = 2 * vector[_OVERLAP], 2 * vector[_EXP_OVERLAP], vector[_ANNOTATED]
    else:
        agreement, expected, denominator = 2 * vector[_TP], 2 * vector[_EXP_MATCHES], vector[_PRED] + vector[_TRUE]
    if denominator == 0:
        value = _divide(0.0, 0.0, zero_division, f"{what}: F1 with no entities from either side")
        return {"observed_f1": value, "chance_f1": value, "corrected_f1": value}
    if level == "entity":  # bit-for-bit seqeval's f1 = 2pr/(p+r), equal to 2tp/(k1+k2)
        observed = _seqeval_scores(vector[_TP], vector[_PRED], vector[_TRUE], 0, what)[2]
    else:
        observed = float(agreement / denominator)
    chance = float(min(max(expected / denominator, 0.0), 1.0))
    if 1.0 - chance < _CHANCE_ONE:
        corrected = _divide(0.0, 0.0, zero_division, f"{what}: corrected F1 with chance agreement 1")
    else:
        corrected = (observed - chance) / (1.0 - chance)
    return {"observed_f1": observed, "chance_f1": chance, "corrected_f1": float(corrected)}


def _seqeval_scores(tp: float, predicted: float, actual: float, zero_division, what: str) -> tuple[float, float, float]:
    """precision, recall, f1 exactly as seqeval's ``_prf_divide`` and f-score formula give them."""
    precision = _divide(float(tp), float(predicted), zero_division, f"{what}: precision")
    recall = _divide(float(tp), float(actual), zero_division, f"{what}: recall")
    denominator = precision + recall
    f1 = 2.0 * precision * recall / (denominator if denominator != 0 else 1.0)
    return precision, recall, f1


def scores_from_statistics(stats: ChanceStatistics, level: str = "token", zero_division="warn") -> dict:
    """The metric's output (seqeval's keys plus observed/chance/corrected F1) from statistics."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {list(LEVELS)}, got {level!r}")
    _zero_division_value(zero_division)
    if level == "entity" and any(np.isnan(v[_EXP_MATCHES]) for v in stats.per_type.values()):
        raise ValueError("these statistics were computed without entity-level expectations; "
                         "compute them with levels including 'entity'")
    result: dict = {}
    total = np.zeros(len(FIELDS))
    for name in sorted(stats.per_type):
        vector = stats.per_type[name]
        total += vector
        precision, recall, f1 = _seqeval_scores(vector[_TP], vector[_PRED], vector[_TRUE], zero_division, name)
        result[name] = {"precision": precision, "recall": recall, "f1": f1, "number": int(vector[_TRUE])}
        result[name].update(_chance_scores(vector, level, zero_division, name))
    precision, recall, f1 = _seqeval_scores(total[_TP], total[_PRED], total[_TRUE], zero_division, "overall")
    result["overall_precision"] = precision
    result["overall_recall"] = recall
    result["overall_f1"] = f1
    result["overall_accuracy"] = stats.correct_tokens / stats.total_tokens if stats.total_tokens else 0.0
    overall = _chance_scores(total, level, zero_division, "overall")
    result["overall_observed_f1"] = overall["observed_f1"]
    result["overall_chance_f1"] = overall["chance_f1"]
    result["overall_corrected_f1"] = overall["corrected_f1"]
    return result


def _sentence_score(stats: ChanceStatistics, level: str) -> dict:
    total = sum(stats.per_type.values(), np.zeros(len(FIELDS)))
    if level == "token":
        agreement, expected, denominator = 2 * total[_OVERLAP], 2 * total[_EXP_OVERLAP], total[_ANNOTATED]
    else:
        agreement, expected, denominator = 2 * total[_TP], 2 * total[_EXP_MATCHES], total[_PRED] + total[_TRUE]
    defined = denominator > 0
    return {
        "observed_f1": float(agreement / denominator) if defined else None,
        "chance_f1": float(expected / denominator) if defined else None,
        "denominator": float(denominator),
    }


def chance_f1(
    predictions,
    references,
    suffix: bool = False,
    scheme=None,
    mode=None,
    sample_weight=None,
    zero_division="warn",
    model: str = "non_overlapping",
    level: str = "token",
    return_sentence_scores: bool = False,
    confidence_level=None,
    n_resamples: int = 1000,
    random_state=None,
) -> dict:
    """seqeval's scores plus observed, chance and chance-corrected F1, overall and per type.

    Arguments as in evaluate's seqeval module, plus ``model`` (``"non_overlapping"`` or
    ``"overlapping"``), ``level`` (``"token"``: the paper's token-overlap F1; ``"entity"``: exact
    span match, whose observed F1 is seqeval's ``overall_f1``) and ``return_sentence_scores``.
    ``sample_weight`` is accepted for compatibility and, as in seqeval, has no effect.

    Degenerate cases: a 0/0 score (no entities on either side; chance agreement 1 because both
    annotators cover every token) takes the ``zero_division`` value (0.0 with a warning by
    default), never NaN. Bad input raises ValueError naming the sentence.

    ``confidence_level`` (None: off) adds sentence-bootstrap percentile intervals
    (``overall_corrected_f1_ci`` ... and ``corrected_f1_ci`` ... per type, ``[low, high]``) from
    ``n_resamples`` resamples drawn with ``np.random.default_rng(random_state)``; see
    ``bootstrap_intervals``.
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {list(LEVELS)}, got {level!r}")
    _zero_division_value(zero_division)
    if sample_weight is not None:
        warnings.warn("sample_weight has no effect on span scores (as in seqeval); it is ignored", UserWarning, stacklevel=2)
    total, sentences = corpus_statistics(
        predictions, references, scheme=scheme, mode=mode, suffix=suffix, model=model, levels=(level,)
    )
    result = scores_from_statistics(total, level, zero_division)
    if return_sentence_scores:
        result["sentence_scores"] = [_sentence_score(stats, level) for stats in sentences]
    from .bootstrap_intervals import add_intervals

    return add_intervals(result, sentences, FIELDS, level, zero_division, confidence_level, n_resamples, random_state)


__all__ = [
    "FIELDS",
    "LEVELS",
    "MODELS",
    "ChanceStatistics",
    "UndefinedMetricWarning",
    "chance_f1",
    "corpus_statistics",
    "scores_from_statistics",
    "sentence_statistics",
]
