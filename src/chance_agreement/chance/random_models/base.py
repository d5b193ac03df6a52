"""What a random annotation model is (chance_agreement_sequence_annotation.txt, section 3).

For one annotator, one text of ``n`` tokens and one entity type, a random annotation model keeps
the number of segments and their lengths ``a_1..a_k`` and places them at random. The chance-
corrected F1 needs two things of it (Proposition 1), both per token or per start position:

- ``coverage(n, lengths)``: ``c(t)``, the expected number of the annotator's segments covering
  token ``t`` (a probability when segments cannot overlap); ``E[overlap] = sum_t c_A(t) c_B(t)``
  for two independent annotators;
- ``start_distribution(n, others, length)``: ``P(start = l)`` of a segment of ``length`` placed
  with segments of lengths ``others``; ``E[exact matches] = sum over same-length pairs of
  sum_l P_A(l) P_B(l)``.

A new model is one subclass of ``RandomModel`` in one file with these two methods, ``check`` (do
the segments fit?) and ``sample`` (one random placement, for Monte Carlo checks), registered with
``random_models.register``. The expectations then follow from the generic ``expected_overlap``
and ``expected_matches`` below (exactly rounded sums); a model may override them with faster
forms that give the same numbers. ``single_segment_uniform`` says that one segment alone is
uniform over its ``n - a + 1`` starts, so the closed forms of ``corrected_f1`` for one segment on
each side apply (both built-in models; a new model keeps the default False unless that holds).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["RandomModel"]


class RandomModel:
    r"""Define a random annotation model: the base class of ``NonOverlapping`` and ``Overlapping``.

    For one annotator, one text of ``n`` tokens and one entity type, a model keeps the number of
    segments and their lengths and places them at random (section 3 of [1]_). A subclass gives
    ``check``, ``coverage``, ``start_distribution`` and ``sample``; the expectations follow (exactly
    rounded sums), and ``random_models.register(MyModel())`` makes it usable by name wherever
    ``model=`` is taken. Instances are values: two instances of one class with one ``name`` are
    equal (so caches may key on them).

    Attributes
    ----------
    name : str
        The registered name.
    single_segment_uniform : bool
        One segment alone is uniform over its ``n - a + 1`` starts (the one-segment closed forms
        then apply).

    See Also
    --------
    NonOverlapping, Overlapping : The built-in models.

    Notes
    -----
    The chance-corrected F1 needs, per token, the coverage :math:`c(t)` and, per start, the start
    distribution; for two independent annotators (Proposition 1 of [1]_)

    .. math::

        E[\mathrm{overlap}] = \sum_t c_A(t)\, c_B(t), \qquad
        E[\mathrm{matches}] = \sum_{i, j : a_i = b_j} \sum_l P_A(\mathrm{start}_i = l)\, P_B(\mathrm{start}_j = l).

    References
    ----------
    .. [1] D. Li, C. Rosé, A. Yuan, C. Zhou. Estimating Agreement by Chance for Sequence Annotation. ACL 2024.

    Examples
    --------
    >>> from chance_agreement import NonOverlapping, random_models
    >>> isinstance(NonOverlapping(), RandomModel), NonOverlapping() == NonOverlapping()
    (True, True)
    >>> random_models.names()[:2]  # the built-in ones first, then any registered
    ('non_overlapping', 'overlapping')
    """

    name: str = ""
    single_segment_uniform: bool = False
    # Whether a token is covered by at most one segment of an annotator (coverage a probability), so
    # that expected overlap and matches stay within half of a1 + a2 and k1 + k2.
    coverage_at_most_one: bool = False

    def check(self, n: int, lengths: tuple[int, ...]) -> None:
        """Raise ValueError when segments of ``lengths`` cannot be placed in ``n`` tokens."""
        raise NotImplementedError

    def coverage(self, n: int, lengths: tuple[int, ...]) -> np.ndarray:
        """``c(t)`` for ``t = 0..n - 1`` of segments of the sorted ``lengths``."""
        raise NotImplementedError

    def start_distribution(self, n: int, others: tuple[int, ...], length: int) -> np.ndarray:
        """``P(start = l)``, ``l = 0..n - length``, of a segment of ``length`` among ``others`` (sorted)."""
        raise NotImplementedError

    def sample(self, n: int, lengths, random_state: np.random.Generator) -> np.ndarray:
        """Start positions (in the order of ``lengths``) of one random placement."""
        raise NotImplementedError

    def compact_coverage(self, n: int, lengths: tuple[int, ...]):
        """``coverage`` as ``(left, middle)`` (``c(t) = c(n - 1 - t) = left[t]`` for ``t < len(left)``,
        ``middle`` in between), where the model has it cheaply; ``None`` (the default) otherwise."""
        return None

    def compact_coverages_many(self, sides) -> list:
        """``compact_coverage(n, lengths)`` of each ``(n, lengths)`` (a model may form them together)."""
        return [self.compact_coverage(n, lengths) for n, lengths in sides]

    def compact_start_among(self, n: int, lengths: tuple[int, ...], length: int):
        """The start distribution of a segment of ``length`` among the others of ``lengths`` (sorted,
        one of them of that length) as ``(left, middle)``, or ``None`` (the default)."""
        return None

    def compact_starts_among(self, n: int, lengths: tuple[int, ...], wanted) -> list:
        """``compact_start_among`` of each length of ``wanted`` (a model may form them together)."""
        return [self.compact_start_among(n, lengths, length) for length in wanted]

    def compact_starts_many(self, requests) -> list[list]:
        """``compact_starts_among(n, lengths, wanted)`` of each request (a model may form them together)."""
        return [self.compact_starts_among(*request) for request in requests]

    def prefetch(self, groups, overlap: bool, matches: bool) -> None:
        """Compute ahead, in one batch, what the expectations of ``groups`` (``(n, lengths_a,
        lengths_b)``) will ask for; a cache fill only (the default does nothing)."""

    def clear_caches(self) -> None:
        """Forget what the model cached of its own (the default has nothing)."""

    def expected_overlap(self, n: int, lengths_a: tuple[int, ...], lengths_b: tuple[int, ...]) -> float:
        """``E[overlap] = sum_t c_A(t) c_B(t)`` (Proposition 1), exactly rounded."""
        return math.fsum((self.coverage(n, lengths_a) * self.coverage(n, lengths_b)).tolist())

    def expected_matches(self, n: int, lengths_a: tuple[int, ...], lengths_b: tuple[int, ...]) -> float:
        """``E[# exact matches] = sum over pairs of equal length of sum_l P_A(l) P_B(l)``, exactly rounded."""
        terms = []
        for length in sorted(set(lengths_a) & set(lengths_b)):
            others_a, others_b = list(lengths_a), list(lengths_b)
            others_a.remove(length)
            others_b.remove(length)
            products = (self.start_distribution(n, tuple(others_a), length)
                        * self.start_distribution(n, tuple(others_b), length)).tolist()
            terms.append(lengths_a.count(length) * lengths_b.count(length) * math.fsum(products))
        return math.fsum(terms)

    def expected_overlap_many(self, groups) -> list[float]:
        """``expected_overlap`` of each ``(n, lengths_a, lengths_b)`` of ``groups``, the same bits as
        one at a time (a model may form them together)."""
        return [self.expected_overlap(*group) for group in groups]

    def expected_matches_many(self, groups) -> list[float]:
        """``expected_matches`` of each ``(n, lengths_a, lengths_b)`` of ``groups``, the same bits as
        one at a time (a model may form them together)."""
        return [self.expected_matches(*group) for group in groups]

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and other.name == self.name

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.name))

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"
