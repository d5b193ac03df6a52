"""Every ``chance-agreement`` command in the bash blocks of the README and the docs pages runs as
written from a clone: the
files they name ship in ``examples/`` (CoNLL, CoNLL-2003, JSONL, brat), and each command exits 0
and prints or writes something."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO
from docs_pages import page, pages, section

# the section on annotation tools' exports runs its commands on tests/data/formats from the repository
# root: tests/test_docs_formats.py runs those, and checks their numbers against the CoNLL file
TOOL_EXPORTS = "## Annotation tools' exports"


def documented_commands() -> list[str]:
    """The ``chance-agreement`` command lines of the bash blocks (continuations joined) of the README
    and every docs page, outside the tool-exports section."""
    files = page("howto/annotation-files.md")
    texts = [(REPO / "README.md").read_text(encoding="utf-8"),
             *(text for name, text in pages().items() if name != "howto/annotation-files.md"),
             files.replace(section(files, TOOL_EXPORTS), "")]
    text = "\n".join(texts)
    commands = []
    for block in re.findall(r"```bash\n(.*?)```", text, flags=re.S):
        for line in block.replace("\\\n", " ").splitlines():
            if line.startswith("chance-agreement "):
                commands.append(line)
    return commands


COMMANDS = documented_commands()


def test_the_docs_have_commands_and_their_files_are_in_examples():
    assert len(COMMANDS) >= 15
    named = {word.split(":")[0] for command in COMMANDS for word in command.split() if "/" in word and "." in word}
    named = {path for path in named if not path.startswith(("http", "-"))}
    assert named and all(path.startswith("examples/") for path in named), named
    for path in named:
        matches = list(REPO.glob(path))
        assert matches, f"{path} is not in the clone"


@pytest.mark.parametrize("command", COMMANDS)
def test_documented_command_runs_as_written(command, tmp_path):
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    executable = Path(sys.executable).with_name("chance-agreement")
    assert executable.is_file(), "the test venv has no chance-agreement script (pip install -e .)"
    env = {**os.environ, "PATH": f"{executable.parent}{os.pathsep}{os.environ.get('PATH', '')}", "MPLBACKEND": "Agg"}
    done = subprocess.run(["bash", "-c", f"set -o pipefail; {command}"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{command}\n{done.stderr}"
    written = [path for path in tmp_path.rglob("*") if path.is_file() and "examples" not in path.parts]
    assert done.stdout.strip() or written, f"{command}: printed and wrote nothing"
    for path in written:
        assert path.stat().st_size > 0, path
    assert "Traceback" not in done.stderr
