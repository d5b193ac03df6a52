"""The expectations of Proposition 1 for models with tabulated distributions, per sentence signature.

``E[overlap] = sum_t c_A(t) c_B(t)`` and ``E[# exact matches] = sum over same-length pairs of
sum_l P_A(l) P_B(l)`` (chance_agreement_sequence_annotation.txt), cached per model and ``(n, lengths)``
signature, from the model's coverage and start distributions, summed over their two ends only
where the model gives them in compact form (``compact_coverage``, ``compact_start_among``); one
segment on each side has a closed form (``single_pair_overlap``). ``TabulatedModel`` is the base of
both built-in models (``non_overlapping.py``, ``overlapping.py``): a subclass gives ``check``,
``_coverage``, ``_start_distribution`` and ``sample`` and may give the compact forms.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np

from ..._numerics.exact_sum import exact_dot, fsum_segments
from .base import RandomModel


def compact_dot(n: int, first, second) -> float:
    """``sum_t c1(t) c2(t)`` of two compact forms ``(left, middle)`` (``left`` a tuple or an array):
    each product rounded once, their sum correctly rounded (``math.fsum``), so the value does not
    depend on the form."""
    (left_1, middle_1), (left_2, middle_2) = first, second
    band = max(len(left_1), len(left_2))
    if band <= 64 and not isinstance(left_1, np.ndarray) and not isinstance(left_2, np.ndarray):
        products = [(left_1[t] if t < len(left_1) else middle_1) * (left_2[t] if t < len(left_2) else middle_2)
                    for t in range(band)]
    else:
        ends = [np.full(band, middle) for middle in (middle_1, middle_2)]
        ends[0][: len(left_1)] = left_1
        ends[1][: len(left_2)] = left_2
        # each product counts twice (both ends): doubled once (exact), the same exact sum
        return math.fsum([*(ends[0] * ends[1] * 2.0).tolist(), (n - 2 * band) * middle_1 * middle_2])
    return math.fsum(products + products + [(n - 2 * band) * middle_1 * middle_2])


def compact_dots(pairs) -> list[float]:
    """``compact_dot(n, first, second)`` of many ``(n, first, second)``, the same bits each: the
    products of all pairs in one array pass (each rounded once, then doubled exactly) and each
    pair's terms summed correctly rounded (``fsum_segments``, ``math.fsum``'s bits)."""
    if not pairs:
        return []
    sizes, firsts, seconds = zip(*pairs, strict=True)
    (lefts_1, middles_1), (lefts_2, middles_2) = zip(*firsts, strict=True), zip(*seconds, strict=True)
    counts_1 = np.fromiter(map(len, lefts_1), dtype=np.intp, count=len(pairs))
    counts_2 = np.fromiter(map(len, lefts_2), dtype=np.intp, count=len(pairs))
    bands = np.maximum(counts_1, counts_2)
    spans = bands + 1  # each pair: its band, then the middle's term
    starts = np.zeros(len(pairs), dtype=np.intp)
    np.cumsum(spans[:-1], out=starts[1:])
    position = np.arange(int(spans.sum())) - np.repeat(starts, spans)  # within the pair
    ends = []
    for lefts, counts, middles in ((lefts_1, counts_1, middles_1), (lefts_2, counts_2, middles_2)):
        end = np.repeat(np.array(middles, dtype=float), spans)  # the middle value where a left is shorter
        end[position < np.repeat(counts, spans)] = np.concatenate(lefts)
        ends.append(end)
    terms = ends[0] * ends[1] * 2.0
    # the middle's term, (n - 2 band) * middle_1 * middle_2, in compact_dot's order
    terms[starts + bands] = (np.array(sizes) - 2 * bands).astype(float) * np.array(middles_1, dtype=float) \
        * np.array(middles_2, dtype=float)
    return fsum_segments(terms, starts).tolist()


def _ramp_sum(low: int, high: int, power: int) -> int:
    """``sum_{v = low + 1}^{high} v^power`` for power 0, 1 or 2 (0 when high <= low)."""
    if high <= low:
        return 0

    def upto(m: int) -> int:
        return (m, m * (m + 1) // 2, m * (m + 1) * (2 * m + 1) // 6)[power]

    return upto(high) - upto(low)


@lru_cache(maxsize=1 << 14)
def single_pair_overlap(n: int, a: int, b: int) -> float:
    """``E[overlap]`` of one segment of length ``a`` and one of length ``b``, each uniform on its
    ``n - a + 1`` starts (both models), in closed form, correctly rounded from exact integers.

    Token ``t`` is covered by ``f_a(t) = min(h(t), m_a)`` starts, ``h(t) = min(t + 1, n - t)``,
    ``m_a = min(a, n - a + 1) <= (n + 1) / 2``. ``h`` takes each value ``v <= n // 2`` twice (and
    ``(n + 1) / 2`` once if ``n`` is odd), so with ``m1 <= m2``, ``p = n // 2``:
    ``sum_t f_a f_b = 2 [sum_{v <= m1} v^2 + m1 sum_{m1 < v <= m2} v + m1 m2 (p - m2)] + [n odd] m1 m2``
    and ``E[overlap] = sum_t f_a f_b / ((n - a + 1)(n - b + 1))`` (Proposition 1 for ``k = 1``).
    """
    m1, m2 = sorted((min(a, n - a + 1), min(b, n - b + 1)))
    p = n // 2
    total = 2 * (_ramp_sum(0, min(m1, p), 2) + m1 * _ramp_sum(m1, min(m2, p), 1) + m1 * m2 * _ramp_sum(m2, p, 0))
    if n % 2:
        total += m1 * m2
    return total / ((n - a + 1) * (n - b + 1))


# A term of an expectation: its value, or ``(n, first, second)``, two compact forms whose
# ``compact_dot`` it is (formed by the caller, many at once).
_Term = float | tuple[int, Any, Any]


def _overlap_terms(model: RandomModel, groups) -> list[_Term]:
    """``expected_overlap``'s value of each ``(n, lengths_a, lengths_b)`` (a float), or ``(n, first,
    second)`` where both coverages have compact forms (their ``compact_dot``, left to the caller):
    the two sides in one order, one segment each in closed form, the compact forms of every other
    side from one call (``compact_coverages_many``)."""
    plans: list = []
    for n, lengths_a, lengths_b in groups:
        if lengths_b < lengths_a:
            lengths_a, lengths_b = lengths_b, lengths_a
        if len(lengths_a) == 1 and len(lengths_b) == 1 and model.single_segment_uniform:
            plans.append(single_pair_overlap(n, lengths_a[0], lengths_b[0]))
        else:
            plans.append((n, lengths_a, lengths_b))
    forms = iter(model.compact_coverages_many([(plan[0], side) for plan in plans if isinstance(plan, tuple)
                                               for side in plan[1:]]))
    terms: list[_Term] = []
    for plan in plans:
        if not isinstance(plan, tuple):
            terms.append(plan)
            continue
        n, lengths_a, lengths_b = plan
        first, second = next(forms), next(forms)
        if first is not None and second is not None:  # small signatures and long units: the two ends only
            terms.append((n, first, second))
        else:
            terms.append(exact_dot(model.coverage(n, lengths_a), model.coverage(n, lengths_b)))
    return terms


@lru_cache(maxsize=1 << 16)
def expected_overlap(model: RandomModel, n: int, lengths_a: tuple, lengths_b: tuple) -> float:
    """``sum_t c_a(t) c_b(t)`` (Proposition 1) for sorted length tuples, cached per model and
    signature. Symmetric to the last bit: the two sides are put in one order first."""
    term = _overlap_terms(model, [(n, lengths_a, lengths_b)])[0]
    return compact_dot(*term) if isinstance(term, tuple) else term


def expected_overlap_many(model: RandomModel, groups) -> list[float]:
    """``expected_overlap`` of many ``(n, lengths_a, lengths_b)``, the same bits each: the compact
    forms' products of all groups in one array pass (``compact_dots``). Not cached."""
    terms = _overlap_terms(model, groups)
    dots = iter(compact_dots([term for term in terms if isinstance(term, tuple)]))
    return [next(dots) if isinstance(term, tuple) else term for term in terms]


