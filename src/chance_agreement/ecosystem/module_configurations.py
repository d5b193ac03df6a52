"""The configurations of the chance_f1_metric evaluate module, so its script stays declarative.

Each configuration names the input form the script declares (``tags``: predictions and
references as tag sequences; ``annotations``: per sentence the m annotators' tag sequences;
``spans``: per sentence lists of ``{"start", "end", "label"}`` token spans) and the core function
that computes it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..chance.corrected_f1 import chance_f1
from ..chance.nested_f1 import nested_chance_f1
from ..chance.span_f1 import span_chance_f1
from ..chance.team_f1 import as_items, by_item, team_chance_f1
from ..reliability.agreement_coefficients import plain
from ..reliability.gamma import gamma_agreement
from ..reliability.multi_rater_tags import multi_rater_report
from ..reliability.segmentation import segmentation_alpha
from ..reliability.table_inference import agreement_report_with_intervals
from ..spans.validation import TagTypeError, describe_value
from .flat import flatten

# configuration -> input form
CHANCE_F1_CONFIGURATIONS = {
    "default": "tags",
    "flat": "tags",
    "multi": "annotations",
    "spans": "spans",
    "nested_spans": "spans",
}

_WHY = "evaluate's datasets would store the whole sentence as JSON text; convert label ids to tag strings first"
# coefficients_metric: configuration -> the options it takes (any other given option is refused)
COEFFICIENTS_OPTIONS = {
    "default": ("distance", "finn_order", "views", "markables", "scheme", "mode", "suffix", "confidence_level"),
    "flat": ("distance", "finn_order", "views", "markables", "scheme", "mode", "suffix", "confidence_level"),
    "multi": ("unit", "weights", "categories", "confidence_level", "population_size", "benchmark_scale", "scheme",
              "mode", "suffix"),
    "segmentation": ("distance",),
    "gamma": ("sampler", "n_samples", "precision_level", "random_state", "annotators", "scheme", "mode", "suffix"),
}

__all__ = ["CHANCE_F1_CONFIGURATIONS", "COEFFICIENTS_OPTIONS", "CheckedInputs", "by_item", "chance_f1_configuration",
           "check_module_inputs", "coefficients_configuration"]


def coefficients_configuration(config_name, *, predictions=None, references=None, annotations=None, items=None,
                               **options) -> dict:
    """The result of coefficients_metric's configuration ``config_name``; ``options`` given as
    None are left out, and a given option the configuration does not take is refused."""
    given = {name: value for name, value in options.items() if value is not None and value is not False}
    unknown = sorted(set(given) - set(COEFFICIENTS_OPTIONS[config_name]))
    if unknown:
        raise ValueError(f"unexpected arguments for {config_name!r}: {unknown}")
    if config_name == "multi":  # one row per sentence (or item): the features say so
        return plain(multi_rater_report(as_items(list(annotations)), **given))
    if config_name == "segmentation":
        return plain(segmentation_alpha(list(items), distance=given.get("distance", "d2")))
    if config_name == "gamma":  # one row per sentence, as "multi"
        return gamma_agreement(as_items(list(annotations)), **given).to_dict()
    report = agreement_report_with_intervals(predictions, references, **given)
    return flatten(report) if config_name == "flat" else report


def chance_f1_configuration(config_name, *, predictions=None, references=None, annotations=None, names=None,
                            lengths=None, sample_weight=None, confidence_level=None, n_resamples=1000,
                            random_state=None, resampling="multinomial", document_ids=None, **options) -> dict:
    """The result of chance_f1_metric's configuration ``config_name``.

    ``options`` are the shared ones (``suffix``, ``scheme``, ``mode``, ``zero_division``, ``model``,
    ``level``, ``return_sentence_scores``); an argument that does not apply to the configuration
    (``lengths`` with tags, ``names`` with two annotators, ...) is refused, never ignored.
    """
    if config_name not in CHANCE_F1_CONFIGURATIONS:
        raise ValueError(f"unknown configuration {config_name!r}: use one of {list(CHANCE_F1_CONFIGURATIONS)}")
    form = CHANCE_F1_CONFIGURATIONS[config_name]
    intervals = dict(confidence_level=confidence_level, n_resamples=n_resamples, random_state=random_state,
                     resampling=resampling, document_ids=document_ids)
    if form != "spans" and lengths is not None:
        raise ValueError("lengths= belongs to the 'spans' and 'nested_spans' configurations (tags carry their lengths)")
    if form != "annotations" and (annotations is not None or names is not None):
        raise ValueError("annotations= and names= belong to the 'multi' configuration")
    if form == "annotations":
        if sample_weight is not None:
            raise ValueError("sample_weight is not used by the 'multi' configuration")
        if confidence_level is not None or document_ids is not None:
            raise ValueError("confidence_level and document_ids are not available in the 'multi' configuration")
        # one row per sentence: the features say so
        return team_chance_f1(as_items(annotations), names=names, **options)
    if form == "spans":
        if lengths is None:
            raise ValueError(f"the {config_name!r} configuration needs lengths= (tokens per sentence)")
        if config_name == "spans":
            return span_chance_f1(predictions, references, lengths, sample_weight=sample_weight, **options, **intervals)
        unavailable = [name for name in ("suffix", "scheme", "mode", "return_sentence_scores") if options.get(name)]
        unavailable += [name for name, value in (("confidence_level", confidence_level),
                                                 ("sample_weight", sample_weight),
                                                 ("document_ids", document_ids)) if value is not None]
        if unavailable:
            raise ValueError(f"{', '.join(unavailable)} not available in the 'nested_spans' configuration")
        return nested_chance_f1(predictions, references, lengths, zero_division=options["zero_division"],
                                model=options["model"], level=options["level"])
    result = chance_f1(predictions, references, sample_weight=sample_weight, **options, **intervals)
    return flatten(result) if config_name == "flat" else result


def _is_number(value) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))


def _leaf_problem(value, dtype: str):
    """Why ``value`` cannot be stored as ``dtype`` unchanged (None: it can)."""
    if value is None:
        return None
    if dtype == "string":
        return None if isinstance(value, str) else f"the tag is {describe_value(value)}, not a string ({_WHY})"
    if dtype.startswith("int"):
        whole = isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))
        return None if whole else f"{describe_value(value)} is not an integer (datasets would truncate or parse it)"
    return None if _is_number(value) else f"{describe_value(value)} is not a number"


def _place(role: str, path: list) -> str:
    """``predictions[0], position 1`` for a tag in a sentence; ``predictions[0][0]['label']`` else."""
    steps = "".join(f"[{step!r}]" for step in path)
    if path and isinstance(path[-1], int):
        steps = "".join(f"[{step!r}]" for step in path[:-1])
        return f"{role}{steps}, position {path[-1]}"
    return f"{role}{steps}"


def _walk(value, feature, role: str, path: list) -> None:
    """Refuse the first leaf of ``value`` that datasets would change when storing it as ``feature``."""
    if value is None:
        return
    kind = getattr(feature, "_type", None)
    if kind == "Value":
        problem = _leaf_problem(value, feature.dtype)
        if problem:
            raise TagTypeError(f"{_place(role, path)}: {problem}")
    elif kind in ("List", "Sequence") and not isinstance(value, (str, bytes, dict)):
        inner = feature.feature
        if (getattr(inner, "_type", None) == "Value" and inner.dtype == "string" and isinstance(value, list)
                and set(map(type, value)) <= {str}):  # the common case, without a Python step per tag
            return
        for index, item in enumerate(value):
            _walk(item, inner, role, [*path, index])
    elif isinstance(feature, dict) and isinstance(value, dict):
        for key, inner in feature.items():
            _walk(value.get(key), inner, role, [*path, key])


def _one_kind(value, role: str) -> None:
    """For a module that takes labels as strings or as numbers: refuse a mix, naming the first
    leaf whose kind differs from the first one's (datasets would quote or convert it)."""
    first = None
    stack: list[tuple[object, list]] = [(value, [])]
    while stack:
        item, path = stack.pop()
        if item is None:
            continue
        if isinstance(item, (list, tuple, np.ndarray)):
            stack.extend((item[index], [*path, index]) for index in reversed(range(len(item))))
            continue
        kind = "a string" if isinstance(item, str) else "a number" if _is_number(item) else None
        if kind is None:
            raise TagTypeError(f"{_place(role, path)}: the label is {describe_value(item)}, not a string or a number")
        first = first or kind
        if kind != first:
            raise TagTypeError(f"{_place(role, path)}: the label is {describe_value(item)}, {kind}, where the "
                               f"first label is {first}; give all labels as strings or all as numbers")


