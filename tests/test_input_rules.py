"""Input rules (docs/howto/annotation-files.md, "Input rules"): seqeval's odd tags, bad tags and corpora, reserved type names.

Issue 9 gap 3 (tags seqeval accepts with a warning give seqeval's result), issue 10 item 4
(reserved type names, one rule in every entry point) and item 6 (bad tags and corpora name the
sentence and position; NaN logits in the Trainer hook).
"""

from __future__ import annotations

import importlib
import math
import re
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from seqeval.metrics.sequence_labeling import get_entities

from chance_agreement import (
    agreement_report,
    boundaries_from_tags,
    chance_f1,
    contingency,
    multi_annotator_agreement,
    noise_report,
    noise_report_multi,
    unitizing_alpha,
)
from chance_agreement.ecosystem.trainer import compute_metrics_fn
from chance_agreement.spans.tags import OddTagWarning, corpus_spans, paired_spans, spans_from_tags
from chance_agreement.spans.validation import TagTypeError, reserved_type
from test_chance_f1 import assert_seqeval_parity, seqeval_module_result

# the layer folder of the multi-annotator module may be renamed; take it from the public function
token_ratings = importlib.import_module(multi_annotator_agreement.__module__).token_ratings

ODD_TAGS = ["X", "PER", "B_PER", "b-per", "O-PER", "U-PER", "L-PER", "X-LOC", ".", "Z"]
VOCABULARY = ["O", "O", "B-PER", "I-PER", "E-PER", "S-PER", "B-LOC", "I-LOC", "B", "I", *ODD_TAGS]


def seqeval_flat_entities(sequences, suffix=False):
    """seqeval's entities of a corpus in its own flat coordinates, with each one's sentences."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        entities = get_entities([list(s) for s in sequences], suffix=suffix)
    starts, offset = [], 0
    for sentence in sequences:
        starts.append(offset)
        offset += len(sentence) + 1

    def sentence_of(position):
        return max(i for i, start in enumerate(starts) if start <= position)

    return [(name, begin, end, sentence_of(begin), sentence_of(end)) for name, begin, end in entities]


def seqeval_cannot_be_per_sentence(sequences) -> bool:
    """True if seqeval's chunker joins sentences or finds two overlapping entities of one type."""
    entities = seqeval_flat_entities(sequences)
    if any(first != last for *_, first, last in entities):
        return True
    return any(
        a[0] == b[0] and a is not b and a[1] <= b[2] and b[1] <= a[2] for a in entities for b in entities
    )


def quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


# -- issue 9, gap 3: tags seqeval accepts with a warning -------------------------------------------

ODD_CASES = {
    "X word pieces": (
        [["B-PER", "X", "O", "X", "B-LOC", "X"], ["O", "B-ORG", "X", "I-ORG", "O"]],
        [["B-PER", "X", "O", "X", "B-LOC", "O"], ["O", "B-ORG", "X", "X", "O"]],
    ),
    "bare types": ([["PER", "PER", "O", "LOC"]], [["PER", "O", "O", "LOC"]]),
    "underscore": ([["B_PER", "I_PER", "O"], ["O", "B_LOC", "O"]], [["B_PER", "O", "O"], ["O", "B_LOC", "O"]]),
    "lower case": ([["b-per", "i-per", "O", "b-loc"]], [["b-per", "i-per", "O", "O"]]),
    "O with a type": ([["B-PER", "O-PER", "B-LOC", "O-LOC"]], [["B-PER", "I-PER", "O-PER", "B-LOC"]]),
    "BILOU in default mode": (
        [["B-PER", "I-PER", "L-PER", "U-LOC", "O"], ["U-PER", "O", "B-LOC", "L-LOC"]],
        [["B-PER", "L-PER", "O", "U-LOC", "O"], ["U-PER", "O", "U-LOC", "O"]],
    ),
}


@pytest.mark.parametrize("predictions,references", ODD_CASES.values(), ids=list(ODD_CASES))
@pytest.mark.parametrize("level", ["token", "entity"])
def test_odd_tags_give_seqevals_result(predictions, references, level):
    expected = quiet(seqeval_module_result, predictions, references, zero_division=0)
    ours = quiet(chance_f1, predictions, references, zero_division=0, level=level)
    assert_seqeval_parity(ours, expected)
    for key in ("overall_observed_f1", "overall_chance_f1", "overall_corrected_f1"):
        assert not math.isnan(ours[key])


