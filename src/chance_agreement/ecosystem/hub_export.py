"""Assemble Hugging Face Space folders for the metric modules (``chance-agreement hub-export DIR``).

Each folder holds what evaluate's own metric Spaces hold: the module script (named like the
folder, so ``evaluate.load(folder)`` finds it), the metric card as README.md, requirements.txt
and app.py launching evaluate's gradio widget.
"""

from __future__ import annotations

import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

# The source checkout holding the module folders and hub_cards/ (src/chance_agreement/ecosystem/ -> repo).
DEFAULT_SOURCE = Path(__file__).resolve().parents[3]

REQUIREMENTS = ("chance-agreement", "evaluate", "datasets", "seqeval", "numpy", "scipy")

APP_TEMPLATE = '''\
"""Gradio widget of the {name} metric, as evaluate's own metric Spaces launch it."""

from pathlib import Path

import evaluate
from evaluate.utils import launch_gradio_widget

# Load the script next to this file by its path: a Space clones its repository into a folder
# named "app", so loading the folder would look for app.py, this file.
module = evaluate.load(str(Path(__file__).resolve().parent / "{script}"))

launch_gradio_widget(module)
'''


@dataclass(frozen=True)
class HubMetric:
    """One metric: its card in hub_cards/ and its module folder in the source checkout."""

    name: str
    folder: str

    @property
    def script(self) -> str:
        return f"{self.folder}.py"


METRICS = (
    HubMetric("chance_f1", "chance_f1_metric"),
    HubMetric("coefficients", "coefficients_metric"),
    HubMetric("noise", "noise_metric"),
)


def _source_root(source) -> Path:
    root = Path(source) if source is not None else DEFAULT_SOURCE
    if not (root / "hub_cards").is_dir():
        raise ValueError(f"{root}: no hub_cards/ folder; give the repository checkout with --source")
    return root


def available_metrics(source=None) -> list[HubMetric]:
    """The metrics whose module script and card both exist in the source checkout."""
    root = _source_root(source)
    return [m for m in METRICS if (root / m.folder / m.script).is_file() and (root / "hub_cards" / f"{m.name}.md").is_file()]


def requirements_text() -> str:
    return "".join(f"{name}\n" for name in REQUIREMENTS)


def app_text(metric: HubMetric) -> str:
    return APP_TEMPLATE.format(name=metric.name, script=metric.script)


def export_metric(metric: HubMetric, target_dir, source=None, overwrite: bool = False) -> Path:
    """Write one Space folder ``target_dir/<metric.folder>`` and return its path."""
    root = _source_root(source)
    script = root / metric.folder / metric.script
    card = root / "hub_cards" / f"{metric.name}.md"
    for needed in (script, card):
        if not needed.is_file():
            raise ValueError(f"{metric.name}: {needed} not found")
    folder = Path(target_dir) / metric.folder
    if folder.exists():
        if not overwrite:
            raise ValueError(f"{folder} already exists; use --force to replace it")
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    shutil.copyfile(script, folder / metric.script)
    shutil.copyfile(card, folder / "README.md")
    (folder / "requirements.txt").write_text(requirements_text(), encoding="utf-8")
    (folder / "app.py").write_text(app_text(metric), encoding="utf-8")
    return folder


def export_all(target_dir, source=None, names=None, overwrite: bool = False) -> list[Path]:
    """Export every available metric (or those named) into ``target_dir``."""
    available = {m.name: m for m in available_metrics(source)}
    known = {m.name for m in METRICS}
    if names:
        unknown = [name for name in names if name not in known]
        if unknown:
            raise ValueError(f"unknown metric(s) {unknown}; choose from {sorted(known)}")
        absent = [name for name in names if name not in available]
        if absent:
            raise ValueError(f"metric(s) {absent} have no module script or no card in the source checkout")
        chosen = [available[name] for name in names]
    else:
        chosen = list(available.values())
    if not chosen:
        raise ValueError("no metric has both a module script and a card to export")
    Path(target_dir).mkdir(parents=True, exist_ok=True)
    return [export_metric(metric, target_dir, source, overwrite) for metric in chosen]


def _run(args) -> int:
    folders = export_all(args.directory, args.source, args.metric, args.force)
    for folder in folders:
        print(folder)
    exported = {folder.name for folder in folders}
    skipped = [m.name for m in METRICS if m.folder not in exported]
    if skipped and not args.metric:
        print(f"not exported (no module script or card yet): {', '.join(skipped)}", file=sys.stderr)
    return 0


def register(commands) -> None:
    """Add the ``hub-export`` sub-command to the CLI's subparsers."""
    parser = commands.add_parser("hub-export", help="assemble Hub Space folders (script, card, app.py) for the metrics")
    parser.add_argument("directory", help="folder to write one sub-folder per metric into")
    parser.add_argument("--metric", action="append", choices=[m.name for m in METRICS],
                        help="export only this metric (repeatable); default: every metric present")
    parser.add_argument("--source", default=None, help="repository checkout with the module folders and hub_cards/")
    parser.add_argument("--force", action="store_true", help="replace existing metric folders")
    parser.set_defaults(run=_run)
