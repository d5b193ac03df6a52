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
from typing import TYPE_CHECKING

__version__ = "0.1.0"

# public name -> module (relative to this package) that defines it
_EXPORTS = {
    "spans_from_tags": "spans.tags",
    "OddTagWarning": "spans.tags",
    "AnnotationSet": "spans.annotation_set",
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
    "document_chance_f1": "chance.document_scores",
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
    "spark_chance_f1": "ecosystem.spark",
    "spark_chance_state": "ecosystem.spark",
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

# What type checkers and editors see (py.typed): the same names from the same modules, imported at run time only
# when first used (``__getattr__``); tests/test_layout.py checks that this list and _EXPORTS agree.
if TYPE_CHECKING:
    from .chance.annotator_test import annotator_test as annotator_test
    from .chance.bootstrap_intervals import bootstrap_scores as bootstrap_scores
    from .chance.corrected_f1 import chance_f1 as chance_f1
    from .chance.corrected_f1 import sentence_statistics as sentence_statistics
    from .chance.corrected_f1 import sentence_statistics_array as sentence_statistics_array
    from .chance.document_scores import document_chance_f1 as document_chance_f1
    from .chance.nested_f1 import nested_chance_f1 as nested_chance_f1
    from .chance.random_model import coverage_probabilities as coverage_probabilities
    from .chance.random_model import expected_overlap as expected_overlap
    from .chance.random_model import sample_annotation as sample_annotation
    from .chance.random_model import start_probabilities as start_probabilities
    from .chance.random_models import NonOverlapping as NonOverlapping
    from .chance.random_models import Overlapping as Overlapping
    from .chance.random_models import RandomModel as RandomModel
    from .chance.random_models import random_models as random_models
    from .chance.span_f1 import span_chance_f1 as span_chance_f1
    from .chance.statistics import ChanceStatistics as ChanceStatistics
    from .chance.system_comparison import compare_statistics as compare_statistics
    from .chance.system_comparison import compare_systems as compare_systems
    from .chance.team_f1 import team_chance_f1 as team_chance_f1
    from .ecosystem.chance_state import ChanceF1State as ChanceF1State
    from .ecosystem.flat import flatten as flatten
    from .ecosystem.model_cards import model_card as model_card
    from .ecosystem.module_paths import examples_path as examples_path
    from .ecosystem.module_paths import module_path as module_path
    from .ecosystem.ray_data import ray_chance_f1 as ray_chance_f1
    from .ecosystem.ray_data import ray_chance_state as ray_chance_state
    from .ecosystem.sharding import merge_statistics as merge_statistics
    from .ecosystem.sharding import scores_from_shards as scores_from_shards
    from .ecosystem.sharding import sentence_statistics_batch as sentence_statistics_batch
    from .ecosystem.spark import spark_chance_f1 as spark_chance_f1
    from .ecosystem.spark import spark_chance_state as spark_chance_state
    from .ecosystem.trainer import compute_metrics_fn as compute_metrics_fn
    from .ecosystem.trainer import module_metrics_fn as module_metrics_fn
    from .noise.noise_model import ChanceDifference as ChanceDifference
    from .noise.noise_model import NoiseBound as NoiseBound
    from .noise.noise_model import chance_difference as chance_difference
    from .noise.noise_model import easy_proportion_from_kappa as easy_proportion_from_kappa
    from .noise.noise_model import hard_agreement_probability as hard_agreement_probability
    from .noise.noise_model import kappa_noise_estimate as kappa_noise_estimate
    from .noise.noise_model import noise_bound as noise_bound
    from .noise.noise_model import noise_report as noise_report
    from .noise.noise_model import noise_report_multi as noise_report_multi
    from .noise.noise_model import tolerable_disagreements as tolerable_disagreements
    from .reliability.agreement_coefficients import agreement_report as agreement_report
    from .reliability.agreement_coefficients import coefficients as coefficients
    from .reliability.benchmark_scales import benchmark as benchmark
    from .reliability.contingency_table import contingency as contingency
    from .reliability.gamma import GammaDissimilarity as GammaDissimilarity
    from .reliability.gamma import gamma_agreement as gamma_agreement
    from .reliability.multi_annotator import fleiss_kappa as fleiss_kappa
    from .reliability.multi_annotator import krippendorff_alpha as krippendorff_alpha
    from .reliability.multi_annotator import multi_annotator_agreement as multi_annotator_agreement
    from .reliability.multi_rater import brennan_prediger as brennan_prediger
    from .reliability.multi_rater import conger_kappa as conger_kappa
    from .reliability.multi_rater import fleiss_kappa_per_category as fleiss_kappa_per_category
    from .reliability.multi_rater import gwet_ac1 as gwet_ac1
    from .reliability.multi_rater import gwet_ac2 as gwet_ac2
    from .reliability.multi_rater import krippendorff_alpha_inference as krippendorff_alpha_inference
    from .reliability.multi_rater import light_kappa as light_kappa
    from .reliability.multi_rater import multi_rater_agreement as multi_rater_agreement
    from .reliability.multi_rater import percent_agreement as percent_agreement
    from .reliability.multi_rater import weighted_fleiss_kappa as weighted_fleiss_kappa
    from .reliability.multi_rater_tags import multi_rater_report as multi_rater_report
    from .reliability.multi_rater_tags import tag_ratings as tag_ratings
    from .reliability.rater_coefficients import several_rater_coefficients as several_rater_coefficients
    from .reliability.segmentation import boundaries_from_tags as boundaries_from_tags
    from .reliability.segmentation import entails as entails
    from .reliability.segmentation import load_segmentation_json as load_segmentation_json
    from .reliability.segmentation import segmentation_alpha as segmentation_alpha
    from .reliability.table_coefficients import two_rater_coefficients as two_rater_coefficients
    from .reliability.table_inference import bootstrap_coefficient_intervals as bootstrap_coefficient_intervals
    from .reliability.table_inference import coefficient_intervals as coefficient_intervals
    from .reliability.unitizing import unitizing_alpha as unitizing_alpha
    from .reliability.unitizing import unitizing_alpha_from_units as unitizing_alpha_from_units
    from .reliability.weights import agreement_weights as agreement_weights
    from .reliability.weights import distance_from_weights as distance_from_weights
    from .reports.html_report import html_report as html_report
    from .reports.html_report import render_report as render_report
    from .reports.html_report import report_data as report_data
    from .spans.annotated_text import pair_annotations as pair_annotations
    from .spans.annotation_set import AnnotationSet as AnnotationSet
    from .spans.annotators import read_annotators as read_annotators
    from .spans.nested import innermost_tags as innermost_tags
    from .spans.nested import outermost_tags as outermost_tags
    from .spans.nested import tags_from_spans as tags_from_spans
    from .spans.readers import file_readers as file_readers
    from .spans.readers.brat import read_brat as read_brat
    from .spans.readers.jsonl import read_jsonl as read_jsonl
    from .spans.tags import OddTagWarning as OddTagWarning
    from .spans.tags import spans_from_tags as spans_from_tags
    from .spans.tokenizer import tokenize as tokenize
    from .spans.validation import TagTypeError as TagTypeError
    from .spans.validation import as_items as as_items
    from .spans.validation import by_annotator as by_annotator
    from .spans.validation import by_item as by_item


def __getattr__(name: str):
    module_name = _EXPORTS.get(name)
    if module_name is None:
        raise AttributeError(f"module 'chance_agreement' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module_name}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return __all__
