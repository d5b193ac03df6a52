"""Gamma, gamma-cat and gamma-k (Mathet et al. 2015, section 4.3; Mathet 2017; pygamma 0.5.9).

``gamma = 1 - D_o / D_e``: ``D_o`` the disorder of the best alignment of the observed continuum
(:mod:`.alignment`), ``D_e`` the mean best-alignment disorder of random continua
(:mod:`.sampling`), estimated with its Monte Carlo standard error ``sd / sqrt(m)`` over ``m``
samples (gamma's by the delta method, ``D_o / D_e^2 * se(D_e)``). A precision target as in
pygamma (section 5.3 of the paper): with ``cv`` the samples' coefficient of variation, draw until
``m >= (1.96 cv / precision_level)^2``, so that ``D_e`` is within ``precision_level`` of its
limit with 95% confidence (pygamma checks once; here the count is checked again after each
batch, up to ``max_samples``).

gamma-cat and gamma-k as pygamma 0.5.9 computes them (``Alignment.gamma_k_disorder``): over the
pairs of places of every unitary alignment with ``k >= 2`` units, a pair of units weighs
``max(0, 1 - alpha d_pos) / (k - 1)`` and costs ``d_cat``; a unit against an empty place adds
``delta_empty^2`` to the cost and ``delta_empty`` to the weight (pygamma's experimental term); the
disorder is total cost over total weight (1 when there is no pair at all, 0 when no two units
are aligned). gamma-k keeps the pairs with a unit of category ``k``. Both use the best alignments
of the same samples as gamma; ``gamma_x = 1 - D_o^x / D_e^x`` (1 when ``D_o^x = 0``).

Every sum is exact (``math.fsum``); no value goes through BLAS or a transcendental function.

Bounds on the work: ``n_samples`` and ``max_samples`` are at most :data:`SAMPLES_LIMIT` (10,000,
the default ``max_samples``), and every alignment, observed or random, is refused past
``max_candidates`` candidates in one component (:class:`.alignment.AlignmentTooLarge`, naming it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from numbers import Integral, Real

import numpy as np

from ...chance.bootstrap_intervals import make_rng
from .alignment import MAX_CANDIDATES, Alignment, AlignmentTooLarge, best_alignment
from .continuum import Continuum, continuum_from_annotated, continuum_from_texts, continuum_from_units
from .dissimilarity import Dissimilarity
from .sampling import SAMPLERS, make_sampler

__all__ = ["PRECISION_LEVELS", "SAMPLES_LIMIT", "GammaResult", "category_disorders", "gamma_agreement"]

PRECISION_LEVELS = {"high": 0.01, "medium": 0.02, "low": 0.05}  # pygamma's named levels
SAMPLES_LIMIT = 10_000  # the most random continua n_samples and max_samples may ask for
_CONFIDENCE = 1.96


@dataclass(frozen=True, eq=False)
class GammaResult:
    """Gamma with its parts. ``gamma_k[category]`` and every value may be None, with the reason
    in ``warnings``. ``sample_disorders`` are the random continua's best-alignment disorders."""

    gamma: float | None
    observed_disorder: float
    expected_disorder: float
    expected_disorder_se: float | None
    gamma_se: float | None
    gamma_cat: float | None
    gamma_k: dict
    n_samples: int
    sampler: str
    alignment: Alignment
    sample_disorders: tuple = ()
    warnings: list = field(default_factory=list)

    def to_dict(self, alignment: bool = True) -> dict:
        """Plain values (JSON-ready); with ``alignment``, its rows (:meth:`Alignment.rows`)."""
        out = {key: getattr(self, key) for key in (
            "gamma", "observed_disorder", "expected_disorder", "expected_disorder_se", "gamma_se", "gamma_cat",
            "n_samples", "sampler")}
        out["gamma_k"] = {str(k): v for k, v in self.gamma_k.items()}
        out["annotators"] = [str(a) for a in self.alignment.continuum.annotators]
        out["warnings"] = list(self.warnings)
        if alignment:
            out["alignment"] = self.alignment.rows()
        return out


