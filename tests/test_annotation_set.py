"""``AnnotationSet``: every annotator's spans, chunked once, equal to the chunker's spans."""

from __future__ import annotations

import pathlib
import random
import re
import sys
import warnings

import numpy as np
import pytest

from chance_agreement import AnnotationSet
from chance_agreement.spans.nested import tags_from_spans
from chance_agreement.spans.tags import SCHEMES, OddTagWarning, corpus_spans, effective_scheme

PREFIXES = {"IOB1": "IB", "IOB2": "IB", "IOE1": "IE", "IOE2": "IE", "IOBES": "BIES", "BILOU": "BILU"}
STRICT_SEQUENCES = {  # valid entities of each scheme, as prefix strings of one entity's tokens
    "IOB2": ["B", "BI", "BII"], "IOE2": ["E", "IE", "IIE"], "IOBES": ["S", "BE", "BIE"], "BILOU": ["U", "BL", "BIL"],
    "IOB1": ["I", "II"], "IOE1": ["I", "II"],
}


def random_corpus(rng: random.Random, sentences: int, letters: str, odd: bool = False, none: float = 0.0):
    corpus = []
    for _ in range(sentences):
        if rng.random() < none:
            corpus.append(None)
            continue
        tags = []
        for _ in range(rng.randint(0, 12)):
            if rng.random() < 0.4:
                tags.append("O")
            elif odd and rng.random() < 0.05:
                tags.append(rng.choice(["X", "PER", "B_PER"]))
            else:
                tags.append(f"{rng.choice(letters)}-{rng.choice(['PER', 'LOC', 'ORG'])}")
        corpus.append(tags)
    return corpus


def strict_corpus(rng: random.Random, sentences: int, scheme: str):
    corpus = []
    for _ in range(sentences):
        tags: list[str] = []
        for _ in range(rng.randint(0, 4)):
            tags += ["O"] * rng.randint(1, 2)
            kind = rng.choice(["PER", "LOC"])
            tags += [f"{letter}-{kind}" for letter in rng.choice(STRICT_SEQUENCES[scheme])]
        corpus.append(tags)
    return corpus


def same_lengths(corpora):
    """Cut every annotator's sentence to the shortest of that sentence (None stays None)."""
    out = [list(c) for c in corpora]
    for s in range(len(out[0])):
        given = [c[s] for c in out if c[s] is not None]
        n = min(map(len, given), default=0)
        for c in out:
            if c[s] is not None:
                c[s] = c[s][:n]
    return out


@pytest.mark.parametrize("sentences", [30, 300])  # the loop chunker and the array chunker
@pytest.mark.parametrize("letters", ["BI", "BIES", "BILU", "IE", "BIESLUO"])
@pytest.mark.parametrize("seed", range(4))
def test_default_mode_spans_are_the_chunkers(sentences, letters, seed):
    rng = random.Random(seed)
    corpora = same_lengths([random_corpus(rng, sentences, letters, odd=seed % 2 == 1, none=0.1) for _ in range(3)])
    corpora = [[None if t is not None and not t else t for t in c] for c in corpora]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", OddTagWarning)
        try:
            expected = [corpus_spans([t or [] for t in c], f"a{i}") for i, c in enumerate(corpora)]
        except ValueError as error:  # seqeval's chunker refuses it: so does the set, with the same message
            with pytest.raises(ValueError) as caught:
                AnnotationSet.from_tags(dict(zip(["a0", "a1", "a2"], corpora, strict=True)))
            assert str(caught.value) == str(error)
            return
        annotations = AnnotationSet.from_tags(dict(zip(["a0", "a1", "a2"], corpora, strict=True)))
    for a, corpus in enumerate(corpora):
        assert annotations.sentence_spans(a) == [None if t is None else spans
                                                 for t, spans in zip(corpus, expected[a], strict=True)]


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("given", [True, False])
def test_strict_mode_spans_are_the_chunkers(scheme, given):
    rng = random.Random(7)
    corpora = [strict_corpus(rng, 40, scheme) for _ in range(2)]
    corpora = same_lengths(corpora)
    if not given and scheme in ("IOB1", "IOE1"):  # seqeval detects neither
        with pytest.raises(ValueError, match="cannot detect the tagging scheme"):
            AnnotationSet.from_tags(corpora, mode="strict")
        return
    resolved = effective_scheme(corpora[0] + corpora[1], scheme if given else None, "strict")
    annotations = AnnotationSet.from_tags(corpora, scheme=scheme if given else None, mode="strict")
    assert annotations.scheme is resolved
    for a, corpus in enumerate(corpora):
        assert annotations.sentence_spans(a) == corpus_spans(corpus, "x", resolved, "strict")


