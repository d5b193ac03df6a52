"""Descriptions shared by the evaluate module scripts and the Hub cards."""

CHANCE_F1_CITATION = """\
@misc{chance_agreement_sequence_annotation,
  title  = {Estimating Agreement by Chance for Sequence Annotation},
  author = {Anonymous},
  note   = {ACL submission},
}
@misc{seqeval,
  title  = {{seqeval}: A Python framework for sequence labeling evaluation},
  author = {Hiroki Nakayama},
  year   = {2018},
  url    = {https://github.com/chakki-works/seqeval},
}
"""

CHANCE_F1_DESCRIPTION = """\
Chance-corrected F1 for sequence labelling (NER and other span tasks). It returns every score of
the seqeval metric (same keys, same values) plus the observed, chance and chance-corrected F1,
overall and per entity type. Chance agreement comes from a random annotation model: for each
sentence, entity type and annotator, the segments keep their number and lengths and are placed
uniformly at random (non-overlapping by default). Corrected F1 = (observed - chance) / (1 - chance),
micro-averaged over sentences and types as in the paper.
"""

CHANCE_F1_KWARGS = """
Args:
    predictions: list of predicted tag sequences (one list of string tags per sentence).
    references: list of reference tag sequences, the same lengths.
    suffix (bool): tags carry their B/I/E/S marker as a suffix (e.g. "PER-B"). Default False.
    scheme (str): "IOB1", "IOB2", "IOE1", "IOE2", "IOBES" or "BILOU"; used with mode="strict".
    mode (str): None (conlleval-compatible, the default) or "strict".
    sample_weight: accepted for compatibility with seqeval; it has no effect there or here.
    zero_division: "warn" (0 with a warning), 0 or 1: the value of a 0/0 score.
    model (str): "non_overlapping" (default, the paper's experiments) or "overlapping" (chance F1
        can then exceed 1; corrected F1 then takes the zero_division value).
    level (str): "token" (default: token-overlap F1, the paper's measure) or "entity"
        (exact span match; its observed F1 equals overall_f1).
    return_sentence_scores (bool): add "sentence_scores", per sentence observed_f1, chance_f1
        (None when the sentence has no entity on either side) and denominator.
    lengths (list of int): configurations "spans" and "nested_spans" only: tokens per sentence. There,
        predictions and references are per sentence lists of {"start", "end", "label"} token
        spans (half-open: tokens start .. end - 1). "spans" gives the tag result of their IOB2
        tags; "nested_spans" lets spans nest and adds "depths", the same keys for every depth.
    confidence_level (float): None (default, off) or e.g. 0.95: add sentence-bootstrap percentile
        intervals of observed, chance and corrected F1 ("..._ci" keys, [low, high]).
    n_resamples (int): bootstrap resamples (default 1000).
    random_state: int, numpy Generator or None (default, unseeded): the bootstrap's seed.
    resampling (str): "multinomial" (default: sentences drawn with replacement) or "poisson":
        Poisson(1) weights that depend only on each sentence's document id and the seed, so
        sharded and streamed evaluations (ChanceF1State, the Ray adapter, multi-process mode)
        give the same intervals bit for bit.
    document_ids (list of int or str): resampling="poisson" only: one id per sentence (default
        the positions 0, 1, ...); sentences sharing an id are resampled together.
Args (configuration "multi", m >= 2 annotators):
    annotations: per sentence, the m annotators' tag sequences (None for a missing annotator);
        or annotators=: per annotator, its tag sequences of every sentence (None likewise).
    names: the annotators' names (default annotator_1, ...).
    suffix, scheme, mode, zero_division, model, level, return_sentence_scores: as above
        (a sentence's scores pool all its pairs).
Returns:
    seqeval's keys: one dict per entity type with precision, recall, f1, number, plus
    overall_precision, overall_recall, overall_f1, overall_accuracy; and
    overall_observed_f1, overall_chance_f1, overall_corrected_f1 at top level and
    observed_f1, chance_f1, corrected_f1 inside each type's dict. All plain Python numbers.
    With confidence_level: overall_observed_f1_ci, overall_chance_f1_ci, overall_corrected_f1_ci
    and, per type, observed_f1_ci, chance_f1_ci, corrected_f1_ci ([low, high] lists; the "flat"
    configuration gives ..._ci_low and ..._ci_high).
    "multi": overall_observed_f1, overall_chance_f1, overall_corrected_f1; per type observed_f1,
    chance_f1, corrected_f1; annotators; per_annotator {name: the three scores}; and
    pairwise_observed_f1, pairwise_chance_f1, pairwise_corrected_f1 (m x m, diagonal None).
Examples:
    >>> import evaluate
    >>> chance_f1 = evaluate.load("./chance_f1_metric")
    >>> references = [["O", "O", "O", "B-PER", "I-PER", "O", "O", "O", "B-LOC", "O"]]
    >>> predictions = [["O", "O", "O", "B-PER", "I-PER", "I-PER", "O", "O", "B-LOC", "O"]]
    >>> results = chance_f1.compute(predictions=predictions, references=references)
    >>> round(results["overall_f1"], 4), round(results["overall_observed_f1"], 4)
    (0.5, 0.8571)
    >>> round(results["overall_chance_f1"], 4), round(results["overall_corrected_f1"], 4)
    (0.2111, 0.8189)

    A long entity in a short sentence: most of the observed token agreement is chance.

    >>> references = [["B-ORG", "I-ORG", "I-ORG", "I-ORG", "O"]]
    >>> predictions = [["B-ORG", "I-ORG", "I-ORG", "O", "O"]]
    >>> results = chance_f1.compute(predictions=predictions, references=references)
    >>> print({key: round(value, 4) for key, value in results["ORG"].items()})
    {'precision': 0.0, 'recall': 0.0, 'f1': 0.0, 'number': 1, 'observed_f1': 0.8571, 'chance_f1': 0.7619, 'corrected_f1': 0.4}

    Exact-span level: the observed F1 is seqeval's overall_f1.

    >>> references = [["O", "O", "O", "B-PER", "I-PER", "O", "O", "O", "B-LOC", "O"]]
    >>> predictions = [["O", "O", "O", "B-PER", "I-PER", "I-PER", "O", "O", "B-LOC", "O"]]
    >>> results = chance_f1.compute(predictions=predictions, references=references, level="entity")
    >>> print({key: round(value, 4) for key, value in results.items() if key.startswith("overall")})
    {'overall_precision': 0.5, 'overall_recall': 0.5, 'overall_f1': 0.5, 'overall_accuracy': 0.9, 'overall_observed_f1': 0.5, 'overall_chance_f1': 0.05, 'overall_corrected_f1': 0.4737}

    The two random models differ once a type has several segments in a sentence.

    >>> references = [["B-PER", "I-PER", "O", "B-PER", "O", "O"]]
    >>> predictions = [["B-PER", "I-PER", "O", "O", "B-PER", "O"]]
    >>> for model in ("non_overlapping", "overlapping"):
    ...     results = chance_f1.compute(predictions=predictions, references=references, model=model)
    ...     print(model, round(results["overall_chance_f1"], 4), round(results["overall_corrected_f1"], 4))
    non_overlapping 0.51 0.3197
    overlapping 0.5178 0.3088

    Per-sentence scores (a sentence without entities has no chance level):

    >>> references = [["B-PER", "I-PER", "O", "O", "B-LOC", "O"], ["O", "O", "O"]]
    >>> predictions = [["B-PER", "I-PER", "O", "O", "O", "O"], ["O", "O", "O"]]
    >>> results = chance_f1.compute(predictions=predictions, references=references, return_sentence_scores=True, zero_division=0)
    >>> for sentence in results["sentence_scores"]:
    ...     print({key: value if value is None else round(value, 4) for key, value in sentence.items()})
    {'observed_f1': 0.8, 'chance_f1': 0.288, 'denominator': 5.0}
    {'observed_f1': None, 'chance_f1': None, 'denominator': 0.0}

    Sentence-bootstrap intervals (seeded; 1,000 resamples of the 4 sentences by default):

    >>> references = [["B-PER", "I-PER", "O", "O", "B-LOC", "O"], ["O", "B-ORG", "I-ORG", "I-ORG", "O"],
    ...               ["B-LOC", "O", "O", "B-PER", "I-PER", "O", "O"], ["B-ORG", "O", "B-PER", "O"]]
    >>> predictions = [["B-PER", "I-PER", "O", "O", "O", "O"], ["O", "B-ORG", "I-ORG", "O", "O"],
    ...                ["B-LOC", "O", "O", "B-PER", "O", "O", "B-LOC"], ["B-ORG", "O", "B-PER", "I-PER"]]
    >>> results = chance_f1.compute(predictions=predictions, references=references, confidence_level=0.9, random_state=0)
    >>> round(results["overall_corrected_f1"], 4), [round(bound, 4) for bound in results["overall_corrected_f1_ci"]]
    (0.6491, [0.5859, 0.7167])
    >>> [round(bound, 4) for bound in results["PER"]["corrected_f1_ci"]]
    [0.5, 1.0]

    A team of three annotators ("multi" configuration): one list of tag sequences per annotator,
    None where an annotator did not annotate the sentence (annotations= takes the transposed,
    per-sentence form). Pairwise micro average; per annotator: against all the others pooled.

    >>> team = evaluate.load("./chance_f1_metric", "multi")
    >>> annotators = [
    ...     [["B-PER", "I-PER", "O", "O", "B-LOC", "O"], ["O", "B-ORG", "I-ORG", "O"]],
    ...     [["B-PER", "I-PER", "O", "O", "B-LOC", "O"], ["O", "B-ORG", "O", "O"]],
    ...     [["B-PER", "O", "O", "B-LOC", "I-LOC", "O"], None],
    ... ]
    >>> results = team.compute(annotators=annotators, names=["ann", "bob", "cy"])
    >>> print(round(results["overall_observed_f1"], 4), round(results["overall_chance_f1"], 4), round(results["overall_corrected_f1"], 4))
    0.7619 0.259 0.6787
    >>> print({name: round(scores["corrected_f1"], 4) for name, scores in results["per_annotator"].items()})
    {'ann': 0.7246, 'bob': 0.7246, 'cy': 0.5714}
    >>> print([[None if value is None else round(value, 4) for value in row] for row in results["pairwise_corrected_f1"]])
    [[None, 0.8394, 0.5714], [0.8394, None, 0.5714], [0.5714, 0.5714, None]]
"""