@pytest.mark.parametrize("predictions,references", ODD_CASES.values(), ids=list(ODD_CASES))
def test_odd_tags_through_the_evaluate_module(load_metric, predictions, references):
    metric = load_metric("chance_f1_metric")
    expected = quiet(seqeval_module_result, predictions, references, zero_division=0)
    ours = quiet(metric.compute, predictions=predictions, references=references, zero_division=0)
    assert_seqeval_parity(ours, expected)


def test_one_warning_per_distinct_odd_tag_naming_the_first_sentence():
    predictions = [["O", "O"], ["B-PER", "X"], ["X", "O"], ["b-per", "X"]]
    references = [["O", "O"], ["B-PER", "O"], ["O", "PER"], ["b-per", "PER"]]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        chance_f1(predictions, references, zero_division=0)
    odd = [str(w.message) for w in caught if issubclass(w.category, OddTagWarning)]
    assert len(odd) == 3, odd  # X, PER, b-per: once each although X occurs 3 times
    by_tag = {message.split("'")[1]: message for message in odd}
    assert "first in predictions[1]" in by_tag["X"]
    assert "first in references[2]" in by_tag["PER"]
    assert "first in predictions[3]" in by_tag["b-per"]  # both sides have it first in sentence 3


def test_standard_tags_give_no_odd_tag_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error", OddTagWarning)
        chance_f1([["B-PER", "I-PER", "E-PER", "S-LOC", "B", "I", "O"]], [["O"] * 7], zero_division=0)


@pytest.mark.parametrize("predictions,references", ODD_CASES.values(), ids=list(ODD_CASES))
def test_chance_part_is_computed_on_seqevals_spans(predictions, references):
    """Rewriting each entity seqeval found as plain B-/I- tags gives the same result, chance part
    included (the chance part sees exactly seqeval's spans; a sentence's spans are disjoint per
    type but may overlap across types, so each type is rewritten in its own corpus)."""
    pred_spans, ref_spans = quiet(paired_spans, predictions, references)
    ours = quiet(chance_f1, predictions, references, zero_division=0, level="entity")
    types = {name for spans in (pred_spans, ref_spans) for sentence in spans for name, _, _ in sentence}
    for name in types:
        def rewrite(spans, sequences):
            out = []
            for sentence_spans, tags in zip(spans, sequences):
                plain = ["O"] * len(tags)
                for t, start, end in sentence_spans:
                    if t == name:
                        plain[start:end] = [f"B-{name}"] + [f"I-{name}"] * (end - start - 1)
                out.append(plain)
            return out

        alone = quiet(chance_f1, rewrite(pred_spans, predictions), rewrite(ref_spans, references), zero_division=0, level="entity")
        assert alone[name] == ours[name], name


@settings(max_examples=300, deadline=None, derandomize=True)
@given(data=st.data(), suffix=st.booleans())
def test_random_odd_corpora_match_seqeval_or_name_what_cannot_be_per_sentence(data, suffix):
    vocabulary = VOCABULARY if not suffix else ["O", "PER-B", "PER-I", "LOC-S", "PER", "X", "PER_B", "per-b", "LOC-O", "PER-U"]
    lengths = data.draw(st.lists(st.integers(0, 6), min_size=1, max_size=4).filter(any))
    references = [data.draw(st.lists(st.sampled_from(vocabulary), min_size=n, max_size=n)) for n in lengths]
    predictions = [data.draw(st.lists(st.sampled_from(vocabulary), min_size=n, max_size=n)) for n in lengths]
    try:
        ours = quiet(chance_f1, predictions, references, suffix=suffix, zero_division=0)
    except ValueError as error:
        assert "cannot cross sentences" in str(error) or "two overlapping" in str(error), error
        side = predictions if "predictions[" in str(error) else references
        assert seqeval_cannot_be_per_sentence(side)
        return
    assert_seqeval_parity(ours, quiet(seqeval_module_result, predictions, references, suffix=suffix, zero_division=0))
    assert 0.0 <= ours["overall_chance_f1"] <= 1.0
    assert not math.isnan(ours["overall_corrected_f1"])


