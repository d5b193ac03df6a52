"""Every command-line failure is one line on standard error, through a real subprocess: the file
and 1-based line where there is one, exit status 2 for a wrong command line and 1 for bad data,
never a Python traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from chance_agreement.spans.conll import write_conll

TOKENS = [["John", "lives", "in", "New", "York"], ["Acme", "hired", "Mary"]]
GOLD = [["B-PER", "O", "O", "B-LOC", "I-LOC"], ["B-ORG", "O", "B-PER"]]
SYSTEM = [["B-PER", "O", "O", "B-LOC", "O"], ["B-ORG", "O", "O"]]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def run(*args, cwd=None, stdin=None) -> subprocess.CompletedProcess:
    """The command in a subprocess; ``stdin`` bytes go to its standard input."""
    done = subprocess.run([sys.executable, "-m", "chance_agreement.reports.cli", *map(str, args)],
                          capture_output=True, cwd=cwd, input=stdin if stdin is not None else b"")
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode(), done.stderr.decode())


def failed(result: subprocess.CompletedProcess, status: int) -> str:
    """The single error line of a run that exited with ``status``."""
    assert result.returncode == status, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "error: " in lines[0]
    return lines[0]


@pytest.fixture
def files(tmp_path) -> dict:
    gold, system = tmp_path / "gold.conll", tmp_path / "system.conll"
    with gold.open("w") as handle:
        write_conll(handle, TOKENS, GOLD, GOLD)
    with system.open("w") as handle:
        write_conll(handle, TOKENS, GOLD, SYSTEM)
    return {"gold": gold, "system": system, "dir": tmp_path}


def test_version():
    from importlib.metadata import version

    result = run("--version")
    assert result.returncode == 0 and result.stdout.strip() == f"chance-agreement {version('chance-agreement')}"


@pytest.mark.parametrize("args, message", [
    ((), "the following arguments are required: COMMAND"),
    (("f1",), "the following arguments are required: file"),
    (("f1", "x.conll", "--level", "word"), "invalid choice: 'word'"),
    (("agreement", "x.conll", "--confidence-level", "2"), "2 is not strictly between 0 and 1"),
    (("nonsense",), "invalid choice: 'nonsense'"),
])
def test_usage_errors_exit_2_in_one_line(args, message):
    assert message in failed(run(*args), 2)


def test_one_annotator_is_a_usage_error(files):
    single = files["dir"] / "single.conll"
    single.write_text("John B-PER\nsaw O\n")
    assert "give two or more annotators" in failed(run("agreement", single), 2)
    assert "give two or more annotators" in failed(run("agreement", f"{files['gold']}:1"), 2)
    assert "3 names for 2 annotators" in failed(run("agreement", files["gold"], "--names", "a,b,c"), 2)


def test_missing_file_and_folder_as_file(files):
    missing = files["dir"] / "missing.conll"
    assert failed(run("f1", missing), 1).endswith(f"{missing}: no such file")
    assert failed(run("f1", files["dir"]), 1).endswith(f"{files['dir']}: is a folder, not a file")
    assert f"{missing}: no such file" in failed(run("leaderboard", files["gold"], missing), 1)
    assert f"{missing}: no such file" in failed(run("agreement", files["gold"], missing), 1)


def test_output_in_a_missing_folder_or_onto_a_folder(files):
    out = files["dir"] / "no" / "board.md"
    line = failed(run("leaderboard", files["gold"], files["system"], "--output", out), 1)
    assert f"{out}: cannot write: the folder" in line
    line = failed(run("agreement", files["gold"], files["system"], "-o", files["dir"]), 1)
    assert f"{files['dir']}: is a folder" in line
    line = failed(run("figure1", "-o", files["dir"] / "no" / "fig.png"), 1)
    assert "cannot write" in line
    assert not (files["dir"] / "no").exists()


def test_closed_pipe_is_quiet(files):
    """``| head -1``: the reader goes away before the command writes."""
    read_end, write_end = os.pipe()
    process = subprocess.Popen([sys.executable, "-m", "chance_agreement.reports.cli", "agreement",
                                str(files["gold"]), str(files["system"])],
                               stdout=write_end, stderr=subprocess.PIPE, text=True)
    os.close(write_end)
    os.close(read_end)
    _, err = process.communicate(timeout=120)
    assert err == "" and process.returncode == 0
    shell = subprocess.run(f'"{sys.executable}" -m chance_agreement.reports.cli demo | head -1',
                           shell=True, capture_output=True, text=True)
    assert shell.stdout.count("\n") == 1 and shell.stderr == ""


def test_non_utf8_byte_names_the_line(files):
    latin = files["dir"] / "latin1.conll"
    latin.write_bytes("a O O\n\nM\u00fcller B-PER B-PER\n".encode("latin-1"))
    line = failed(run("f1", latin), 1)
    assert f"{latin}: line 3: byte 0xfc at column 2 is not UTF-8" in line
    line = failed(run("f1", "-"), 1)  # empty standard input
    assert "<stdin>: empty input" in line
    line = failed(run("f1", "-", stdin="a O O\nb O O\n\xe9t\u00e9 O O\n".encode("latin-1")), 1)
    assert "<stdin>: line 3: byte 0xe9 at column 1 is not UTF-8" in line


def test_warnings_are_one_line_each(tmp_path):
    no_entities = tmp_path / "plain.conll"
    no_entities.write_text("a O O\nb O O\n")
    result = run("f1", no_entities)  # 0/0 is shown as undefined with its reason (issue 35), not warned about
    assert result.returncode == 0 and "note: overall: corrected F1 is undefined: no entity on either side" in result.stdout
    odd = tmp_path / "odd.conll"
    odd.write_text("a NNP B-PER\nb NN O\n")
    result = run("f1", odd)
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 0 and lines and all(line.startswith("chance-agreement: warning: ") for line in lines)
    assert any("'NNP'" in line and "is neither 'O' nor" in line for line in lines)


def test_invalid_tag_in_a_leaderboard_system_file_names_file_and_line(files):
    bad = files["dir"] / "bad.conll"
    lines = files["system"].read_text().splitlines()
    lines[8] = "Mary B-PER PER-B"
    bad.write_text("\n".join(lines) + "\n")
    # seqeval's default mode chunks 'PER-B' (with a warning, as seqeval does); strict IOB2 refuses it
    line = failed(run("leaderboard", files["gold"], files["system"], bad, "--mode", "strict", "--scheme", "IOB2"), 1)
    assert f"{bad}: line 9: column 2: tag 'PER-B': invalid tag" in line


def test_misaligned_annotators_name_both_files_and_lines(files):
    other = files["dir"] / "other.conll"
    lines = files["system"].read_text().splitlines()
    lines[4] = "Yorkshire B-LOC O"
    other.write_text("\n".join(lines) + "\n")
    line = failed(run("agreement", files["gold"], other), 1)
    assert f"{files['gold']} line 5 has 'York', {other} line 5 has 'Yorkshire'" in line
    short = files["dir"] / "short.conll"
    short.write_text("\n".join(files["system"].read_text().splitlines()[:6]) + "\n")
    line = failed(run("agreement", files["gold"], short), 1)
    assert f"{short} has only 1 sentences" in line and f"{files['gold']} line 7 has 'Acme'" in line


@pytest.mark.parametrize("name", ["fig", "fig.v2"])
def test_output_without_extension_is_written_exactly(files, name):
    target = files["dir"] / name
    result = run("figure1", "-o", target, "--n", "20", "--lengths", "2", "3")
    assert result.returncode == 0, result.stderr
    assert target.read_bytes()[:8] == PNG_MAGIC
    assert not Path(f"{target}.png").exists()


def test_invalid_tag_of_an_annotator_names_file_and_line(files):
    bad = files["dir"] / "annotator.conll"
    bad.write_text("John B-PER\nlives O\nin O\nNew B-LOC\nYork I-LOC\n\nAcme B-ORG\nhired O\nMary PER\n")
    line = failed(run("agreement", files["gold"], bad, "--mode", "strict", "--scheme", "IOB2"), 1)
    assert f"{bad}: line 9: column 1: tag 'PER': invalid tag" in line
    odd = run("agreement", files["gold"], bad)  # the default mode takes it as seqeval does, with one warning
    assert odd.returncode == 0 and odd.stderr.count("warning: tag 'PER'") == 1
