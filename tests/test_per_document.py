"""Issue 35 item 4: agreement per document (agreement, report and the API, text, CSV and JSON), and
the document named beside every sentence number of the reports and the gamma alignment."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil

import pytest

from chance_agreement import by_item, chance_f1, document_chance_f1
from chance_agreement.reports.cli import main
from chance_agreement.reports.team_report import load_annotations
from chance_agreement.spans.annotators import read_annotators
from conftest import REPO

BRAT = REPO / "tests" / "data" / "formats" / "brat"  # alice, bob, carol: the same text, other spans
LABEL_STUDIO = REPO / "tests" / "data" / "partial" / "label_studio.json"


@pytest.fixture
def project(tmp_path):
    """A brat project of ten documents as a team exports it: one folder per annotator, one
    ``.txt``/``.ann`` pair per document. Bob copies Alice in some documents and Carol in others,
    so the documents' agreement differs."""
    sources = {"alice": ["alice"] * 10, "bob": ["bob", "alice", "carol", "bob", "bob", "alice", "carol", "bob",
                                                "alice", "bob"]}
    for annotator, copied in sources.items():
        folder = tmp_path / annotator
        folder.mkdir()
        for number, source in enumerate(copied, start=1):
            for suffix in (".txt", ".ann"):
                shutil.copy(BRAT / source / f"doc{suffix}", folder / f"doc{number:02d}{suffix}")
    return [str(tmp_path / "alice"), str(tmp_path / "bob")]


def run(arguments, capsys) -> str:
    assert main(arguments) == 0
    return capsys.readouterr().out


def test_agreement_scores_each_document_as_chance_f1_does(project, capsys):
    report = json.loads(run(["agreement", *project, "--format", "json"], capsys))
    annotations = load_annotations(project)
    alice, bob = annotations.tags
    for level in ("token", "entity"):
        rows = report["documents"][level]
        assert [row["document"] for row in rows] == [f"doc{n:02d}.ann" for n in range(1, 11)]
        for row in rows:
            sentences = [s for s, name in enumerate(annotations.documents) if name == row["document"]]
            expected = chance_f1([bob[s] for s in sentences], [alice[s] for s in sentences], level=level,
                                 zero_division=0)
            assert row["sentences"] == len(sentences) == 2
            assert [row[key] for key in ("observed_f1", "chance_f1", "corrected_f1")] == [
                expected[f"overall_{key}"] for key in ("observed_f1", "chance_f1", "corrected_f1")]
    assert rows[1]["corrected_f1"] == 1.0 and rows[0]["corrected_f1"] < 1.0  # Bob copied Alice in doc02
    cells = list(csv.reader(io.StringIO(run(["agreement", *project, "--format", "csv"], capsys))))
    assert ["documents", "token level, per document", "doc02.ann", "corrected F1", "1.0"] in cells
    text = run(["agreement", *project], capsys)
    assert "Chance-corrected F1 per document (10 documents)" in text
    assert re.search(r"^doc02\.ann +2 +1\.0000 +0\.\d{4} +1\.0000$", text, re.M), text


def test_per_document_intervals_where_asked(project, capsys):
    arguments = ["agreement", *project, "--format", "json", "--intervals", "--confidence-level", "0.9", "--random-state", "3"]
    rows = json.loads(run(arguments, capsys))["documents"]["token"]
    annotations = load_annotations(project)
    expected = document_chance_f1(annotations.items, annotations.documents, names=annotations.names,
                                  confidence_level=0.9, random_state=3)
    assert [row["corrected_f1_ci"] for row in rows] == [row["corrected_f1_ci"] for row in expected]
    assert all(row["corrected_f1_ci"] is not None for row in rows if row["corrected_f1"] is not None)
    assert "corrected F1 90% interval" in run(arguments[:-7] + ["--intervals", "--confidence-level", "0.9"], capsys)


def test_the_gamma_alignment_names_the_document_of_each_sentence(project, capsys):
    text = run(["agreement", *project, "--gamma-samples", "5"], capsys)
    table = text[text.index("most disordered unitary alignments"):]
    numbers = re.findall(r"^\d\.\d{4} +(\d+) \((doc\d\d\.ann)\)", table, re.M)
    assert numbers and all(f"doc{(int(number) + 1) // 2:02d}.ann" == document for number, document in numbers)
    report = json.loads(run(["agreement", *project, "--gamma-samples", "5", "--format", "json"], capsys))
    assert all(row["document"] == f"doc{(row['sentence'] + 1) // 2:02d}.ann"
               for row in report["gamma"]["most_disordered"])


def test_the_html_report_has_a_document_table_and_names_documents(project, tmp_path):
    page = tmp_path / "report.html"
    assert main(["report", *project, "-o", str(page), "-q", "--gamma-samples", "5"]) == 0
    html = page.read_text(encoding="utf-8")
    assert 'id="documents"' in html and "Per document (10 documents)" in html
    annotations = load_annotations(project)
    expected = document_chance_f1(annotations.items, annotations.documents, names=annotations.names)
    shown = dict(re.findall(r'data-key="documents/([^"]+)/corrected_f1" data-value="([^"]*)"', html))
    assert shown == {row["document"]: repr(row["corrected_f1"]) for row in expected}
    sentences = html[html.index("Sentences with the most disagreement"):]
    named = re.findall(r'data-key="sentences/(\d+)/sentence"[^>]*>\d+</td><td><bdi[^>]*>(doc\d\d\.ann)</bdi></td>',
                       sentences)
    assert named and all(f"doc{(int(number) + 1) // 2:02d}.ann" == document for number, document in named)
    assert re.findall(r"<h3>Sentence (\d+) of (doc\d\d\.ann)", html)


def test_documents_of_other_layouts():
    team = read_annotators([str(LABEL_STUDIO)], partial=True)
    assert team.documents() == [f"{LABEL_STUDIO} task {n}" for n in (1, 2, 3)]
    single = read_annotators([str(REPO / "examples" / "anna.conll"), str(REPO / "examples" / "ben.conll")])
    assert set(single.documents()) == {str(REPO / "examples" / "anna.conll")}  # a CoNLL file: one document


def test_two_annotators_per_document_equal_chance_f1_on_the_documents_sentences():
    first = [["B-PER", "O", "O"], ["O", "B-LOC", "O"], ["B-ORG", "I-ORG", "O"]]
    second = [["B-PER", "O", "O"], ["B-LOC", "O", "O"], ["B-ORG", "O", "O"]]
    rows = document_chance_f1(by_item([first, second]), ["a", "b", "a"])
    expected = chance_f1([second[0], second[2]], [first[0], first[2]])
    assert rows[0]["corrected_f1"] == expected["overall_corrected_f1"] and rows[0]["sentences"] == 2
    with pytest.raises(ValueError, match="documents must name the document of each of the 3 sentences"):
        document_chance_f1(by_item([first, second]), ["a", "b"])
