"""The reader registry: every annotation file format, found by its content.

Each module of this package reads one tool's export and defines ``READERS``, a tuple of
``base.Reader`` s (name, description, ``sniff``, ``read``). ``READER_MODULES`` lists the modules in
the order detection tries them (the most specific first), so a new format is one new module plus
its name here (a dotted name is imported as it is: a reader may live outside the package), or a
``Reader`` given to ``file_readers.register`` (tried after those; ``file_readers`` is the package's
one registry shape, ``spans.registry``). ``read_file(path)`` detects the format by content (never by the file's name) or
takes ``input_format``; a file no reader takes is one error naming what it looks like and the
formats there are. Every command and ``chance_agreement.read_annotators`` read through here.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from ..registry import Registry
from .base import Annotator, Reader, ReadOptions, file_head

READER_MODULES = ("uima_cas", "webanno_tsv", "label_studio", "prodigy", "doccano", "jsonl", "brat", "conll")


def _module_readers() -> list[Reader]:
    """The readers of ``READER_MODULES``, in detection order."""
    return [reader for module in READER_MODULES
            for reader in importlib.import_module(module if "." in module else f"{__name__}.{module}").READERS]


file_readers = Registry("input format", Reader, _module_readers)
file_readers.__doc__ = r"""The registry of annotation file formats, in the order detection tries them.

A :class:`~chance_agreement.spans.registry.Registry` of ``Reader`` instances: ``names()``,
``get(name)``, ``entries()``, ``register(instance)`` and ``unregister(name)``. The built-in readers
(CoNLL columns, JSON Lines, brat, Label Studio, doccano, Prodigy, INCEpTION's WebAnno TSV and UIMA
CAS) come first, the most specific first; a registered one is tried after them. Every command,
``read_annotators`` and the Space read files through here: a file's format is detected from its
content (each reader's ``sniff(head, path)``), never from its name, or given by
``input_format=`` / ``--input-format``.

A ``Reader`` is a name, a one-line description, ``sniff(head: bytes, path) -> bool`` and
``read(path, options) -> list[Annotator]``; a file that no reader takes is one error naming what
it looks like and the formats there are.

See Also
--------
read_annotators : Read the annotators of files of any registered format.

Examples
--------
>>> from chance_agreement import file_readers, read_annotators
>>> file_readers.names()[-2:]
('brat', 'conll')
>>> file_readers.get("jsonl").description[:30]
'JSON Lines, one object per tex'

A plug-in reader: a format whose files start with the line ``#tagged``, then one ``token tag``
pair per line (a blank line between sentences), read by the CoNLL reader's code. Detection tries
the built-in readers first, and the CoNLL reader would take (and refuse) such a file, so it is
named with ``input_format``.

>>> import tempfile
>>> from pathlib import Path
>>> from chance_agreement.spans.readers import Reader
>>> conll = file_readers.get("conll")
>>> def read_tagged(path, options):
...     body = Path(path).read_text(encoding="utf-8").split("\n", 1)[1]
...     copy = Path(path).with_suffix(".conll")
...     _ = copy.write_text(body, encoding="utf-8")
...     return conll.read(copy, options)
>>> tagged = Reader("tagged-example", "token tag lines under a #tagged line",
...                 lambda head, path: head.startswith(b"#tagged"), read_tagged)
>>> file_readers.register(tagged).name
'tagged-example'
>>> folder = Path(tempfile.mkdtemp())
>>> _ = (folder / "a.txt").write_text("#tagged\nJohn B-PER\nsmiled O\n", encoding="utf-8")
>>> team = read_annotators([folder / "a.txt"], input_format="tagged-example")
>>> team.flat()[1]
[[['B-PER', 'O']]]
>>> file_readers.unregister("tagged-example")
>>> import shutil; shutil.rmtree(folder)
"""


def readers() -> dict[str, Reader]:
    """Every reader by name, in detection order (``file_readers``)."""
    return file_readers.entries()


def format_names() -> list[str]:
    """The names of every reader, in detection order (``file_readers.names()``)."""
    return list(file_readers.names())


def describe(head: bytes, path: Path) -> str:
    """What a file no reader takes looks like, in a few words."""
    if path.is_dir():
        return "a folder without .ann files"
    if not head.strip():
        return "an empty file"
    if b"\x00" in head[:1024]:
        return "a binary file"
    text = head.decode("utf-8-sig", errors="replace").lstrip()
    first = text.split("\n", 1)[0].strip()
    if text.startswith("{") or text.startswith("["):
        return f"JSON starting {first[:60]!r}"
    if text.startswith("<"):
        return f"XML or HTML starting {first[:60]!r}"
    return f"text whose first line is {first[:60]!r}"


def _detect(path: Path) -> tuple[Reader, bool]:
    """The reader of ``path`` and whether it only ``resembles`` the file (see ``detect``)."""
    if not path.exists():
        raise FileNotFoundError(2, "no such file", str(path))
    head = file_head(path)
    for reader in readers().values():
        if reader.sniff(head, path):
            return reader, False
    for reader in readers().values():  # close to a format: its reader's error names what is off
        if reader.resembles is not None and reader.resembles(head, path):
            return reader, True
    near = [name for reader in readers().values() for name in reader.near_misses]
    recognised = f"; recognised but not read: {'; '.join(near)}" if near else ""
    raise ValueError(f"{path}: no reader takes this file: it looks like {describe(head, path)}; the formats are "
                     f"{', '.join(format_names())} (give --input-format to force one){recognised}")


def detect(path) -> Reader:
    """The first reader (in ``READER_MODULES`` order) whose ``sniff`` takes the file's content, else
    the first that ``resembles`` it (so that its error names the line that is off, or the near-miss
    format it recognises); a file no reader takes is a ValueError naming what it looks like, the
    formats, and the near-miss formats recognised but not read."""
    return _detect(Path(path))[0]


def read_file(path, input_format: str | None = None, options: ReadOptions = ReadOptions()) -> list[Annotator]:
    """The annotators of one file or folder, read by ``input_format`` or by the detected reader; a
    file that only resembles a format gets that reader's own complaint, saying it was the closest."""
    path = Path(path)
    close = False
    if input_format in (None, "auto"):
        reader, close = _detect(path)
    else:
        known = readers()
        if input_format not in known:
            raise ValueError(f"unknown input format {input_format!r}; the formats are {', '.join(known)}")
        reader = known[input_format]
        if not path.exists():
            raise FileNotFoundError(2, "no such file", str(path))
    if path.is_dir() and not reader.folders:
        raise IsADirectoryError(21, "is a folder, not a file", str(path))
    try:
        return reader.read(path, options)
    except ValueError as error:
        if not close:
            raise
        raise ValueError(f"{error} (the closest format: {reader.name}; give --input-format to force "
                         f"another)") from None


__all__ = [
    "READER_MODULES",
    "Annotator",
    "ReadOptions",
    "Reader",
    "describe",
    "detect",
    "file_readers",
    "format_names",
    "read_file",
    "readers",
]
