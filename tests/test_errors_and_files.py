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
from test_command_line_errors import failed

DATA = Path(__file__).resolve().parent / "data"
TEXT = "Ada met Bob in Rome ."


def cli(*args, cwd=None, module="chance_agreement.reports.cli") -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", module, *map(str, args)], capture_output=True, cwd=cwd, input=b"")
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode(), done.stderr.decode())


def one_error(result: subprocess.CompletedProcess, status: int = 1) -> str:
    """The single error line of a run that exited with ``status`` (no traceback, nothing else)."""
    return failed(result, status)


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


@pytest.mark.parametrize("command", ["agreement", "report"])
def test_the_type_system_beside_an_xmi_input_is_an_input(tmp_path, command):
    """``-o`` onto the TypeSystem.xml the XMI reader picks up beside its input overwrote it."""
    shutil.copytree(DATA / "formats" / "xmi", tmp_path / "xmi")
    types = tmp_path / "xmi" / "TypeSystem.xml"
    before = types.read_bytes()
    line = one_error(cli(command, tmp_path / "xmi" / "alice.xmi", tmp_path / "xmi" / "bob.xmi", "-o", types), status=2)
    assert f"--output {types} is the input {types}" in line and types.read_bytes() == before


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


# -- 4: clear errors ----------------------------------------------------------------------------

def test_non_utf8_jsonl_and_brat_files_name_file_and_line(tmp_path):
    good = jsonl(tmp_path / "good.jsonl", {"text": "Ada met Bob"}, {"text": "in Rome ."})
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b'{"text": "Ada met Bob"}\n{"text": "in R\xf6me ."}\n')
    assert "bad.jsonl: line 2: byte 0xf6 at column 15 is not UTF-8" in one_error(cli("spans", good, bad))
    (tmp_path / "doc.txt").write_bytes(b"Ada met Bob\nin R\xf6me .\n")
    (tmp_path / "doc.ann").write_text("T1\tPER 0 3\tAda\n", encoding="utf-8")
    assert "doc.txt: line 2: byte 0xf6 at column 5 is not UTF-8" in one_error(cli("spans", good, tmp_path / "doc.ann"))
    (tmp_path / "doc.txt").write_text("Ada met Bob\nin Rome .\n", encoding="utf-8")
    (tmp_path / "doc.ann").write_bytes(b"T1\tPER 0 3\tAda\nT2\tLOC 15 19\tR\xf6me\n")
    assert "doc.ann: line 2: byte 0xf6" in one_error(cli("spans", good, tmp_path / "doc.ann"))


def test_a_non_utf8_cas_json_file_names_its_line(tmp_path):
    data = (DATA / "formats" / "cas" / "alice.json").read_bytes()
    at = data.index(b"Ada")
    bad = tmp_path / "alice.json"
    bad.write_bytes(data[:at] + b"\xe9" + data[at + 1:])
    number = data.count(b"\n", 0, at) + 1
    line = one_error(cli("spans", bad, DATA / "formats" / "cas" / "bob.json"))
    assert f"alice.json: line {number}: byte 0xe9" in line


@pytest.mark.parametrize("offsets", ["0 \u00b3", "\u0660 3", "0 \u0663", "\uff10 3"])
def test_brat_offsets_in_other_digits_are_refused_naming_file_and_line(tmp_path, offsets):
    (tmp_path / "doc.txt").write_text("Ada met Bob\n", encoding="utf-8")
    ann = tmp_path / "doc.ann"
    ann.write_text(f"T1\tPER 8 11\tBob\nT2\tPER {offsets}\tAda\n", encoding="utf-8")
    line = one_error(cli("spans", ann, ann))
    assert f"doc.ann line 2: offsets {offsets!r} are not 'START END'" in line