def test_the_layouts_and_span_lists_give_the_same_set():
    rng = random.Random(3)
    corpora = same_lengths([random_corpus(rng, 50, "BI") for _ in range(2)])
    by_tags = AnnotationSet.from_tags(corpora)
    by_items = AnnotationSet.from_items([list(row) for row in zip(*corpora, strict=True)],
                                        names=["annotator_1", "annotator_2"])
    # the same spans written as IOB2 tags: chunked back, the same spans and the IOB2 tags' codes
    spans = [[[(b, e, t) for t, b, e in sentence] for sentence in by_tags.sentence_spans(a)] for a in range(2)]
    lengths = by_tags.lengths.tolist()
    by_spans = AnnotationSet.from_spans(spans, lengths)
    iob2 = AnnotationSet.from_tags([tags_from_spans(s, lengths) for s in spans])
    for a in range(2):
        assert by_items.sentence_spans(a) == by_tags.sentence_spans(a) == by_spans.sentence_spans(a)
        assert by_spans.sentence_spans(a) == iob2.sentence_spans(a)
    assert by_spans.equal_tags(0, 1).tolist() == iob2.equal_tags(0, 1).tolist()
    assert by_tags.equal_tags(0, 1).tolist() == [sum(x == y for x, y in zip(p, q, strict=True))
                                                 for p, q in zip(*corpora, strict=True)]


def test_select_keeps_the_spans_of_the_chosen_annotators_and_sentences():
    rng = random.Random(5)
    corpora = same_lengths([random_corpus(rng, 40, "BI", none=0.2) for _ in range(3)])
    annotations = AnnotationSet.from_tags(corpora)
    shared = annotations.shared_items(2, 0)
    pair = annotations.select([2, 0], shared)
    assert pair.names == ("annotator_3", "annotator_1")
    assert pair.sentence_spans(0) == [annotations.sentence_spans(2)[s] for s in shared]
    assert pair.sentence_spans(1) == [annotations.sentence_spans(0)[s] for s in shared]
    assert pair.equal_tags(0, 1).tolist() == annotations.equal_tags(2, 0)[shared].tolist()
    arrays = annotations.span_arrays(0, shared)
    assert np.array_equal(arrays.begin, pair.span_arrays(1).begin)
    assert np.array_equal(arrays.sentence, pair.span_arrays(1).sentence)
    assert arrays.sentence.tolist() == sorted(arrays.sentence.tolist())
    assert len(arrays.begin) == sum(len(annotations.sentence_spans(0)[s] or []) for s in shared)


@pytest.mark.parametrize("corpora, message", [
    ({"ann": [["O"], ["O", "B-PER", 3]]}, "ann[1], position 2: the tag is an int (3), not a string"),
    ({"ann": [["O", "B-PER"]], "bob": [["O"]]}, "sentence 0: ann has 2 tags but bob has 1"),
    ({"ann": [["O"]], "bob": [["O"], ["O"]]}, "different numbers of sentences (ann 1, bob 2)"),
    ({"ann": [["O"], ["B-PER", "X", "I-PER"]]}, None),
])
def test_bad_tags_are_refused_naming_the_annotator_sentence_and_position(corpora, message):
    if message is None:
        with pytest.warns(OddTagWarning, match=r"'X' \(first in ann\[1\]\)"):
            AnnotationSet.from_tags(corpora)
        return
    with pytest.raises((ValueError, TypeError)) as caught:
        AnnotationSet.from_tags(corpora)
    assert message in str(caught.value)