# Examples shown in the coefficients and noise metric cards (hub_cards/); the module scripts
# append them to their inputs_description so that evaluate shows the same examples.
COEFFICIENTS_EXAMPLES = """
    >>> import evaluate
    >>> coefficients = evaluate.load("./coefficients_metric")
    >>> references = [["B-PER", "I-PER", "O", "O", "B-LOC", "O", "O", "B-ORG", "O", "O"],
    ...               ["O", "B-ORG", "I-ORG", "O", "O", "O", "B-PER", "O"]]
    >>> predictions = [["B-PER", "I-PER", "O", "O", "B-ORG", "O", "O", "B-ORG", "O", "O"],
    ...                ["O", "B-ORG", "O", "O", "O", "O", "B-PER", "B-LOC"]]
    >>> results = coefficients.compute(predictions=predictions, references=references, views=["all", "entities", "grouped"])
    >>> print(results["all"]["contingency"])
    {'categories': ['LOC', 'ORG', 'PER', 'O'], 'table': [[0, 1, 0, 0], [0, 2, 0, 1], [0, 0, 3, 0], [1, 0, 0, 10]]}
    >>> for view in ("all", "entities", "grouped"):
    ...     print(view, [round(results[view][key], 4) for key in ("observed_agreement", "scott_pi", "cohen_kappa", "f_measure")])
    all [0.8333, 0.7065, 0.7065, 0.7143]
    entities [0.8333, 0.7073, 0.7143, 0.8333]
    grouped [0.8889, 0.7662, 0.7662, 0.8571]
    >>> print({variant: round(value["alpha"], 4) for variant, value in results["unitizing_alpha"].items()})
    {'u_alpha': 0.7432, 'mu_alpha': 0.716}
    >>> print(round(results["chance_f1"]["overall_corrected_f1"], 4))
    0.667

    With a distance between categories (LOC and ORG are close), weighted kappa and alpha:

    >>> distance = {"LOC": {"ORG": 0.5, "PER": 1, "O": 1}, "ORG": {"PER": 1, "O": 1}, "PER": {"O": 1}}
    >>> results = coefficients.compute(predictions=predictions, references=references, distance=distance)
    >>> print([round(results["all"][key], 4) for key in ("cohen_kappa", "weighted_kappa", "krippendorff_alpha")])
    [0.7065, 0.7514, 0.7583]

    Three annotators, one of them missing on the second sentence ("multi" configuration):

    >>> multi = evaluate.load("./coefficients_metric", "multi")
    >>> annotations = [[["B-PER", "I-PER", "O", "B-LOC"], ["B-PER", "I-PER", "O", "O"], ["B-PER", "O", "O", "B-LOC"]],
    ...                [["O", "B-ORG", "I-ORG"], ["O", "B-ORG", "I-ORG"], None]]
    >>> results = multi.compute(annotations=annotations)
    >>> print(round(results["fleiss_kappa"], 4), round(results["krippendorff_alpha"], 4), results["n_tokens"], results["n_annotators"])
    0.7308 0.7043 7 3

    The several-rater family with Gwet's standard errors and t intervals (under "multi_rater"):

    >>> family = results["multi_rater"]
    >>> for name in ("percent_agreement", "brennan_prediger", "gwet_ac1", "fleiss_kappa", "krippendorff_alpha", "conger_kappa"):
    ...     print(name, round(family[name]["value"], 4), round(family[name]["standard_error"], 4), [round(x, 3) for x in family[name]["confidence_interval"]])
    percent_agreement 0.8095 0.123 [0.509, 1.0]
    brennan_prediger 0.746 0.1639 [0.345, 1.0]
    gwet_ac1 0.7507 0.164 [0.349, 1.0]
    fleiss_kappa 0.7308 0.164 [0.33, 1.0]
    krippendorff_alpha 0.7043 0.1822 [0.259, 1.0]
    conger_kappa 0.7377 0.1642 [0.336, 1.0]

    An items-by-annotators array (Krippendorff's C data, irrCAC's cac.raw4raters: 12 units, 4
    raters, None where a rater is missing), benchmarked on the Landis-Koch scale:

    >>> ratings = [[1, 1, None, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2], [1, 2, 3, 4],
    ...            [4, 4, 4, 4], [1, 1, 2, 1], [2, 2, 2, 2], [None, 5, 5, 5], [None, None, 1, 1], [None, None, 3, None]]
    >>> results = multi.compute(annotations=ratings, benchmark_scale="landis_koch")
    >>> ac1 = results["multi_rater"]["gwet_ac1"]
    >>> print(round(ac1["value"], 5), round(ac1["expected_agreement"], 7), round(ac1["standard_error"], 5), round(ac1["p_value"], 6))
    0.77544 0.1903212 0.14295 0.000209
    >>> most_likely, retained = ac1["benchmark"]["most_likely"], ac1["benchmark"]["retained"]
    >>> print(most_likely["label"], round(most_likely["probability"], 2), "| at least", retained["label"], round(retained["probability"], 3))
    Substantial 0.49 | at least Moderate 0.995

    Segmentations as boundary vectors, one per annotator and item ("segmentation" configuration):

    >>> segmentation = evaluate.load("./coefficients_metric", "segmentation")
    >>> results = segmentation.compute(items=[[[1, 0, 0, 1, 0], [1, 0, 0, 0, 1]], [[0, 1, 0], [0, 1, 0], [1, 0, 0]]])
    >>> print([round(results[key], 4) for key in ("alpha", "within_variance", "between_variance")])
    [0.064, 0.2111, 0.2256]
"""

