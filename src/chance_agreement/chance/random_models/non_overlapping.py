"""The non-overlapping random annotation model (the paper's experiments, Propositions 2 and 3).

Segments may touch but not overlap; every one of the ``k! C(n - a + k, k)`` placements is equally
likely (``a = sum(a_i)``). The distributions are computed exactly by ``non_overlapping_bands`` (its
module docstring says how), long units through ``document_bands``.
"""

from __future__ import annotations

import numpy as np

from ...spans.deprecation import renamed_keywords
from . import non_overlapping_bands as bands
from .exact_expectations import TabulatedModel

__all__ = ["NonOverlapping"]


class NonOverlapping(TabulatedModel):
    r"""Place segments uniformly without overlap (``model="non_overlapping"``, the default).

    Every placement of the annotator's segments in which no two share a token is equally likely:
    the model of the paper's experiments (Propositions 2 and 3 of [1]_).

    See Also
    --------
    Overlapping : Segments placed independently.
    start_probabilities : Its start distributions.

    Notes
    -----
    A placement is a uniform order of the :math:`k` segments and a uniform choice of :math:`k`
    slots among :math:`m = n - \sum_i (a_i - 1)` positions, so there are
    :math:`k!\binom{m}{k}` equally likely placements; the start distribution of each segment is
    flat on the middle band (Proposition 3) and larger towards the ends.

    References
    ----------
    .. [1] D. Li, C. Rosé, A. Yuan, C. Zhou. Estimating Agreement by Chance for Sequence Annotation. ACL 2024.

    Examples
    --------
    >>> model = NonOverlapping()
    >>> model.start_distribution(6, (2,), 2).round(4).tolist()  # one other segment of 2 tokens
    [0.25, 0.1667, 0.1667, 0.1667, 0.25]
    >>> round(model.expected_overlap(20, (3,), (4,)), 4)
    0.6405
    """

    name = "non_overlapping"
    coverage_at_most_one = True

    def check(self, n: int, lengths: tuple[int, ...]) -> None:
        bands.check(n, lengths)

    def _coverage(self, n: int, lengths: tuple[int, ...]) -> np.ndarray:
        return bands.coverage(n, lengths)

    def _start_distribution(self, n: int, others: tuple[int, ...], length: int) -> np.ndarray:
        return bands.start_distribution(n, others, length)

    @renamed_keywords(rng="random_state")
    def sample(self, n: int, lengths, random_state: np.random.Generator) -> np.ndarray:
        return bands.sample(n, lengths, random_state)

    def compact_coverage(self, n: int, lengths: tuple[int, ...]):
        return bands.compact_coverage(n, lengths)

    def compact_coverages_many(self, sides) -> list:
        return bands.compact_coverages_many(sides)

    def compact_start_among(self, n: int, lengths: tuple[int, ...], length: int):
        return bands.compact_start_among(n, lengths, length)

    def compact_starts_among(self, n: int, lengths: tuple[int, ...], wanted) -> list:
        return bands.compact_starts_among(n, lengths, wanted)

    def compact_starts_many(self, requests) -> list[list]:
        return bands.compact_starts_many(requests)

    def prefetch(self, groups, overlap: bool, matches: bool) -> None:
        bands.prefetch_bands(groups, overlap, matches)

    def clear_caches(self) -> None:
        bands.clear_caches()
