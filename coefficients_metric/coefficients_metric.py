"""Classical agreement coefficients for sequence annotation, side by side with the unitizing
alphas and the chance-corrected F1. The computation lives in the ``chance_agreement`` package;
this script only declares the inputs of its three configurations."""

import datasets
import evaluate

from chance_agreement.ecosystem.metric_docs import COEFFICIENTS_EXAMPLES
from chance_agreement.ecosystem.module_configurations import CheckedInputs, coefficients_configuration

_CITATION = """\
Artstein, R. and Poesio, M. (2008). Inter-coder agreement for computational linguistics.
Computational Linguistics 34(4). Fleiss, J. L. (1971). Measuring nominal scale agreement among
many raters. Psychological Bulletin 76(5). Krippendorff, K. (2004). Content Analysis, 2nd ed.
"""

_DESCRIPTION = """\
Chance-corrected agreement between annotations of the same tokens, on seqeval BIO inputs.

Configurations:
- "flat": the "default" result through chance_agreement.flatten ({view}_{coefficient} keys,
  numbers only), for evaluate.save, push_to_hub, bootstraps and Trainer logging.
- "default": two annotations (predictions vs references). For each requested view of the token
  contingency table (paper on prevalence, section 4.1: "all" tokens, "markables" only, "entities"
  only, "grouped" types) it returns observed agreement, Bennett's S, Scott's pi, Cohen's kappa,
  Finn's R, F-measure, F', slot error rates, the category probabilities and similarities, with a
  distance also weighted kappa and two-annotator Krippendorff's alpha, plus the contingency table;
  then the unitizing alphas (u_alpha, mu_alpha) and the token-level chance-corrected F1.
- "multi": k annotators per sentence (None for a missing one), or an items-by-annotators array of
  labels: Fleiss' kappa and nominal Krippendorff's alpha, and under "multi_rater" the several-rater
  family of Gwet (2014) (percent agreement, Brennan-Prediger, Gwet's AC1/AC2, weighted Fleiss'
  kappa, Krippendorff's alpha, Conger's and Light's kappa, Fleiss' kappa per category) with
  standard errors, t intervals, p-values and optional benchmark probabilities.
- "segmentation": per item, a list of boundary-value vectors (one per annotator): Krippendorff's
  alpha for segmentations.
- "gamma": per sentence the k annotators' tag sequences: gamma (Mathet, Widloecher and Metivier
  2015) from the exact best alignment of their entities, with gamma-cat, gamma-k and the
  Monte Carlo standard error of the expected disorder.
- "gamma": per sentence the k annotators' tag sequences: gamma (Mathet, Widloecher and Metivier
  2015) from the exact best alignment of their entities, with gamma-cat, gamma-k and the
  Monte Carlo standard error of the expected disorder.
Prevalence warning: kappa and pi depend on how many unannotated tokens are counted (the
"markables"); always report the contingency table and the view used.
"""

_KWARGS_DESCRIPTION = """
Args (config "default"):
    predictions: list of tag sequences (the other annotator; table columns).
    references: list of tag sequences (the reference annotator; table rows).
    distance: optional category distance (matrix over the "all" view's categories, i.e. sorted
        entity types then "O"; or dict of dicts; or dict keyed by (c1, c2)).
    finn_order: optional order of categories coded 1..q for Finn's R.
    views: any of "all", "markables", "entities", "grouped" (default ("all",)).
    markables: one boolean mask per sentence, for the "markables" view: tokens both annotators
        leave as O count only where the mask is True.
    scheme, mode, suffix: as in seqeval.
    confidence_level: optional, e.g. 0.95: adds "intervals" to each view (Gwet's standard errors,
        t intervals and p-values, as irrCAC's *.table functions).
Args (config "multi"):
    annotations: per sentence, the k annotators' tag sequences (None for a missing annotator);
        or per item, the k raters' labels (None for a missing one).
    unit: "token" (default; every token an item) or "entity" (every span anyone proposed).
    weights: "identity" (default), "linear", "quadratic", "ordinal", "radical", "ratio",
        "circular", "bipolar" or a matrix (irrCAC's weights), for "multi_rater".
    categories: the category order (and unused categories) for the weights.
    confidence_level (0.95), population_size (None = infinite): for the intervals.
    benchmark_scale: None, "landis_koch", "fleiss" or "altman": membership probabilities.
    scheme, mode, suffix: as in seqeval.
Args (config "segmentation"):
    items: per item, the annotators' boundary-value vectors.
    distance: "d2" (default) or "d1".
Args (config "gamma"):
    annotations: per sentence, the k annotators' tag sequences (k >= 2).
    sampler: "statistical" (default, pygamma's), "shuffle" or "random_model" (chance F1's model).
    n_samples (30), precision_level (None, a number or "high"/"medium"/"low"), random_state (0).
    annotators: names; scheme, mode, suffix: as in seqeval.
Args (config "gamma"):
    annotations: per sentence, the k annotators' tag sequences (k >= 2).
    sampler: "statistical" (default, pygamma's), "shuffle" or "random_model" (chance F1's model).
    n_samples (30), precision_level (None, a number or "high"/"medium"/"low"), random_state (0).
    annotators: names; scheme, mode, suffix: as in seqeval.
Returns:
    "default": {view: {coefficients..., "contingency": {"categories", "table"}}, ...,
        "unitizing_alpha": {"u_alpha": {...}, "mu_alpha": {...}}, "chance_f1": {...}}.
    "multi": {"fleiss_kappa", "krippendorff_alpha", ..., "multi_rater": {coefficient: {"value",
        "standard_error", "confidence_interval", "p_value", ...}, ...}}.
    "segmentation": {"alpha", "within_variance", "between_variance", ...}.
    "gamma": {"gamma", "gamma_se", "observed_disorder", "expected_disorder", "expected_disorder_se",
        "gamma_cat", "gamma_k", "n_samples", "sampler", "annotators", "warnings", "alignment"}.
    "gamma": {"gamma", "gamma_se", "observed_disorder", "expected_disorder", "expected_disorder_se",
        "gamma_cat", "gamma_k", "n_samples", "sampler", "annotators", "warnings", "alignment"}.
    Undefined values are None, with the reason in "warnings".
Examples:
""" + COEFFICIENTS_EXAMPLES

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


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class CoefficientsMetric(CheckedInputs, evaluate.Metric):
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
