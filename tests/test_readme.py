"""README.md is an overview: at most 250 lines, the two commands first, one `evaluate` example whose
numbers are what the code gives, one command whose output is what it prints, and links to docs
pages that exist. The reference text lives in docs/ (tests/docs_pages.py reads it)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from conftest import REPO

README = (REPO / "README.md").read_text(encoding="utf-8")


def test_the_readme_is_an_overview_of_at_most_250_lines():
    assert len(README.splitlines()) <= 250


def test_readme_starts_with_the_two_commands():
    blocks = re.findall(r"```bash\n(.*?)```", README, flags=re.S)
    assert blocks[0].strip().endswith("chance-agreement demo")
    assert "pytest" in blocks[1]
    assert blocks[1].strip() == (REPO / ".ci" / "run").read_text().strip().splitlines()[-1]


def test_the_evaluate_example_gives_the_numbers_in_its_comments():
    """Each ``expression  # (a, b)`` line of the Python example: the values, rounded to the digits shown."""
    (block,) = re.findall(r"```python\n(.*?)```", README, flags=re.S)
    namespace: dict = {}
    checked = 0
    for line in block.splitlines():
        code, _, comment = line.partition("  #")
        shown = re.fullmatch(r"\s*\((.*)\)\s*", comment)
        if shown and code.strip():
            values = eval(code, namespace)
            printed = [cell.strip() for cell in shown.group(1).split(",")]
            assert [f"{value:.{len(cell.split('.')[1])}f}" for value, cell in zip(values, printed)] == printed, line
            checked += 1
        else:
            exec(line, namespace)
    assert checked == 2


def test_the_command_prints_what_the_readme_shows():
    (command,) = [block.strip() for block in re.findall(r"```bash\n(.*?)```", README, flags=re.S)[2:]]
    shown = re.findall(r"```text\n(.*?)```", README, flags=re.S)[0].splitlines()
    executable = Path(sys.executable).with_name("chance-agreement")
    done = subprocess.run([str(executable), *command.split()[1:]], cwd=REPO, capture_output=True, text=True, check=True)
    printed = done.stdout.splitlines()
    assert len(shown) > 10 and all(line in printed for line in shown), (shown, printed)
    assert shown[0] == printed[0]


def test_every_linked_page_exists_and_every_docs_page_is_linked():
    links = re.findall(r"\]\(([^)#]+\.md)\)", README)
    assert all((REPO / link).is_file() for link in links), links
    pages = {path.relative_to(REPO).as_posix() for path in (REPO / "docs").rglob("*.md")
             if "_build" not in path.parts and "_tables" not in path.parts  # tables: included by benchmarks.md
             and path.name not in ("index.md", "changelog.md")}
    assert pages <= set(links), pages - set(links)
