"""The chance-agreement command line: f1 on CoNLL column files, the demo, errors."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from chance_agreement import chance_f1
from chance_agreement.reports.cli import build_parser, main
from chance_agreement.reports.commands.demo import demo_rows
from chance_agreement.spans.conll import read_conll, write_conll
from chance_agreement.reports.paper_examples import SIMULATIONS

TOKENS = [["John", "lives", "in", "New", "York"], ["Acme", "hired", "Mary"]]
REFERENCES = [["B-PER", "O", "O", "B-LOC", "I-LOC"], ["B-ORG", "O", "B-PER"]]
PREDICTIONS = [["B-PER", "O", "O", "B-LOC", "O"], ["B-ORG", "O", "O"]]


@pytest.fixture
def conll_file(tmp_path) -> Path:
    path = tmp_path / "system.conll"
    with path.open("w") as handle:
        handle.write("-DOCSTART- O O\n\n")
        write_conll(handle, TOKENS, REFERENCES, PREDICTIONS)
    return path


def test_reads_back_what_it_writes(conll_file):
    tokens, references, (predictions,) = read_conll(conll_file)
    assert (tokens, references, predictions) == (TOKENS, REFERENCES, PREDICTIONS)


def test_f1_json_equals_the_api(conll_file, capsys):
    assert main(["f1", str(conll_file), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == chance_f1(PREDICTIONS, REFERENCES)


def test_f1_table_has_the_chance_columns(conll_file, capsys):
    assert main(["f1", str(conll_file), "--level", "entity", "--digits", "3"]) == 0
    out = capsys.readouterr().out
    assert "observed" in out and "chance" in out and "corrected" in out
    expected = chance_f1(PREDICTIONS, REFERENCES, level="entity")
    overall = next(line for line in out.splitlines() if line.strip().startswith("overall"))
    assert f"{expected['overall_corrected_f1']:.3f}" in overall
    assert f"{expected['overall_f1']:.3f}" in overall


def test_f1_reads_standard_input(conll_file, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(conll_file.read_text()))
    assert main(["f1", "-", "--json", "--model", "overlapping"]) == 0
    assert json.loads(capsys.readouterr().out) == chance_f1(PREDICTIONS, REFERENCES, model="overlapping")


def test_bad_files_give_an_error_naming_the_problem(tmp_path, capsys):
    ragged = tmp_path / "ragged.conll"
    ragged.write_text("a O O\nb O\n")
    assert main(["f1", str(ragged)]) == 1
    assert f"{ragged}: line 2: expected 3 columns" in capsys.readouterr().err
    invalid = tmp_path / "invalid.conll"
    invalid.write_text("a O O\n\nb O X-PER\n")
    assert main(["f1", "--mode", "strict", "--scheme", "IOB2", str(invalid)]) == 1  # seqeval's default mode takes X-PER
    assert f"{invalid}: line 3: column 2: tag 'X-PER': invalid tag: prefix 'X' is not one of the IOB2 prefixes" in capsys.readouterr().err
    empty = tmp_path / "empty.conll"
    empty.write_text("\n\n")
    assert main(["f1", str(empty)]) == 1
    assert "empty input" in capsys.readouterr().err


def test_f1_refuses_a_file_without_a_prediction_column(tmp_path, capsys):
    """Issue 10 item 2: two columns used to score the reference against itself (1.0 everywhere)."""
    two = tmp_path / "two.conll"
    two.write_text("John B-PER\nsaw O\n")
    assert main(["f1", str(two)]) == 1
    err = capsys.readouterr().err
    assert f"{two}: the prediction column -1 is the reference column 1" in err
    assert main(["f1", str(two), "--prediction-column", "0", "--json", "--mode", "strict", "--scheme", "IOB2"]) == 1
    assert f"{two}: line 1: column 0: tag 'John': invalid tag" in capsys.readouterr().err  # tokens as tags


def test_demo_prints_our_values_beside_the_papers():
    rows = demo_rows()
    assert [name for name, _, _ in rows] == [s.name for s in SIMULATIONS]
    for _, ours, paper in rows:
        assert all(abs(o - p) < 1e-4 for o, p in zip(ours, paper))
    script = Path(sys.executable).with_name("chance-agreement")
    out = subprocess.run([str(script), "demo"], capture_output=True, text=True, check=True).stdout
    assert "Sim1 B" in out and "0.3544 |0.3544" in out and "0.6809 |0.6808" in out


# --- issue 35 item 11: the same -o and -q on every command that prints a result ------------------

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
RESULT_COMMANDS = {
    "agreement": [EXAMPLES / "team.tsv"],
    "leaderboard": [EXAMPLES / "gold.conll", EXAMPLES / "sysA.conll", EXAMPLES / "sysB.conll"],
    "f1": [EXAMPLES / "predictions.conll"],
    "spans": [EXAMPLES / "annotator_a.jsonl", EXAMPLES / "brat" / "doc.ann"],
    "annotator-test": [EXAMPLES / "anna.conll", EXAMPLES / "ben.conll", "--candidate", EXAMPLES / "carl.conll",
                       "--margin", "0.1", "--n-resamples", "20"],
    "demo": [],
}


@pytest.mark.parametrize("command", sorted(RESULT_COMMANDS))
def test_every_command_writes_its_result_with_dash_o_and_takes_dash_q(command, tmp_path, capsys):
    arguments = [command, *map(str, RESULT_COMMANDS[command])]
    assert main(arguments) == 0
    printed = capsys.readouterr().out
    written = tmp_path / "result.txt"
    assert main([*arguments, "-o", str(written), "-q"]) == 0
    assert capsys.readouterr().out == "" and written.read_text(encoding="utf-8") == printed
    # the output may not be one of the inputs
    if RESULT_COMMANDS[command]:
        assert main([*arguments, "-o", str(RESULT_COMMANDS[command][0])]) == 2


def test_every_registered_command_takes_the_common_options_from_one_place():
    """-o and -q on every command (figure1, hub-export and demo too), added by add_common_options:
    the same flags, the same dest, the same help wording."""
    from chance_agreement.reports.commands import commands

    parser = build_parser()
    subparsers = next(action for action in parser._actions if action.dest == "command").choices
    for command in commands():
        options = {flag: action for action in subparsers[command.name]._actions for flag in action.option_strings}
        assert options["-o"] is options["--output"] and options["-o"].dest == "output", command.name
        assert options["-q"] is options["--quiet"] and options["-q"].dest == "quiet", command.name
        assert options["-o"].help.startswith(f"write {command.output} to "), command.name


def test_report_takes_dash_q(tmp_path, capsys):
    page = tmp_path / "report.html"
    assert main(["report", str(EXAMPLES / "team.tsv"), "-o", str(page), "-q"]) == 0
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
