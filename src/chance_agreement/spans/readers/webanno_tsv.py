"""WebAnno TSV 3.x, as INCEpTION and WebAnno export it (``#FORMAT=WebAnno TSV 3.3``).

The header declares the layers, one ``#T_SP=type|feature|...`` line per span layer (``#T_CH``
chain and ``#T_RL`` relation layers too); each layer has one column per feature (a span layer
without features has one). Every sentence starts with ``#Text=`` lines; its tokens follow, one per
line: ``sentence-token``, character offsets, the token, then the layers' columns. A cell is ``_``
(nothing), ``*`` (an annotation without a value), a value, ``value[3]`` (annotation 3, which
spans several tokens), or several of these joined by ``|`` (stacked annotations).

The default layer is ``de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity`` and its feature
``value``; ``layer`` (the type name, or its last part such as ``NamedEntity``) and ``feature``
choose others. Tokens are the file's; a sentence is one unit, keyed by its number. An annotation
without a value, on a part of a token (``1-3.1`` lines), or across sentences is an error naming
the file and line. WebAnno TSV 1 and 2 (WebAnno 2.x: a first line such as ``# ...NamedEntity |
value``) are recognised and refused with what to do.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..validation import refuse_reserved_type
from .base import Annotator, Reader, ReadOptions, Unit, read_text

NAMED_ENTITY = "de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity"
DEFAULT_FEATURE = "value"
_ESCAPES = {"\\\\": "\\", "\\[": "[", "\\]": "]", "\\|": "|", "\\_": "_", "\\->": "->", "\\;": ";", "\\t": "\t",
            "\\n": "\n", "\\*": "*"}
_CELL = re.compile(r"^(.*?)(?:\[(\d+)\])?$", re.DOTALL)


def _sniff(head: bytes, path: Path) -> bool:
    return head.decode("utf-8-sig", errors="replace").lstrip().startswith("#FORMAT=WebAnno TSV 3")


# WebAnno TSV 1 and 2 (WebAnno 2.x): a first line `` # layer type | feature # ...``, or a version other than 3
_OLD_HEADER = re.compile(r"^(?:#FORMAT=WebAnno TSV [12]\b|#\s*[\w.]+\s*\|)")


def _old_version(text: str) -> bool:
    """Text in the WebAnno TSV 1 or 2 layout (``_OLD_HEADER``), which ``_read`` refuses."""
    return bool(_OLD_HEADER.match(text.lstrip("\ufeff \t\r\n")))


def _resembles(head: bytes, path: Path) -> bool:
    return _old_version(head.decode("utf-8-sig", errors="replace"))


def _unescape(text: str) -> str:
    return re.sub(r"\\(->|[\\\[\]|_;tn*])", lambda m: _ESCAPES["\\" + m.group(1)], text)


def _layers(header: list[str]) -> list[tuple[str, list[str]]]:
    layers = []
    for line in header:
        kind, _, spec = line.partition("=")
        if kind in ("#T_SP", "#T_CH", "#T_RL"):
            name, *features = spec.split("|")
            layers.append((name, features or ["*"]))
    return layers


def _column(layers, options: ReadOptions, path: Path) -> int:
    """The 0-based column of the chosen layer's label feature (after the three token columns)."""
    wanted = options.layer or NAMED_ENTITY
    matches = [i for i, (name, _) in enumerate(layers) if name == wanted or name.rsplit(".", 1)[-1] == wanted]
    if len(matches) != 1:
        raise ValueError(f"{path}: {'no' if not matches else 'more than one'} layer {wanted!r} in the header "
                         f"(layers: {[name for name, _ in layers]}); choose one with --layer")
    name, features = layers[matches[0]]
    feature = options.feature or (DEFAULT_FEATURE if DEFAULT_FEATURE in features or len(features) != 1 else features[0])
    if feature not in features and features != ["*"]:
        raise ValueError(f"{path}: layer {name} has no feature {feature!r} (features: {features}); choose one with "
                         "--feature")
    before = sum(len(f) for _, f in layers[: matches[0]])
    return 3 + before + (features.index(feature) if feature in features else 0)


