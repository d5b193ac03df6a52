"""Rank NER systems by observed and by chance-corrected F1 (``chance-agreement leaderboard``).

Optionally the sentences are split by chance level as the paper's Table 10 does: subset1 holds
the sentences whose chance F1 is above the split value, subset2 the others (sentences with no
entity on either side have no chance level and go to subset2). Each subset is scored from the
per-sentence statistics, which add up exactly.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..chance.corrected_f1 import (
    LEVELS,
    ChanceStatistics,
    chance_f1,
    corpus_statistics,
    no_room_beyond_chance,
    scores_from_statistics,
)
from ..spans.conll import check_same_tokens, check_tag_columns, parse_column_spec, read_column_file
from ..chance.random_model import MODELS
from .command_io import UsageError, add_span_options, check_output_path, emit, open_fraction
from .leaderboard_significance import add_significance, significance_columns
from .progress import add_quiet_option
from .progress import progress as show_progress
from .table_output import csv_text, markdown_table

FORMATS = ("markdown", "csv", "json")
SPLIT_BY = ("gold", "system")
SUBSETS = ("subset1", "subset2")


# --- reading -------------------------------------------------------------------------------------


parse_system_spec = parse_column_spec  # ``FILE`` or ``FILE:COLUMN`` -> (path, column or None)


def system_name(spec: str) -> str:
    path, column = parse_system_spec(spec)
    return Path(path).stem if column is None else f"{Path(path).stem}:{column}"


def check_alignment(gold_tokens, system_tokens, source) -> None:
    """ValueError naming ``source`` and the first sentence whose tokens differ from the gold's
    (for token lists; files are compared line by line with ``spans.conll.check_same_tokens``)."""
    if len(system_tokens) != len(gold_tokens):
        raise ValueError(f"{source}: {len(system_tokens)} sentences, the gold file has {len(gold_tokens)}")
    for number, (gold, system) in enumerate(zip(gold_tokens, system_tokens), start=1):
        if gold != system:
            if len(gold) != len(system):
                problem = f"{len(system)} tokens, the gold has {len(gold)}"
            else:
                position = next(i for i, (g, s) in enumerate(zip(gold, system)) if g != s)
                problem = f"token {position + 1} is {system[position]!r}, the gold has {gold[position]!r}"
            raise ValueError(f"{source}: sentence {number}: {problem}")


def load_systems(gold, systems, gold_column: int = 1, prediction_column: int = -1, names=None,
                 scheme=None, mode=None, suffix=False):
    """``(references, {name: predictions})`` from a gold column file and system column files.

    A system is ``FILE`` (its ``prediction_column``) or ``FILE:COLUMN``. Every system's tokens
    must equal the gold's, sentence by sentence (else a ValueError names both files and lines). A tag the chunker cannot take (with these
    ``scheme``/``mode``/``suffix``) is a ValueError naming its file and 1-based line.
    """
    if not systems:
        raise UsageError("give at least one system file")
    if names is not None and len(names) != len(systems):
        raise UsageError(f"{len(names)} names for {len(systems)} systems")
    gold_file = read_column_file(gold)
    references = gold_file.column(gold_column)
    scheme = check_tag_columns(gold_file, [gold_column], scheme, mode, suffix)
    predictions: dict[str, list] = {}
    for index, spec in enumerate(systems):
        path, column = parse_system_spec(spec)
        system_file = gold_file if str(path) == str(gold) else read_column_file(path)
        column = prediction_column if column is None else column
        if system_file is gold_file and system_file.resolve(column) == system_file.resolve(gold_column):
            raise ValueError(f"{spec}: the system column {column} is the gold column {gold_column} of "
                             f"{gold_file.name}; give the system's own column (FILE:COLUMN)")
        tags = system_file.column(column)
        check_same_tokens(gold_file, system_file)
        check_tag_columns(system_file, [column], scheme, mode, suffix)
        name = names[index] if names is not None else system_name(spec)
        if name in predictions:
            raise ValueError(f"two systems are named {name!r}; give --names")
        predictions[name] = tags
    return references, predictions


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
    """Overall observed, chance and corrected F1; corrected None where it is undefined (chance F1 1)."""
    result = scores_from_statistics(stats, level, zero_division=0)
    chance = result["overall_chance_f1"]
    return {"observed_f1": result["overall_observed_f1"], "chance_f1": chance,
            "corrected_f1": None if no_room_beyond_chance(chance) else result["overall_corrected_f1"]}


def undefined_notes(rows) -> list[str]:
    """One note per undefined corrected F1 (overall or in a subset): why, and that it is not ranked."""
    notes = []
    for row in rows:
        for prefix in ("", *(f"{subset}_" for subset in SUBSETS)):
            chance = row.get(f"{prefix}chance_f1")
            if chance is None or row[f"{prefix}corrected_f1"] is not None:
                continue
            why = ("both cover every token" if chance <= 1.0 else
                   "random segments stack under the overlapping model")
            notes.append(f"{row['system']}: {prefix.replace('_', ' ')}corrected F1 is undefined: chance F1 is "
                         f"{chance:.6g} ({why}), no room for agreement beyond chance; not ranked")
    return notes


def _add_ranks(rows, prefix: str = "") -> None:
    for kind in ("observed", "corrected"):
        ranks = competition_ranks([row[f"{prefix}{kind}_f1"] for row in rows])
        for row, rank in zip(rows, ranks):
            row[f"{prefix}{kind}_rank"] = rank
    for row in rows:
        before, after = row[f"{prefix}observed_rank"], row[f"{prefix}corrected_rank"]
        row[f"{prefix}rank_change"] = None if before is None or after is None else before - after


def build_leaderboard(references, systems: dict, level: str = "token", model: str = "non_overlapping",
                      split: float | None = None, split_by: str = "gold", progress=None,
                      scheme=None, mode=None, suffix=False, confidence_level=None, n_resamples=1000,
                      random_state=None, gold_noise=None) -> dict:
    """Scores, ranks and rank changes of each system, rows sorted by corrected F1.

    ``split`` adds subset1 / subset2 columns; ``split_by="gold"`` splits every system's sentences
    alike by the gold annotation's chance level against itself, ``"system"`` by each system's
    chance level against the gold. ``progress`` None shows a bar only on a terminal.
    ``confidence_level`` adds bootstrap intervals and a test against the next system down;
    ``gold_noise`` the noise paper's chance difference (``leaderboard_significance``).
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {list(LEVELS)}, got {level!r}")
    if model not in MODELS:
        raise ValueError(f"model must be one of {list(MODELS)}, got {model!r}")
    if split_by not in SPLIT_BY:
        raise ValueError(f"split_by must be one of {list(SPLIT_BY)}, got {split_by!r}")
    if split is not None and not 0.0 <= split <= 1.0:
        raise ValueError(f"split must be a chance level in [0, 1], got {split}")
    if not systems:
        raise ValueError("no systems to rank")
    span_options = {"scheme": scheme, "mode": mode, "suffix": suffix}
    common_split = None
    if split is not None and split_by == "gold":
        common_split = split_sentences(sentence_chance(references, references, level, model, **span_options), split)
    rows = []
    for name in show_progress(list(systems), "scoring systems", unit="system", enabled=progress):
        predictions = systems[name]
        total, sentences = corpus_statistics(predictions, references, model=model, levels=(level,), **span_options)
        row = {"system": name, "sentences": len(sentences), **_scores(total, level),
               "_statistics": (total, sentences)}
        if split is not None:
            subsets = common_split or split_sentences(
                sentence_chance(predictions, references, level, model, **span_options), split)
            for subset in SUBSETS:
                indices = subsets[subset]
                row[f"{subset}_sentences"] = len(indices)
                stats = sum((sentences[i] for i in indices), ChanceStatistics())
                scores = _scores(stats, level) if indices else dict.fromkeys(("observed_f1", "chance_f1", "corrected_f1"))
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
    from ..ecosystem.model_cards import model_card

    return {row["system"]: model_card(row["system"], row, metric_args(board), dataset_type, dataset_name,
                                      dataset_split, dataset_config)
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
    if value is None:
        defined_chance = row is not None and row.get(key.replace("corrected_f1", "chance_f1")) is not None
        return "undefined" if key.endswith("corrected_f1") and defined_chance else "-"
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
                      f"(chance level of the {'gold against itself' if board['split_by'] == 'gold' else 'system against the gold'})")
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


