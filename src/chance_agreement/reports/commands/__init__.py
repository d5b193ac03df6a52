"""The command registry: one module per ``chance-agreement`` sub-command.

Each module defines ``COMMAND``, a ``command_io.Command`` (name, help, ``arguments(parser)``,
``run(args)``). ``COMMAND_MODULES`` lists them in the order ``--help`` shows them, so a new
sub-command is one new module plus its name here (a dotted name is imported as it is). The library functions the
commands call live in their layers (``reports.team_report``, ``reports.html_report``, ...); the commands only read the
command line, the files (through ``spans.readers``) and print.
"""

from __future__ import annotations

import importlib

from ..command_io import add_common_options

COMMAND_MODULES = ("f1", "agreement", "annotator_test", "report", "spans", "leaderboard", "figure1", "hub_export",
                   "demo")


def commands() -> list:
    """Every registered ``Command``, in ``COMMAND_MODULES`` order."""
    return [importlib.import_module(module if "." in module else f"{__name__}.{module}").COMMAND
            for module in COMMAND_MODULES]


def add_commands(subparsers) -> None:
    """One sub-parser per command, its ``run`` set as the ``run`` default; every command gets the
    common options (``command_io.add_common_options``: ``-o`` and ``-q``)."""
    for command in commands():
        parser = subparsers.add_parser(command.name, help=command.help, description=command.description or command.help)
        command.arguments(parser)
        add_common_options(parser, command)
        parser.set_defaults(run=command.run)


__all__ = ["COMMAND_MODULES", "add_commands", "commands"]
