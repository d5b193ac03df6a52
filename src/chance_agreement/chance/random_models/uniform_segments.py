"""One segment placed uniformly over its ``n - a + 1`` starts: the distributions both built-in models
share (a lone segment under ``NonOverlapping``; every segment, independently, under ``Overlapping``).

A segment of length ``a`` covers token ``t`` from ``min(t + 1, m)`` of its starts near the two ends,
``m = min(a, n - a + 1)``, and from ``m`` starts in between (a trapezoid), so its coverage is that
count over ``n - a + 1`` (Proposition 5 for one segment).
"""

from __future__ import annotations

from collections import Counter

import numpy as np

__all__ = ["one_segment_coverage", "single_segment_compact"]


def one_segment_coverage(n: int, lengths: tuple[int, ...]) -> np.ndarray:
    """``sum_i c_i(t)``: the expected number of segments covering token ``t`` when each is placed
    independently and uniformly (one segment: the probability that it covers ``t``)."""
    cover = np.zeros(n)
    t = np.arange(n)
    for length, count in Counter(lengths).items():
        starts = np.minimum(t, n - length) - np.maximum(0, t - length + 1) + 1
        cover += count * starts / (n - length + 1)
    return cover


def single_segment_compact(n: int, lengths: tuple[int, ...]):
    """The coverage of at most one segment as ``(left, middle)``: ``c(t) = c(n - 1 - t) = left[t]``
    for ``t < len(left)``, ``middle`` in between (the trapezoid's ramp and plateau)."""
    if not lengths:
        return (), 0.0
    starts = n - lengths[0] + 1
    peak = min(lengths[0], starts)
    return tuple((t + 1) / starts for t in range(peak - 1)), peak / starts