# --- command line --------------------------------------------------------------------------------


def _run(args) -> int:
    names = args.names.split(",") if args.names else None
    for path in (args.output, args.plot):
        if path:
            check_output_path(path)
    references, systems = load_systems(args.gold, args.systems, args.gold_column, args.prediction_column, names,
                                       scheme=args.scheme, mode=args.mode, suffix=args.suffix)
    board = build_leaderboard(references, systems, level=args.level, model=args.model, split=args.split,
                              split_by=args.split_by, scheme=args.scheme, mode=args.mode, suffix=args.suffix,
                              confidence_level=args.confidence_level, n_resamples=args.n_resamples,
                              random_state=args.random_state, gold_noise=args.gold_noise,
                              progress=False if args.quiet else None)
    emit(render(board, args.format, args.digits), args.output)
    if args.model_cards:
        from ..ecosystem.model_cards import write_model_cards

        cards = model_cards(board, args.dataset, args.dataset_name or args.dataset, args.dataset_split or None,
                            args.dataset_config)
        for path in write_model_cards(cards, args.model_cards, force=args.force):
            print(path, file=sys.stderr)
    if args.plot:
        from .plots import plot_leaderboard

        try:
            plot_leaderboard(board, args.plot)
        except ImportError as error:
            raise ValueError(str(error)) from None
    return 0


