"""The configurations of the chance_f1_metric evaluate module, so its script stays declarative.

Each configuration names the input form the script declares (``tags``: predictions and
references as tag sequences; ``annotations``: per sentence the m annotators' tag sequences;
``spans``: per sentence lists of ``{"start", "end", "label"}`` token spans) and the core function
that computes it.
"""

from __future__ import annotations

from ..chance.corrected_f1 import chance_f1
from ..chance.nested_f1 import nested_chance_f1
from ..chance.span_f1 import span_chance_f1
from ..chance.team_f1 import by_annotator, by_item, team_chance_f1
from .flat import flatten

# configuration -> input form
CHANCE_F1_CONFIGURATIONS = {
    "default": "tags",
    "flat": "tags",
    "multi": "annotations",
    "spans": "spans",
    "nested_spans": "spans",
}

__all__ = ["CHANCE_F1_CONFIGURATIONS", "by_item", "chance_f1_configuration"]


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
        return team_chance_f1(by_annotator(annotations), names=names, **options)
    if form == "spans":
        if lengths is None:
            raise ValueError(f"the {config_name!r} configuration needs lengths= (tokens per sentence)")
        if config_name == "spans":
            return span_chance_f1(predictions, references, lengths, sample_weight=sample_weight, **options, **intervals)
        unavailable = [name for name in ("suffix", "scheme", "mode", "return_sentence_scores") if options.get(name)]
        unavailable += [name for name, value in (("confidence_level", confidence_level), ("sample_weight", sample_weight),
                                                 ("document_ids", document_ids)) if value is not None]
        if unavailable:
            raise ValueError(f"{', '.join(unavailable)} not available in the 'nested_spans' configuration")
        return nested_chance_f1(predictions, references, lengths, zero_division=options["zero_division"],
                                model=options["model"], level=options["level"])
    result = chance_f1(predictions, references, sample_weight=sample_weight, **options, **intervals)
    return flatten(result) if config_name == "flat" else result
