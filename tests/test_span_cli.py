"""``chance-agreement spans``: JSONL and brat files of two annotators on the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chance_agreement import nested_chance_f1, span_chance_f1
from chance_agreement.reports.cli import main
from chance_agreement.spans.nested import innermost
from test_span_input import A, B, LENGTHS

DATA = Path(__file__).resolve().parent / "data" / "nested"


@pytest.mark.parametrize("first,second", [
    ("annotator_a.jsonl", "annotator_b.jsonl"),
    ("brat_a/doc.ann", "brat_b/doc.ann"),
    ("brat_a", "brat_b"),
    ("annotator_a.jsonl", "brat_b/doc.ann"),
])
def test_json_output_equals_the_api(first, second, capsys):
    assert main(["spans", str(DATA / first), str(DATA / second), "--json", "--level", "entity"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(nested_chance_f1(A, B, LENGTHS, level="entity")))


def test_flat_view_and_table(capsys):
    assert main(["spans", str(DATA / "brat_a"), str(DATA / "brat_b"), "--view", "innermost", "--json"]) == 0
    expected = span_chance_f1(innermost(A, LENGTHS), innermost(B, LENGTHS), LENGTHS)
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(expected))
    assert main(["spans", str(DATA / "annotator_a.jsonl"), str(DATA / "annotator_b.jsonl")]) == 0
    out = capsys.readouterr().out
    pooled = nested_chance_f1(A, B, LENGTHS)
    assert f"pooled   overall" in out and f"{pooled['overall_corrected_f1']:.4f}" in out
    assert f"{pooled['depths'][1]['LOC']['chance_f1']:.4f}" in out


def test_data_errors_are_one_line_with_exit_code_1(tmp_path, capsys):
    (tmp_path / "doc.txt").write_text("Ada met Bob\n", encoding="utf-8")
    (tmp_path / "doc.ann").write_text("T1\tPER 0 3\tAda\nT2\tPER 4 7;8 11\tmet Bob\n", encoding="utf-8")
    assert main(["spans", str(tmp_path / "doc.ann"), str(tmp_path / "doc.ann")]) == 1
    error = capsys.readouterr().err
    assert "doc.ann line 2: discontinuous annotation T2" in error and "Traceback" not in error
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "x.txt").write_text("Ada\n", encoding="utf-8")
    (tmp_path / "other" / "x.ann").write_text("", encoding="utf-8")
    assert main(["spans", str(DATA / "brat_a"), str(tmp_path / "other")]) == 1
    assert "hold different documents: the document doc.ann:1" in capsys.readouterr().err
    assert main(["spans", str(DATA / "annotator_a.jsonl"), str(tmp_path / "x.csv")]) == 1
    assert "no such file" in capsys.readouterr().err


def test_widen_warns_with_the_count(tmp_path, capsys):
    path = tmp_path / "a.jsonl"
    path.write_text(json.dumps({"text": "Ada met Bob", "spans": [[0, 2, "PER"], [8, 11, "PER"]]}) + "\n", encoding="utf-8")
    assert main(["spans", str(path), str(path)]) == 1
    assert "'Ad' does not fall on token boundaries" in capsys.readouterr().err
    assert main(["spans", str(path), str(path), "--widen", "--json"]) == 0  # warnings: one stderr line each
    captured = capsys.readouterr()
    assert captured.err == f"chance-agreement: warning: {path}: 1 span(s) widened to the tokens they touch\n"
    assert json.loads(captured.out)["overall_observed_f1"] == 1.0
