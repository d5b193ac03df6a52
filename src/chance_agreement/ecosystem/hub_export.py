"""Assemble Hugging Face Space folders for the metric modules (``chance-agreement hub-export DIR``).

Each folder holds what evaluate's own metric Spaces hold: the module script (named like the
folder, so ``evaluate.load(folder)`` finds it), the metric card as README.md, requirements.txt
and app.py launching evaluate's gradio widget; and the package's wheel, which requirements.txt
installs (``--find-links .``), so the Space builds with nothing but its own files and the public
package index. Scripts and cards come from the installed package or the clone
(``module_paths``), or from ``--source`` (a clone).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from .module_paths import CARDS_FOLDER, METRICS, MetricModule, cards_path, module_path
from .wheel_file import DISTRIBUTION, build_wheel

HubMetric = MetricModule  # the name this module used before module_paths

# installed besides the package (its own requirements come with its wheel's metadata)
REQUIREMENTS = ("evaluate", "datasets", "seqeval", "numpy", "scipy")

APP_TEMPLATE = '''\
"""Gradio widget of the {name} metric, as evaluate's own metric Spaces launch it."""

from pathlib import Path

import evaluate
from evaluate.utils import launch_gradio_widget

# Load the script next to this file by its path: a Space clones its repository into a folder
# named "app", so loading the folder would look for app.py, this file.
module = evaluate.load(str(Path(__file__).resolve().parent / "{script}"))

# The Space runs `python app.py`; importing this file only loads the module.
__all__ = ["HubMetric", "REQUIREMENTS", "APP_TEMPLATE", "available_metrics", "requirements_text", "app_text",
           "export_metric", "export_all"]

if __name__ == "__main__":
    launch_gradio_widget(module)
'''


def _files(metric: MetricModule, source) -> tuple[Path, Path]:
    """(module script, card) of ``metric``: from ``source`` (a clone) or where the package has them."""
    if source is not None:
        root = Path(source)
        if not (root / CARDS_FOLDER).is_dir():
            raise ValueError(f"{root}: no {CARDS_FOLDER}/ folder; give the repository checkout with --source")
        return root / metric.folder / metric.script, root / CARDS_FOLDER / metric.card
    try:
        return Path(module_path(metric.name)) / metric.script, Path(cards_path()) / metric.card
    except FileNotFoundError as error:
        raise ValueError(str(error)) from None


def available_metrics(source=None) -> list[MetricModule]:
    """The metrics whose module script and card both exist."""
    found = []
    for metric in METRICS:
        try:
            script, card = _files(metric, source)
        except ValueError:
            if source is not None:
                raise
            continue
        if script.is_file() and card.is_file():
            found.append(metric)
    return found


def requirements_text(wheel_name: str) -> str:
    """requirements.txt of a Space: the wheel next to it (``--find-links .`` is relative to this file
    for pip), then the libraries the module script imports."""
    version = wheel_name.split("-")[1]
    lines = ["--find-links .", f"{DISTRIBUTION}=={version}", *REQUIREMENTS]
    return "".join(f"{line}\n" for line in lines)


def app_text(metric: MetricModule) -> str:
    return APP_TEMPLATE.format(name=metric.name, script=metric.script)


def export_metric(metric: MetricModule, target_dir, source=None, overwrite: bool = False, wheel=None) -> Path:
    """Write one Space folder ``target_dir/<metric.folder>`` and return its path.

    ``wheel``: the package's wheel to ship (built with ``wheel_file.build_wheel`` when None).
    """
    script, card = _files(metric, source)
    for needed in (script, card):
        if not needed.is_file():
            raise ValueError(f"{metric.name}: {needed} not found")
    folder = Path(target_dir) / metric.folder
    if folder.exists():
        if not overwrite:
            raise ValueError(f"{folder} already exists; use --force to replace it")
        if not folder.is_dir():
            raise ValueError(f"{folder} exists and is not a folder")
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    wheel = Path(wheel) if wheel is not None else build_wheel(folder)
    if wheel.parent.resolve() != folder.resolve():
        shutil.copyfile(wheel, folder / wheel.name)
    shutil.copyfile(script, folder / metric.script)
    shutil.copyfile(card, folder / "README.md")
    (folder / "requirements.txt").write_text(requirements_text(wheel.name), encoding="utf-8")
    (folder / "app.py").write_text(app_text(metric), encoding="utf-8")
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
