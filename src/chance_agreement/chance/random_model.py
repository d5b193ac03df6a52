"""The random annotation model's distributions for one text, one annotator and one entity type
(chance_agreement_sequence_annotation.txt, Propositions 2-5), for any model.

The model keeps the number ``k`` of segments and their lengths ``a_1..a_k`` and places them at
random; ``model`` is a registered name (``"non_overlapping"``, the default and the paper's
experiments, Propositions 2 and 3; ``"overlapping"``, Proposition 5) or a ``RandomModel``
instance (``random_models``), resolved here, once. How each model computes its distributions is
in its own module (``random_models/non_overlapping_bands.py``, ``random_models/overlapping.py``).
"""

from __future__ import annotations

import operator
from collections.abc import Iterable

import numpy as np

from .._numerics.exact_sum import exact_dot
from ..spans.deprecation import renamed_keywords
from .random_models import RandomModel, get_model

__all__ = ["coverage_probabilities", "expected_overlap", "sample_annotation", "start_probabilities"]


def _checked(n, lengths, model) -> tuple[RandomModel, int, tuple[int, ...]]:
    """``(model, n, lengths)`` resolved and checked: whole numbers, the segments fit (``model.check``)."""
    model = get_model(model)
    try:
        n = operator.index(n)
    except TypeError:
        raise ValueError(f"n must be an integer number of tokens, got {n!r}") from None
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    if isinstance(lengths, (str, bytes)) or not isinstance(lengths, Iterable):
        raise ValueError(f"lengths must be a list of segment lengths (whole numbers >= 1), got {lengths!r}")
    checked = []
    for position, length in enumerate(lengths):
        try:
            length = operator.index(length)
        except TypeError:
            raise ValueError(f"lengths[{position}] must be an integer, got {length!r}") from None
        if length < 1:
            raise ValueError(f"lengths[{position}] must be >= 1, got {length}")
        checked.append(length)
    model.check(n, tuple(checked))
    return model, n, tuple(checked)


def coverage_probabilities(n: int, lengths: Iterable[int], *,
                           model: str | RandomModel = "non_overlapping") -> np.ndarray:
    r"""Compute the probability that each of the ``n`` tokens is covered by a random segment.

    Under the ``"overlapping"`` model a token can be covered twice, and the value is the expected
    number of segments covering it, which is what the additive overlap of Proposition 1 needs.
    Sums to ``sum(lengths)``.

    Parameters
    ----------
    n : int
        Tokens in the text.
    lengths : sequence of int
        The segments' lengths (whole numbers >= 1), in any order.
    model : str or RandomModel, default="non_overlapping"
        A registered model name or a model instance.

    Returns
    -------
    numpy.ndarray
        ``c(0..n - 1)``, a new array.

    Raises
    ------
    ValueError
        When ``n`` or a length is not a whole number, or the segments do not fit.

    See Also
    --------
    start_probabilities : The start distributions the coverage sums.
    expected_overlap : The expected overlap of two annotators from their coverages.

    Notes
    -----
    With :math:`a_i` the segments' lengths and ``start_probabilities`` giving
    :math:`P(\mathrm{start}_i = l)` (Propositions 2, 3 and 5 of the chance-F1 paper),

    .. math::

        c(t) = \sum_i \sum_{l = t - a_i + 1}^{t} P(\mathrm{start}_i = l).

    Chance F1 is then :math:`2 \sum_t c_1(t)\, c_2(t) / (a_1 + a_2)` (``chance_f1``; Proposition 1
    of [1]_). No segment (``lengths`` empty) covers nothing: all zeros.

    References
    ----------
    .. [1] D. Li, C. Rosé, A. Yuan, C. Zhou. Estimating Agreement by Chance for Sequence Annotation. ACL 2024.

    Examples
    --------
    One segment of 2 tokens in 4: three starts, the middle tokens covered by two of them.

    >>> coverage_probabilities(4, [2]).tolist()
    [0.3333333333333333, 0.6666666666666666, 0.6666666666666666, 0.3333333333333333]
    >>> [round(c, 4) for c in coverage_probabilities(6, [2, 2]).tolist()]
    [0.5, 0.8333, 0.6667, 0.6667, 0.8333, 0.5]
    """
    model, n, lengths = _checked(n, lengths, model)
    return model.coverage(n, tuple(sorted(lengths))).copy()