def _match_plan(model: RandomModel, n: int, lengths_a: tuple, lengths_b: tuple):
    """``(n, lengths_a, lengths_b, shared, pairs)``: the two sides in one order, their shared lengths
    in increasing order and each one's number of equal-length pairs; or, for one segment each
    (placed uniformly), ``expected_matches``' terms themselves (see ``_match_terms``)."""
    if lengths_b < lengths_a:
        lengths_a, lengths_b = lengths_b, lengths_a
    if len(lengths_a) == 1 and len(lengths_b) == 1 and model.single_segment_uniform:  # 1 / (n - a + 1) each
        return [(1, 1.0 / (n - lengths_a[0] + 1))] if lengths_a == lengths_b else []
    shared = sorted(set(lengths_a).intersection(lengths_b))
    return n, lengths_a, lengths_b, shared, [lengths_a.count(length) * lengths_b.count(length) for length in shared]


def _planned_terms(model: RandomModel, plan, starts_a: list, starts_b: list) -> list[tuple[int, _Term]]:
    """``_match_terms`` of a ``_match_plan`` (not a closed form) and the two sides' compact start
    forms of its shared lengths (``compact_starts_among``)."""
    n, lengths_a, lengths_b, shared, pairs = plan
    terms: list[tuple[int, _Term]] = []
    for length, count, first, second in zip(shared, pairs, starts_a, starts_b, strict=True):
        if first is not None and second is not None:  # small signatures and long units: the two ends only
            product: _Term = (n - length + 1, first, second)
        else:
            others_a = list(lengths_a)
            others_a.remove(length)
            others_b = list(lengths_b)
            others_b.remove(length)
            product = exact_dot(model.start_distribution(n, tuple(others_a), length),
                                model.start_distribution(n, tuple(others_b), length))
        terms.append((count, product))
    return terms


