"""INCEpTION's UIMA CAS exports, JSON (``UIMA CAS JSON``) and XMI, read with ``dkpro-cassis``.

The ``inception`` extra (``pip install ".[inception]"`` in a clone) adds ``dkpro-cassis``; without it
these files get an error saying so. The CAS's own annotations give everything: sentences
(``de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Sentence``, one unit each; the whole text
when there are none), tokens (``...segmentation.type.Token``; a CAS without any is tokenized by
``options.tokenizer``, by default ``tokenize``, with a warning saying so) and the spans of one layer, by default
``de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity`` with its label feature ``value``
(``layer`` and ``feature`` choose others; a layer may be named by its last part). An XMI file needs
its type system: ``TypeSystem.xml`` next to it (as INCEpTION's export has it), ``--typesystem``,
else DKPro Core's type system as cassis ships it. A JSON CAS carries its type system; INCEpTION's
legacy UIMA CAS JSON (``_views``, ``_referenced_fss``) is recognised and refused with what to do.

The annotator is the file (INCEpTION exports ``annotation/<document>/<user>.xmi``); units align by
``DocumentMetaData``'s ``documentTitle`` and the sentence number when the CAS has them, else by text.
A span off token boundaries, without a label or across sentences is an error naming the file and
its character offsets (``widen`` widens it).

Layers: the default layer absent or empty while other layers hold spans (custom layers are
common) is an error naming the layers that do, with their counts and features; a layer chosen
with ``layer`` that is empty there is a warning. Types an XMI names that its type system lacks
(cassis leaves their annotations out) are one warning, or part of that error, saying which type
system was used (DKPro Core's when no TypeSystem.xml is beside the file) and what to do.
"""

from __future__ import annotations

import json
import re
import warnings
from bisect import bisect_left
from pathlib import Path

from ..annotated_text import annotate, warn_widened
from ..tokenizer import TOKENIZERS
from .base import Annotator, Reader, ReadOptions, read_text, unit_of

DKPRO = "de.tudarmstadt.ukp.dkpro.core.api"
NAMED_ENTITY = f"{DKPRO}.ner.type.NamedEntity"
TOKEN = f"{DKPRO}.segmentation.type.Token"
SENTENCE = f"{DKPRO}.segmentation.type.Sentence"
METADATA = f"{DKPRO}.metadata.type.DocumentMetaData"
DEFAULT_FEATURE = "value"
EXTRA = "inception"


def _cassis():
    try:
        import cassis
    except ImportError:
        raise ValueError(f"reading INCEpTION CAS files needs dkpro-cassis (the package's '{EXTRA}' extra): "
                         f"pip install dkpro-cassis") from None
    return cassis


def _sniff_json(head: bytes, path: Path) -> bool:
    text = head.decode("utf-8-sig", errors="replace").lstrip()
    return text.startswith("{") and ('"%TYPES"' in text or '"%FEATURE_STRUCTURES"' in text)


_LEGACY_KEYS = ('"_referenced_fss"', '"_views"', '"_context"')  # UIMA's JsonCasSerializer layout


def _resembles_json(head: bytes, path: Path) -> bool:
    """INCEpTION's legacy UIMA CAS JSON (``_context``, ``_views``, ``_referenced_fss``), which
    ``_check_json`` refuses with what to do."""
    text = head.decode("utf-8-sig", errors="replace").lstrip()
    return text.startswith("{") and any(key in text for key in _LEGACY_KEYS)


def _check_json(path: Path) -> None:
    """Refuse a JSON file that is not a UIMA CAS JSON one (``%TYPES`` and ``%FEATURE_STRUCTURES``)
    before cassis reads it (its errors name nothing): the legacy layout says how to export again.
    Text that is not JSON is left to cassis, whose error ``_load_quietly`` reports."""
    try:
        document = json.loads(read_text(path))  # UTF-8: a byte that is not is an error naming its line
    except (json.JSONDecodeError, RecursionError):
        return
    if isinstance(document, dict) and ("%FEATURE_STRUCTURES" in document or "%TYPES" in document):
        return
    if isinstance(document, dict) and any(key.strip('"') in document for key in _LEGACY_KEYS):
        raise ValueError(f"{path}: INCEpTION's legacy UIMA CAS JSON (the _views/_referenced_fss layout), which is "
                         f"not read; export the documents again as 'UIMA CAS JSON' (the current format) or 'UIMA "
                         f"CAS XMI'")
    keys = list(document)[:6] if isinstance(document, dict) else type(document).__name__
    raise ValueError(f"{path}: not a UIMA CAS JSON file: it has no %FEATURE_STRUCTURES (found {keys}); "
                     f"export the documents from INCEpTION as 'UIMA CAS JSON' or 'UIMA CAS XMI'")


def _sniff_xmi(head: bytes, path: Path) -> bool:
    text = head.decode("utf-8-sig", errors="replace").lstrip()
    return text.startswith("<") and ("http://www.omg.org/XMI" in text or "<xmi:XMI" in text)


