"""The wheel's configuration: every package of src/ is listed, and the evaluate module folders and
hub_cards/ (kept once, at the top of the repository) are mapped into the package.

The end-to-end proof, a plain install in a fresh venv loading each module and exporting Spaces
that install from their own requirements.txt, is .ci/check_install.sh (run by .ci/run); the
wheel's contents are checked by tests/test_hub_export.py."""

from __future__ import annotations

import tomllib
from pathlib import Path

from chance_agreement.ecosystem.module_paths import CARDS_FOLDER, METRICS

REPO = Path(__file__).resolve().parent.parent
CONFIG = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]


def test_every_package_of_src_is_in_the_wheel():
    src = REPO / "src"
    found = {".".join(path.parent.relative_to(src).parts) for path in src.glob("chance_agreement/**/__init__.py")}
    listed = set(CONFIG["packages"])
    assert found <= listed, f"add {sorted(found - listed)} to [tool.setuptools] packages"
    assert sorted(listed - found) == sorted(f"chance_agreement.metric_modules.{folder}" for folder in
                                            [CARDS_FOLDER, *(metric.folder for metric in METRICS)])


def test_module_folders_and_cards_are_mapped_from_the_top_of_the_repository():
    mapping = CONFIG["package-dir"]
    assert mapping[""] == "src"
    for metric in METRICS:
        package = f"chance_agreement.metric_modules.{metric.folder}"
        assert mapping[package] == metric.folder
        assert (REPO / metric.folder / metric.script).is_file()
        assert CONFIG["package-data"][package] == ["requirements.txt"]
        assert (REPO / CARDS_FOLDER / metric.card).is_file()
    assert mapping[f"chance_agreement.metric_modules.{CARDS_FOLDER}"] == CARDS_FOLDER
    assert not (REPO / "src" / "chance_agreement" / "metric_modules").exists()  # one copy in git


def test_ci_runs_the_install_check():
    run = (REPO / ".ci" / "run").read_text()
    assert "\n.ci/check_install.sh\n" in run
    check = (REPO / ".ci" / "check_install.sh").read_text()
    assert "unset PYTHONPATH" in check and "pip install -q -r" in check and "hub-export" in (REPO / ".ci" / "check_install.py").read_text()
