"""Issue 38 item 2: every output is written whole or not at all (``ecosystem.output_files``).

Command lines run in a real subprocess under a file-size limit (``RLIMIT_FSIZE``, as a full disk
would stop them): the previous report, figure, model card or Space stays as it was, no partial or
temporary file is left, and the one error line names the path written."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from chance_agreement.ecosystem.output_files import write_file
from test_command_line_errors import failed

resource = pytest.importorskip("resource")  # POSIX: the file-size limit
REPO = Path(__file__).resolve().parent.parent
TEAM = REPO / "tests" / "data" / "formats" / "team.conll"
OLD = "the previous report\n"


def limited_cli(limit: int, *args) -> subprocess.CompletedProcess:
    """The command line in a subprocess that may write files of at most ``limit`` bytes."""

    def apply():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run([sys.executable, "-m", "chance_agreement", *map(str, args)], capture_output=True, text=True,
                          preexec_fn=apply)


def folder_state(folder: Path) -> dict:
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in sorted(folder.rglob("*"))
            if path.is_file()}


@pytest.mark.parametrize("command, name", [("agreement", "report.txt"), ("agreement", "report.json"),
                                           ("report", "report.html")])
def test_a_report_cut_short_leaves_the_previous_one(tmp_path, command, name):
    """The previous report was truncated (or a 0-byte file left) when the disk filled up."""
    output = tmp_path / name
    output.write_text(OLD, encoding="utf-8")
    extra = ["--format", "json"] if name.endswith(".json") else []
    line = failed(limited_cli(1000, command, TEAM, *extra, "-o", output), 1)
    assert f"{output}: cannot write (File too large)" in line
    assert folder_state(tmp_path) == {name: OLD.encode()}
    done = limited_cli(10**8, command, TEAM, *extra, "-o", output)
    assert done.returncode == 0, done.stderr
    assert output.read_text(encoding="utf-8") != OLD and folder_state(tmp_path).keys() == {name}


def test_model_cards_cut_short_leave_the_previous_ones(tmp_path):
    gold, system = tmp_path / "gold.conll", tmp_path / "system.conll"
    gold.write_text("Ada B-PER\nmet O\nBob B-PER\n\n", encoding="utf-8")
    system.write_text("Ada B-PER B-PER\nmet O O\nBob B-PER O\n\n", encoding="utf-8")
    cards = tmp_path / "cards"
    done = limited_cli(10**8, "leaderboard", gold, system, "--model-cards", cards, "--dataset", "conll2003")
    assert done.returncode == 0, done.stderr
    before = folder_state(cards)
    line = failed(limited_cli(1000, "leaderboard", gold, system, "--model-cards", cards, "--dataset", "conll2003",
                              "--force"), 1)
    assert "cannot write (File too large)" in line and str(cards / "system") in line
    assert folder_state(cards) == before


def test_hub_export_force_builds_the_new_space_before_removing_the_old(tmp_path):
    """``--force`` deleted the Space's files, then left a truncated wheel when the copy failed."""
    clone = tmp_path / "clone"
    for folder in ("chance_f1_metric", "hub_cards"):
        shutil.copytree(REPO / folder, clone / folder)
    small = tmp_path / "chance_agreement-0.1-py3-none-any.whl"
    small.write_bytes(b"PK" + bytes(10_000))
    spaces = tmp_path / "spaces"
    done = limited_cli(10**8, "hub-export", spaces, "--source", clone, "--metric", "chance_f1", "--wheel", small)
    assert done.returncode == 0, done.stderr
    before = folder_state(spaces)
    big = tmp_path / "chance_agreement-0.2-py3-none-any.whl"
    big.write_bytes(b"PK" + bytes(300_000))
    line = failed(limited_cli(200_000, "hub-export", spaces, "--source", clone, "--metric", "chance_f1", "--force",
                              "--wheel", big), 1)
    assert f"{spaces / 'chance_f1_metric'}: cannot write the Space (File too large)" in line
    assert folder_state(spaces) == before and [p.name for p in spaces.iterdir()] == ["chance_f1_metric"]
    done = limited_cli(10**8, "hub-export", spaces, "--source", clone, "--metric", "chance_f1", "--force",
                       "--wheel", big)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in (spaces / "chance_f1_metric").glob("*.whl")) == [big.name]


def test_write_file_into_a_missing_folder_names_the_path(tmp_path):
    target = tmp_path / "missing" / "report.md"
    with pytest.raises(OSError) as caught:
        write_file(target, "text")
    assert caught.value.filename == str(target) and "cannot write" in str(caught.value)

    def savefig_fails(temporary: Path) -> None:
        temporary.write_bytes(b"half a figure")
        raise RuntimeError("savefig failed")

    with pytest.raises(RuntimeError, match="savefig failed"):
        write_file(tmp_path / "figure.png", savefig_fails)
    assert list(tmp_path.iterdir()) == []


def test_the_json_report_is_complete_after_a_rewrite(tmp_path):
    output = tmp_path / "report.json"
    for _ in range(2):
        done = limited_cli(10**8, "agreement", TEAM, "--format", "json", "-o", output)
        assert done.returncode == 0, done.stderr
    assert json.loads(output.read_text(encoding="utf-8"))["annotators"]
