"""The command line's output files (checked up front, errors that name the path) and its usage
errors (``UsageError``: exit status 2, where other ValueErrors mean bad data, exit status 1).

``-o name`` writes exactly ``name``: an image without a known extension is written as PNG under
the name given (no ``.png`` is appended behind the user's back).
"""

from __future__ import annotations

from pathlib import Path

IMAGE_FORMATS = ("png", "pdf", "svg", "jpg", "jpeg")


class UsageError(ValueError):
    """The command line asks for something impossible (e.g. one annotator): exit status 2."""


def open_fraction(text: str) -> float:
    """argparse type of a level or share strictly between 0 and 1 (e.g. ``--confidence``): a value
    outside is a usage error (exit status 2) before any file is read."""
    import argparse

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError(f"{text} is not strictly between 0 and 1")
    return value


def add_span_options(parser) -> None:
    """seqeval's chunking options (``--mode``, ``--scheme``, ``--suffix``) on a sub-command."""
    from ..spans.tags import SCHEMES

    parser.add_argument("--mode", choices=["strict"], default=None, help="seqeval strict mode")
    parser.add_argument("--scheme", choices=SCHEMES, default=None, help="tagging scheme for strict mode")
    parser.add_argument("--suffix", action="store_true", help="tags carry B/I/E/S as a suffix")


def check_output_path(path) -> Path:
    """``path`` as a Path once it can be written: not a folder, its folder exists."""
    target = Path(path)
    if target.is_dir():
        raise ValueError(f"{path}: is a folder; give a file name to write")
    parent = target.parent
    if not parent.is_dir():
        raise ValueError(f"{path}: cannot write: the folder {str(parent)!r} does not exist")
    return target


def write_text(path, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` after ``check_output_path``."""
    target = check_output_path(path)
    target.write_text(text, encoding="utf-8")
    return target


def emit(text: str, output=None) -> None:
    """Write a command's result to ``output`` (after ``check_output_path``) or standard output."""
    if output:
        write_text(output, text)
    else:
        import sys

        sys.stdout.write(text)


def image_format(path) -> str:
    """The image format for ``path``: its extension when matplotlib knows it, else PNG."""
    suffix = Path(path).suffix.lower().lstrip(".")
    return suffix if suffix in IMAGE_FORMATS else "png"


__all__ = [
    "IMAGE_FORMATS",
    "UsageError",
    "add_span_options",
    "check_output_path",
    "emit",
    "image_format",
    "open_fraction",
    "write_text",
]
