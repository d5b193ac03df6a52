"""Classical agreement coefficients for sequence annotation, side by side with the unitizing
alphas and the chance-corrected F1. The computation lives in the ``chance_agreement`` package;
this script only declares the inputs of its three configurations."""

import datasets
import evaluate

from chance_agreement.ecosystem.metric_docs import module_docs
from chance_agreement.ecosystem.module_configurations import CheckedInputs, coefficients_configuration

# The module's description, citation and inputs description come from its metric card's text
# (chance_agreement.ecosystem.metric_docs, which also writes hub_cards/): one text for both.
_DOCS = module_docs("coefficients")

_TAGS = datasets.Sequence(datasets.Value("string"))
_FEATURES = {
    "default": datasets.Features({"predictions": _TAGS, "references": _TAGS}),
    "flat": datasets.Features({"predictions": _TAGS, "references": _TAGS}),
    # "multi": per sentence the k annotators' tag sequences, or per item the k raters' labels
    # (strings or numbers); evaluate picks the first form the input fits
    "multi": [
        datasets.Features({"annotations": datasets.Sequence(_TAGS)}),
        datasets.Features({"annotations": datasets.Sequence(datasets.Value("string"))}),
        datasets.Features({"annotations": datasets.Sequence(datasets.Value("float64"))}),
    ],
    "segmentation": datasets.Features(
        {"items": datasets.Sequence(datasets.Sequence(datasets.Value("float64")))}
    ),
    "gamma": datasets.Features({"annotations": datasets.Sequence(_TAGS)}),
}


@evaluate.utils.file_utils.add_start_docstrings(_DOCS.description, _DOCS.inputs_description)
class CoefficientsMetric(CheckedInputs, evaluate.Metric):
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
        )

    def _compute(self, predictions=None, references=None, annotations=None, items=None, distance=None,
                 finn_order=None, views=None, markables=None, scheme=None, mode=None, suffix=False,
                 confidence_level=None, unit=None, weights=None, categories=None, population_size=None,
                 benchmark_scale=None, sampler=None, n_samples=None, precision_level=None, random_state=None,
                 annotators=None):
        return coefficients_configuration(
            self.config_name, predictions=predictions, references=references, annotations=annotations, items=items,
            distance=distance, finn_order=finn_order, views=views, markables=markables, scheme=scheme, mode=mode,
            suffix=suffix, confidence_level=confidence_level, unit=unit, weights=weights, categories=categories,
            population_size=population_size, benchmark_scale=benchmark_scale, sampler=sampler, n_samples=n_samples,
            precision_level=precision_level, random_state=random_state, annotators=annotators)
