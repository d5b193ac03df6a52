"""The ``chance-agreement`` command line.

    chance-agreement f1 FILE            seqeval-style table with observed, chance, corrected F1
    chance-agreement agreement A B ...  one report on two or more annotators (``team_report``)
    chance-agreement demo               the paper's simulations, our values beside the paper's

``python -m chance_agreement ...`` runs the same command line.

Each sub-command is one module of ``reports.commands`` (the command registry). Errors are one line on
standard error, ``chance-agreement: error: FILE: line N: problem``, never a traceback; exit status
2 for a wrong command line, 1 for input that cannot be read or used, 0 otherwise (also when the
reader of a pipe stops early, as ``| head -1`` does).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import warnings
from importlib.metadata import PackageNotFoundError, version

from .command_io import UsageError
from .commands import add_commands


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports a wrong command line in one line (and exit status 2)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:

    try:
        installed = version("chance-agreement")
    except PackageNotFoundError:  # run from a source tree that was never installed
        installed = "(not installed)"
    parser = OneLineParser(prog="chance-agreement", description="Chance-corrected agreement for sequence annotation.")
    parser.add_argument("--version", action="version", version=f"chance-agreement {installed}")
    add_commands(parser.add_subparsers(dest="command", required=True, metavar="COMMAND"))
    return parser


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
    with contextlib.suppress(BrokenPipeError, ValueError):
        print(f"chance-agreement: error: {_one_line(problem)}", file=sys.stderr)
    return 1


__all__ = ["OneLineParser", "build_parser", "main"]

if __name__ == "__main__":
    sys.exit(main())

