"""Every public name of the root has a numpydoc docstring worth reading, and its Examples run.

For each name of ``chance_agreement._EXPORTS``, ``numpydoc.validate.validate`` must report none of
``CHECKS`` (a docstring exists, a one-line summary, Parameters that match the signature with types,
a described Returns section for a function that returns something, an Examples section), and the
Examples must pass as a doctest, run in the namespace of the module that defines the name (as
``pytest --doctest-modules`` runs them).

Every public name passes: there is no list of exceptions (registry objects carry their own
docstring, set on the instance).
"""

from __future__ import annotations

import doctest
import importlib
import tomllib
from pathlib import Path

import pytest
from numpydoc.validate import validate  # the test extra installs numpydoc

import chance_agreement

# numpydoc's error codes that every public docstring must be free of
CHECKS = {
    "GL08": "the object has no docstring",
    "SS01": "no summary",
    "SS02": "summary does not start with a capital letter",
    "SS03": "summary does not end with a period",
    "SS05": "summary must start with an infinitive verb, not the third person",
    "SS06": "summary should fit in a single line",
    "PR01": "a parameter of the signature is not documented",
    "PR02": "a documented parameter is not in the signature",
    "PR07": "a parameter has no description",
    "RT01": "no Returns section for a function that returns something",
    "RT03": "a return value has no description",
    "EX01": "no Examples section",
}

NAMES = sorted(chance_agreement._EXPORTS)

# the doctest option flags ``pytest --doctest-modules`` uses (pyproject's doctest_optionflags; none by default)
_PYTEST = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text(encoding="utf-8"))
OPTION_FLAGS = 0
_FLAGS = _PYTEST.get("tool", {}).get("pytest", {}).get("ini_options", {}).get("doctest_optionflags", [])
for _flag in _FLAGS.split() if isinstance(_FLAGS, str) else _FLAGS:  # an ini string or a TOML list
    OPTION_FLAGS |= doctest.OPTIONFLAGS_BY_NAME[_flag]


def qualified_name(name: str) -> str:
    return f"chance_agreement.{chance_agreement._EXPORTS[name]}.{name}"


def validation_errors(name: str) -> list[str]:
    """The ``CHECKS`` numpydoc reports for ``name``, as ``"CODE: message"``."""
    result = validate(qualified_name(name))
    return [f"{code}: {message}" for code, message in result["errors"] if code in CHECKS]


def example_failures(name: str) -> tuple[int, list[str]]:
    """Run the Examples of ``name`` (and of its methods, for a class) as doctests in the defining
    module's namespace; returns the number of examples run and the failure reports."""
    module = importlib.import_module(f"chance_agreement.{chance_agreement._EXPORTS[name]}")
    obj = getattr(module, name)
    finder = doctest.DocTestFinder(recurse=isinstance(obj, type))
    tests = finder.find(obj, name, module=module, globs=dict(vars(module)))
    runner = doctest.DocTestRunner(optionflags=OPTION_FLAGS)
    reports: list[str] = []
    examples = 0
    for test in tests:
        examples += len(test.examples)
        runner.run(test, out=reports.append, clear_globs=True)
    return examples, reports


def problems(name: str) -> list[str]:
    found = validation_errors(name)
    examples, failures = example_failures(name)
    if examples == 0:
        found.append("no example runs as a doctest")
    found.extend(failures)
    return found


@pytest.mark.parametrize("name", NAMES)
def test_public_docstring(name):
    found = problems(name)
    assert not found, f"{qualified_name(name)}:\n" + "\n".join(found)


def test_every_public_name_is_checked():
    assert set(chance_agreement.__all__) - {"__version__"} == set(NAMES)
