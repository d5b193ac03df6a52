"""The docs page's section on span files and nested entities (docs/howto/annotation-files.md): its
examples run and give the lines below, and its command prints what the page shows."""

from __future__ import annotations

import re

from chance_agreement.reports.cli import main
from conftest import REPO
from docs_pages import code_cells, page, run_code_cells, section

PAGE = page("howto/annotation-files.md")
HEADING = "## Span files and nested entities"

SHOWN = [
    "(0.5, 0.8571, 0.8189)\n",
    '{"text": "Bank of America opened an office in New York City.", "spans": [{"start": 0, "end": 15, "label": "ORG"}, '
    '{"start": 8, "end": 15, "label": "LOC"}, {"start": 36, "end": 49, "label": "LOC"}, {"start": 36, "end": 44, '
    '"label": "LOC"}]}\n'
    "[(0, 3, 'ORG'), (2, 3, 'LOC'), (7, 10, 'LOC'), (7, 9, 'LOC')]\n"
    "['T7', 'LOC 105 109', 'York']\n"
    "[(0, 3, 'ORG'), (2, 3, 'LOC'), (7, 10, 'LOC'), (8, 9, 'LOC')]\n",
    "pooled   0.8889 0.3230 0.8359\n"
    "depth 0  0.9286 0.3578 0.8888\n"
    "depth 1  0.7500 0.2009 0.6872\n",
    "['B-ORG', 'I-ORG', 'I-ORG', 'O', 'O', 'O', 'O', 'B-LOC', 'I-LOC', 'I-LOC', 'O']\n"
    "['O', 'O', 'B-LOC', 'O', 'O', 'O', 'O', 'B-LOC', 'I-LOC', 'O', 'O']\n"
    "0.75\n"
    "0.4444\n",
]


def test_python_examples_run_and_give_these_lines():
    outputs = run_code_cells(PAGE)
    assert len(code_cells(section(PAGE, HEADING))) == len(SHOWN)
    assert outputs[-len(SHOWN):] == SHOWN


def test_the_sample_files_are_the_nested_test_files():
    examples = REPO / "examples"
    nested = REPO / "tests" / "data" / "nested"
    assert (examples / "annotator_a.jsonl").read_bytes() == (nested / "annotator_a.jsonl").read_bytes()
    for name in ("doc.ann", "doc.txt"):
        assert (examples / "brat" / name).read_bytes() == (nested / "brat_b" / name).read_bytes()


def test_command_line_output_is_what_the_page_shows(monkeypatch, capsys):
    monkeypatch.chdir(REPO)
    text = section(PAGE, HEADING)
    command = re.search(r"```bash\n(chance-agreement spans .*?)\n```", text).group(1).split()[1:]
    shown = re.search(r"```text\n(.*?)\n```", text, re.DOTALL).group(1)
    assert main(command) == 0
    assert capsys.readouterr().out.rstrip("\n") == shown
    assert "depth 1  LOC" in shown