def start_probabilities(n: int, lengths: Iterable[int], index: int,
                        *,
                        model: str | RandomModel = "non_overlapping") -> np.ndarray:
    r"""Compute the distribution of the 0-based start of one segment: ``P(start = l)``.

    The start ``l`` of segment ``index`` runs over ``0..n - a_i`` (``a_i = lengths[index]``); the
    other segments are placed at random too, so under the non-overlapping model they push it
    towards the ends.

    Parameters
    ----------
    n : int
        Tokens in the text.
    lengths : sequence of int
        The segments' lengths (whole numbers >= 1), in any order.
    index : int
        Which segment (a position in ``lengths``).
    model : str or RandomModel, default="non_overlapping"
        A registered model name or a model instance.

    Returns
    -------
    numpy.ndarray
        ``P(start = 0..n - a_i)``, a new array summing to 1.

    Raises
    ------
    ValueError
        When ``n``, a length or ``index`` is not a whole number in range, or the segments do not
        fit.

    See Also
    --------
    coverage_probabilities : The per-token coverage these distributions add up to.

    Notes
    -----
    Non-overlapping model: a placement is a uniform choice of :math:`k` slots among
    :math:`n - \sum_j (a_j - 1)` positions and an independent uniform order of the segments
    (Proposition 2 counts the same placements), flat on the middle band of Proposition 3.
    Overlapping model (Proposition 5): every start is equally likely,

    .. math::

        P(\mathrm{start}_i = l) = \frac{1}{n - a_i + 1}, \qquad l = 0, \dots, n - a_i.

    The non-overlapping distribution is Proposition 2 of [1]_ (its sum over :math:`2^k` subsets is
    computed here from how many segments lie to one side and their total length), exact in the
    middle band of Proposition 3 where it is flat.

    References
    ----------
    .. [1] D. Li, C. Rosé, A. Yuan, C. Zhou. Estimating Agreement by Chance for Sequence Annotation. ACL 2024.

    Examples
    --------
    >>> start_probabilities(5, [2, 1], 0).tolist()
    [0.25, 0.25, 0.25, 0.25]
    >>> start_probabilities(6, [2, 2], 0).tolist()  # the ends are likelier: the other segment is inside
    [0.25, 0.16666666666666666, 0.16666666666666666, 0.16666666666666666, 0.25]
    """
    model, n, lengths = _checked(n, lengths, model)
    try:
        index = operator.index(index)
        length = lengths[index]
    except (TypeError, IndexError):
        raise ValueError(f"index must be an integer in [0, {len(lengths)}), got {index!r}") from None
    others = list(lengths)
    del others[index]
    return model.start_distribution(n, tuple(sorted(others)), length).copy()


