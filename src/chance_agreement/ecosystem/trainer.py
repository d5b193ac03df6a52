"""``transformers.Trainer`` hook: chance-corrected scores as flat scalar metrics, in both Trainer modes.

    trainer = Trainer(model, args, eval_dataset=..., compute_metrics=compute_metrics_fn(label_list))
    trainer.evaluate()  # {"eval_corrected_f1": ..., "eval_chance_f1": ..., "eval_PER_corrected_f1": ..., ...}

The returned function takes an ``EvalPrediction`` (or a ``(predictions, label_ids)`` tuple) of
numpy arrays or torch tensors on any device, argmaxes the logits over the last axis (on the
tensors' device; predictions that are already label ids, e.g. from
``preprocess_logits_for_metrics``, are used as they are; a NaN logit at a labelled position is a
ValueError naming the sequence and position, never silently class 0), drops every position
labelled -100 (special tokens, continuation word pieces, padding), maps ids to tags through
``label_list`` and returns the metric's result flattened (``chance_agreement.ecosystem.flat.flatten``)
with seqeval's ``overall_`` prefix removed, as ``run_ner.py`` does: ``observed_f1``, ``chance_f1``,
``corrected_f1``, ``precision``, ``recall``, ``f1``, ``accuracy`` and ``{TYPE}_{stat}``. All values are
Python floats, so ``metric_for_best_model="corrected_f1"`` works. The corrected score never takes
the key ``f1``: that stays seqeval's entity F1, which Trainer's model card publishes as ``f1``.

Batch mode (``TrainingArguments(batch_eval_metrics=True)``): Trainer calls the function once per
batch with ``compute_result`` (True on the last batch) instead of concatenating every batch's
logits. The function then keeps only a ``ChanceF1State`` (the additive statistics per entity
type, so memory does not grow with the number of sentences), returns ``{}`` for the other batches
and the full result on the last one, equal bit for bit to the concatenating mode. It starts fresh
after the last batch, after an error in one of its own calls, and on the first step of every
Trainer evaluation loop (so a loop interrupted elsewhere, by an out-of-memory error in the model or
Ctrl-C, leaves nothing behind); ``reset()`` does it by hand.

``module_metrics_fn(module, label_list)`` does the same for a loaded ``evaluate`` module: the
result is what ``module.compute`` returns (flattened); in batch mode the ``chance_f1`` module's
default and flat configurations keep the same additive state.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable, Sequence
from types import FrameType

import numpy as np

from ..chance.corrected_f1 import chance_f1
from ..noise.noise_model import noise_report
from ..reliability.agreement_coefficients import agreement_report
from .chance_state import ChanceF1State
from .flat import flatten

# metric name -> (function taking (predictions, references, **kwargs), key prefix to drop)
METRICS: dict[str, tuple[Callable, str]] = {
    "chance_f1": (chance_f1, "overall_"),
    "coefficients": (agreement_report, ""),
    "noise": (noise_report, ""),
}

IGNORE_INDEX = -100
# ChanceF1State's options; zero_division goes to result()
STATE_OPTIONS = ("level", "model", "scheme", "mode", "suffix", "confidence_level", "n_resamples", "random_state",
                 "resampling")
_LOOP = "evaluation_loop"  # Trainer's method calling compute_metrics once per batch


def _metric_function(metric: str) -> tuple[Callable, str]:
    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r}: use one of {sorted(METRICS)}")
    return METRICS[metric]


def check_options(function: Callable, compute_kwargs: dict, what: str) -> None:
    """Refuse, when the hook is built, a keyword argument ``function`` does not take.

    The hook passes the tags itself, so ``predictions`` and ``references`` are refused too. A
    function taking ``**kwargs`` accepts every name.

    Parameters
    ----------
    function : callable
        The function the hook will call with ``(predictions, references, **compute_kwargs)``.
    compute_kwargs : dict
        The keyword arguments given to the hook.
    what : str
        How the error names the metric, e.g. ``"the 'noise' metric (noise_report)"``.

    Raises
    ------
    ValueError
        Naming the options ``function`` does not take and the ones it does.

    Examples
    --------
    >>> from chance_agreement.noise.noise_model import noise_report
    >>> check_options(noise_report, {"confidence_level": 0.9}, "the 'noise' metric")
    >>> check_options(noise_report, {"zero_division": 0}, "the 'noise' metric")
    Traceback (most recent call last):
    ...
    ValueError: the 'noise' metric takes no option 'zero_division' (its undefined values are left out of the \
flat result, never replaced by a number); its options: confidence_level, unit, max_noise, scheme, mode, suffix
    """
    parameters = inspect.signature(function).parameters
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
        return
    taken = [name for name, p in parameters.items() if name not in ("self", "predictions", "references")
             and p.kind in (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    renamed = getattr(function, "renamed_keywords", {})  # old names still taken for one release, with a warning
    unknown = [name for name in compute_kwargs if name not in taken and name not in renamed]
    if not unknown:
        return
    given = ", ".join(repr(name) for name in unknown)
    why = ("the hook passes the tags itself" if {"predictions", "references"} & set(unknown) else
           "its undefined values are left out of the flat result, never replaced by a number"
           if "zero_division" in unknown else "a misspelt option?")
    raise ValueError(f"{what} takes no option{'s' * (len(unknown) > 1)} {given} ({why}); its options: "
                     f"{', '.join(taken)}")


def _on_device_argmax(predictions, label_ids, classes: int, first: int):
    """Torch logits ``(batch, length, classes)`` with torch labels -> ids, computed on their device (a
    NaN at a labelled position raises first); anything else is returned as it is."""
    if not (hasattr(predictions, "detach") and predictions.ndim == 3 and hasattr(label_ids, "detach")):
        return predictions
    if tuple(predictions.shape[:2]) != tuple(label_ids.shape) or predictions.shape[2] != classes:
        return predictions  # the shape checks of tags_from_predictions name the problem
    if predictions.is_floating_point():
        nan = predictions.isnan().any(dim=-1) & (label_ids != IGNORE_INDEX)
        if bool(nan.any()):
            row, column = (int(i) for i in nan.nonzero()[0])
            raise ValueError(_nan_message(first + row, column))
    return predictions.argmax(dim=-1)


def _nan_message(row: int, column: int) -> str:
    return (f"logits: NaN at sequence {row}, position {column} (a labelled position): the argmax is undefined "
            "there (has the model diverged?)")


def as_numpy(value):
    """A torch tensor (any device, any dtype) as a numpy array; arrays and lists as arrays."""
    if hasattr(value, "detach"):
        value = value.detach()
        if value.is_floating_point():
            value = value.float()  # numpy has no bfloat16; the float32 upcast is exact
        return value.cpu().numpy()
    return np.asarray(value)


def _predicted_ids(predictions, labels: np.ndarray, classes: int, first: int) -> np.ndarray:
    """Checked ids ``(batch, length)`` from logits (argmaxed) or ids."""
    if predictions.ndim == 3:
        if predictions.shape[:2] != labels.shape:
            raise ValueError(f"logits of shape {predictions.shape} do not match label_ids of shape {labels.shape}")
        if predictions.shape[2] != classes:
            raise ValueError(f"logits have {predictions.shape[2]} classes but label_list has {classes} labels")
        if np.issubdtype(predictions.dtype, np.inexact):
            nan = (labels != IGNORE_INDEX) & np.isnan(predictions).any(axis=-1)
            if nan.any():
                row, column = map(int, np.argwhere(nan)[0])
                raise ValueError(_nan_message(first + row, column))
        return predictions.argmax(axis=-1)
    if predictions.ndim == 2:
        if predictions.shape != labels.shape:
            raise ValueError(f"predicted ids of shape {predictions.shape} do not match label_ids of shape "
                             f"{labels.shape}")
        return predictions
    raise ValueError("predictions must be logits (batch, length, labels) or ids (batch, length), got "
                     f"{predictions.shape}")


def batch_tags(predictions, label_ids, label_list: Sequence[str], first: int = 0):
    """(predicted tags, reference tags) of the sequences with a labelled position; ``first`` is the
    index of the batch's first sequence in the evaluation set (for error messages)."""
    if isinstance(predictions, tuple) and predictions:
        predictions = predictions[0]  # (logits, hidden states, ...) from models returning extras
    predictions = as_numpy(_on_device_argmax(predictions, label_ids, len(label_list), first))
    labels = as_numpy(label_ids)
    if labels.ndim != 2:
        raise ValueError(f"label_ids must have shape (batch, length), got {labels.shape}")
    predicted_ids = _predicted_ids(predictions, labels, len(label_list), first)
    if not np.issubdtype(labels.dtype, np.integer) or not np.issubdtype(predicted_ids.dtype, np.integer):
        raise ValueError(f"label ids must be integers, got {labels.dtype} and {predicted_ids.dtype}")
    keep = labels != IGNORE_INDEX
    for name, ids in (("label_ids", labels), ("predicted ids", predicted_ids)):
        bad = keep & ((ids < 0) | (ids >= len(label_list)))
        if bad.any():
            row, column = map(int, np.argwhere(bad)[0])
            raise ValueError(f"{name}: id {int(ids[row, column])} at sequence {first + row}, position {column} is "
                             f"outside label_list (0..{len(label_list) - 1}) and is not {IGNORE_INDEX}")
    predicted_tags, reference_tags = [], []
    for sequence in np.flatnonzero(keep.any(axis=1)):
        mask = keep[sequence]
        predicted_tags.append([label_list[i] for i in predicted_ids[sequence][mask]])
        reference_tags.append([label_list[i] for i in labels[sequence][mask]])
    return predicted_tags, reference_tags


