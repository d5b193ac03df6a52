"""Span input: the tokenizer, JSONL and brat readers, forests and flat views, span_chance_f1."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from seqeval.metrics import f1_score

from chance_agreement import (
    nested_chance_f1,
    chance_f1,
    innermost_tags,
    outermost_tags,
    pair_annotations,
    read_brat,
    read_jsonl,
    span_chance_f1,
    tags_from_spans,
    tokenize,
)
from chance_agreement.spans.annotated_text import WidenedSpansWarning
from chance_agreement.spans.nested import build_forest, innermost, outermost
from chance_agreement.spans.tags import spans_from_tags

DATA = Path(__file__).resolve().parent / "data" / "nested"

# token spans of the hand-written files (tokens: see test_tokenizer_splits_words_and_punctuation)
A = [[(1, 6, "ORG"), (3, 4, "LOC"), (5, 6, "LOC"), (9, 11, "PER")],
     [(0, 3, "ORG"), (2, 3, "LOC"), (7, 10, "LOC"), (7, 9, "LOC")]]
B = [[(1, 6, "ORG"), (3, 4, "LOC"), (7, 11, "PER")],
     [(0, 3, "ORG"), (2, 3, "LOC"), (7, 10, "LOC"), (8, 9, "LOC")]]
LENGTHS = [12, 11]


def words(text: str) -> list[str]:
    return [text[start:end] for start, end in tokenize(text)]


def test_tokenizer_splits_words_and_punctuation():
    assert words("Dr. Smith's  café, 2026!") == ["Dr", ".", "Smith", "'", "s", "café", ",", "2026", "!"]
    assert words("The University of California at Berkeley hired Dr. Ada Lovelace.") == [
        "The", "University", "of", "California", "at", "Berkeley", "hired", "Dr", ".", "Ada", "Lovelace", "."]
    with pytest.raises(TypeError):
        tokenize(None)


@pytest.mark.parametrize("text, expected", [
    ("हिन्दी भाषा", ["हिन्दी", "भाषा"]),  # Devanagari vowel signs and virama are marks inside the word
    ("Cafe\u0301 au lait", ["Cafe\u0301", "au", "lait"]),  # NFD: e + combining acute
    ("Cafe\u0301s.", ["Cafe\u0301s", "."]),  # a word goes on after a mark
    ("می\u200cخواهم", ["می\u200cخواهم"]),  # Persian zero-width non-joiner inside a word
    ("x \u0301 y", ["x", "\u0301", "y"]),  # a mark after a space starts a token
    ("\u094dह", ["\u094dह"]),  # ... that a word may continue
    ("1\ufe0f\u20e3 ok", ["1\ufe0f\u20e3", "ok"]),  # keycap: digit + variation selector + enclosing mark
    ("\U0001F44D\U0001F3FD!", ["\U0001F44D\U0001F3FD", "!"]),  # emoji + skin tone modifier
    ("\U0001F469\u200d\U0001F4BB code", ["\U0001F469\u200d\U0001F4BB", "code"]),  # ZWJ sequence
    ("\U0001F1EB\U0001F1F7\U0001F1E9\U0001F1EA", ["\U0001F1EB\U0001F1F7", "\U0001F1E9\U0001F1EA"]),  # flags
    ("a.\u0301b", ["a", ".\u0301", "b"]),  # a mark on punctuation stays with it, and no word joins it
])
def test_tokenizer_keeps_grapheme_clusters_and_words_with_marks_whole(text, expected):
    """Issue 24, 1d: "हिन्दी" was 6 tokens and NFD "Café" 2 (marks are not ``\\w``)."""
    assert words(text) == expected


_PIECES = ["a", "e", "Z", "_", "7", "\u0301", "ह", "ि", "न", "्", "द", ".", ",", "'", " ", "  ", "\n", "\u200d",
           "\u200c", "\U0001F44D", "\U0001F3FD", "\U0001F4BB", "\U0001F1EB", "\U0001F1F7", "\ufe0f", "\u20e3", "م", "ی"]


@given(st.lists(st.sampled_from(_PIECES), max_size=30).map("".join))
def test_tokens_never_end_inside_a_grapheme_cluster(text):
    """Oracle: the ``regex`` package's extended grapheme clusters (``\\X``). A token may hold
    several clusters, never part of one; the only allowed cuts are after whitespace (a mark
    there extends the space, which belongs to no token) and after a virama that follows no
    consonant (``regex`` applies rule GB9c, virama + consonant, without its leading consonant)."""
    import regex

    boundaries = {0}
    for cluster in regex.finditer(r"\X", text):
        boundaries.add(cluster.end())
    for start, end in tokenize(text):
        assert text[start:end].strip() == text[start:end]
        for cut in (start, end):
            dangling_virama = text[cut - 1] == "\u094d" and not "\u0915" <= text[cut - 2:cut - 1] <= "\u0939"
            assert cut in boundaries or text[cut - 1].isspace() or dangling_virama, (text, start, end)


@pytest.mark.parametrize("name,expected", [("annotator_a.jsonl", A), ("annotator_b.jsonl", B)])
def test_jsonl_reader_gives_token_spans(name, expected):
    texts = read_jsonl(DATA / name)
    assert [sorted(t.spans) for t in texts] == [sorted(s) for s in expected]
    assert [len(t.tokens) for t in texts] == LENGTHS
    assert texts[1].source.endswith("annotator_" + name[10] + ".jsonl line 2")


@pytest.mark.parametrize("folder,expected", [("brat_a", A), ("brat_b", B)])
def test_brat_reader_gives_the_same_spans_as_the_jsonl_export(folder, expected):
    texts = read_brat(DATA / folder / "doc.ann")
    assert [sorted(t.spans) for t in texts] == [sorted(s) for s in expected]
    assert [t.text for t in texts] == [t.text for t in read_jsonl(DATA / "annotator_a.jsonl")]


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


TEXT = "Ada met Bob in Rome."


@pytest.mark.parametrize("record", [
    {"text": TEXT, "entities": [{"start_offset": 0, "end_offset": 3, "label": "PER"}]},  # doccano
    {"text": TEXT, "labels": [[0, 3, "PER"]]},
    {"text": TEXT, "spans": [{"value": {"start": 0, "end": 3, "labels": ["PER"]}}]},  # Label Studio result
    {"text": TEXT, "spans": [{"start": 0, "end": 3, "label": "PER", "token_start": 0, "token_end": 0}],
     "tokens": [{"text": "Ada", "start": 0, "end": 3}, {"text": "met", "start": 4, "end": 7},
                {"text": "Bob", "start": 8, "end": 11}, {"text": "in", "start": 12, "end": 14},
                {"text": "Rome.", "start": 15, "end": 20}]},
    {"text": TEXT, "label": [[0, 3, "PER"]], "tokens": ["Ada", "met", "Bob", "in", "Rome."]},
])
def test_jsonl_span_keys_and_token_sources(tmp_path, record):
    (text,) = read_jsonl(write(tmp_path / "x.jsonl", json.dumps(record) + "\n\n"))
    assert text.spans == [(0, 1, "PER")]
    assert len(text.tokens) == (5 if "tokens" in record else 6)


def test_users_own_tokenizer(tmp_path):
    path = write(tmp_path / "x.jsonl", json.dumps({"text": TEXT, "spans": [[15, 19, "LOC"]]}) + "\n")
    whitespace = lambda text: [(0, 3), (4, 7), (8, 11), (12, 14), (15, 20)]
    assert read_jsonl(path)[0].spans == [(4, 5, "LOC")]
    with pytest.raises(ValueError, match=r"x.jsonl line 1: span \(15, 19, 'LOC'\) 'Rome' does not fall on token"):
        read_jsonl(path, tokenizer=whitespace)


def test_off_boundary_span_is_an_error_or_widened_with_a_count(tmp_path):
    record = {"text": TEXT, "spans": [[1, 3, "PER"], [8, 13, "PER"], [15, 19, "LOC"]]}
    path = write(tmp_path / "x.jsonl", "\n" + json.dumps(record) + "\n")
    with pytest.raises(ValueError, match=r"x.jsonl line 2: span \(1, 3, 'PER'\) 'da' does not fall on token boundaries"):
        read_jsonl(path)
    with pytest.warns(WidenedSpansWarning, match="x.jsonl: 2 span"):
        (text,) = read_jsonl(path, widen=True)
    assert text.spans == [(0, 1, "PER"), (2, 4, "PER"), (4, 5, "LOC")]


@pytest.mark.parametrize("line,message", [
    ('{"text": "a b", "spans": [[0, 1, "X"]], "label": [[0, 1, "X"]]}', "spans under several keys"),
    ('{"spans": []}', "needs a 'text' string"),
    ('{"text": "a b", "spans": [[0, 9, "X"]]}', r"span \(0, 9, 'X'\) is not a non-empty character range"),
    ('{"text": "a b", "spans": [[0, 1]]}', "neither an object nor"),
    ('{"text": "a b", "spans": [[0.5, 1, "X"]]}', "is not an integer"),
    ('{"text": "a  ", "spans": [[1, 2, "X"]]}', "covers no token"),
    ('{"text": "a b", "tokens": ["a", "c"]}', "token 1 'c' is not the next word"),
    ("[1, 2]", "expected a JSON object"),
    ("{text", "not valid JSON"),
])
def test_jsonl_errors_name_file_and_line(tmp_path, line, message):
    path = write(tmp_path / "bad.jsonl", '{"text": "ok"}\n' + line + "\n")
    with pytest.raises(ValueError, match=r"bad.jsonl line 2: .*" + message):
        read_jsonl(path)


def brat(tmp_path: Path, text: str, ann: str) -> Path:
    write(tmp_path / "doc.txt", text)
    return write(tmp_path / "doc.ann", ann)


@pytest.mark.parametrize("ann,message", [
    ("T1\tPER 0 3\tAda\nT2\tLOC 4 7;8 11\tmet Bob\n", r"doc.ann line 2: discontinuous annotation T2 \(4 7;8 11\)"),
    ("T1\tPER 0 3\tAdam\n", r"doc.ann line 1: the annotation says 'Adam' but the text at 0-3 is 'Ada'"),
    ("R1\tRel Arg1:T1 Arg2:T2\nT1\tPER 0 9\n", r"doc.ann line 2: span \(0, 9, 'PER'\) crosses the end of line 1"),
    ("T1\tPER zero 3\tAda\n", r"doc.ann line 1: offsets 'zero 3' are not"),
    ("T1\tPER 1 3\tda\n", r"doc.ann line 1: span \(1, 3, 'PER'\) 'da' does not fall on token boundaries"),
])
def test_brat_errors_name_file_and_line(tmp_path, ann, message):
    with pytest.raises(ValueError, match=message):
        read_brat(brat(tmp_path, "Ada met\nBob in Rome.\n", ann))


def test_brat_lines_are_sentences_and_offsets_are_per_file(tmp_path):
    texts = read_brat(brat(tmp_path, "Ada met\n\nBob in Rome.\n", "T1\tPER 9 12\tBob\nT2\tLOC 16 20\tRome\nA1\tNeg T1\n"))
    assert [(t.text, t.spans) for t in texts] == [("Ada met", []), ("Bob in Rome.", [(0, 1, "PER"), (2, 3, "LOC")])]


def test_two_annotators_must_have_the_same_text(tmp_path):
    first = read_jsonl(write(tmp_path / "a.jsonl", json.dumps({"text": "Ada met Bob"}) + "\n"))
    second = read_jsonl(write(tmp_path / "b.jsonl", json.dumps({"text": "Ada met Bo"}) + "\n"))
    with pytest.raises(ValueError, match=r"a.jsonl line 1 and .*b.jsonl line 1 differ at character 10"):
        pair_annotations(first, second)
    with pytest.raises(ValueError, match="1 and 2 texts"):
        pair_annotations(first, first + first)
    spans_a, spans_b, lengths = pair_annotations(read_jsonl(DATA / "annotator_a.jsonl"), read_brat(DATA / "brat_b" / "doc.ann"))
    assert lengths == LENGTHS and [sorted(s) for s in spans_b] == [sorted(s) for s in B]


def test_forest_depths_and_parents():
    forest = build_forest(A[1])
    assert [(n.start, n.end, n.label, n.depth) for n in forest] == [
        (0, 3, "ORG", 0), (2, 3, "LOC", 1), (7, 10, "LOC", 0), (7, 9, "LOC", 1)]
    assert [n.parent for n in forest] == [None, 0, None, 2]
    twins = build_forest([(0, 3, "B"), (0, 3, "A"), (1, 2, "C")])
    assert [(n.label, n.depth, n.parent) for n in twins] == [("A", 0, None), ("B", 0, None), ("C", 1, 0)]


def test_outermost_and_innermost_views_against_seqeval():
    outer_a, outer_b = outermost_tags(A, LENGTHS), outermost_tags(B, LENGTHS)
    inner_a, inner_b = innermost_tags(A, LENGTHS), innermost_tags(B, LENGTHS)
    assert outer_a[1] == ["B-ORG", "I-ORG", "I-ORG", "O", "O", "O", "O", "B-LOC", "I-LOC", "I-LOC", "O"]
    assert inner_a[1] == ["O", "O", "B-LOC", "O", "O", "O", "O", "B-LOC", "I-LOC", "O", "O"]
    assert inner_a[0][9:11] == ["B-PER", "I-PER"]  # a top-level leaf stays in the innermost view
    assert [spans_from_tags(tags) for tags in inner_b] == [
        [(label, start, end) for start, end, label in sorted(spans)] for spans in innermost(B, LENGTHS)]
    assert outermost(B, LENGTHS)[0] == [(1, 6, "ORG"), (7, 11, "PER")]
    for view_a, view_b in ((outer_a, outer_b), (inner_a, inner_b)):
        assert chance_f1(view_a, view_b)["overall_f1"] == pytest.approx(f1_score(view_b, view_a))
    assert f1_score(outer_b, outer_a) == pytest.approx(2 * 3 / 8)


def test_flat_views_refuse_spans_sharing_tokens():
    with pytest.raises(ValueError, match=r"spans\[0\]: spans \(0, 2, 'A'\) and \(0, 2, 'B'\) share tokens"):
        outermost_tags([[(0, 2, "A"), (0, 2, "B")]], [3])


def test_span_chance_f1_is_chance_f1_of_the_iob2_tags():
    a = [[(0, 2, "PER"), (3, 5, "LOC")], [(1, 2, "ORG")]]
    b = [[(0, 2, "PER"), (3, 4, "LOC")], []]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for level in ("token", "entity"):
            expected = chance_f1(tags_from_spans(a, [6, 4]), tags_from_spans(b, [6, 4]), level=level)
            assert span_chance_f1(a, b, [6, 4], level=level) == expected
    with pytest.raises(ValueError, match=r"predictions\[0\]: spans \(0, 4, 'A'\) and \(1, 2, 'B'\) share tokens"):
        span_chance_f1([[(0, 4, "A"), (1, 2, "B")]], [[]], [5])
    with pytest.raises(ValueError, match="scheme is a tag option"):
        span_chance_f1(a, b, [6, 4], scheme="IOB2")
    with pytest.raises(TypeError, match="lengths"):
        span_chance_f1(a, b, 6)


def records(spans):
    return [[{"start": s, "end": e, "label": label} for s, e, label in sentence] for sentence in spans]


def test_evaluate_module_spans_and_nested_configurations(load_metric):
    outer_a, outer_b = outermost(A, LENGTHS), outermost(B, LENGTHS)
    spans = load_metric("chance_f1_metric", "spans")
    result = spans.compute(predictions=records(outer_a), references=records(outer_b), lengths=LENGTHS, level="entity")
    assert result == span_chance_f1(outer_a, outer_b, LENGTHS, level="entity")
    assert result["overall_f1"] == pytest.approx(0.75)
    nested = load_metric("chance_f1_metric", "nested_spans")
    result = nested.compute(predictions=records(A), references=records(B), lengths=LENGTHS)
    assert result == nested_chance_f1(A, B, LENGTHS)
    assert len(result["depths"]) == 2
    empty_first = spans.compute(predictions=[[], records(outer_a)[1]], references=[[], records(outer_b)[1]], lengths=[3, 11])
    assert empty_first == span_chance_f1([[], outer_a[1]], [[], outer_b[1]], [3, 11])
    with pytest.raises(ValueError, match="needs lengths="):
        nested.compute(predictions=records(A), references=records(B))
    with pytest.raises(ValueError, match="lengths= belongs to"):
        load_metric("chance_f1_metric").compute(predictions=[["O"]], references=[["O"]], lengths=[1])


def test_users_token_offsets_are_checked(tmp_path):
    path = write(tmp_path / "x.jsonl", json.dumps({"text": TEXT, "spans": []}) + "\n")
    with pytest.raises(ValueError, match=r"x.jsonl line 1: token 1 \(2, 5\) is not a non-empty character range"):
        read_jsonl(path, tokenizer=lambda text: [(0, 3), (2, 5)])
