"""The README's test command (``python -m pytest -q``) runs every docstring example in ``src/`` as a
doctest: pyproject.toml puts ``src`` in ``testpaths`` with ``--doctest-modules``. Collecting them
imports every module of the package, so none may need an optional dependency at import time (spaCy,
Ray, dkpro-cassis, gradio, torch, matplotlib... are imported inside the functions that use them).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

REPO = Path(__file__).resolve().parent.parent
OPTIONAL = ("ray", "spacy", "cassis", "gradio", "torch", "accelerate", "matplotlib", "tqdm", "transformers")


def test_the_test_command_runs_the_docstring_examples_of_src():
    options = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    assert "src" in options["testpaths"] and "tests" in options["testpaths"]
    assert "--doctest-modules" in options["addopts"].split()


def test_every_module_imports_without_the_optional_dependencies():
    script = textwrap.dedent(f"""
        import importlib, pkgutil, sys
        for name in {OPTIONAL!r}:
            sys.modules[name] = None  # as if not installed: importing it raises ImportError
        import chance_agreement
        failed = []
        for module in pkgutil.walk_packages(chance_agreement.__path__, "chance_agreement."):
            try:
                importlib.import_module(module.name)
            except ImportError as error:
                failed.append(f"{{module.name}}: {{error}}")
        print("\\n".join(failed))
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == ""
