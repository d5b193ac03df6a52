"""Span extraction equals seqeval's, in default and strict modes (odd tags included), and rejects
what seqeval cannot take."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from seqeval.metrics.sequence_labeling import get_entities
from seqeval.scheme import Tokens

from chance_agreement import spans_from_tags
from chance_agreement.spans.tags import OddTagWarning, check_pairs, corpus_spans, resolve_scheme

LENIENT_TAGS = ["O", "B-PER", "I-PER", "E-PER", "S-PER", "B-LOC", "I-LOC", "E-LOC", "S-LOC", "B", "I", "E", "S", "B-A-B", "I-A-B"]
# tags seqeval accepts with a warning ("... seems not to be NE tag.")
ODD_TAGS = ["X", "PER", "B_PER", "b-per", "O-PER", "U-PER", "L-PER", "X-LOC", ".", ".-PER", "BX-PER", "X-"]
SCHEME_PREFIXES = {"IOB1": "IB", "IOB2": "IB", "IOE1": "IE", "IOE2": "IE", "IOBES": "BIES", "BILOU": "BILU"}


@settings(max_examples=400, deadline=None)
@given(tags=st.lists(st.sampled_from(LENIENT_TAGS), max_size=12))
def test_default_mode_equals_seqeval_get_entities(tags):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = [(name, start, end + 1) for name, start, end in get_entities(tags)]
    assert spans_from_tags(tags) == expected


def seqeval_spans(tags, suffix=False):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return [(name, start, end + 1) for name, start, end in get_entities(list(tags), suffix=suffix)]


def overlapping_same_type(spans):
    return any(a[0] == b[0] and a is not b and a[1] < b[2] and b[1] < a[2] for a in spans for b in spans)


@settings(max_examples=500, deadline=None, derandomize=True)
@given(tags=st.lists(st.sampled_from(LENIENT_TAGS[:9] + ODD_TAGS), max_size=12))
def test_odd_tags_equal_seqeval_get_entities(tags):
    expected = seqeval_spans(tags)
    if overlapping_same_type(expected):  # the one case without per-type disjoint spans: refused
        with pytest.raises(ValueError, match="two overlapping"):
            spans_from_tags(tags)
        return
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert spans_from_tags(tags) == expected
    odd = sorted(str(w.message).split("'")[1] for w in caught if issubclass(w.category, OddTagWarning))
    assert odd == sorted({t for t in tags if t in ODD_TAGS})


@settings(max_examples=300, deadline=None, derandomize=True)
@given(sentences=st.lists(st.lists(st.sampled_from(LENIENT_TAGS[:9] + ODD_TAGS), max_size=6), min_size=1, max_size=5))
def test_corpus_spans_equal_seqevals_flat_chunking(sentences):
    """seqeval chunks a corpus as one sequence with an O after each sentence."""
    flat = [tag for sentence in sentences for tag in sentence + ["O"]]
    expected = seqeval_spans(flat)
    offsets = [sum(len(s) + 1 for s in sentences[:i]) for i in range(len(sentences))]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ours = corpus_spans(sentences, "sentences")
    except ValueError as error:
        crossing = any(any(start < o <= end - 1 for o in offsets) for _, start, end in expected)
        assert crossing or overlapping_same_type(expected), error
        return
    assert [(t, s + offsets[i], e + offsets[i]) for i, spans in enumerate(ours) for t, s, e in spans] == expected


@pytest.mark.parametrize("tags", [["O", "U-PER"], ["BPER"], ["X", "X"], ["B-PER", "X", "I-PER"], ["b-per", "i-per", "O"]])
def test_odd_tags_are_chunked_as_seqeval_with_a_warning(tags):
    with pytest.warns(OddTagWarning, match="is neither 'O' nor a tag with a B-/I-/E-/S- prefix"):
        assert spans_from_tags(tags) == seqeval_spans(tags)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(tags=st.lists(st.sampled_from(["O", "PER-B", "PER-I", "PER-E", "LOC-S", "PER", "X", "per-b", "PER-O", "PER-U", "PER_B"]), max_size=12))
def test_odd_suffix_tags_equal_seqeval(tags):
    expected = seqeval_spans(tags, suffix=True)
    if overlapping_same_type(expected):
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert spans_from_tags(tags, suffix=True) == expected


@settings(max_examples=200, deadline=None)
@given(tags=st.lists(st.sampled_from(["O", "PER-B", "PER-I", "PER-E", "PER-S", "LOC-B", "LOC-I"]), max_size=12))
def test_suffix_tags_equal_seqeval(tags):
    expected = [(name, start, end + 1) for name, start, end in get_entities(tags, suffix=True)]
    assert spans_from_tags(tags, suffix=True) == expected


@settings(max_examples=100, deadline=None)
@given(data=st.data(), scheme=st.sampled_from(sorted(SCHEME_PREFIXES)))
def test_strict_mode_equals_seqeval_automaton(data, scheme):
    vocabulary = ["O"] + [f"{p}-{t}" for p in SCHEME_PREFIXES[scheme] for t in ("PER", "LOC")]
    tags = data.draw(st.lists(st.sampled_from(vocabulary), max_size=12))
    expected = [(e.tag, e.start, e.end) for e in Tokens(tags, resolve_scheme(scheme)).entities]
    assert spans_from_tags(tags, scheme=scheme, mode="strict") == expected


def test_strict_mode_detects_the_scheme():
    assert spans_from_tags(["B-PER", "E-PER", "S-LOC"], mode="strict") == [("PER", 0, 2), ("LOC", 2, 3)]


@pytest.mark.parametrize("bad", ["", None, 7, float("nan"), ["B-PER"]], ids=["empty", "None", "int", "NaN", "list"])
def test_the_table_chunker_names_a_bad_tag_as_the_loop_does(bad, monkeypatch):
    """The array chunker codes each tag when it first meets it: a bad one (unhashable too), in the
    first corpus or in the second (a shared code table), raises what the plain loop raises."""
    from chance_agreement.spans import tags as module

    corpus = [["O", "B-PER"], ["O", "I-PER", bad, "O"]]

    def error(function, *arguments):
        with pytest.raises((TypeError, ValueError)) as caught:
            function(*arguments)
        return type(caught.value), str(caught.value)

    expected = error(module._lenient_small, corpus, False, "references")
    monkeypatch.setattr(module, "_SMALL_CORPUS", 0)
    assert error(module._lenient_corpus, corpus, False, "references") == expected
    good = [["O", "B-PER"], ["B-LOC", "I-LOC", "O", "O"]]
    assert error(module.shared_span_arrays, [good, corpus], False, ["predictions", "references"]) == expected


def test_tag_codes_follow_first_appearance_and_extend_a_shared_table():
    from chance_agreement.spans.tags import _tag_codes

    table: dict = {}
    codes, tokens = _tag_codes([["B-X", "O"], ["I-X", "O"]], 4, "predictions", table)
    assert codes is table and table == {"B-X": 1, "O": 2, "I-X": 3}
    assert tokens.tolist() == [1, 2, 3, 2]
    codes, tokens = _tag_codes([["O", "B-Y"], ["B-X"]], 3, "references", table)
    assert codes is table and table == {"B-X": 1, "O": 2, "I-X": 3, "B-Y": 4}
    assert tokens.tolist() == [2, 4, 1]
    assert _tag_codes([["S-Z"]], 1, "references")[0] == {"S-Z": 1}


def test_invalid_tags_raise():
    with pytest.raises(ValueError, match="position 1: the tag is an empty string"):
        spans_from_tags(["O", ""])
    with pytest.raises(TypeError, match="position 0: the tag is None, not a string"):
        spans_from_tags([None])
    with pytest.raises(ValueError, match="Invalid token is found: U-PER"):
        spans_from_tags(["O", "U-PER"], scheme="IOB2", mode="strict")
    with pytest.raises(ValueError, match="Invalid token is found: E-PER"):
        spans_from_tags(["B-PER", "E-PER"], scheme="IOB2", mode="strict")
    with pytest.raises(ValueError, match="Scheme should be one of"):
        spans_from_tags(["O"], scheme="IOB3", mode="strict")
    with pytest.raises(ValueError, match="mode should be None"):
        spans_from_tags(["O"], mode="lenient")


def test_pair_checks_name_the_sentence():
    with pytest.raises(ValueError, match="sentence 1: the prediction has 2 tags but the reference has 3"):
        check_pairs([["O"], ["O", "O"]], [["O"], ["O", "O", "O"]])
    with pytest.raises(ValueError, match="got 1 prediction sequences but 2 reference"):
        check_pairs([["O"]], [["O"], ["O"]])
    with pytest.raises(ValueError, match="empty input"):
        check_pairs([], [])
    with pytest.raises(ValueError, match="every sentence has zero tokens"):
        check_pairs([[]], [[]])
    with pytest.raises(TypeError, match=r"references\[1\]: expected a list of tags, got a string"):
        check_pairs([["O"], ["O"]], [["O"], "O"])


@settings(max_examples=400, deadline=None, derandomize=True)
@given(
    sentences=st.lists(st.lists(st.sampled_from(LENIENT_TAGS[:9] + ODD_TAGS + ["B-O", "S-overall"]), max_size=7), min_size=1, max_size=5),
    suffix=st.booleans(),
)
def test_the_plain_loop_and_the_table_chunker_agree(sentences, suffix):
    """Small corpora take a plain loop, large ones the numpy table: same spans, warnings, errors."""
    from chance_agreement.spans import tags as module

    def run(function):
        try:
            return function(sentences, suffix, "sentences")
        except ValueError as error:
            return str(error)

    numpy_path = module._SMALL_CORPUS
    try:
        module._SMALL_CORPUS = 0
        table = run(module._lenient_corpus)
    finally:
        module._SMALL_CORPUS = numpy_path
    assert run(module._lenient_small) == table
    assert run(module._lenient_corpus) == table  # below the threshold: the plain loop
