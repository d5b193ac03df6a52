"""The configurations of the chance_f1_metric evaluate module, so its script stays declarative.

Each configuration names the input form the script declares (``tags``: predictions and
references as tag sequences; ``annotations``: per sentence the m annotators' tag sequences;
``spans``: per sentence lists of ``{"start", "end", "label"}`` token spans) and the core function
that computes it.
"""

from __future__ import annotations

from ..chance.corrected_f1 import chance_f1
from ..reliability.agreement_coefficients import plain
from ..reliability.multi_rater_tags import multi_rater_report
from ..reliability.segmentation import segmentation_alpha
from ..reliability.table_inference import agreement_report_with_intervals
from ..chance.nested_f1 import nested_chance_f1
from ..chance.span_f1 import span_chance_f1
from ..chance.team_f1 import as_items, by_item, team_chance_f1
from .flat import flatten

# configuration -> input form
CHANCE_F1_CONFIGURATIONS = {
    "default": "tags",
    "flat": "tags",
    "multi": "annotations",
    "spans": "spans",
    "nested_spans": "spans",
}

# coefficients_metric: configuration -> the options it takes (any other given option is refused)
COEFFICIENTS_OPTIONS = {
    "default": ("distance", "finn_order", "views", "markables", "scheme", "mode", "suffix", "confidence_level"),
    "flat": ("distance", "finn_order", "views", "markables", "scheme", "mode", "suffix", "confidence_level"),
    "multi": ("unit", "weights", "categories", "confidence_level", "population_size", "benchmark_scale", "scheme",
              "mode", "suffix"),
    "segmentation": ("distance",),
}

__all__ = ["CHANCE_F1_CONFIGURATIONS", "COEFFICIENTS_OPTIONS", "by_item", "chance_f1_configuration",
           "coefficients_configuration"]


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
    report = agreement_report_with_intervals(predictions, references, **given)
    return flatten(report) if config_name == "flat" else report


def chance_f1_configuration(config_name, *, predictions=None, references=None, annotations=None, names=None,
                            lengths=None, sample_weight=None, confidence_level=None, n_resamples=1000,
                            random_state=None, **options) -> dict:
    """The result of chance_f1_metric's configuration ``config_name``.

    ``options`` are the shared ones (``suffix``, ``scheme``, ``mode``, ``zero_division``, ``model``,
    ``level``, ``return_sentence_scores``); an argument that does not apply to the configuration
    (``lengths`` with tags, ``names`` with two annotators, ...) is refused, never ignored.
    """
    if config_name not in CHANCE_F1_CONFIGURATIONS:
        raise ValueError(f"unknown configuration {config_name!r}: use one of {list(CHANCE_F1_CONFIGURATIONS)}")
    form = CHANCE_F1_CONFIGURATIONS[config_name]
    intervals = dict(confidence_level=confidence_level, n_resamples=n_resamples, random_state=random_state)
    if form != "spans" and lengths is not None:
        raise ValueError("lengths= belongs to the 'spans' and 'nested_spans' configurations (tags carry their lengths)")
    if form != "annotations" and (annotations is not None or names is not None):
        raise ValueError("annotations= and names= belong to the 'multi' configuration")
    if form == "annotations":
        if sample_weight is not None:
            raise ValueError("sample_weight is not used by the 'multi' configuration")
        if confidence_level is not None:
            raise ValueError("confidence_level is not available in the 'multi' configuration")
        return team_chance_f1(as_items(annotations), names=names, **options)  # one row per sentence: the features say so
    if form == "spans":
        if lengths is None:
            raise ValueError(f"the {config_name!r} configuration needs lengths= (tokens per sentence)")
        if config_name == "spans":
            return span_chance_f1(predictions, references, lengths, sample_weight=sample_weight, **options, **intervals)
        unavailable = [name for name in ("suffix", "scheme", "mode", "return_sentence_scores") if options.get(name)]
        if confidence_level is not None or sample_weight is not None:
            unavailable += ["confidence_level" if confidence_level is not None else "sample_weight"]
        if unavailable:
            raise ValueError(f"{', '.join(unavailable)} not available in the 'nested_spans' configuration")
        return nested_chance_f1(predictions, references, lengths, zero_division=options["zero_division"],
                                model=options["model"], level=options["level"])
    result = chance_f1(predictions, references, sample_weight=sample_weight, **options, **intervals)
    return flatten(result) if config_name == "flat" else result
