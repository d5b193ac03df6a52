"""Chance-corrected F1 for sequence labelling: seqeval's scores plus observed, chance and
chance-corrected F1 under a random annotation model. The computation lives in the
``chance_agreement`` package (``chance_agreement.ecosystem.module_configurations``); this script
only declares the inputs. Configurations: "default" (seqeval's nested per-type dicts), "flat"
(``{type}_{stat}`` keys, floats only), "multi" (m >= 2 annotators: ``team_chance_f1``), "spans"
(per sentence a list of ``{"start", "end", "label"}`` token spans, half-open, plus ``lengths=``:
``span_chance_f1``) and "nested_spans" (spans may nest: ``nested_chance_f1``)."""

import datasets
import evaluate

from chance_agreement.ecosystem.metric_docs import module_docs
from chance_agreement.ecosystem.module_configurations import (
    CHANCE_F1_CONFIGURATIONS,
    CheckedInputs,
    by_item,
    chance_f1_configuration,
)

# The module's description, citation and inputs description come from its metric card's text
# (chance_agreement.ecosystem.metric_docs, which also writes hub_cards/): one text for both.
_DOCS = module_docs("chance_f1")

_TAGS = datasets.Sequence(datasets.Value("string", id="label"), id="sequence")
_SPANS = [{"start": datasets.Value("int64"), "end": datasets.Value("int64"), "label": datasets.Value("string")}]
_FEATURES = {
    "tags": datasets.Features({"predictions": _TAGS, "references": _TAGS}),
    # one row per sentence holding the m annotators' tag sequences (None for a missing one)
    "annotations": datasets.Features({"annotations": datasets.Sequence(_TAGS)}),
    "spans": datasets.Features({"predictions": _SPANS, "references": _SPANS}),
}


@evaluate.utils.file_utils.add_start_docstrings(_DOCS.description, _DOCS.inputs_description)
class ChanceF1(CheckedInputs, evaluate.Metric):
    def _info(self):
        if self.config_name not in CHANCE_F1_CONFIGURATIONS:
            raise ValueError(f"unknown configuration {self.config_name!r}: use one of {list(CHANCE_F1_CONFIGURATIONS)}")
        return evaluate.MetricInfo(
            description=_DOCS.description,
            citation=_DOCS.citation,
            inputs_description=_DOCS.inputs_description,
            features=_FEATURES[CHANCE_F1_CONFIGURATIONS[self.config_name]],
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
        lengths=None,
        suffix=False,
        scheme=None,
        mode=None,
        sample_weight=None,
        zero_division="warn",
        model="non_overlapping",
        level="token",
        return_sentence_scores=False,
        confidence_level=None,
        n_resamples=1000,
        random_state=None,
        resampling="multinomial",
        document_ids=None,
    ):
        return chance_f1_configuration(
            self.config_name,
            predictions=predictions,
            references=references,
            annotations=annotations,
            names=names,
            lengths=lengths,
            suffix=suffix,
            scheme=scheme,
            mode=mode,
            sample_weight=sample_weight,
            zero_division=zero_division,
            model=model,
            level=level,
            return_sentence_scores=return_sentence_scores,
            confidence_level=confidence_level,
            n_resamples=n_resamples,
            random_state=random_state,
            resampling=resampling,
            document_ids=document_ids,
        )
