"""Entity spans from tag sequences, exactly as seqeval finds them.

Two modes, as in seqeval:

- default (``mode=None``): the conlleval-compatible chunker of ``seqeval.metrics.get_entities``
  (an ``I-`` after ``O`` starts an entity), applied as seqeval's ``classification_report`` applies
  it: to the whole corpus with an ``O`` after every sentence. Each tag is split into seqeval's
  prefix letter and type (``tag[0]`` and ``tag[1:].split("-", 1)[-1] or "_"``; with
  ``suffix=True`` ``tag[-1]`` and ``tag[:-1].rsplit("-", 1)[0] or "_"``), and a chunk ends or
  starts between two tokens by seqeval's ``end_of_chunk``/``start_of_chunk`` rules on the two
  (letter, type) pairs. Tags seqeval accepts with a warning (``X``, ``PER``, ``B_PER``,
  ``b-per``, ``O-PER``, ``U-PER``, ``L-PER``, ...) are chunked the same way, with one
  :class:`OddTagWarning` per distinct tag naming the first sentence that has it. Such tags can
  make seqeval's chunker carry an entity across a sentence break or count two overlapping
  entities of one type (its begin offset is left over from an earlier entity); both are refused
  with a ValueError naming the sentence, since spans here are per sentence and disjoint per type.
- ``mode="strict"``: seqeval's own scheme automaton (``seqeval.scheme.Tokens``) for IOB1, IOB2,
  IOE1, IOE2, IOBES or BILOU; the scheme is auto-detected from the references when not given.

Spans are ``(entity_type, start, end)`` with ``end`` exclusive, sentence by sentence. Input rules
(corpus shape, tag values, reserved type names) are those of :mod:`.validation`.

Speed: the rules depend only on the two letters (seven classes: B, I, E, S, O, ``.``, any other)
and on whether the two types differ, so the default chunker looks up a 7 x 7 x 2 table for every
token boundary of the corpus at once (numpy), after parsing each distinct tag once. For a pair
of annotators (``paired_span_arrays``) both corpora share one tag-code table, the spans stay
arrays (``SpanArrays``) and the equal-tag count is one array comparison.
"""

from __future__ import annotations

import warnings
from bisect import bisect_right
from collections.abc import Sequence
from itertools import chain, pairwise
from typing import NamedTuple

import numpy as np
import seqeval.scheme
from seqeval.scheme import Tokens, auto_detect

from .validation import (
    check_corpus,
    check_items,  # noqa: F401 (for the other layers)
    check_tag_list,
    check_type_names,
    raise_bad_tag,
    reserved_type,
    tag_problem,
    where,
)

SCHEMES = ("IOB1", "IOB2", "IOE1", "IOE2", "IOBES", "BILOU")

Span = tuple[str, int, int]


class OddTagWarning(UserWarning):
    """Warn of a tag that is neither ``O`` nor a B-/I-/E-/S- tag; seqeval accepts and chunks it.

    The scores stay seqeval's; the warning says which tag, so a typo does not pass unseen.

    See Also
    --------
    spans_from_tags : Where it is raised.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     spans_from_tags(["B-PER", "X", "I-PER"])
    [('PER', 0, 1), ('_', 1, 2), ('PER', 2, 3)]
    >>> caught[0].category.__name__
    'OddTagWarning'
    """


def resolve_scheme(scheme):
    """seqeval scheme class for a name (``"IOB2"``) or class; ``None`` stays ``None``."""
    if scheme is None:
        return None

    if isinstance(scheme, str):
        if scheme not in SCHEMES:
            raise ValueError(f"Scheme should be one of [{', '.join(SCHEMES)}], got {scheme!r}")
        return getattr(seqeval.scheme, scheme)
    if isinstance(scheme, type) and issubclass(scheme, seqeval.scheme.Token):
        return scheme
    raise ValueError(f"Scheme should be one of [{', '.join(SCHEMES)}], got {scheme!r}")