def tags_from_predictions(predictions, label_ids, label_list: Sequence[str]) -> tuple[list[list[str]], list[list[str]]]:
    """(predicted tags, reference tags) per sequence, positions labelled -100 left out.

    ``predictions``: logits ``(batch, length, num_labels)`` (argmaxed) or ids ``(batch, length)``,
    numpy arrays or torch tensors; ``label_ids``: ``(batch, length)``. Sequences with no labelled
    position are skipped; if none has one, ValueError.
    """
    predicted_tags, reference_tags = batch_tags(predictions, label_ids, list(label_list))
    if not reference_tags:
        raise ValueError(f"every position is labelled {IGNORE_INDEX}: nothing to evaluate")
    return predicted_tags, reference_tags


def _prediction_parts(eval_prediction):
    if hasattr(eval_prediction, "predictions") and hasattr(eval_prediction, "label_ids"):
        predictions, label_ids = eval_prediction.predictions, eval_prediction.label_ids
    elif isinstance(eval_prediction, (tuple, list)) and len(eval_prediction) == 2:
        predictions, label_ids = eval_prediction
    else:
        raise ValueError("expected an EvalPrediction or a (predictions, label_ids) tuple")
    if label_ids is None:
        raise ValueError("no label_ids: the evaluation dataset needs a 'labels' column")
    return predictions, label_ids