def test_bad_spans_are_refused_naming_the_annotator_and_sentence():
    with pytest.raises(ValueError, match=r"bob\[1\]: span \(2, 4, 'PER'\) is not a non-empty token range"):
        AnnotationSet.from_spans({"ann": [[], []], "bob": [[], [(2, 4, "PER")]]}, [2, 3])
    with pytest.raises(ValueError, match=r"ann\[0\]: spans \(0, 2, 'PER'\) and \(1, 2, 'LOC'\) share tokens"):
        AnnotationSet.from_spans({"ann": [[(0, 2, "PER"), (1, 2, "LOC")]]}, [2])


# --- the HTML report chunks each annotator's sentence once --------------------------------------


def chunked_sentences(run) -> int:
    """Sentences that seqeval's chunkers (the loop, the array pass, the strict automaton) chunk
    while ``run()`` runs: every real call counted, weighted by the sentences it was given."""
    from chance_agreement.spans import tags

    chunkers = {tags._lenient_small.__code__, tags._lenient_arrays.__code__, tags._strict_corpus.__code__}
    counted = [0]

    def profile(frame, event, arg):
        if event == "call" and frame.f_code in chunkers:
            counted[0] += len(frame.f_locals["sequences"])

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(previous)
    return counted[0]


def report_annotations(annotators: int, sentences: int = 100, seed: int = 0):
    rng = random.Random(seed)
    lengths = [rng.randint(5, 15) for _ in range(sentences)]
    tokens = [[f"w{i}" for i in range(n)] for n in lengths]
    annotations = {}
    for a in range(annotators):
        corpus = []
        for n in lengths:
            tags: list[str] = []
            for _ in range(n):
                if rng.random() < 0.6:
                    tags.append("O")
                elif tags and tags[-1] != "O" and rng.random() < 0.5:
                    tags.append("I-" + tags[-1][2:])
                else:
                    tags.append("B-" + rng.choice(["PER", "LOC", "ORG"]))
            corpus.append(tags)
        annotations[f"a{a}"] = corpus
    return tokens, annotations


@pytest.mark.parametrize("annotators", [2, 3])
@pytest.mark.parametrize("options", [{}, {"mode": "strict", "scheme": "IOB2"}, {"level": "entity"}])
def test_the_html_report_chunks_each_annotator_sentence_at_most_once_and_a_half(annotators, options):
    """Before the annotation set, this report chunked every annotator's sentence 5.3 times (3
    annotators; 4.3 with 2): every section chunked the tags again."""
    from chance_agreement.reports.html_report import html_report

    tokens, annotations = report_annotations(annotators)
    chunked = chunked_sentences(lambda: html_report(tokens, annotations, confidence_level=None, **options))
    assert chunked <= 1.5 * annotators * len(tokens), chunked / (annotators * len(tokens))
    assert chunked >= annotators * len(tokens)  # the counter sees the chunkers: each sentence once at least


def column_file(folder, annotators: int = 3) -> tuple[str, int]:
    """``report_annotations``' tags as one column file (a tag column per annotator) and its sentences."""
    tokens, annotations = report_annotations(annotators)
    path = folder / "team.tsv"
    path.write_text("\n\n".join("\n".join("\t".join([word, *(tags[s][t] for tags in annotations.values())])
                                           for t, word in enumerate(words)) for s, words in enumerate(tokens)) + "\n",
                    encoding="utf-8")
    return str(path), len(tokens)


