"""Noise in the agreed subset of an annotation (Beigman Klebanov & Beigman 2009).

Model (section 2): every instance is easy or hard; annotators agree on easy instances and flip
independent coins on hard ones, so all k of them agree on a hard instance with probability
``p = sum_c prod_j P(X_j = c | hard)``. Given ``d`` disagreed instances out of ``n`` and a uniform
prior on the number ``h`` of hard instances (footnote 5), equation 1 gives the posterior tail

    P(X > t | A_d) = sum_{i=t+1}^{n} C(i, d) p^(i-d) / sum_{i=d}^{n} C(i, d) p^(i-d)      (eq. 1)

and ``t0`` is the smallest ``t`` with ``P(X > t | A_d) < 1 - confidence_level``; the agreed subset holds
at most ``gamma = (t0 - d) / (n - d)`` noise with that confidence level.

Structure used for speed: ``C(d + j, d) p^j (1 - p)^(d + 1)`` is the negative binomial pmf of the
number ``j = h - d`` of hidden (agreeing) hard instances, so the posterior is that log-concave pmf
truncated to ``j <= n - d``. Its mass lies within a window around the mode, found by bisection on
the concave log weights; the log weights (``betaln`` at the window start, then a cumulative sum
of the log ratios ``log p + log1p(d/(j+1))``) are vectorised over that window only, so
``n = 10**7`` needs no overflow-prone arithmetic and no loop over ``n`` (at most ~0.3 s, when the
window is the whole range; milliseconds usually). A window wider than ``MAX_WINDOW`` values (n of
1e12 with p near 1: 94 GiB if held) is not held: t0 comes from bisection on the closed-form tail
``P(j' > j) = I_p(j + 1, d + 1)`` (regularised incomplete beta), or, where that underflows, from
the window summed in chunks; beyond ``MAX_SUMMED`` values such a case is a ValueError up front.

Also here: footnote 3's estimate of ``p``; the tolerable number of disagreements (section 3.1);
the chance difference between two systems on a noisy gold standard (section 4.1); and the
kappa-based estimate of the easy proportion (section 3.3). The evaluate module's core,
``noise_report``/``noise_report_multi``, builds instances from tag sequences (token or entity
unit) and puts all of these together.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from .._numerics.portable_math import betainc, betaln, exp, log, log1p, ndtri
from ..reliability.multi_annotator import fleiss_kappa
from ..spans.annotation_set import AnnotationSet, as_pair
from ..spans.deprecation import renamed_keywords
from ..spans.tags import corpus_spans, effective_scheme
from ..spans.validation import check_annotations, problem
from .annotation_instances import instance_labels

__all__ = [
    "ChanceDifference",
    "NoiseBound",
    "NoiseModelWarning",
    "chance_difference",
    "easy_proportion_from_kappa",
    "hard_agreement_probability",
    "kappa_noise_estimate",
    "least_favourable_agreement_probability",
    "noise_bound",
    "noise_report",
    "noise_report_multi",
    "report_with_notes",
    "tolerable_disagreements",
]

UNITS = ("token", "entity")
METHODS = ("chebyshev", "normal")
# window edge: weights below exp(-_LOG_CUTOFF) times the largest one are left out; their total
# relative mass is below 2 n exp(-80) < 1e-25 for any n a computer can hold.
_LOG_CUTOFF = 80.0
# widest window of weights summed term by term (32 MiB per float array); wider windows (n of 1e12
# with p near 1) use the closed-form tail of the negative binomial instead
MAX_WINDOW = 1 << 22
_EXACT_INTEGERS = 2**53  # counts beyond this are not all representable as floats
MAX_SUMMED = 1 << 27  # beyond this many values (seconds of summing) an underflowing case is refused


# --------------------------------------------------------------------------- validation


def _check_count(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer, float, np.floating)):
        raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
    if not math.isfinite(value) or value != int(value) or value < 0:
        raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
    return int(value)


def _check_open_unit(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"{name} must be a number strictly between 0 and 1, got {value!r}")
    if not 0.0 < float(value) < 1.0:
        raise ValueError(f"{name} must lie strictly between 0 and 1, got {value!r}")
    return float(value)


def _check_n_d(n, d) -> tuple[int, int]:
    n = _check_count(n, "n (the number of instances)")
    d = _check_count(d, "d (the number of disagreed instances)")
    if n < 1:
        raise ValueError("n (the number of instances) must be at least 1, got 0")
    if d > n:
        raise ValueError(f"d = {d} disagreed instances cannot exceed n = {n} instances")
    return n, d


# --------------------------------------------------------------------------- equation 1


def _log_weights(j: np.ndarray | int, d: int, log_p: float):
    """log of C(d + j, d) p^j, the unnormalised posterior of j = h - d hidden hard instances."""
    j = np.asarray(j, dtype=float)
    return -log1p(j + d) - betaln(j + 1.0, d + 1.0) + j * log_p


def _window(d: int, K: int, log_p: float) -> tuple[int, int]:
    """Smallest range [lo, hi] in [0, K] holding every weight within exp(-80) of the largest."""
    # w_{j+1}/w_j = p (j + d + 1)/(j + 1) decreases in j, so the weights are unimodal
    p = exp(log_p)
    mode = 0 if p * (d + 1) <= 1.0 else min(K, math.floor((p * (d + 1) - 1.0) / (1.0 - p)) + 1)
    top = float(_log_weights(mode, d, log_p))
    floor_ = top - _LOG_CUTOFF

    lo, hi = 0, mode  # first j in [0, mode] with log w_j >= floor (increasing part)
    while lo < hi:
        mid = (lo + hi) // 2
        if _log_weights(mid, d, log_p) >= floor_:
            hi = mid
        else:
            lo = mid + 1
    left = lo
    lo, hi = mode, K  # last j in [mode, K] with log w_j >= floor (decreasing part)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _log_weights(mid, d, log_p) >= floor_:
            lo = mid
        else:
            hi = mid - 1
    return left, lo


def _t0(n: int, d: int, p: float, confidence_level: float) -> int:
    """Smallest t with P(X > t | A_d) < 1 - confidence_level (eq. 1, uniform prior); p in [0, 1]."""
    K = n - d
    if K == 0 or p == 0.0:  # nothing agreed, or hard instances never agree: no hidden ones
        return d
    alpha = 1.0 - confidence_level
    if p == 1.0:  # only reachable with d == 0: every h in 0..n equally likely
        # P(X > t) = (n - t)/(n + 1) < alpha
        return max(0, math.floor(n - alpha * (n + 1)) + 1)
    log_p = log(p)
    left, right = _window(d, K, log_p)
    if right > _EXACT_INTEGERS:
        raise ValueError(
            f"noise_bound cannot evaluate n = {n}, d = {d}, p = {p}: the posterior reaches "
            f"{right:,} hidden hard instances, beyond 2^53, where double precision no longer "
            "tells consecutive counts apart"
        )
    if right - left >= MAX_WINDOW:
        bisected = _t0_by_tail_bisection(d, K, p, alpha)
        if bisected is not None:
            return d + bisected
        if right - left >= MAX_SUMMED:
            raise ValueError(
                f"noise_bound cannot evaluate n = {n}, d = {d}, p = {p}: the posterior spreads over "
                f"{right - left + 1:,} values (more than {MAX_SUMMED:,} to sum) and its closed-form "
                "tail underflows double precision"
            )
        return d + _t0_in_chunks(d, left, right, log_p, alpha)
    # log w_j over the window: exact at its start, then log(w_{j+1}/w_j) = log p + log1p(d/(j+1))
    j = np.arange(left, right, dtype=float)
    steps = log1p(d / (j + 1.0))
    steps += log_p
    log_w = np.empty(right - left + 1)
    log_w[0] = _log_weights(left, d, log_p)
    np.cumsum(steps, out=log_w[1:])
    log_w[1:] += log_w[0]
    w = exp(log_w - log_w.max())
    # above[i] = unnormalised P(X > d + left + i | A_d): mass strictly above each j
    above = np.cumsum(w[::-1])[::-1]
    total = above[0]
    above -= w
    first = int(np.argmax(above < alpha * total))  # above[-1] == 0, so a hit exists
    return d + left + first


def _t0_by_tail_bisection(d: int, K: int, p: float, alpha: float) -> int | None:
    """Smallest j in [0, K] with P(J > j | J <= K) < alpha for the negative binomial J of the
    module docstring, by bisection on its closed-form tail, for windows too wide to enumerate.

    P(J > j) = S(j) = I_p(j + 1, d + 1) and P(J <= j) = F(j) = I_{1-p}(d + 1, j + 1)
    (regularised incomplete beta), so the truncated tail is (F(K) - F(j)) / F(K) =
    (S(j) - S(K)) / (1 - S(K)); it decreases in j. The form without cancellation is used: F
    when F(K) < 1/2 (the truncation cuts the bulk), S otherwise.
    """
    below_k = float(betainc(d + 1.0, K + 1.0, 1.0 - p))
    if below_k < 1e-250:  # the truncated mass underflows: sum the window instead
        return None
    if below_k < 0.5:
        def small_enough(j: int) -> bool:
            return below_k - float(betainc(d + 1.0, j + 1.0, 1.0 - p)) < alpha * below_k
    else:
        beyond = float(betainc(K + 1.0, d + 1.0, p))

        def small_enough(j: int) -> bool:
            return float(betainc(j + 1.0, d + 1.0, p)) - beyond < alpha * (1.0 - beyond)

    lo, hi = 0, K  # small_enough(K) holds: the tail above K is 0
    while lo < hi:
        mid = (lo + hi) // 2
        if small_enough(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def _chunk_log_weights(d: int, start: int, stop: int, first: float, log_p: float) -> np.ndarray:
    """log w_j for j in [start, stop), from log w_start = ``first`` by the cumulative log ratios."""
    j = np.arange(start, stop - 1, dtype=float)
    log_w = np.empty(stop - start)
    log_w[0] = first
    np.cumsum(log1p(d / (j + 1.0)) + log_p, out=log_w[1:])
    log_w[1:] += first
    return log_w


def _t0_in_chunks(d: int, left: int, right: int, log_p: float, alpha: float) -> int:
    """The window sum of ``_t0`` in chunks of ``MAX_WINDOW`` values: memory O(chunk), two passes
    (the log mass of every chunk, then the weights of the chunk holding the quantile)."""
    starts = list(range(left, right + 1, MAX_WINDOW))
    firsts, log_masses = [], []
    first = float(_log_weights(left, d, log_p))
    for start in starts:
        stop = min(start + MAX_WINDOW, right + 1)
        log_w = _chunk_log_weights(d, start, stop, first, log_p)
        firsts.append(first)
        peak = float(log_w.max())
        log_masses.append(peak + log(float(np.sum(exp(log_w - peak)))))
        first = float(log_w[-1]) + log_p + log1p(d / stop)  # log w_stop
    top = max(log_masses)
    chunk_mass = exp(np.array(log_masses) - top)
    total = float(chunk_mass.sum())
    after = np.concatenate((np.cumsum(chunk_mass[::-1])[::-1][1:], [0.0]))  # mass of later chunks
    c = int(np.argmax(after < alpha * total))  # the last chunk always qualifies (after = 0)
    start = starts[c]
    stop = min(start + MAX_WINDOW, right + 1)
    w = exp(_chunk_log_weights(d, start, stop, firsts[c], log_p) - top)
    above = np.cumsum(w[::-1])[::-1] - w + after[c]
    return start + int(np.argmax(above < alpha * total))


@dataclass(frozen=True)
class NoiseBound:
    r"""Result of :func:`noise_bound`: the bound on the hard instances hidden in the agreed subset.

    Parameters
    ----------
    n : int
        The number of instances.
    d : int
        How many of them the annotators disagree on.
    p : float
        The probability that all annotators agree on a hard instance.
    confidence_level : float
        The confidence level of the bound, in (0, 1).
    t0 : int
        The smallest number :math:`t` of hard instances with
        :math:`P(X > t \mid A_d) < 1 - \mathrm{confidence\_level}` (equation 1).
    noise : float
        The noise bound :math:`\gamma = (t_0 - d) / (n - d)` of the agreed subset (section 2);
        0.0 when nothing is agreed (``d == n``).

    Attributes
    ----------
    agreed : int
        The size :math:`n - d` of the agreed subset (the candidate gold standard).
    noisy_items : int
        The bound :math:`t_0 - d` on the hard instances among the agreed ones.

    See Also
    --------
    noise_bound : Computes it.

    Examples
    --------
    >>> bound = noise_bound(1000, 100, 0.5)
    >>> bound.agreed, bound.noisy_items, bound.t0
    (900, 125, 225)
    >>> sorted(bound.as_dict())
    ['agreed', 'confidence_level', 'd', 'n', 'noise', 'noisy_items', 'p', 't0']
    """

    n: int
    d: int
    p: float
    confidence_level: float
    t0: int
    noise: float

    @property
    def agreed(self) -> int:
        """Size of the agreed subset (the candidate gold standard), n - d."""
        return self.n - self.d

    @property
    def noisy_items(self) -> int:
        """Upper bound t0 - d on the hard instances hidden among the agreed ones."""
        return self.t0 - self.d

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "agreed": self.agreed, "noisy_items": self.noisy_items}


def _bound(n: int, d: int, p: float, confidence_level: float) -> NoiseBound:
    t0 = _t0(n, d, p, confidence_level)
    noise = 0.0 if n == d else (t0 - d) / (n - d)
    return NoiseBound(n=n, d=d, p=p, confidence_level=confidence_level, t0=t0, noise=noise)


@renamed_keywords(confidence="confidence_level")
def noise_bound(n, d, p, *, confidence_level=0.95) -> NoiseBound:
    r"""Bound the noise of the agreed subset: equation 1 with a uniform prior on the hard instances.

    Parameters
    ----------
    n : int
        The number of instances, at least 1.
    d : int
        The number of instances the annotators disagree on, ``0 <= d <= n``.
    p : float
        The probability, in (0, 1), that all annotators give a hard instance the same label
        (section 2; :func:`hard_agreement_probability` estimates it, footnote 3).
    confidence_level : float, default 0.95
        The confidence level of the bound, in (0, 1).

    Returns
    -------
    NoiseBound
        ``t0``, the bound ``noise`` on the share of the agreed subset that may be hard instances
        labelled alike by chance, and the inputs.

    Raises
    ------
    ValueError
        If ``n`` or ``d`` is not a non-negative integer, ``d > n``, ``n == 0``, ``p`` or
        ``confidence_level`` lies outside (0, 1), or the posterior reaches beyond :math:`2^{53}` hidden hard
        instances, where double precision no longer tells consecutive counts apart.

    See Also
    --------
    tolerable_disagreements : The largest ``d`` whose bound stays within a noise level.
    noise_report : The bound from two annotations' tags.

    Notes
    -----
    Every instance is easy (all annotators agree) or hard (each annotator flips a coin). With
    :math:`X` the number of hard instances, a uniform prior on :math:`X` (footnote 5) and :math:`A_d`
    the event that exactly :math:`d` instances are disagreed, equation 1 of Beigman Klebanov and
    Beigman (2009) gives the posterior tail

    .. math::

        P(X > t \mid A_d) = \frac{\sum_{i=t+1}^{n} \binom{i}{d} p^{i-d}}
                                 {\sum_{i=d}^{n} \binom{i}{d} p^{i-d}},

    and the bound is

    .. math::

        t_0 = \min\{t : P(X > t \mid A_d) < 1 - \mathrm{confidence\_level}\}, \qquad
        \gamma = \frac{t_0 - d}{n - d}.

    The terms are a negative binomial pmf truncated to :math:`X \le n`; they are summed in log space
    over the window holding their mass, so ``n`` of :math:`10^7` and more is exact to double
    precision without overflow. With ``d == n`` the agreed subset is empty: ``t0 = n`` and the noise
    is 0.0 (nothing to bound).

    The examples are the paper's (section 3): 125 hard instances of 900 agreed at ``n = 1000``,
    ``d = 100``, ``p = 0.5`` ("up to 125", 13.8%), and 4.7% for five annotators (``d = 340``,
    ``p = 0.0625``; the paper rounds to 5%).

    References
    ----------
    Beigman Klebanov, B. and Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4), 495-503.

    Examples
    --------
    >>> bound = noise_bound(1000, 100, 0.5)
    >>> bound.t0, bound.noisy_items, round(bound.noise, 4)
    (225, 125, 0.1389)
    >>> round(noise_bound(1000, 340, 0.0625).noise, 4)
    0.047
    >>> noise_bound(10, 10, 0.5).noise  # nothing agreed: nothing to bound
    0.0
    """
    n, d = _check_n_d(n, d)
    p = _check_open_unit(p, "p (the probability of agreement on a hard instance)")
    confidence_level = _check_open_unit(confidence_level, "confidence_level")
    return _bound(n, d, p, confidence_level)


def _tolerable(n: int, p: float, max_noise: float, confidence_level: float) -> int | None:
    if _bound(n, 0, p, confidence_level).noise > max_noise:
        return None
    if n == 1:
        return 0
    lo, hi = 0, n - 1  # bound(lo) within max_noise; find the last d before it is exceeded
    if _bound(n, hi, p, confidence_level).noise <= max_noise:
        return hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _bound(n, mid, p, confidence_level).noise <= max_noise:
            lo = mid
        else:
            hi = mid
    return lo


@renamed_keywords(confidence="confidence_level")
def tolerable_disagreements(n, p, *, max_noise=0.05, confidence_level=0.95) -> int | None:
    r"""Find the largest number of disagreements whose noise bound stays within ``max_noise``.

    Parameters
    ----------
    n : int
        The number of instances, at least 1.
    p : float
        The probability, in (0, 1), that all annotators agree on a hard instance.
    max_noise : float, default 0.05
        The noise level, in [0, 1], the agreed subset may reach.
    confidence_level : float, default 0.95
        The confidence level of the bound, in (0, 1).

    Returns
    -------
    int or None
        The largest ``d < n`` with ``noise_bound(n, d, p, confidence_level=confidence_level).noise <= max_noise``; None
        when even ``d = 0`` exceeds ``max_noise``. ``d == n`` (nothing agreed) is not a gold standard
        and is never returned.

    Raises
    ------
    ValueError
        If ``n`` is not a positive integer, or ``p``, ``confidence_level`` or ``max_noise`` is out of range.

    See Also
    --------
    noise_bound : The bound for one ``d``.

    Notes
    -----
    Section 3.1 of Beigman Klebanov and Beigman (2009): the bound :math:`\gamma(d)` of
    :func:`noise_bound` (equation 1) grows with :math:`d`, so the answer is found by bisection,

    .. math::

        d^* = \max\{d < n : \gamma(d) \le \mathrm{max\_noise}\}.

    Only near saturation (:math:`\gamma` close to 1) can the integer :math:`t_0` make the bound dip by
    less than :math:`1/(n - d - 1)`; there bisection returns the first crossing. The example is the
    paper's: at most 33 disagreements of 1000 keep the noise within 5% at 95% for ``p = 0.5``.

    References
    ----------
    Beigman Klebanov, B. and Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4), 495-503.

    Examples
    --------
    >>> tolerable_disagreements(1000, 0.5)
    33
    >>> round(noise_bound(1000, 33, 0.5).noise, 4), round(noise_bound(1000, 34, 0.5).noise, 4)
    (0.0496, 0.0518)
    >>> tolerable_disagreements(10, 0.9, max_noise=0.01) is None  # even d = 0 is too noisy
    True
    """
    n = _check_count(n, "n (the number of instances)")
    if n < 1:
        raise ValueError("n (the number of instances) must be at least 1, got 0")
    p = _check_open_unit(p, "p (the probability of agreement on a hard instance)")
    confidence_level = _check_open_unit(confidence_level, "confidence_level")
    max_noise = _check_max_noise(max_noise)
    return _tolerable(n, p, max_noise, confidence_level)


def _check_max_noise(max_noise) -> float:
    if isinstance(max_noise, bool) or not isinstance(max_noise, (int, float, np.integer, np.floating)):
        raise ValueError(f"max_noise must be a number between 0 and 1, got {max_noise!r}")
    if not 0.0 <= float(max_noise) <= 1.0:
        raise ValueError(f"max_noise must lie between 0 and 1, got {max_noise!r}")
    return float(max_noise)


# --------------------------------------------------------------------------- footnote 3


def _label_rows(labels, name: str) -> list[list]:
    if isinstance(labels, str):
        raise ValueError(f"{name} must be items x annotators labels, not a string")
    if isinstance(labels, np.ndarray):
        if labels.ndim != 2:
            raise ValueError(f"{name} must be 2-d (items x annotators), got {labels.ndim} dimension(s)")
        labels = labels.tolist()
    shape = f"{name} must be a sequence of items, each a sequence of labels (one per annotator)"
    try:
        items = [] if isinstance(labels, Mapping) else list(labels)
        if isinstance(labels, Mapping) or any(isinstance(row, (str, bytes, Mapping)) for row in items):
            raise TypeError
        rows = [list(row) for row in items]
    except TypeError:
        raise ValueError(shape) from None
    if not rows:
        raise ValueError(f"{name} is empty: no items")
    k = len(rows[0])
    for i, row in enumerate(rows):
        if len(row) != k:
            raise ValueError(f"item {i} has {len(row)} labels but item 0 has {k}: one per annotator")
        for j, label in enumerate(row):
            if label is None or (isinstance(label, float) and math.isnan(label)):
                raise ValueError(
                    f"item {i}: annotator {j}'s label is missing; the noise model needs every "
                    "annotator on every instance"
                )
            if not isinstance(label, Hashable):
                raise ValueError(f"item {i}: annotator {j}'s label {label!r} is not a single label ({name} is "
                                 f"items x annotators labels)")
    if k < 2:
        raise ValueError(f"need at least two annotators (columns), got {k}")
    return rows


def _category_counts(rows: Sequence[Sequence]) -> np.ndarray:
    """annotators x categories: how many of ``rows`` each annotator put in each category."""
    categories = {label: c for c, label in enumerate(sorted({x for r in rows for x in r}, key=repr))}
    codes = np.array([[categories[x] for x in row] for row in rows])  # items x annotators
    counts = np.zeros((codes.shape[1], len(categories)))
    np.add.at(counts, (np.broadcast_to(np.arange(codes.shape[1]), codes.shape), codes), 1.0)
    return counts


def _agreement_probability(rows: Sequence[Sequence]) -> float:
    proportions = _category_counts(rows) / len(rows)  # annotator j's category proportions, footnote 3
    return float(np.sum(np.prod(proportions, axis=0)))


def _pooled_agreement_probability(rows: Sequence[Sequence]) -> float:
    counts = _category_counts(rows)
    k = counts.shape[0]
    pooled = counts.sum(axis=0) / (len(rows) * k)  # exact integer sums, one division
    return float(np.sum(np.prod(np.broadcast_to(pooled, counts.shape), axis=0)))


def hard_agreement_probability(labels_on_disagreed) -> float:
    r"""Estimate the probability that all annotators agree on a hard instance (footnote 3).

    Parameters
    ----------
    labels_on_disagreed : sequence of sequence of hashable
        Items x annotators: one row per disagreed instance, one column per annotator
        (:math:`k \ge 2`), the label each annotator gave.

    Returns
    -------
    float
        :math:`p = \sum_c \prod_j q_{jc}`, in [0, 1].

    Raises
    ------
    ValueError
        If the rows are empty or ragged, a label is missing (None or NaN) or not hashable, or there
        are fewer than two annotators; the message names the item and the annotator.

    See Also
    --------
    noise_bound : Uses :math:`p`.

    Notes
    -----
    On a hard instance annotator :math:`j` picks category :math:`c` with probability
    :math:`P(X_j = c \mid \mathrm{hard})`, estimated (footnote 3 of Beigman Klebanov and Beigman 2009)
    by the share :math:`q_{jc}` of the disagreed instances that annotator :math:`j` put in
    :math:`c`. Inserted in the definition of :math:`p` (section 2), generalised from two categories to
    any number:

    .. math::

        p = \sum_c \prod_{j=1}^{k} q_{jc}.

    :math:`p = 0` when no category is used by every annotator on the disagreed instances: the model
    then says a hard instance is never agreed on, and the noise bound is 0 by construction
    (:func:`noise_report` warns).

    References
    ----------
    Beigman Klebanov, B. and Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4), 495-503.

    Examples
    --------
    Two annotators who each used PER and O once: :math:`p = 1/2 \cdot 1/2 + 1/2 \cdot 1/2`.

    >>> hard_agreement_probability([["PER", "O"], ["O", "PER"]])
    0.5

    Three annotators, each with every category once: :math:`p = 3 \cdot (1/3)^3 = 1/9`.

    >>> round(hard_agreement_probability([["PER", "O", "O"], ["O", "PER", "LOC"], ["LOC", "O", "PER"]]), 4)
    0.1111
    """
    return _agreement_probability(_label_rows(labels_on_disagreed, "labels_on_disagreed"))


def least_favourable_agreement_probability(labels_on_disagreed) -> float:
    """p = sum_c qbar_c^k, qbar_c = share of all the labels on the disagreed items that are c.

    The largest p (hence the largest noise bound, which grows with p) over all hard-case
    distributions of the k annotators whose average is the observed pooled one: by the
    inequality of arithmetic and geometric means, prod_j q_jc <= qbar_c^k for every category,
    with equality when every annotator flips the same coin. So it is never below footnote 3's
    estimate (:func:`hard_agreement_probability`), equals it when the annotators' proportions
    are alike, and stays informative when footnote 3 gives 0 (every disagreement one way).

    >>> least_favourable_agreement_probability([["PER", "O"], ["PER", "O"]])
    0.5
    """
    return _pooled_agreement_probability(_label_rows(labels_on_disagreed, "labels_on_disagreed"))


class NoiseModelWarning(UserWarning):
    """The data contradict the noise model's assumptions, so a bound says less than it seems."""


