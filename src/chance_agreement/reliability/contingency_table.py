"""Token-level contingency table of two annotations (prevalence paper, section 4.1).

Every token gets the category of the entity span covering it (spans found exactly as seqeval
finds them, ``tags.corpus_spans``), or ``"O"`` (the paper's Nothing) when no span covers it.
Rows are the references, columns the predictions; categories are the sorted entity types of
both annotations, then ``"O"``. The four ways of building the table of section 4.1.1:

- ``view="all"`` (case 1, Table 1): every token.
- ``markables`` (case 2, Table 3): per-sentence boolean masks of the tokens that are markable
  (e.g. the gene-name occurrences of a dictionary). A token that both annotators leave as O
  counts only when it is markable; a token that either annotator labels always counts (in the
  paper only the Nothing/Nothing cell shrinks, 18,840 -> 951, the other cells are unchanged).
- ``view="entities"`` (case 3, Table 4): only the tokens that both annotators labelled with some
  entity type; categories are the entity types without O.
- ``view="grouped"`` (case 4, Table 5): every entity type merged into one category
  (``GROUPED = "ENTITY"``) versus O.
"""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Sequence
from itertools import chain

import numpy as np

from ..spans import tags
from ..spans.annotation_set import AnnotationSet, as_pair

NOTHING = "O"
GROUPED = "ENTITY"
VIEWS = ("all", "entities", "grouped")
# categories of a contingency table: q x q cells (4 million), and as many category probabilities and
# similarities in ``coefficients``; beyond it a clear error before anything q x q is built
MAX_CATEGORIES = 2_000


class TooManyCategories(ValueError):
    """More categories than ``MAX_CATEGORIES``: refused before any q x q table is built."""


def check_category_count(q: int, what: str = "the contingency table") -> None:
    """Raise ``TooManyCategories`` when ``q`` categories exceed ``MAX_CATEGORIES``, saying what to do."""
    if q > MAX_CATEGORIES:
        raise TooManyCategories(
            f"{what} would have {q:,} categories ({q * q:,} cells, and as many category probabilities and "
            f"similarities), more than the limit of {MAX_CATEGORIES:,} categories: merge rare entity types into "
            "one type or score a subset of the types (chance_f1 and fleiss_kappa have no such limit)"
        )


def check_tag_types(annotations, suffix: bool = False) -> None:
    """Refuse up front (``TooManyCategories``) annotations whose tags name more entity types than
    a contingency table takes: every distinct tag of every annotator's sequences (``annotations``:
    lists of tag sequences) typed once (``tag_category``); a tag that is not valid is left to the
    errors of the computation itself. Linear in the tokens, with no table built."""
    distinct: set = set()
    try:
        for sequences in annotations:
            distinct.update(chain.from_iterable(sequences))
    except TypeError:  # not lists of tag lists: the computation's own checks say what is wrong
        return
    types = set()
    for tag in distinct:
        try:
            types.add(tag_category(tag, suffix))
        except (ValueError, TypeError):
            continue
    check_category_count(len(types | {NOTHING}))


def token_categories(spans, length: int) -> list[str]:
    """Category of each of ``length`` tokens: the type of the span covering it, or ``"O"``."""
    labels = [NOTHING] * length
    for entity_type, start, end in spans:
        for position in range(start, end):
            labels[position] = entity_type
    return labels


def lenient_token_categories(tags_: Sequence[str], cache: dict, suffix: bool = False) -> list[str]:
    """``token_categories`` of one tag sequence under the default (conlleval) chunker, without
    spans: each distinct tag's category is found once (``tag_category``) and kept in ``cache``.
    Raises ValueError for an invalid tag (the caller re-runs the span path for its message)."""
    try:
        return [cache[tag] for tag in tags_]
    except KeyError:
        for tag in tags_:
            if tag not in cache:
                cache[tag] = tag_category(tag, suffix)
        return [cache[tag] for tag in tags_]


def _check_markables(markables, lengths) -> list[np.ndarray]:
    if isinstance(markables, str) or len(markables) != len(lengths):
        count = "a string" if isinstance(markables, str) else f"{len(markables)} masks"
        raise ValueError(
            f"markables must be one boolean mask per sentence: got {count} for "
            f"{len(lengths)} sentences"
        )
    masks = []
    for index, (mask, n) in enumerate(zip(markables, lengths, strict=True)):
        if isinstance(mask, str):
            raise ValueError(f"sentence {index}: the markables mask is a string, not booleans")
        array = np.asarray(mask)
        if array.shape != (n,):
            raise ValueError(
                f"sentence {index}: the markables mask has shape {array.shape} but the sentence "
                f"has {n} tokens"
            )
        if array.size and not (
            array.dtype == bool or np.all(np.isin(array, (0, 1)))
        ):
            raise ValueError(f"sentence {index}: the markables mask must hold booleans")
        masks.append(array.astype(bool))
    return masks


