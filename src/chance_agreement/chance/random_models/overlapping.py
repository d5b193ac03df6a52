"""The overlapping random annotation model (Proposition 5).

Every segment is placed independently, uniformly over its ``n - a_i + 1`` starts, so segments of
one annotator may overlap and a token may be covered twice (coverage is then an expected count,
and chance F1 can exceed 1). Every distribution has a closed form: a start is uniform, and the
coverage is the sum of the segments' trapezoids (``uniform_segments``).
"""

from __future__ import annotations

import numpy as np

from ...spans.deprecation import renamed_keywords
from .exact_expectations import TabulatedModel
from .uniform_segments import one_segment_coverage, single_segment_compact

__all__ = ["Overlapping"]


class Overlapping(TabulatedModel):
    r"""Place segments independently and uniformly (``model="overlapping"``, Proposition 5 of [1]_).

    Segments of one annotator may overlap and a token may be covered twice: the coverage is then
    an expected count, and chance F1 can exceed 1 (corrected F1 is undefined there).

    See Also
    --------
    NonOverlapping : The default model, without overlap.

    Notes
    -----
    Every start is equally likely and the coverage is a sum of trapezoids,

    .. math::

        P(\mathrm{start}_i = l) = \frac{1}{n - a_i + 1}, \qquad
        c(t) = \sum_i \frac{\min(t + 1,\ n - t,\ a_i,\ n - a_i + 1)}{n - a_i + 1}.

    References
    ----------
    .. [1] D. Li, C. Rosé, A. Yuan, C. Zhou. Estimating Agreement by Chance for Sequence Annotation. ACL 2024.

    Examples
    --------
    >>> model = Overlapping()
    >>> model.coverage(6, (2, 2)).round(4).tolist()
    [0.4, 0.8, 0.8, 0.8, 0.8, 0.4]
    >>> model.start_distribution(6, (2,), 2).round(4).tolist()
    [0.2, 0.2, 0.2, 0.2, 0.2]
    """

    name = "overlapping"

    def check(self, n: int, lengths: tuple[int, ...]) -> None:
        if lengths and max(lengths) > n:
            raise ValueError(f"a segment of length {max(lengths)} does not fit in n={n} tokens")

    def _coverage(self, n: int, lengths: tuple[int, ...]) -> np.ndarray:
        return one_segment_coverage(n, lengths)

    def _start_distribution(self, n: int, others: tuple[int, ...], length: int) -> np.ndarray:
        return np.full(n - length + 1, 1.0 / (n - length + 1))

    @renamed_keywords(rng="random_state")
    def sample(self, n: int, lengths, random_state: np.random.Generator) -> np.ndarray:
        sizes = np.asarray(lengths, dtype=np.int64)
        return random_state.integers(0, n - sizes + 1) if sizes.size else np.zeros(0, dtype=np.int64)

    def compact_coverage(self, n: int, lengths: tuple[int, ...]):
        return single_segment_compact(n, lengths) if len(lengths) <= 1 else None

    def compact_start_among(self, n: int, lengths: tuple[int, ...], length: int):
        return (), 1.0 / (n - length + 1)
