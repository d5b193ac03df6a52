"""``transformers.Trainer`` hook: chance-corrected scores as flat scalar metrics.

    trainer = Trainer(model, args, eval_dataset=..., compute_metrics=compute_metrics_fn(label_list))
    trainer.evaluate()  # {"eval_corrected_f1": ..., "eval_chance_f1": ..., "eval_PER_corrected_f1": ..., ...}

The returned function takes an ``EvalPrediction`` (or a ``(predictions, label_ids)`` tuple),
argmaxes the logits over the last axis (predictions that are already label ids, e.g. from
``preprocess_logits_for_metrics``, are used as they are; a NaN logit at a labelled position is a
ValueError naming the sequence and position, never silently class 0), drops every position labelled -100
(special tokens, continuation word pieces, padding), maps ids to tags through ``label_list`` and
returns the metric's result flattened (``chance_agreement.ecosystem.flat.flatten``) with seqeval's
``overall_`` prefix removed, as ``run_ner.py`` does: ``observed_f1``, ``chance_f1``,
``corrected_f1``, ``precision``, ``recall``, ``f1``, ``accuracy`` and ``{TYPE}_{stat}``. All values are
Python floats, so ``metric_for_best_model="corrected_f1"`` works.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..chance.corrected_f1 import chance_f1
from ..reliability.agreement_coefficients import agreement_report
from ..noise.noise_model import noise_report
from .flat import flatten

# metric name -> (function taking (predictions, references, **kwargs), key prefix to drop)
METRICS: dict[str, tuple[Callable, str]] = {
    "chance_f1": (chance_f1, "overall_"),
    "coefficients": (agreement_report, ""),
    "noise": (noise_report, ""),
}

IGNORE_INDEX = -100


def _metric_function(metric: str) -> tuple[Callable, str]:
    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r}: use one of {sorted(METRICS)}")
    return METRICS[metric]


def tags_from_predictions(predictions, label_ids, label_list: Sequence[str]) -> tuple[list[list[str]], list[list[str]]]:
    """(predicted tags, reference tags) per sequence, positions labelled -100 left out.

    ``predictions``: logits ``(batch, length, num_labels)`` (argmaxed) or ids ``(batch, length)``;
    ``label_ids``: ``(batch, length)``. Sequences with no labelled position are skipped.
    """
    if isinstance(predictions, tuple) and predictions:
        predictions = predictions[0]  # (logits, hidden states, ...) from models returning extras
    predictions = np.asarray(predictions)
    labels = np.asarray(label_ids)
    if labels.ndim != 2:
        raise ValueError(f"label_ids must have shape (batch, length), got {labels.shape}")
    if predictions.ndim == 3:
        if predictions.shape[:2] != labels.shape:
            raise ValueError(f"logits of shape {predictions.shape} do not match label_ids of shape {labels.shape}")
        if predictions.shape[2] != len(label_list):
            raise ValueError(f"logits have {predictions.shape[2]} classes but label_list has {len(label_list)} labels")
        predicted_ids = predictions.argmax(axis=-1)
    elif predictions.ndim == 2:
        if predictions.shape != labels.shape:
            raise ValueError(f"predicted ids of shape {predictions.shape} do not match label_ids of shape {labels.shape}")
        predicted_ids = predictions
    else:
        raise ValueError(f"predictions must be logits (batch, length, labels) or ids (batch, length), got {predictions.shape}")
    if not np.issubdtype(labels.dtype, np.integer) or not np.issubdtype(predicted_ids.dtype, np.integer):
        raise ValueError(f"label ids must be integers, got {labels.dtype} and {predicted_ids.dtype}")
    keep = labels != IGNORE_INDEX
    if predictions.ndim == 3 and np.issubdtype(predictions.dtype, np.inexact):
        nan = keep & np.isnan(predictions).any(axis=-1)
        if nan.any():
            row, column = map(int, np.argwhere(nan)[0])
            raise ValueError(
                f"logits: NaN at sequence {row}, position {column} (a labelled position): the argmax "
                "is undefined there (has the model diverged?)"
            )
    for name, ids in (("label_ids", labels), ("predicted ids", predicted_ids)):
        bad = keep & ((ids < 0) | (ids >= len(label_list)))
        if bad.any():
            row, column = map(int, np.argwhere(bad)[0])
            raise ValueError(
                f"{name}: id {int(ids[row, column])} at sequence {row}, position {column} is outside "
                f"label_list (0..{len(label_list) - 1}) and is not {IGNORE_INDEX}"
            )
    predicted_tags, reference_tags = [], []
    for row in range(labels.shape[0]):
        mask = keep[row]
        if mask.any():
            predicted_tags.append([label_list[i] for i in predicted_ids[row][mask]])
            reference_tags.append([label_list[i] for i in labels[row][mask]])
    if not reference_tags:
        raise ValueError(f"every position is labelled {IGNORE_INDEX}: nothing to evaluate")
    return predicted_tags, reference_tags


def compute_metrics_fn(label_list: Sequence[str], metric: str = "chance_f1", **compute_kwargs) -> Callable[..., dict[str, float]]:
    """A ``Trainer(compute_metrics=...)`` function returning the metric's flat float scores.

    ``metric``: a name in ``METRICS`` (``"chance_f1"``; ``"coefficients"``: ``agreement_report``;
    ``"noise"``: ``noise_report``). ``compute_kwargs`` go to that function (e.g. ``level="entity"``,
    ``zero_division=0``). Bad label ids or shapes raise ValueError when the function is called.
    """
    label_list = list(label_list)
    if not label_list or not all(isinstance(label, str) for label in label_list):
        raise ValueError("label_list must be a non-empty sequence of tag strings, e.g. ['O', 'B-PER', 'I-PER']")
    function, prefix = _metric_function(metric)

    def compute_metrics(eval_prediction) -> dict[str, float]:
        if hasattr(eval_prediction, "predictions") and hasattr(eval_prediction, "label_ids"):
            predictions, label_ids = eval_prediction.predictions, eval_prediction.label_ids
        elif isinstance(eval_prediction, (tuple, list)) and len(eval_prediction) == 2:
            predictions, label_ids = eval_prediction
        else:
            raise ValueError("expected an EvalPrediction or a (predictions, label_ids) tuple")
        if label_ids is None:
            raise ValueError("no label_ids: the evaluation dataset needs a 'labels' column")
        predicted_tags, reference_tags = tags_from_predictions(predictions, label_ids, label_list)
        flat = flatten(function(predicted_tags, reference_tags, **compute_kwargs))
        if not prefix:
            return flat
        renamed: dict[str, float] = {}
        for key, value in flat.items():
            short = key[len(prefix):] if key.startswith(prefix) else key
            if short in renamed:
                raise ValueError(f"two scores give the key {short!r} (an entity type named like an overall score?)")
            renamed[short] = value
        return renamed

    return compute_metrics


__all__ = ["METRICS", "compute_metrics_fn", "tags_from_predictions"]
