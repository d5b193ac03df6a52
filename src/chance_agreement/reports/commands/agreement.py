"""``chance-agreement agreement A B ...``: one report on two or more annotators (``team_report``)."""

from __future__ import annotations

from ...chance.random_models import model_names
from ..command_io import (
    Command,
    add_input_options,
    add_renamed_option,
    add_span_options,
    check_outputs,
    emit,
    gamma_samples,
    input_files,
    open_fraction,
    positive_number,
    read_options,
    split_names,
    whole_number,
)
from ..team_report import FORMATS, build_report, load_annotations, render


def arguments(parser) -> None:
    parser.add_argument("annotators", nargs="+", metavar="ANNOTATOR",
                        help="annotation files of any supported format (FILE:COLUMN for a column file); one file "
                             "holding several annotators alone is enough")
    parser.add_argument("--column", type=int, default=None,
                        help="0-based tag column of column files (default: the last; a file alone: every tag column)")
    parser.add_argument("--names",
                        help="comma-separated annotator names (default: the ids in the files, else file names)")
    parser.add_argument("--model", choices=model_names(), default="non_overlapping", help="random annotation model")
    parser.add_argument("--confidence-level", type=open_fraction, default=0.95,
                        help="confidence level of the noise bound and of --intervals (default 0.95)")
    add_renamed_option(parser, "--confidence", "--confidence-level", type=open_fraction)
    parser.add_argument("--max-noise", type=open_fraction, default=0.05, help="noise level for tolerable disagreements")
    parser.add_argument("--intervals", action="store_true",
                        help="add sentence-bootstrap intervals of the corrected F1 at --confidence-level, for two "
                             "annotators or a team")
    parser.add_argument("--n-resamples", type=positive_number, default=1000, help="bootstrap resamples (default 1000)")
    parser.add_argument("--random-state", type=whole_number, default=0, help="seed of the bootstrap (default 0)")
    parser.add_argument("--format", choices=FORMATS, default="text")
    parser.add_argument("--digits", type=whole_number, default=4, help="decimals in text and Markdown")
    parser.add_argument("--gamma-samples", type=gamma_samples, default=0, metavar="N",
                        help="add gamma (Mathet et al. 2015) with N random continua (default 0: no gamma)")
    parser.add_argument("--gamma-sampler", default="statistical",
                        help="random continua of gamma's expected disorder: statistical (default), shuffle or "
                             "random_model (the random annotation model of chance F1)")
    parser.add_argument("--redact", action="store_true",
                        help="no token text in the output: tokens shown as their positions, spans as type and "
                             "offsets (for text that may not leave its system, e.g. patient records)")
    add_span_options(parser)
    add_input_options(parser)


def run(args) -> int:
    check_outputs({"--output": args.output}, input_files(args.annotators, args.typesystem))
    span = {"scheme": args.scheme, "mode": args.mode, "suffix": args.suffix}
    annotations = load_annotations(args.annotators, args.column, split_names(args.names), **span,
                                   crossing=args.crossing, redact=args.redact, **read_options(args))
    report = build_report(annotations, model=args.model, confidence_level=args.confidence_level,
                          max_noise=args.max_noise, progress=False if args.quiet else None,
                          gamma_samples=args.gamma_samples, gamma_sampler=args.gamma_sampler,
                          intervals=args.intervals, n_resamples=args.n_resamples, random_state=args.random_state,
                          **span)
    emit(render(report, args.format, args.digits), args.output)
    return 0


COMMAND = Command(
    "agreement", "one report on two or more annotators: chance-corrected F1, coefficients, noise bound", arguments, run,
    output="the report", description=
    "Annotators come from files of any supported format, detected by content: CoNLL column files (their last "
    "column, FILE:COLUMN, or one file whose tag columns are the annotators), JSONL, brat, Label Studio, doccano, "
    "Prodigy, INCEpTION (CAS JSON/XMI, WebAnno TSV). A file holding several annotators gives them all, named by "
    "their ids. A document must hold the same tokens for every annotator; annotators may hold different "
    "documents (each pair is scored on the documents both hold; the report says the coverage); the first "
    "annotator is the reference.")

__all__ = ["COMMAND", "whole_number"]
