"""Every annotator's entity spans of the same sentences, chunked once, as arrays.

An ``AnnotationSet`` is the internal currency of the scores: tags are chunked (as seqeval chunks
them, ``spans.tags``) once, when the set is built, and every measure reads the spans from it
instead of chunking the tags again. See :class:`AnnotationSet`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import chain, pairwise
from typing import Any

import numpy as np

from .annotators import check_tags, flat_units
from .conll import lines_named
from .nested import build_forest, check_lengths, check_span_lists, tags_from_spans
from .tags import (
    SpanArrays,
    check_corpus,
    chunk_corpus,
    effective_scheme,
    first_odd,
    paired_scheme,
    span_arrays_of,
    warn_odd_tags,
)
from .validation import by_annotator, check_annotations

Span = tuple[str, int, int]


@dataclass(frozen=True, eq=False)
class AnnotationSet:
    """The entity spans of m annotators on the same n sentences (items), chunked once, as arrays.

    Build one with :meth:`from_tags` (one tag list per annotator, or a ``{name: tags}`` dict),
    :meth:`from_items` (per sentence, the annotators' tags: the layout of the several-annotator
    functions), :meth:`from_spans` (token span lists and sentence lengths) or :meth:`from_team`
    (the file readers' output, ``read_annotators``). The scores (``chance_f1``,
    ``team_chance_f1``, ``contingency``, ``noise_report``, ``multi_annotator_agreement``, ...)
    take a set wherever they take tags, and read its spans without chunking again.

    Layout (a flat CSR table, annotator-major): annotator ``a``'s spans of sentence ``s`` are the
    rows ``offsets[a, s]`` to ``offsets[a, s + 1]`` of ``begin``, ``end`` and ``type_code``, in the
    chunker's order (by end); ``end`` is exclusive and both count tokens within the sentence;
    ``types[type_code[i]]`` is the entity type. ``tag_codes[a]`` holds the code of each token's tag
    (the sentences one after another; ``tag_names[code]`` is the tag, ``-1`` where the annotator did
    not annotate the sentence); equal tags have equal codes across annotators, and a set built from
    spans holds their IOB2 tags. ``present[a, s]`` is False where annotator ``a`` did not annotate
    sentence ``s`` (``None`` in the input). ``scheme``, ``mode`` and ``suffix`` record how the tags
    were chunked (a set from spans: ``None``, ``None``, ``False``). ``nested``: built by
    ``from_spans(..., nested=True)``, spans may lie inside others (a forest per sentence, ordered
    by start, then longest first); only the nested functions (``nested_chance_f1``) and gamma take
    such a set, and its ``tag_codes`` are all ``-1`` (nested spans have no tags).

    Parameters
    ----------
    names : tuple of str
        The annotators' names (errors and warnings name them).
    lengths : numpy.ndarray
        Tokens of each sentence, shape ``(n,)``.
    present : numpy.ndarray
        Bool, shape ``(m, n)``.
    types : tuple of str
        Entity type of each type code.
    offsets : numpy.ndarray
        Shape ``(m, n + 1)``: the span rows of each annotator and sentence.
    begin, end, type_code : numpy.ndarray
        One row per span.
    tag_codes : numpy.ndarray
        Shape ``(m, sum(lengths))``.
    tag_names : tuple of str
        The tag of each tag code.
    scheme, mode, suffix
        The chunker's options (``scheme``: the resolved seqeval scheme class in strict mode).
    nested : bool
        Spans may nest (``from_spans(..., nested=True)``). The ``from_*`` constructors fill every
        field; build a set with them.

    Examples
    --------
    >>> tags = {"ann": [["B-PER", "I-PER", "O"], ["O", "B-LOC"]], "bob": [["B-PER", "O", "O"], None]}
    >>> annotations = AnnotationSet.from_tags(tags)
    >>> annotations.names, annotations.lengths.tolist()
    (('ann', 'bob'), [3, 2])
    >>> annotations.sentence_spans(0)
    [[('PER', 0, 2)], [('LOC', 1, 2)]]
    >>> annotations.sentence_spans(1)
    [[('PER', 0, 1)], None]
    >>> AnnotationSet.from_spans([[[(0, 2, "PER")], []]], [3, 2]).sentence_spans(0)
    [[('PER', 0, 2)], []]
    """

    names: tuple
    lengths: np.ndarray
    present: np.ndarray
    types: tuple
    offsets: np.ndarray
    begin: np.ndarray
    end: np.ndarray
    type_code: np.ndarray
    tag_codes: np.ndarray
    tag_names: tuple
    scheme: object = None
    mode: str | None = None
    suffix: bool = False
    nested: bool = False
    _cache: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    # --- building ------------------------------------------------------------------------------

    @classmethod
    def from_tags(cls, annotations, *, names=None, scheme=None, mode=None, suffix: bool = False) -> AnnotationSet:
        """The set of tag sequences given annotator by annotator, each corpus chunked once.

        Parameters
        ----------
        annotations : dict or list
            ``{name: tags}`` or a list of ``tags``; ``tags[s]`` is the annotator's tag list of
            sentence ``s`` (``None``: not annotated). Every annotator has the same sentences, and
            two annotators of a sentence the same number of tags.
        names : list of str, optional
            The annotators' names (default: the dict's keys, else ``"annotator_1"``, ...).
        scheme, mode, suffix : optional
            As in ``spans_from_tags``; strict mode without a scheme detects it from every sequence.

        Returns
        -------
        AnnotationSet

        Raises
        ------
        ValueError
            A tag the chunker refuses, naming the annotator, the sentence and the position; sentences
            of different lengths or counts.

        Warns
        -----
        OddTagWarning
            Once per distinct tag seqeval warns about, naming the first annotator and sentence.

        Examples
        --------
        >>> AnnotationSet.from_tags([[["B-PER", "O"]], [["O", "B-LOC"]]]).names
        ('annotator_1', 'annotator_2')
        >>> AnnotationSet.from_tags({"ann": [["B-PER", None]]})
        Traceback (most recent call last):
        ...
        chance_agreement.spans.validation.TagTypeError: ann[0], position 1: the tag is None, not a string
        """
        names, corpora = _named(annotations, names)
        checked = _checked_corpora(corpora, names)
        resolved = effective_scheme([tags for corpus in checked for tags in corpus], scheme, mode, suffix)
        built, odd = _chunked(checked, names, resolved, mode, suffix)
        warn_odd_tags(_merged_odd(odd), suffix)
        return built

    @classmethod
    def from_items(cls, items, *, names=None, scheme=None, mode=None, suffix: bool = False,
                   function: str = "AnnotationSet.from_items") -> AnnotationSet:
        """``from_tags`` of several annotators' tags given sentence by sentence.

        Parameters
        ----------
        items : list of list
            ``items[s][a]``: annotator ``a``'s tags of sentence ``s``, ``None`` if ``a`` did not
            annotate it (the layout of every several-annotator function, ``spans.validation``; one
            list per annotator is ``by_item(annotators)``).
        names, scheme, mode, suffix
            As in ``from_tags``.
        function : str
            The name errors about the layout begin with.

        Returns
        -------
        AnnotationSet

        Raises
        ------
        ValueError
            As ``from_tags``, and an ambiguous or ragged layout (``check_annotations``).

        Examples
        --------
        >>> items = [[["B-PER", "O"], ["B-PER", "I-PER"]], [["O"], None]]
        >>> AnnotationSet.from_items(items, names=["ann", "bob"]).sentence_spans(1)
        [[('PER', 0, 2)], None]
        """
        rows = check_annotations(items, function=function)
        return cls.from_tags(by_annotator(rows), names=names, scheme=scheme, mode=mode, suffix=suffix)

    @classmethod
    def from_spans(cls, annotations, lengths, *, names=None, nested: bool = False) -> AnnotationSet:
        """The set of token span lists ``(start, end, label)`` (half-open, ``spans.nested``).

        Parameters
        ----------
        annotations : dict or list
            ``{name: spans}`` or a list of ``spans``; ``spans[s]`` the span list of sentence ``s``
            (``None``: not annotated).
        lengths : list of int
            Tokens of each sentence.
        names : list of str, optional
            As in ``from_tags``.
        nested : bool, default False
            Spans may lie inside others (each sentence a forest, ``spans.nested.build_forest``);
            else two spans sharing a token are an error.

        Returns
        -------
        AnnotationSet
            Its tags (``tag_codes``) are the spans' IOB2 tags (flat spans); nothing is chunked.

        Raises
        ------
        ValueError
            A span outside its sentence, an empty label, two spans sharing a token (no flat form;
            with ``nested``: two spans crossing or one given twice), naming the annotator and the
            sentence.

        Examples
        --------
        >>> AnnotationSet.from_spans({"ann": [[(0, 1, "PER"), (0, 2, "LOC")]]}, [2])
        Traceback (most recent call last):
        ...
        ValueError: ann[0]: spans (0, 1, 'PER') and (0, 2, 'LOC') share tokens, so they have no flat BIO form
        """
        lengths = check_lengths(lengths)
        names, corpora = _named(annotations, names)
        present = np.array([[spans is not None for spans in _sentences(corpus, len(lengths), name)]
                            for name, corpus in zip(names, corpora, strict=True)], dtype=bool).reshape(-1, len(lengths))
        per_annotator = []
        for name, corpus in zip(names, corpora, strict=True):
            checked = check_span_lists([[] if spans is None else spans for spans in corpus], lengths, name)
            order = _forest_order if nested else _flat_order
            per_annotator.append([order(spans, f"{name}[{s}]") for s, spans in enumerate(checked)])
        arrays = [span_arrays_of(sentences) for sentences in per_annotator]
        return _assembled(names, lengths, present, arrays, "nested" if nested else None, (None, None, False))

    @classmethod
    def from_team(cls, team, *, scheme=None, mode=None, suffix: bool = False, crossing: str = "error") -> AnnotationSet:
        """The set of the annotators ``read_annotators`` read from files, in their flat view.

        Units read with spans keep them (nothing is written as tags or chunked); units read with
        tags (column files) are chunked once. As in ``Team.flat``, a unit where types share tokens
        becomes one sentence per type, and spans of one type that cross follow ``crossing``.

        Parameters
        ----------
        team : Team
            ``read_annotators``' output (``spans.annotators``).
        scheme, mode, suffix : optional
            How the tags of column files are chunked (as in ``spans_from_tags``).
        crossing : {"error", "skip"}
            Spans of one type that cross: an error, or the later one left out (``team.skipped``).

        Returns
        -------
        AnnotationSet
            The same spans as ``from_tags`` of ``team.flat(...)``'s tags.

        Raises
        ------
        ValueError
            As ``Team.flat``: crossing spans, a bad tag naming the file and line.

        Examples
        --------
        >>> from chance_agreement import read_annotators
        >>> team = read_annotators(["tests/data/partial/doccano/alice.jsonl", "tests/data/partial/doccano/bob.jsonl"],
        ...                        partial=True)
        >>> annotations = AnnotationSet.from_team(team)
        >>> annotations.names, annotations.present.sum(axis=1).tolist()
        (('alice', 'bob'), [2, 2])
        """
        return flat_team(team, scheme=scheme, mode=mode, suffix=suffix, crossing=crossing)[2]

    # --- reading -------------------------------------------------------------------------------

    @property
    def n_annotators(self) -> int:
        """m, the number of annotators."""
        return len(self.names)

    @property
    def n_items(self) -> int:
        """n, the number of sentences."""
        return len(self.lengths)

    def sentence_spans(self, annotator: int) -> list:
        """Annotator ``annotator``'s spans ``[(type, start, end), ...]`` of every sentence, ``None``
        where it did not annotate the sentence (built once, then kept)."""
        key = ("spans", annotator)
        if key not in self._cache:
            rows = slice(self.offsets[annotator, 0], self.offsets[annotator, -1])
            types = np.array(self.types, dtype=object)
            spans = list(zip(types[self.type_code[rows]].tolist(), self.begin[rows].tolist(), self.end[rows].tolist(),
                             strict=True))
            cuts = (self.offsets[annotator] - self.offsets[annotator, 0]).tolist()
            self._cache[key] = [spans[cuts[s]:cuts[s + 1]] if self.present[annotator, s] else None
                                for s in range(self.n_items)]
        return self._cache[key]

    def span_arrays(self, annotator: int, items=None) -> SpanArrays:
        """Annotator ``annotator``'s spans of ``items`` (default: every sentence) as ``SpanArrays``,
        the sentences numbered ``0, 1, ...`` in the order of ``items``."""
        items = np.arange(self.n_items) if items is None else np.asarray(items, dtype=np.intp)
        starts, stops = self.offsets[annotator, items], self.offsets[annotator, items + 1]
        counts = stops - starts
        rows = np.repeat(stops - np.cumsum(counts), counts) + np.arange(int(counts.sum()))
        sentence = np.repeat(np.arange(len(items)), counts)
        return SpanArrays(sentence, self.type_code[rows], self.begin[rows], self.end[rows], list(self.types))

    def shared_items(self, first: int, second: int) -> np.ndarray:
        """The sentences both annotators annotated, in order."""
        return np.flatnonzero(self.present[first] & self.present[second])

    def equal_tags(self, first: int, second: int) -> np.ndarray:
        """Per sentence, the tokens the two annotators gave the same tag (0 where either is absent)."""
        equal = (self.tag_codes[first] == self.tag_codes[second]) & (self.tag_codes[first] >= 0)
        cuts = np.concatenate(([0], np.cumsum(self.lengths)))
        return np.add.reduceat(np.append(equal, False).astype(np.int64), cuts)[:-1] * (np.diff(cuts) > 0)

    def select(self, annotators=None, items=None) -> AnnotationSet:
        """The set of some annotators (indices, in the order given) and some sentences (indices)."""
        annotators = list(range(self.n_annotators)) if annotators is None else list(annotators)
        items = np.arange(self.n_items) if items is None else np.asarray(items, dtype=np.intp)
        arrays = [self.span_arrays(a, items) for a in annotators]
        tokens = _token_positions(self.lengths, items)
        codes = self.tag_codes[np.ix_(annotators, tokens)] if annotators else self.tag_codes[:0]
        return _assembled([self.names[a] for a in annotators], self.lengths[items].tolist(),
                          self.present[np.ix_(annotators, items)], arrays, (codes, self.tag_names),
                          (self.scheme, self.mode, self.suffix), self.nested)

    def with_empty(self, annotator: int, items) -> AnnotationSet:
        """The set where annotator ``annotator`` annotated the sentences ``items`` (which it did not)
        with no entity: present, no span, every tag ``O`` (as if all-``O`` tags had been chunked).

        >>> annotations = AnnotationSet.from_tags({"ann": [["B-PER", "O"]], "llm": [None]})
        >>> annotations.with_empty(1, [0]).sentence_spans(1), annotations.with_empty(1, [0]).equal_tags(0, 1).tolist()
        ([[]], [1])
        """
        items = np.asarray(items, dtype=np.intp).reshape(-1)
        if self.present[annotator, items].any():
            raise ValueError(f"{self.names[annotator]} annotated sentence "
                             f"{int(items[self.present[annotator, items]][0])}: only sentences it did not annotate "
                             "can be given as empty")
        present, codes, tag_names = self.present.copy(), self.tag_codes.copy(), list(self.tag_names)
        present[annotator, items] = True
        if "O" not in tag_names:
            tag_names.append("O")
        codes[annotator, _token_positions(self.lengths, items)] = tag_names.index("O")
        return replace(self, present=present, tag_codes=codes, tag_names=tuple(tag_names))

    def chunked_as(self, scheme=None, mode=None, suffix: bool = False, function: str = "this function",
                   nested: bool = False) -> None:
        """Refuse chunker options other than the set's own: a set is chunked once, when it is built.
        ``None``/``False`` (the defaults) always pass. A nested set is refused unless ``nested``
        (the function takes nested spans)."""
        if self.nested and not nested:
            raise ValueError(f"{function}: the annotation set holds nested spans, which have no flat form: use "
                             "nested_chance_f1, or build the set from flat spans")
        if mode is not None and mode != self.mode:
            raise ValueError(f"{function}: the annotation set was chunked with mode={self.mode!r}, not {mode!r}: "
                             "give the chunker options when building the set")
        if suffix and not self.suffix:
            raise ValueError(f"{function}: the annotation set was chunked with suffix=False: give suffix=True "
                             "when building the set")
        if scheme is not None and self.mode == "strict" and effective_scheme((), scheme, "strict") is not self.scheme:
            raise ValueError(f"{function}: the annotation set was chunked with scheme {self.scheme!r}, not "
                             f"{scheme!r}: give the scheme when building the set")


# --- building blocks -------------------------------------------------------------------------------


def _named(annotations, names) -> tuple[list[str], list]:
    if isinstance(annotations, Mapping):
        given, corpora = [str(name) for name in annotations], list(annotations.values())
    elif isinstance(annotations, (str, bytes)) or not isinstance(annotations, Sequence):
        raise TypeError(f"annotations must be a dict {{name: annotation}} or a list of annotations, one per "
                        f"annotator; got {type(annotations).__name__}")
    else:
        corpora = list(annotations)
        given = [f"annotator_{a + 1}" for a in range(len(corpora))]
    if names is not None:
        given = [str(name) for name in names]
        if len(given) != len(corpora):
            raise ValueError(f"{len(given)} names for {len(corpora)} annotators")
    if len(set(given)) < len(given):
        raise ValueError(f"two annotators are named alike in {given}")
    if not corpora:
        raise ValueError("no annotators were given")
    return given, corpora


def _sentences(corpus, n: int, name: str) -> list:
    if isinstance(corpus, (str, bytes)) or not isinstance(corpus, Sequence):
        raise TypeError(f"{name} must be a list with one entry per sentence, got {type(corpus).__name__}")
    if len(corpus) != n:
        raise ValueError(f"{name} has {len(corpus)} sentences but lengths has {n}")
    return list(corpus)


def _checked_corpora(corpora, names) -> list[list]:
    """The corpora as lists (``None`` kept), checked: one shape, equal lengths per sentence."""
    checked = []
    for name, corpus in zip(names, corpora, strict=True):
        check_corpus([[] if tags is None else tags for tags in corpus] if isinstance(corpus, list) else corpus, name)
        checked.append(list(corpus))
    sentences = {len(corpus) for corpus in checked}
    if len(sentences) > 1:
        counts = ", ".join(f"{name} {len(corpus)}" for name, corpus in zip(names, checked, strict=True))
        raise ValueError(f"the annotators have different numbers of sentences ({counts})")
    for s, row in enumerate(zip(*checked, strict=True)):
        given = [(name, len(tags)) for name, tags in zip(names, row, strict=True) if tags is not None]
        if len({length for _, length in given}) > 1:
            (first, a), (second, b) = given[0], next(g for g in given if g[1] != given[0][1])
            raise ValueError(f"sentence {s}: {first} has {a} tags but {second} has {b}")
    return checked


def _chunked(corpora, names, scheme, mode, suffix: bool, order=None) -> tuple[AnnotationSet, list[dict]]:
    """The set of checked corpora (``None``: not annotated) and each annotator's odd tags (not
    warned): every corpus chunked once (``tags.chunk_corpus``), in ``order`` (default: in turn;
    the first error raised is that of the first corpus chunked)."""
    n = len(corpora[0])
    present = np.array([[tags is not None for tags in corpus] for corpus in corpora], dtype=bool).reshape(-1, n)
    found: dict = {}
    table: dict = {}  # the array chunker's tag codes, shared by the corpora (1, 2, ...)
    for a in range(len(corpora)) if order is None else order:
        found[a] = chunk_corpus([[] if tags is None else tags for tags in corpora[a]], names[a], scheme, mode, suffix,
                                codes=table)
    arrays, odd = [found[a][0] for a in range(len(corpora))], [found[a][1] for a in range(len(corpora))]
    lengths = (list(map(len, corpora[0])) if present.all() else  # checked: every annotator's as long
               [len(next((tags for tags in row if tags is not None), ())) for row in zip(*corpora, strict=True)])
    tags: Any = corpora
    if present.all() and all(found[a][2] is not None for a in found):  # every token coded once by the chunker
        tags = (np.stack([found[a][2] for a in range(len(corpora))]) - 1, list(table))
    return _assembled(names, lengths, present, arrays, tags, (scheme, mode, suffix)), odd


def flat_team(team, *, scheme=None, mode=None, suffix: bool = False,
              crossing: str = "error") -> tuple[list, list, AnnotationSet]:
    """``(tokens, tags, AnnotationSet.from_team(team, ...))``: ``Team.flat``'s view (the tokens and
    every annotator's tags of each (layered) sentence) and its annotators' set, built together. The
    column files' tags are chunked once, with no line-by-line check before: only when chunking
    fails are they checked (``conll.lines_named``), so a bad tag is still named by its file, line
    and column."""
    with lines_named(lambda: check_tags(team, scheme, mode, suffix)):
        tokens, sentences, checked_scheme = flat_units(team, scheme=scheme, mode=mode, suffix=suffix,
                                                       crossing=crossing, check=False)
        tagged = [[unit for unit in units if isinstance(unit, list)] for units in sentences]
        resolved = effective_scheme([tags for corpus in tagged for tags in corpus], checked_scheme, mode, suffix)
        lengths = [len(words) for words in tokens]
        arrays, odd = [], []
        for name, units in zip(team.names, sentences, strict=True):
            chunked, odd_tags = (chunk_corpus([unit if isinstance(unit, list) else [] for unit in units], name,
                                              resolved, mode, suffix)[:2]
                                 if any(isinstance(unit, list) for unit in units) else (span_arrays_of([]), {}))
            given = span_arrays_of([_flat_order(unit, f"{name}[{s}]") if isinstance(unit, tuple) else []
                                    for s, unit in enumerate(units)])
            arrays.append(_merged(chunked, given))
            odd.append(odd_tags)
    warn_odd_tags(_merged_odd(odd), suffix)
    present = np.array([[unit is not None for unit in units] for units in sentences], dtype=bool)
    tags = [[tags_from_spans([unit], [n], role=name)[0] if isinstance(unit, tuple) else unit
             for unit, n in zip(units, lengths, strict=True)] for name, units in zip(team.names, sentences,
                                                                                     strict=True)]
    return tokens, tags, _assembled(team.names, lengths, present.reshape(len(sentences), len(lengths)), arrays, tags,
                                    (resolved, mode, suffix))


def _merged_odd(odd: list[dict]) -> dict:
    """Each odd tag once, with the first sentence that has it (on a tie, the first annotator)."""
    merged: dict = {}
    for found in odd:
        for tag, place in found.items():
            if tag not in merged or place[1] < merged[tag][1]:
                merged[tag] = place
    return merged


def pair_set(predictions, references, scheme=None, mode=None, suffix: bool = False) -> AnnotationSet:
    """Two annotations' tags as a set: annotator 0 ``"references"``, 1 ``"predictions"`` (the team
    functions' pair order), with ``paired_spans``' checks, errors and odd-tag warnings: the one
    conversion at the entry of the two-annotator functions."""
    resolved = paired_scheme(predictions, references, scheme, mode, suffix)
    built, odd = _chunked([list(references), list(predictions)], ["references", "predictions"], resolved, mode,
                          suffix, order=(1, 0))
    warn_odd_tags(first_odd(*odd), suffix)
    return built


def as_pair(predictions, references, scheme=None, mode=None, suffix: bool = False, *,
            function: str, nested: bool = False) -> AnnotationSet:
    """``pair_set`` of two tag corpora, or a two-annotator ``AnnotationSet`` given alone (as
    ``predictions``, ``references`` None: annotator 0 the references, 1 the predictions) over the
    sentences both annotated; ``nested``: the function takes a nested set."""
    if not isinstance(predictions, AnnotationSet):
        if isinstance(references, AnnotationSet):
            raise TypeError(f"{function}: give an AnnotationSet as the first argument, alone")
        return pair_set(predictions, references, scheme, mode, suffix)
    if references is not None:
        raise TypeError(f"{function}: an AnnotationSet holds both annotations: give it alone, without references")
    if predictions.n_annotators != 2:
        raise ValueError(f"{function}: the AnnotationSet has {predictions.n_annotators} annotators, expected 2 "
                         "(the references, then the predictions); use select([i, j]) to pick two")
    predictions.chunked_as(scheme, mode, suffix, function, nested)
    shared = predictions.shared_items(0, 1)
    if not predictions.lengths[shared].any():
        raise ValueError(f"{function}: empty input: the two annotators share no sentence with tokens")
    return predictions if len(shared) == predictions.n_items else predictions.select([0, 1], shared)


def _flat_order(spans: Sequence, where: str) -> list[Span]:
    """One sentence's checked ``(start, end, label)`` spans as ``(type, start, end)`` in order;
    two spans sharing a token are an error (``nested.tags_from_spans``' message)."""
    ordered = sorted(spans)
    for previous, span in pairwise(ordered):
        if span[0] < previous[1]:
            raise ValueError(f"{where}: spans {previous!r} and {span!r} share tokens, so they have no flat BIO form")
    return [(label, start, end) for start, end, label in ordered]


def _assembled(names, lengths, present, arrays: list[SpanArrays], tags, options, nested: bool = False) -> AnnotationSet:
    """The set of per-annotator ``SpanArrays`` (sentences numbered as the set's); ``tags``: the
    corpora (tag lists, ``None`` absent) to code, ``(codes, tag names)`` already coded, ``None``
    for the spans' IOB2 tags, ``"nested"`` for none (a nested set)."""
    lengths = np.asarray(lengths, dtype=np.intp).reshape(-1)
    n, m = len(lengths), len(arrays)
    types: dict = {}
    offsets = np.zeros((m, n + 1), dtype=np.intp)
    columns: list[list[np.ndarray]] = [[], [], []]
    total = 0
    for a, found in enumerate(arrays):
        recode = np.array([types.setdefault(name, len(types)) for name in found.names], dtype=np.intp)
        offsets[a] = total + np.concatenate(([0], np.cumsum(np.bincount(found.sentence, minlength=n))))
        total = int(offsets[a, -1])
        columns[0].append(np.asarray(found.begin, dtype=np.intp))
        columns[1].append(np.asarray(found.end, dtype=np.intp))
        columns[2].append(recode[found.type_code] if recode.size else np.zeros(0, dtype=np.intp))
    begin, end, type_code = (np.concatenate(column) if column else np.zeros(0, dtype=np.intp) for column in columns)
    tag_names: list | tuple
    if isinstance(tags, str):  # "nested": spans that have no tags
        nested, codes, tag_names = True, np.full((m, int(lengths.sum())), -1, dtype=np.intp), []
    elif tags is None:
        codes, tag_names = _iob2_codes(begin, end, type_code, offsets, lengths, list(types), present)
    elif isinstance(tags, tuple):
        codes, tag_names = tags
    else:
        codes, tag_names = _tag_codes(tags, lengths)
    scheme, mode, suffix = options
    return AnnotationSet(tuple(names), lengths, np.asarray(present, dtype=bool).reshape(m, n), tuple(types), offsets,
                         begin, end, type_code, codes, tuple(tag_names), scheme, mode, suffix, nested)


def _tag_codes(corpora, lengths: np.ndarray) -> tuple[np.ndarray, list]:
    """Each token's tag code, one row per annotator (``-1`` where absent), and the tags."""
    code_of: dict = {}
    codes = np.full((len(corpora), int(lengths.sum())), -1, dtype=np.intp)
    for a, corpus in enumerate(corpora):
        given = [s for s, tags in enumerate(corpus) if tags is not None]
        flat = list(chain.from_iterable(corpus[s] for s in given))
        for tag in set(flat).difference(code_of):
            code_of[tag] = len(code_of)
        codes[a, _token_positions(lengths, given)] = np.fromiter(map(code_of.__getitem__, flat), dtype=np.intp,
                                                                 count=len(flat))
    return codes, list(code_of)


def _token_positions(lengths: np.ndarray, items) -> np.ndarray:
    """The positions of the tokens of ``items`` (sentence indices) in the sentences laid end to end."""
    items = np.asarray(items, dtype=np.intp)
    sizes = lengths[items]
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))[items]
    return np.repeat(starts - np.cumsum(sizes) + sizes, sizes) + np.arange(int(sizes.sum()), dtype=np.intp)