def register(commands) -> None:
    """Add the ``leaderboard`` sub-command to the CLI's subparsers."""
    parser = commands.add_parser("leaderboard", help="rank systems by observed and by chance-corrected F1")
    parser.add_argument("gold", help="CoNLL column file with the gold tags")
    parser.add_argument("systems", nargs="+", metavar="SYSTEM",
                        help="CoNLL file 'token gold pred' (or FILE:COLUMN, 0-based) per system")
    parser.add_argument("--gold-column", type=int, default=1, help="0-based column of the gold tags (default 1)")
    parser.add_argument("--prediction-column", type=int, default=-1,
                        help="0-based column of the predicted tags in the system files (default: last)")
    parser.add_argument("--names", help="comma-separated system names (default: file names)")
    parser.add_argument("--level", choices=LEVELS, default="token")
    parser.add_argument("--model", choices=MODELS, default="non_overlapping")
    parser.add_argument("--split", type=float, default=None,
                        help="also score sentences with chance F1 above / at most this value (paper: 0.825)")
    parser.add_argument("--split-by", choices=SPLIT_BY, default="gold",
                        help="whose chance level splits the sentences (default: the gold against itself)")
    parser.add_argument("--confidence-level", type=open_fraction, default=None,
                        help="add bootstrap intervals of corrected F1 and a test against the next system down")
    parser.add_argument("--n-resamples", type=int, default=1000, help="bootstrap resamples and permutations")
    parser.add_argument("--random-state", type=int, default=None, help="seed of the bootstrap and the test")
    parser.add_argument("--gold-noise", type=open_fraction, default=None,
                        help="share of noisy items in the gold: adds the noise paper's chance difference")
    parser.add_argument("--format", choices=FORMATS, default="markdown")
    parser.add_argument("--output", help="write the table to this file instead of standard output")
    parser.add_argument("--plot", metavar="FILE.png", help="draw observed against corrected F1 per system")
    parser.add_argument("--digits", type=int, default=4, help="decimals in the Markdown table")
    parser.add_argument("--model-cards", metavar="DIR",
                        help="write DIR/<system>/README.md: a model card whose metadata lists the system's "
                             "observed, chance and corrected F1 (what evaluate.push_to_hub writes)")
    parser.add_argument("--force", action="store_true",
                        help="replace model cards already in --model-cards (never done without it)")
    parser.add_argument("--dataset", default="conll2003", help="dataset id in the model cards (default conll2003)")
    parser.add_argument("--dataset-name", default="CoNLL-2003", help="dataset name in the model cards")
    parser.add_argument("--dataset-split", default="test", help="dataset split in the model cards ('' for none)")
    parser.add_argument("--dataset-config", default=None, help="dataset configuration in the model cards")
    add_span_options(parser)
    add_quiet_option(parser)
    parser.set_defaults(run=_run)