def test_crossing_spans_of_paired_files_name_the_file_and_line(tmp_path):
    from chance_agreement import pair_annotations, read_jsonl

    crossing = jsonl(tmp_path / "a.jsonl", {"text": "Ada met Bob"},
                     {"text": TEXT, "spans": [[0, 7, "PER"], [4, 11, "LOC"]]})
    plain = jsonl(tmp_path / "b.jsonl", {"text": "Ada met Bob"}, {"text": TEXT})
    with pytest.raises(ValueError, match=r"a.jsonl line 2: spans \(0, 2, 'PER'\) and \(1, 3, 'LOC'\) cross"):
        nested_chance_f1(*pair_annotations(read_jsonl(crossing), read_jsonl(plain)))


@pytest.mark.parametrize("args, option", [
    (("f1", "{missing}", "--digits", "-1"), "--digits: -1 is not a whole number >= 0"),
    (("f1", "{missing}", "--digits", "\u0663"), "--digits: '\u0663' is not a whole number"),
    (("f1", "{missing}", "--n-resamples", "0"), "--n-resamples: 0 is not a whole number >= 1"),
    (("f1", "{missing}", "--random-state", "-2"), "--random-state: -2 is not a whole number >= 0"),
    (("spans", "{missing}", "{missing}", "--digits", "-1"), "--digits: -1 is not a whole number >= 0"),
    (("agreement", "{missing}", "--digits", "-3"), "--digits: -3 is not a whole number >= 0"),
    (("leaderboard", "{missing}", "{missing}", "--digits", "-1"), "--digits: -1 is not a whole number >= 0"),
    (("leaderboard", "{missing}", "{missing}", "--split", "nan"), "--split: nan is not between 0 and 1"),
    (("leaderboard", "{missing}", "{missing}", "--n-resamples", "-5"), "--n-resamples: -5 is not a whole number >= 1"),
    (("report", "{missing}", "-o", "r.html", "--n-resamples", "0"), "--n-resamples: 0 is not a whole number >= 1"),
    (("report", "{missing}", "-o", "r.html", "--confidence-level", "1.5"), "--confidence-level: 1.5 is not strictly"),
    (("report", "{missing}", "-o", "r.html", "--random-state", "-1"), "--random-state: -1 is not a whole number >= 0"),
    (("figure1", "-o", "f.png", "--n", "0"), "--n: 0 is not a whole number >= 1"),
    (("figure1", "-o", "f.png", "--lengths", "5", "-1"), "--lengths: -1 is not a whole number >= 1"),
])
def test_invalid_numeric_options_are_usage_errors_before_any_file_is_read(tmp_path, args, option):
    missing = tmp_path / "never_read.conll"
    line = one_error(cli(*(arg.format(missing=missing) for arg in args), cwd=tmp_path), status=2)
    assert f"argument {option}" in line


def test_report_checks_a_missing_output_folder_before_reading(tmp_path):
    line = one_error(cli("report", tmp_path / "never_read.conll", "-o", tmp_path / "missing" / "dir" / "x.html"))
    assert "the folder" in line and "does not exist" in line and "never_read" not in line


def test_python_dash_m_runs_the_command_line(tmp_path):
    path = _conll(tmp_path)
    done = cli("f1", path, module="chance_agreement")
    assert done.returncode == 0 and "overall" in done.stdout and done.stderr == ""
    assert "--digits: -1" in one_error(cli("f1", path, "--digits", "-1", module="chance_agreement"), status=2)
    old = cli("f1", path, module="chance_agreement.cli")  # the module path from before the layers: gone
    assert old.returncode == 1 and "Traceback" not in old.stderr
    assert old.stderr.strip().splitlines() == [f"{sys.executable}: No module named chance_agreement.cli"]


def test_ragged_columns_get_the_column_readers_error_with_the_line(tmp_path):
    path = tmp_path / "ragged.conll"
    path.write_text("Ada B-PER B-PER\nmet O O\n\nBob B-PER\n", encoding="utf-8")
    line = one_error(cli("agreement", path))
    assert "ragged.conll: line 4: expected 3 columns like the first line, found 2" in line
    prose = tmp_path / "prose.txt"
    prose.write_text("just some prose here\nand more\n", encoding="utf-8")
    assert "no reader takes this file: it looks like text" in one_error(cli("agreement", prose))


