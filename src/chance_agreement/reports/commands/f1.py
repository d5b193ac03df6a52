"""``chance-agreement f1 FILE``: seqeval's table with observed, chance and corrected F1 of a column file."""

from __future__ import annotations

import json

from ...chance.chance_corrected import undefined_reason, with_defined_scores
from ...chance.corrected_f1 import chance_f1
from ...chance.random_models import model_names
from ...chance.statistics import LEVELS
from ...spans.annotation_set import pair_set
from ...spans.conll import check_tag_columns, lines_named, read_column_file
from ..command_io import (
    Command,
    add_span_options,
    check_outputs,
    emit,
    input_files,
    open_fraction,
    positive_number,
    whole_number,
)


def format_report(result: dict, digits: int = 4) -> str:
    """A seqeval-like text table with the three chance columns added."""
    types = [key for key, value in result.items() if isinstance(value, dict)]
    headers = ["precision", "recall", "f1-score", "support", "observed", "chance", "corrected"]
    width = max([len(name) for name in types] + [len("overall")])
    column = max(digits + 2, 9)
    lines = [" " * width + " " + " ".join(h.rjust(column) for h in headers), ""]

    def row(name, precision, recall, f1, support, observed, chance, corrected):
        numbers = [_cell(precision, digits), _cell(recall, digits), _cell(f1, digits), str(support),
                   _cell(observed, digits), _cell(chance, digits), _cell(corrected, digits)]
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
    rows = [(name, result[name]) for name in types]
    rows.append(("overall", {key: result[f"overall_{key}"] for key in ("observed_f1", "chance_f1", "corrected_f1")}))
    lines += [f"note: {name}: corrected F1 is undefined: {undefined_reason(scores)}"
              for name, scores in rows if undefined_reason(scores)]
    return "\n".join(lines)


def _cell(value, digits: int) -> str:
    """A score, or "undefined" (None: ``defined_scores``)."""
    return "undefined" if value is None else f"{value:.{digits}f}"


def format_intervals(result: dict, digits: int = 4) -> str:
    """One line per type and overall: the bootstrap intervals of observed, chance and corrected F1."""
    lines = []
    for name, scores in [(k, v) for k, v in result.items() if isinstance(v, dict)] + [("overall", None)]:
        keys = [f"{score}_ci" if scores is not None else f"overall_{score}_ci"
                for score in ("observed_f1", "chance_f1", "corrected_f1")]
        source = scores if scores is not None else result
        cells = ["undefined" if source[key] is None else f"[{source[key][0]:.{digits}f}, {source[key][1]:.{digits}f}]"
                 for key in keys]  # None: some resample's chance F1 is 1 (bootstrap_intervals)
        lines.append(f"{name:>10} observed {cells[0]}  chance {cells[1]}  corrected {cells[2]}")
    return "\n".join(lines)


def run(args) -> int:
    check_outputs({"--output": args.output}, [] if args.file == "-" else input_files([args.file]))
    columns = read_column_file(args.file)
    reference_column = columns.resolve(args.reference_column)
    prediction_column = columns.resolve(args.prediction_column)
    if prediction_column == reference_column:
        raise ValueError(f"{columns.name}: the prediction column {args.prediction_column} is the reference column "
                         f"{args.reference_column} (the file has {columns.width} columns); give a file with token, "
                         f"reference and prediction columns, or choose them with --reference-column and "
                         f"--prediction-column")
    tag_options = {"scheme": args.scheme, "mode": args.mode, "suffix": args.suffix}
    with lines_named(lambda: check_tag_columns(columns, (reference_column, prediction_column), **tag_options)):
        pair = pair_set(columns.column(prediction_column), columns.column(reference_column), **tag_options)
    options = dict(predictions=pair, model=args.model, level=args.level)  # chunked once: a bad tag named by its line
    result = with_defined_scores(chance_f1(**options, zero_division=0, confidence_level=args.confidence_level,
                                           n_resamples=args.n_resamples, random_state=args.random_state),
                                 lambda fill: chance_f1(**options, zero_division=fill))
    if args.json:
        emit(json.dumps(result, indent=2) + "\n", args.output)
        return 0
    text = (f"chance-corrected F1 ({args.level} level, {args.model} random model)\n\n"
            f"{format_report(result, args.digits)}\n")
    if args.confidence_level is not None:
        text += (f"\n{args.confidence_level:.0%} intervals (sentence bootstrap, {args.n_resamples} resamples, "
                 f"percentile):\n{format_intervals(result, args.digits)}\n")
    emit(text, args.output)
    return 0


def arguments(parser) -> None:
    parser.add_argument("file", help="CoNLL columns: token, reference tag, predicted tag ('-' for stdin)")
    parser.add_argument("--json", action="store_true", help="print the full result as JSON")
    parser.add_argument("--level", choices=LEVELS, default="token")
    parser.add_argument("--model", choices=model_names(), default="non_overlapping")
    parser.add_argument("--reference-column", type=int, default=1, help="0-based column of the reference tags")
    parser.add_argument("--prediction-column", type=int, default=-1, help="0-based column of the predicted tags")
    parser.add_argument("--digits", type=whole_number, default=4)
    parser.add_argument("--confidence-level", type=open_fraction, default=None,
                        help="add sentence-bootstrap intervals at this level (e.g. 0.95)")
    parser.add_argument("--n-resamples", type=positive_number, default=1000, help="bootstrap resamples (default 1000)")
    parser.add_argument("--random-state", type=whole_number, default=None,
                        help="seed of the bootstrap (default: not seeded)")
    add_span_options(parser)


COMMAND = Command("f1", "observed, chance and corrected F1 of a CoNLL column file", arguments, run)

__all__ = ["COMMAND", "format_intervals", "format_report"]