@pytest.mark.parametrize("command", ["agreement", "report", "leaderboard"])
def test_the_commands_on_files_chunk_each_annotator_sentence_at_most_once_and_a_half(tmp_path, command):
    """The readers' set (``flat_team``) goes down to every section: before it, ``agreement`` chunked
    each annotator's sentence 5.0 times (3 annotators), ``leaderboard`` 2.3 and ``report`` 2.0 (the
    column files' check, then the tags again)."""
    from chance_agreement.reports.cli import main

    path, sentences = column_file(tmp_path)
    columns = [f"{path}:{column}" for column in (1, 2, 3)]
    extra = ["--no-intervals"] if command == "report" else []
    codes: list = []
    chunked = chunked_sentences(lambda: codes.append(main([command, *columns, *extra, "-o", str(tmp_path / "out")])))
    assert codes == [0]
    assert chunked <= 1.5 * 3 * sentences, chunked / (3 * sentences)
    assert chunked >= 3 * sentences


@pytest.mark.parametrize("command", [["annotator-test", "--margin", "0.1", "--n-resamples", "20", "--format", "json"],
                                     ["report", "--margin", "0.1", "--n-resamples", "20", "--no-intervals"]])
def test_the_annotator_test_on_files_chunks_each_annotator_sentence_at_most_once_and_a_half(tmp_path, command):
    """Humans and candidate read as one set (``flat_team``), tested without chunking again: before
    it, ``annotator-test`` chunked each annotator's sentence 2.0 times (the column files' check,
    then the tags again; now 1.0). ``report`` reads its 3 annotators for its own sections, then the
    test's 4 (the humans again, with the candidate): 11 sentences chunked per sentence before, 1.57
    per annotator of the two readings, now 7 (1.0; 1.75 per distinct annotator)."""
    from chance_agreement.reports.cli import main

    path, sentences = column_file(tmp_path, annotators=4)
    humans, candidate = [f"{path}:{column}" for column in (1, 2, 3)], f"{path}:4"
    codes: list = []
    chunked = chunked_sentences(lambda: codes.append(main([command[0], *humans, "--candidate", candidate, *command[1:],
                                                           "-o", str(tmp_path / "out")])))
    assert codes == [0]
    annotators = 4 if command[0] == "annotator-test" else 3 + 4  # the report reads its 3 annotators, then the test's 4
    assert chunked <= 1.5 * annotators * sentences, chunked / (annotators * sentences)
    assert chunked >= annotators * sentences


@pytest.mark.parametrize("command", [["f1", "--reference-column", "1", "--prediction-column", "2"],
                                     ["f1", "--mode", "strict", "--scheme", "IOB1", "--confidence-level", "0.9"],
                                     ["spans"]])
def test_a_column_file_is_chunked_once_its_check_and_its_scores_one_pass(tmp_path, command):
    """The readers' line-by-line tag check runs only when chunking fails (``conll.lines_named``):
    before, ``f1`` chunked each column's sentence 4.0 times (the check, then ``chance_f1`` twice)
    and ``spans`` 2.0 (the check, then the nested view)."""
    from chance_agreement.reports.cli import main

    path, sentences = column_file(tmp_path, annotators=2)
    files = [f"{path}:1", f"{path}:2"] if command == ["spans"] else [path]
    codes: list = []
    chunked = chunked_sentences(lambda: codes.append(main([*command, *files, "-o", str(tmp_path / "out")])))
    assert codes == [0]
    assert chunked == 2 * sentences  # every sentence of both columns, once


