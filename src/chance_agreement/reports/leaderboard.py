"""Rank NER systems by observed and by chance-corrected F1 (``chance-agreement leaderboard``).

Optionally the sentences are split by chance level as the paper's Table 10 does: subset1 holds
the sentences whose chance F1 is above the split value, subset2 the others (sentences with no
entity on either side have no chance level and go to subset2). Each subset is scored from the
per-sentence statistics, which add up exactly.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from ..chance.chance_corrected import defined_scores, undefined_reason
from ..chance.corrected_f1 import chance_f1, corpus_statistics, scores_from_statistics
from ..chance.random_models import get_model
from ..chance.statistics import LEVELS, ChanceStatistics
from ..ecosystem.model_cards import eval_result_entries, model_card
from ..spans.annotation_set import AnnotationSet, flat_team
from ..spans.annotators import read_annotators
from ..spans.conll import parse_column_spec, read_column_file
from ..spans.tags import paired_scheme
from .command_io import UsageError
from .leaderboard_significance import add_significance, significance_columns
from .progress import progress as show_progress
from .table_output import csv_text, markdown_table

FORMATS = ("markdown", "csv", "json")
SPLIT_BY = ("gold", "system")
SUBSETS = ("subset1", "subset2")
GOLD = "references"  # the gold's name in a board's AnnotationSet (annotator 0)


# --- reading -------------------------------------------------------------------------------------


parse_system_spec = parse_column_spec  # ``FILE`` or ``FILE:COLUMN`` -> (path, column or None)


def system_name(spec: str) -> str:
    path, column = parse_system_spec(spec)
    return Path(path).stem if column is None else f"{Path(path).stem}:{column}"


def load_systems(gold, systems, gold_column: int | None = None, prediction_column: int = -1, names=None,
                 scheme=None, mode=None, suffix=False, notify=None, **read_options):
    """``(references, {name: predictions})`` from a gold file and system files of any format the
    reader registry reads (``spans.annotators.read_annotators``; ``read_options`` go to it).

    A column-file system is ``FILE`` (its ``prediction_column``) or ``FILE:COLUMN``; the gold's tags
    are ``GOLD:COLUMN`` or its ``gold_column``, by default the last column, as ``agreement`` reads a
    file (a CoNLL-2003 file ``token POS chunk NER`` gives its NER tags), or, when the gold file is
    a system file too, the one tag column no system reads (``gold_column_default``). ``notify``
    (a function taking a string) hears which column a default chose when the gold file has more
    than one tag column. Every system must have the gold's documents and tokens (else a
    ValueError names both files and the line or document), and every tag one the chunker takes
    (with these ``scheme``/``mode``/``suffix``), else a ValueError naming its file and line.
    """
    team, system_names = _read_systems(gold, systems, gold_column, prediction_column, names, notify, read_options)
    _, tags = team.flat(scheme=scheme, mode=mode, suffix=suffix)
    return tags[0], dict(zip(system_names, tags[1:], strict=True))


def load_board(gold, systems, gold_column: int | None = None, prediction_column: int = -1, names=None,
               scheme=None, mode=None, suffix=False, notify=None, **read_options) -> AnnotationSet:
    """``load_systems``' gold and systems as the ``AnnotationSet`` ``build_leaderboard`` takes: the
    gold (named ``"references"``) first, then the systems under their names, every file's tags
    chunked once (``flat_team``: a bad tag still named by its file and line).

    Examples
    --------
    >>> board = load_board("examples/eng.testb", ["examples/runs/sysA.tsv", "examples/runs/sysB.tsv"])
    >>> board.names, board.n_items
    (('references', 'sysA', 'sysB'), 8)
    """
    team, system_names = _read_systems(gold, systems, gold_column, prediction_column, names, notify, read_options)
    chunked = flat_team(team, scheme=scheme, mode=mode, suffix=suffix)[2]
    return dataclasses.replace(chunked, names=(GOLD, *system_names))  # a fresh cache (init=False)


def _read_systems(gold, systems, gold_column, prediction_column, names, notify, read_options):
    """``(team, system names)`` of ``load_systems``' files, checked (see there)."""
    if not systems:
        raise UsageError("give at least one system file")
    if names is not None and len(names) != len(systems):
        raise UsageError(f"{len(names)} names for {len(systems)} systems")
    gold_path, chosen = parse_system_spec(gold)
    why = ""
    if chosen is not None:
        own = chosen
    elif gold_column is not None:
        own = gold_column
    else:
        own, why = gold_column_default(gold_path, systems, prediction_column)
        gold_column = own
    for spec in systems:
        path, column = parse_system_spec(spec)
        column = prediction_column if column is None else column
        if str(path) == str(gold_path) and _same_column(gold_path, column, own):
            raise ValueError(f"{spec}: the system column {column} is the gold column "
                             f"{read_column_file(gold_path).resolve(own)} of {gold_path}; give the system's own "
                             f"column (FILE:COLUMN)")
    team = read_annotators([gold, *systems], columns=[gold_column] + [prediction_column] * len(systems), **read_options)
    if len(team.names) != len(systems) + 1:
        raise UsageError(f"the gold and each system must be one annotator; {len(team.names)} annotators found in "
                         f"{[gold, *systems]} (name one column with FILE:COLUMN)")
    read = team.annotators[0]
    if why and notify is not None and read.column_file is not None and len(read.column_file.tag_columns) > 1:
        notify(f"gold: column {read.column} of {gold_path} ({why}; --gold-column N or {gold_path}:N reads another)")
    return team, _system_names(systems, names)