def _match_terms(model: RandomModel, n: int, lengths_a: tuple, lengths_b: tuple) -> list[tuple[int, _Term]]:
    """``expected_matches``' terms ``(pairs, product)``, one per shared length in increasing order:
    ``product`` a float, or ``(size, first, second)`` where both start distributions have compact
    forms (their ``compact_dot``, left to the caller so that many are formed at once)."""
    plan = _match_plan(model, n, lengths_a, lengths_b)
    if isinstance(plan, list):
        return plan
    _, lengths_a, lengths_b, shared, _ = plan
    return _planned_terms(model, plan, model.compact_starts_among(n, lengths_a, shared),
                          model.compact_starts_among(n, lengths_b, shared))


def _matches_total(terms: list[tuple[int, _Term]], dots) -> float:
    """The sum of ``_match_terms``' terms in their order, each compact form's product the next of
    ``dots`` (an iterator)."""
    total = 0.0
    for pairs, product in terms:
        total += pairs * (next(dots) if isinstance(product, tuple) else product)
    return total


@lru_cache(maxsize=1 << 16)
def expected_matches(model: RandomModel, n: int, lengths_a: tuple, lengths_b: tuple) -> float:
    """``E[# exact matches] = sum over pairs of equal length of sum_l P_a(l) P_b(l)``, cached per
    model and signature; symmetric to the last bit (the two sides are put in one order first)."""
    terms = _match_terms(model, n, lengths_a, lengths_b)
    return _matches_total(terms, iter([compact_dot(*product) for _, product in terms if isinstance(product, tuple)]))


def expected_matches_many(model: RandomModel, groups) -> list[float]:
    """``expected_matches`` of many ``(n, lengths_a, lengths_b)``, the same bits each: the compact
    forms' products of all groups in one array pass (``compact_dots``). Not cached."""
    plans = [_match_plan(model, *group) for group in groups]
    # the compact start forms of every side of every group in one call (``compact_starts_many``)
    starts = iter(model.compact_starts_many([(plan[0], side, plan[3]) for plan in plans if not isinstance(plan, list)
                                             for side in plan[1:3]]))
    terms = [plan if isinstance(plan, list) else _planned_terms(model, plan, next(starts), next(starts))
             for plan in plans]
    dots = iter(compact_dots([product for group in terms for _, product in group if isinstance(product, tuple)]))
    return [_matches_total(group, dots) for group in terms]


@lru_cache(maxsize=1 << 16)
def _cached_coverage(model: TabulatedModel, n: int, lengths: tuple) -> np.ndarray:
    cover = model._coverage(n, lengths)
    cover.setflags(write=False)
    return cover


@lru_cache(maxsize=1 << 14)
def _cached_start_distribution(model: TabulatedModel, n: int, others: tuple, length: int) -> np.ndarray:
    probabilities = model._start_distribution(n, others, length)
    probabilities.setflags(write=False)
    return probabilities


def clear_caches() -> None:
    """Forget the cached expectations and distributions of every model."""
    for cache in (expected_overlap, expected_matches, _cached_coverage, _cached_start_distribution,
                  single_pair_overlap):
        cache.cache_clear()


class TabulatedModel(RandomModel):
    """A model whose distributions are arrays it computes (``_coverage``, ``_start_distribution``),
    cached here per model and signature (read-only), with the expectations above. Both built-in
    models place one segment uniformly (``single_segment_uniform``)."""

    single_segment_uniform = True

    def _coverage(self, n: int, lengths: tuple[int, ...]) -> np.ndarray:
        raise NotImplementedError

    def _start_distribution(self, n: int, others: tuple[int, ...], length: int) -> np.ndarray:
        raise NotImplementedError

    def coverage(self, n: int, lengths: tuple[int, ...]) -> np.ndarray:
        return _cached_coverage(self, n, lengths)

    def start_distribution(self, n: int, others: tuple[int, ...], length: int) -> np.ndarray:
        return _cached_start_distribution(self, n, others, length)

    def expected_overlap(self, n: int, lengths_a: tuple[int, ...], lengths_b: tuple[int, ...]) -> float:
        return expected_overlap(self, n, lengths_a, lengths_b)

    def expected_matches(self, n: int, lengths_a: tuple[int, ...], lengths_b: tuple[int, ...]) -> float:
        return expected_matches(self, n, lengths_a, lengths_b)

    def expected_overlap_many(self, groups) -> list[float]:
        return expected_overlap_many(self, groups)

    def expected_matches_many(self, groups) -> list[float]:
        return expected_matches_many(self, groups)


__all__ = ["TabulatedModel", "clear_caches", "compact_dot", "compact_dots", "expected_matches", "expected_matches_many",
           "expected_overlap", "expected_overlap_many", "single_pair_overlap"]
