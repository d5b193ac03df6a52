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
    "spans_from_tags": "tags",
    "coverage_probabilities": "random_model",
    "start_probabilities": "random_model",
    "sample_annotation": "random_model",
    "expected_overlap": "random_model",
    "chance_f1": "corrected_f1",
    "sentence_statistics": "corrected_f1",
    "ChanceStatistics": "corrected_f1",
    # coefficients (prevalence paper, unitizing and segmentation alphas)
    "contingency": "contingency_table",
    "coefficients": "agreement_coefficients",
    "fleiss_kappa": "multi_annotator",
    "krippendorff_alpha": "multi_annotator",
    "agreement_report": "agreement_coefficients",
    "multi_annotator_agreement": "multi_annotator",
    "unitizing_alpha": "unitizing",
    "unitizing_alpha_from_units": "unitizing",
    "segmentation_alpha": "segmentation",
    "entails": "segmentation",
    "load_segmentation_json": "segmentation",
    "boundaries_from_tags": "segmentation",
    # noise bound of the agreed subset
    "noise_bound": "noise",
    "hard_agreement_probability": "noise",
    "tolerable_disagreements": "noise",
    "chance_difference": "noise",
    "easy_proportion_from_kappa": "noise",
    "kappa_noise_estimate": "noise",
    "noise_report": "noise",
    "noise_report_multi": "noise",
    "NoiseBound": "noise",
    "ChanceDifference": "noise",
    # flat results, the Trainer hook, sharded evaluation
    "flatten": "flat",
    "compute_metrics_fn": "trainer",
    "merge_statistics": "sharding",
    "scores_from_shards": "sharding",
    "sentence_statistics_batch": "sharding",
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