def check_mode(mode):
    if mode not in (None, "strict"):
        raise ValueError(f"mode should be None (conlleval-compatible) or 'strict', got {mode!r}")
    return mode


# --- seqeval's chunk rules as a lookup table -------------------------------------------------

_B, _I, _E, _S, _O, _DOT, _OTHER = range(7)
_LETTER_CLASS = {"B": _B, "I": _I, "E": _E, "S": _S, "O": _O, ".": _DOT}


def _rule_tables() -> tuple[np.ndarray, np.ndarray]:
    """``end_of_chunk`` and ``start_of_chunk`` of seqeval for (previous class, class, types differ)."""
    end = np.zeros((7, 7, 2), dtype=bool)
    start = np.zeros((7, 7, 2), dtype=bool)
    for prev in range(7):
        for cur in range(7):
            for differ in (0, 1):
                end[prev, cur, differ] = (
                    prev in (_E, _S)
                    or (prev in (_B, _I) and cur in (_B, _S, _O))
                    or (prev not in (_O, _DOT) and differ)
                )
                start[prev, cur, differ] = (
                    cur in (_B, _S)
                    or (prev in (_E, _S, _O) and cur in (_E, _I))
                    or (cur not in (_O, _DOT) and differ)
                )
    return end.ravel(), start.ravel()


_END, _START = _rule_tables()


def _split_tag(tag: str, suffix: bool) -> tuple[str, str]:
    """seqeval's (prefix letter, type) of a tag."""
    if suffix:
        return tag[-1], tag[:-1].rsplit("-", maxsplit=1)[0] or "_"
    return tag[0], tag[1:].split("-", maxsplit=1)[-1] or "_"


def is_odd_tag(tag: str, suffix: bool = False) -> bool:
    """True for a tag seqeval warns about: not O/B/I/E/S and without a ``B-``.. (``-B``..) affix."""
    if tag in ("O", "B", "I", "E", "S"):
        return False
    if suffix:
        return not tag.endswith(("-B", "-I", "-E", "-S"))
    return not tag.startswith(("B-", "I-", "E-", "S-"))


# tag -> (letter class, type, seqeval warns about it), for prefix and suffix tags; valid tags only
_PARSED: tuple[dict, dict] = ({}, {})


def _parse(tag: str, suffix: bool) -> tuple[int, str, bool]:
    """(letter class, type, seqeval warns about it) of a valid tag, cached."""
    cache = _PARSED[suffix]
    parsed = cache.get(tag)
    if parsed is None:
        if len(cache) > 100_000:  # an open vocabulary: start over rather than grow without end
            cache.clear()
        letter, type_ = _split_tag(tag, suffix)
        parsed = cache[tag] = (_LETTER_CLASS.get(letter, _OTHER), str(type_), is_odd_tag(tag, suffix))
    return parsed


def _distinct_tags(sequences, role) -> set:
    """The distinct tags of a checked corpus; a bad tag raises naming its sentence and position."""
    try:
        distinct = set(chain.from_iterable(sequences))
    except TypeError:  # an unhashable tag
        raise_bad_tag(sequences, role)
    for tag in distinct:
        if tag_problem(tag):
            raise_bad_tag(sequences, role)
    return distinct


class _BadTag(Exception):
    """A tag ``tag_problem`` refuses, met by ``_TagCodes`` (the caller names its place)."""


class _TagCodes(dict):
    """A tag-code table that gives a tag it has not seen yet the next code (1, 2, ...) when it is
    looked up, after ``tag_problem``'s check."""

    def __missing__(self, tag):
        if tag_problem(tag):
            raise _BadTag
        code = self[tag] = len(self) + 1
        return code


