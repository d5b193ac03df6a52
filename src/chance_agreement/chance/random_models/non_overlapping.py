"""The non-overlapping random annotation model (the paper's experiments, Propositions 2 and 3).

Segments may touch but not overlap; every one of the ``k! C(n - a + k, k)`` placements is equally
likely (``a = sum(a_i)``). The distributions are computed exactly by ``random_model`` (see its
module docstring).
"""

from __future__ import annotations

from .exact_expectations import TabulatedModel

__all__ = ["NonOverlapping"]


class NonOverlapping(TabulatedModel):
    """Segments placed uniformly without overlap (``model="non_overlapping"``, the default)."""

    name = "non_overlapping"