def category_disorders(alignment: Alignment, dissimilarity: Dissimilarity, matrix: np.ndarray) -> tuple[float, dict]:
    """``(gamma-cat disorder, {category index: gamma-k disorder})`` of one alignment (module
    docstring, pygamma's ``gamma_k_disorder``)."""
    c, tuples = alignment.continuum, alignment.tuples
    delta = dissimilarity.delta_empty
    filled = (tuples >= 0).sum(axis=1)
    base = np.where(filled >= 2, 1.0 / np.maximum(filled - 1, 1), 0.0)
    records = []  # (cost, weight, category of first, category of second, both non-empty)
    for i in range(c.n_annotators):
        for j in range(i + 1, c.n_annotators):
            a, b = tuples[:, i], tuples[:, j]
            both, one = (a >= 0) & (b >= 0), (a >= 0) != (b >= 0)
            ua, ub = a[both], b[both]
            position = dissimilarity.alpha * dissimilarity.positional(c.start[ua], c.end[ua], c.start[ub], c.end[ub])
            weight = base[both] * np.maximum(0.0, 1.0 - position)
            cost = (matrix[c.category[ua], c.category[ub]] * delta) * weight
            single = np.where(a[one] >= 0, a[one], b[one])
            records.append((cost, weight, c.category[ua], c.category[ub], True))
            records.append((np.full(single.size, delta * delta), np.full(single.size, delta),
                            c.category[single], np.full(single.size, -1), False))
    overall = _ratio(records, None, any_pair=tuples.shape[0] > 0)
    per_category = {k: _ratio(records, k) for k in range(len(c.categories))}
    return overall, per_category


def _ratio(records, category, any_pair: bool | None = None) -> float:
    costs, weights, looped, counted = [], [], False, bool(any_pair)
    for cost, weight, first, second, both in records:
        keep = slice(None) if category is None else (first == category) | (second == category)
        cost, weight = cost[keep], weight[keep]
        counted |= cost.size > 0
        looped |= both and cost.size > 0
        costs += cost.tolist()
        weights += weight.tolist()
    if not looped:
        return 0.0 if counted else 1.0
    total = math.fsum(costs)
    return 0.0 if total == 0 else total / math.fsum(weights)


def _continuum(annotations, lengths, annotators, scheme, mode, suffix) -> Continuum:
    if isinstance(annotations, Continuum):
        return annotations
    if isinstance(annotations, dict):
        if lengths is not None or annotators is not None:
            raise ValueError("a dict names its annotators and has its own texts: no lengths or annotators")
        first = next(iter(annotations.values()), None)
        if isinstance(first, (list, tuple)) and first and all(hasattr(x, "tokens") for x in first):
            return continuum_from_annotated(annotations)
        return continuum_from_units(annotations)
    return continuum_from_texts(annotations, lengths=lengths, annotators=annotators, scheme=scheme, mode=mode,
                                suffix=suffix)


def _check_options(sampler, n_samples, precision_level, max_samples):
    if sampler not in SAMPLERS:
        raise ValueError(f"sampler must be one of {list(SAMPLERS)}, got {sampler!r}")
    for name, value in (("n_samples", n_samples), ("max_samples", max_samples)):
        if isinstance(value, bool) or not isinstance(value, Integral) or value < 1:
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
        if int(value) > SAMPLES_LIMIT:
            raise ValueError(f"{name} must be at most {SAMPLES_LIMIT:,} random continua, got {value:,}: "
                             "the Monte Carlo error of D_e shrinks like 1/sqrt(samples), so more add little; "
                             "set precision_level to stop once D_e is precise enough")
    if isinstance(precision_level, str):
        if precision_level not in PRECISION_LEVELS:
            raise ValueError(f"precision_level must be a number in (0, 1) or one of {list(PRECISION_LEVELS)}, "
                             f"got {precision_level!r}")
        precision_level = PRECISION_LEVELS[precision_level]
    if precision_level is not None and (isinstance(precision_level, bool) or not isinstance(precision_level, Real)
                                        or not 0 < precision_level < 1):  # type: ignore[operator]  # a Real
        raise ValueError(f"precision_level must be a number in (0, 1), got {precision_level!r}")
    return precision_level


def _required_samples(disorders: list[float], precision_level: float) -> int:
    """pygamma's ``ceil((1.96 cv / precision_level)^2)``, ``cv`` with the population sd."""
    mean = math.fsum(disorders) / len(disorders)
    if mean == 0:
        return len(disorders)
    sd = math.sqrt(math.fsum((x - mean) * (x - mean) for x in disorders) / len(disorders))
    return math.ceil((sd / mean * _CONFIDENCE / precision_level) ** 2)


