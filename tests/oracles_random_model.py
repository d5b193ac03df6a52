"""Slow exact oracles of the random annotation model (issue 26): plain integers and Fractions,
written from the formulas, independent of the package's code.

``exact_v(slots, excesses, positions)`` is the band sum of ``random_model`` and
``document_bands``,

    V(t) = sum_{q + x = t} sum_j C(q, j) C(N - q, K - j) / C(N, K) * c_j(x) / C(K, j),

``N = slots``, ``K = len(excesses)``, ``c_j(x)`` the number of ``j``-subsets of ``excesses`` with
total excess ``x``; a segment's start law is ``V / (N + 1)`` over its others and the free-token
probability ``(N + 1 - k)/(N + 1) * V`` over all ``k`` segments.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

__all__ = ["exact_coverage", "exact_start", "exact_v", "subset_counts"]


def subset_counts(excesses) -> dict[tuple[int, int], int]:
    """``{(j, x): number of j-subsets with total excess x}`` (nonzero entries)."""
    counts = {(0, 0): 1}
    for excess in excesses:
        grown = dict(counts)
        for (j, x), count in counts.items():
            grown[(j + 1, x + excess)] = grown.get((j + 1, x + excess), 0) + count
        counts = grown
    return counts


def exact_v(slots: int, excesses, positions) -> list[Fraction]:
    """``V(t)`` for each ``t`` in ``positions``, as Fractions."""
    draws, counts = len(excesses), subset_counts(excesses)
    out = []
    for t in positions:
        value = Fraction(0)
        for (j, x), count in counts.items():
            q = t - x
            if 0 <= q <= slots:
                value += Fraction(count * comb(q, j) * comb(slots - q, draws - j), comb(draws, j))
        out.append(value / comb(slots, draws))
    return out


def exact_start(n: int, lengths, index: int) -> list[Fraction]:
    """``P(start of segment index = l)``, ``l = 0..n - a``, exactly."""
    others = list(lengths[:index]) + list(lengths[index + 1 :])
    excesses = [a - 1 for a in others]
    slots = n - sum(excesses) - (lengths[index] - 1)
    return [v / slots for v in exact_v(slots - 1, excesses, range(n - lengths[index] + 1))]


def exact_coverage(n: int, lengths) -> list[Fraction]:
    """``P(token t is covered)``, ``t = 0..n - 1``, exactly."""
    k = len(lengths)
    slots = n - sum(lengths) + k
    free = exact_v(slots - 1, [a - 1 for a in lengths], range(n))
    return [1 - Fraction(slots - k, slots) * f for f in free]