@pytest.mark.parametrize("command", ["f1", "agreement", "leaderboard"])
def test_a_bad_tag_chunked_once_is_still_named_by_its_file_line_and_column(tmp_path, capsys, command):
    from chance_agreement.reports.cli import main

    path, _ = column_file(tmp_path, annotators=2)
    lines = open(path, encoding="utf-8").read().split("\n")
    lines[40] = lines[40].rsplit("\t", 1)[0] + "\tE-ORG"  # strict IOB2 refuses it; the line-by-line check names it
    open(path, "w", encoding="utf-8").write("\n".join(lines))
    files = [path] if command == "f1" else [f"{path}:1", f"{path}:2"]
    assert main([command, *files, "--mode", "strict", "--scheme", "IOB2", "-o", str(tmp_path / "out")]) == 1
    assert f"{path}: line 41: column 2: tag 'E-ORG': Invalid token" in capsys.readouterr().err


def test_annotator_test_chunks_tags_once_and_a_set_never():
    from chance_agreement import annotator_test, by_item

    tokens, annotations = report_annotations(4)
    *humans, candidate = annotations.values()
    options = {"margin": 0.1, "n_resamples": 20, "random_state": 0}
    results: list = []
    assert chunked_sentences(lambda: results.append(annotator_test(by_item(humans), candidate, **options))) == \
        4 * len(tokens)
    team = AnnotationSet.from_tags(annotations)
    assert chunked_sentences(lambda: results.append(annotator_test(team, "a3", **options))) == 0
    assert results[1]["advantage"] == dict(zip(["a0", "a1", "a2"], results[0]["advantage"].values(), strict=True))


@pytest.mark.parametrize("command", ["annotator-test", "report"])
@pytest.mark.parametrize("column", [2, 4])  # a human's, the candidate's
def test_a_bad_tag_of_the_annotator_test_is_still_named_by_its_file_line_and_column(tmp_path, capsys, command, column):
    from chance_agreement.reports.cli import main

    path, _ = column_file(tmp_path, annotators=4)
    file = pathlib.Path(path)
    lines = file.read_text(encoding="utf-8").split("\n")
    cells = lines[40].split("\t")
    lines[40] = "\t".join([*cells[:column], "E-ORG", *cells[column + 1:]])  # strict IOB2 refuses it
    file.write_text("\n".join(lines), encoding="utf-8")
    argv = [command, f"{path}:1", f"{path}:2", f"{path}:3", "--candidate", f"{path}:4", "--margin", "0.1",
            "--mode", "strict", "--scheme", "IOB2", "-o", str(tmp_path / "out")]
    assert main(argv) == 1
    assert f"{path}: line 41: column {column}: tag 'E-ORG': Invalid token" in capsys.readouterr().err


@pytest.mark.parametrize("annotators, options", [(2, {}), (3, {"gamma_samples": 3}), (3, {"leaderboard": True}),
                                                  (2, {"mode": "strict", "scheme": "IOB2", "level": "entity"})])
def test_the_html_report_of_the_files_set_equals_the_report_of_their_tags(tmp_path, annotators, options):
    from chance_agreement.reports.html_report import load_annotation_set, load_annotations, report_data

    path, _ = column_file(tmp_path, annotators)
    specs = [f"{path}:{column}" for column in range(1, annotators + 1)]
    span = {key: options[key] for key in ("mode", "scheme") if key in options}
    documents: list = []
    tokens, annotations = load_annotation_set(specs, documents=documents, **span)
    same_tokens, tags = load_annotations(specs, **span)
    assert tokens == same_tokens and annotations.names == tuple(tags)
    halves = ["first"] * 50 + ["second"] * 50  # two documents: the per-document table too
    chunked = chunked_sentences(lambda: report_data(tokens, annotations, documents=halves, n_resamples=20, **options))
    assert chunked == 0  # the set is read, never chunked again
    expected = report_data(tokens, tags, documents=halves, n_resamples=20, **options)
    assert report_data(tokens, annotations, documents=halves, n_resamples=20, **options) == expected