def _tag_codes(sequences, n_tokens: int, role, codes=None) -> tuple[dict, np.ndarray]:
    """``({tag: code}, code of every token)`` with codes 1, 2, ... in order of first appearance
    (a new tag takes its code when it is first looked up, so the corpus is read once, one plain
    dict look-up a token); ``codes``: a table to extend (shared by two annotators, so equal tags
    get equal codes)."""
    table = _TagCodes(() if codes is None else codes)
    try:
        token_codes = np.fromiter(map(table.__getitem__, chain.from_iterable(sequences)), dtype=np.intp,
                                  count=n_tokens)
    except (TypeError, _BadTag):  # an unhashable or bad tag
        raise_bad_tag(sequences, role)
    if codes is None:
        return dict(table), token_codes
    codes.update(table)
    return codes, token_codes


class SpanArrays(NamedTuple):
    """The spans of a corpus as parallel arrays, in the order of ``corpus_spans`` (by sentence,
    then by end): span ``i`` is ``(names[type_code[i]], begin[i], end[i])`` in sentence
    ``sentence[i]``; ``end`` exclusive, ``begin`` and ``end`` counted within the sentence."""

    sentence: np.ndarray
    type_code: np.ndarray
    begin: np.ndarray
    end: np.ndarray
    names: list


def _lenient_corpus(sequences, suffix: bool, role) -> tuple[list[list[Span]], dict]:
    """seqeval's default chunker over a checked corpus: (spans per sentence, {odd tag: sentence})."""
    n_tokens = sum(map(len, sequences))
    if n_tokens < _SMALL_CORPUS:
        return _lenient_small(sequences, suffix, role)
    arrays, odd, _ = _lenient_arrays(sequences, suffix, role, n_tokens)
    return _per_sentence(arrays, len(sequences)), odd


def _per_sentence(arrays: SpanArrays, sentences: int) -> list[list[Span]]:
    """``SpanArrays`` as one list of ``(type, begin, end)`` per sentence."""
    names = np.array(arrays.names, dtype=object)
    spans = list(zip(names[arrays.type_code].tolist(), arrays.begin.tolist(), arrays.end.tolist(), strict=True))
    cuts = np.concatenate(([0], np.cumsum(np.bincount(arrays.sentence, minlength=sentences)))).tolist()
    return [spans[a:b] for a, b in pairwise(cuts)]


def _lenient_arrays(sequences, suffix: bool, role, n_tokens: int, shared=None) -> tuple[SpanArrays, dict, np.ndarray]:
    """The numpy chunker of ``_lenient_corpus`` (a corpus of at least ``_SMALL_CORPUS`` tokens):
    ``(SpanArrays, {odd tag: sentence}, code of every token)``, with the same checks and errors;
    ``shared``: the tag-code table of another annotator's corpus, extended (see ``_tag_codes``)."""
    count_ = len(sequences)
    lengths = np.fromiter(map(len, sequences), dtype=np.intp, count=count_)
    codes, token_codes = _tag_codes(sequences, n_tokens, role, shared)
    codes = dict(codes)  # a shared table stays as the tags made it
    codes.setdefault("O", len(codes) + 1)  # the separator seqeval puts after every sentence
    tags = list(codes)
    type_codes = {"": 0}  # code 0: seqeval's start state, letter O and type ""
    letter_class = np.empty(len(tags) + 1, dtype=np.int8)  # rule below stays under 98
    type_code = np.empty(len(tags) + 1, dtype=np.intp)
    letter_class[0], type_code[0] = _O, 0
    for code, tag in enumerate(tags, start=1):
        letter_class[code], type_, _ = _parse(tag, suffix)
        type_code[code] = type_codes.setdefault(type_, len(type_codes))

    sentence_ends = np.cumsum(lengths)
    # seqeval's flat sequence (a separator O after each sentence), behind the start state
    flat = np.concatenate(([0], np.insert(token_codes, sentence_ends, codes["O"])))
    classes = letter_class[flat]
    types = type_code[flat]
    rule = classes[:-1] * 14 + classes[1:] * 2 + (types[:-1] != types[1:])
    # at flat position i, a chunk (type of i - 1, begin, i - 1) ends, then one may start at i
    ends = np.flatnonzero(_END[rule])
    starts = np.concatenate(([0], np.flatnonzero(_START[rule])))  # seqeval's begin starts at 0
    begins = starts[np.searchsorted(starts[1:], ends, side="left")]
    span_types = types[ends]

    offsets = np.concatenate(([0], sentence_ends[:-1] + np.arange(1, count_)))  # flat start of each sentence
    last_sentence = np.searchsorted(offsets, ends - 1, side="right") - 1
    first_sentence = np.searchsorted(offsets, begins, side="right") - 1
    names = np.array(list(type_codes), dtype=object)
    crossing = np.flatnonzero(first_sentence != last_sentence)
    if crossing.size:
        span = int(crossing[0])
        into = int(last_sentence[span])
        raise _crossing_error(role, into, int(ends[span] - 1 - offsets[into]), names[span_types[span]],
                              int(first_sentence[span]))
    if ends.size > 1 and np.any(begins[1:] < ends[:-1]):  # seqeval reused an old begin offset
        # ties go to the type met first in the corpus, whatever its code
        seen, first_token = np.unique(type_code[token_codes], return_index=True)
        rank = np.zeros(len(names), dtype=np.intp)
        rank[seen] = np.argsort(np.argsort(first_token))
        _refuse_same_type_overlap(begins, ends, rank[span_types], span_types, offsets, last_sentence, names, role)
    base = offsets[last_sentence]
    arrays = SpanArrays(last_sentence, span_types, begins - base, ends - base, list(type_codes))
    used = names[np.flatnonzero(np.bincount(span_types, minlength=len(names)))].tolist()  # np.unique imports numpy.ma
    if any(map(reserved_type, used)):  # the error names the first sentence: only then the lists
        check_type_names(_per_sentence(arrays, count_), role, used)
    return arrays, _odd_tags(codes, token_codes, sentence_ends, suffix, role), token_codes


