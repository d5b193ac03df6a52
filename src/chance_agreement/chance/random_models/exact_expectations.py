"""The expectations of Proposition 1 under the two built-in random models, per sentence signature.

``E[overlap] = sum_t c_A(t) c_B(t)`` and ``E[# exact matches] = sum over same-length pairs of
sum_l P_A(l) P_B(l)`` (chance_agreement_sequence_annotation.txt), cached per ``(n, lengths)``
signature, from the coverage and start distributions of ``random_model``; one segment on each
side has a closed form (``single_pair_overlap``). ``TabulatedModel`` gives both built-in models
(``non_overlapping.py``, ``overlapping.py``) the ``RandomModel`` interface over these functions.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..._numerics.exact_sum import exact_dot
from ..random_model import cached_coverage as _coverage
from ..random_model import cached_start_distribution as _start_distribution
from ..random_model import check_inputs, compact_coverage as _compact_coverage, compact_dot, compact_start_among
from ..random_model import sample_annotation
from .base import RandomModel


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


@lru_cache(maxsize=1 << 16)
def expected_overlap(n: int, lengths_a: tuple, lengths_b: tuple, model: str) -> float:
    """``sum_t c_a(t) c_b(t)`` (Proposition 1) for sorted length tuples, cached per signature.
    Symmetric to the last bit: the two sides are put in one order first."""
    if lengths_b < lengths_a:
        lengths_a, lengths_b = lengths_b, lengths_a
    if len(lengths_a) == 1 and len(lengths_b) == 1:
        return single_pair_overlap(n, lengths_a[0], lengths_b[0])
    first, second = _compact_coverage(n, lengths_a, model), _compact_coverage(n, lengths_b, model)
    if first is not None and second is not None:  # small signatures: the two ends only, no arrays
        return compact_dot(n, first, second)
    return exact_dot(_coverage(n, lengths_a, model), _coverage(n, lengths_b, model))


@lru_cache(maxsize=1 << 16)
def expected_matches(n: int, lengths_a: tuple, lengths_b: tuple, model: str) -> float:
    """``E[# exact matches] = sum over pairs of equal length of sum_l P_a(l) P_b(l)``; symmetric to
    the last bit (the two sides are put in one order first)."""
    if lengths_b < lengths_a:
        lengths_a, lengths_b = lengths_b, lengths_a
    if len(lengths_a) == 1 and len(lengths_b) == 1:  # one uniform start each: 1 / (n - a + 1)
        return 1.0 / (n - lengths_a[0] + 1) if lengths_a == lengths_b else 0.0
    total = 0.0
    for length in sorted(set(lengths_a) & set(lengths_b)):
        first, second = compact_start_among(n, lengths_a, length, model), compact_start_among(n, lengths_b, length, model)
        if first is not None and second is not None:  # small signatures and long units: the two ends only
            product = compact_dot(n - length + 1, first, second)
        else:
            others_a = list(lengths_a)
            others_a.remove(length)
            others_b = list(lengths_b)
            others_b.remove(length)
            product = exact_dot(_start_distribution(n, tuple(others_a), length, model),
                                _start_distribution(n, tuple(others_b), length, model))
        total += lengths_a.count(length) * lengths_b.count(length) * product
    return total


class TabulatedModel(RandomModel):
    """A model whose distributions ``random_model`` computes, by its ``name`` (both built-in models)."""

    single_segment_uniform = True

    def check(self, n: int, lengths: tuple[int, ...]) -> None:
        check_inputs(n, lengths, self.name)

    def coverage(self, n: int, lengths: tuple[int, ...]) -> np.ndarray:
        return _coverage(n, lengths, self.name)

    def start_distribution(self, n: int, others: tuple[int, ...], length: int) -> np.ndarray:
        return _start_distribution(n, others, length, self.name)

    def sample(self, n: int, lengths, rng: np.random.Generator) -> np.ndarray:
        return sample_annotation(n, lengths, rng, self.name)

    def expected_overlap(self, n: int, lengths_a: tuple[int, ...], lengths_b: tuple[int, ...]) -> float:
        return expected_overlap(n, lengths_a, lengths_b, self.name)

    def expected_matches(self, n: int, lengths_a: tuple[int, ...], lengths_b: tuple[int, ...]) -> float:
        return expected_matches(n, lengths_a, lengths_b, self.name)


__all__ = ["TabulatedModel", "expected_matches", "expected_overlap", "single_pair_overlap"]