def test_an_entity_across_a_sentence_break_is_refused_naming_both_sentences():
    predictions = [["B-PER"], ["X", "B-LOC"]]  # seqeval: ('_', 0, 2) from sentence 0 into sentence 1
    assert seqeval_cannot_be_per_sentence(predictions)
    with pytest.raises(ValueError, match=r"predictions\[1\], position 0: seqeval's chunker ends here an entity of type '_' that began in sentence 0"):
        quiet(chance_f1, predictions, [["O"], ["O", "O"]])


def test_two_overlapping_entities_of_one_type_are_refused():
    tags = ["S-PER", "U-PER", "O"]  # seqeval: ('PER', 0, 0) and ('PER', 0, 1)
    assert quiet(get_entities, tags) == [("PER", 0, 0), ("PER", 0, 1)]
    with pytest.raises(ValueError, match=r"references\[0\]: seqeval's chunker finds two overlapping 'PER' entities, \(0, 1\) and \(0, 2\)"):
        quiet(chance_f1, [["O", "O", "O"]], [tags])


def test_entities_of_different_types_may_overlap():
    """``B-PER O X B-LOC``: seqeval's '_' entity reuses the begin of PER (0, 1): both are kept."""
    tags = ["B-PER", "O", "X", "B-LOC"]
    assert quiet(spans_from_tags, tags) == [("PER", 0, 1), ("_", 0, 3), ("LOC", 3, 4)]
    assert quiet(get_entities, tags) == [("PER", 0, 0), ("_", 0, 2), ("LOC", 3, 3)]


@pytest.mark.parametrize("tags", [["X"], ["O", "X-PER"], ["b-per", "i-per"], ["U-PER"]])  # strict seqeval takes B_PER
def test_strict_mode_still_refuses_odd_tags(tags):
    with pytest.raises(ValueError, match=r"predictions\[0\]: (invalid tag: prefix|Invalid token is found)"):
        chance_f1([tags], [["O"] * len(tags)], mode="strict", scheme="IOB2")


@pytest.mark.parametrize(
    "predictions,references,message",
    [
        ([["O", "O"]], [["O"]], "sentence 0: the prediction has 2 tags but the reference has 1"),
        ([], [], "empty input"),
        ([["O", None]], [["O", "O"]], r"predictions\[0\], position 1: the tag is None"),
    ],
)
def test_what_seqeval_cannot_take_stays_an_error(predictions, references, message):
    with pytest.raises(ValueError, match=message):
        chance_f1(predictions, references)


# -- issue 10, item 6: bad tags and corpora, in every tag-taking entry point -----------------------


def _pair_entry_points():
    return {
        "chance_f1": chance_f1,
        "contingency": contingency,
        "agreement_report": agreement_report,
        "noise_report": noise_report,
        "trainer hook": lambda p, r: compute_metrics_fn(sorted({t for s in p + r for t in s}))(_as_eval(p, r)),
    }


def _as_eval(predictions, references):
    """Tags -> (ids, ids) as the Trainer hands them to compute_metrics (label_list sorted)."""
    labels = sorted({t for s in predictions + references for t in s})
    width = max(map(len, references))
    ids = lambda rows: np.array([[labels.index(t) for t in row] + [-100] * (width - len(row)) for row in rows])
    return ids(predictions), ids(references)


def _multi_entry_points():
    return {
        "noise_report_multi": noise_report_multi,
        "token_ratings": token_ratings,
        "multi_annotator_agreement": multi_annotator_agreement,
        "unitizing_alpha": unitizing_alpha,
    }


BAD_TAGS = {
    "empty string": ("", ValueError, "the tag is an empty string"),
    "None": (None, TypeError, "the tag is None, not a string"),
    "int": (7, TypeError, r"the tag is an int \(7\), not a string"),
    "NaN": (float("nan"), TypeError, "the tag is NaN, not a string"),
    "list": (["B-PER"], TypeError, r"the tag is a list \(\['B-PER'\]\), not a string"),
}
PAIR_PLACES = {"chance_f1": r"references\[1\], position 2", "contingency": r"references\[1\], position 2",
               "agreement_report": r"references\[1\], position 2", "noise_report": r"references\[1\], position 2"}