def check_module_inputs(inputs: dict, features, *, rows: bool = True) -> None:
    """Refuse module inputs that ``datasets`` would not store as given.

    With one non-string tag in a sentence (``["B-PER", 1, "O"]``: an unconverted label id),
    datasets stores the whole sentence as JSON text (types ``PER"``, ``O"``, every score 0);
    a float start is truncated, a string one parsed. ``features``: the module's
    ``datasets.Features`` (of one row), or a list of them (labels as strings or as numbers: then
    one input may not mix the two). ``rows``: each input is a column of rows (``add_batch``),
    else one row (``add``, whose inputs are named in the singular). Errors name the input,
    sentence and position, as the core's do.
    """
    for role, value in inputs.items():
        if value is None:
            continue
        if isinstance(features, (list, tuple)):
            _one_kind(value, role)
        elif role in features:
            feature = features[role]
            if not rows:
                _walk(value, feature, role.removesuffix("s"), [])
                continue
            for index, row in enumerate(value):
                _walk(row, feature, role, [index])


class CheckedInputs:
    """Mixin for the metric scripts (before ``evaluate.Metric``): ``add_batch``, ``add`` and so
    ``compute`` refuse what datasets would silently change (:func:`check_module_inputs`)."""

    features: Any  # evaluate.Metric's

    def add_batch(self, *, predictions=None, references=None, **kwargs):
        """As ``evaluate.Metric.add_batch``, refusing input datasets would change."""
        inputs = {"predictions": predictions, "references": references, **kwargs}
        check_module_inputs(inputs, self.features)
        return super().add_batch(predictions=predictions, references=references, **kwargs)  # type: ignore[misc]

    def add(self, *, prediction=None, reference=None, **kwargs):
        """As ``evaluate.Metric.add``, refusing input datasets would change."""
        example = {"predictions": prediction, "references": reference, **kwargs}
        check_module_inputs(example, self.features, rows=False)
        return super().add(prediction=prediction, reference=reference, **kwargs)  # type: ignore[misc]