def _system_names(systems, names) -> list[str]:
    """Each system's name: ``names``, else ``system_name`` of its spec; two alike are an error."""
    chosen = list(names) if names is not None else [system_name(spec) for spec in systems]
    for index, name in enumerate(chosen):
        if name in chosen[:index]:
            raise ValueError(f"two systems are named {name!r}; give --names")
    return chosen


def gold_column_default(gold, systems, prediction_column: int = -1) -> tuple[int, str]:
    """The gold's column when none is given, and why: the last column; when the gold file is a
    system file too, the one tag column no system reads.

    Parameters
    ----------
    gold : str or path
        The gold file (without ``:COLUMN``).
    systems : list of str
        The system specs, ``FILE`` or ``FILE:COLUMN``.
    prediction_column : int
        The column of a system given as ``FILE``.

    Returns
    -------
    (int, str)
        The column (-1: the last) and the reason in words.

    Raises
    ------
    UsageError
        When the gold file is a system file too and several tag columns are left for the gold.

    Examples
    --------
    >>> gold_column_default("examples/eng.testb", ["examples/runs/flair.tsv"])
    (-1, 'the last column')
    >>> gold_column_default("examples/merged.tsv", ["examples/merged.tsv:2", "examples/merged.tsv:3",
    ...                                             "examples/merged.tsv:4"])
    (1, 'the one tag column no system reads')
    """
    claimed = [prediction_column if column is None else column
               for path, column in map(parse_system_spec, systems) if str(path) == str(gold)]
    if not claimed:
        return -1, "the last column"
    columns = read_column_file(gold)
    taken = {columns.resolve(column) for column in claimed}
    free = [column for column in columns.tag_columns if column not in taken]
    if len(free) > 1:
        raise UsageError(f"{gold} is the gold file and a system file: which of its columns {free} is the gold? "
                         f"give --gold-column N or {gold}:N")
    if not free:
        return -1, "the last column"  # the system reading it is refused next, naming the column
    return free[0], "the one tag column no system reads"


def _same_column(gold, column: int, gold_column: int) -> bool:
    columns = read_column_file(gold)
    return columns.resolve(column) == columns.resolve(gold_column)


# --- scoring -------------------------------------------------------------------------------------


def competition_ranks(values) -> list[int | None]:
    """Rank 1 for the highest value; ties share the best rank ("1224"); None stays unranked."""
    present = [v for v in values if v is not None]
    return [None if v is None else 1 + sum(other > v for other in present) for v in values]


