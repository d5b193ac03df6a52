"""``chance-agreement leaderboard GOLD SYSTEM ...``: systems ranked by observed and by chance-corrected F1."""

from __future__ import annotations

import sys

from ...chance.random_models import model_names
from ...chance.statistics import LEVELS
from ...ecosystem.model_cards import check_model_repos, eval_results_name, write_model_repos
from ..command_io import (
    Command,
    UsageError,
    add_input_options,
    add_span_options,
    check_outputs,
    closed_fraction,
    emit,
    input_files,
    note,
    open_fraction,
    positive_number,
    read_options,
    split_names,
    whole_number,
)
from ..leaderboard import (
    FORMATS,
    SPLIT_BY,
    build_leaderboard,
    eval_results,
    load_board,
    model_cards,
    render,
    system_name,
)
from ..plots import plot_leaderboard, require_matplotlib


def run(args) -> int:
    if args.model_cards and not args.dataset:
        raise UsageError("--model-cards needs --dataset ID, the Hub dataset the systems were scored on (e.g. "
                         "eriktks/conll2003): the cards must not claim a dataset you did not name")
    check_outputs({"--output": args.output, "--plot": args.plot},
                  input_files([args.gold, *args.systems], args.typesystem))
    if args.plot:  # a missing matplotlib is said before any file is read or score computed
        try:
            require_matplotlib()
        except ImportError as error:
            raise ValueError(str(error)) from None
    names = split_names(args.names)
    if args.model_cards:  # every refusal before anything is read, computed or written
        check_model_repos(names or [system_name(spec) for spec in args.systems], args.model_cards,
                          eval_results_name(args.dataset, args.level), force=args.force)
    notes: list[str] = []  # said after the result, so that a failure stays one line
    systems = load_board(args.gold, args.systems, args.gold_column, args.prediction_column, names,
                         scheme=args.scheme, mode=args.mode, suffix=args.suffix, notify=notes.append,
                         **read_options(args))
    board = build_leaderboard(systems, level=args.level, model=args.model, split=args.split,
                              split_by=args.split_by, scheme=args.scheme, mode=args.mode, suffix=args.suffix,
                              confidence_level=args.confidence_level, n_resamples=args.n_resamples,
                              random_state=args.random_state, gold_noise=args.gold_noise,
                              progress=False if args.quiet else None)
    emit(render(board, args.format, args.digits), args.output)
    for text in notes:
        note(text)
    if args.model_cards:
        _write_model_repos(board, args)
    if args.plot:
        plot_leaderboard(board, args.plot)
    return 0


def _write_model_repos(board: dict, args) -> None:
    """``--model-cards DIR``: per system a model repository folder with both Hub formats."""
    split = args.dataset_split or None
    cards = model_cards(board, args.dataset, args.dataset_name or args.dataset, split, args.dataset_config)
    written = write_model_repos(cards, eval_results(board, args.dataset, split), args.model_cards,
                                eval_results_name(args.dataset, board["level"]), force=args.force)
    for path in written:
        print(path, file=sys.stderr)


def arguments(parser) -> None:
    parser.add_argument("gold", help="the gold annotation: a column file (its --gold-column) or any supported format")
    parser.add_argument("systems", nargs="+", metavar="SYSTEM",
                        help="one file per system: CoNLL 'token gold pred' (or FILE:COLUMN, 0-based) or any supported "
                             "format")
    parser.add_argument("--gold-column", type=int, default=None,
                        help="0-based column of the gold tags (default: the last, as agreement reads a file; when "
                             "the gold file is a system file too, the one tag column no system reads)")
    parser.add_argument("--prediction-column", type=int, default=-1,
                        help="0-based column of the predicted tags in the system files (default: last)")
    parser.add_argument("--names", help="comma-separated system names (default: file names)")
    parser.add_argument("--level", choices=LEVELS, default="token")
    parser.add_argument("--model", choices=model_names(), default="non_overlapping")
    parser.add_argument("--split", type=closed_fraction, default=None,
                        help="also score sentences with chance F1 above / at most this value (paper: 0.825)")
    parser.add_argument("--split-by", choices=SPLIT_BY, default="gold",
                        help="whose chance level splits the sentences (default: the gold against itself)")
    parser.add_argument("--confidence-level", type=open_fraction, default=None,
                        help="add bootstrap intervals of corrected F1 and a test against the next system down")
    parser.add_argument("--n-resamples", type=positive_number, default=1000,
                        help="bootstrap resamples and permutations")
    parser.add_argument("--random-state", type=whole_number, default=None, help="seed of the bootstrap and the test")
    parser.add_argument("--gold-noise", type=open_fraction, default=None,
                        help="share of noisy items in the gold: adds the noise paper's chance difference")
    parser.add_argument("--format", choices=FORMATS, default="markdown")
    parser.add_argument("--plot", metavar="FILE.png", help="draw observed against corrected F1 per system")
    parser.add_argument("--digits", type=whole_number, default=4, help="decimals in the Markdown table")
    parser.add_argument("--model-cards", metavar="DIR",
                        help="write DIR/<system>/ as a model repository: .eval_results/*.yaml (Eval Results, one "
                             "task per score) and README.md (model-index, what evaluate.push_to_hub writes), "
                             "each with the system's observed, chance and corrected F1")
    parser.add_argument("--force", action="store_true",
                        help="replace model cards and Eval Results already in --model-cards (never done without it)")
    parser.add_argument("--dataset", default=None,
                        help="the Hub dataset id the systems were scored on (e.g. eriktks/conll2003): required with "
                             "--model-cards")
    parser.add_argument("--dataset-name", default=None,
                        help="dataset name in the model cards (default: the --dataset id)")
    parser.add_argument("--dataset-split", default="test", help="dataset split in the model cards ('' for none)")
    parser.add_argument("--dataset-config", default=None, help="dataset configuration in the model cards")
    add_span_options(parser)
    add_input_options(parser)


COMMAND = Command("leaderboard", "rank systems by observed and by chance-corrected F1", arguments, run,
                  output="the table")

__all__ = ["COMMAND"]
