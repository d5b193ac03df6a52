"""Model-card metadata for Hub leaderboards, as ``evaluate.push_to_hub`` writes it.

A Hub leaderboard reads a model card's ``model-index``: one result per (task, dataset) with its
metrics. ``model_card`` builds it with huggingface_hub's own classes (``EvalResult``,
``ModelCardData``, ``ModelCard``): task ``token-classification``, the dataset, and the observed,
chance and corrected F1 of the ``chance_f1`` metric at the level used, each with the metric's
name and the arguments of its ``compute`` call. Nothing is sent anywhere: push the card yourself
(``card.push_to_hub(repo_id)``) or copy the metadata into the model's README.md.
"""

from __future__ import annotations

from pathlib import Path

METRIC_TYPE = "chance_f1"  # the evaluate module's name, as push_to_hub's metric_type
TASK_TYPE = "token-classification"
SCORES = ("observed_f1", "chance_f1", "corrected_f1")
_SCORE_NAMES = {"observed_f1": "observed F1", "chance_f1": "chance F1", "corrected_f1": "chance-corrected F1"}


def metric_name(score: str, level: str) -> str:
    """The pretty name of one score, e.g. ``"chance-corrected F1 (token level)"``."""
    return f"{_SCORE_NAMES[score]} ({level} level)"


def eval_results(scores: dict, metric_args: dict, dataset_type: str, dataset_name: str,
                 dataset_split: str | None = None, dataset_config: str | None = None) -> list:
    """One ``huggingface_hub.EvalResult`` per score in ``SCORES`` (``scores[score]`` a float)."""
    from huggingface_hub import EvalResult

    level = metric_args.get("level", "token")
    missing = [score for score in SCORES if scores.get(score) is None]
    if missing:
        raise ValueError(f"no value for {missing}: a model card lists only defined scores")
    return [
        EvalResult(task_type=TASK_TYPE, task_name="Token Classification", dataset_type=dataset_type,
                   dataset_name=dataset_name, dataset_split=dataset_split, dataset_config=dataset_config,
                   metric_type=METRIC_TYPE, metric_name=metric_name(score, level),
                   metric_value=float(scores[score]), metric_config="default", metric_args=dict(metric_args))
        for score in SCORES
    ]


def model_card(system: str, scores: dict, metric_args: dict, dataset_type: str = "conll2003",
               dataset_name: str = "CoNLL-2003", dataset_split: str | None = "test",
               dataset_config: str | None = None):
    """A ``huggingface_hub.ModelCard`` for ``system`` whose metadata holds its three scores.

    ``scores``: ``{"observed_f1": ..., "chance_f1": ..., "corrected_f1": ...}``; ``metric_args``:
    the keyword arguments given to the metric (``level``, ``model``, ...).
    """
    from huggingface_hub import ModelCard, ModelCardData

    results = eval_results(scores, metric_args, dataset_type, dataset_name, dataset_split, dataset_config)
    data = ModelCardData(model_name=system, eval_results=results, datasets=[dataset_type],
                         metrics=[METRIC_TYPE], pipeline_tag=TASK_TYPE)
    level = metric_args.get("level", "token")
    lines = [f"# {system}", "",
             f"Scores on {dataset_name}" + (f" ({dataset_split} split)" if dataset_split else "")
             + f", {level} level, from the `{METRIC_TYPE}` metric (chance-agreement):", ""]
    lines += [f"- {metric_name(score, level)}: {float(scores[score]):.4f}" for score in SCORES]
    return ModelCard(f"---\n{data.to_yaml()}\n---\n\n" + "\n".join(lines) + "\n")


def write_model_cards(cards: dict, folder) -> list[Path]:
    """Write ``{system: ModelCard}`` as ``folder/<system>/README.md`` (the folder is created)."""
    root = Path(folder)
    if root.exists() and not root.is_dir():
        raise ValueError(f"{folder}: exists and is not a folder")
    if not root.parent.is_dir():
        raise ValueError(f"{folder}: cannot write: the folder {str(root.parent)!r} does not exist")
    written = []
    for system, card in cards.items():
        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in system).strip(".") or "system"
        target = root / safe / "README.md"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(str(card), encoding="utf-8")
        written.append(target)
    return written


__all__ = ["METRIC_TYPE", "SCORES", "TASK_TYPE", "eval_results", "metric_name", "model_card", "write_model_cards"]
