"""The overlapping random annotation model (Proposition 5).

Every segment is placed independently, uniformly over its ``n - a_i + 1`` starts, so segments of
one annotator may overlap and a token may be covered twice (coverage is then an expected count,
and chance F1 can exceed 1). The distributions come from ``random_model``.
"""

from __future__ import annotations

from .exact_expectations import TabulatedModel

__all__ = ["Overlapping"]


class Overlapping(TabulatedModel):
    """Segments placed independently and uniformly (``model="overlapping"``)."""

    name = "overlapping"
