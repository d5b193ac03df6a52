"""The README's section on span files and nested entities: its examples run and print what it shows."""

from __future__ import annotations

import doctest
import re

from chance_agreement.reports.cli import main
from conftest import REPO

HEADING = "## Span files and nested entities"


def section() -> str:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    start = text.index(HEADING)
    end = text.index("\n## ", start + len(HEADING))
    return text[start:end]


def test_python_examples_run_and_print_what_the_readme_shows(monkeypatch):
    monkeypatch.chdir(REPO)
    source = "\n".join(re.findall(r"```python\n(.*?)```", section(), re.DOTALL))
    test = doctest.DocTestParser().get_doctest(source, {}, "README spans", "README.md", 0)
    assert len(test.examples) >= 15
    report: list[str] = []
    runner = doctest.DocTestRunner()
    runner.run(test, out=report.append)
    assert runner.summarize(verbose=False).failed == 0, "".join(report)


def test_command_line_output_is_what_the_readme_shows(monkeypatch, capsys):
    monkeypatch.chdir(REPO)
    text = section()
    command = re.search(r"```bash\n(chance-agreement spans .*?)\n```", text).group(1).split()[1:]
    shown = re.search(r"```text\n(.*?)\n```", text, re.DOTALL).group(1)
    assert main(command) == 0
    assert capsys.readouterr().out.rstrip("\n") == shown
    assert "depth 1  LOC" in shown