def gamma_agreement(annotations, *, lengths=None, annotators=None, dissimilarity: Dissimilarity | None = None,
                    sampler: str = "statistical", n_samples: int = 30, precision_level=None,
                    max_samples: int = 10_000, random_state=0, scheme=None, mode=None,
                    suffix: bool = False, max_candidates: int = MAX_CANDIDATES) -> GammaResult:
    r"""Compute gamma of two or more annotators, with gamma-cat and gamma-k (Mathet et al. 2015).

    Parameters
    ----------
    annotations : dict, list, AnnotationSet or Continuum
        ``{annotator: [(category, start, end), ...]}`` (one text, real positions);
        ``{annotator: read_jsonl(...) or read_brat(...)}`` (the readers' texts); or a list over
        texts of lists over annotators of tag sequences or of ``(category, start, end)`` token spans,
        or an ``AnnotationSet`` (its spans are not chunked again); texts are laid end to end.
    lengths : list of int, optional
        For token spans, ``lengths[t]`` tokens in text ``t`` (tag sequences give their own).
    annotators : list of str, optional
        For a list over texts, the annotators' names (default ``"0"``, ``"1"``, ...).
    dissimilarity : GammaDissimilarity, optional
        The dissimilarity of two units (default ``GammaDissimilarity()``: pygamma's combined
        default, :math:`\alpha = \beta = \Delta_\emptyset = 1`).
    sampler : {"statistical", "shuffle", "random_model"}, default "statistical"
        How random continua are drawn: pygamma's statistical sampler, Mathet's shuffle, or the random
        annotation model of :func:`chance_f1`.
    n_samples : int, default 30
        Random continua drawn first (pygamma's default); at most ``SAMPLES_LIMIT`` (10,000).
    precision_level : float, str or None, optional
        A relative precision of :math:`D_e` at 95% in (0, 1), or ``"high"`` (0.01), ``"medium"``
        (0.02), ``"low"`` (0.05): draw until it is reached; None: exactly ``n_samples``.
    max_samples : int, default 10000
        The most samples ``precision_level`` may draw (a warning when it stops there); at most
        ``SAMPLES_LIMIT``.
    random_state : int, numpy.random.Generator or None, default 0
        The seed: the same seed gives the same result on every machine.
    scheme, mode, suffix : optional
        As in seqeval and :func:`spans_from_tags` (tag sequences only).
    max_candidates : int, default 100000
        Candidate unitary alignments of one size that one component of one alignment may need
        (three or more annotators, ``MAX_CANDIDATES``); past it the alignment is refused.

    Returns
    -------
    GammaResult
        ``gamma``, ``observed_disorder``, ``expected_disorder`` and its Monte Carlo
        ``expected_disorder_se``, ``gamma_se`` (delta method), ``gamma_cat``, ``gamma_k``
        (``{category: value}``), ``n_samples``, ``sampler``, the best ``alignment``, the samples'
        ``sample_disorders`` and ``warnings``; ``to_dict()`` gives the plain values. A value may be
        None, its reason in ``warnings``.

    Raises
    ------
    AlignmentTooLarge
        A ``ValueError`` naming the stretch of units (text, positions, annotators) of the observed or
        a random continuum whose exact alignment would need more than ``max_candidates`` candidates.
    ValueError
        No unit at all, bad annotations (naming the text and the annotator), ``lengths`` or
        ``annotators`` given with a dict, or an option out of range (``n_samples`` or ``max_samples``
        above ``SAMPLES_LIMIT``).

    See Also
    --------
    GammaDissimilarity : The dissimilarity of two units.
    unitizing_alpha : Krippendorff's unitizing alpha of the same kind of data.

    Notes
    -----
    Mathet, Widloecher and Metivier (2015, section 4.3): with :math:`D_o` the disorder of the best
    alignment of the observed continuum (exact, for any number of annotators) and :math:`D_e` the
    mean best-alignment disorder of :math:`m` random continua,

    .. math::

        \gamma = 1 - \frac{D_o}{D_e}, \qquad
        \mathrm{se}(D_e) = \frac{s}{\sqrt{m}}, \qquad
        \mathrm{se}(\gamma) = \frac{D_o}{D_e^2}\, \mathrm{se}(D_e).

    With ``precision_level`` :math:`p` and :math:`cv` the samples' coefficient of variation, samples
    are drawn until :math:`m \ge (1.96\, cv / p)^2` (section 5.3), checked again after each batch.
    gamma-cat and gamma-k are computed as pygamma-agreement 0.5.9 computes them (Mathet 2017). Every
    sum is exact (``math.fsum``), so a seed gives the same bits on every machine.

    The example's observed disorder is pygamma-agreement's (``get_best_alignment`` with
    ``CombinedCategoricalDissimilarity``: 0.3370115 in its float32); its gamma is sampled, and
    pygamma's differs by the sampling error.

    References
    ----------
    Mathet, Y., Widloecher, A. and Metivier, J.-P. (2015). The unified and holistic method gamma
    for inter-annotator agreement measure and alignment. *Computational Linguistics* 41(3).
    Mathet, Y. (2017). The agreement measure gamma-cat: a complement to gamma focused on
    categorization of a continuum. *Computational Linguistics* 43(3).

    Examples
    --------
    >>> annotations = {"anna": [("PER", 0, 5), ("LOC", 10, 14), ("ORG", 20, 30)],
    ...                "bob": [("PER", 0, 6), ("LOC", 10, 14), ("PER", 20, 29)]}
    >>> result = gamma_agreement(annotations)
    >>> round(result.observed_disorder, 7), result.n_samples
    (0.3370115, 30)
    >>> round(result.gamma, 4), round(result.gamma_cat, 4)
    (0.6287, 0.4798)
    >>> result.gamma_k["LOC"]
    1.0
    """
    precision = _check_options(sampler, n_samples, precision_level, max_samples)
    continuum = _continuum(annotations, lengths, annotators, scheme, mode, suffix)
    dissimilarity = dissimilarity or Dissimilarity()
    matrix = dissimilarity.category_values(continuum.categories)
    warnings: list[str] = []
    if continuum.n_units == 0:
        raise ValueError("no units at all: gamma needs at least one unit")
    observed = best_alignment(continuum, dissimilarity, max_candidates=max_candidates)
    draw, rng = make_sampler(continuum, sampler), make_rng(random_state)
    samples: list[tuple[float, float, dict]] = []

    def run(count: int) -> None:
        for _ in range(count):
            try:
                alignment = best_alignment(draw(rng), dissimilarity, max_candidates=max_candidates)
            except AlignmentTooLarge as error:
                raise AlignmentTooLarge(error.text, error.start, error.end, error.annotators, error.n_units,
                                        error.estimate, error.limit, sample=len(samples) + 1) from None
            samples.append((alignment.disorder, *category_disorders(alignment, dissimilarity, matrix)))

    run(n_samples)
    while precision is not None:
        required = _required_samples([s[0] for s in samples], precision)
        if required <= len(samples):
            break
        if len(samples) >= max_samples:
            warnings.append(f"precision_level {precision} needs {required} samples; stopped at "
                            f"max_samples={max_samples}")
            break
        run(min(required, max_samples) - len(samples))
    return _result(continuum, observed, samples, dissimilarity, matrix, sampler, warnings)


