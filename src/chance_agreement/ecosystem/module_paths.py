"""Where the evaluate module folders and the metric cards are, installed or in a clone.

The repository keeps them at its top (``chance_f1_metric/``, ``coefficients_metric/``,
``noise_metric/``, ``hub_cards/``); the wheel maps them into the package as
``chance_agreement/metric_modules/<folder>/`` (``pyproject.toml``, ``[tool.setuptools]``). So after a
plain ``pip install`` as in a clone::

    import evaluate
    from chance_agreement import module_path

    chance_f1 = evaluate.load(module_path("chance_f1"))      # or "coefficients", "noise"
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parents[1]
BUNDLE_DIR = PACKAGE_DIR / "metric_modules"  # in an installed wheel
CHECKOUT_DIR = PACKAGE_DIR.parents[1]  # src/chance_agreement -> the clone (editable install, PYTHONPATH=src)
CARDS_FOLDER = "hub_cards"
EXAMPLES_FOLDER = "examples"  # small CoNLL, JSONL and brat files the documented commands use


@dataclass(frozen=True)
class MetricModule:
    """One evaluate module: its short name, its folder (= the script's name) and its card."""

    name: str
    folder: str

    @property
    def script(self) -> str:
        return f"{self.folder}.py"

    @property
    def card(self) -> str:
        return f"{self.name}.md"


METRICS = (
    MetricModule("chance_f1", "chance_f1_metric"),
    MetricModule("coefficients", "coefficients_metric"),
    MetricModule("noise", "noise_metric"),
)
METRIC_NAMES = tuple(metric.name for metric in METRICS)


def metric_module(name: str) -> MetricModule:
    """The module called ``name`` (``"chance_f1"``, ``"coefficients"``, ``"noise"``, or its folder name)."""
    for metric in METRICS:
        if name in (metric.name, metric.folder):
            return metric
    raise ValueError(f"unknown metric {name!r}; choose from {list(METRIC_NAMES)}")


def _locations() -> list[Path]:
    return [BUNDLE_DIR, CHECKOUT_DIR]


def module_path(name: str) -> str:
    """Find the local folder of an evaluate module, to give to ``evaluate.load``.

    Works after a plain ``pip install`` (the folder inside the installed package) and in a clone
    (the repository's folder); nothing is downloaded.

    Parameters
    ----------
    name : {"chance_f1", "coefficients", "noise"}
        The module (or its folder's name, e.g. ``"chance_f1_metric"``).

    Returns
    -------
    str
        The folder holding the module script.

    Raises
    ------
    ValueError
        An unknown name, listing the known ones.
    FileNotFoundError
        Neither the installed package nor a clone holds the module script (reinstall).

    See Also
    --------
    examples_path : The sample annotation files.
    module_metrics_fn : A Trainer hook for a loaded module.

    Examples
    --------
    >>> import evaluate
    >>> chance = evaluate.load(module_path("chance_f1"))
    >>> scores = chance.compute(predictions=[["B-PER", "I-PER", "O", "O"]], references=[["B-PER", "O", "O", "O"]])
    >>> round(scores["overall_observed_f1"], 4), round(scores["overall_corrected_f1"], 4)
    (0.6667, 0.5)
    >>> module_path("noise").endswith("noise_metric")
    True
    """
    metric = metric_module(name)
    for base in _locations():
        folder = base / metric.folder
        if (folder / metric.script).is_file():
            return str(folder)
    raise FileNotFoundError(f"the {metric.name} module script {metric.script} is neither in the installed package "
                            f"({BUNDLE_DIR}) nor in a clone ({CHECKOUT_DIR}); reinstall the package")


def examples_path() -> str:
    """Find the folder of the sample files (CoNLL, JSONL, brat) the README's commands use.

    Installed or in a clone, as ``module_path``.

    Returns
    -------
    str
        The folder (``gold.conll``, ``sysA.conll``, ``anna.conll``, ``annotator_a.jsonl``, ``brat/``, ...).

    Raises
    ------
    FileNotFoundError
        Neither the installed package nor a clone holds the samples (reinstall).

    See Also
    --------
    module_path : The evaluate module folders.

    Examples
    --------
    >>> from pathlib import Path
    >>> sorted(path.name for path in Path(examples_path()).glob("sys*.conll"))
    ['sysA.conll', 'sysB.conll']
    """
    for base in _locations():
        folder = base / EXAMPLES_FOLDER
        if (folder / "gold.conll").is_file():
            return str(folder)
    raise FileNotFoundError(f"no {EXAMPLES_FOLDER}/ folder in the installed package ({BUNDLE_DIR}) nor in a clone "
                            f"({CHECKOUT_DIR}); reinstall the package")


def cards_path() -> str:
    """The folder holding the metric cards (``<name>.md``), installed or in a clone."""
    for base in _locations():
        folder = base / CARDS_FOLDER
        if folder.is_dir():
            return str(folder)
    raise FileNotFoundError(f"no {CARDS_FOLDER}/ folder in the installed package ({BUNDLE_DIR}) nor in a clone "
                            f"({CHECKOUT_DIR}); reinstall the package")


__all__ = [
    "BUNDLE_DIR",
    "CARDS_FOLDER",
    "CHECKOUT_DIR",
    "EXAMPLES_FOLDER",
    "METRICS",
    "METRIC_NAMES",
    "PACKAGE_DIR",
    "MetricModule",
    "cards_path",
    "examples_path",
    "metric_module",
    "module_path",
]
