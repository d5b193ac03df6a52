"""A spaCy scorer: observed, chance and chance-corrected F1 of ``doc.ents`` from ``Example`` objects.

Registered in spaCy's ``scorers`` registry through the ``spacy_scorers`` entry point (pyproject.toml),
so a training config selects it by name, with nothing to import::

    [components.ner.scorer]
    @scorers = "chance_agreement.ner_scorer.v1"
    level = "token"                      # or "entity" (exact span match)
    model = "non_overlapping"            # or "overlapping"

    [training.score_weights]
    ents_corrected_f1 = 1.0              # pick the best model on the corrected F1
    ents_f = 0.0

The scorer returns spaCy's own NER scores unchanged (``ents_p``, ``ents_r``, ``ents_f``,
``ents_per_type`` from ``spacy.scorer.get_ner_prf``, what ``spacy.ner_scorer.v1`` gives) plus
``ents_observed_f1``, ``ents_chance_f1``, ``ents_corrected_f1`` (``None`` when neither side has an
entity, as spaCy's own scores) and ``ents_chance_per_type`` (per label the three scores). The
corrected score never takes spaCy's ``ents_f`` key.

Each example's entities become IOB2 tags over the reference tokens: the reference's from its token
annotation, the prediction's projected through the example's alignment
(``Example.get_aligned_spans_x2y``). The tags go into one ``ChanceF1State`` (``chance_f1``'s
statistics, so the numbers are ``chance_f1``'s on those tags, bit for bit). As in spaCy's NER
scorer, a reference without entity annotation is skipped; a warning counts those, reference tokens
whose annotation is missing (scored as outside any entity) and predicted entities that do not align
with the reference tokens.
"""

from __future__ import annotations

import warnings

from .chance_state import ChanceF1State

SCORER_NAME = "chance_agreement.ner_scorer.v1"
SCORES = ("observed_f1", "chance_f1", "corrected_f1")


def _reference_tags(doc) -> tuple[list[str], int]:
    """IOB2 tags of the reference tokens and how many tokens have no entity annotation."""
    tags, missing = [], 0
    for token in doc:
        if token.ent_iob_ in ("B", "I"):
            tags.append(f"{token.ent_iob_}-{token.ent_type_}")
        else:
            missing += token.ent_iob_ == ""
            tags.append("O")
    return tags, missing


def _predicted_tags(example) -> tuple[list[str], int]:
    """IOB2 tags of the predicted entities on the reference tokens, and how many did not align."""
    tags = ["O"] * len(example.reference)
    aligned = example.get_aligned_spans_x2y(example.predicted.ents, allow_overlap=False)
    for span in aligned:
        tags[span.start] = f"B-{span.label_}"
        tags[span.start + 1:span.end] = [f"I-{span.label_}"] * (len(span) - 1)
    return tags, len(example.predicted.ents) - len(aligned)


def example_tags(examples) -> tuple[list[list[str]], list[list[str]], dict]:
    """(predicted tags, reference tags, counts of what was skipped) over the annotated examples."""
    predictions, references = [], []
    counts = {"unannotated documents": 0, "tokens without annotation": 0, "unaligned predicted entities": 0}
    for example in examples:
        if not example.reference.has_annotation("ENT_IOB"):
            counts["unannotated documents"] += 1
            continue
        reference, missing = _reference_tags(example.reference)
        predicted, unaligned = _predicted_tags(example)
        counts["tokens without annotation"] += missing
        counts["unaligned predicted entities"] += unaligned
        references.append(reference)
        predictions.append(predicted)
    return predictions, references, counts


def _chance_scores(predictions, references, level: str, model: str) -> dict:
    """``ents_observed_f1`` ... and ``ents_chance_per_type`` from the tags."""
    state = ChanceF1State(level=level, model=model).update(predictions, references)
    types = sorted(state.statistics.per_type)
    if not types:  # no entity on either side: undefined, as spaCy's ents_f
        return {**{f"ents_{score}": None for score in SCORES}, "ents_chance_per_type": None}
    result = state.result(zero_division=0)
    scores = {f"ents_{score}": result[f"overall_{score}"] for score in SCORES}
    scores["ents_chance_per_type"] = {name: {score: result[name][score] for score in SCORES} for name in types}
    return scores


def score_entities(examples, *, level: str = "token", model: str = "non_overlapping", **cfg) -> dict:
    """spaCy's NER scores plus the chance-corrected ones (module docstring) of ``examples``."""
    from spacy.scorer import get_ner_prf  # spaCy is optional: importing this module does not need it

    examples = list(examples)
    scores = dict(get_ner_prf(examples, **cfg))
    predictions, references, counts = example_tags(examples)
    skipped = {what: count for what, count in counts.items() if count}
    if skipped:
        warnings.warn(f"{SCORER_NAME}: " + ", ".join(f"{count} {what}" for what, count in skipped.items())
                      + " (documents without entity annotation are skipped and missing token annotation is "
                      "scored as outside, as spaCy's NER scorer does)", UserWarning, stacklevel=2)
    if not references:
        return {**scores, **{f"ents_{score}": None for score in SCORES}, "ents_chance_per_type": None}
    return {**scores, **_chance_scores(predictions, references, level, model)}


def make_ner_scorer(level: str = "token", model: str = "non_overlapping"):
    """The registered factory (``@scorers = "chance_agreement.ner_scorer.v1"``): a scorer taking
    ``(examples, **kwargs)`` as spaCy's component scorers do; options checked here."""
    ChanceF1State(level=level, model=model)  # a bad level or model is an error when the config loads

    def scorer(examples, **cfg) -> dict:
        return score_entities(examples, level=level, model=model, **cfg)

    return scorer


__all__ = ["SCORER_NAME", "example_tags", "make_ner_scorer", "score_entities"]
