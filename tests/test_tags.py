"""Span extraction equals seqeval's, in default and strict modes, and rejects malformed tags."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from seqeval.metrics.sequence_labeling import get_entities
from seqeval.scheme import Tokens

from chance_agreement import spans_from_tags
from chance_agreement.spans.tags import check_pairs, resolve_scheme

LENIENT_TAGS = ["O", "B-PER", "I-PER", "E-PER", "S-PER", "B-LOC", "I-LOC", "E-LOC", "S-LOC", "B", "I", "E", "S", "B-A-B", "I-A-B"]
SCHEME_PREFIXES = {"IOB1": "IB", "IOB2": "IB", "IOE1": "IE", "IOE2": "IE", "IOBES": "BIES", "BILOU": "BILU"}


@settings(max_examples=400, deadline=None)
@given(tags=st.lists(st.sampled_from(LENIENT_TAGS), max_size=12))
def test_default_mode_equals_seqeval_get_entities(tags):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = [(name, start, end + 1) for name, start, end in get_entities(tags)]
    assert spans_from_tags(tags) == expected


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


def test_invalid_tags_raise():
    with pytest.raises(ValueError, match=r"invalid tag 'U-PER' at position 1"):
        spans_from_tags(["O", "U-PER"])
    with pytest.raises(ValueError, match=r"invalid tag 'BPER'"):
        spans_from_tags(["BPER"])
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
