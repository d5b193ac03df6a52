"""Chance-corrected agreement for sequence annotation.

The package has one folder per layer, lowest first; a module imports only from its own layer and
the layers below (``tests/test_layout.py`` checks it):

- ``spans``: entity spans from BIO/IOBES/BILOU tags, exactly as seqeval finds them, and file readers.
- ``chance``: the random annotation model and the chance-corrected F1 built on it (``chance_f1``).
- ``reliability``: the classical coefficients: contingency tables, kappa-type coefficients, several
  annotators, unitizing and segmentation alphas.
- ``noise``: the noise bound of an agreed gold standard.
- ``ecosystem``: evaluate module docs, flat results, the Trainer hook, sharding, Hub export.
- ``reports``: the leaderboard, plots and the command line.

The public names below are imported lazily from the module that defines them, so
``import chance_agreement`` stays cheap.
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

# public name -> module (relative to this package) that defines it
_EXPORTS = {
    "spans_from_tags": "spans.tags",
    "OddTagWarning": "spans.tags",
    "TagTypeError": "spans.validation",
    # several annotators: one layout (per sentence, the annotators' tags), stated or converted
    "as_items": "spans.validation",
    "by_item": "spans.validation",
    "by_annotator": "spans.validation",
    "coverage_probabilities": "chance.random_model",
    "start_probabilities": "chance.random_model",
    "sample_annotation": "chance.random_model",
    "expected_overlap": "chance.random_model",
    # random annotation models: a registered name or an instance wherever model= is taken
    "RandomModel": "chance.random_models",
    "NonOverlapping": "chance.random_models",
    "Overlapping": "chance.random_models",
    "chance_f1": "chance.corrected_f1",
    "sentence_statistics": "chance.corrected_f1",
    "ChanceStatistics": "chance.statistics",
    # span lists and nested annotations
    "span_chance_f1": "chance.span_f1",
    "nested_chance_f1": "chance.nested_f1",
    "tags_from_spans": "spans.nested",
    "outermost_tags": "spans.nested",
    "innermost_tags": "spans.nested",
    "read_annotators": "spans.annotators",
    # the registries, one shape (``spans.registry.Registry``: register, get, names)
    "file_readers": "spans.readers",
    "two_rater_coefficients": "reliability.table_coefficients",
    "several_rater_coefficients": "reliability.rater_coefficients",
    "random_models": "chance.random_models",
    "read_jsonl": "spans.readers.jsonl",
    "read_brat": "spans.readers.brat",
    "pair_annotations": "spans.annotated_text",
    "tokenize": "spans.tokenizer",
    # intervals and significance tests
    "bootstrap_scores": "chance.bootstrap_intervals",
    "compare_systems": "chance.system_comparison",
    "compare_statistics": "chance.system_comparison",
    "team_chance_f1": "chance.team_f1",
    "annotator_test": "chance.annotator_test",
    "sentence_statistics_array": "chance.corrected_f1",
    # coefficients (prevalence paper, unitizing and segmentation alphas)
    "contingency": "reliability.contingency_table",
    "coefficients": "reliability.agreement_coefficients",
    "fleiss_kappa": "reliability.multi_annotator",
    "krippendorff_alpha": "reliability.multi_annotator",
    "agreement_report": "reliability.agreement_coefficients",
    "coefficient_intervals": "reliability.table_inference",
    "bootstrap_coefficient_intervals": "reliability.table_inference",
    "multi_annotator_agreement": "reliability.multi_annotator",
    "multi_rater_agreement": "reliability.multi_rater",
    "percent_agreement": "reliability.multi_rater",
    "brennan_prediger": "reliability.multi_rater",
    "gwet_ac1": "reliability.multi_rater",
    "gwet_ac2": "reliability.multi_rater",
    "conger_kappa": "reliability.multi_rater",
    "light_kappa": "reliability.multi_rater",
    "weighted_fleiss_kappa": "reliability.multi_rater",
    "fleiss_kappa_per_category": "reliability.multi_rater",
    "krippendorff_alpha_inference": "reliability.multi_rater",
    "agreement_weights": "reliability.weights",
    "distance_from_weights": "reliability.weights",
    "multi_rater_report": "reliability.multi_rater_tags",
    "tag_ratings": "reliability.multi_rater_tags",
    "benchmark": "reliability.benchmark_scales",
    "unitizing_alpha": "reliability.unitizing",
    "unitizing_alpha_from_units": "reliability.unitizing",
    "segmentation_alpha": "reliability.segmentation",
    "entails": "reliability.segmentation",
    "load_segmentation_json": "reliability.segmentation",
    "boundaries_from_tags": "reliability.segmentation",
    # gamma (Mathet et al. 2015): exact alignment, sampled expected disorder
    "gamma_agreement": "reliability.gamma",
    "GammaDissimilarity": "reliability.gamma",
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
    "module_metrics_fn": "ecosystem.trainer",
    "ChanceF1State": "ecosystem.chance_state",
    "merge_statistics": "ecosystem.sharding",
    "scores_from_shards": "ecosystem.sharding",
    "sentence_statistics_batch": "ecosystem.sharding",
    "ray_chance_f1": "ecosystem.ray_data",
    "ray_chance_state": "ecosystem.ray_data",
    # the HTML agreement report
    "html_report": "reports.html_report",
    "report_data": "reports.html_report",
    "render_report": "reports.html_report",
    # the evaluate module folders after a plain pip install; Hub model cards
    "module_path": "ecosystem.module_paths",
    "examples_path": "ecosystem.module_paths",
    "model_card": "ecosystem.model_cards",
}

__all__ = [*sorted(_EXPORTS), "__version__"]


def __getattr__(name: str):
    module_name = _EXPORTS.get(name)
    if module_name is None:
        raise AttributeError(f"module 'chance_agreement' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module_name}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return __all__