NOISE_EXAMPLES = """
    >>> import evaluate
    >>> noise = evaluate.load("./noise_metric")

    The noise paper's scenario as tags: 1,000 tokens, 100 disagreements split evenly (p = 0.5).

    >>> references = [["B-PER" if i % 10 == 5 and s % 2 == 0 else "O" for i in range(100)] for s in range(10)]
    >>> predictions = [["B-PER" if i % 10 == 5 and s % 2 == 1 else "O" for i in range(100)] for s in range(10)]
    >>> out = noise.compute(predictions=predictions, references=references)
    >>> print(out["instances"], out["agreed"], out["disagreed"], out["p"], out["t0"], out["noisy_items"], round(out["noise_bound"], 4))
    1000 900 100 0.5 225 125 0.1389
    >>> print(out["tolerable_disagreements"], out["chance_difference"], round(out["chance_difference_fraction"], 4))
    33 35 0.0389
    >>> out = noise.compute(predictions=predictions, references=references, confidence_level=0.99)
    >>> print(out["t0"], round(out["noise_bound"], 4))
    236 0.1511

    Entity instances: every span proposed by either annotator.

    >>> references = [["B-PER", "I-PER", "O", "B-LOC", "O", "B-ORG", "I-ORG", "O"]]
    >>> predictions = [["B-PER", "I-PER", "O", "B-ORG", "O", "B-ORG", "O", "O"]]
    >>> out = noise.compute(predictions=predictions, references=references, unit="entity")
    >>> print(out["instances"], out["agreed"], out["disagreed"])
    4 1 3

    Three annotators ("multi" configuration):

    >>> multi = evaluate.load("./noise_metric", "multi")
    >>> annotations = [[["B-PER", "O", "B-LOC", "O"], ["B-PER", "O", "B-LOC", "O"], ["B-PER", "O", "O", "O"]],
    ...                [["O", "B-ORG", "I-ORG", "O"], ["O", "B-ORG", "I-ORG", "O"], ["O", "B-ORG", "I-ORG", "O"]]]
    >>> out = multi.compute(annotations=annotations)
    >>> print(out["instances"], out["agreed"], out["disagreed"], round(out["kappa"], 4))
    8 7 1 0.8659
"""


__all__ = [
    "CHANCE_F1_CITATION",
    "CHANCE_F1_DESCRIPTION",
    "CHANCE_F1_KWARGS",
    "COEFFICIENTS_EXAMPLES",
    "NOISE_EXAMPLES",
]
