"""Assemble Hugging Face Space folders for the metric modules (``chance-agreement hub-export DIR``).

Each folder holds what evaluate's own metric Spaces hold: the module script (named like the
folder, so ``evaluate.load(folder)`` finds it), the metric card as README.md, requirements.txt
and app.py (the module folder's own Gradio page, ``space_app``: paste or upload annotations, see
the scores; not evaluate's widget, which current Gradio cannot run); and the package's wheel, which
requirements.txt installs (``--find-links .``), so the Space builds with nothing but its own files
and the public package index. requirements.txt pins ``gradio[mcp]==GRADIO_VERSION`` (the page, the
``/score`` endpoint and its MCP tool), the version the cards' ``sdk_version`` names and CI drives in
Chromium and through gradio_client (.ci/check_install.sh). Scripts and cards come from the installed
package or the clone (``module_paths``), or from ``--source`` (a clone).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from .module_paths import CARDS_FOLDER, METRICS, MetricModule, cards_path, module_path
from .wheel_file import DISTRIBUTION, build_wheel

# The Gradio release the Spaces run: the cards' sdk_version, pinned in requirements.txt, tested by CI.
GRADIO_VERSION = "6.31.0"
APP = "app.py"

# installed besides the package (its own requirements come with its wheel's metadata)
REQUIREMENTS = ("evaluate", "datasets", "seqeval", "numpy", "scipy", f"gradio[mcp]=={GRADIO_VERSION}")


def _files(metric: MetricModule, source) -> tuple[Path, Path, Path]:
    """(module script, card, app.py) of ``metric``: from ``source`` (a clone) or where the package has them."""
    if source is not None:
        root = Path(source)
        if not (root / CARDS_FOLDER).is_dir():
            raise ValueError(f"{root}: no {CARDS_FOLDER}/ folder; give the repository checkout with --source")
        folder, cards = root / metric.folder, root / CARDS_FOLDER
    else:
        try:
            folder, cards = Path(module_path(metric.name)), Path(cards_path())
        except FileNotFoundError as error:
            raise ValueError(str(error)) from None
    return folder / metric.script, cards / metric.card, folder / APP


def available_metrics(source=None) -> list[MetricModule]:
    """The metrics whose module script, card and app.py exist."""
    found = []
    for metric in METRICS:
        try:
            script, card, app = _files(metric, source)
        except ValueError:
            if source is not None:
                raise
            continue
        if script.is_file() and card.is_file() and app.is_file():
            found.append(metric)
    return found


def requirements_text(wheel_name: str) -> str:
    """requirements.txt of a Space: the wheel next to it (``--find-links .`` is relative to this file
    for pip), then the libraries the module script imports."""
    version = wheel_name.split("-")[1]
    lines = ["--find-links .", f"{DISTRIBUTION}=={version}", *REQUIREMENTS]
    return "".join(f"{line}\n" for line in lines)


def _stale_files(folder: Path, metric: MetricModule) -> list[Path]:
    """Before ``--force`` writes again: what an export wrote there (the script, README.md,
    requirements.txt, app.py and wheels of this package), removed once the new files are in place
    (a Space clone's ``.git`` and any other file stay). Something that is not a file where one of
    ours goes is refused before anything changes."""
    if not folder.is_dir():
        raise ValueError(f"{folder} exists and is not a folder")
    ours = [folder / name for name in (metric.script, "README.md", "requirements.txt", APP)]
    ours += sorted(folder.glob(f"{DISTRIBUTION.replace('-', '_')}-*.whl"))
    in_the_way = [path for path in ours if path.exists() and (path.is_dir() or not path.is_file())]
    if in_the_way:
        raise ValueError(f"{in_the_way[0]} is not a file; --force replaces only the files the export writes")
    return ours


def _stage(metric: MetricModule, staging: Path, files: tuple[Path, Path, Path], wheel) -> None:
    """Write a Space's files into ``staging``: the wheel (``wheel``, else built), script, card,
    requirements.txt and app.py."""
    script, card, app = files
    wheel = build_wheel(staging) if wheel is None else Path(shutil.copyfile(wheel, staging / Path(wheel).name))
    shutil.copyfile(script, staging / metric.script)
    shutil.copyfile(card, staging / "README.md")
    (staging / "requirements.txt").write_text(requirements_text(wheel.name), encoding="utf-8")
    shutil.copyfile(app, staging / APP)


def export_metric(metric: MetricModule, target_dir, source=None, overwrite: bool = False, wheel=None) -> Path:
    """Write one Space folder ``target_dir/<metric.folder>`` and return its path.

    An existing folder is refused unless ``overwrite``; then only the files an export writes are
    replaced (``.git`` and the user's files stay). The new files are built first in a staging
    folder beside it and moved in (``os.replace``) only once all are written: a full disk or a
    failed wheel build leaves the previous Space as it was; errors name the path.

    ``wheel``: the package's wheel to ship (built with ``wheel_file.build_wheel`` when None).
    """
    files = _files(metric, source)
    for needed in files:
        if not needed.is_file():
            raise ValueError(f"{metric.name}: {needed} not found")
    folder = Path(target_dir) / metric.folder
    if folder.exists() and not overwrite:
        raise ValueError(f"{folder} already exists; use --force to replace it")
    stale = _stale_files(folder, metric) if folder.exists() else []
    folder.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=f".{metric.folder}.", suffix=".new", dir=target_dir) as scratch:
        staging = Path(scratch)
        try:
            _stage(metric, staging, files, wheel)
        except OSError as error:
            raise OSError(error.errno, f"cannot write the Space ({error.strerror or error}); the previous one, if "
                                       f"any, is unchanged", str(folder)) from None
        folder.mkdir(exist_ok=True)
        written = sorted(staging.iterdir())
        for path in written:
            os.replace(path, folder / path.name)
    names = {path.name for path in written}
    for path in stale:
        if path.name not in names:
            path.unlink(missing_ok=True)
    return folder


def export_all(target_dir, source=None, names=None, overwrite: bool = False, wheel=None) -> list[Path]:
    """Export every available metric (or those named) into ``target_dir``, each with the wheel."""
    target = Path(target_dir)
    if target.exists() and not target.is_dir():
        raise ValueError(f"{target}: exists and is not a folder")
    if not target.parent.is_dir():
        raise ValueError(f"{target}: cannot write: the folder {str(target.parent)!r} does not exist")
    available = {m.name: m for m in available_metrics(source)}
    known = {m.name for m in METRICS}
    if names:
        unknown = [name for name in names if name not in known]
        if unknown:
            raise ValueError(f"unknown metric(s) {unknown}; choose from {sorted(known)}")
        absent = [name for name in names if name not in available]
        if absent:
            raise ValueError(f"metric(s) {absent} have no module script or no card")
        chosen = [available[name] for name in names]
    else:
        chosen = list(available.values())
    if not chosen:
        raise ValueError("no metric has both a module script and a card to export")
    if wheel is not None and not (Path(wheel).is_file() and str(wheel).endswith(".whl")):
        raise ValueError(f"{wheel}: not a wheel file")
    target.mkdir(exist_ok=True)
    folders = []
    for metric in chosen:
        folders.append(export_metric(metric, target, source, overwrite, wheel))
        if wheel is None:  # build once, copy to the other Spaces
            wheel = next(folders[-1].glob("*.whl"))
    return folders


__all__ = ["APP", "GRADIO_VERSION", "REQUIREMENTS", "available_metrics", "export_all", "export_metric",
           "requirements_text"]