def report_with_notes(report, *args, **kwargs) -> tuple[dict, list[str]]:
    """``report(*args, **kwargs)`` (``noise_report`` or ``noise_report_multi``) with its
    ``NoiseModelWarning`` messages returned as notes instead of warned: for reports that print them."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", NoiseModelWarning)
        result = report(*args, **kwargs)
    notes = []
    for warning in caught:
        if issubclass(warning.category, NoiseModelWarning):
            notes.append(str(warning.message))
        else:
            warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)
    return result, notes


def _zero_p_warning(bound: NoiseBound, pooled: float, least_favourable: NoiseBound) -> str:
    return (f"footnote 3's estimate of p is 0: on the {bound.d} disagreed instances no category is used by "
            f"every annotator (each keeps to its own), so no hard instance could ever be agreed on and "
            f"noise_bound is 0 by construction; the model's annotators flip coins alike, which these "
            f"disagreements contradict. noise_bound_least_favourable = {least_favourable.noise:.4f} uses "
            f"p = {pooled:.4g}, one coin with the pooled category proportions (the largest p they allow)")


# --------------------------------------------------------------------------- section 4.1


@dataclass(frozen=True)
class ChanceDifference:
    r"""Result of :func:`chance_difference`: how far two equally good systems may differ by chance.

    Parameters
    ----------
    gold_size : int
        The size :math:`L` of the gold standard.
    noisy_items : float
        The number :math:`R` of noisy (hard) items in it.
    confidence_level : float
        The confidence level, in (0, 1).
    method : {"chebyshev", "normal"}
        How the multiple ``k`` of sigma was found.
    k : float
        The multiple of sigma.
    sigma : float
        :math:`\sigma_S = \sqrt{R/2}`.
    difference : float
        :math:`\min(k\sigma, R)` (always :math:`|S| \le R`).
    answers : int
        ``floor(difference)``: the difference in correct answers.
    fraction : float
        ``answers / gold_size`` (0.0 for an empty gold standard).

    See Also
    --------
    chance_difference : Computes it.

    Examples
    --------
    >>> result = chance_difference(900, 125)
    >>> result.answers, round(result.sigma, 4), round(result.k, 4)
    (35, 7.9057, 4.4721)
    >>> result.as_dict()["method"]
    'chebyshev'
    """

    gold_size: int
    noisy_items: float
    confidence_level: float
    method: str
    k: float
    sigma: float
    difference: float
    answers: int
    fraction: float

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@renamed_keywords(confidence="confidence_level")
def chance_difference(gold_size, noisy_items, *, confidence_level=0.95, method="chebyshev") -> ChanceDifference:
    r"""Bound the difference in correct answers two equally good systems may show by chance.

    Parameters
    ----------
    gold_size : int
        The size :math:`L` of the gold standard (the agreed subset).
    noisy_items : float
        The number :math:`R` of noisy items in it, ``0 <= noisy_items <= gold_size`` (for example
        ``NoiseBound.noisy_items``).
    confidence_level : float, default 0.95
        The confidence level, in (0, 1).
    method : {"chebyshev", "normal"}, default "chebyshev"
        ``"chebyshev"``: :math:`k = 1/\sqrt{1 - \mathrm{confidence\_level}}`, valid for any distribution
        (section 4.1); ``"normal"``: :math:`k` the two-sided normal quantile (footnote 9).

    Returns
    -------
    ChanceDifference
        ``sigma``, ``k``, the ``difference`` :math:`\min(k\sigma, R)`, the whole ``answers`` and
        their ``fraction`` of the gold standard. ``gold_size = 0`` gives zeros.

    Raises
    ------
    ValueError
        If ``gold_size`` is not a non-negative integer, ``noisy_items`` lies outside
        ``[0, gold_size]``, ``confidence_level`` outside (0, 1), or ``method`` is unknown.

    Notes
    -----
    Section 4.1 of Beigman Klebanov and Beigman (2009): on each of the :math:`R` noisy items two
    equally good systems gain or lose a point against each other by a coin,
    :math:`X_i \in \{-1, 0, 1\}` with probabilities 1/4, 1/2, 1/4, so the difference
    :math:`S = \sum_{i=1}^{R} X_i` has

    .. math::

        \sigma_S = \sqrt{R/2}, \qquad
        \Pr(|S| > k\sigma_S) \le \frac{1}{k^2} \quad \text{(Chebyshev)}.

    The difference is capped at :math:`R`, since :math:`|S| \le R`. The example is the paper's:
    :math:`L = 900`, :math:`R = 125`: 4.5 sigma, up to 35 answers (3.9%).

    References
    ----------
    Beigman Klebanov, B. and Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4), 495-503.

    Examples
    --------
    >>> result = chance_difference(900, 125)
    >>> result.answers, round(result.fraction, 4)
    (35, 0.0389)
    >>> chance_difference(900, 125, method="normal").answers
    15
    """
    gold_size = _check_count(gold_size, "gold_size")
    if isinstance(noisy_items, bool) or not isinstance(noisy_items, (int, float, np.integer, np.floating)):
        raise ValueError(f"noisy_items must be a number, got {noisy_items!r}")
    if not math.isfinite(noisy_items) or not 0 <= noisy_items <= gold_size:
        raise ValueError(
            f"noisy_items must lie between 0 and gold_size = {gold_size}, got {noisy_items!r}"
        )
    confidence_level = _check_open_unit(confidence_level, "confidence_level")
    if method == "chebyshev":
        k = 1.0 / math.sqrt(1.0 - confidence_level)
    elif method == "normal":
        k = float(ndtri(1.0 - (1.0 - confidence_level) / 2.0))
    else:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    sigma = math.sqrt(noisy_items / 2.0)
    difference = min(k * sigma, float(noisy_items))
    answers = math.floor(difference)
    fraction = answers / gold_size if gold_size else 0.0
    return ChanceDifference(
        gold_size=gold_size,
        noisy_items=float(noisy_items),
        confidence_level=confidence_level,
        method=method,
        k=k,
        sigma=sigma,
        difference=difference,
        answers=answers,
        fraction=fraction,
    )


# --------------------------------------------------------------------------- section 3.3


def easy_proportion_from_kappa(kappa) -> float:
    r"""Estimate the proportion of easy instances from kappa (section 3.3).

    Parameters
    ----------
    kappa : float
        A chance-corrected agreement (at most 1), such as :func:`fleiss_kappa`.

    Returns
    -------
    float
        The estimated proportion :math:`e/(e + h)` of easy instances: ``kappa`` clipped to [0, 1].

    Raises
    ------
    ValueError
        If ``kappa`` is not a finite number at most 1.

    Notes
    -----
    With :math:`e` easy and :math:`h` hard instances, and :math:`q` the probability of agreeing on a
    hard one (section 3.3 of Beigman Klebanov and Beigman 2009),

    .. math::

        \kappa = \frac{P_A - P_E}{1 - P_E}
        \quad\text{estimates}\quad
        \frac{(e + qh)/(e + h) - q}{1 - q} = \frac{e}{e + h}.

    A proportion lies in [0, 1] while kappa can be negative (footnote 7), so the value is clipped.

    References
    ----------
    Beigman Klebanov, B. and Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4), 495-503.

    Examples
    --------
    >>> easy_proportion_from_kappa(0.8)
    0.8
    >>> easy_proportion_from_kappa(-0.2)  # below chance: no instance is estimated easy
    0.0
    """
    if isinstance(kappa, bool) or not isinstance(kappa, (int, float, np.integer, np.floating)):
        raise ValueError(f"kappa must be a number, got {kappa!r}")
    if not math.isfinite(kappa) or kappa > 1.0 + 1e-9:  # tolerate rounding above 1
        raise ValueError(f"kappa must be a finite number at most 1, got {kappa!r}")
    return min(1.0, max(0.0, float(kappa)))


def kappa_noise_estimate(kappa, n, d) -> float:
    r"""Estimate the noise of the agreed subset if ``kappa * n`` instances are easy (section 3.3).

    Parameters
    ----------
    kappa : float
        A chance-corrected agreement (at most 1).
    n : int
        The number of instances, at least 1.
    d : int
        The number of disagreed instances, ``0 <= d <= n``.

    Returns
    -------
    float
        :math:`(n - d - \mathrm{easy}) / (n - d)` clipped to [0, 1]; 0.0 when ``d == n``.

    Raises
    ------
    ValueError
        If ``kappa`` is not a finite number at most 1, or ``n`` and ``d`` are not valid counts.

    See Also
    --------
    easy_proportion_from_kappa : The easy proportion.
    noise_bound : The bound of equation 1, which needs no kappa.

    Notes
    -----
    Easy instances are agreed ones, so with
    :math:`\mathrm{easy} = \hat e \, n` (:func:`easy_proportion_from_kappa`) the rest of the agreed
    subset is hard (section 3.3 of Beigman Klebanov and Beigman 2009):

    .. math::

        \mathrm{noise} = \frac{n - d - \hat e\, n}{n - d}.

    The paper's examples: kappa 0.8, 100 of 1000 disagreed: 800 of 900 easy, 11%; kappa 0.637, 340
    disagreed: 637 of 660 easy, 3.5%.

    References
    ----------
    Beigman Klebanov, B. and Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4), 495-503.

    Examples
    --------
    >>> round(kappa_noise_estimate(0.8, 1000, 100), 4)
    0.1111
    >>> round(kappa_noise_estimate(0.637, 1000, 340), 4)
    0.0348
    """
    n, d = _check_n_d(n, d)
    easy = easy_proportion_from_kappa(kappa) * n
    agreed = n - d
    if agreed == 0:
        return 0.0
    return min(1.0, max(0.0, (agreed - easy) / agreed))


# --------------------------------------------------------------------------- tag sequences


def _check_options(unit, confidence_level, max_noise) -> tuple[float, float]:
    if unit not in UNITS:
        raise ValueError(f"unit must be one of {UNITS}, got {unit!r}")
    return _check_open_unit(confidence_level, "confidence_level"), _check_max_noise(max_noise)


def _report(spans: list[list[list]], lengths: list[int], unit, confidence_level, max_noise) -> dict:

    rows = instance_labels(spans, lengths, unit)
    n = len(rows)
    if n == 0:
        raise ValueError(
            "no instances: with unit='entity' at least one annotator must mark an entity"
        )
    disagreed = [row for row in rows if len(set(row)) > 1]
    d = len(disagreed)
    # footnote 3 on the disagreed instances; with none, the category proportions of all
    # instances (section 3.3 assumes the same distribution on easy and hard instances)
    p = _agreement_probability(disagreed if d else rows)
    bound = _bound(n, d, p, confidence_level)
    pooled = _pooled_agreement_probability(disagreed if d else rows)
    least_favourable = bound if pooled == p else _bound(n, d, pooled, confidence_level)
    if p == 0.0:
        # stacklevel 4: _report, noise_report(_multi), its renamed_keywords wrapper, the caller
        warnings.warn(_zero_p_warning(bound, pooled, least_favourable), NoiseModelWarning, stacklevel=4)
    kappa = fleiss_kappa(rows)
    kappa_noise = None if kappa is None else kappa_noise_estimate(kappa, n, d)
    if p < 1.0:
        tolerable = _tolerable(n, p, max_noise, confidence_level)
    else:  # one category everywhere: only d = 0 is possible
        tolerable = 0 if n > 1 and bound.noise <= max_noise else None
    difference = chance_difference(n - d, bound.noisy_items, confidence_level=confidence_level)
    return {
        "instances": n,
        "agreed": n - d,
        "disagreed": d,
        "p": float(p),
        "t0": int(bound.t0),
        "noisy_items": int(bound.noisy_items),
        "noise_bound": float(bound.noise),
        "confidence_level": float(confidence_level),
        "kappa": None if kappa is None else float(kappa),
        "kappa_noise_estimate": kappa_noise,
        "tolerable_disagreements": tolerable,
        "max_noise": float(max_noise),
        "chance_difference": int(difference.answers),
        "chance_difference_fraction": float(difference.fraction),
        "p_least_favourable": float(pooled),
        "noise_bound_least_favourable": float(least_favourable.noise),
    }


@renamed_keywords(confidence="confidence_level")
def noise_report(
    predictions,
    references=None,
    *,
    confidence_level=0.95,
    unit="token",
    max_noise=0.05,
    scheme=None,
    mode=None,
    suffix=False,
) -> dict:
    r"""Noise of the subset where two annotations agree (the two-annotator metric's core).

    Parameters
    ----------
    predictions, references : list of list of str
        Per sentence, the two annotations' tags.
    confidence_level : float, default 0.95
        The confidence level of the noise bound, in (0, 1).
    unit : {"token", "entity"}, default "token"
        Instances: tokens (category = entity type or "O") or every span any annotator proposed
        (category = the type each annotator gave that exact span, or "O").
    max_noise : float, default 0.05
        The noise level that ``tolerable_disagreements`` keeps to.
    scheme, mode, suffix
        As in seqeval; strict mode detects the scheme from the references.

    Returns
    -------
    dict
        Plain numbers: ``instances``, ``agreed``, ``disagreed``, ``p`` (footnote 3 on the
        disagreed instances; on all instances when none is disagreed), ``t0``, ``noisy_items``
        (t0 - d), ``noise_bound`` (eq. 1), ``confidence_level``, ``kappa`` (Siegel & Castellan, eq. 2;
        None if undefined), ``kappa_noise_estimate`` (section 3.3; None with kappa),
        ``tolerable_disagreements`` (for n and p; None if even d = 0 exceeds ``max_noise``),
        ``max_noise``, ``chance_difference`` (Chebyshev, answers on the agreed gold standard) and
        ``chance_difference_fraction``; ``p_least_favourable`` and
        ``noise_bound_least_favourable`` (``least_favourable_agreement_probability``: the largest
        p the pooled category proportions allow, and its bound).

    Raises
    ------
    ValueError
        Bad input (naming the sentence), or an option out of range.

    Warns
    -----
    NoiseModelWarning
        Footnote 3's p of 0 (every disagreement one way) gives a bound of 0 by construction.

    Notes
    -----
    Of :math:`n` instances the annotators disagree on :math:`d`; a hard instance gets the same
    label from both with probability :math:`p`. With :math:`X` the number of hard instances,
    equation 1 (a uniform prior on their share, footnote 5) gives

    .. math::

        t_0 = \min\{t : P(X > t \mid A_d) < 1 - \mathrm{confidence\_level}\}, \qquad
        \mathrm{noise\ bound} = \frac{t_0 - d}{n - d},

    the share of the agreed subset that may still be hard instances labelled alike by chance.

    References
    ----------
    Beigman Klebanov, B. and Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4).

    Examples
    --------
    >>> references = [["B-PER", "I-PER", "O", "B-LOC", "O", "O", "B-ORG", "O"], ["O", "B-LOC", "O", "O", "B-PER", "O"]]
    >>> predictions = [["B-PER", "I-PER", "O", "O", "O", "O", "B-ORG", "I-ORG"],
    ...                ["O", "B-LOC", "O", "B-ORG", "B-PER", "O"]]
    >>> report = noise_report(predictions, references)
    >>> report["instances"], report["agreed"], report["disagreed"], report["t0"]
    (14, 11, 3, 6)
    >>> round(report["noise_bound"], 4), round(report["kappa"], 4)
    (0.2727, 0.6627)
    """

    confidence_level, max_noise = _check_options(unit, confidence_level, max_noise)
    pair = as_pair(predictions, references, scheme, mode, suffix, function="noise_report")
    spans = [[r, q] for r, q in zip(pair.sentence_spans(0), pair.sentence_spans(1), strict=True)]
    return _report(spans, pair.lengths.tolist(), unit, confidence_level, max_noise)


@renamed_keywords(confidence="confidence_level")
def noise_report_multi(
    annotations,
    *,
    confidence_level=0.95,
    unit="token",
    max_noise=0.05,
    scheme=None,
    mode=None,
    suffix=False,
) -> dict:
    r"""Report the noise of the subset where k >= 2 annotators all agree.

    Parameters
    ----------
    annotations : list of list of list of str
        ``annotations[i]`` holds the :math:`k \ge 2` tag sequences of item (sentence) ``i``: the same
        annotators on every item, none missing, equally long sequences within an item.
    confidence_level : float, default 0.95
        The confidence level of the noise bound, in (0, 1).
    unit : {"token", "entity"}, default "token"
        Instances: tokens, or every span any annotator proposed (see :func:`noise_report`).
    max_noise : float, default 0.05
        The noise level that ``tolerable_disagreements`` keeps to.
    scheme, mode, suffix : optional
        As in seqeval and :func:`spans_from_tags`.

    Returns
    -------
    dict
        The keys of :func:`noise_report`, computed over all :math:`k` annotators: an instance is
        agreed when all :math:`k` labels are equal; ``p`` is footnote 3's
        :math:`\sum_c \prod_j q_{jc}` and ``kappa`` is :func:`fleiss_kappa` (Siegel and Castellan,
        equation 2) of the instances.

    Raises
    ------
    ValueError
        Bad input, naming the item and the annotator (a missing annotator, ragged sequences,
        unknown tags, no tokens), or an option out of range.

    Warns
    -----
    NoiseModelWarning
        Footnote 3's ``p`` is 0 (no category used by every annotator on the disagreed instances):
        the bound is 0 by construction; the report's ``noise_bound_least_favourable`` says more.

    See Also
    --------
    noise_report : Two annotators.
    noise_bound : Equation 1.

    Notes
    -----
    The bound is equation 1 of Beigman Klebanov and Beigman (2009) (see :func:`noise_bound`):

    .. math::

        t_0 = \min\{t : P(X > t \mid A_d) < 1 - \mathrm{confidence\_level}\}, \qquad
        \mathrm{noise\ bound} = \frac{t_0 - d}{n - d}.

    In the example, 2 of 9 tokens are disagreed, and each of the three annotators put one of them in
    PER and one in O, so :math:`p = 1/8 + 1/8`. The kappa, 0.6, is also what statsmodels'
    ``fleiss_kappa`` gives for the same 9 x 3 count table.

    References
    ----------
    Beigman Klebanov, B. and Beigman, E. (2009). From annotator agreement to noise models.
    *Computational Linguistics* 35(4), 495-503.

    Examples
    --------
    >>> annotations = [
    ...     [["B-PER", "O", "O"], ["O", "B-PER", "O"], ["O", "B-PER", "O"]],
    ...     [["B-LOC", "O", "O", "O"]] * 3,
    ...     [["O", "O"]] * 3,
    ... ]
    >>> report = noise_report_multi(annotations)
    >>> report["instances"], report["disagreed"], report["p"], report["t0"]
    (9, 2, 0.25, 5)
    >>> round(report["noise_bound"], 4), round(report["kappa"], 4)
    (0.4286, 0.6)
    """
    confidence_level, max_noise = _check_options(unit, confidence_level, max_noise)
    if isinstance(annotations, AnnotationSet):
        annotations.chunked_as(scheme, mode, suffix, "noise_report_multi")
        if not annotations.n_items:
            raise ValueError(problem("noise_report_multi", "annotations", "expected a non-empty list of sentences, "
                                     "each a list of the annotators' tag sequences"))
        if not annotations.lengths.any():
            raise ValueError(problem("noise_report_multi", "annotations", "empty input: every item has zero tokens"))
        missing = np.argwhere(~annotations.present)
        if missing.size:
            a, i = missing[0].tolist()
            raise ValueError(problem("noise_report_multi", "annotations", "the annotator is missing; the noise model "
                                     "needs every annotator on every item", i, a))
        by_annotator = [annotations.sentence_spans(a) for a in range(annotations.n_annotators)]
        spans = [list(item) for item in zip(*by_annotator, strict=True)]
        return _report(spans, annotations.lengths.tolist(), unit, confidence_level, max_noise)
    annotations = _check_annotations(annotations)
    all_sequences = [list(seq) for item in annotations for seq in item]
    resolved = effective_scheme(all_sequences, scheme, mode, suffix)
    spans = [
        corpus_spans(item, f"annotations[{i}]", resolved, mode, suffix)
        for i, item in enumerate(annotations)
    ]
    return _report(spans, [len(item[0]) for item in annotations], unit, confidence_level, max_noise)


def _check_annotations(annotations) -> list:
    """Per-item lists of k >= 2 equally long tag sequences (``spans.validation``'s one layout and
    messages), with no missing annotator; returns the rows."""
    rows = check_annotations(annotations, function="noise_report_multi")
    for i, item in enumerate(rows):
        for j, seq in enumerate(item):
            if seq is None:
                raise ValueError(problem("noise_report_multi", "annotations", "the annotator is missing; the noise "
                                         "model needs every annotator on every item", i, j))
    if not any(len(item[0]) for item in rows):
        raise ValueError(problem("noise_report_multi", "annotations", "empty input: every item has zero tokens"))
    return rows