def _result(continuum, observed, samples, dissimilarity, matrix, sampler, warnings) -> GammaResult:
    disorders = [s[0] for s in samples]
    m = len(disorders)
    expected = math.fsum(disorders) / m
    do = observed.disorder
    se = None
    if m >= 2:
        se = math.sqrt(math.fsum((x - expected) * (x - expected) for x in disorders) / (m - 1) / m)
    else:
        warnings.append("one sample: no standard error")
    gamma: float | None = 1.0  # no observed disorder: gamma 1 (pygamma)
    gamma_se: float | None = None if se is None else 0.0
    if do > 0:
        if expected == 0:
            gamma, gamma_se = None, None
            warnings.append("gamma is None: the random continua have no disorder")
        else:
            gamma = 1 - do / expected
            gamma_se = None if se is None else do / (expected * expected) * se
    cat_observed, k_observed = category_disorders(observed, dissimilarity, matrix)
    cat_expected = math.fsum(s[1] for s in samples) / m
    gamma_cat = 1.0 if cat_observed == 0 else (0.0 if cat_expected == 0 else 1 - cat_observed / cat_expected)
    gamma_k: dict[str, float | None] = {}
    for k, name in enumerate(continuum.categories):
        k_expected = math.fsum(s[2][k] for s in samples) / m
        if k_observed[k] == 0:
            gamma_k[name] = 1.0
        elif k_expected == 0:
            gamma_k[name] = None
            warnings.append(f"gamma_k[{name!r}] is None: no disorder of that category in the random continua")
        else:
            gamma_k[name] = 1 - k_observed[k] / k_expected
    return GammaResult(gamma, do, expected, se, gamma_se, gamma_cat, gamma_k, m, sampler, observed,
                       tuple(disorders), warnings)
