"""Noise level of the agreed gold standard (Beigman Klebanov & Beigman 2009), for sequence
annotation given as seqeval tag sequences. All computation lives in ``chance_agreement.noise.noise_model``;
this script only declares the inputs of its two configurations."""

import datasets
import evaluate

from chance_agreement.ecosystem.flat import flatten
from chance_agreement.ecosystem.metric_docs import NOISE_EXAMPLES
from chance_agreement.ecosystem.module_configurations import CheckedInputs
from chance_agreement.noise.noise_model import noise_report, noise_report_multi
from chance_agreement.spans.deprecation import renamed_keywords
from chance_agreement.spans.validation import as_items

_CITATION = """\
@article{beigmanklebanov2009noise,
  title   = {From Annotator Agreement to Noise Models},
  author  = {Beigman Klebanov, Beata and Beigman, Eyal},
  journal = {Computational Linguistics},
  volume  = {35},
  number  = {4},
  pages   = {495--503},
  year    = {2009},
}
"""

_DESCRIPTION = """\
How much of the subset where annotators agree may still be coin-flip noise, and how large a
difference between two systems chance alone can produce on it.

Model: every instance is easy (all annotators agree) or hard (each annotator flips its own coin).
From the d disagreed instances out of n and the probability p that all annotators agree on a hard
instance (estimated from each annotator's category proportions on the disagreed instances),
equation 1 with a uniform prior on the number of hard instances gives t0, an upper bound on the
hard instances (at the given confidence), and the noise bound gamma = (t0 - d) / (n - d) of the
agreed subset. Also reported: Siegel & Castellan's kappa and its estimate of the noise (kappa
estimates the easy proportion), the largest number of disagreements keeping gamma within
max_noise, and the chance difference (Chebyshev, in correct answers) between two equally good
systems on the agreed gold standard.

Configurations: "default" (two annotators), "flat" (the same, numbers only: undefined values are
dropped instead of None) and "multi" (k annotators).

Instances: unit="token" makes every token an instance (category: its entity type or "O");
unit="entity" makes every span proposed by any annotator an instance (category per annotator: the
type it gave that exact span, or "O").
Configurations: "default" (two annotators: predictions and references) and "multi" (k annotators:
annotations, per item the k tag sequences).
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (config "default"): list of tag sequences of one annotator.
    references (config "default"): list of tag sequences of the other annotator, same lengths.
    annotations (config "multi"): per item (sentence), the list of the k >= 2 annotators' tag
        sequences, all of the same length; every annotator must annotate every item.
    confidence_level (float): confidence level of the bound, in (0, 1). Default 0.95 (the old name
        confidence still works in this release, with a FutureWarning).
    unit (str): "token" (default) or "entity".
    max_noise (float): noise level for tolerable_disagreements. Default 0.05.
    scheme (str): "IOB1", "IOB2", "IOE1", "IOE2", "IOBES" or "BILOU"; used with mode="strict".
    mode (str): None (conlleval-compatible, the default) or "strict", as in seqeval.
    suffix (bool): tags carry their B/I/E/S marker as a suffix. Default False.
Returns:
    instances, agreed, disagreed (ints); p (float; from all instances when none is disagreed);
    t0, noisy_items (= t0 - disagreed) (ints); noise_bound (float); confidence_level (float);
    kappa (float, None when every label is the same); kappa_noise_estimate (float or None);
    tolerable_disagreements (int, None when even 0 disagreements exceed max_noise); max_noise;
    chance_difference (int, correct answers) and chance_difference_fraction (of the agreed size);
    p_least_favourable (the largest p the pooled category proportions allow, >= p) and
    noise_bound_least_favourable (the bound under it: the one to quote when p is 0, which a
    NoiseModelWarning flags).
Examples:
""" + NOISE_EXAMPLES

_TAGS = datasets.Sequence(datasets.Value("string"))
_FEATURES = {
    "default": datasets.Features({"predictions": _TAGS, "references": _TAGS}),
    "flat": datasets.Features({"predictions": _TAGS, "references": _TAGS}),
    "multi": datasets.Features({"annotations": datasets.Sequence(_TAGS)}),
}


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class NoiseMetric(CheckedInputs, evaluate.Metric):
    def _info(self):
        if self.config_name not in _FEATURES:
            raise ValueError(
                f"unknown configuration {self.config_name!r}; use one of {sorted(_FEATURES)}"
            )
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
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
