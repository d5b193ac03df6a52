"""Sphinx configuration: MyST Markdown pages, MyST-NB executed examples, numpydoc API reference.

Build (``.ci/docs.sh`` does it in a fresh venv): ``pip install -e ".[docs]"`` then
``sphinx-build -W --keep-going -b html docs docs/_build/html``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

# The executed examples run in a kernel started from this process: nothing is loaded from a hub.
for variable in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "HF_EVALUATE_OFFLINE", "TRANSFORMERS_OFFLINE"):
    os.environ[variable] = "1"

import chance_agreement  # noqa: E402
import public_api  # noqa: E402

public_api.write()  # docs/api/index.rst from chance_agreement.__all__

project = "chance-agreement"
author = "chance-agreement contributors"
copyright = "chance-agreement contributors"
release = chance_agreement.__version__
version = release

extensions = [
    "myst_nb",  # MyST Markdown pages, and .md pages with code cells executed at build time
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
]

templates_path = ["_templates"]
exclude_patterns = ["_build", "_tables", "Thumbs.db", ".DS_Store", "**.ipynb_checkpoints"]  # _tables: included pages
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb"}

# MyST
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist"]
myst_heading_anchors = 3

# MyST-NB: execute every notebook-style page on every build; a cell that raises fails the build.
nb_execution_mode = "force"
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_execution_timeout = 300
nb_merge_streams = True
nb_output_stderr = "warn"  # an example that writes to stderr (a warning) is a build warning, so -W fails

# autodoc, autosummary, numpydoc: the style is not validated (most docstrings are not numpydoc yet);
# what autodoc cannot render is a warning, and -W makes it an error.
autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {"members": False}
autodoc_typehints = "none"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_validation_checks: set[str] = set()


def describe_instances(app, what, name, obj, options, lines):
    """The exported objects that are not classes or functions (``__version__``, a registry without a
    docstring of its own) would show their type's docstring; describe the object itself instead."""
    if what != "data" or not name.startswith("chance_agreement."):
        return
    from chance_agreement.spans.registry import Registry

    if isinstance(obj, Registry) and obj.__doc__ == Registry.__doc__:
        lines[:] = [
            f"The registry of each {obj.kind} (a :class:`~chance_agreement.spans.registry.Registry`):",
            f"``register(instance)`` adds one (an instance of ``{obj.base.__module__}.{obj.base.__qualname__}``),",
            "``get(name)`` returns one and ``names()`` lists them.",
            "",
            "Built in: " + ", ".join(f"``{entry}``" for entry in obj.names()) + ".",
        ]
    elif name == "chance_agreement.__version__":
        lines[:] = ["The package's version."]


def include_changelog(app, docname, source):
    """The Changelog page is the repository's CHANGELOG.md once it exists (docs/changelog.md says so
    until then)."""
    if docname == "changelog" and (HERE.parent / "CHANGELOG.md").is_file():
        source[0] = "```{include} ../CHANGELOG.md\n```\n"


def setup(app):
    app.connect("autodoc-process-docstring", describe_instances)
    app.connect("source-read", include_changelog)


html_theme = "pydata_sphinx_theme"
html_title = "chance-agreement"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
}
