"""Hub results of a model in both formats the Hub reads: Eval Results and the model card's model-index.

Eval Results (what the Hub's leaderboards read today): ``.eval_results/<name>.yaml`` in the model
repository, one value per benchmark task. ``eval_result_entries`` builds them with huggingface_hub's
own ``EvalResultEntry`` and ``eval_result_entries_to_yaml``: one task id per score
(``observed_f1_token``, ``chance_f1_token``, ``corrected_f1_token``; ``..._entity`` at entity
level), so the corrected score is never filed under the task of another score, and notes naming the
system, the level, the span scheme and the random annotation model.

model-index (the legacy format, as ``evaluate.push_to_hub`` writes it): ``model_card`` builds it with
``EvalResult``, ``ModelCardData`` and ``ModelCard``: task ``token-classification``, the dataset, and
the observed, chance and corrected F1 of the ``chance_f1`` metric at the level used, each with the
metric's name and the arguments of its ``compute`` call. No metric here has type ``f1``: that is
seqeval's entity F1, which ``Trainer``'s own model card publishes under it.

Nothing is sent anywhere: push the folder written by ``write_model_repos`` (README.md and
``.eval_results/``) with ``huggingface_hub.upload_folder``, or copy the files into the model repository.
"""

from __future__ import annotations

import math
import numbers
from pathlib import Path

import yaml

from .output_files import write_file

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


def model_card(system: str, scores: dict, metric_args: dict, *, dataset_type: str = "conll2003",
               dataset_name: str = "CoNLL-2003", dataset_split: str | None = "test",
               dataset_config: str | None = None):
    """Write a Hugging Face model card for ``system`` whose metadata holds its scores.

    Parameters
    ----------
    system : str
        The model's name.
    scores : dict
        ``{"observed_f1": ..., "chance_f1": ..., "corrected_f1": ...}``, each a finite number or
        None where undefined (corrected F1 when chance F1 is 1: then the card's text says so and
        model-index leaves it out).
    metric_args : dict
        The keyword arguments given to the metric (``level``, ``model``, ...).
    dataset_type, dataset_name : str
        The evaluation data's Hub id and display name (default ``"conll2003"``, ``"CoNLL-2003"``).
    dataset_split : str or None, default "test"
        The split scored.
    dataset_config : str, optional
        The dataset's configuration.

    Returns
    -------
    huggingface_hub.ModelCard
        Its ``model-index`` metadata carries the three scores as Eval Results.

    Raises
    ------
    ValueError
        A missing score, or one that is not a finite number nor None.

    See Also
    --------
    chance_f1 : The scores.

    Examples
    --------
    >>> card = model_card("sysA", {"observed_f1": 0.9, "chance_f1": 0.2, "corrected_f1": 0.875}, {"level": "token"})
    >>> metrics = card.data.to_dict()["model-index"][0]["results"][0]["metrics"]
    >>> [(metric["name"], metric["value"]) for metric in metrics]  # doctest: +NORMALIZE_WHITESPACE
    [('observed F1 (token level)', 0.9), ('chance F1 (token level)', 0.2),
     ('chance-corrected F1 (token level)', 0.875)]
    """
    from huggingface_hub import ModelCard, ModelCardData

    results = eval_results(scores, metric_args, dataset_type, dataset_name, dataset_split, dataset_config)
    data = ModelCardData(model_name=system, eval_results=results, datasets=[dataset_type],
                         metrics=[METRIC_TYPE], pipeline_tag=TASK_TYPE)
    level = metric_args.get("level", "token")
    lines = [f"# {system}", "",
             f"Scores on {dataset_name}" + (f" ({dataset_split} split)" if dataset_split else "")
             + f", {level} level, from the `{METRIC_TYPE}` metric (chance-agreement):", ""]
    lines += [f"- {metric_name(score, level)}: " + ("undefined" if scores[score] is None
                                                    else f"{float(scores[score]):.4f}")
              for score in SCORES]
    if scores["corrected_f1"] is None:
        lines += ["", "Corrected F1 is undefined here: chance F1 is 1, so there is no room for agreement "
                      "beyond chance."]
    return ModelCard(f"---\n{data.to_yaml()}\n---\n\n" + "\n".join(lines) + "\n")


def task_id(score: str, level: str) -> str:
    """The Eval Results task id of one score at one level, e.g. ``"corrected_f1_token"``."""
    if score not in SCORES:
        raise ValueError(f"score must be one of {list(SCORES)}, got {score!r}")
    return f"{score}_{level}"


def _notes(system: str, score: str, metric_args: dict, dataset_split: str | None) -> str:
    level = metric_args.get("level", "token")
    scheme = metric_args.get("scheme")
    chunking = (f"scheme {scheme}, mode {metric_args.get('mode') or 'default'}" if scheme or metric_args.get("mode")
                else "scheme as seqeval's default chunker (conlleval)")
    return (f"{system}: {_SCORE_NAMES[score]}, {level} level, {chunking}"
            + (", tag suffix" if metric_args.get("suffix") else "")
            + f", random annotation model {metric_args.get('model', 'non_overlapping')}"
            + (f", {dataset_split} split" if dataset_split else "")
            + f"; chance-agreement's {METRIC_TYPE} metric")


