"""The continuum of gamma: every annotator's units on one line (Mathet et al. 2015, section 4).

A continuum holds ``N`` units of ``n`` annotators as parallel arrays, sorted by annotator (in the
order given), then start, end and category (pygamma's order of units). Positions are floats: token
offsets for text, seconds for speech. Several texts (sentences, documents) are laid end to end in
their order without a gap, as one document; ``text_offsets`` keeps where each text starts, for the
random annotation model (segments stay inside their text) and for the report.

Three ways in, each checked with errors naming the text, annotator and unit:

- :func:`continuum_from_units`: ``{annotator: [(category, start, end), ...]}``, one text, real
  positions (``start < end``);
- :func:`continuum_from_texts` with tag sequences: ``annotations[t][i]`` is annotator ``i``'s tags
  for text ``t`` (BIO and the other schemes, chunked as seqeval chunks them);
- :func:`continuum_from_texts` with span lists: ``annotations[t][i]`` is a list of
  ``(category, start, end)`` token spans of text ``t`` (``0 <= start < end <= lengths[t]``);
- :func:`continuum_from_annotated`: every annotator's file as the readers give it
  (:func:`chance_agreement.read_jsonl`, :func:`chance_agreement.read_brat`), same texts and tokens.

Units are never merged or dropped: two equal units of one annotator stay two units.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np

from ...spans.annotated_text import pair_annotations
from ...spans.annotation_set import AnnotationSet
from ...spans.tags import corpus_spans, effective_scheme

__all__ = ["Continuum", "continuum_from_annotated", "continuum_from_texts", "continuum_from_units"]


@dataclass(frozen=True, eq=False)
class Continuum:
    """Units of several annotators: parallel arrays sorted by (annotator, start, end, category).

    ``annotator`` and ``category`` are indices into ``annotators`` and ``categories`` (sorted as
    strings). ``text_offsets`` (None for a single text of unknown length) has the start of every
    text and, last, the total length; ``bounds`` is ``(min(0, first start), max(length, last end))``.
    """

    annotators: tuple
    categories: tuple
    annotator: np.ndarray
    start: np.ndarray
    end: np.ndarray
    category: np.ndarray
    text_offsets: np.ndarray | None = None

    @property
    def n_units(self) -> int:
        return int(self.start.size)

    @property
    def n_annotators(self) -> int:
        return len(self.annotators)

    @property
    def bounds(self) -> tuple[float, float]:
        low = min(0.0, float(self.start.min())) if self.n_units else 0.0
        high = max(0.0, float(self.end.max())) if self.n_units else 0.0
        if self.text_offsets is not None:
            high = max(high, float(self.text_offsets[-1]))
        return low, high

    def units_of(self, index: int) -> np.ndarray:
        """Unit indices of annotator ``index`` (a contiguous, sorted range)."""
        return np.flatnonzero(self.annotator == index)

    def text_of(self, units) -> np.ndarray:
        """Index of the text each unit starts in (all 0 without ``text_offsets``)."""
        if self.text_offsets is None:
            return np.zeros(np.size(units), dtype=np.int64)
        return np.searchsorted(self.text_offsets[1:-1], self.start[units], side="right")


def build(annotators, categories, annotator, start, end, category, text_offsets=None) -> Continuum:
    """A continuum from unsorted unit arrays (``categories`` sorted, ``category`` indexing it)."""
    annotator = np.asarray(annotator, dtype=np.int64)
    start, end = np.asarray(start, dtype=np.float64), np.asarray(end, dtype=np.float64)
    category = np.asarray(category, dtype=np.int64)
    order = np.lexsort((category, end, start, annotator))
    offsets = None if text_offsets is None else np.asarray(text_offsets, dtype=np.float64)
    return Continuum(tuple(annotators), tuple(categories), annotator[order], start[order], end[order],
                     category[order], offsets)


def _category_order(names) -> list:
    return sorted(set(names), key=lambda name: (str(type(name)), str(name)))


def continuum_from_units(units) -> Continuum:
    """One text: ``{annotator: [(category, start, end), ...]}`` with real ``start < end``.

    An annotator with an empty list is an annotator who found no unit (it counts in the number
    of annotators). Categories are any hashable values; the order of ``categories`` is sorted.
    """
    if not isinstance(units, dict) or not units:
        raise ValueError("units must be a non-empty dict {annotator: [(category, start, end), ...]}")
    rows = []
    for i, (name, annotator_units) in enumerate(units.items()):
        if isinstance(annotator_units, (str, bytes)) or not isinstance(annotator_units, (Sequence, np.ndarray)):
            raise ValueError(f"annotator {name!r}: expected a list of (category, start, end), got "
                             f"{type(annotator_units).__name__}")
        for k, unit in enumerate(annotator_units):
            rows.append((i, *_check_unit(unit, f"annotator {name!r}, unit {k}")))
    return _from_rows(list(units), rows, None)


def _check_unit(unit, where: str, length=None, integer: bool = False) -> tuple:
    if isinstance(unit, (str, bytes)) or not isinstance(unit, (Sequence, np.ndarray)) or len(unit) != 3:
        raise ValueError(f"{where}: expected (category, start, end), got {unit!r}")
    category, start, end = unit
    for name, value in (("start", start), ("end", end)):
        kind = Integral if integer else Real
        if isinstance(value, bool) or not isinstance(value, kind) or not math.isfinite(value):
            what = "an integer token offset" if integer else "a finite number"
            raise ValueError(f"{where}: {name} must be {what}, got {value!r}")
    if not start < end:
        raise ValueError(f"{where}: start {start} must be below end {end} (a unit has a positive length)")
    if length is not None and not (start >= 0 and end <= length):
        raise ValueError(f"{where}: ({start}, {end}) lies outside the text [0, {length})")
    if category is None:
        raise ValueError(f"{where}: the category is None")
    return category, float(start), float(end)


def _from_rows(annotators, rows, text_offsets) -> Continuum:
    categories = _category_order(row[1] for row in rows)
    index = {c: k for k, c in enumerate(categories)}
    category: Sequence
    if rows:
        annotator, labels, start, end = zip(*rows, strict=True)
        category = [index[c] for c in labels]
    else:
        annotator = category = start = end = ()
    return build(annotators, categories, annotator, start, end, category, text_offsets)


def continuum_from_texts(annotations, *, lengths=None, annotators=None, scheme=None, mode=None,
                         suffix: bool = False) -> Continuum:
    """Texts laid end to end: ``annotations[t][i]`` is annotator ``i``'s tags or spans of text ``t``.

    Tag sequences are chunked as seqeval chunks a corpus (``scheme``, ``mode``, ``suffix`` as in
    :func:`chance_agreement.spans_from_tags`); span lists need ``lengths[t]``, the number of
    tokens of text ``t``. ``annotators`` names them (default ``"annotator 0"``, ...). An
    ``AnnotationSet`` (every annotator on every text) gives its spans as they are.
    """
    if isinstance(annotations, AnnotationSet):
        if lengths is not None:
            raise ValueError("lengths are only for span lists: an AnnotationSet has its own lengths")
        annotations.chunked_as(scheme, mode, suffix, "gamma_agreement")
        names = list(annotations.names) if annotators is None else _annotator_names(annotators,
                                                                                  annotations.n_annotators)
        return _from_set(annotations, names)
    texts = _check_texts(annotations)
    n = len(texts[0])
    names = _annotator_names(annotators, n)
    tagged = any(isinstance(item, str) for text in texts for seq in text for item in seq)
    if tagged:
        if lengths is not None:
            raise ValueError("lengths are only for span lists: tag sequences have their own lengths")
        return _from_tags(texts, names, scheme, mode, suffix)
    return _from_spans(texts, names, _check_lengths(lengths, len(texts)))


def _annotator_names(annotators, n: int) -> list:
    if annotators is None:
        return [f"annotator {i}" for i in range(n)]
    names = list(annotators)
    if len(names) != n or len(set(names)) != n:
        raise ValueError(f"annotators must be {n} distinct names, got {annotators!r}")
    return names


def _check_texts(annotations) -> list[list]:
    if isinstance(annotations, (str, bytes)) or not isinstance(annotations, (Sequence, np.ndarray)):
        raise ValueError("annotations must be a list over texts of lists over annotators")
    if len(annotations) == 0:
        raise ValueError("empty input: no texts were given")
    texts = []
    for t, text in enumerate(annotations):
        if isinstance(text, (str, bytes)) or not isinstance(text, (Sequence, np.ndarray)):
            raise ValueError(f"text {t}: expected a list over annotators, got {type(text).__name__}")
        if len(text) != len(annotations[0]):
            raise ValueError(f"text {t} has {len(text)} annotators but text 0 has {len(annotations[0])}")
        for i, item in enumerate(text):
            if item is None or isinstance(item, (str, bytes)) or not isinstance(item, (Sequence, np.ndarray)):
                raise ValueError(f"text {t}, annotator {i}: expected a list of tags or of (category, start, end) "
                                 f"spans, got {item!r}")
        texts.append(list(text))
    if len(texts[0]) < 2:
        raise ValueError(f"gamma needs two or more annotators, got {len(texts[0])}")
    return texts


def _check_lengths(lengths, n_texts: int) -> list[int]:
    if lengths is None:
        raise ValueError("span lists need lengths: the number of tokens of every text")
    lengths = list(lengths)
    if len(lengths) != n_texts:
        raise ValueError(f"lengths has {len(lengths)} values for {n_texts} texts")
    for t, length in enumerate(lengths):
        if isinstance(length, bool) or not isinstance(length, Integral) or length < 0:
            raise ValueError(f"lengths[{t}] must be a non-negative integer, got {length!r}")
    return [int(length) for length in lengths]


def _from_tags(texts, names, scheme, mode, suffix: bool) -> Continuum:
    n = len(names)
    for t, text in enumerate(texts):
        for i, tags in enumerate(text):
            if len(tags) != len(text[0]):
                raise ValueError(f"text {t}: annotator {i} has {len(tags)} tags but annotator 0 has {len(text[0])}")
    scheme = effective_scheme([seq for text in texts for seq in text], scheme, mode, suffix)
    lengths = [len(text[0]) for text in texts]
    per_annotator = [corpus_spans([text[i] for text in texts], names[i], scheme, mode, suffix) for i in range(n)]
    return _from_text_spans(names, per_annotator, lengths)


def _from_set(annotations: AnnotationSet, names) -> Continuum:
    """The continuum of an ``AnnotationSet`` (every annotator on every text), its spans as they are."""
    missing = np.argwhere(~annotations.present)
    if missing.size:
        i, t = missing[0].tolist()
        raise ValueError(f"text {t}, annotator {i}: not annotated; gamma needs every annotator on every text")
    per_annotator = [annotations.sentence_spans(i) for i in range(annotations.n_annotators)]
    return _from_text_spans(names, per_annotator, annotations.lengths.tolist())


def _from_text_spans(names, per_annotator: list, lengths: list) -> Continuum:
    """``per_annotator[i][t]``: annotator ``i``'s spans ``(type, start, end)`` of text ``t``, laid end to end."""
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    rows = [(i, type_, float(offsets[t] + s), float(offsets[t] + e))
            for i, per_text in enumerate(per_annotator) for t, spans in enumerate(per_text) for type_, s, e in spans]
    return _from_rows(names, rows, offsets)