def sentence_chance(predictions, references, level="token", model="non_overlapping", **span_options):
    """Per-sentence chance F1 (None without entities), from ``chance_f1(..., return_sentence_scores=True)``."""
    result = chance_f1(predictions, references, zero_division=0, model=model, level=level,
                       return_sentence_scores=True, **span_options)
    return [sentence["chance_f1"] for sentence in result["sentence_scores"]]


def split_sentences(chances, split: float) -> dict[str, list[int]]:
    """Sentence indices: subset1 = chance > split; subset2 = chance <= split or undefined."""
    high = [i for i, chance in enumerate(chances) if chance is not None and chance > split]
    chosen = set(high)
    return {"subset1": high, "subset2": [i for i in range(len(chances)) if i not in chosen]}


def _scores(stats: ChanceStatistics, level: str) -> dict:
    """Overall observed, chance and corrected F1; None where undefined (``defined_scores``)."""
    result = defined_scores(lambda fill: scores_from_statistics(stats, level, zero_division=fill))
    return {key: result[f"overall_{key}"] for key in ("observed_f1", "chance_f1", "corrected_f1")}


def undefined_notes(rows) -> list[str]:
    """One note per undefined corrected F1 (overall or in a subset): why, and that it is not ranked."""
    notes = []
    for row in rows:
        for prefix in ("", *(f"{subset}_" for subset in SUBSETS)):
            if f"{prefix}corrected_f1" not in row or row.get(f"{prefix}sentences") == 0:
                continue  # no such subset, or an empty one ("-")
            reason = undefined_reason({key: row[f"{prefix}{key}"] for key in ("observed_f1", "chance_f1",
                                                                               "corrected_f1")})
            if reason is not None:
                notes.append(f"{row['system']}: {prefix.replace('_', ' ')}corrected F1 is undefined: {reason}; "
                             f"not ranked")
    return notes


def _add_ranks(rows, prefix: str = "") -> None:
    for kind in ("observed", "corrected"):
        ranks = competition_ranks([row[f"{prefix}{kind}_f1"] for row in rows])
        for row, rank in zip(rows, ranks, strict=True):
            row[f"{prefix}{kind}_rank"] = rank
    for row in rows:
        before, after = row[f"{prefix}observed_rank"], row[f"{prefix}corrected_rank"]
        row[f"{prefix}rank_change"] = None if before is None or after is None else before - after


def board_set(references, systems: dict | None = None, *, gold: str = GOLD, scheme=None, mode=None,
              suffix: bool = False) -> AnnotationSet:
    """The gold's and the systems' tags as one ``AnnotationSet``, each corpus chunked once: annotator
    0 the gold (named ``gold``), then the systems under their names (``systems``' keys). Strict mode
    without a scheme detects it from the gold, as ``chance_f1`` does. A set given as ``references``
    (``systems`` None) is the board as it is: the one conversion at ``build_leaderboard``'s entry."""
    if isinstance(references, AnnotationSet):
        if systems is not None:
            raise TypeError("build_leaderboard: an AnnotationSet holds the gold and the systems: give it alone")
        references.chunked_as(scheme, mode, suffix, "build_leaderboard")
        if references.n_annotators < 2:
            raise ValueError("no systems to rank")
        return references
    if not systems:
        raise ValueError("no systems to rank")
    resolved = paired_scheme(references, references, scheme, mode, suffix)
    return AnnotationSet.from_tags([references, *systems.values()], names=[gold, *systems], scheme=resolved,
                                   mode=mode, suffix=suffix)