def contingency(
    predictions: Sequence[Sequence[str]] | AnnotationSet,
    references: Sequence[Sequence[str]] | None = None,
    *,
    scheme=None,
    mode=None,
    suffix: bool = False,
    view: str = "all",
    markables=None,
) -> tuple[np.ndarray, list[str]]:
    """Count the token-level contingency table of two annotations: rows references, columns predictions.

    Parameters
    ----------
    predictions : list of list of str, or AnnotationSet
        Per sentence, the tags of one annotation (the table's columns); or a two-annotator
        ``AnnotationSet`` alone (annotator 0 the references, 1 the predictions, over the sentences
        both annotated), whose spans are not chunked again.
    references : list of list of str, optional
        Per sentence, the tags of the other (the rows), as long as the predictions; None with an
        ``AnnotationSet``.
    scheme, mode, suffix : optional
        As in seqeval and :func:`spans_from_tags`.
    view : {"all", "entities", "grouped"}, default "all"
        Which tokens and categories (the four cases of section 4.1.1 of the prevalence paper):
        ``"all"`` every token (case 1, Table 1); ``"entities"`` only the tokens both annotators
        labelled with some type, categories without ``"O"`` (case 3, Table 4); ``"grouped"`` every
        entity type merged into ``"ENTITY"`` against ``"O"`` (case 4, Table 5).
    markables : list of list of bool, optional
        Per sentence, per token, whether the token is markable (case 2, Table 3): a token both
        annotators leave as ``"O"`` counts only when it is markable; a labelled token always counts.

    Returns
    -------
    table : numpy.ndarray of int
        The q x q counts: ``table[i, j]`` tokens the references put in ``categories[i]`` and the
        predictions in ``categories[j]``.
    categories : list of str
        The sorted entity types of both annotations, then ``"O"`` (the paper's Nothing).

    Raises
    ------
    ValueError
        Bad input, naming the sentence (ragged sequences, invalid tags, a type named ``"O"``), an
        unknown ``view``, or markables of the wrong shape; ``TooManyCategories`` (a ValueError)
        beyond 2,000 categories.

    See Also
    --------
    coefficients : The coefficients of the table.
    agreement_report : Tables and coefficients of every view at once.

    Notes
    -----
    Every token gets the category of the entity span covering it (spans exactly as seqeval finds
    them) or ``"O"``. In the prevalence paper's case 2 only the Nothing/Nothing cell shrinks (18,840 to
    951 tokens), the other cells are unchanged.

    Examples
    --------
    >>> references = [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-ORG", "O"]]
    >>> predictions = [["B-PER", "I-PER", "O", "O"], ["O", "B-LOC", "O"]]
    >>> table, categories = contingency(predictions, references)
    >>> categories
    ['LOC', 'ORG', 'PER', 'O']
    >>> table.tolist()
    [[0, 0, 0, 1], [1, 0, 0, 0], [0, 0, 2, 0], [0, 0, 0, 3]]
    >>> contingency(predictions, references, view="grouped")[0].tolist()
    [[3, 1], [0, 3]]
    >>> masks = [[True, True, False, True], [False, True, True]]  # two O/O tokens are not markable
    >>> contingency(predictions, references, markables=masks)[0].tolist()[3]
    [0, 0, 0, 1]
    """
    if view not in VIEWS:
        raise ValueError(f"view must be one of {VIEWS}, got {view!r}")
    if mode is None and not isinstance(predictions, AnnotationSet):
        try:
            counts, types = _lenient_counts(predictions, references, scheme, suffix, view, markables)
        except TooManyCategories:
            raise
        except Exception:  # bad input: the span path below raises the precise error
            counts = None
        if counts is not None:
            return _arrange(counts, types, view)
    pair = as_pair(predictions, references, scheme, mode, suffix, function="contingency")
    pred_spans, ref_spans, lengths = pair.sentence_spans(1), pair.sentence_spans(0), pair.lengths.tolist()
    masks = _check_markables(markables, lengths) if markables is not None else None

    pairs: Counter = Counter()  # (reference, prediction) -> tokens: memory O(categories^2)
    for index, (n, p_spans, r_spans) in enumerate(zip(lengths, pred_spans, ref_spans, strict=True)):
        ref_labels = token_categories(r_spans, n)
        pred_labels = token_categories(p_spans, n)
        for position, (r, p) in enumerate(zip(ref_labels, pred_labels, strict=True)):
            if r == NOTHING and p == NOTHING:
                if view == "entities" or (masks is not None and not masks[index][position]):
                    continue
            elif view == "entities" and NOTHING in (r, p):
                continue
            pairs[r, p] += 1

    types = sorted(
        {t for spans in (pred_spans, ref_spans) for sent in spans for t, _, _ in sent}
    )
    if NOTHING in types:
        raise ValueError(f"an entity type is named {NOTHING!r}, which is the Nothing category")
    if view != "grouped":
        check_category_count(len(types) + (view != "entities"))
    if view == "grouped":
        categories = [GROUPED, NOTHING]
        index_of = {t: 0 for t in types} | {NOTHING: 1}
    else:
        categories = types if view == "entities" else [*types, NOTHING]
        index_of = {c: i for i, c in enumerate(categories)}
    table = np.zeros((len(categories), len(categories)), dtype=np.int64)
    for (r, p), count in pairs.items():
        table[index_of[r], index_of[p]] += count
    return table, categories