def _odd_tags(codes: dict, token_codes: np.ndarray, sentence_ends: np.ndarray, suffix: bool, role) -> dict:
    """``{odd tag: (role, sentence of its first token)}`` of the tags in ``codes`` this corpus uses, in
    order of first appearance (a shared code table may hold tags of other corpora)."""
    odd_tags = [tag for tag in codes if is_odd_tag(tag, suffix)]
    if not odd_tags:
        return {}
    seen, first_token = np.unique(token_codes, return_index=True)
    first_token_of = dict(zip(seen.tolist(), first_token.tolist(), strict=True))
    odd_tags = sorted((tag for tag in odd_tags if codes[tag] in first_token_of),
                      key=lambda tag: first_token_of[codes[tag]])
    first_sentences = np.searchsorted(sentence_ends, [first_token_of[codes[tag]] for tag in odd_tags], side="right")
    return {tag: (role, sentence) for tag, sentence in zip(odd_tags, first_sentences.tolist(), strict=True)}


def _refuse_same_type_overlap(begins, ends, type_rank, span_types, offsets, sentence_of, names, role) -> None:
    """Raise if two entities of one type overlap (flat coordinates; spans sorted by end); among
    overlaps that end together, the type of lowest ``type_rank`` is named."""
    order = np.lexsort((ends, type_rank))
    b, e, t = begins[order], ends[order], span_types[order]
    overlapping = np.flatnonzero((t[1:] == t[:-1]) & (b[1:] < e[:-1]))
    if not overlapping.size:
        return  # only entities of different types overlap: each type is scored on its own
    later = overlapping[np.argmin(e[overlapping + 1])] + 1
    sentence = int(sentence_of[order[later]])
    base = int(offsets[sentence])
    first = (int(b[later - 1]) - base, int(e[later - 1]) - base)
    second = (int(b[later]) - base, int(e[later]) - base)
    raise _overlap_error(role, sentence, names[t[later]], first, second)


def _crossing_error(role, into: int, position: int, type_name: str, began: int) -> ValueError:
    return ValueError(
        f"{where(role, into, position)}: seqeval's chunker ends here an entity of type {type_name!r} "
        f"that began in sentence {began} (tags that neither start nor end an entity, such as 'X' or "
        "'O-PER', carried it across the sentence break); entities cannot cross sentences here, so fix "
        "the tags"
    )