@pytest.mark.parametrize("annotators", [2, 3])
def test_the_agreement_report_of_the_files_set_equals_the_report_of_their_tags(tmp_path, annotators):
    import dataclasses

    from chance_agreement.reports.team_report import build_report, load_annotations, render

    path, _ = column_file(tmp_path, annotators)
    loaded = load_annotations([f"{path}:{column}" for column in range(1, annotators + 1)])
    assert loaded.chunked is not None
    options = {"gamma_samples": 3, "intervals": True, "n_resamples": 20, "random_state": 1}
    from_tags = render(build_report(dataclasses.replace(loaded, chunked=None), **options), "json")
    assert render(build_report(loaded, **options), "json") == from_tags


def test_span_chance_f1_writes_no_tags_and_chunks_nothing():
    from chance_agreement import chance_f1, span_chance_f1

    references = [[(0, 2, "PER"), (4, 5, "LOC")], [(1, 3, "ORG")]]
    predictions = [[(0, 3, "PER"), (4, 5, "LOC")], []]
    lengths = [6, 4]
    result: dict = {}
    assert chunked_sentences(lambda: result.update(span_chance_f1(predictions, references, lengths))) == 0
    as_tags = chance_f1(tags_from_spans(predictions, lengths), tags_from_spans(references, lengths))
    assert result == as_tags  # every value, bit for bit, and the IOB2 tag accuracy


# --- every consumer takes a set, with the numbers of its tag input ------------------------------


def three_annotators(none: float = 0.0):
    rng = random.Random(11)
    corpora = same_lengths([random_corpus(rng, 40, "BI", none=none) for _ in range(3)])
    return [[None if t is not None and not t else t for t in c] for c in corpora]


def test_the_two_annotator_functions_give_their_tag_results_on_a_set():
    from chance_agreement import chance_f1, contingency, noise_report

    references, predictions = (c for c in three_annotators()[:2])
    references = [t or ["O"] for t in references]
    predictions = [p or ["O"] * len(r) for p, r in zip(predictions, references, strict=True)]
    predictions = [p[:len(r)] + ["O"] * (len(r) - len(p)) for p, r in zip(predictions, references, strict=True)]
    pair = AnnotationSet.from_tags({"ref": references, "pred": predictions})
    assert chance_f1(pair, zero_division=0, return_sentence_scores=True, level="entity") == chance_f1(
        predictions, references, zero_division=0, return_sentence_scores=True, level="entity")
    assert chance_f1(pair, zero_division=0) == chance_f1(predictions, references, zero_division=0)
    table, categories = contingency(pair)
    expected_table, expected_categories = contingency(predictions, references)
    assert (table.tolist(), categories) == (expected_table.tolist(), expected_categories)
    assert noise_report(pair) == noise_report(predictions, references)
    with pytest.raises(ValueError, match="chunked with mode=None, not 'strict'"):
        chance_f1(pair, mode="strict")
    with pytest.raises(TypeError, match="give it alone, without references"):
        chance_f1(pair, references)


def test_the_several_annotator_functions_give_their_tag_results_on_a_set():
    from chance_agreement import (
        by_item,
        gamma_agreement,
        multi_annotator_agreement,
        noise_report_multi,
        team_chance_f1,
        unitizing_alpha,
    )

    partial = three_annotators(none=0.2)
    annotations = AnnotationSet.from_tags(partial, names=["a", "b", "c"])
    assert team_chance_f1(annotations, return_sentence_scores=True) == team_chance_f1(
        by_item(partial), names=["a", "b", "c"], return_sentence_scores=True)
    assert multi_annotator_agreement(annotations) == multi_annotator_agreement(by_item(partial))
    complete = [[t or ["O"] * n for t in c] for c, n in zip([[c[s] for c in partial] for s in range(40)],
                                                               annotations.lengths.tolist(), strict=True)]
    complete = [list(item) for item in complete]
    whole = AnnotationSet.from_items(complete)
    assert noise_report_multi(whole) == noise_report_multi(complete)
    assert unitizing_alpha(whole) == unitizing_alpha(complete)
    assert unitizing_alpha(whole, variant="mu_alpha") == unitizing_alpha(complete, variant="mu_alpha")
    mine = gamma_agreement(whole, n_samples=30, random_state=0)
    theirs = gamma_agreement(complete, annotators=list(whole.names), n_samples=30, random_state=0)
    for key in ("gamma", "observed_disorder", "expected_disorder", "gamma_cat", "gamma_k", "sample_disorders"):
        assert getattr(mine, key) == getattr(theirs, key)
    with pytest.raises(ValueError, match="the annotator is missing"):
        noise_report_multi(annotations)
    with pytest.raises(ValueError, match="not annotated; unitizing alpha needs every annotator"):
        unitizing_alpha(annotations)


