"""The shape of the code (issue 20): every module declares ``__all__``, no function in ``src/``
is longer than 60 lines (its docstring not counted), no private name crosses a module boundary, imports sit at the top of
their module (but for optional heavy dependencies), the chance-corrected kernel is written
once, and no evaluate module's ``_compute`` takes ``**kwargs`` (evaluate's own
``test_metric_common`` refuses that: its ``compute`` splits keyword arguments by name)."""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest

import chance_agreement

ROOT = Path(chance_agreement.__file__).resolve().parent
REPO = ROOT.parent.parent
LONGEST = 60
# imported inside the one function that needs them: optional and heavy (plots, progress bars, Hub
# cards, UIMA CAS files)
OPTIONAL = {"huggingface_hub", "tqdm", "matplotlib", "cassis", "spacy", "ray", "torch", "gradio", "pyarrow", "yaml"}  # yaml: with huggingface_hub, for Eval Results


def modules():
    return [(path.relative_to(ROOT).as_posix(), ast.parse(path.read_text(encoding="utf-8")))
            for path in sorted(ROOT.rglob("*.py"))]


def declares_all(tree) -> bool:
    return any(isinstance(node, (ast.Assign, ast.AnnAssign))
               and any(getattr(t, "id", None) == "__all__" for t in (node.targets if isinstance(node, ast.Assign) else [node.target]))
               for node in tree.body)


def test_every_module_declares_all():
    assert [name for name, tree in modules() if not declares_all(tree)] == []


def code_lines(function) -> int:
    """A function's lines, its docstring left out: the numpydoc docstrings of public functions
    (Parameters, Returns, Notes with the formula, Examples) are documentation, not code to split."""
    lines = function.end_lineno - function.lineno + 1
    first = function.body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        lines -= first.end_lineno - first.lineno + 1
    return lines


def test_no_function_is_longer_than_60_lines():
    long = [(name, node.name, code_lines(node)) for name, tree in modules() for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and code_lines(node) > LONGEST]
    assert long == []


def test_no_private_name_is_imported_from_another_module():
    crossing = [(name, node.module, alias.name) for name, tree in modules() for node in tree.body
                if isinstance(node, ast.ImportFrom) for alias in node.names
                if alias.name.startswith("_") and not alias.name.startswith("__")]
    assert crossing == []


def test_imports_sit_at_the_top_but_for_optional_heavy_dependencies():
    hidden = []
    for name, tree in modules():
        for function in ast.walk(tree):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.Import):
                    roots = {alias.name.split(".")[0] for alias in node.names}
                elif isinstance(node, ast.ImportFrom):
                    roots = {"." if node.level else (node.module or "").split(".")[0]}
                else:
                    continue
                if not roots <= OPTIONAL:
                    hidden.append((name, function.name, ast.unparse(node)))
    assert hidden == []


def test_the_chance_one_tolerance_is_written_once():
    """``1 - chance < 1e-12`` and friends live in ``chance/chance_corrected.py`` only."""
    pattern = re.compile(r"1(\.0)?\s*-\s*[\w.\[\]]+\s*<\s*1e-12|>=\s*1e-12|CHANCE_ONE\s*=")
    found = [name for name, _ in modules() if pattern.search((ROOT / name).read_text(encoding="utf-8"))]
    assert found == ["chance/chance_corrected.py"]


@pytest.mark.parametrize("folder", ["chance_f1_metric", "coefficients_metric", "noise_metric"])
def test_no_compute_takes_var_keyword_arguments(load_metric, folder):
    module = load_metric(folder)
    parameters = inspect.signature(module._compute).parameters
    assert parameters and all(p.kind != p.VAR_KEYWORD for p in parameters.values())
    source = (REPO / folder / f"{folder}.py").read_text(encoding="utf-8")
    assert "**kwargs" not in source.split("def _compute", 1)[1].split("\n", 1)[0]


def test_the_checks_catch_what_they_check(tmp_path):
    """Each check fails on a module that breaks its rule."""
    tree = ast.parse("def f():\n    from .x import y\n" + "    pass\n" * 61 + "from .z import _w\n")
    assert not declares_all(tree)
    assert any(isinstance(n, ast.FunctionDef) and n.end_lineno - n.lineno + 1 > LONGEST for n in ast.walk(tree))
    assert any(isinstance(n, ast.ImportFrom) and n.names[0].name.startswith("_") for n in tree.body)
