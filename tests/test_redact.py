"""Issue 35 item 5: ``report --redact`` and ``agreement --redact`` put no token text anywhere in their
output (HTML, JSON, CSV, text, Markdown, standard error): offsets, labels, ids and scores only.

The inputs are real-layout exports (Label Studio with several annotators and partial coverage, a
brat project with crossing spans left out) whose letters are rotated by 13 (ROT13: the same
lengths, offsets and tokenisation, but words no report prose contains), so every token of the
input text can be searched for in every output."""

from __future__ import annotations

import codecs
import json
import re

import pytest

from chance_agreement.reports.cli import main
from chance_agreement.spans.annotators import read_annotators
from conftest import REPO

LABEL_STUDIO = REPO / "tests" / "data" / "partial" / "label_studio.json"
BRAT = REPO / "tests" / "data" / "formats" / "brat"


def rot13(text: str) -> str:
    return codecs.encode(text, "rot13")


@pytest.fixture
def label_studio(tmp_path):
    tasks = json.loads(LABEL_STUDIO.read_text(encoding="utf-8"))
    for task in tasks:
        task["data"]["text"] = rot13(task["data"]["text"])
        for annotation in task.get("annotations", []) + task.get("predictions", []):
            for region in annotation.get("result", []):
                if "text" in region.get("value", {}):
                    region["value"]["text"] = rot13(region["value"]["text"])
    path = tmp_path / "project.json"
    path.write_text(json.dumps(tasks, indent=1), encoding="utf-8")
    return [str(path)]


@pytest.fixture
def brat(tmp_path):
    """Three annotators' brat folders of two documents; Alice's second document holds two crossing
    PER spans (left out with --crossing skip, a note that used to quote the tokens)."""
    for annotator in ("alice", "bob", "carol"):
        for number in (1, 2):
            folder = tmp_path / annotator
            folder.mkdir(exist_ok=True)
            (folder / f"note{number}.txt").write_text(rot13((BRAT / annotator / "doc.txt").read_text("utf-8")),
                                                      encoding="utf-8")
            lines = [line.split("\t") for line in (BRAT / annotator / "doc.ann").read_text("utf-8").splitlines()]
            (folder / f"note{number}.ann").write_text("".join(
                "\t".join(fields[:2] + [rot13(fields[2])] if fields[0].startswith("T") else fields) + "\n"
                for fields in lines), encoding="utf-8")
    ann = tmp_path / "alice" / "note2.ann"
    ann.write_text(ann.read_text("utf-8").replace("#1\tAnnotatorNotes T1\tfull name\n", "")
                   + "T9\tPER 4 16\tYbirynpr zrg\n", encoding="utf-8")
    return [str(tmp_path / name) for name in ("alice", "bob", "carol")]


def input_words(specs) -> set[str]:
    """Every token of the input text with a letter in it (numbers and punctuation would match the
    scores and the markup)."""
    team = read_annotators(specs, partial=True)
    return {token for units in team.units for unit in units if unit is not None for token in unit.tokens
            if any(character.isalpha() for character in token)}


def leaked(words, text: str) -> list[str]:
    return sorted(word for word in words
                  if re.search(rf"(?<![^\W_]){re.escape(word)}(?![^\W_])", text))


def outputs(specs, tmp_path, capsys, extra=()) -> dict[str, str]:
    """Every output of agreement (four formats) and report (HTML), with standard error."""
    shown = {}
    for fmt in ("text", "markdown", "csv", "json"):
        assert main(["agreement", *specs, "--redact", "--format", fmt, "--gamma-samples", "5",
                     "--intervals", "--confidence-level", "0.9", *extra]) == 0
        out, err = capsys.readouterr()
        shown[f"agreement {fmt}"], shown[f"agreement {fmt} stderr"] = out, err
    page = tmp_path / "redacted.html"
    assert main(["report", *specs, "--redact", "-o", str(page), "-q", "--gamma-samples", "5", *extra]) == 0
    shown["report html"] = page.read_text(encoding="utf-8")
    shown["report stderr"] = capsys.readouterr().err
    return shown


def test_no_token_of_a_label_studio_project_in_any_output(label_studio, tmp_path, capsys):
    words = input_words(label_studio)
    assert len(words) > 10
    page = tmp_path / "plain.html"  # without --redact the text is there, and the scan finds it
    assert main(["report", *label_studio, "-o", str(page), "-q"]) == 0
    assert leaked(words, page.read_text(encoding="utf-8"))
    for name, text in outputs(label_studio, tmp_path, capsys).items():
        assert leaked(words, text) == [], name
    redacted = (tmp_path / "redacted.html").read_text(encoding="utf-8")
    assert "redacted (--redact): no token text" in redacted and 'data-key="summary/overall_corrected_f1"' in redacted


def test_no_token_of_a_brat_project_with_spans_left_out(brat, tmp_path, capsys):
    words = input_words(brat)
    shown = outputs(brat, tmp_path, capsys, ["--crossing", "skip"])
    for name, text in shown.items():
        assert leaked(words, text) == [], name
    assert "1 crossing span(s) left out" in shown["agreement text"]
    assert re.search(r"PER \d+-\d+", shown["agreement text"])  # the gamma alignment: types and offsets
    assert main(["agreement", *brat, "--crossing", "skip", "--gamma-samples", "5"]) == 0
    plain_text = capsys.readouterr().out
    assert "Ybirynpr zrg" in plain_text and leaked(words, plain_text)  # what --redact leaves out
    # the same numbers as without --redact: redaction changes the text, never a score
    assert main(["agreement", *brat, "--format", "json", "--crossing", "skip"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main(["agreement", *brat, "--format", "json", "--crossing", "skip", "--redact"]) == 0
    redacted = json.loads(capsys.readouterr().out)
    assert redacted["team_chance_f1"] == plain["team_chance_f1"] and redacted["documents"] == plain["documents"]