# ---------------------------------------------------------------------------------------------
# fast path for the default (conlleval) chunker: no span lists, no per-token Python objects


CHUNK_TOKENS = 1 << 17  # tokens coded at once: memory stays O(chunk + tags), not O(tokens)


def tag_category(tag, suffix: bool = False) -> str:
    """Entity type of a tag under the conlleval chunker (``NOTHING`` for O): every non-O token
    lies in a span of its own tag's type, so a token's category depends on its tag alone.

    Raises ValueError for an invalid tag and for a tag seqeval takes only with a warning (``X``,
    a bare ``PER``, ...): around those, spans may take other types, so the caller takes the span path."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", tags.OddTagWarning)
        try:
            spans = tags.spans_from_tags([tag], suffix=suffix)  # raises for an invalid tag
        except tags.OddTagWarning as odd:
            raise ValueError(str(odd)) from None
    return spans[0][0] if spans else NOTHING


def _lenient_counts(predictions, references, scheme, suffix: bool, view: str, markables):
    """``(counts, types)``: counts[i, j] = tokens with reference type i and prediction type j,
    types[0] = ``NOTHING``; tokens are coded chunk by chunk with one dict look-up each and
    counted with ``np.bincount``. Raises on any bad input (the caller then takes the span path,
    whose error names the sentence)."""

    tags.check_pairs(predictions, references)
    tags.effective_scheme(references, scheme, None, suffix)  # validates scheme, as the span path
    masks = _check_markables(markables, list(map(len, references))) if markables is not None else None
    types = [NOTHING]
    type_index = {NOTHING: 0}
    code_of: dict = {}
    counts = np.zeros((1, 1), dtype=np.int64)
    n_sentences = len(references)
    begin = 0
    while begin < n_sentences:
        end, size = begin, 0
        while end < n_sentences and size < CHUNK_TOKENS:
            size += len(references[end])
            end += 1
        coded = []
        for sequences in (references, predictions):
            flat = list(chain.from_iterable(sequences[begin:end]))
            for tag in set(flat).difference(code_of):
                type_ = tag_category(tag, suffix)
                if type_ == NOTHING and tag != NOTHING:
                    return None, None  # an entity type named "O": the span path raises
                if type_ not in type_index:
                    type_index[type_] = len(types)
                    types.append(type_)
                code_of[tag] = type_index[type_]
            coded.append(np.fromiter(map(code_of.__getitem__, flat), dtype=np.int64, count=len(flat)))
        ref_codes, pred_codes = coded
        keep = None
        if view == "entities":
            keep = (ref_codes != 0) & (pred_codes != 0)
        elif masks is not None:
            keep = (ref_codes != 0) | (pred_codes != 0) | np.concatenate(masks[begin:end] or [np.zeros(0, bool)])
        if keep is not None:
            ref_codes, pred_codes = ref_codes[keep], pred_codes[keep]
        q = len(types)
        if view != "grouped":
            check_category_count(q - (view == "entities"))
        if counts.shape[0] < q:
            grown = np.zeros((q, q), dtype=np.int64)
            grown[: counts.shape[0], : counts.shape[1]] = counts
            counts = grown
        counts += np.bincount(ref_codes * q + pred_codes, minlength=q * q).reshape(q, q)
        begin = end
    return counts, types


def _arrange(counts: np.ndarray, types: list[str], view: str) -> tuple[np.ndarray, list[str]]:
    """The table in the order of the span path: sorted entity types, then O (by view)."""
    entity = sorted(types[1:])
    if view == "grouped":
        merged = np.zeros((2, 2), dtype=np.int64)
        is_entity = np.array([0] + [1] * (len(types) - 1))
        np.add.at(merged, (1 - is_entity[:, None], 1 - is_entity[None, :]), counts)
        return merged, [GROUPED, NOTHING]
    order = [types.index(t) for t in entity] + ([] if view == "entities" else [0])
    categories = entity + ([] if view == "entities" else [NOTHING])
    return counts[np.ix_(order, order)].astype(np.int64), categories


__all__ = [
    "CHUNK_TOKENS",
    "GROUPED",
    "MAX_CATEGORIES",
    "NOTHING",
    "VIEWS",
    "TooManyCategories",
    "check_category_count",
    "check_tag_types",
    "contingency",
    "lenient_token_categories",
    "tag_category",
    "token_categories",
]