def _overlap_error(role, sentence: int, type_name: str, first: tuple, second: tuple) -> ValueError:
    return ValueError(
        f"{where(role, sentence)}: seqeval's chunker finds two overlapping {type_name!r} entities, "
        f"{first} and {second} (a tag that neither starts nor ends an entity, such as 'U-PER' or "
        "'L-PER' after 'S-PER' or 'E-PER', extends an entity seqeval has already closed); the chance "
        "model needs disjoint entities of one type, so fix the tags or use mode='strict'"
    )


_END_LIST, _START_LIST = _END.tolist(), _START.tolist()
# below this many tokens the plain loop beats numpy's fixed costs (one sentence, one annotator)
_SMALL_CORPUS = 1000


def _lenient_small(sequences, suffix: bool, role) -> tuple[list[list[Span]], dict]:
    """``_lenient_corpus`` as a plain loop over the tokens (same table, same errors, same order)."""
    parsed = _PARSED[suffix]
    odd: dict = {}
    per_sentence: list[list[Span]] = []
    offsets: list[int] = []
    names: set = set()
    crossing = overlap = None
    ends, starts = _END_LIST, _START_LIST
    prev_class, prev_type, begin, position = _O, "", 0, 0  # seqeval's start state
    prev_tag, last_end = None, 0
    for index, tags in enumerate(sequences):
        offset = position
        offsets.append(offset)
        spans: list[Span] = []
        for tag in chain(tags, ("O",)):  # the separator O seqeval puts after every sentence
            if tag == "O" and prev_tag == "O":  # nothing ends or starts between two O tags
                position += 1
                continue
            prev_tag = tag
            try:
                tag_class, type_, is_odd = parsed[tag]
            except (KeyError, TypeError):
                if tag_problem(tag):
                    raise_bad_tag(sequences, role)
                tag_class, type_, is_odd = _parse(tag, suffix)
            if is_odd and tag not in odd:
                odd[tag] = (role, index)
            rule = prev_class * 14 + tag_class * 2 + (prev_type != type_)
            if ends[rule]:
                if begin < offset:
                    if crossing is None:
                        began = bisect_right(offsets, begin) - 1
                        crossing = _crossing_error(role, index, position - 1 - offset, prev_type, began)
                else:
                    span = (prev_type, begin - offset, position - offset)
                    if begin < last_end and overlap is None:  # a reused begin: compare with the same type
                        previous = next((s for s in reversed(spans) if s[0] == prev_type), None)
                        if previous is not None and span[1] < previous[2]:
                            overlap = _overlap_error(role, index, prev_type, previous[1:], span[1:])
                    last_end = position
                    names.add(prev_type)
                    spans.append(span)
            if starts[rule]:
                begin = position
            prev_class, prev_type = tag_class, type_
            position += 1
        per_sentence.append(spans)
    if crossing is not None:
        raise crossing
    if overlap is not None:
        raise overlap
    check_type_names(per_sentence, role, names)
    return per_sentence, odd


def _strict_corpus(sequences, scheme, suffix: bool, role) -> list[list[Span]]:
    """seqeval's scheme automaton sentence by sentence over a checked corpus."""

    _distinct_tags(sequences, role)
    out = []
    for index, tags in enumerate(sequences):
        try:
            entities = Tokens(list(tags), scheme=scheme, suffix=suffix).entities
        except KeyError as error:  # an unknown prefix letter
            problem = f"invalid tag: prefix {error.args[0]!r} is not one of the {scheme.__name__} prefixes"
        except ValueError as error:
            problem = str(error)
        else:
            out.append([(entity.tag, entity.start, entity.end) for entity in entities])
            continue
        raise ValueError(f"{where(role, index)}: {problem}" if role is not None else problem)
    check_type_names(out, role)
    return out


