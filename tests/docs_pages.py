"""The documentation pages (docs/*.md) as the tests read them: a page, a section of it, the table after
a heading, and its code cells run as the docs build runs them (in order, in one namespace), so a
test can pin what a page shows to what the code gives."""

from __future__ import annotations

import ast
import contextlib
import io
import re

from conftest import REPO

DOCS = REPO / "docs"


def page(name: str) -> str:
    """The text of ``docs/<name>`` (``"howto/teams.md"``)."""
    return (DOCS / name).read_text(encoding="utf-8")


def pages() -> dict[str, str]:
    """Every Markdown page of the site, by its path under ``docs/``."""
    return {path.relative_to(DOCS).as_posix(): path.read_text(encoding="utf-8")
            for path in sorted(DOCS.rglob("*.md")) if "_build" not in path.parts}


def folded(text: str) -> str:
    """``text`` with its line breaks and runs of spaces folded into one space."""
    return " ".join(text.split())


def section(text: str, heading: str) -> str:
    """From the line holding ``heading`` to the next heading of the same or a higher level."""
    start = text.index(heading)
    start = text.rindex("\n", 0, start) + 1 if "\n" in text[:start] else 0
    level = len(text[start:].split(" ", 1)[0])
    following = re.compile(r"^#{1,%d} " % level, re.MULTILINE)
    match = following.search(text, text.index("\n", start) + 1)
    return text[start:match.start() if match else len(text)]


def table_after(text: str, heading: str) -> list[list[str]]:
    """Cells of the first Markdown table after ``heading`` (header and rule rows dropped)."""
    rows = []
    for line in text[text.index(heading):].splitlines():
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
        elif rows:
            break
    return rows[2:]


def fenced(text: str, kind: str) -> list[str]:
    """The bodies of the ```kind fenced blocks of ``text``, in order."""
    return re.findall(r"```%s\n(.*?)```" % re.escape(kind), text, flags=re.S)


def code_cells(text: str) -> list[str]:
    """The sources of the page's ``{code-cell}`` blocks, their option lines (``:tags: ...``) left out."""
    cells = []
    for body in re.findall(r"```\{code-cell\}[^\n]*\n(.*?)```", text, flags=re.S):
        lines = body.splitlines()
        while lines and (lines[0].startswith(":") or not lines[0].strip()):
            lines.pop(0)
        cells.append("\n".join(lines) + "\n")
    return cells


def run_code_cells(text: str) -> list[str]:
    """Run the page's code cells in order in one namespace, as the docs build does; per cell, what it
    printed, then the ``repr`` of its last expression's value when that is not None (what a
    notebook shows)."""
    namespace: dict = {"__name__": "__main__"}
    outputs = []
    for source in code_cells(text):
        tree = ast.parse(source)
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(tree, "<code-cell>", "exec"), namespace)
            if last is not None:
                value = eval(compile(ast.Expression(last.value), "<code-cell>", "eval"), namespace)
                if value is not None:
                    print(repr(value))
        outputs.append(printed.getvalue())
    return outputs

