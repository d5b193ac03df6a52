"""The command line's output files (checked up front, errors that name the path) and its usage
errors (``UsageError``: exit status 2, where other ValueErrors mean bad data, exit status 1).

A path a command writes may not be one of the files it reads (``check_outputs``: the same path, or
the same file through a link), nor another path it writes: refused before anything is read or
written.

``-o name`` writes exactly ``name``: an image without a known extension is written as PNG under
the name given (no ``.png`` is appended behind the user's back).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..ecosystem.output_files import write_file
from ..reliability.gamma import SAMPLES_LIMIT
from ..spans.conll import parse_column_spec
from ..spans.deprecation import renamed_message
from ..spans.readers import format_names
from ..spans.readers.base import CROSSING, OFFSET_UNITS
from ..spans.readers.uima_cas import typesystem_file
from ..spans.tags import SCHEMES
from ..spans.tokenizer import TOKENIZERS
from .progress import add_quiet_option

IMAGE_FORMATS = ("png", "pdf", "svg", "jpg", "jpeg")


@dataclass(frozen=True)
class Command:
    """One sub-command: ``arguments(parser)`` adds its options, ``run(args)`` returns the exit status.

    Every command also takes ``-o``/``--output`` (``output``: what it writes there, required with
    ``output_required``) and ``-q``/``--quiet``, added once for all by ``add_common_options``.
    """

    name: str
    help: str
    arguments: Callable
    run: Callable
    description: str | None = None
    output: str = "the result"
    output_required: bool = False
    output_metavar: str = "FILE"


class UsageError(ValueError):
    """The command line asks for something impossible (e.g. one annotator): exit status 2."""


def open_fraction(text: str) -> float:
    """argparse type of a level or share strictly between 0 and 1 (e.g. ``--confidence-level``): a value
    outside is a usage error (exit status 2) before any file is read."""

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError(f"{text} is not strictly between 0 and 1")
    return value


class _RenamedOption(argparse.Action):
    """An option's old spelling: stores under the new one's destination and says the new name."""

    def __init__(self, option_strings, dest, new: str = "", **kwargs):
        super().__init__(option_strings, dest, **kwargs)
        self.new = new

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"{parser.prog}: warning: {renamed_message(option_string, self.new, 'option')}", file=sys.stderr)
        setattr(namespace, self.dest, values)


def add_renamed_option(parser, old: str, new: str, **options) -> None:
    """Keep ``old`` (hidden from ``--help``) working for one release as a spelling of ``new``.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The parser that already has ``new``.
    old, new : str
        The old and the new option, e.g. ``"--seed"`` and ``"--random-state"``.
    **options
        ``type`` and the like, as ``new`` takes them.

    Examples
    --------
    >>> parser = argparse.ArgumentParser(prog="demo")
    >>> _ = parser.add_argument("--random-state", type=int, default=0)
    >>> add_renamed_option(parser, "--seed", "--random-state", type=int)
    >>> parser.parse_args(["--seed", "3"]).random_state  # and on standard error: ... is renamed '--random-state' ...
    3
    """
    parser.add_argument(old, dest=new.lstrip("-").replace("-", "_"), action=_RenamedOption, new=new,
                        default=argparse.SUPPRESS, help=argparse.SUPPRESS, **options)


def _integer(text: str, least: int) -> int:
    """``text`` as a whole number >= ``least`` (ASCII digits only: not '²' nor '٣'), else an
    ``ArgumentTypeError``: argparse reports it as a usage error before any file is read."""
    digits = text.strip()
    digits = digits[1:] if digits[:1] in "+-" else digits
    if not (digits.isascii() and digits.isdigit()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
    value = int(text)
    if value < least:
        raise argparse.ArgumentTypeError(f"{text} is not a whole number >= {least}")
    return value


def whole_number(text: str) -> int:
    """argparse type of a count or seed that may be 0 (``--digits``, ``--random-state``)."""
    return _integer(text, 0)


def gamma_samples(text: str) -> int:
    """argparse type of ``--gamma-samples``: 0 (no gamma) up to gamma's ``SAMPLES_LIMIT``."""
    value = _integer(text, 0)
    if value > SAMPLES_LIMIT:
        raise argparse.ArgumentTypeError(f"{text} random continua is more than gamma's limit of {SAMPLES_LIMIT:,}")
    return value


def positive_number(text: str) -> int:
    """argparse type of a count that must be 1 or more (``--n-resamples``, ``--n``)."""
    return _integer(text, 1)


def closed_fraction(text: str) -> float:
    """argparse type of a value from 0 to 1, both included (``--split``); NaN is refused."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{text} is not between 0 and 1")
    return value


def add_span_options(parser) -> None:
    """seqeval's chunking options (``--mode``, ``--scheme``, ``--suffix``) on a sub-command."""

    parser.add_argument("--mode", choices=["strict"], default=None, help="seqeval strict mode")
    parser.add_argument("--scheme", choices=SCHEMES, default=None, help="tagging scheme for strict mode")
    parser.add_argument("--suffix", action="store_true", help="tags carry B/I/E/S as a suffix")


def add_input_options(parser) -> None:
    """How annotation files are read (``spans.readers``): the format, offsets, layer, crossing spans."""

    parser.add_argument("--input-format", choices=["auto", *format_names()], default="auto",
                        help="the files' format (default auto: detected from each file's content)")
    parser.add_argument("--widen", action="store_true",
                        help="widen spans off token boundaries to the tokens they touch")
    parser.add_argument("--tokenizer", choices=list(TOKENIZERS), default="words",
                        help="tokens of texts that come without (default words: words and punctuation, each Chinese "
                             "or Japanese character one; characters: every character, for Thai, Khmer, Lao, Burmese)")
    parser.add_argument("--offsets", choices=OFFSET_UNITS, default=None,
                        help="what character offsets count (default: the format's own; doccano: utf16)")
    parser.add_argument("--layer", help="INCEpTION files: the span layer (default: NamedEntity); Label Studio: the "
                                        "labels control (its from_name) when there are several")
    parser.add_argument("--feature", help="INCEpTION files: the label feature of the layer (default: value)")
    parser.add_argument("--typesystem",
                        help="INCEpTION XMI files: the TypeSystem.xml (default: the one next to the file)")
    parser.add_argument("--crossing", choices=CROSSING, default="error",
                        help="spans of one type that cross: an error (default) or skip the later one (listed)")