def _chunk(sequences, role, scheme, mode, suffix: bool) -> tuple[list[list[Span]], dict]:
    """Spans per sentence of a checked corpus and the odd tags met (default mode only)."""
    if mode == "strict":
        return _strict_corpus(sequences, scheme, suffix, role), {}
    return _lenient_corpus(sequences, suffix, role)


def chunk_corpus(sequences, role, scheme=None, mode=None, suffix: bool = False, *,
                 codes: dict | None = None) -> tuple[SpanArrays, dict, np.ndarray | None]:
    """Spans of a checked corpus as ``SpanArrays``, ``{odd tag: (role, first sentence)}`` (not
    warned yet) and the code of every token, or None: seqeval's chunker run once over the corpus
    (the array chunker from ``_SMALL_CORPUS`` tokens, which codes the tokens as it goes, else the
    loop; strict mode: the automaton). ``scheme`` must already be resolved in strict mode
    (``effective_scheme``); ``codes``: a tag-code table shared by several corpora, extended here
    (codes 1, 2, ...; see ``_tag_codes``). The one entry of ``AnnotationSet``."""
    if mode != "strict":
        n_tokens = sum(map(len, sequences))
        if n_tokens >= _SMALL_CORPUS:
            return _lenient_arrays(sequences, suffix, role, n_tokens, codes)
    spans, odd = _chunk(sequences, role, scheme, mode, suffix)
    return span_arrays_of(spans), odd, None


def span_arrays_of(per_sentence) -> SpanArrays:
    """``SpanArrays`` of span lists ``[(type, begin, end), ...]`` per sentence (the inverse of
    ``_per_sentence``: the same order, types coded in order of first appearance)."""
    names: dict = {}
    flat = [(s, names.setdefault(t, len(names)), b, e) for s, spans in enumerate(per_sentence) for t, b, e in spans]
    columns = np.array(flat, dtype=np.intp).reshape(-1, 4).T
    return SpanArrays(columns[0], columns[1], columns[2], columns[3], list(names))


def warn_odd_tags(odd: dict, suffix: bool) -> None:
    affix = "a -B/-I/-E/-S suffix" if suffix else "a B-/I-/E-/S- prefix"
    for tag, (role, sentence) in odd.items():
        first = f" (first in {where(role, sentence)})" if role is not None else ""
        warnings.warn(
            f"tag {tag!r}{first} is neither 'O' nor a tag with {affix}; it is chunked as seqeval "
            "chunks it (seqeval warns 'seems not to be NE tag'); use mode='strict' to refuse it",
            OddTagWarning,
            stacklevel=4,
        )


def detect_scheme(sequences: Sequence[Sequence[str]], suffix: bool = False):
    """seqeval's auto-detection (IOB2, IOE2, IOBES or BILOU) over all sequences."""

    _distinct_tags(sequences, "sequences")
    try:
        return auto_detect([list(s) for s in sequences], suffix)
    except (ValueError, KeyError) as error:
        raise ValueError(f"cannot detect the tagging scheme of the references: {error}") from None


