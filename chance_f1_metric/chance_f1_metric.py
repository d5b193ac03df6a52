"""Chance-corrected F1 for sequence labelling: seqeval's scores plus observed, chance and
chance-corrected F1 under a random annotation model. The computation lives in the
``chance_agreement`` package; this script only declares the inputs. Configurations: "default"
(seqeval's nested per-type dicts) and "flat" (``evaluate.load(path, "flat")``: the same result
through ``chance_agreement.ecosystem.flat.flatten``, ``{type}_{stat}`` keys, floats only) and
"multi" (m >= 2 annotators: ``chance_agreement.chance.team_f1.team_chance_f1``)."""

import datasets
import evaluate

from chance_agreement.chance.corrected_f1 import chance_f1
from chance_agreement.chance.team_f1 import by_annotator, by_item, team_chance_f1
from chance_agreement.ecosystem.flat import flatten
from chance_agreement.ecosystem.metric_docs import CHANCE_F1_CITATION, CHANCE_F1_DESCRIPTION, CHANCE_F1_KWARGS


_TAGS = datasets.Sequence(datasets.Value("string", id="label"), id="sequence")
_FEATURES = datasets.Features({"predictions": _TAGS, "references": _TAGS})
# "multi": one row per sentence holding the m annotators' tag sequences (None for a missing one),
# as coefficients_metric's "multi"; compute(annotators=...) takes one list per annotator instead.
_MULTI_FEATURES = datasets.Features({"annotations": datasets.Sequence(_TAGS)})


@evaluate.utils.file_utils.add_start_docstrings(CHANCE_F1_DESCRIPTION, CHANCE_F1_KWARGS)
class ChanceF1(evaluate.Metric):
    CONFIG_NAMES = ("default", "flat", "multi")

    def _info(self):
        if self.config_name not in self.CONFIG_NAMES:
            raise ValueError(f"unknown configuration {self.config_name!r}: use one of {list(self.CONFIG_NAMES)}")
        return evaluate.MetricInfo(
            description=CHANCE_F1_DESCRIPTION,
            citation=CHANCE_F1_CITATION,
            inputs_description=CHANCE_F1_KWARGS,
            features=_MULTI_FEATURES if self.config_name == "multi" else _FEATURES,
            codebase_urls=["https://github.com/chakki-works/seqeval"],
        )

    def compute(self, *args, annotators=None, **kwargs):
        """As ``evaluate.Metric.compute``; the "multi" configuration also takes ``annotators=``."""
        if annotators is not None:
            kwargs["annotations"] = by_item(annotators, kwargs.get("annotations"))
        return super().compute(*args, **kwargs)

    def _compute(
        self,
        predictions=None,
        references=None,
        annotations=None,
        names=None,
        suffix=False,
        scheme=None,
        mode=None,
        sample_weight=None,
        zero_division="warn",
        model="non_overlapping",
        level="token",
        return_sentence_scores=False,
    ):
        if self.config_name == "multi":
            if sample_weight is not None:
                raise ValueError("sample_weight is not used by the 'multi' configuration")
            return team_chance_f1(
                by_annotator(annotations),
                names=names, level=level, model=model, suffix=suffix, scheme=scheme, mode=mode,
                zero_division=zero_division, return_sentence_scores=return_sentence_scores,
            )
        result = chance_f1(
            predictions,
            references,
            suffix=suffix,
            scheme=scheme,
            mode=mode,
            sample_weight=sample_weight,
            zero_division=zero_division,
            model=model,
            level=level,
            return_sentence_scores=return_sentence_scores,
        )
        return flatten(result) if self.config_name == "flat" else result