def typesystem_file(path, chosen=None) -> Path | None:
    """The type system file an XMI file is read with: ``chosen`` (``--typesystem``), else the
    ``TypeSystem.xml`` (or ``typesystem.xml``) beside it, else None (DKPro Core's, from cassis).

    Parameters
    ----------
    path : str or Path
        The XMI file.
    chosen : str or Path, optional
        The type system given on the command line.

    Returns
    -------
    Path or None
        The file read as the type system, if any.

    Examples
    --------
    >>> typesystem_file("annotation/doc/alice.xmi", "types.xml")
    PosixPath('types.xml')
    """
    if chosen:
        return Path(chosen)
    folder = Path(path).parent
    return next((p for p in (folder / "TypeSystem.xml", folder / "typesystem.xml") if p.is_file()), None)


_NOT_FOUND = re.compile(r"Type with name \[([^\]]+)\] not found")  # cassis's lenient XMI reading


def _load(path: Path, options: ReadOptions, xmi: bool):
    """The CAS of ``path`` and the types its XMI names that the type system lacks (cassis leaves
    their annotations out, warning once each: gathered here into ``_missing_types``' one line)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cas = _load_quietly(path, options, xmi)
    missing = []
    for warning in caught:
        found = _NOT_FOUND.search(str(warning.message))
        if found:
            missing.append(found.group(1))
        elif not issubclass(warning.category, DeprecationWarning):  # cassis's own use of importlib.resources
            warnings.warn(warning.message, warning.category, stacklevel=2)
    return cas, sorted(set(missing))


def _types_source(path: Path, options: ReadOptions) -> str:
    """How messages name the type system an XMI file was read with."""
    chosen = typesystem_file(path, options.typesystem)
    if chosen is None:
        return "DKPro Core's type system (no TypeSystem.xml beside the file, no --typesystem)"
    return f"the type system {chosen}"


def _missing_types(path: Path, options: ReadOptions, missing: list) -> str:
    """The sentence saying which types the type system lacks (their annotations left out), and what to do."""
    return (f"read with {_types_source(path, options)}, which has no {', '.join(missing)}: their annotations are "
            f"left out; put the project's TypeSystem.xml (INCEpTION's export has it) beside the file or give "
            f"--typesystem")


def _load_quietly(path: Path, options: ReadOptions, xmi: bool):
    cassis = _cassis()
    if not xmi:
        _check_json(path)  # UTF-8 JSON in the current layout, else an error naming the line or the layout
    try:
        if not xmi:
            with path.open("rb") as handle:
                return cassis.load_cas_from_json(handle)
        typesystem = typesystem_file(path, options.typesystem)
        if typesystem is None:
            types = cassis.load_dkpro_core_typesystem()
        else:
            with typesystem.open("rb") as handle:
                types = cassis.load_typesystem(handle)
        with path.open("rb") as handle:
            return cassis.load_cas_from_xmi(handle, typesystem=types, lenient=True)
    except RecursionError:
        raise ValueError(f"{path}: not a readable UIMA CAS {'XMI' if xmi else 'JSON'} file (nested too "
                         f"deeply)") from None
    except (ValueError, KeyError, TypeError, AttributeError, SyntaxError,
            cassis.typesystem.TypeNotFoundError) as error:  # cassis's parse errors
        raise ValueError(f"{path}: not a readable UIMA CAS {'XMI' if xmi else 'JSON'} file "
                         f"({type(error).__name__}: {error})") from None


_STRUCTURE = (f"{DKPRO}.segmentation.type.", f"{DKPRO}.metadata.type.", "uima.")  # not span layers


def _span_layers(cas) -> str:
    """The annotation types of ``cas`` that hold annotations, other than its structure (tokens,
    sentences, metadata): each with its count and label features, for ``--layer``/``--feature``."""
    counts: dict = {}
    every = cas.select_all_annotations if hasattr(cas, "select_all_annotations") else cas.select_all
    for annotation in every():
        name = annotation.type.name
        if hasattr(annotation, "begin") and not name.startswith(_STRUCTURE):
            counts[name] = counts.get(name, 0) + 1
    def features(name: str) -> str:
        own = [f.name for f in cas.typesystem.get_type(name).all_features if f.name not in ("sofa", "begin", "end")]
        return ", ".join(own) or "none"

    return "; ".join(f"{name} ({count}, features: {features(name)})" for name, count in sorted(counts.items()))


def _layer(cas, path: Path, options: ReadOptions, missing: list):
    """The span layer read: ``options.layer`` or NamedEntity. A default layer absent or empty while
    other layers hold spans (custom layers are common), or whose types the type system lacks, is
    refused naming the layers that hold spans; a chosen layer that is empty there is a warning."""
    wanted = options.layer or NAMED_ENTITY
    names = [t.name for t in cas.typesystem.get_types()]
    matches = [t for t in names if t == wanted or t.rsplit(".", 1)[-1] == wanted]
    holding = _span_layers(cas)
    where = f"the layers holding spans: {holding}" if holding else "no layer holds spans"
    advice = _missing_types(path, options, missing) if missing else "choose one with --layer (its label: --feature)"
    if len(matches) != 1:
        raise ValueError(f"{path}: {'no' if not matches else 'more than one'} layer type {wanted!r} in the type "
                         f"system ({where}); {advice}")
    layer = cas.typesystem.get_type(matches[0])
    if any(True for _ in cas.select(layer)) or not (holding or missing):
        if missing:
            warnings.warn(f"{path}: {_missing_types(path, options, missing)}", UserWarning, stacklevel=3)
        return layer
    empty = f"{path}: the {layer.name.rsplit('.', 1)[-1]} layer holds no annotation ({where}); {advice}"
    if options.layer is None:
        raise ValueError(empty)
    warnings.warn(empty, UserWarning, stacklevel=3)
    return layer


def _title(cas) -> str | None:
    if not cas.typesystem.contains_type(METADATA):
        return None
    found = list(cas.select(METADATA))
    return (getattr(found[0], "documentTitle", None) or getattr(found[0], "documentId", None)) if found else None


def _spans(cas, layer, feature: str, begin: int, end: int, path: Path) -> list:
    spans = []
    for annotation in cas.select(layer):
        if annotation.end <= begin or annotation.begin >= end:
            continue
        where = f"{path} characters {annotation.begin}-{annotation.end}"
        if annotation.begin < begin or annotation.end > end:
            raise ValueError(f"{where}: the {layer.name.rsplit('.', 1)[-1]} annotation crosses a sentence boundary")
        label = getattr(annotation, feature, None)
        if not isinstance(label, str) or not label:
            raise ValueError(f"{where}: the annotation has no {feature!r} label (choose the feature with --feature)")
        spans.append((annotation.begin - begin, annotation.end - begin, label, where))
    return spans


def _tokenizer_name(options: ReadOptions) -> str:
    """The name ``--tokenizer`` gives the tokenizer of ``options`` (``words``: the default)."""
    return next((name for name, tokenizer in TOKENIZERS.items() if tokenizer is options.tokenizer),
                "words" if options.tokenizer is None else "the one given")


def _read(path: Path, options: ReadOptions, xmi: bool) -> list[Annotator]:
    cas, missing = _load(path, options, xmi)
    layer = _layer(cas, path, options, missing)
    feature = options.feature or DEFAULT_FEATURE
    if not any(f.name == feature for f in layer.all_features):
        raise ValueError(f"{path}: layer {layer.name} has no feature {feature!r} "
                         f"(features: {[f.name for f in layer.all_features]}); choose one with --feature")
    text, title = cas.sofa_string or "", _title(cas)
    sentences = list(cas.select(SENTENCE)) if cas.typesystem.contains_type(SENTENCE) else []
    bounds = [(s.begin, s.end) for s in sentences] or [(0, len(text))]
    cas_tokens = sorted((t.begin, t.end) for t in cas.select(TOKEN)) if cas.typesystem.contains_type(TOKEN) else []
    if not cas_tokens and text.strip():
        warnings.warn(f"{path}: no Token annotations: tokens from the tokenizer ({_tokenizer_name(options)}; "
                      f"--tokenizer chooses)", UserWarning, stacklevel=2)
    starts = [start for start, _ in cas_tokens]
    units, texts = [], []
    for number, (begin, end) in enumerate(bounds, start=1):
        tokens: list | None
        if cas_tokens:
            tokens = [(a - begin, b - begin) for a, b in cas_tokens[bisect_left(starts, begin):bisect_left(starts, end)]
                      if b <= end]
        else:
            tokens = None if options.tokenizer is None else options.tokenizer(text[begin:end])
        annotated = annotate(text[begin:end], tokens, _spans(cas, layer, feature, begin, end, path),
                             f"{path} sentence {number}", options.widen)
        texts.append(annotated)
        units.append(unit_of(annotated, None if title is None else f"{title}#{number}"))
    warn_widened(texts, str(path))
    return [Annotator(path.stem, str(path), units, named_by_file=True)]


READERS = (
    Reader("uima-json", "UIMA CAS JSON (INCEpTION export; needs dkpro-cassis)", _sniff_json,
           lambda path, options: _read(path, options, False), EXTRA, resembles=_resembles_json,
           near_misses=("INCEpTION's legacy UIMA CAS JSON",)),
    Reader("uima-xmi", "UIMA CAS XMI (INCEpTION export; needs dkpro-cassis)", _sniff_xmi,
           lambda path, options: _read(path, options, True), EXTRA),
)

__all__ = ["DEFAULT_FEATURE", "METADATA", "NAMED_ENTITY", "READERS", "SENTENCE", "TOKEN", "typesystem_file"]