def spans_from_tags(tags: Sequence[str], *, scheme=None, mode=None, suffix: bool = False) -> list[Span]:
    """Find the entities of one tag sequence as ``(entity_type, start, end)``, ``end`` exclusive.

    For the same arguments this finds exactly the entities seqeval finds: the conlleval chunker
    by default (``get_entities(tags)``), the ``scheme`` automaton with ``mode="strict"``.

    Parameters
    ----------
    tags : sequence of str
        One sentence's tags (BIO, IOBES, BILOU...).
    scheme : str, optional
        As in seqeval, with ``mode="strict"``: ``"IOB1"``, ``"IOB2"``, ``"IOE1"``, ``"IOE2"``,
        ``"IOBES"`` or ``"BILOU"`` (None: detected from the tags).
    mode : {None, "strict"}, optional
        As in seqeval: None (conlleval-compatible) or ``"strict"``.
    suffix : bool, default False
        Tags with the type first (``"PER-B"``).

    Returns
    -------
    list of tuple
        The entities in order of their start.

    Raises
    ------
    ValueError
        A tag seqeval cannot take, or one not valid for the scheme in strict mode, naming the
        0-based position; an unknown scheme.

    Warns
    -----
    OddTagWarning
        A tag that is neither ``O`` nor a B-/I-/E-/S- tag (e.g. ``"X"``), which seqeval accepts and
        chunks as it does (``"X"``: an entity of type ``"_"``).

    See Also
    --------
    tags_from_spans : The inverse, from spans to IOB2 tags.

    Examples
    --------
    >>> spans_from_tags(["B-PER", "I-PER", "O", "B-LOC", "I-ORG"])
    [('PER', 0, 2), ('LOC', 3, 4), ('ORG', 4, 5)]
    >>> spans_from_tags(["B-PER", "I-PER", "O", "B-LOC", "I-ORG"], mode="strict", scheme="IOB2")
    [('PER', 0, 2), ('LOC', 3, 4)]
    """
    if mode is None and scheme is None and type(tags) is list and len(tags) < _SMALL_CORPUS:
        spans, odd = _lenient_small((tags,), suffix, None)  # the common call, checked by the loop
    else:
        check_mode(mode)
        scheme = resolve_scheme(scheme)
        check_tag_list(tags)
        if mode == "strict" and scheme is None:
            scheme = detect_scheme([tags], suffix)
        spans, odd = _chunk([tags], None, scheme, mode, suffix)
    if odd:
        warn_odd_tags({tag: (None, 0) for tag in odd}, suffix)
    return spans[0]


def corpus_spans(sequences, role: str, scheme=None, mode=None, suffix: bool = False) -> list[list[Span]]:
    """Spans of every sentence, chunked as seqeval chunks a corpus; errors name ``role`` and the
    sentence index. ``scheme`` must already be resolved (see ``effective_scheme``) in strict mode."""
    check_corpus(sequences, role)
    spans, odd = _chunk(sequences, role, scheme, mode, suffix)
    warn_odd_tags(odd, suffix)
    return spans


def effective_scheme(sequences, scheme=None, mode=None, suffix: bool = False):
    """The scheme class to chunk with after checking ``mode``: in strict mode without a scheme,
    the one seqeval detects on ``sequences`` (the references, or every annotator's tags)."""
    check_mode(mode)
    resolved = resolve_scheme(scheme)
    if mode == "strict" and resolved is None:
        resolved = detect_scheme(sequences, suffix)
    return resolved


def paired_spans(predictions, references, scheme=None, mode=None, suffix: bool = False):
    """``(prediction spans, reference spans)`` per sentence, after ``check_pairs``; as seqeval,
    strict mode without a scheme detects it from the references. One OddTagWarning per distinct
    odd tag of either side, naming the first sentence that has it."""
    resolved = paired_scheme(predictions, references, scheme, mode, suffix)
    pred_spans, pred_odd = _chunk(predictions, "predictions", resolved, mode, suffix)
    ref_spans, ref_odd = _chunk(references, "references", resolved, mode, suffix)
    warn_odd_tags(first_odd(ref_odd, pred_odd), suffix)
    return pred_spans, ref_spans


def paired_scheme(predictions, references, scheme=None, mode=None, suffix: bool = False):
    """``check_pairs``, then the scheme to chunk both sides with: as seqeval, strict mode without
    a scheme detects it from the references (``effective_scheme``)."""
    check_pairs(predictions, references)
    check_mode(mode)
    if mode == "strict":
        _distinct_tags(references, "references")  # before seqeval's detection reads them
    return effective_scheme(references, scheme, mode, suffix)


def first_odd(ref_odd: dict, pred_odd: dict) -> dict:
    """Each odd tag of either side with the first sentence that has it (the references on a tie)."""
    odd = dict(ref_odd)
    for tag, place in pred_odd.items():
        if tag not in odd or place[1] <= odd[tag][1]:
            odd[tag] = place
    return odd


