"""The ``chance-agreement`` command line.

    chance-agreement f1 FILE            seqeval-style table with observed, chance, corrected F1
    chance-agreement agreement A B ...  one report on two or more annotators (``team_report``)
    chance-agreement demo               the paper's simulations, our values beside the paper's

Each other module adds its sub-command with ``register(subparsers)``. Errors are one line on
standard error, ``chance-agreement: error: FILE: line N: problem``, never a traceback; exit status
2 for a wrong command line, 1 for input that cannot be read or used, 0 otherwise (also when the
reader of a pipe stops early, as ``| head -1`` does).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import warnings

from ..chance.corrected_f1 import LEVELS, chance_f1
from ..chance.random_model import MODELS
from .command_io import UsageError, add_span_options, open_fraction


def format_report(result: dict, digits: int = 4) -> str:
    """A seqeval-like text table with the three chance columns added."""
    types = [key for key, value in result.items() if isinstance(value, dict)]
    headers = ["precision", "recall", "f1-score", "support", "observed", "chance", "corrected"]
    width = max([len(name) for name in types] + [len("overall")])
    column = max(digits + 2, 9)
    lines = [" " * width + " " + " ".join(h.rjust(column) for h in headers), ""]

    def row(name, precision, recall, f1, support, observed, chance, corrected):
        numbers = [f"{precision:.{digits}f}", f"{recall:.{digits}f}", f"{f1:.{digits}f}", str(support),
                   f"{observed:.{digits}f}", f"{chance:.{digits}f}", f"{corrected:.{digits}f}"]
        return name.rjust(width) + " " + " ".join(value.rjust(column) for value in numbers)

    for name in types:
        s = result[name]
        lines.append(row(name, s["precision"], s["recall"], s["f1"], s["number"],
                         s["observed_f1"], s["chance_f1"], s["corrected_f1"]))
    lines.append("")
    support = sum(result[name]["number"] for name in types)
    lines.append(row("overall", result["overall_precision"], result["overall_recall"], result["overall_f1"],
                     support, result["overall_observed_f1"], result["overall_chance_f1"],
                     result["overall_corrected_f1"]))
    lines.append(f"\naccuracy {result['overall_accuracy']:.{digits}f}")
    return "\n".join(lines)


def format_intervals(result: dict, digits: int = 4) -> str:
    """One line per type and overall: the bootstrap intervals of observed, chance and corrected F1."""
    lines = []
    for name, scores in [(k, v) for k, v in result.items() if isinstance(v, dict)] + [("overall", None)]:
        keys = [f"{score}_ci" if scores is not None else f"overall_{score}_ci"
                for score in ("observed_f1", "chance_f1", "corrected_f1")]
        source = scores if scores is not None else result
        cells = [f"[{source[key][0]:.{digits}f}, {source[key][1]:.{digits}f}]" for key in keys]
        lines.append(f"{name:>10} observed {cells[0]}  chance {cells[1]}  corrected {cells[2]}")
    return "\n".join(lines)


def _run_f1(args) -> int:
    from ..spans.conll import check_tag_columns, read_column_file

    columns = read_column_file(args.file)
    reference_column = columns.resolve(args.reference_column)
    prediction_column = columns.resolve(args.prediction_column)
    if prediction_column == reference_column:
        raise ValueError(f"{columns.name}: the prediction column {args.prediction_column} is the reference column "
                         f"{args.reference_column} (the file has {columns.width} columns); give a file with token, "
                         f"reference and prediction columns, or choose them with --reference-column and "
                         f"--prediction-column")
    references, predictions = columns.column(reference_column), [columns.column(prediction_column)]
    check_tag_columns(columns, (reference_column, prediction_column), args.scheme, args.mode, args.suffix)
    result = chance_f1(predictions[0], references, scheme=args.scheme, mode=args.mode, suffix=args.suffix,
                       model=args.model, level=args.level, confidence_level=args.confidence_level,
                       n_resamples=args.n_resamples, random_state=args.random_state)
    if args.json:
        json.dump(result, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(f"chance-corrected F1 ({args.level} level, {args.model} random model)\n")
        print(format_report(result, args.digits))
        if args.confidence_level is not None:
            print(f"\n{args.confidence_level:.0%} intervals (sentence bootstrap, {args.n_resamples} resamples, percentile):")
            print(format_intervals(result, args.digits))
    return 0


def demo_rows():
    """(name, ours, paper) rows for the paper's simulations, ours rounded to 4 decimals."""
    from .paper_examples import SIMULATIONS

    rows = []
    for simulation in SIMULATIONS:
        annotator_1, annotator_2 = simulation.tags()
        result = chance_f1([annotator_1], [annotator_2])
        ours = (result["overall_observed_f1"], result["overall_chance_f1"], result["overall_corrected_f1"])
        paper = (simulation.observed_f1, simulation.chance_f1, simulation.corrected_f1)
        rows.append((simulation.name, ours, paper))
    return rows


