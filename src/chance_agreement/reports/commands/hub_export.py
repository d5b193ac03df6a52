"""``chance-agreement hub-export DIR``: Hub Space folders (script, card, app.py, wheel) for the metrics."""

from __future__ import annotations

import sys
from pathlib import Path

from ...ecosystem.hub_export import export_all
from ...ecosystem.module_paths import METRICS, module_path
from ..command_io import Command, check_output_path, emit, refuse_written_inputs


def run(args) -> int:
    for metric in METRICS:  # a Space folder may not be the module folder it copies from
        try:
            source = Path(args.source) / metric.folder if args.source else Path(module_path(metric.name))
        except FileNotFoundError:  # not installed and no clone: export_all says so
            continue
        refuse_written_inputs({"DIRECTORY": Path(args.directory) / metric.folder}, [source])
    if args.output:
        check_output_path(args.output)
    folders = export_all(args.directory, args.source, args.metric, args.force, args.wheel)
    emit("".join(f"{folder}\n" for folder in folders), args.output)
    exported = {folder.name for folder in folders}
    skipped = [m.name for m in METRICS if m.folder not in exported]
    if skipped and not args.metric:
        print(f"not exported (no module script or card yet): {', '.join(skipped)}", file=sys.stderr)
    return 0


def arguments(parser) -> None:
    parser.add_argument("directory", help="folder to write one sub-folder per metric into")
    parser.add_argument("--metric", action="append", choices=[m.name for m in METRICS],
                        help="export only this metric (repeatable); default: every metric present")
    parser.add_argument("--source", default=None, help="repository checkout with the module folders and hub_cards/")
    parser.add_argument("--wheel", default=None, help="the chance-agreement wheel to ship (default: build it)")
    parser.add_argument("--force", action="store_true",
                        help="write into existing metric folders, replacing only the files the export writes")


COMMAND = Command("hub-export", "assemble Hub Space folders (script, card, app.py, wheel) for the metrics", arguments,
                  run, output="the list of folders written")

__all__ = ["COMMAND"]
