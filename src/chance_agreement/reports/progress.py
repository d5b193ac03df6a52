"""Progress bars for long commands: tqdm on standard error, only on a terminal.

A command's numbers go to standard output (or ``-o``); the bar never does. In a pipe, a file, a
CI log, or with ``--quiet``, nothing is shown. Without tqdm the work runs the same, silently.
"""

from __future__ import annotations

import sys

__all__ = ["add_quiet_option", "progress"]


def progress(items, description: str, *, unit: str = "it", enabled: bool | None = None):
    """``items``, wrapped in a tqdm bar on standard error when ``enabled`` (None: when standard
    error is a terminal)."""
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        return items
    try:
        from tqdm import tqdm
    except ImportError:  # the bar is a convenience; the work runs without it
        return items
    return tqdm(items, desc=description, unit=unit, file=sys.stderr)


def add_quiet_option(parser) -> None:
    """``--quiet``: no progress bar even on a terminal (``args.quiet``)."""
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar on standard error")