MULTI_PLACES = {"noise_report_multi": r"annotations\[1\]\[1\], position 2", "token_ratings": r"token_ratings: annotations\[1\]\[1\]: position 2",
                "multi_annotator_agreement": r"multi_annotator_agreement: annotations\[1\]\[1\]: position 2", "unitizing_alpha": "text 1, annotator 1: position 2"}


@pytest.mark.parametrize("bad", BAD_TAGS, ids=list(BAD_TAGS))
@pytest.mark.parametrize("entry", sorted(PAIR_PLACES))
def test_a_bad_tag_names_sentence_and_position_in_pair_entry_points(entry, bad):
    tag, kind, problem = BAD_TAGS[bad]
    references = [["O", "B-PER"], ["O", "O", tag]]
    with pytest.raises(kind, match=f"{PAIR_PLACES[entry]}: {problem}") as caught:
        _pair_entry_points()[entry]([["O", "O"], ["O", "O", "O"]], references)
    assert isinstance(caught.value, ValueError)  # seqeval-style callers catch ValueError


@pytest.mark.parametrize("bad", BAD_TAGS, ids=list(BAD_TAGS))
@pytest.mark.parametrize("entry", sorted(MULTI_PLACES))
def test_a_bad_tag_names_item_annotator_and_position_in_multi_entry_points(entry, bad):
    tag, _, problem = BAD_TAGS[bad]
    annotations = [[["O", "B-PER"], ["O", "B-PER"]], [["O", "O", "O"], ["O", "O", tag]]]
    with pytest.raises(ValueError, match=f"{MULTI_PLACES[entry]}: {problem}"):
        _multi_entry_points()[entry](annotations)


@pytest.mark.parametrize("bad", BAD_TAGS, ids=list(BAD_TAGS))
def test_a_bad_tag_in_boundaries_from_tags_and_spans_from_tags(bad):
    tag, kind, problem = BAD_TAGS[bad]
    for function in (boundaries_from_tags, spans_from_tags):
        with pytest.raises(kind, match=f"position 1: {problem}"):
            function(["O", tag, "O"])


BAD_CORPORA = {
    "None": (lambda: None, "got None"),
    "generator": (lambda: (s for s in [["O"]]), r"got a generator \(an iterator: give a list"),
    "dict": (lambda: {"sentence": ["O"]}, r"got a dict \(a mapping\)"),
    "string": (lambda: "O O", "got a string"),
}


@pytest.mark.parametrize("bad", BAD_CORPORA, ids=list(BAD_CORPORA))
@pytest.mark.parametrize("entry", ["chance_f1", "contingency", "agreement_report", "noise_report"])
def test_a_bad_corpus_is_named(entry, bad):
    make, got = BAD_CORPORA[bad]
    with pytest.raises(TypeError, match=f"predictions must be a list of sentences, each a list of tags; {got}"):
        _pair_entry_points()[entry](make(), [["O"]])


@pytest.mark.parametrize("entry", ["chance_f1", "contingency", "agreement_report", "noise_report"])
def test_a_none_sentence_is_named(entry):
    with pytest.raises(TypeError, match=r"predictions\[1\]: expected a list of tags, got None"):
        _pair_entry_points()[entry]([["O"], None], [["O"], ["O"]])


@pytest.mark.parametrize("entry", sorted(MULTI_PLACES))
def test_bad_multi_annotator_containers_are_errors(entry):
    function = _multi_entry_points()[entry]
    for bad in (None, (item for item in [[["O"], ["O"]]]), [[["O"], (t for t in ["O"])]]):
        with pytest.raises((TypeError, ValueError), match=r"annotations|item|text"):
            function(bad)


def test_nothing_is_silently_dropped_by_a_bad_corpus_in_spans_functions():
    with pytest.raises(TypeError, match=r"tags\[0\]|expected a list of tags, got None"):
        spans_from_tags(None)
    with pytest.raises(TypeError, match=r"sentences\[2\]: expected a list of tags, got None"):
        corpus_spans([["O"], ["O"], None], "sentences")
    with pytest.raises(TypeError, match=r"expected a list of tags, got a generator"):
        boundaries_from_tags(t for t in ["O", "B-PER"])


