"""Issue 24's errors and files: reserved type names in span input (1b), outputs that are inputs
(2a), and the clear errors of item 4 (encodings, brat offsets, numeric options, ``python -m``,
API argument types). Command lines run in a real subprocess on real files in ``tmp_path``; every
failure is one line on standard error naming the file and line, never a traceback."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from chance_agreement import nested_chance_f1, span_chance_f1

DATA = Path(__file__).resolve().parent / "data"
TEXT = "Ada met Bob in Rome ."


def cli(*args, cwd=None, module="chance_agreement.reports.cli") -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", module, *map(str, args)], capture_output=True, cwd=cwd, input=b"")
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode(), done.stderr.decode())


def one_error(result: subprocess.CompletedProcess, status: int = 1) -> str:
    """The single error line of a run that exited with ``status`` (no traceback, nothing else)."""
    assert result.returncode == status, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "error: " in lines[0]
    return lines[0]


def jsonl(path: Path, *records) -> Path:
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


def ok_record(label: str = "PER") -> dict:
    return {"text": TEXT, "spans": [[0, 3, label], [8, 11, "PER"]]}


# -- 1b: reserved type names in span input ------------------------------------------------------

SPAN_RESERVED = ["overall_f1", "O", "depths", "pairs", "annotators", "per_annotator", "skipped_spans",
                 "layered_units", "sentence_scores", "pairwise_observed_f1", "overall"]


@pytest.mark.parametrize("name", SPAN_RESERVED)
def test_spans_command_refuses_a_reserved_type_in_a_jsonl_file(tmp_path, name):
    first = jsonl(tmp_path / "a.jsonl", ok_record(), ok_record(name))
    second = jsonl(tmp_path / "b.jsonl", ok_record(), ok_record())
    line = one_error(cli("spans", first, second))
    assert f"a.jsonl line 2: an entity type is named {name!r}, which is reserved" in line


@pytest.mark.parametrize("command", ["spans", "agreement"])
def test_span_commands_refuse_a_reserved_type_in_a_brat_file(tmp_path, command):
    (tmp_path / "doc.txt").write_text("Ada met Bob\nin Rome .\n", encoding="utf-8")
    ann = tmp_path / "doc.ann"
    ann.write_text("T1\tPER 0 3\tAda\nT2\tdepths 15 19\tRome\n", encoding="utf-8")
    other = jsonl(tmp_path / "b.jsonl", {"text": "Ada met Bob"}, {"text": "in Rome ."})
    line = one_error(cli(command, ann, other))
    assert "doc.ann line 2: an entity type is named 'depths', which is reserved" in line


def test_webanno_tsv_refuses_a_reserved_type(tmp_path):
    source = (DATA / "formats" / "webanno" / "alice.tsv").read_text(encoding="utf-8")
    path = tmp_path / "alice.tsv"
    path.write_text(source.replace("\tLOC\t", "\tpairs\t", 1), encoding="utf-8")
    line = one_error(cli("spans", path, DATA / "formats" / "webanno" / "bob.tsv"))
    assert "alice.tsv line 12: an entity type is named 'pairs', which is reserved" in line


@pytest.mark.parametrize("score", [nested_chance_f1, span_chance_f1])
def test_span_lists_refuse_a_reserved_type_naming_sentence_and_position(score):
    good = [[(0, 1, "PER")], [(1, 2, "PER")]]
    bad = [[(0, 1, "PER")], [(1, 2, "depths")]]
    with pytest.raises(ValueError, match=r"references\[1\], position 1: an entity type is named 'depths', which is reserved"):
        score(good, bad, [2, 3])


def test_nested_spans_module_configuration_refuses_a_reserved_type(load_metric):
    metric = load_metric("chance_f1_metric", "nested_spans")
    ok = [[{"start": 0, "end": 2, "label": "PER"}]]
    bad = [[{"start": 0, "end": 2, "label": "overall_f1"}, {"start": 0, "end": 1, "label": "PER"}]]
    with pytest.raises(ValueError, match=r"predictions\[0\], position 0: an entity type is named 'overall_f1'"):
        metric.compute(predictions=bad, references=ok, lengths=[3])


# -- 2a: a path a command writes may not be one of its inputs -----------------------------------

CONLL = "Ada B-PER B-PER\nmet O O\nBob B-PER O\n\n"


def _conll(tmp_path: Path) -> Path:
    path = tmp_path / "t.conll"
    path.write_text(CONLL, encoding="utf-8")
    return path


def _alias(tmp_path: Path, path: Path, how: str) -> Path:
    if how == "same":
        return path
    if how == "dotted":
        return tmp_path / "." / path.name
    alias = tmp_path / f"{how}.conll"
    os.link(path, alias) if how == "hardlink" else alias.symlink_to(path)
    return alias


@pytest.mark.parametrize("how", ["same", "dotted", "hardlink", "symlink"])
@pytest.mark.parametrize("command, option", [("agreement", "-o"), ("agreement", "--output"), ("report", "-o"),
                                             ("leaderboard", "--output"), ("leaderboard", "--plot")])
def test_an_output_that_is_an_input_is_refused_before_anything_is_read(tmp_path, command, option, how):
    path = _conll(tmp_path)
    target = _alias(tmp_path, path, how)
    missing = tmp_path / "never_read.conll"  # reading it would be another error: nothing was read
    line = one_error(cli(command, f"{path}:1", missing, option, target), status=2)
    assert f"{option if option.startswith('--') else '--output'} {target} is the input" in line
    assert path.read_text(encoding="utf-8") == CONLL


def test_a_brat_text_file_and_two_outputs_alike_are_refused(tmp_path):
    (tmp_path / "doc.txt").write_text("Ada met Bob\n", encoding="utf-8")
    (tmp_path / "doc.ann").write_text("T1\tPER 0 3\tAda\n", encoding="utf-8")
    line = one_error(cli("report", tmp_path / "doc.ann", tmp_path / "doc.ann", "-o", tmp_path / "doc.txt"), status=2)
    assert "doc.txt is the input" in line and (tmp_path / "doc.txt").read_text() == "Ada met Bob\n"
    path = _conll(tmp_path)
    line = one_error(cli("leaderboard", path, path, "--output", tmp_path / "x.md", "--plot", tmp_path / "x.md"), status=2)
    assert "--output and --plot are the same file" in line and not (tmp_path / "x.md").exists()


def test_hub_export_refuses_to_write_over_the_module_folders_it_copies(tmp_path):
    repo = Path(__file__).resolve().parent.parent
    clone = tmp_path / "clone"
    for folder in ("chance_f1_metric", "hub_cards"):
        shutil.copytree(repo / folder, clone / folder)
    wheel = tmp_path / "chance_agreement-0.1-py3-none-any.whl"
    wheel.write_bytes(b"")
    script = clone / "chance_f1_metric" / "chance_f1_metric.py"
    before = script.read_bytes()
    line = one_error(cli("hub-export", clone, "--source", clone, "--metric", "chance_f1", "--force", "--wheel", wheel),
                     status=2)
    assert "chance_f1_metric is the input" in line
    assert script.read_bytes() == before and not (clone / "chance_f1_metric" / wheel.name).exists()