def paired_span_arrays(predictions, references, scheme=None, mode=None,
                       suffix: bool = False) -> tuple[SpanArrays, SpanArrays, int] | None:
    """``paired_spans`` as two ``SpanArrays`` (predictions, references) and the number of tokens
    whose two tags are equal, when seqeval's default chunker runs on a corpus of at least
    ``_SMALL_CORPUS`` tokens; else ``None`` (then call ``paired_spans``). The same checks, errors
    and warnings as ``paired_spans``."""
    check_pairs(predictions, references)
    check_mode(mode)
    n_tokens = sum(map(len, references))
    if mode == "strict" or n_tokens < _SMALL_CORPUS:
        return None
    resolve_scheme(scheme)  # as effective_scheme: a bad scheme is refused in default mode too
    chunked = shared_span_arrays([predictions, references], suffix, roles=["predictions", "references"])
    return pair_span_arrays(*chunked, suffix=suffix)  # type: ignore[misc]  # two entries: n_tokens >= _SMALL_CORPUS


def shared_span_arrays(corpora, suffix: bool = False, roles=None) -> list | None:
    """Several annotators' corpora of the same checked sentences, each chunked once by the array
    path of ``paired_span_arrays`` with one tag-code table (equal tags, equal codes): one opaque
    entry per corpus for ``pair_span_arrays``; ``None`` below ``_SMALL_CORPUS`` tokens (then call
    ``paired_span_arrays`` per pair). Strict mode has no array path: not for it. ``roles`` name the
    corpora in errors (default "annotator 0", ...)."""
    n_tokens = sum(map(len, corpora[0]))
    if n_tokens < _SMALL_CORPUS:
        return None
    roles = [f"annotator {a}" for a in range(len(corpora))] if roles is None else roles
    codes: dict = {}
    return [_lenient_arrays(corpus, suffix, role, n_tokens, codes) for corpus, role in zip(corpora, roles, strict=True)]


def pair_span_arrays(prediction, reference, suffix: bool = False) -> tuple[SpanArrays, SpanArrays, int]:
    """``paired_span_arrays``' ``(predictions, references, equal tags)`` of two ``shared_span_arrays``
    entries, with its odd-tag warnings."""
    (pred, pred_odd, pred_codes), (ref, ref_odd, ref_codes) = prediction, reference
    odd = first_odd({tag: ("references", s) for tag, (_, s) in ref_odd.items()},
                     {tag: ("predictions", s) for tag, (_, s) in pred_odd.items()})
    warn_odd_tags(odd, suffix)
    return pred, ref, int(np.count_nonzero(pred_codes == ref_codes))


def check_pairs(predictions, references) -> None:
    """Both are lists of tag lists (``validation.check_corpus``), with the same number of
    sentences, the same length sentence by sentence, and at least one token."""
    check_corpus(predictions, "predictions")
    check_corpus(references, "references")
    if len(predictions) != len(references):
        raise ValueError(
            f"got {len(predictions)} prediction sequences but {len(references)} reference sequences"
        )
    if len(references) == 0:
        raise ValueError("empty input: no sentences were given")
    reference_lengths = list(map(len, references))
    if list(map(len, predictions)) != reference_lengths:
        for index, (pred, ref) in enumerate(zip(predictions, references, strict=True)):
            if len(pred) != len(ref):
                raise ValueError(
                    f"sentence {index}: the prediction has {len(pred)} tags but the reference has {len(ref)}"
                )
    if not any(reference_lengths):
        raise ValueError("empty input: every sentence has zero tokens")


__all__ = [
    "SCHEMES",
    "OddTagWarning",
    "SpanArrays",
    "check_mode",
    "check_pairs",
    "chunk_corpus",
    "corpus_spans",
    "detect_scheme",
    "effective_scheme",
    "first_odd",
    "is_odd_tag",
    "pair_span_arrays",
    "paired_scheme",
    "paired_span_arrays",
    "paired_spans",
    "resolve_scheme",
    "shared_span_arrays",
    "span_arrays_of",
    "spans_from_tags",
    "warn_odd_tags",
]