def eval_result_entries(system: str, scores: dict, metric_args: dict, *, dataset_id: str,
                        dataset_split: str | None = None, dataset_revision: str | None = None,
                        date: str | None = None, source_url: str | None = None) -> list:
    """One ``huggingface_hub.EvalResultEntry`` per defined score in ``SCORES``, each its own task id
    (a score None, undefined, is left out; NaN or an infinity is refused)."""
    from huggingface_hub import EvalResultEntry

    level = metric_args.get("level", "token")
    return [EvalResultEntry(dataset_id=dataset_id, task_id=task_id(score, level), value=value,
                            dataset_revision=dataset_revision, date=date, source_url=source_url,
                            notes=_notes(system, score, metric_args, dataset_split))
            for score, value in _defined_scores(scores).items()]


def eval_results_yaml(entries: list) -> str:
    """The ``.eval_results/*.yaml`` text of ``entries`` (huggingface_hub's ``eval_result_entries_to_yaml``)."""
    from huggingface_hub import eval_result_entries_to_yaml

    return yaml.safe_dump(eval_result_entries_to_yaml(entries), sort_keys=False, allow_unicode=True, width=10**6)


def eval_results_name(dataset_id: str, level: str) -> str:
    """File name in ``.eval_results/``: ``chance_f1_<dataset>_<level>.yaml``."""
    return f"{METRIC_TYPE}_{_safe(dataset_id.replace('/', '__'))}_{level}.yaml"


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name).strip(".") or "system"


def _root(folder) -> Path:
    root = Path(folder)
    if root.exists() and not root.is_dir():
        raise ValueError(f"{folder}: exists and is not a folder")
    if not root.parent.is_dir():
        raise ValueError(f"{folder}: cannot write: the folder {str(root.parent)!r} does not exist")
    return root


def _targets(items: dict, folder, relative: str, force: bool) -> dict:
    """``{system: folder/<system>/relative}``, refusing before anything is written: two systems
    whose folder names are the same (after ``_safe``, ignoring case, as on case-insensitive file
    systems), and a file already there unless ``force``."""
    root = _root(folder)
    targets: dict = {}
    seen: dict = {}
    for system in items:
        safe = _safe(system)
        if safe.casefold() in seen:
            raise ValueError(f"systems {seen[safe.casefold()]!r} and {system!r} would write to the same folder "
                             f"{str(root / safe)!r}; give them distinct names (--names)")
        seen[safe.casefold()] = system
        targets[system] = root / safe / relative
    existing = [str(target) for target in targets.values() if target.exists()]
    if existing and not force:
        raise ValueError(f"{existing[0]} exists" + (f" (and {len(existing) - 1} more)" if len(existing) > 1 else "")
                         + ": not overwritten; give --force (force=True) to replace it")
    return targets


def _write(items: dict, targets: dict, text) -> list[Path]:
    for system, target in targets.items():
        target.parent.mkdir(parents=True, exist_ok=True)
        write_file(target, text(items[system]))
    return list(targets.values())


def write_model_cards(cards: dict, folder, *, force: bool = False) -> list[Path]:
    """Write ``{system: ModelCard}`` as ``folder/<system>/README.md`` (the folders are created);
    names landing in one folder, and an existing README.md without ``force``, are refused first."""
    return _write(cards, _targets(cards, folder, "README.md", force), str)


def write_eval_results(entries: dict, folder, file_name: str, *, force: bool = False) -> list[Path]:
    """Write ``{system: [EvalResultEntry, ...]}`` as ``folder/<system>/.eval_results/<file_name>``,
    refused as ``write_model_cards`` refuses."""
    return _write(entries, _targets(entries, folder, f".eval_results/{file_name}", force), eval_results_yaml)


def check_model_repos(systems, folder, file_name: str, *, force: bool = False) -> None:
    """Every refusal of ``write_model_repos`` for ``systems`` (names landing in one folder, an
    existing README.md or Eval Results file without ``force``), with nothing written: a command
    calls it before it reads or computes anything."""
    items = dict.fromkeys(systems)
    _targets(items, folder, "README.md", force)
    _targets(items, folder, f".eval_results/{file_name}", force)


def write_model_repos(cards: dict, entries: dict, folder, file_name: str, *, force: bool = False) -> list[Path]:
    """``write_model_cards`` and ``write_eval_results`` in one: the refusals of both are checked
    before either writes a file."""
    readmes = _targets(cards, folder, "README.md", force)
    results = _targets(entries, folder, f".eval_results/{file_name}", force)
    return _write(cards, readmes, str) + _write(entries, results, eval_results_yaml)


__all__ = [
    "METRIC_TYPE",
    "SCORES",
    "TASK_TYPE",
    "check_model_repos",
    "eval_result_entries",
    "eval_results",
    "eval_results_name",
    "eval_results_yaml",
    "metric_name",
    "model_card",
    "task_id",
    "write_eval_results",
    "write_model_cards",
    "write_model_repos",
]
