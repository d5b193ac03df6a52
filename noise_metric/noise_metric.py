"""Noise level of the agreed gold standard (Beigman Klebanov & Beigman 2009), for sequence
annotation given as seqeval tag sequences. All computation lives in ``chance_agreement.noise.noise_model``;
this script only declares the inputs of its two configurations."""

import datasets
import evaluate

from chance_agreement.ecosystem.flat import flatten
from chance_agreement.ecosystem.module_configurations import CheckedInputs
from chance_agreement.ecosystem.metric_docs import module_docs
from chance_agreement.noise.noise_model import noise_report, noise_report_multi
from chance_agreement.spans.deprecation import renamed_keywords
from chance_agreement.spans.validation import as_items

# The module's description, citation and inputs description come from its metric card's text
# (chance_agreement.ecosystem.metric_docs, which also writes hub_cards/): one text for both.
_DOCS = module_docs("noise")

_TAGS = datasets.Sequence(datasets.Value("string"))
_FEATURES = {
    "default": datasets.Features({"predictions": _TAGS, "references": _TAGS}),
    "flat": datasets.Features({"predictions": _TAGS, "references": _TAGS}),
    "multi": datasets.Features({"annotations": datasets.Sequence(_TAGS)}),
}


@evaluate.utils.file_utils.add_start_docstrings(_DOCS.description, _DOCS.inputs_description)
class NoiseMetric(CheckedInputs, evaluate.Metric):
    def _info(self):
        if self.config_name not in _FEATURES:
            raise ValueError(
                f"unknown configuration {self.config_name!r}; use one of {sorted(_FEATURES)}"
            )
        return evaluate.MetricInfo(
            description=_DOCS.description,
            citation=_DOCS.citation,
            inputs_description=_DOCS.inputs_description,
            features=_FEATURES[self.config_name],
            reference_urls=["https://doi.org/10.1162/coli.2009.35.4.35402"],
        )

    @renamed_keywords(confidence="confidence_level")
    def _compute(
        self,
        predictions=None,
        references=None,
        annotations=None,
        confidence_level=0.95,
        unit="token",
        max_noise=0.05,
        scheme=None,
        mode=None,
        suffix=False,
    ):
        options = dict(
            confidence_level=confidence_level, unit=unit, max_noise=max_noise, scheme=scheme, mode=mode, suffix=suffix
        )
        if self.config_name == "multi":
            return noise_report_multi(as_items(annotations), **options)  # one row per item: the features say so
        report = noise_report(predictions, references, **options)
        return flatten(report) if self.config_name == "flat" else report
