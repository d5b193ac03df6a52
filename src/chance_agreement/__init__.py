"""Chance-corrected agreement for sequence annotation.

The public names below are imported lazily from the module that defines them, so
``import chance_agreement`` stays cheap and each idea lives in one module:

- ``tags``: entity spans from BIO/IOBES/BILOU tags, exactly as seqeval finds them.
- ``random_model``: the random annotation model (coverage and start distributions).
- ``corrected_f1``: observed, chance and chance-corrected F1 over a corpus (``chance_f1``).
- ``contingency_table``, ``agreement_coefficients``, ``multi_annotator``, ``unitizing``,
  ``segmentation``: classical agreement coefficients on the same inputs.
- ``noise``: the noise bound of an agreed gold standard.
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

# public name -> module (relative to this package) that defines it
_EXPORTS = {
    "spans_from_tags": "spans.tags",
    "coverage_probabilities": "chance.random_model",
    "start_probabilities": "chance.random_model",
    "sample_annotation": "chance.random_model",
    "expected_overlap": "chance.random_model",
    "chance_f1": "chance.corrected_f1",
    "sentence_statistics": "chance.corrected_f1",
    "ChanceStatistics": "chance.corrected_f1",
    # coefficients (prevalence paper, unitizing and segmentation alphas)
    "contingency": "coefficients.contingency_table",
    "coefficients": "coefficients.agreement_coefficients",
    "fleiss_kappa": "coefficients.multi_annotator",
    "krippendorff_alpha": "coefficients.multi_annotator",
    "agreement_report": "coefficients.agreement_coefficients",
    "multi_annotator_agreement": "coefficients.multi_annotator",
    "unitizing_alpha": "coefficients.unitizing",
    "unitizing_alpha_from_units": "coefficients.unitizing",
    "segmentation_alpha": "coefficients.segmentation",
    "entails": "coefficients.segmentation",
    "load_segmentation_json": "coefficients.segmentation",
    "boundaries_from_tags": "coefficients.segmentation",
    # noise bound of the agreed subset
    "noise_bound": "noise.noise_model",
    "hard_agreement_probability": "noise.noise_model",
    "tolerable_disagreements": "noise.noise_model",
    "chance_difference": "noise.noise_model",
    "easy_proportion_from_kappa": "noise.noise_model",
    "kappa_noise_estimate": "noise.noise_model",
    "noise_report": "noise.noise_model",
    "noise_report_multi": "noise.noise_model",
    "NoiseBound": "noise.noise_model",
    "ChanceDifference": "noise.noise_model",
    # flat results, the Trainer hook, sharded evaluation
    "flatten": "ecosystem.flat",
    "compute_metrics_fn": "ecosystem.trainer",
    "merge_statistics": "ecosystem.sharding",
    "scores_from_shards": "ecosystem.sharding",
    "sentence_statistics_batch": "ecosystem.sharding",
}

__all__ = sorted(_EXPORTS) + ["__version__"]


def __getattr__(name: str):
    module_name = _EXPORTS.get(name)
    if module_name is None:
        raise AttributeError(f"module 'chance_agreement' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module_name}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return __all__