def build_leaderboard(references, systems: dict | None = None, level: str = "token", model: str = "non_overlapping",
                      split: float | None = None, split_by: str = "gold", progress=None,
                      scheme=None, mode=None, suffix=False, confidence_level=None, n_resamples=1000,
                      random_state=None, gold_noise=None) -> dict:
    """Scores, ranks and rank changes of each system, rows sorted by corrected F1.

    ``references`` and ``systems``: the gold's tags and ``{name: tags}``, or one ``AnnotationSet``
    alone (``board_set``, ``load_board``: the gold first, then the systems by name), whose spans
    are not chunked again.

    ``split`` adds subset1 / subset2 columns; ``split_by="gold"`` splits every system's sentences
    alike by the gold annotation's chance level against itself, ``"system"`` by each system's
    chance level against the gold. ``progress`` None shows a bar only on a terminal.
    ``confidence_level`` adds bootstrap intervals and a test against the next system down;
    ``gold_noise`` the noise paper's chance difference (``leaderboard_significance``).
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {list(LEVELS)}, got {level!r}")
    get_model(model)  # a registered name or a RandomModel, else ValueError
    if split_by not in SPLIT_BY:
        raise ValueError(f"split_by must be one of {list(SPLIT_BY)}, got {split_by!r}")
    if split is not None and not 0.0 <= split <= 1.0:
        raise ValueError(f"split must be a chance level in [0, 1], got {split}")
    board = board_set(references, systems, scheme=scheme, mode=mode, suffix=suffix)
    common_split = None
    if split is not None and split_by == "gold":
        common_split = split_sentences(sentence_chance(board.select([0, 0]), None, level, model), split)
    rows = []
    names = board.names[1:]
    for index in show_progress(range(1, len(names) + 1), "scoring systems", unit="system", enabled=progress):
        name, pair = names[index - 1], board.select([0, index])
        total, sentences = corpus_statistics(pair, None, model=model, levels=(level,))
        row = {"system": name, "sentences": len(sentences), **_scores(total, level),
               "_statistics": (total, sentences)}
        if split is not None:
            subsets = common_split or split_sentences(sentence_chance(pair, None, level, model), split)
            for subset in SUBSETS:
                indices = subsets[subset]
                row[f"{subset}_sentences"] = len(indices)
                stats = sum((sentences[i] for i in indices), ChanceStatistics())
                scores = _scores(stats, level) if indices else dict.fromkeys(("observed_f1", "chance_f1",
                                                                              "corrected_f1"))
                for key, value in scores.items():
                    row[f"{subset}_{key}"] = value
                row[f"{subset}_indices"] = indices
        rows.append(row)
    _add_ranks(rows)
    if split is not None:
        for subset in SUBSETS:
            _add_ranks(rows, f"{subset}_")
    rows.sort(key=lambda row: (row["corrected_rank"] is None, row["corrected_rank"] or 0, row["observed_rank"],
                               row["system"]))
    add_significance(rows, level, confidence_level, n_resamples, random_state, gold_noise)
    return {"level": level, "model": model, "split": split, "split_by": split_by if split is not None else None,
            "confidence_level": confidence_level, "gold_noise": gold_noise,
            "span_options": {"scheme": getattr(scheme, "__name__", scheme), "mode": mode, "suffix": suffix},
            "systems": rows, "notes": undefined_notes(rows)}


def metric_args(board: dict) -> dict:
    """The ``chance_f1`` arguments the board's scores were computed with (defaults left out)."""
    args = {"level": board["level"], "model": board["model"]}
    options = board.get("span_options") or {}
    args.update({key: value for key, value in options.items() if value not in (None, False)})
    return args


def model_cards(board: dict, dataset_type: str = "conll2003", dataset_name: str = "CoNLL-2003",
                dataset_split: str | None = "test", dataset_config: str | None = None) -> dict:
    """``{system: huggingface_hub.ModelCard}``: per system the model-index metadata that
    ``evaluate.push_to_hub`` writes (see ``ecosystem.model_cards``), at the board's level."""

    return {row["system"]: model_card(row["system"], row, metric_args(board), dataset_type=dataset_type,
                                      dataset_name=dataset_name, dataset_split=dataset_split,
                                      dataset_config=dataset_config)
            for row in board["systems"]}


