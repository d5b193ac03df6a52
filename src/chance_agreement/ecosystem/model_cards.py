"""Model-card metadata for Hub leaderboards, as ``evaluate.push_to_hub`` writes it.

A Hub leaderboard reads a model card's ``model-index``: one result per (task, dataset) with its
metrics. ``model_card`` builds it with huggingface_hub's own classes (``EvalResult``,
``ModelCardData``, ``ModelCard``): task ``token-classification``, the dataset, and the observed,
chance and corrected F1 of the ``chance_f1`` metric at the level used, each with the metric's
name and the arguments of its ``compute`` call. Nothing is sent anywhere: push the card yourself
(``card.push_to_hub(repo_id)``) or copy the metadata into the model's README.md.
"""

from __future__ import annotations

import math
import numbers
from pathlib import Path

__all__ = ["METRIC_TYPE", "SCORES", "TASK_TYPE", "card_folder_name", "eval_results", "metric_name", "model_card",
           "write_model_cards"]

METRIC_TYPE = "chance_f1"  # the evaluate module's name, as push_to_hub's metric_type
TASK_TYPE = "token-classification"
SCORES = ("observed_f1", "chance_f1", "corrected_f1")
_SCORE_NAMES = {"observed_f1": "observed F1", "chance_f1": "chance F1", "corrected_f1": "chance-corrected F1"}


def metric_name(score: str, level: str) -> str:
    """The pretty name of one score, e.g. ``"chance-corrected F1 (token level)"``."""
    return f"{_SCORE_NAMES[score]} ({level} level)"


def _defined_scores(scores: dict) -> dict:
    """``{score: float}`` of the defined scores; a missing key, NaN, an infinity or a non-number is a
    ValueError (a model-index value must be a finite number); None (undefined) is left out."""
    missing = [score for score in SCORES if score not in scores]
    if missing:
        raise ValueError(f"no value for {missing}: give each of {list(SCORES)} (None for an undefined one)")
    defined = {}
    for score in SCORES:
        value = scores[score]
        if value is None:
            continue
        finite = isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isfinite(value)
        if not finite:
            raise ValueError(f"{score} is {value!r}, not a finite number: a model card lists only defined scores")
        defined[score] = float(value)
    if not defined:
        raise ValueError("every score is undefined: a model card needs at least one")
    return defined


def eval_results(scores: dict, metric_args: dict, dataset_type: str, dataset_name: str,
                 dataset_split: str | None = None, dataset_config: str | None = None) -> list:
    """One ``huggingface_hub.EvalResult`` per defined score in ``SCORES`` (``scores[score]`` a
    finite number, or None for an undefined one, which is left out)."""
    from huggingface_hub import EvalResult

    level = metric_args.get("level", "token")
    return [
        EvalResult(task_type=TASK_TYPE, task_name="Token Classification", dataset_type=dataset_type,
                   dataset_name=dataset_name, dataset_split=dataset_split, dataset_config=dataset_config,
                   metric_type=METRIC_TYPE, metric_name=metric_name(score, level),
                   metric_value=value, metric_config="default", metric_args=dict(metric_args))
        for score, value in _defined_scores(scores).items()
    ]


def model_card(system: str, scores: dict, metric_args: dict, dataset_type: str = "conll2003",
               dataset_name: str = "CoNLL-2003", dataset_split: str | None = "test",
               dataset_config: str | None = None):
    """A ``huggingface_hub.ModelCard`` for ``system`` whose metadata holds its scores.

    ``scores``: ``{"observed_f1": ..., "chance_f1": ..., "corrected_f1": ...}``, each a finite
    number or None where undefined (corrected F1 when chance F1 is 1: then the card's text says
    so and model-index leaves it out); ``metric_args``: the keyword arguments given to the metric
    (``level``, ``model``, ...).
    """
    from huggingface_hub import ModelCard, ModelCardData

    results = eval_results(scores, metric_args, dataset_type, dataset_name, dataset_split, dataset_config)
    data = ModelCardData(model_name=system, eval_results=results, datasets=[dataset_type],
                         metrics=[METRIC_TYPE], pipeline_tag=TASK_TYPE)
    level = metric_args.get("level", "token")
    lines = [f"# {system}", "",
             f"Scores on {dataset_name}" + (f" ({dataset_split} split)" if dataset_split else "")
             + f", {level} level, from the `{METRIC_TYPE}` metric (chance-agreement):", ""]
    lines += [f"- {metric_name(score, level)}: " + ("undefined" if scores[score] is None else f"{float(scores[score]):.4f}")
              for score in SCORES]
    if scores["corrected_f1"] is None:
        lines += ["", "Corrected F1 is undefined here: chance F1 is 1, so there is no room for agreement "
                      "beyond chance."]
    return ModelCard(f"---\n{data.to_yaml()}\n---\n\n" + "\n".join(lines) + "\n")


def card_folder_name(system: str) -> str:
    """The folder of ``system``'s card: letters, digits, ``-``, ``_``, ``.`` kept, others ``_``;
    leading and trailing dots dropped; ``system`` when nothing is left."""
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in system).strip(".") or "system"


def write_model_cards(cards: dict, folder, *, force: bool = False) -> list[Path]:
    """Write ``{system: ModelCard}`` as ``folder/<system>/README.md`` (the folders are created).

    Refused before anything is written: two systems whose folder names are the same (after
    :func:`card_folder_name`, ignoring case, as on case-insensitive file systems), and an existing
    README.md unless ``force``.
    """
    root = Path(folder)
    if root.exists() and not root.is_dir():
        raise ValueError(f"{folder}: exists and is not a folder")
    if not root.parent.is_dir():
        raise ValueError(f"{folder}: cannot write: the folder {str(root.parent)!r} does not exist")
    targets: dict[str, tuple[str, Path]] = {}
    for system in cards:
        safe = card_folder_name(system)
        if safe.casefold() in targets:
            other = targets[safe.casefold()][0]
            raise ValueError(f"systems {other!r} and {system!r} would write their model cards to the same folder "
                             f"{str(root / safe)!r}; give them distinct names (--names)")
        targets[safe.casefold()] = (system, root / safe / "README.md")
    existing = [str(target) for _, target in targets.values() if target.exists()]
    if existing and not force:
        raise ValueError(f"{existing[0]} exists" + (f" (and {len(existing) - 1} more)" if len(existing) > 1 else "")
                         + ": not overwritten; give --force (force=True) to replace the model cards")
    written = []
    for system, target in targets.values():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(str(cards[system]), encoding="utf-8")
        written.append(target)
    return written
