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
    model (str): "non_overlapping" (default, the paper's experiments) or "overlapping".
    level (str): "token" (default: token-overlap F1, the paper's measure) or "entity"
        (exact span match; its observed F1 equals overall_f1).
    return_sentence_scores (bool): add "sentence_scores", per sentence observed_f1, chance_f1
        (None when the sentence has no entity on either side) and denominator.
Returns:
    seqeval's keys: one dict per entity type with precision, recall, f1, number, plus
    overall_precision, overall_recall, overall_f1, overall_accuracy; and
    overall_observed_f1, overall_chance_f1, overall_corrected_f1 at top level and
    observed_f1, chance_f1, corrected_f1 inside each type's dict. All plain Python numbers.
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
"""
