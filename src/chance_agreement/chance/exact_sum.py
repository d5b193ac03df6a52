"""Exactly rounded, exactly mergeable float sums (so results do not depend on summation order).

A sum is kept as a list of *partials*: floats of increasing magnitude whose low bits do not
overlap, and whose exact (real-number) sum is the exact sum of everything added so far
(Shewchuk's "grow expansion": each step replaces ``x + y`` by its rounded value ``hi`` and its
rounding error ``lo = x + y - hi``, which is exactly representable). Two such lists merge exactly
by adding the partials of one to the other, and ``math.fsum(partials)`` is the correctly rounded
exact sum, so the reported value is the same for any order and any grouping of the terms.
"""

from __future__ import annotations

import math


def add_exactly(partials: list[float], value: float) -> list[float]:
    """Add ``value`` to the exact sum held in ``partials`` (in place); returns ``partials``."""
    x = float(value)
    if not math.isfinite(x):
        raise ValueError(f"cannot add a non-finite value exactly: {value!r}")
    kept = 0
    for y in partials:
        if abs(x) < abs(y):
            x, y = y, x
        high = x + y
        low = y - (high - x)  # exact: |x| >= |y| (Dekker's fast two-sum)
        if low:
            partials[kept] = low
            kept += 1
        x = high
    partials[kept:] = [x]
    return partials


def exact_partials(values) -> list[float]:
    """Partials of the exact sum of many floats, at C speed: ``p1 = fsum(values)`` (correctly
    rounded), ``p2 = fsum(values + [-p1])`` (the rounded remainder), ... until the remainder is 0.
    Each step is exact in the real numbers, so ``sum(p) == sum(values)`` exactly; every step gains
    at least 53 bits, so a few steps suffice."""
    values = list(map(float, values))
    if not all(map(math.isfinite, values)):
        raise ValueError("cannot add a non-finite value exactly")
    partials: list[float] = []
    while True:
        remainder = math.fsum(values + [-p for p in partials])
        if remainder == 0.0:
            return partials[::-1] or [0.0]
        partials.append(remainder)


def merge_exactly(first, second) -> list[float]:
    """A new partials list holding the exact sum of two partials lists."""
    out = list(first)
    for value in second:
        add_exactly(out, value)
    return out


__all__ = ["add_exactly", "exact_partials", "merge_exactly"]