def test_model_cards_refusals_come_before_anything_is_written(tmp_path):
    gold = _conll(tmp_path)
    system = tmp_path / "system.conll"
    system.write_text(CONLL, encoding="utf-8")
    cards = tmp_path / "cards"
    results = cards / "system" / ".eval_results" / "chance_f1_conll2003_token.yaml"
    results.parent.mkdir(parents=True)
    results.write_text("kept\n", encoding="utf-8")
    table = tmp_path / "table.md"
    line = one_error(cli("leaderboard", f"{gold}:1", system, "--model-cards", cards, "--dataset", "conll2003",
                         "--output", table))
    assert "chance_f1_conll2003_token.yaml exists" in line
    assert not (cards / "system" / "README.md").exists() and not table.exists()
    assert results.read_text(encoding="utf-8") == "kept\n"


def test_model_cards_need_the_dataset_named(tmp_path):
    """Cards filed scores under CoNLL-2003 / test unless told otherwise; now --dataset is required."""
    gold = _conll(tmp_path)
    system = tmp_path / "system.conll"
    system.write_text(CONLL, encoding="utf-8")
    cards = tmp_path / "cards"
    line = one_error(cli("leaderboard", f"{gold}:1", system, "--model-cards", cards), status=2)
    assert "--model-cards needs --dataset ID" in line and not cards.exists()
    done = cli("leaderboard", f"{gold}:1", system, "--model-cards", cards, "--dataset", "wnut_17")
    assert done.returncode == 0, done.stderr
    card = (cards / "system" / "README.md").read_text(encoding="utf-8")
    assert "name: wnut_17" in card and "CoNLL" not in card


# -- 4: API arguments of the wrong type or depth: a ValueError naming the argument ----------------

def _api_cases():
    from chance_agreement.chance.random_model import sample_annotation
    from chance_agreement.noise.noise_model import hard_agreement_probability
    from chance_agreement.reliability.unitizing import unitizing_alpha_from_units

    two = [[(0, 2)], [(0, 2)]]
    return [
        (unitizing_alpha_from_units, (10, [(0, 2), (0, 2)]), {}, r"annotator 0, unit 0: expected \(start, end\)"),
        (unitizing_alpha_from_units, (10, [[0, 2], [0, 2]]), {}, "units_per_annotator is a list over annotators"),
        (unitizing_alpha_from_units, (10, two), {"gap_breaks": None}, "gap_breaks must be a list of integer positions"),
        (unitizing_alpha_from_units, (10, two), {"gap_breaks": 5}, "gap_breaks must be a list of integer positions"),
        (hard_agreement_probability, ({"a": ["PER", "O"]},), {}, "labels_on_disagreed must be a sequence of items"),
        (hard_agreement_probability, (["PO", "OP"],), {}, "labels_on_disagreed must be a sequence of items"),
        (hard_agreement_probability, ([[["PER"], ["O"]], [["O"], ["PER"]]],), {},
         r"item 0: annotator 0's label \['PER'\] is not a single label"),
        (sample_annotation, (10, None), {}, "lengths must be a list of segment lengths"),
        (sample_annotation, (10, 2), {}, "lengths must be a list of segment lengths"),
        (sample_annotation, (10, "ab"), {}, "lengths must be a list of segment lengths"),
        (sample_annotation, (10, [2]), {"random_state": "seed"}, "random_state must be None, a seed"),
        (sample_annotation, (10, [2]), {"random_state": -1}, "random_state must be None, a seed"),
    ]


@pytest.mark.parametrize("case", range(12))
def test_api_arguments_of_the_wrong_kind_name_the_argument(case):
    function, args, kwargs, message = _api_cases()[case]
    with pytest.raises(ValueError, match=message):
        function(*args, **kwargs)
