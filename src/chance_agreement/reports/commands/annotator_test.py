"""``chance-agreement annotator-test HUMANS... --candidate FILE``: is a candidate as good as one more
human, on chance-corrected span F1 (``chance.annotator_test``, ``reports.annotator_report``)."""

from __future__ import annotations

from ...chance.annotator_test import UNPARSED
from ...chance.random_models import model_names
from ...chance.statistics import LEVELS
from ..annotator_report import FORMATS, read_team, render, run_test
from ..command_io import (
    Command,
    UsageError,
    add_input_options,
    add_renamed_option,
    add_span_options,
    check_outputs,
    closed_fraction,
    emit,
    input_files,
    open_fraction,
    positive_number,
    read_options,
    split_names,
    whole_number,
)


def run(args) -> int:
    check_outputs({"--output": args.output}, input_files(args.humans + args.candidate, args.typesystem))
    if args.margin >= 1.0:
        raise UsageError(f"--margin {args.margin} is not below 1: give the corrected F1 a candidate may lose, "
                         "e.g. 0.05")
    if args.alpha >= 0.5:
        raise UsageError(f"--alpha {args.alpha} is not below 0.5")
    span = {"scheme": args.scheme, "mode": args.mode, "suffix": args.suffix}
    team = read_team(args.humans, args.candidate, column=args.column, human_names=split_names(args.names),
                     candidate_names=split_names(args.candidate_names), crossing=args.crossing, **span,
                     **read_options(args))
    report = run_test(team, margin=args.margin, level=args.level, model=args.model, alpha=args.alpha,
                      equivalence=args.equivalence, n_resamples=args.n_resamples, random_state=args.random_state,
                      **span)
    emit(render(report, args.format, args.digits), args.output)
    return 0


def arguments(parser) -> None:
    parser.add_argument("humans", nargs="+", metavar="HUMAN",
                        help="the humans' annotation files, any supported format (FILE:COLUMN for a column file)")
    parser.add_argument("--candidate", action="append", required=True, metavar="FILE",
                        help="a candidate's annotations (a column file: its last column, or FILE:COLUMN); repeat "
                             "for several candidates")
    parser.add_argument("--margin", type=closed_fraction, required=True,
                        help="corrected F1 the candidate may lose against a human and still count as one (e.g. 0.05)")
    parser.add_argument("--alpha", type=open_fraction, default=0.05, help="level of each one-sided test (default 0.05)")
    parser.add_argument("--equivalence", action="store_true", help="also test the upper side (TOST)")
    parser.add_argument("--names", help="comma-separated human names (default: the ids in the files, else file names)")
    parser.add_argument("--candidate-names", help="comma-separated candidate names")
    parser.add_argument("--column", type=int, default=None,
                        help="0-based tag column of column files (default: the last)")
    parser.add_argument("--level", choices=LEVELS, default="token")
    parser.add_argument("--model", choices=model_names(), default="non_overlapping", help="random annotation model")
    parser.add_argument("--n-resamples", type=positive_number, default=1000, help="bootstrap resamples (default 1000)")
    parser.add_argument("--random-state", type=whole_number, default=0, help="seed of the bootstrap (default 0)")
    add_renamed_option(parser, "--resamples", "--n-resamples", type=positive_number)
    add_renamed_option(parser, "--seed", "--random-state", type=whole_number)
    parser.add_argument("--format", choices=FORMATS, default="text")
    parser.add_argument("--digits", type=whole_number, default=4, help="decimals in text")
    add_span_options(parser)
    add_input_options(parser)


COMMAND = Command(
    "annotator-test", "is a candidate annotator (an LLM, a model) as good as one more human, on corrected F1",
    arguments, run,
    "For each human h: the candidate's chance-corrected F1 against the other humans minus h's own (the advantage of "
    "replacing h); their mean tested against -margin by a paired sentence bootstrap; per-human tests with "
    f"Benjamini-Yekutieli control and the winning rate (the alt-test). Verdicts: non-inferior, equivalent (with "
    f"--equivalence), inferior, inconclusive. Files of any format agreement reads. Unparsed policies of the Python "
    f"function: {', '.join(UNPARSED)}.")

__all__ = ["COMMAND"]
