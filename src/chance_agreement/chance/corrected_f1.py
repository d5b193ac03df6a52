"""Observed, chance and chance-corrected F1 over a corpus (chance_agreement_sequence_annotation.txt).

Per sentence and entity type, each annotator's segments are randomised by the random annotation
model (``random_model``) and the two annotators independently, so (Proposition 1):

- token level (the paper's measure): ``F1 = 2 * overlap / (a1 + a2)`` with ``a1 + a2`` fixed under
  the model, hence ``chance F1 = 2 * sum_t c1(t) c2(t) / (a1 + a2)``;
- entity level (exact span match, seqeval's F1): ``chance F1 = 2 * E[matches] / (k1 + k2)`` with
  ``E[matches] = sum over same-length pairs of sum_l P1(start = l) P2(start = l)``.

Over a corpus the paper's micro average sums numerators and denominators over every sentence and
type, and ``corrected = (observed - chance) / (1 - chance)``. The statistics are sums: counts as
integers, expectations as exact sums (``exact_sum``), so every reported number is bit-identical
under any order of sentences, ``add_batch`` split, process count or grouping of shards
(``ChanceStatistics.__add__``). One segment on each side (most sentence-type pairs) has a closed
form; other signatures are cached per ``(n, lengths)``. The corpus is one array pass over all
(sentence, type) groups (``_group_rows``): their rows summed per type give the total, split by
sentence the per-sentence statistics (the same terms, so the sentences add up to the total
exactly; ``tests/sentence_pass_oracle.py`` is the plain per-sentence loop they are checked against).

The seqeval part of the result (per-type precision, recall, f1, number; overall precision, recall,
f1, accuracy) is computed from the same spans and equals ``evaluate.load("seqeval")`` output.
"""

from __future__ import annotations

import gc
import math
import warnings
from collections.abc import Sequence
from contextlib import contextmanager
from typing import Any, Literal, NamedTuple

import numpy as np

from .._numerics.exact_sum import exact_partials, merge_exactly
from ..spans.annotation_set import AnnotationSet, as_pair
from ..spans.tags import SpanArrays
from .bootstrap_intervals import add_intervals
from .chance_corrected import (
    DEFINED,
    NO_ENTITIES,
    UndefinedMetricWarning,
    f1_scores,
    undefined_message,
    zero_division_value,
)
from .poisson_bootstrap import add_poisson_intervals, check_resampling
from .random_models import RandomModel, get_model
from .random_models.exact_expectations import single_pair_overlap
from .statistics import (
    ACTUAL,
    EXPECTED_MATCHES,
    EXPECTED_OVERLAP,
    FIELDS,
    LEVELS,
    PREDICTED,
    TRUE_POSITIVES,
    ChanceStatistics,
    f1_terms,
)


def checked_levels(levels) -> tuple[str, ...]:
    if isinstance(levels, str) or any(level not in LEVELS for level in levels) or not levels:
        raise ValueError(f"levels must be a non-empty subset of {list(LEVELS)}, got {levels!r}")
    return tuple(level for level in LEVELS if level in levels)


@contextmanager
def _collector_paused():
    """Pause the cyclic garbage collector for one corpus pass: the pass allocates many small
    lists and tuples but creates no reference cycles, and collections triggered by them re-scan
    every tag list of the corpus (about an eighth of the time on CoNLL-2003). Restored on exit."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _corpus(predictions, references, scheme, mode, suffix, model, levels, keep_sentences: bool):
    """One pass over the corpus: the exact total and, if asked, every sentence's statistics.
    ``model``: a registered name or a ``RandomModel``; tags: converted to an ``AnnotationSet``
    (each side chunked once); both resolved here, once."""
    model = get_model(model)
    return pair_statistics(as_pair(predictions, references, scheme, mode, suffix, function="chance_f1"), model=model,
                           levels=levels, keep_sentences=keep_sentences)


def pair_statistics(pair: AnnotationSet, *, model, levels, keep_sentences: bool):
    """``(total, per-sentence statistics or None)`` of a two-annotator ``AnnotationSet`` (annotator
    0 the references, 1 the predictions; every sentence annotated by both): the one corpus pass of
    ``chance_f1`` and the team functions, on spans chunked once."""
    with _collector_paused():
        return _corpus_pass(pair, get_model(model), levels, keep_sentences)


def _corpus_pass(pair: AnnotationSet, model, levels, keep_sentences: bool):
    """The statistics of a two-annotator set (annotator 0 the references, 1 the predictions): the
    array pass over its (sentence, type) groups, whose rows give the total and, if asked, are split
    into the sentences' statistics (the same terms, so the sentences add up to the total exactly)."""
    levels = checked_levels(levels)
    lengths, equal = pair.lengths.tolist(), pair.equal_tags(0, 1).tolist()
    if not keep_sentences:
        return span_array_total(pair.span_arrays(1), pair.span_arrays(0), sum(equal), lengths, model=model,
                                levels=levels), None
    spans, rows = _group_rows(pair.span_arrays(1), pair.span_arrays(0), lengths, model, "entity" in levels,
                              "token" in levels)
    per_type, partials = _per_type(spans, *rows) if rows else ({}, {})
    return (ChanceStatistics(per_type, sum(equal), sum(lengths), model.name, levels, partials),
            _sentences(spans, rows, equal, lengths, model.name, levels))


