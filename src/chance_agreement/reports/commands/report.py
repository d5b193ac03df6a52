"""``chance-agreement report A B ... -o REPORT.html``: one self-contained HTML page (``html_report``)."""

from __future__ import annotations

import sys

from ...chance.random_models import model_names
from ...chance.statistics import LEVELS
from ..annotator_report import read_team, run_test
from ..command_io import (
    Command,
    UsageError,
    add_input_options,
    add_renamed_option,
    add_span_options,
    check_outputs,
    gamma_samples,
    input_files,
    open_fraction,
    positive_number,
    read_options,
    split_names,
    whole_number,
)
from ..html_report import MAX_SENTENCES, html_report, load_annotation_set


def run(args) -> int:
    check_outputs({"--output": args.output}, input_files(args.annotations, args.typesystem))
    names = split_names(args.names)
    if args.leaderboard and len(args.annotations) < 2:
        raise UsageError("--leaderboard needs a gold file and at least one system")
    span = {"scheme": args.scheme, "mode": args.mode, "suffix": args.suffix}
    notes: list = []
    documents: list = []
    tokens, annotations = load_annotation_set(args.annotations, names, args.reference_column, args.prediction_column,
                                           crossing=args.crossing, notes=notes, partial=not args.leaderboard,
                                           documents=documents, redact=args.redact, **span, **read_options(args))
    tested = candidate_test(args, names, span) if args.candidate else None
    html_report(tokens, annotations, args.output, reading_notes=notes, leaderboard=args.leaderboard, level=args.level,
                model=args.model,
                max_sentences=args.max_sentences, title=args.title,
                confidence_level=None if args.no_intervals else args.confidence_level,
                n_resamples=args.n_resamples, random_state=args.random_state, gamma_samples=args.gamma_samples,
                gamma_sampler=args.gamma_sampler, annotator_test=tested, documents=documents, **span)
    print(args.output)
    sys.stdout.flush()
    return 0


def candidate_test(args, names, span) -> dict:
    """The annotator test of ``--candidate`` files against the report's annotations as the humans."""
    if args.margin is None:
        raise UsageError("--candidate needs --margin (the corrected F1 a candidate may lose against a human)")
    team = read_team(args.annotations, args.candidate, human_names=names, crossing=args.crossing, **span,
                     **read_options(args))
    return run_test(team, margin=args.margin, level=args.level, model=args.model, n_resamples=args.n_resamples,
                    random_state=args.random_state, **span)


def arguments(parser) -> None:
    parser.add_argument("annotations", nargs="+", metavar="FILE[:COLUMN]",
                        help="annotation files of any supported format (first: the reference or gold; FILE:COLUMN "
                             "picks a 0-based column of a column file; one file holding several annotators is enough)")
    parser.add_argument("--leaderboard", action="store_true",
                        help="the first file is the gold standard, the others systems to rank")
    parser.add_argument("--names", help="comma-separated names of the annotations (default: ids or file names)")
    parser.add_argument("--title", help="the page's title")
    parser.add_argument("--reference-column", type=int, default=1,
                        help="0-based tag column of the first column file when it has no :COLUMN (default 1)")
    parser.add_argument("--prediction-column", type=int, default=-1,
                        help="0-based tag column of the other column files when they have no :COLUMN (default: last)")
    parser.add_argument("--level", choices=LEVELS, default="token")
    parser.add_argument("--model", choices=model_names(), default="non_overlapping")
    parser.add_argument("--max-sentences", type=whole_number, default=MAX_SENTENCES,
                        help=f"sentences with the most disagreement to show (default {MAX_SENTENCES})")
    parser.add_argument("--confidence-level", type=open_fraction, default=0.95,
                        help="bootstrap interval level, when chance_f1 computes intervals (default 0.95)")
    parser.add_argument("--n-resamples", type=positive_number, default=1000, help="bootstrap resamples (default 1000)")
    parser.add_argument("--random-state", type=whole_number, default=0, help="seed of the bootstrap (default 0)")
    add_renamed_option(parser, "--resamples", "--n-resamples", type=positive_number)
    add_renamed_option(parser, "--seed", "--random-state", type=whole_number)
    parser.add_argument("--no-intervals", action="store_true", help="do not ask for intervals")
    parser.add_argument("--gamma-samples", type=gamma_samples, default=0, metavar="N",
                        help="add gamma and its alignment of the most disordered sentences, with N random continua")
    parser.add_argument("--gamma-sampler", default="statistical",
                        help="gamma's random continua: statistical (default), shuffle or random_model")
    parser.add_argument("--candidate", action="append", metavar="FILE",
                        help="add the annotator test of this candidate against the annotations as humans (repeat "
                             "for several; see annotator-test)")
    parser.add_argument("--margin", type=open_fraction, default=None, help="the annotator test's margin")
    parser.add_argument("--redact", action="store_true",
                        help="no token text in the output: tokens shown as their positions, spans as type and "
                             "offsets (for text that may not leave its system, e.g. patient records)")
    add_span_options(parser)
    add_input_options(parser)


COMMAND = Command("report", "one self-contained HTML page about the agreement of annotations", arguments, run,
                  output="the page", output_required=True, output_metavar="REPORT.html")

__all__ = ["COMMAND"]