def read_options(args) -> dict:
    """``read_annotators``'s reading options from ``add_input_options``' arguments."""
    return {"input_format": args.input_format, "widen": args.widen, "offsets": args.offsets, "layer": args.layer,
            "feature": args.feature, "typesystem": args.typesystem,
            "tokenizer": None if args.tokenizer == "words" else TOKENIZERS[args.tokenizer]}


def split_names(text) -> list | None:
    return text.split(",") if text else None


def check_output_path(path) -> Path:
    """``path`` as a Path once it can be written: not a folder, its folder exists."""
    target = Path(path)
    if target.is_dir():
        raise ValueError(f"{path}: is a folder; give a file name to write")
    parent = target.parent
    if not parent.is_dir():
        raise ValueError(f"{path}: cannot write: the folder {str(parent)!r} does not exist")
    return target


def input_files(specs, typesystem=None) -> list[Path]:
    """The files a command reads for its input ``specs`` (``FILE`` or ``FILE:COLUMN``): each file,
    a brat ``.ann``'s ``.txt``, the ``.ann``/``.txt`` files of a folder, an ``.xmi`` file's type
    system (``typesystem``, else the ``TypeSystem.xml`` beside it) and ``typesystem``."""
    files = []
    for spec in specs:
        path = Path(parse_column_spec(spec)[0])
        if path.is_dir():
            files += [found for found in path.rglob("*") if found.suffix in (".ann", ".txt")]
            continue
        files.append(path)
        if path.suffix == ".ann":
            files.append(path.with_suffix(".txt"))
        beside = typesystem_file(path) if path.suffix.lower() == ".xmi" else None
        files += [beside] if beside is not None else []
    return files + ([Path(typesystem)] if typesystem else [])


def _same_file(a: Path, b: Path) -> bool:
    if a.resolve() == b.resolve():
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet): not the same file
        return False


def refuse_written_inputs(outputs, inputs) -> None:
    """Refuse (``UsageError``) a path written (``outputs``: option name -> path or None) that is one of
    the ``inputs`` (files or folders read) or another written path: the same path once resolved, or
    the same file through a hard or symbolic link."""
    written = [(option, Path(path)) for option, path in outputs.items() if path]
    for index, (option, path) in enumerate(written):
        for source in inputs:
            if _same_file(path, Path(source)):
                raise UsageError(f"{option} {path} is the input {source}: writing it would destroy the input; "
                                 f"write somewhere else")
        for other_option, other in written[:index]:
            if _same_file(path, other):
                raise UsageError(f"{other_option} and {option} are the same file {path}: give each its own")


def check_outputs(outputs, inputs) -> None:
    """``refuse_written_inputs``, then ``check_output_path`` of each output file. Commands call this
    first, before anything is read or written."""
    refuse_written_inputs(outputs, inputs)
    for path in outputs.values():
        if path:
            check_output_path(path)


def write_text(path, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` after ``check_output_path``, whole or not at all
    (``ecosystem.output_files.write_file``)."""
    return write_file(check_output_path(path), text)


def add_common_options(parser, command: Command) -> None:
    """The options every command takes, in one place: ``-o``/``--output`` (``args.output``: write
    ``command.output`` to that file, exactly that name, instead of standard output; required when
    the command has nothing to print, as ``report``'s page) and ``-q``/``--quiet`` (``args.quiet``:
    no progress bar on standard error, ``progress.add_quiet_option``).

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The command's sub-parser.
    command : Command
        The command (its ``output``, ``output_required`` and ``output_metavar``).

    Examples
    --------
    >>> parser = argparse.ArgumentParser()
    >>> add_common_options(parser, Command("f1", "", print, print))
    >>> vars(parser.parse_args(["-o", "scores.txt", "-q"]))
    {'output': 'scores.txt', 'quiet': True}
    """
    where = "" if command.output_required else " instead of standard output"
    parser.add_argument("--output", "-o", metavar=command.output_metavar, required=command.output_required,
                        help=f"write {command.output} to {command.output_metavar}{where}")
    add_quiet_option(parser)


def note(text: str) -> None:
    """A note on standard error: what a default chose or what was left out, never the result itself."""
    print(f"chance-agreement: note: {text}", file=sys.stderr)


def emit(text: str, output=None) -> None:
    """Write a command's result to ``output`` (after ``check_output_path``) or standard output."""
    if output:
        write_text(output, text)
    else:

        sys.stdout.write(text)


def image_format(path) -> str:
    """The image format for ``path``: its extension when matplotlib knows it, else PNG."""
    suffix = Path(path).suffix.lower().lstrip(".")
    return suffix if suffix in IMAGE_FORMATS else "png"


__all__ = [
    "IMAGE_FORMATS",
    "Command",
    "UsageError",
    "add_common_options",
    "add_input_options",
    "add_renamed_option",
    "add_span_options",
    "check_output_path",
    "check_outputs",
    "closed_fraction",
    "emit",
    "image_format",
    "input_files",
    "note",
    "open_fraction",
    "positive_number",
    "read_options",
    "refuse_written_inputs",
    "split_names",
    "whole_number",
    "write_text",
]