def span_array_total(pred: SpanArrays, true: SpanArrays, correct: int, lengths, *, model,
                     levels) -> ChanceStatistics:
    """``corpus_total`` of spans already found as arrays (an ``AnnotationSet``'s ``span_arrays``):
    ``correct`` tokens with equal tags, ``lengths`` the tokens of each sentence."""
    model, levels = get_model(model), checked_levels(levels)
    with_matches, with_overlap = "entity" in levels, "token" in levels
    per_type, partials = _type_totals(pred, true, lengths, model, with_matches, with_overlap)
    return ChanceStatistics(per_type, correct, int(sum(lengths)), model.name, levels, partials)


def _add_type_total(per_type: dict, partials: dict, name: str, total: list, overlaps, matches) -> None:
    """Store one type's vector: ``total`` holds its integer counts, and its two expectations are
    the exact sums of the terms ``overlaps`` and ``matches`` (partials kept when they need more
    than one float)."""
    pair = (exact_partials(overlaps), exact_partials(matches))
    total[EXPECTED_OVERLAP], total[EXPECTED_MATCHES] = math.fsum(pair[0]), math.fsum(pair[1])
    per_type[name] = np.array(total, dtype=float)
    if any(len(p) > 1 for p in pair):
        partials[name] = pair


def _single_pair_overlaps(n: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``single_pair_overlap`` of many ``(n, a, b)`` at once, bit for bit: the same integer sums
    in int64 (exact while ``n <= _VECTOR_N``: the sum is below ``n**3 / 12 < 2**53``), then one
    correctly rounded division of two exactly represented integers, as Python's ``int / int``."""
    m_a, m_b = np.minimum(a, n - a + 1), np.minimum(b, n - b + 1)
    m1, m2 = np.minimum(m_a, m_b), np.maximum(m_a, m_b)
    p = n // 2

    def squares(m):  # sum_{v <= m} v^2
        return m * (m + 1) * (2 * m + 1) // 6

    def naturals(m):  # sum_{v <= m} v
        return m * (m + 1) // 2

    low, mid = np.minimum(m1, p), np.minimum(m2, p)
    total = 2 * (squares(low) + m1 * np.where(mid > m1, naturals(mid) - naturals(m1), 0)
                 + m1 * m2 * np.maximum(p - m2, 0)) + (n % 2) * m1 * m2
    return total.astype(float) / ((n - a + 1) * (n - b + 1)).astype(float)


# _single_pair_overlaps is exact in int64 and float64 up to this sentence length.
_VECTOR_N = 100_000


def _type_totals(pred: SpanArrays, true: SpanArrays, lengths, model: RandomModel, with_matches: bool,
                 with_overlap: bool) -> tuple[dict, dict]:
    """The per-type totals of the spans as arrays: the rows of every (sentence, type) group
    (``_group_rows``) summed per type (``_per_type``)."""
    spans, rows = _group_rows(pred, true, lengths, model, with_matches, with_overlap)
    return _per_type(spans, *rows) if rows else ({}, {})


def _group_rows(pred: SpanArrays, true: SpanArrays, lengths, model: RandomModel, with_matches: bool,
                with_overlap: bool) -> tuple[_SpanGroups, tuple | None]:
    """The spans grouped by (sentence, type) and each group's terms ``(counts, expected_overlap,
    expected_matches)`` (``None`` without spans), in a few numpy passes over all groups at once:
    counts, exact matches and token overlap by sorting; the one-span-each closed forms vectorised
    (``_single_pair_overlaps``); the other groups one cached signature call each. ``counts`` holds
    the ``FIELDS`` of each group (a column) with zeros in place of the two expectations."""
    spans = _SpanGroups(pred, true, lengths)
    if not spans.types.size:
        return spans, None
    k, annotated, tp, overlap = _group_counts(spans)
    expected_overlap, expected_matches = _group_expectations(spans, k, annotated, model, with_matches, with_overlap)
    counts = np.stack([tp, k[0], k[1], overlap, np.zeros(spans.count), annotated[0] + annotated[1],
                       np.zeros(spans.count)])
    return spans, (counts, expected_overlap, expected_matches)


class _SpanGroups:
    """Both sides' spans as arrays, grouped by (sentence, type): ``group[i]`` is span ``i``'s group."""

    def __init__(self, pred: SpanArrays, true: SpanArrays, lengths):
        self.names = list(dict.fromkeys(pred.names + true.names))
        code = {name: i for i, name in enumerate(self.names)}
        self.types = np.concatenate([np.array([code[name] for name in pred.names], dtype=np.int64)[pred.type_code],
                                     np.array([code[name] for name in true.names], dtype=np.int64)[true.type_code]])
        if not self.types.size:
            return
        self.sentence = np.concatenate([pred.sentence, true.sentence]).astype(np.int64)
        self.begin = np.concatenate([pred.begin, true.begin]).astype(np.int64)
        self.end = np.concatenate([pred.end, true.end]).astype(np.int64)
        self.side = np.zeros(self.types.size, dtype=np.int64)
        self.side[pred.sentence.size:] = 1
        self.sizes = np.asarray(lengths, dtype=np.int64)
        self.width = int(self.sizes.max()) + 1  # begin and end lie in [0, width)
        self.groups, group = np.unique(self.sentence * len(self.names) + self.types, return_inverse=True)
        self.group = group.ravel()
        self.count = len(self.groups)
        # one int64 sort key per ordering when it fits (else the same order by lexsort)
        self.fits = self.count * self.width * self.width * 2 < 2**62
        self.length = self.end - self.begin
        self.pred_side = self.side == 0

    def sort_by(self, *keys):
        """Stable order by ``keys`` (most significant first, each paired with its range)."""
        if self.fits:
            combined = keys[0][0]
            for key, size in keys[1:]:
                combined = combined * size + key
            return np.argsort(combined, kind="stable")
        return np.lexsort([key for key, _ in keys[::-1]])


def _group_counts(spans: _SpanGroups) -> tuple:
    """``(k, annotated, tp, overlap)`` per group: spans and tokens of each side, exact matches,
    token overlap."""
    group, count, width, pred_side = spans.group, spans.count, spans.width, spans.pred_side
    begin, end, length = spans.begin, spans.end, spans.length
    k = [np.bincount(group[pred_side], minlength=count), np.bincount(group[~pred_side], minlength=count)]
    annotated = [np.bincount(group[pred_side], weights=length[pred_side], minlength=count),
                 np.bincount(group[~pred_side], weights=length[~pred_side], minlength=count)]
    # a span on both sides (same sentence, type, begin and end) is a true positive
    order = spans.sort_by((group, count), (begin, width), (end, width))
    same = (group[order[1:]] == group[order[:-1]]) & (begin[order[1:]] == begin[order[:-1]]) \
        & (end[order[1:]] == end[order[:-1]])
    tp = np.bincount(group[order[1:]][same], minlength=count)
    # token overlap: sweep the begin/end events of each group; spans of one type on one side are disjoint
    events = np.concatenate([begin, end])
    event_group = np.concatenate([group, group])
    order = spans.sort_by((event_group, count), (events, width))
    delta = np.concatenate([np.ones_like(spans.side), -np.ones_like(spans.side)])[order]  # a begin opens, an end closes
    of_pred = np.concatenate([pred_side, pred_side])[order]
    covered_pred = np.cumsum(np.where(of_pred, delta, 0))
    covered_true = np.cumsum(np.where(of_pred, 0, delta))
    both = (covered_pred[:-1] > 0) & (covered_true[:-1] > 0)
    overlap = np.bincount(event_group[order[:-1]][both], weights=np.diff(events[order])[both], minlength=count)
    return k, annotated, tp, overlap


def _group_expectations(spans: _SpanGroups, k, annotated, model: RandomModel, with_matches: bool,
                        with_overlap: bool) -> tuple[np.ndarray, np.ndarray]:
    """``E[overlap]`` and ``E[matches]`` per group: closed forms for one span each (vectorised),
    one cached signature call of the model for the others."""
    group_sentence = spans.groups // len(spans.names)
    n = spans.sizes[group_sentence]
    expected_overlap, expected_matches = np.zeros(spans.count), np.zeros(spans.count)
    single = (k[0] == 1) & (k[1] == 1) & model.single_segment_uniform
    a, b = annotated[0].astype(np.int64), annotated[1].astype(np.int64)  # one span each: its length
    if with_overlap:
        vector = single & (n <= _VECTOR_N)
        expected_overlap[vector] = _single_pair_overlaps(n[vector], a[vector], b[vector])
        for g in np.flatnonzero(single & (n > _VECTOR_N)).tolist():
            expected_overlap[g] = single_pair_overlap(int(n[g]), int(a[g]), int(b[g]))
    if with_matches:
        equal = single & (a == b)
        expected_matches[equal] = 1.0 / (n[equal] - a[equal] + 1).astype(float)
    several = np.flatnonzero((k[0] > 0) & (k[1] > 0) & ~single)
    if not several.size:
        return expected_overlap, expected_matches
    # each group's lengths, sorted, predictions first
    order = spans.sort_by((spans.group, spans.count), (spans.side, 2), (spans.length, spans.width))
    lengths = spans.length[order].tolist()
    cuts = np.concatenate(([0], np.cumsum(k[0] + k[1])))
    groups = [(size, tuple(lengths[start:middle]), tuple(lengths[middle:stop])) for start, middle, stop, size in
              zip(cuts[several].tolist(), (cuts[several] + k[0][several]).tolist(), cuts[several + 1].tolist(),
                  n[several].tolist(), strict=True)]
    model.prefetch(groups, with_overlap, with_matches)  # the non-overlapping model's long units: one batch
    try:
        if with_matches:  # all groups together (the same bits as one at a time)
            expected_matches[several] = model.expected_matches_many(groups)
        if with_overlap:
            expected_overlap[several] = model.expected_overlap_many(groups)
    except ValueError:  # a sentence too long and dense for the exact model: one at a time, to name it
        for g, (size, lengths_pred, lengths_true) in zip(several.tolist(), groups, strict=True):
            try:
                if with_overlap:
                    model.expected_overlap(size, lengths_pred, lengths_true)
                if with_matches:
                    model.expected_matches(size, lengths_pred, lengths_true)
            except ValueError as error:
                raise ValueError(f"sentence {int(group_sentence[g])}: {error}") from None
        raise
    return expected_overlap, expected_matches


def _per_type(spans: _SpanGroups, counts: np.ndarray, expected_overlap, expected_matches) -> tuple[dict, dict]:
    """The groups summed per type (counts as integers, expectations exactly), types in order of
    first appearance, as a loop over the sentences meets them (sentence, predictions first, span
    order)."""
    types, names = spans.types, spans.names
    first = np.argsort((spans.sentence * 2 + spans.side) * types.size + np.arange(types.size), kind="stable")
    appearance = list(dict.fromkeys(types[first].tolist()))
    group_type = spans.groups % len(names)
    by_type = np.argsort(group_type, kind="stable")
    cuts = np.concatenate(([0], np.cumsum(np.bincount(group_type, minlength=len(names))))).tolist()
    per_type: dict[str, np.ndarray] = {}
    partials: dict[str, tuple[list[float], list[float]]] = {}
    for t in appearance:
        mine = by_type[cuts[t]:cuts[t + 1]]
        total = [int(value) for value in counts[:, mine].sum(axis=1)]
        overlaps, matches = expected_overlap[mine], expected_matches[mine]
        # zero terms (a side without spans of the type) leave an exact sum as it is
        _add_type_total(per_type, partials, names[t], total, overlaps[overlaps != 0].tolist(),
                        matches[matches != 0].tolist())
    return per_type, partials


def _sentences(spans: _SpanGroups, rows, equal, lengths, model: str, levels) -> list[ChanceStatistics]:
    """Every sentence's statistics from the groups' rows of ``_group_rows``: the columns of its
    groups, types in the order of their first span (predictions first, then span order)."""
    if rows is None:
        return [ChanceStatistics({}, same, n, model, levels) for n, same in zip(lengths, equal, strict=True)]
    counts, expected_overlap, expected_matches = rows
    table = counts.copy()
    table[EXPECTED_OVERLAP], table[EXPECTED_MATCHES] = expected_overlap, expected_matches
    first = np.full(spans.count, spans.types.size)  # each group's first span: predictions precede references
    np.minimum.at(first, spans.group, np.arange(spans.types.size))
    group_sentence = spans.groups // len(spans.names)
    order = np.lexsort((first, group_sentence))
    vectors = list(table.T[order])
    names = [spans.names[t] for t in (spans.groups[order] % len(spans.names)).tolist()]
    cuts = np.searchsorted(group_sentence[order], np.arange(len(lengths) + 1)).tolist()
    return [ChanceStatistics({names[g]: vectors[g] for g in range(cuts[s], cuts[s + 1])}, same, n, model, levels)
            for s, (n, same) in enumerate(zip(lengths, equal, strict=True))]


def corpus_statistics(
    predictions, references, *, scheme=None, mode=None, suffix=False, model="non_overlapping", levels=LEVELS
) -> tuple[ChanceStatistics, list[ChanceStatistics]]:
    """Corpus total and per-sentence statistics (the sentences add up to the total, exactly and in
    any order: see ``ChanceStatistics``).

    ``levels`` says which expectations to compute: the token level needs the coverage
    probabilities, the entity level the start distributions; the statistics record which.
    ``sentence_statistics_array`` turns the sentences into one array.
    """
    return _corpus(predictions, references, scheme, mode, suffix, model, levels, keep_sentences=True)


def corpus_total(
    predictions, references, *, scheme=None, mode=None, suffix=False, model="non_overlapping", levels=LEVELS
) -> ChanceStatistics:
    """The corpus total alone (the array pass ``chance_f1`` uses): the exact sum of
    ``corpus_statistics``' sentences, without keeping them."""
    return _corpus(predictions, references, scheme, mode, suffix, model, levels, keep_sentences=False)[0]


def sentence_statistics(
    prediction, reference, *, scheme=None, mode=None, suffix=False, model="non_overlapping", levels=LEVELS
) -> ChanceStatistics:
    """Compute the additive statistics of one sentence.

    Parameters
    ----------
    prediction, reference : sequence of str
        The sentence's two tag sequences, of equal length.
    scheme : str, optional
        As in seqeval; for strict mode give it (else it is detected per call).
    mode : {None, "strict"}, optional
        As in seqeval.
    suffix : bool, default False
        As in seqeval: tags with the type first.
    model : str or RandomModel, default "non_overlapping"
        The random annotation model.
    levels : tuple of str, default ("token", "entity")
        The levels whose expectations are computed.

    Returns
    -------
    ChanceStatistics
        Per entity type the seven statistics; summed over sentences they give ``chance_f1``.

    Raises
    ------
    ValueError
        Bad tags (naming the position) or unequal lengths.

    See Also
    --------
    ChanceStatistics : What the statistics are and how they add.
    scores_from_shards : The scores of summed statistics.

    Examples
    --------
    >>> statistics = sentence_statistics(["B-PER", "I-PER", "O", "O"], ["B-PER", "O", "O", "O"])
    >>> statistics.per_type["PER"].tolist()  # tp, predicted, actual, overlap, E[overlap], a1 + a2, E[matches]
    [0.0, 1.0, 1.0, 1.0, 0.5, 3.0, 0.0]
    """
    return corpus_statistics(
        [prediction], [reference], scheme=scheme, mode=mode, suffix=suffix, model=model, levels=levels
    )[0]


class SentenceArrays(NamedTuple):
    """Per-sentence statistics as arrays (for bootstrap resampling of sentences).

    ``per_type[s, i, f]``: statistic ``FIELDS[f]`` of type ``types[i]`` in sentence ``s`` (0 where
    the type does not occur); ``per_type.sum(axis=1)`` is the per-sentence overall vector.
    ``tokens[s] = (correct tokens, tokens)``.
    """

    types: list[str]
    per_type: np.ndarray
    tokens: np.ndarray


def sentence_statistics_array(sentences, *, types=None) -> SentenceArrays:
    """Stack per-sentence statistics into arrays, for resampling sentences.

    Parameters
    ----------
    sentences : list of ChanceStatistics
        The statistics of each sentence (``sentence_statistics``).
    types : list of str, optional
        The entity types, in the order of the second axis (default: every type seen, sorted).

    Returns
    -------
    SentenceArrays
        ``types``; ``per_type`` of shape ``(sentences, types, len(FIELDS))`` (0 where a type does
        not occur); ``tokens[s] = (correct tokens, tokens)``.

    See Also
    --------
    bootstrap_scores : Intervals from the same statistics.

    Examples
    --------
    >>> first = sentence_statistics(["B-PER", "I-PER", "O", "O"], ["B-PER", "O", "O", "O"])
    >>> second = sentence_statistics(["O", "B-LOC", "O"], ["O", "B-LOC", "O"])
    >>> arrays = sentence_statistics_array([first, second])
    >>> arrays.types, arrays.per_type.shape, arrays.tokens.tolist()
    (['LOC', 'PER'], (2, 2, 7), [[3, 4], [3, 3]])
    """
    sentences = list(sentences)
    if types is None:
        types = sorted({name for stats in sentences for name in stats.per_type})
    index = {name: i for i, name in enumerate(types)}
    per_type = np.zeros((len(sentences), len(types), len(FIELDS)))
    tokens = np.zeros((len(sentences), 2), dtype=np.int64)
    for s, stats in enumerate(sentences):
        for name, vector in stats.per_type.items():
            if name not in index:
                raise ValueError(f"sentence {s}: type {name!r} is not in types {types!r}")
            per_type[s, index[name]] = vector
        tokens[s] = stats.correct_tokens, stats.total_tokens
    return SentenceArrays(list(types), per_type, tokens)


def _divide(numerator: float, denominator: float, zero_division, what: str) -> float:
    if denominator == 0:
        if zero_division == "warn":
            warnings.warn(f"{what} is ill-defined (0/0) and set to 0.0; use zero_division to control this",
                          UndefinedMetricWarning, stacklevel=4)
        return zero_division_value(zero_division)
    return numerator / denominator


def chance_scores(vector: np.ndarray, level: str, zero_division, what: str) -> dict[str, float]:
    """Observed, chance and corrected F1 of one summed vector (a type, the corpus, a pair of a
    team), by the kernel ``chance_corrected.f1_scores``.

    Chance F1 is reported as computed, never clipped. Under the ``"overlapping"`` model it is the
    expected *additive* overlap ``2 sum_t c1(t) c2(t) / (a1 + a2)`` (Proposition 5: a token covered
    by two random segments of one annotator counts twice), which can exceed 1. A chance F1 of 1 or
    more means random annotators agree at least as much as identical ones: there is no room for
    agreement beyond chance, so corrected F1 ``(observed - chance) / (1 - chance)`` is undefined and
    takes the ``zero_division`` value (with a warning naming the reason under "warn").
    """
    agreement, expected, denominator = f1_terms(vector, level)
    observed = None
    if level == "entity" and denominator > 0:  # bit-for-bit seqeval's f1 = 2pr/(p+r), equal to 2tp/(k1+k2)
        observed = _seqeval_scores(vector[TRUE_POSITIVES], vector[PREDICTED], vector[ACTUAL], 0, what)[2]
    observed, chance, corrected, reason = f1_scores(agreement, expected, denominator, zero_division, observed)
    if reason != DEFINED and zero_division == "warn":
        warnings.warn(undefined_message(int(reason), float(chance), what, 0.0), UndefinedMetricWarning, stacklevel=3)
    return {"observed_f1": float(observed), "chance_f1": float(chance), "corrected_f1": float(corrected)}


def _summed(stats: ChanceStatistics, names) -> np.ndarray:
    """The exact sum of the vectors of ``names`` (counts as integers, expectations exactly rounded)."""
    total = np.zeros(len(FIELDS))
    overlap: list[float] = []
    matches: list[float] = []
    for name in names:
        total += stats.per_type[name]
        first, second = stats.exact_partials(name)
        overlap = merge_exactly(overlap, first)
        matches = merge_exactly(matches, second)
    total[EXPECTED_OVERLAP], total[EXPECTED_MATCHES] = math.fsum(overlap), math.fsum(matches)
    return total


def pooled_scores(stats: ChanceStatistics, level: str, zero_division, what: str) -> dict[str, float]:
    """``chance_scores`` of the exact sum over every type of ``stats`` (a corpus, a pair, a team)."""
    return chance_scores(_summed(stats, sorted(stats.per_type)), level, zero_division, what)


def _seqeval_scores(tp: float, predicted: float, actual: float, zero_division, what: str) -> tuple[float, float, float]:
    """precision, recall, f1 exactly as seqeval's ``_prf_divide`` and f-score formula give them."""
    precision = _divide(float(tp), float(predicted), zero_division, f"{what}: precision")
    recall = _divide(float(tp), float(actual), zero_division, f"{what}: recall")
    denominator = precision + recall
    f1 = 2.0 * precision * recall / (denominator if denominator != 0 else 1.0)
    return precision, recall, f1


def _check_level_available(stats: ChanceStatistics, level: str) -> None:
    if level not in LEVELS:
        raise ValueError(f"level must be one of {list(LEVELS)}, got {level!r}")
    if (level == "entity" and any(np.isnan(v[EXPECTED_MATCHES]) for v in stats.per_type.values())) or (
        stats.levels is not None and level not in stats.levels
    ):
        raise ValueError(f"these statistics were computed without {level}-level expectations; "
                         f"compute them with levels including {level!r}")


def scores_from_statistics(stats: ChanceStatistics, level: str = "token", zero_division="warn") -> dict:
    """The metric's output (seqeval's keys plus observed/chance/corrected F1) from statistics."""
    _check_level_available(stats, level)
    zero_division_value(zero_division)
    result: dict = {}
    names = sorted(stats.per_type)
    for name in names:
        vector = stats.per_type[name]
        precision, recall, f1 = _seqeval_scores(vector[TRUE_POSITIVES], vector[PREDICTED], vector[ACTUAL],
                                                zero_division, name)
        result[name] = {"precision": precision, "recall": recall, "f1": f1, "number": int(vector[ACTUAL])}
        result[name].update(chance_scores(vector, level, zero_division, name))
    total = _summed(stats, names)
    precision, recall, f1 = _seqeval_scores(total[TRUE_POSITIVES], total[PREDICTED], total[ACTUAL], zero_division,
                                            "overall")
    result["overall_precision"] = precision
    result["overall_recall"] = recall
    result["overall_f1"] = f1
    result["overall_accuracy"] = stats.correct_tokens / stats.total_tokens if stats.total_tokens else 0.0
    overall = chance_scores(total, level, zero_division, "overall")
    result["overall_observed_f1"] = overall["observed_f1"]
    result["overall_chance_f1"] = overall["chance_f1"]
    result["overall_corrected_f1"] = overall["corrected_f1"]
    return result


def sentence_scores(sentences, level: str) -> list[dict]:
    """Observed and chance F1 of each sentence (all types), by the same kernel as the corpus:
    ``{"observed_f1", "chance_f1", "denominator"}``, the scores ``None`` without entities."""
    terms = np.array([f1_terms(_summed(stats, sorted(stats.per_type)), level) for stats in sentences],
                     dtype=float).reshape(-1, 3)
    observed, chance, _, reason = f1_scores(terms[:, 0], terms[:, 1], terms[:, 2], 0)
    defined = (reason != NO_ENTITIES).tolist()
    return [{"observed_f1": o if d else None, "chance_f1": c if d else None, "denominator": n}
            for o, c, n, d in zip(observed.tolist(), chance.tolist(), terms[:, 2].tolist(), defined, strict=True)]


def chance_f1(
    predictions: Sequence[Sequence[str]] | AnnotationSet,
    references: Sequence[Sequence[str]] | None = None,
    *,
    suffix: bool = False,
    scheme: str | type | None = None,
    mode: str | None = None,
    sample_weight: Sequence[float] | None = None,
    zero_division: Literal["warn"] | float = "warn",
    model: str | RandomModel = "non_overlapping",
    level: str = "token",
    return_sentence_scores: bool = False,
    confidence_level: float | None = None,
    n_resamples: int = 1000,
    random_state: int | np.random.Generator | None = None,
    resampling: str = "multinomial",
    document_ids: Sequence[int | str] | None = None,
) -> dict[str, Any]:
    r"""Compute seqeval's scores plus observed, chance and chance-corrected F1, overall and per type.

    Parameters
    ----------
    predictions, references : list of list of str
        Per sentence, the tags of the two annotations (BIO, IOBES, BILOU...; equal lengths per
        sentence). For a model and its gold standard, the model's output and the gold tags.
    suffix, scheme, mode : optional
        As in seqeval: tags with the type first (``"PER-B"``), the scheme of strict mode
        (``"IOB2"``, ``"IOBES"``, ...) and ``mode="strict"``.
    sample_weight : optional
        Accepted for compatibility and, as in seqeval, without effect.
    zero_division : {"warn", 0, 1}, default "warn"
        The value of a 0/0 score ("warn": 0.0 with an ``UndefinedMetricWarning``).
    model : str or RandomModel, default "non_overlapping"
        The random annotation model: ``"non_overlapping"`` (the paper's), ``"overlapping"``,
        another name registered in ``random_models``, or a ``RandomModel`` instance.
    level : {"token", "entity"}, default "token"
        ``"token"``: the paper's token-overlap F1; ``"entity"``: exact span match, whose observed
        F1 is seqeval's ``overall_f1``.
    return_sentence_scores : bool, default False
        Add ``sentence_scores``: per sentence ``observed_f1``, ``chance_f1`` (None without
        entities) and ``denominator``.
    confidence_level : float, optional
        None (default): no intervals. Otherwise sentence-bootstrap percentile intervals
        (``overall_corrected_f1_ci`` ... and ``corrected_f1_ci`` ... per type, ``[low, high]``)
        from ``n_resamples`` resamples drawn with ``np.random.default_rng(random_state)``; see
        ``bootstrap_intervals``.
    n_resamples : int, default 1000
        Bootstrap resamples.
    random_state : int, numpy.random.Generator or None
        The bootstrap's seed; the same seed gives the same interval.
    resampling : {"multinomial", "poisson"}, default "multinomial"
        ``"poisson"`` draws Poisson(1) weights that are a function of ``document_ids`` (default:
        the sentence positions) and the int seed ``random_state`` (``poisson_bootstrap``): the
        intervals a sharded or streamed evaluation merges (``ChanceF1State``, the Ray adapter)
        equal these, bit for bit.
    document_ids : sequence, optional
        Per sentence, the document it belongs to (Poisson resampling).

    Returns
    -------
    dict
        Every key of evaluate's ``seqeval`` module with equal values (per type ``precision``,
        ``recall``, ``f1``, ``number``; ``overall_precision``, ``overall_recall``, ``overall_f1``,
        ``overall_accuracy``), plus ``overall_observed_f1``, ``overall_chance_f1``,
        ``overall_corrected_f1`` and, per type, ``observed_f1``, ``chance_f1``, ``corrected_f1``.
        Plain Python numbers.

    Raises
    ------
    ValueError
        Bad input, naming the sentence: length mismatch, a tag seqeval cannot take or not valid
        for the scheme (strict mode), unknown scheme or model, empty input.

    Warns
    -----
    UndefinedMetricWarning
        A 0/0 score under ``zero_division="warn"``.

    See Also
    --------
    team_chance_f1 : The same scores for every pair of a team of annotators.
    span_chance_f1 : The same scores from span lists.
    ChanceF1State : The same scores added up batch by batch.

    Notes
    -----
    For each sentence, entity type and annotator, the random model keeps the number and lengths of
    the segments and places them at random (the two annotators independently). Token F1 is
    :math:`2\,\mathrm{overlap} / (a_1 + a_2)` and :math:`a_1 + a_2` does not change under the
    model, so with :math:`c_i(t)` the probability that token :math:`t` is covered by annotator
    :math:`i`'s random segments (Propositions 2-3 of [1]_; Proposition 5 for the
    overlapping model),

    .. math::

        \mathrm{chance} = \frac{2 \sum_t c_1(t)\, c_2(t)}{a_1 + a_2}, \qquad
        \mathrm{corrected} = \frac{\mathrm{observed} - \mathrm{chance}}{1 - \mathrm{chance}}.

    Over a corpus, overlaps, expected overlaps and :math:`a_1 + a_2` are summed over sentences and
    types (micro average) before the ratios are taken; the sums are exact, so the result does not
    depend on the order of the sentences. At entity level the expected number of exact matches
    comes from the start distributions of equal-length segments.

    Undefined values: a 0/0 score (no entities on either side; chance agreement 1 because both
    annotators cover every token) takes the ``zero_division`` value, never NaN. Chance F1 is never
    clipped: under the overlapping model it can exceed 1 (see ``chance_scores``), and corrected F1
    is then undefined and takes ``zero_division``. A corrected F1 interval is ``None`` where some
    resample's chance F1 is 1 or more.

    References
    ----------
    .. [1] D. Li, C. Rosé, A. Yuan, C. Zhou. Estimating Agreement by Chance for Sequence Annotation. ACL 2024.

    Examples
    --------
    >>> references = [["O", "O", "O", "B-PER", "I-PER", "O", "O", "O", "B-LOC", "O"]]
    >>> predictions = [["O", "O", "O", "B-PER", "I-PER", "I-PER", "O", "O", "B-LOC", "O"]]
    >>> scores = chance_f1(predictions, references)
    >>> round(scores["overall_f1"], 4), round(scores["overall_observed_f1"], 4)
    (0.5, 0.8571)
    >>> round(scores["overall_chance_f1"], 4), round(scores["overall_corrected_f1"], 4)
    (0.2111, 0.8189)
    >>> round(scores["PER"]["chance_f1"], 4)
    0.2556
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {list(LEVELS)}, got {level!r}")
    zero_division_value(zero_division)
    check_resampling(resampling)
    if document_ids is not None and resampling != "poisson":
        raise ValueError("document_ids choose the weights of resampling='poisson' only")
    if sample_weight is not None:
        warnings.warn("sample_weight has no effect on span scores (as in seqeval); it is ignored", UserWarning,
                      stacklevel=2)
    total, sentences = _corpus(predictions, references, scheme, mode, suffix, model, (level,),
                               keep_sentences=return_sentence_scores or confidence_level is not None)
    result = scores_from_statistics(total, level, zero_division)
    if return_sentence_scores:
        result["sentence_scores"] = sentence_scores(sentences, level)

    if resampling == "poisson":
        return add_poisson_intervals(result, sentences, level, zero_division, confidence_level, n_resamples,
                                     random_state, document_ids)
    return add_intervals(result, sentences, level, zero_division, confidence_level, n_resamples, random_state)


__all__ = [
    "SentenceArrays",
    "UndefinedMetricWarning",
    "chance_f1",
    "corpus_statistics",
    "corpus_total",
    "pair_statistics",
    "scores_from_statistics",
    "sentence_statistics",
    "sentence_statistics_array",
    "span_array_total",
]