def _run_demo(args) -> int:
    print(f"{PAPER}, Tables 2-9: the simulated annotations")
    print("token-level F1, non-overlapping random annotation model; ours | paper\n")
    print(f"{'case':<26}{'ObsF1':>16}{'ChanceF1':>18}{'CorrF1':>18}")
    for name, ours, paper in demo_rows():
        cells = "".join(f"{o:>9.4f} |{p:>6.4f}" for o, p in zip(ours, paper))
        print(f"{name:<26}{cells}")
    print("\nThe paper truncates where we round (Sim4 annotator 2: 32/47 = 0.68085 prints as 0.6808).")
    return 0


PAPER = '"Estimating Agreement by Chance for Sequence Annotation" (anonymous ACL submission)'


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports a wrong command line in one line (and exit status 2)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    from importlib.metadata import PackageNotFoundError, version

    try:
        installed = version("chance-agreement")
    except PackageNotFoundError:  # run from a source tree that was never installed
        installed = "(not installed)"
    parser = OneLineParser(prog="chance-agreement", description="Chance-corrected agreement for sequence annotation.")
    parser.add_argument("--version", action="version", version=f"chance-agreement {installed}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    f1 = commands.add_parser("f1", help="observed, chance and corrected F1 of a CoNLL column file")
    f1.add_argument("file", help="CoNLL columns: token, reference tag, predicted tag ('-' for stdin)")
    f1.add_argument("--json", action="store_true", help="print the full result as JSON")
    f1.add_argument("--level", choices=LEVELS, default="token")
    f1.add_argument("--model", choices=MODELS, default="non_overlapping")
    f1.add_argument("--reference-column", type=int, default=1, help="0-based column of the reference tags")
    f1.add_argument("--prediction-column", type=int, default=-1, help="0-based column of the predicted tags")
    f1.add_argument("--digits", type=int, default=4)
    f1.add_argument("--confidence-level", type=open_fraction, default=None,
                    help="add sentence-bootstrap intervals at this level (e.g. 0.95)")
    f1.add_argument("--n-resamples", type=int, default=1000, help="bootstrap resamples (default 1000)")
    f1.add_argument("--random-state", type=int, default=None, help="seed of the bootstrap (default: not seeded)")
    add_span_options(f1)
    f1.set_defaults(run=_run_f1)

    demo = commands.add_parser("demo", help="the paper's simulations, ours beside the paper's values")
    demo.set_defaults(run=_run_demo)

    from ..ecosystem import hub_export
    from . import html_report, leaderboard, plots, span_agreement, team_report

    for register in (team_report.register, hub_export.register, leaderboard.register, plots.register,
                     html_report.register, span_agreement.register, *_EXTRA_COMMANDS):
        register(commands)
    return parser


# Other modules add sub-commands here: functions taking the subparsers object.
_EXTRA_COMMANDS: list = []


def _one_line(text) -> str:
    return " ".join(str(text).split())


def _warning_printer():
    """A ``warnings.showwarning`` printing each distinct warning once, on one line: a command that
    computes several scores from the same tags warns about an odd tag once, not once per score."""
    shown = set()

    def show(message, category, filename, lineno, file=None, line=None) -> None:
        text = _one_line(message)
        if text not in shown:
            shown.add(text)
            print(f"chance-agreement: warning: {text}", file=sys.stderr)

    return show


def _os_error(error: OSError) -> str:
    reason = error.strerror or str(error)
    if isinstance(error, IsADirectoryError):
        reason = "is a folder, not a file"
    elif isinstance(error, FileNotFoundError):
        reason = "no such file"
    return f"{error.filename}: {reason}" if error.filename else reason


def _stdout_closed() -> int:
    """The reader of our standard output went away (``| head -1``): stop quietly."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return 0


def main(argv=None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as done:  # --help, --version and usage errors (already printed, one line)
        return done.code if isinstance(done.code, int) else 2
    problem = None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("default")
            warnings.showwarning = _warning_printer()
            status = args.run(args)
            sys.stdout.flush()
            return status
    except BrokenPipeError:
        return _stdout_closed()
    except UsageError as error:
        print(f"chance-agreement {args.command}: error: {_one_line(error)} (see chance-agreement {args.command} "
              f"--help)", file=sys.stderr)
        return 2
    except ValueError as error:
        problem = str(error)
    except OSError as error:
        problem = _os_error(error)
    except KeyboardInterrupt:
        problem = "interrupted"
    except Exception as error:  # a bug: still one line, with a way to see the traceback
        if os.environ.get("CHANCE_AGREEMENT_DEBUG"):
            raise
        problem = (f"internal error {type(error).__name__}: {error} (please report it; set "
                   f"CHANCE_AGREEMENT_DEBUG=1 to see the traceback)")
    try:
        print(f"chance-agreement: error: {_one_line(problem)}", file=sys.stderr)
    except (BrokenPipeError, ValueError):
        pass
    return 1


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["OneLineParser", "PAPER", "build_parser", "demo_rows", "format_intervals", "format_report", "main"]