def test_bad_tags_in_the_trainer_hooks_label_list():
    ids = (np.array([[0, 1]]), np.array([[0, 0]]))
    with pytest.raises(ValueError, match=r"predictions\[0\], position 1: the tag is an empty string"):
        compute_metrics_fn(["O", ""])(ids)
    for label in (None, float("nan"), 3):
        with pytest.raises(ValueError, match="label_list must be a non-empty sequence of tag strings"):
            compute_metrics_fn(["O", label])


def test_nan_logits_in_the_trainer_hook_are_an_error():
    hook = compute_metrics_fn(["O", "B-PER", "I-PER"])
    logits = np.zeros((2, 3, 3))
    logits[:, :, 1] = 1.0
    labels = np.array([[0, 1, -100], [1, 2, 0]])
    logits[0, 2] = np.nan  # an ignored position: not looked at
    assert hook((logits, labels))["f1"] >= 0.0
    logits[1, 1, 2] = np.nan
    with pytest.raises(ValueError, match="logits: NaN at sequence 1, position 1"):
        hook((logits, labels))
    logits[1, 1, 2] = -np.inf  # -inf is an ordinary (masked) logit
    assert hook((logits, labels))["f1"] >= 0.0


# -- issue 10, item 4: reserved type names, one rule for every entry point -------------------------

RESERVED = ["O", "overall_precision", "overall_f1", "overall_accuracy", "overall_corrected_f1", "overall", "sentence_scores"]


@pytest.mark.parametrize("name", RESERVED)
def test_reserved_names(name):
    assert reserved_type(name)
    assert not reserved_type(name.upper() + "X") and not reserved_type("PER") and not reserved_type("_")


@pytest.mark.parametrize("name", ["O", "overall_f1", "sentence_scores"])
@pytest.mark.parametrize("entry", sorted(PAIR_PLACES) + ["trainer hook"])
def test_a_reserved_type_is_refused_by_pair_entry_points(entry, name):
    predictions = [["O", "O"], ["O", f"B-{name}"]]
    references = [["O", "O"], ["O", "O"]]
    with pytest.raises(ValueError, match=rf"predictions\[1\], position 1: an entity type is named '{name}', which is reserved"):
        quiet(_pair_entry_points()[entry], predictions, references)


@pytest.mark.parametrize("name", ["O", "overall_recall"])
@pytest.mark.parametrize("entry", sorted(MULTI_PLACES))
def test_a_reserved_type_is_refused_by_multi_entry_points(entry, name):
    annotations = [[["O"], ["O"]], [["O", "O"], ["O", f"I-{name}"]]]
    with pytest.raises(ValueError, match=rf"an entity type is named '{name}', which is reserved"):
        quiet(_multi_entry_points()[entry], annotations)


def test_reserved_type_in_the_other_entry_points():
    with pytest.raises(ValueError, match="an entity type is named 'O'"):
        noise_report([["B-O", "O"]], [["O", "B-O"]])  # issue 10's example: reported 0 disagreements
    with pytest.raises(ValueError, match="position 0: an entity type is named 'overall'"):
        boundaries_from_tags(["B-overall", "O"])
    with pytest.raises(ValueError, match="an entity type is named 'O'"):
        chance_f1([["S-O"]], [["O"]], mode="strict", scheme="IOBES")
    with pytest.raises(ValueError, match=r"references\[0\], position 0: an entity type is named 'O'"):
        chance_f1([["O"]], [["O-O"]] if False else [["B-O"]], suffix=False)
    with pytest.raises(ValueError, match="an entity type is named 'overall_f1'"):
        chance_f1([["overall_f1-B"]], [["O"]], suffix=True)


def test_reserved_type_through_the_evaluate_module(load_metric):
    metric = load_metric("chance_f1_metric")
    with pytest.raises(ValueError, match="an entity type is named 'overall_precision'"):
        metric.compute(predictions=[["B-overall_precision"]], references=[["O"]])


def test_an_o_tag_with_a_type_is_not_an_entity_type():
    """``O-PER`` never starts an entity (seqeval): only types of entities found are checked."""
    result = quiet(chance_f1, [["O-O", "B-PER"]], [["O", "B-PER"]])
    assert result["overall_f1"] == 1.0