def _first_step_of_a_trainer_loop() -> bool:
    """True when called (through this module) from the first step of Trainer's evaluation loop,
    whose ``for step, inputs in enumerate(dataloader)`` holds ``step``."""
    frame: FrameType | None = sys._getframe(1)
    while frame is not None and frame.f_globals.get("__name__") == __name__:
        frame = frame.f_back
    return frame is not None and frame.f_code.co_name == _LOOP and frame.f_locals.get("step") == 0


def without_prefix(flat: dict, prefix: str) -> dict[str, float]:
    if not prefix:
        return flat
    renamed: dict[str, float] = {}
    for key, value in flat.items():
        short = key[len(prefix):] if key.startswith(prefix) else key
        if short in renamed:
            raise ValueError(f"two scores give the key {short!r} (an entity type named like an overall score?)")
        renamed[short] = value
    return renamed


class TrainerMetrics:
    """A ``Trainer(compute_metrics=...)`` function for both Trainer modes (module docstring).

    ``score(predicted_tags, reference_tags)`` gives the result of a whole evaluation set and
    ``finish(result)`` its flat float scores. ``state_options`` (``ChanceF1State``'s options plus
    ``zero_division``) enable the batch mode; without them ``refusal`` says why it is unavailable.
    """

    def __init__(self, label_list: Sequence[str], score: Callable, finish: Callable, *,
                 state_options: dict | None = None, refusal: str = ""):
        self.label_list = list(label_list)
        self._score, self._finish = score, finish
        self._state_options, self._refusal = state_options, refusal
        self._state: ChanceF1State | None = None
        self._sequences = 0  # sequences of the current loop, for error messages

    def __call__(self, eval_prediction, compute_result: bool | None = None) -> dict[str, float]:
        predictions, label_ids = _prediction_parts(eval_prediction)
        if compute_result is None:  # the concatenating mode: the whole evaluation set at once
            return self._finish(self._score(*tags_from_predictions(predictions, label_ids, self.label_list)))
        if self._state_options is None:
            raise ValueError(f"batch_eval_metrics=True is not available here: {self._refusal}")
        if self._state is None:
            options = {k: v for k, v in self._state_options.items() if k in STATE_OPTIONS}
            self._state = ChanceF1State(**options)
        if _first_step_of_a_trainer_loop():
            self.reset()
        try:
            return self._add_batch(predictions, label_ids, bool(compute_result))
        except BaseException:
            self.reset()
            raise

    def _add_batch(self, predictions, label_ids, compute_result: bool) -> dict[str, float]:
        predicted_tags, reference_tags = batch_tags(predictions, label_ids, self.label_list, self._sequences)
        self._state.update(predicted_tags, reference_tags)  # type: ignore[union-attr]  # made by __call__
        self._sequences += len(label_ids)
        if not compute_result:
            return {}
        if self._state.sentences == 0:  # type: ignore[union-attr]
            raise ValueError(f"every position is labelled {IGNORE_INDEX}: nothing to evaluate")
        result = self._state.result(zero_division=self._state_options.get("zero_division", "warn"))  # type: ignore[union-attr]
        self.reset()
        return self._finish(result)

    def reset(self) -> None:
        """Forget the batches of the current evaluation loop."""
        if self._state is not None:
            self._state.reset()
        self._sequences = 0