@renamed_keywords(rng="random_state")
def sample_annotation(n: int, lengths: Iterable[int], *, random_state: np.random.Generator | int | None = None,
                      model: str | RandomModel = "non_overlapping") -> np.ndarray:
    r"""Draw one random annotation: the 0-based start of each segment, in the order of ``lengths``.

    Drawn uniformly from the model, for Monte Carlo checks of the exact distributions.

    Parameters
    ----------
    n : int
        The text's length in tokens.
    lengths : sequence of int
        The lengths of the segments to place (whole numbers >= 1).
    random_state : int, numpy.random.Generator or None, default=None
        A seed (a whole number >= 0), a generator (used as is) or None (fresh entropy). Was ``rng``
        (still taken, with a FutureWarning, until the next release).
    model : str or RandomModel, default="non_overlapping"
        A registered model name or a model instance.

    Returns
    -------
    numpy.ndarray
        The start positions, one per segment.

    Raises
    ------
    ValueError
        When ``n`` or a length is not a whole number, the segments do not fit, or ``random_state``
        is not a seed or a generator.

    See Also
    --------
    start_probabilities : The exact distribution of each start.

    Notes
    -----
    Non-overlapping placements are a uniform order of the :math:`k` segments times a uniform choice
    of :math:`k` slots among :math:`n - \sum_i (a_i - 1)` positions, which gives every feasible
    placement the same probability (the random annotation model of [1]_, section 3); overlapping
    placements are independent uniform starts (Proposition 5).

    References
    ----------
    .. [1] D. Li, C. Rosé, A. Yuan, C. Zhou. Estimating Agreement by Chance for Sequence Annotation. ACL 2024.

    Examples
    --------
    >>> starts = sample_annotation(20, [2, 3, 4], random_state=0)
    >>> ends = [start + length for start, length in zip(starts.tolist(), [2, 3, 4])]
    >>> spans = sorted(zip(starts.tolist(), ends))
    >>> all(end <= next_start for (_, end), (next_start, _) in zip(spans, spans[1:]))  # no overlap
    True
    >>> max(ends) <= 20
    True
    """
    model, n, lengths = _checked(n, lengths, model)
    try:
        generator = np.random.default_rng(random_state)
    except (TypeError, ValueError):
        raise ValueError(f"random_state must be None, a seed (a whole number >= 0) or a numpy.random.Generator, "
                         f"got {random_state!r}") from None
    return model.sample(n, lengths, generator)


def expected_overlap(n: int, lengths_a: Iterable[int], lengths_b: Iterable[int],
                     *,
                     model: str | RandomModel = "non_overlapping") -> float:
    r"""Compute the expected number of tokens covered by both annotators' random segments.

    Parameters
    ----------
    n : int
        Tokens in the text.
    lengths_a, lengths_b : sequence of int
        The two annotators' segment lengths (whole numbers >= 1), in any order.
    model : str or RandomModel, default="non_overlapping"
        A registered model name or a model instance.

    Returns
    -------
    float
        The expected overlap, an exactly rounded sum; 0.0 when either side has no segment.

    Raises
    ------
    ValueError
        A length or ``n`` that is not a whole number, or one side's segments that do not fit.

    See Also
    --------
    coverage_probabilities : The coverage of one annotator.
    chance_f1 : The chance-corrected F1 over a corpus.

    Notes
    -----
    The two annotators are placed independently, so (Proposition 1 of [1]_)

    .. math::

        E[\mathrm{overlap}] = \sum_{t=0}^{n-1} c_a(t)\, c_b(t),

    with :math:`c` the coverage of ``coverage_probabilities``; chance token F1 is
    :math:`2 E[\mathrm{overlap}] / (a_1 + a_2)`.

    References
    ----------
    .. [1] D. Li, C. Rosé, A. Yuan, C. Zhou. Estimating Agreement by Chance for Sequence Annotation. ACL 2024.

    Examples
    --------
    The paper's simulation 3 A: one segment of 3 tokens and one of 4 in 20 tokens; chance F1 is
    0.1830.

    >>> overlap = expected_overlap(20, [3], [4])
    >>> round(overlap, 4), round(2 * overlap / (3 + 4), 4)
    (0.6405, 0.183)
    >>> expected_overlap(20, [3], [])
    0.0
    """
    model, n, lengths_a = _checked(n, lengths_a, model)
    _, _, lengths_b = _checked(n, lengths_b, model)
    if not lengths_a or not lengths_b:
        return 0.0
    return exact_dot(model.coverage(n, tuple(sorted(lengths_a))), model.coverage(n, tuple(sorted(lengths_b))))