def test_the_docs_example_is_what_the_code_gives():
    from docs_pages import page, run_code_cells

    shown, warning = run_code_cells(page("howto/annotation-files.md"))[1].splitlines()
    spans = quiet(spans_from_tags, ["B-PER", "X", "I-PER", "O", "X", "B-LOC"])
    assert shown == repr(spans) == "[('PER', 0, 1), ('_', 1, 2), ('PER', 2, 3), ('_', 2, 5), ('LOC', 5, 6)]"
    assert spans == [(t, s, e + 1) for t, s, e in quiet(get_entities, ["B-PER", "X", "I-PER", "O", "X", "B-LOC"])]
    assert warning.startswith("OddTagWarning: tag 'X' is neither 'O' nor")


# Issue 24, 1a: datasets JSON-quotes a whole sentence holding one non-string tag (an unconverted
# label id), giving types 'PER"' and all scores 0; every module configuration refuses it instead.
_ONE_ID = [["B-PER", 1, "O"]]
_TAGS_OK = [["B-PER", "O", "O"]]
_MODULE_CASES = [
    ("chance_f1_metric", "default", dict(predictions=_ONE_ID, references=_TAGS_OK), "predictions[0], position 1"),
    ("chance_f1_metric", "flat", dict(predictions=_TAGS_OK, references=_ONE_ID), "references[0], position 1"),
    ("chance_f1_metric", "multi", dict(annotations=[[_TAGS_OK[0], _ONE_ID[0]]]), "annotations[0][1], position 1"),
    ("chance_f1_metric", "spans", dict(predictions=[[{"start": 0, "end": 1, "label": 7}]],
                                       references=[[{"start": 0, "end": 1, "label": "PER"}]], lengths=[3]),
     "predictions[0][0]['label']"),
    ("chance_f1_metric", "nested_spans", dict(predictions=[[{"start": 0, "end": 1.5, "label": "PER"}]],
                                              references=[[{"start": 0, "end": 1, "label": "PER"}]], lengths=[3]),
     "predictions[0][0]['end']"),
    ("coefficients_metric", "default", dict(predictions=_ONE_ID, references=_TAGS_OK), "predictions[0], position 1"),
    ("coefficients_metric", "flat", dict(predictions=_ONE_ID, references=_TAGS_OK), "predictions[0], position 1"),
    ("coefficients_metric", "multi", dict(annotations=[[_TAGS_OK[0], _ONE_ID[0]]]), "annotations[0][1], position 1"),
    ("coefficients_metric", "multi", dict(annotations=[["a", 1], ["a", "b"]]), "annotations[0], position 1"),
    ("coefficients_metric", "multi", dict(annotations=[["a", "b"], [1, 2]]), "annotations[1], position 0"),
    ("noise_metric", "default", dict(predictions=_ONE_ID, references=_TAGS_OK), "predictions[0], position 1"),
    ("noise_metric", "flat", dict(predictions=_ONE_ID, references=_TAGS_OK), "predictions[0], position 1"),
    ("noise_metric", "multi", dict(annotations=[[_ONE_ID[0], _TAGS_OK[0]]]), "annotations[0][0], position 1"),
]


@pytest.mark.parametrize("folder, config, inputs, place", _MODULE_CASES)
def test_a_non_string_tag_is_refused_by_every_module_configuration(load_metric, folder, config, inputs, place):
    metric = load_metric(folder, config)
    with pytest.raises(TagTypeError) as caught:
        metric.compute(**inputs)
    assert place in str(caught.value)
    metric = load_metric(folder, config)
    batch = {name: value for name, value in inputs.items() if name != "lengths"}
    with pytest.raises(TagTypeError, match=re.escape(place)):
        metric.add_batch(**batch)


def test_a_non_string_tag_is_refused_by_add(load_metric):
    metric = load_metric("chance_f1_metric")
    with pytest.raises(TagTypeError, match=r"prediction, position 1: the tag is an int \(1\)"):
        metric.add(prediction=_ONE_ID[0], reference=_TAGS_OK[0])


def test_numbers_and_none_stay_allowed_where_the_module_declares_them(load_metric):
    result = load_metric("coefficients_metric", "multi").compute(annotations=[[1, 2], [2, None], [3, 3]])
    assert result["n_items"] == 3