def eval_results(board: dict, dataset_id: str = "conll2003", dataset_split: str | None = "test") -> dict:
    """``{system: [huggingface_hub.EvalResultEntry, ...]}``: per system one Eval Results entry per
    score, each its own task id (see ``ecosystem.model_cards``), at the board's level."""
    return {row["system"]: eval_result_entries(row["system"], row, metric_args(board), dataset_id=dataset_id,
                                               dataset_split=dataset_split)
            for row in board["systems"]}


# --- output --------------------------------------------------------------------------------------


def _columns(board: dict) -> list[tuple[str, str]]:
    """(key, Markdown header) pairs, in table order."""
    columns = [("system", "system"), ("observed_f1", "Obs F1"), ("observed_rank", "Obs rank"),
               ("chance_f1", "Chance F1"), ("corrected_f1", "Cor F1"), ("corrected_rank", "Cor rank"),
               ("rank_change", "change")]
    columns += significance_columns(board)
    if board["split"] is not None:
        for subset in SUBSETS:
            columns += [(f"{subset}_sentences", f"{subset} sentences"),
                        (f"{subset}_observed_f1", f"{subset} Obs"), (f"{subset}_observed_rank", "rank"),
                        (f"{subset}_corrected_f1", f"{subset} Cor"), (f"{subset}_corrected_rank", "rank"),
                        (f"{subset}_rank_change", "change")]
    return columns


def _cell(key: str, value, digits: int, row: dict | None = None) -> str:
    if value is None:  # an undefined score of a scored (sub)set, else nothing to show
        score = next((name for name in ("observed_f1", "chance_f1", "corrected_f1") if key.endswith(name)), None)
        scored = score is not None and row is not None and row.get(f"{key[:-len(score)]}sentences", 0) > 0
        return "undefined" if scored else "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if key.endswith("rank_change"):
        return f"{value:+d}" if value else "0"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def to_markdown(board: dict, digits: int = 4) -> str:
    columns = _columns(board)
    split_note = ""
    if board["split"] is not None:
        split_note = (f"; subset1: sentences with chance F1 > {board['split']}, subset2: the others "
                      "(chance level of the "
                      f"{'gold against itself' if board['split_by'] == 'gold' else 'system against the gold'})")
    lines = [f"Systems ranked by corrected F1 ({board['level']} level, {board['model']} random model; "
             f"change = observed rank - corrected rank{split_note}).", ""]
    lines += markdown_table([header for _, header in columns],
                            [[_cell(key, row[key], digits, row) for key, _ in columns] for row in board["systems"]])
    notes = board.get("notes") or []
    lines += [""] * bool(notes) + [f"note: {note}" for note in notes]
    return "\n".join(lines) + "\n"


def _plain_rows(board: dict) -> list[dict]:
    return [{key: value for key, value in row.items() if not key.endswith("_indices")} for row in board["systems"]]


def to_csv(board: dict) -> str:
    rows = _plain_rows(board)
    return csv_text(list(rows[0]), [list(row.values()) for row in rows])


def to_json(board: dict) -> str:
    return json.dumps({**board, "systems": _plain_rows(board)}, indent=2) + "\n"


def render(board: dict, fmt: str = "markdown", digits: int = 4) -> str:
    if fmt == "markdown":
        return to_markdown(board, digits)
    if fmt == "csv":
        return to_csv(board)
    if fmt == "json":
        return to_json(board)
    raise ValueError(f"format must be one of {list(FORMATS)}, got {fmt!r}")


__all__ = [
    "FORMATS",
    "SPLIT_BY",
    "SUBSETS",
    "board_set",
    "build_leaderboard",
    "competition_ranks",
    "eval_results",
    "gold_column_default",
    "load_board",
    "load_systems",
    "metric_args",
    "model_cards",
    "parse_system_spec",
    "render",
    "sentence_chance",
    "split_sentences",
    "system_name",
    "to_csv",
    "to_json",
    "to_markdown",
    "undefined_notes",
]