def checked_label_list(label_list) -> list[str]:
    label_list = list(label_list)
    if not label_list or not all(isinstance(label, str) for label in label_list):
        raise ValueError("label_list must be a non-empty sequence of tag strings, e.g. ['O', 'B-PER', 'I-PER']")
    return label_list


def batch_state_options(compute_kwargs: dict) -> tuple[dict | None, str]:
    """(options of the batch mode's state, or None with the reason) for chance_f1's keyword arguments."""
    others = sorted(set(compute_kwargs) - set(STATE_OPTIONS) - {"zero_division"})
    if others:
        return None, (f"{', '.join(others)} need every sentence at once (the batch mode keeps only summed "
                      "statistics); use the concatenating mode (batch_eval_metrics=False)")
    if compute_kwargs.get("confidence_level") is not None and compute_kwargs.get("resampling") != "poisson":
        return None, ("intervals of the default resampling='multinomial' need every sentence at once; pass "
                      "resampling='poisson' (intervals that add up batch by batch) or use batch_eval_metrics=False")
    return dict(compute_kwargs), ""


def compute_metrics_fn(label_list: Sequence[str], *, metric: str = "chance_f1", **compute_kwargs) -> TrainerMetrics:
    r"""Build a ``Trainer(compute_metrics=...)`` function returning the metric's flat float scores.

    The function takes an ``EvalPrediction`` (or a ``(predictions, label_ids)`` tuple) of numpy
    arrays or torch tensors, argmaxes the logits, drops the positions labelled -100, maps ids to
    tags through ``label_list`` and returns the metric's result flattened, with seqeval's
    ``overall_`` prefix removed (``corrected_f1``, ``chance_f1``, ``observed_f1``, ``f1``, ...,
    ``{TYPE}_{stat}``). With ``TrainingArguments(batch_eval_metrics=True)`` only ``"chance_f1"``
    works (its statistics add up; the others need every sentence) and gives, on the last batch,
    the concatenating mode's result bit for bit.

    Parameters
    ----------
    label_list : sequence of str
        The tag of each label id, e.g. ``["O", "B-PER", "I-PER"]``.
    metric : {"chance_f1", "coefficients", "noise"}, default "chance_f1"
        ``chance_f1``, ``agreement_report`` or ``noise_report``.
    **compute_kwargs
        That function's options (e.g. ``level="entity"``, ``zero_division=0``). In batch mode
        ``chance_f1``'s ``level``, ``model``, ``scheme``, ``mode``, ``suffix``, ``zero_division``
        and intervals with ``resampling="poisson"`` (``confidence_level``, ``n_resamples``, an int
        ``random_state``).

    Returns
    -------
    TrainerMetrics
        The function for ``Trainer(compute_metrics=...)``; ``reset()`` starts a batch-mode
        evaluation afresh.

    Raises
    ------
    ValueError
        When built: an unknown metric, an option the metric does not take, an empty or non-string
        ``label_list``. When called: bad label ids or shapes, a NaN logit at a labelled position
        (naming the sequence and position).

    See Also
    --------
    module_metrics_fn : The same for a loaded evaluate module.
    chance_f1 : The scores themselves.

    Notes
    -----
    ``corrected_f1`` is :math:`(\mathrm{observed} - \mathrm{chance}) / (1 - \mathrm{chance})` with
    :math:`\mathrm{chance} = 2 \sum_t c_1(t)\, c_2(t) / (a_1 + a_2)` summed over the evaluation
    set (Proposition 1 of [1]_). An undefined score is left out of the flat result (or takes
    ``zero_division`` for ``chance_f1``), never NaN: the Trainer logs floats only. The corrected
    score never takes the key ``f1``, which stays seqeval's entity F1.

    References
    ----------
    .. [1] D. Li, C. Rosé, A. Yuan, C. Zhou. Estimating Agreement by Chance for Sequence Annotation. ACL 2024.

    Examples
    --------
    >>> import numpy as np
    >>> label_ids = np.array([[-100, 1, 2, 0, 0, -100], [-100, 0, 1, 0, -100, -100]])
    >>> logits = np.eye(3)[[[0, 1, 2, 0, 1, 0], [0, 0, 1, 2, 0, 0]]]  # one-hot: the predicted ids
    >>> compute_metrics = compute_metrics_fn(["O", "B-PER", "I-PER"])
    >>> scores = compute_metrics((logits, label_ids))
    >>> round(scores["observed_f1"], 4), round(scores["chance_f1"], 4), round(scores["corrected_f1"], 4)
    (0.75, 0.5556, 0.4375)
    >>> scores["f1"]  # seqeval's entity F1
    0.4
    """
    label_list = checked_label_list(label_list)
    function, prefix = _metric_function(metric)
    check_options(function, compute_kwargs, f"the {metric!r} metric")
    if metric == "chance_f1":
        state_options, refusal = batch_state_options(compute_kwargs)
    else:
        state_options, refusal = None, f"the {metric!r} metric needs every sentence at once; only 'chance_f1' adds up"
    return TrainerMetrics(label_list, lambda p, r: function(p, r, **compute_kwargs),
                          lambda result: without_prefix(flatten(result), prefix),
                          state_options=state_options, refusal=refusal)