def test_nested_sets_go_to_the_nested_function_only():
    from chance_agreement import chance_f1, nested_chance_f1

    references = [[(0, 4, "ORG"), (1, 3, "PER")], [], [(2, 5, "LOC")]]
    predictions = [[(0, 4, "ORG"), (1, 2, "PER")], [(0, 1, "LOC")], [(2, 5, "LOC"), (3, 4, "PER")]]
    lengths = [6, 3, 5]
    annotations = AnnotationSet.from_spans({"r": references, "p": predictions}, lengths, nested=True)
    for level in ("token", "entity"):
        assert nested_chance_f1(annotations, level=level, zero_division=0) == nested_chance_f1(
            predictions, references, lengths, level=level, zero_division=0)
    with pytest.raises(ValueError, match="nested spans, which have no flat form"):
        chance_f1(annotations)
    flat = AnnotationSet.from_spans({"r": [r[:1] for r in references],
                                     "p": [p[:1] for p in predictions]}, lengths)
    assert nested_chance_f1(flat, zero_division=0)["overall_corrected_f1"] == pytest.approx(
        chance_f1(flat, zero_division=0)["overall_corrected_f1"])


@pytest.mark.parametrize("specs", [
    ["tests/data/partial/doccano/alice.jsonl", "tests/data/partial/doccano/bob.jsonl"],
    ["tests/data/formats/team.conll"],
    ["tests/data/formats/label_studio.json"],
    ["tests/data/nested/annotator_a.jsonl", "tests/data/nested/annotator_b.jsonl"],  # types share tokens: layers
    ["tests/data/formats/team.conll:1", "tests/data/formats/prodigy.jsonl"],
])
def test_a_set_from_the_readers_output_holds_the_flat_views_spans(specs):
    from chance_agreement import read_annotators

    try:
        team = read_annotators(specs, partial=True)
        tokens, tags = team.flat()
    except ValueError as error:  # files that do not go together: the set refuses them alike
        with pytest.raises(ValueError, match=re.escape(str(error)[:60])):
            AnnotationSet.from_team(read_annotators(specs, partial=True))
        return
    expected = AnnotationSet.from_tags(tags, names=team.names)
    chunked: list = []
    assert chunked_sentences(lambda: chunked.append(AnnotationSet.from_team(team))) <= sum(
        unit.tags is not None for units in team.units for unit in units if unit is not None) * 2
    annotations = chunked[0]
    assert annotations.names == tuple(team.names)
    assert annotations.lengths.tolist() == [len(sentence) for sentence in tokens]
    for a in range(len(team.names)):
        assert annotations.sentence_spans(a) == expected.sentence_spans(a)
        for b in range(a):
            assert annotations.equal_tags(a, b).tolist() == expected.equal_tags(a, b).tolist()


def test_spans_read_from_files_are_not_chunked():
    from chance_agreement import read_annotators

    team = read_annotators(["tests/data/partial/doccano/alice.jsonl", "tests/data/partial/doccano/bob.jsonl"],
                           partial=True)
    assert chunked_sentences(lambda: AnnotationSet.from_team(team)) == 0
    assert chunked_sentences(lambda: team.flat()) == 0
    assert chunked_sentences(lambda: AnnotationSet.from_tags(team.flat()[1])) > 0  # tags written, chunked back