def _from_spans(texts, names, lengths) -> Continuum:
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    rows = []
    for t, text in enumerate(texts):
        for i, spans in enumerate(text):
            for k, unit in enumerate(spans):
                category, s, e = _check_unit(unit, f"text {t}, annotator {i}, span {k}", lengths[t], integer=True)
                rows.append((i, category, float(offsets[t] + s), float(offsets[t] + e)))
    return _from_rows(names, rows, offsets)


def continuum_from_annotated(annotated: dict) -> Continuum:
    """``{annotator: [AnnotatedText, ...]}`` (each reader's output for the same texts): the token
    spans of every annotator, texts laid end to end. Texts and tokens must match the first
    annotator's (``pair_annotations`` names the file and text that differ)."""
    if not isinstance(annotated, dict) or len(annotated) < 2:
        raise ValueError("annotated must be a dict {annotator: [AnnotatedText, ...]} of two or more annotators")
    names = list(annotated)
    first = annotated[names[0]]
    per_annotator, lengths = [], None
    for name in names[1:]:
        spans_first, spans_other, lengths = pair_annotations(first, annotated[name])
        per_annotator.append(spans_other)
    per_annotator.insert(0, spans_first)
    texts = [[[(label, start, end) for start, end, label in spans[t]] for spans in per_annotator]
             for t in range(len(lengths))]  # type: ignore[arg-type]  # two or more annotators: set in the loop
    return _from_spans(texts, names, lengths)