def module_metrics_fn(module, label_list: Sequence[str], **compute_kwargs) -> TrainerMetrics:
    """Build a ``Trainer(compute_metrics=...)`` function for a loaded ``evaluate`` module.

    The function turns logits and label ids into tags as ``compute_metrics_fn`` does and returns
    ``flatten(module.compute(predictions=tags, references=tags, **compute_kwargs))``: the module's
    own keys (``overall_corrected_f1``, ``PER_f1``, ...), floats only. With
    ``batch_eval_metrics=True`` the ``chance_f1`` module (configurations "default" and "flat") keeps
    the additive ``ChanceF1State`` between batches and returns, on the last batch, exactly what
    ``module.compute`` returns on the whole set; other modules need every sentence at once (use
    ``batch_eval_metrics=False`` for them).

    Parameters
    ----------
    module : evaluate.EvaluationModule
        A loaded module taking tag sequences, e.g. ``evaluate.load(module_path("chance_f1"))``.
    label_list : sequence of str
        The tag of each label id.
    **compute_kwargs
        Options of ``module.compute``, checked against its ``_compute`` when the function is built.

    Returns
    -------
    TrainerMetrics
        The function for ``Trainer(compute_metrics=...)``.

    Raises
    ------
    ValueError
        When built: not a loaded module, an option the module does not take, a bad ``label_list``.
        When called: bad label ids or shapes.

    See Also
    --------
    compute_metrics_fn : The same without evaluate, from the package's functions.
    module_path : The module folders to load.

    Examples
    --------
    >>> import evaluate
    >>> import numpy as np
    >>> from chance_agreement import module_path
    >>> module = evaluate.load(module_path("chance_f1"))
    >>> compute_metrics = module_metrics_fn(module, ["O", "B-PER", "I-PER"])
    >>> label_ids = np.array([[-100, 1, 2, 0, 0, -100], [-100, 0, 1, 0, -100, -100]])
    >>> logits = np.eye(3)[[[0, 1, 2, 0, 1, 0], [0, 0, 1, 2, 0, 0]]]
    >>> round(compute_metrics((logits, label_ids))["overall_corrected_f1"], 4)
    0.4375
    """
    label_list = checked_label_list(label_list)
    if not callable(getattr(module, "compute", None)):
        raise ValueError(f"expected a loaded evaluate module (evaluate.load(...)), got {type(module).__name__}")
    if callable(getattr(module, "_compute", None)):
        check_options(module._compute, compute_kwargs, f"the {getattr(module, 'name', None)!r} module")
    name, config = getattr(module, "name", None), getattr(module, "config_name", None)
    if name == "chance_f1" and config in ("default", "flat"):
        state_options, refusal = batch_state_options(compute_kwargs)
    else:
        state_options, refusal = None, (f"the {name!r} module ({config!r} configuration) needs every sentence at "
                                        "once; only chance_f1's default and flat configurations add up")
    return TrainerMetrics(label_list, lambda p, r: module.compute(predictions=p, references=r, **compute_kwargs),
                          flatten, state_options=state_options, refusal=refusal)


__all__ = [
    "METRICS",
    "TrainerMetrics",
    "check_options",
    "compute_metrics_fn",
    "module_metrics_fn",
    "tags_from_predictions",
]
