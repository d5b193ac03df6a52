"""The docs section on annotation tools' exports (docs/howto/annotation-files.md): each tool's one
command runs as written from the repository root on the shipped example files, and gives the same
numbers as the CoNLL file."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO
from docs_pages import page, section

HEADING = "## Annotation tools' exports"


def commands() -> list[str]:
    block = re.search(r"```bash\n(.*?)```", section(page("howto/annotation-files.md"), HEADING), re.DOTALL).group(1)
    return [line.split("  #")[0].strip() for line in block.splitlines() if line.strip()]


def run_shell(command: str) -> subprocess.CompletedProcess:
    """The command through a shell (globs expand) with this interpreter's ``chance-agreement`` first on PATH."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run(command, shell=True, cwd=REPO, capture_output=True, text=True, env=env)


NUMBER_ROWS = ("DATE", "LOC", "ORG", "PER", "overall", "fleiss_kappa", "krippendorff_alpha", "observed_agreement",
               "expected_agreement", "noise_bound", "p", "kappa")


def numbers(text: str) -> list[str]:
    """The report's rows of numbers that do not name annotators (types, coefficients, noise)."""
    return [line.split() for line in text.splitlines() if line.split() and line.split()[0] in NUMBER_ROWS]


def test_every_tool_has_its_command():
    found = " ".join(commands())
    for path in ("label_studio.json", "label_studio_min.json", "doccano/", "prodigy.jsonl", ".xmi", "cas/", ".tsv",
                 "brat/", ".conllu"):
        assert path in found, path


@pytest.mark.parametrize("command", commands())
def test_the_command_runs_as_written_and_matches_conll(command):
    assert command.startswith("chance-agreement agreement ")
    done = run_shell(command)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("3 annotators: ") and "2 sentences, 18 tokens" in done.stdout
    conll = run_shell("chance-agreement agreement tests/data/formats/team.conll")
    assert len(numbers(done.stdout)) > 20 and numbers(done.stdout) == numbers(conll.stdout)
