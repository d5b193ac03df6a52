"""``chance-agreement spans A B ...``: chance-corrected F1 of annotators' span files, nested or flat."""

from __future__ import annotations

import json

from ...chance.random_models import model_names
from ...chance.statistics import LEVELS
from ...spans.annotators import read_annotators
from ..command_io import (
    Command,
    UsageError,
    add_input_options,
    check_outputs,
    emit,
    input_files,
    read_options,
    split_names,
    whole_number,
)
from ..span_agreement import VIEWS, format_span_table, team_span_scores


def _text(args, team, result) -> str:
    lines = []
    pairs = result.get("pairs") or [{"predictions": team.names[0], "references": team.names[1], "scores": result}]
    for index, pair in enumerate(pairs):
        lines += [""] * bool(index) + [f"chance-corrected F1 of {_source(team, pair['predictions'])} (predictions) vs "
                                       f"{_source(team, pair['references'])} (references), {args.view} spans, "
                                       f"{args.level} level, {args.model} random model", ""]
        lines.append(format_span_table(pair["scores"], args.digits))
    if result.get("layered_units"):
        lines += ["", f"note: {result['layered_units']} sentence unit(s) hold crossing spans of different types: each "
                      f"type is scored in its own layer there"]
    if result.get("skipped_spans"):
        lines += ["", f"note: {len(result['skipped_spans'])} crossing span(s) left out (--crossing skip):"]
        lines += [f"  {line}" for line in result["skipped_spans"]]
    return "\n".join(lines) + "\n"


def _source(team, name: str) -> str:
    """How the heading names an annotator: its file, and its id when the file holds several."""
    source = team.sources[team.names.index(name)]
    shared = sum(1 for other in team.sources if other == source) > 1
    return f"{name} in {source}" if shared else source


def run(args) -> int:
    check_outputs({"--output": args.output}, input_files(args.annotators, args.typesystem))
    team = read_annotators(args.annotators, names=split_names(args.names), **read_options(args))
    if len(team.names) < 2:
        raise UsageError(f"give two or more annotators (found {len(team.names)} in {', '.join(args.annotators)})")
    result = team_span_scores(team, args.view, args.crossing, model=args.model, level=args.level)
    emit(json.dumps(result, indent=2) + "\n" if args.json else _text(args, team, result), args.output)
    return 0


def arguments(parser) -> None:
    parser.add_argument("annotators", nargs="+", metavar="FILE",
                        help="annotation files of any supported format (two annotators: the first is scored as "
                             "predictions against the second; more: every pair)")
    parser.add_argument("--names", help="comma-separated annotator names (default: ids in the files, else file names)")
    parser.add_argument("--view", choices=VIEWS, default="nested", help="nested (pooled and per depth) or a flat view")
    parser.add_argument("--level", choices=LEVELS, default="token")
    parser.add_argument("--model", choices=model_names(), default="non_overlapping")
    parser.add_argument("--json", action="store_true", help="print the full result as JSON")
    parser.add_argument("--digits", type=whole_number, default=4)
    add_input_options(parser)


COMMAND = Command("spans", "observed, chance and corrected F1 of annotators' span files (nested or a flat view)",
                  arguments, run)

__all__ = ["COMMAND"]