def _merged(first: SpanArrays, second: SpanArrays) -> SpanArrays:
    """Two ``SpanArrays`` of the same sentences, each sentence's spans in one of them only."""
    types = {name: code for code, name in enumerate(first.names)}
    recode = np.array([types.setdefault(name, len(types)) for name in second.names], dtype=np.intp)
    columns = [np.concatenate([a, b]) for a, b in zip(first[:4], (second.sentence, recode[second.type_code]
                                                                   if recode.size else second.type_code,
                                                                   second.begin, second.end), strict=True)]
    order = np.argsort(columns[0], kind="stable")
    sentence, type_code, begin, end = (column[order] for column in columns)
    return SpanArrays(sentence, type_code, begin, end, list(types))


def _forest_order(spans: list, where: str) -> list[Span]:
    """One sentence's checked spans as ``(type, start, end)`` in forest order; crossing or repeated
    spans are an error (``nested.build_forest``' message)."""
    return [(node.label, node.start, node.end) for node in build_forest(spans, where)]


def _iob2_codes(begin, end, type_code, offsets, lengths, types: list, present) -> tuple[np.ndarray, list]:
    """The IOB2 tags of flat spans as codes: ``O`` 0, ``B-type`` ``2 t + 1``, ``I-type`` ``2 t + 2``."""
    tag_names = ["O"] + [f"{prefix}-{name}" for name in types for prefix in ("B", "I")]
    starts = np.concatenate(([0], np.cumsum(lengths)))
    m = offsets.shape[0]
    codes = np.zeros((m, int(starts[-1])), dtype=np.intp)
    for a in range(m):
        rows = np.arange(offsets[a, 0], offsets[a, -1])
        sentence = np.repeat(np.arange(len(lengths)), np.diff(offsets[a]))
        first = starts[sentence] + begin[rows]
        width = end[rows] - begin[rows]
        inside = np.repeat(first, width) + np.arange(int(width.sum())) - np.repeat(np.cumsum(width) - width, width)
        codes[a, inside] = np.repeat(2 * type_code[rows] + 2, width)
        codes[a, first] = 2 * type_code[rows] + 1
        codes[a, np.repeat(~present[a], lengths)] = -1
    return codes, tag_names


def as_annotation_set(annotations, *, scheme=None, mode=None, suffix: bool = False, function: str) -> AnnotationSet:
    """The set itself (its chunker options checked against the given ones), else ``from_items``
    of several annotators' tags (the API's layout): the one conversion at a function's entry."""
    if isinstance(annotations, AnnotationSet):
        annotations.chunked_as(scheme, mode, suffix, function)
        return annotations
    return AnnotationSet.from_items(annotations, scheme=scheme, mode=mode, suffix=suffix, function=function)


__all__ = ["AnnotationSet", "as_annotation_set", "as_pair", "flat_team", "pair_set"]
