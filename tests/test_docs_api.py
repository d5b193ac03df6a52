"""The documentation site's API reference lists every public name, and CI builds the site with -W.

docs/api/index.rst is written by docs/_ext/public_api.py from ``chance_agreement.__all__`` on every
Sphinx build; these tests need no Sphinx: they read the committed page and the CI scripts.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import chance_agreement

REPO = Path(__file__).resolve().parent.parent
API_PAGE = REPO / "docs" / "api" / "index.rst"


def load_generator():
    spec = importlib.util.spec_from_file_location("public_api", REPO / "docs" / "_ext" / "public_api.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def autosummary_entries(text: str) -> list[str]:
    """The names listed under the page's ``.. autosummary::`` directives."""
    entries = []
    for block in re.split(r"^\.\. autosummary::\n", text, flags=re.M)[1:]:
        for line in block.splitlines():
            if line and not line.startswith(" "):
                break
            name = line.strip()
            if name and not name.startswith(":"):
                entries.append(name)
    return entries


def test_every_public_name_is_in_the_api_reference_once():
    entries = autosummary_entries(API_PAGE.read_text(encoding="utf-8"))
    assert sorted(entries) == sorted(chance_agreement.__all__)
    assert len(entries) == len(set(entries))


def test_the_committed_api_page_is_the_generated_one():
    assert API_PAGE.read_text(encoding="utf-8") == load_generator().render(), (
        "docs/api/index.rst is out of date: run `python docs/_ext/public_api.py` (a docs build also writes it)")


def test_a_name_from_an_unknown_layer_is_an_error_not_dropped(monkeypatch):
    generator = load_generator()
    monkeypatch.setitem(chance_agreement._EXPORTS, "chance_f1", "newlayer.module")
    try:
        generator.sections()
    except ValueError as error:
        assert "chance_f1" in str(error) and "LAYERS" in str(error)
    else:
        raise AssertionError("a public name of an unknown layer was not reported")


def test_ci_builds_the_docs_with_warnings_as_errors_before_the_tests():
    run = (REPO / ".ci" / "run").read_text(encoding="utf-8").rstrip("\n").splitlines()
    assert ".ci/docs.sh" in run[:-1] and "pytest" in run[-1]
    docs = (REPO / ".ci" / "docs.sh").read_text(encoding="utf-8")
    assert 'pip" install -q -e ".[docs]"' in docs
    assert re.search(r'sphinx-build"? -W --keep-going -b html docs docs/_build/html\n', docs)
    assert "python3 -m venv" in docs


# The most used names carry full numpydoc docstrings: the formula beside the undefined cases, and
# examples that run (the API reference renders them; tests/test_docstrings.py runs them).
FULL_NUMPYDOC = ("chance_f1", "team_chance_f1", "ChanceF1State", "coverage_probabilities",
                 "start_probabilities", "agreement_report", "noise_report", "annotator_test",
                 "fleiss_kappa", "krippendorff_alpha")


def test_the_most_used_names_have_full_numpydoc_sections():
    for name in FULL_NUMPYDOC:
        doc = getattr(chance_agreement, name).__doc__
        for section in ("Parameters\n", "Returns\n" if name != "ChanceF1State" else "Raises\n", "Raises\n",
                        "Examples\n"):
            assert section in doc, (name, section)
        assert "Notes\n" in doc and ".. math::" in doc, name