def _annotations(cell: str, where: str):
    """``(label, id or None)`` of every stacked annotation of one cell."""
    if cell == "_":
        return []
    found = []
    for part in re.split(r"(?<!\\)\|", cell):
        value, number = _CELL.match(part).groups()  # type: ignore[union-attr]  # the pattern matches any text
        if value in ("*", ""):
            raise ValueError(f"{where}: an annotation without a label ({part!r}); choose the label with --feature")
        refuse_reserved_type(_unescape(value), where)
        found.append((_unescape(value), number))
    return found


def _sentence(block: list, column: int, path: Path, texts: list, width: int, seen: set) -> Unit:
    tokens: list[str] = []
    open_ids: dict = {}
    spans, number_of = [], None
    for number, fields in block:
        where = f"{path} line {number}"
        if len(fields) < width:
            raise ValueError(f"{where}: expected {width} tab-separated columns (the header's layers), found "
                             f"{len(fields)}")
        if "." in fields[0]:
            raise ValueError(f"{where}: annotations on part of a token ({fields[0]}) are not supported")
        number_of = fields[0].split("-")[0]
        index = len(tokens)
        tokens.append(_unescape(fields[2]))
        for label, ident in _annotations(fields[column], where):
            if ident is None:
                spans.append((index, index + 1, label))
            elif ident in seen:
                raise ValueError(f"{where}: annotation [{ident}] crosses a sentence boundary")
            elif ident in open_ids:
                start, first_label, last = open_ids[ident]
                if last != index - 1:
                    raise ValueError(f"{where}: annotation [{ident}] skips tokens")
                open_ids[ident] = (start, first_label, index)
            else:
                open_ids[ident] = (index, label, index)
    spans += [(start, last + 1, label) for start, label, last in open_ids.values()]
    seen.update(open_ids)
    return Unit(tokens, f"{path} line {block[0][0]}", spans=spans, text="\n".join(texts), key=number_of,
                token_lines=[n for n, _ in block])


def _blocks(lines: list[str]):
    """``(#Text lines, [(line number, fields)])`` per sentence."""
    texts: list[str] = []
    block: list = []
    for number, line in enumerate(lines, start=1):
        if line.startswith("#Text="):
            if block:
                yield texts, block
                texts, block = [], []
            texts.append(_unescape(line[len("#Text="):]))
        elif line.strip() and not line.startswith("#"):
            block.append((number, line.split("\t")))
        elif not line.strip() and block:
            yield texts, block
            texts, block = [], []
    if block:
        yield texts, block


def _read(path: Path, options: ReadOptions) -> list[Annotator]:
    text = read_text(path)
    if _old_version(text):
        raise ValueError(f"{path} line 1: a WebAnno TSV 1 or 2 file (WebAnno 2.x's export), which is not read; "
                         f"open the project in WebAnno 3 or INCEpTION and export it as 'WebAnno TSV 3.3' (or UIMA "
                         f"CAS XMI)")
    lines = text.replace("\r\n", "\n").split("\n")
    header = [line for line in lines if line.startswith("#T_")]
    layers = _layers(header)
    column = _column(layers, options, path)
    width = 3 + sum(len(features) for _, features in layers)
    seen: set = set()
    units = [_sentence(block, column, path, texts, width, seen) for texts, block in _blocks(lines)]
    if not units:
        raise ValueError(f"{path}: no sentences")
    return [Annotator(path.stem, str(path), units, named_by_file=True)]


READERS = (Reader("webanno-tsv", "WebAnno TSV 3.x (INCEpTION/WebAnno export; the NamedEntity layer by default)",
                  _sniff, _read, resembles=_resembles, near_misses=("WebAnno TSV 1 and 2",)),)

__all__ = ["DEFAULT_FEATURE", "NAMED_ENTITY", "READERS"]
