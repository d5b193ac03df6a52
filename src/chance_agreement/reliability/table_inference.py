"""Standard errors, confidence intervals and p-values of two-annotator agreement coefficients.

Analytic (Gwet 2014, *Handbook of Inter-Rater Reliability*, 4th ed., chapter 5, the two-rater
variances printed by irrCAC's ``*.table`` functions). For a q x q table of n items with cell
proportions p_kl, agreement weights w (identity: unweighted), row / column margins p_k+, p_+l,
p_a = sum w_kl p_kl and f = n / N (N the population size, infinite by default):

    var(c) = (1 - f) / (n (1 - p_e)^2) * ( sum_kl p_kl (w_kl - (1 - c) g_kl)^2 - (p_a - 2 (1 - c) p_e)^2 )

where p_e and g_kl depend on the coefficient c:

- Cohen's kappa: p_e = sum w_kl p_k+ p_+l, g_kl = wbar_k + wbar'_l with wbar_k = sum_l w_kl p_+l,
  wbar'_l = sum_k w_kl p_k+;
- Scott's pi: pi_k = (p_k+ + p_+k)/2, p_e = sum w_kl pi_k pi_l, g_kl = pibar_k + pibar_l with
  pibar_k = (wbar_k + wbar'_k)/2;
- Gwet's AC1 (AC2 with weights): p_e = T_w sum_k pi_k (1 - pi_k) / (q (q - 1)), T_w = sum w,
  g_kl = 2 T_w (1 - (pi_k + pi_l)/2) / (q (q - 1)) and the last term uses p_e as above;
- Brennan-Prediger (Bennett's S): p_e = T_w / q^2, var = (1 - f)/(n (1 - p_e)^2) (sum p_kl w_kl^2 - p_a^2);
- percent agreement: var = (1 - f)/n (sum p_kl w_kl^2 - p_a^2);
- Krippendorff's alpha: p_a' = (1 - 1/(2n)) p_a + 1/(2n), p_e as Scott's, alpha = (p_a' - p_e)/(1 - p_e);
  its variance is Scott's formula evaluated with p_a and c = (p_a - p_e)/(1 - p_e).

Interval: c +- t_{n-1, (1+level)/2} se, the upper bound capped at 1 as irrCAC caps it (no
coefficient exceeds 1); p-value: two-sided t test of c = 0 with n - 1 degrees of freedom
(irrCAC prints 2 (1 - T(c/se)), the same for c >= 0). Undefined values (p_e = 1, n < 2) are None,
explained in ``warnings``.

Bootstrap (``bootstrap_coefficient_intervals``): the items are resampled, i.e. a resampled table
is multinomial(n, p_kl), and any coefficient of ``coefficients`` (or a function of the table) is
recomputed; percentile interval.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from .._numerics.portable_math import t_ppf, t_sf
from ..chance.bootstrap_intervals import check_confidence_level, check_resamples, make_rng, percentile_interval
from .agreement_coefficients import agreement_report, check_table, coefficients, plain
from .table_coefficients import Table, coefficient_names, get_coefficient

TABLE_COEFFICIENTS = ("observed_agreement", "cohen_kappa", "scott_pi", "gwet_ac1", "bennett_s", "krippendorff_alpha")


def _names() -> tuple[str, ...]:
    """``TABLE_COEFFICIENTS`` and then every further coefficient registered in ``table_coefficients``."""
    return TABLE_COEFFICIENTS + tuple(name for name in coefficient_names() if name not in TABLE_COEFFICIENTS)


def _check_weights(weights, q: int) -> np.ndarray:
    if weights is None:
        return np.eye(q)
    try:
        matrix = np.asarray(weights, dtype=float)
    except (TypeError, ValueError) as error:
        raise ValueError("weights must be a numeric q x q matrix of agreement weights") from error
    if matrix.shape != (q, q):
        raise ValueError(f"weights has shape {matrix.shape}, expected {(q, q)} for the table")
    if not np.all(np.isfinite(matrix)) or np.any(matrix < 0) or np.any(matrix > 1):
        raise ValueError("agreement weights must lie in [0, 1]")
    if not np.allclose(np.diag(matrix), 1.0):
        raise ValueError("agreement weights must be 1 on the diagonal (a category agrees with itself)")
    return matrix


def _fpc(population_size, n: float) -> float:
    """1 - n/N, the finite population correction (1 for N = None, i.e. infinite)."""
    if population_size is None:
        return 1.0
    if isinstance(population_size, bool) or not isinstance(population_size, (int, float)) or population_size < n:
        raise ValueError(f"population_size must be a number of items >= n = {n:g}, got {population_size!r}")
    return 1.0 - n / population_size if math.isfinite(population_size) else 1.0


def _two_rater_variance(proportions, weights, agreement, expected, coefficient, g, fpc, n, room) -> float:
    """Gwet's (2014) two-rater variance of a chance-corrected coefficient (see the module
    docstring); ``room`` is ``1 - p_e``."""
    inner = np.sum(proportions * (weights - (1.0 - coefficient) * g) ** 2)  # array: an exact square
    centre = agreement - 2.0 * (1.0 - coefficient) * expected
    inner -= centre * centre  # scalars squared by a product, never libm's pow
    return fpc * inner / (n * room * room)


def _estimates(table: np.ndarray, weights: np.ndarray, fpc: float) -> dict[str, tuple[float | None, float | None]]:
    """{name: (value, variance)} for every coefficient of ``TABLE_COEFFICIENTS``: the value from
    the coefficient's one implementation (``table_coefficients``, the value ``coefficients``
    reports), the variance from Gwet's two-rater formula with ``1 - p_e`` = the coefficient's
    chance disagreement ``D_e`` (no cancellation near ``p_e = 1``)."""
    n = float(table.sum())
    counts = Table(table, None if np.array_equal(weights, np.eye(table.shape[0])) else 1.0 - weights)
    p = table / n
    agreement = float(np.sum(weights * p))
    squared = float(np.sum(p * weights**2))
    out: dict[str, tuple[float | None, float | None]] = {
        "observed_agreement": (agreement, fpc * (squared - agreement * agreement) / n),
    }
    for name in _names()[1:]:
        coefficient = get_coefficient(name)
        value, chance = coefficient.value(counts), coefficient.chance_disagreement(counts)
        if value is None:
            out[name] = (None, None)
            continue
        expected = coefficient.expected_agreement(counts)
        if name == "bennett_s":  # no g term: the variance of percent agreement, rescaled
            variance = fpc * (squared - agreement * agreement) / (n * chance * chance)
        else:
            centre, room = value, chance
            if name == "krippendorff_alpha":  # Scott's variance at Scott's value (the uncorrected form)
                scott = get_coefficient("scott_pi")
                centre, room = scott.value(counts), scott.chance_disagreement(counts)
            try:
                g = coefficient.gwet_g(counts)
            except NotImplementedError:
                out[name] = (value, None)
                continue
            variance = _two_rater_variance(p, weights, agreement, expected, centre, g, fpc, n, room)
        out[name] = (value, variance)
    return out


def coefficient_intervals(table, *, confidence_level: float = 0.95, weights=None, population_size=None,
                          categories=None) -> dict[str, Any]:
    r"""Compute Gwet's analytic standard errors, t intervals and p-values of a two-annotator table.

    Parameters
    ----------
    table : array-like
        q x q counts: ``table[k][l]`` items the first annotator put in category ``k`` and the second
        in ``l``.
    confidence_level : float, default 0.95
        The level of the two-sided intervals, in (0, 1).
    weights : array-like, optional
        q x q agreement weights in [0, 1], ones on the diagonal (default: identity, unweighted).
    population_size : int, optional
        The number :math:`N` of items in the population, for the finite-population correction
        :math:`1 - n/N`; None: infinite.
    categories : sequence, optional
        The names of the rows and columns, for the messages.

    Returns
    -------
    dict
        ``{name: {"value", "standard_error", "ci": [low, high], "p_value"}}`` for
        ``observed_agreement`` (percent agreement), ``cohen_kappa``, ``scott_pi``, ``gwet_ac1``,
        ``bennett_s`` (Brennan-Prediger) and ``krippendorff_alpha``, plus ``n_items``,
        ``confidence_level`` and ``warnings``. An undefined entry is None, its reason in
        ``warnings``.

    Raises
    ------
    ValueError
        A malformed table or weights matrix, or an option out of range.

    See Also
    --------
    bootstrap_coefficient_intervals : A percentile bootstrap interval of any coefficient.
    coefficients : The values alone, and the rest of the prevalence paper's coefficients.

    Notes
    -----
    Gwet (2014, chapter 5; irrCAC's ``*.table`` functions): with cell proportions :math:`p_{kl}`,
    :math:`p_a = \sum_{kl} w_{kl} p_{kl}`, each coefficient's chance agreement :math:`p_e` and
    :math:`g_{kl}`, and :math:`f = n/N`,

    .. math::

        \widehat{\mathrm{var}}(c) = \frac{1 - f}{n (1 - p_e)^2}
            \left( \sum_{kl} p_{kl} \left(w_{kl} - (1 - c)\, g_{kl}\right)^2
                   - \left(p_a - 2 (1 - c)\, p_e\right)^2 \right).

    The interval is :math:`c \pm t_{n-1,(1+\mathrm{level})/2}\, \mathrm{se}`, its upper end capped at
    1 as irrCAC caps it; the p-value is the two-sided t test of :math:`c = 0`. :math:`p_e = 1` or
    fewer than two items leave a coefficient undefined (None, never NaN).

    Every value, standard error and interval of the example is irrCAC's (the Python port's
    ``irrCAC.table.CAC``): kappa 0.65909, se 0.10049, (0.45584, 0.86235); AC1 0.66449, se 0.09827;
    Brennan-Prediger 0.6625, se 0.09904; alpha 0.66271, se 0.10105.

    References
    ----------
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed., chapter 5. Advanced
    Analytics.

    Examples
    --------
    >>> table = [[10, 2, 1], [3, 12, 2], [0, 1, 9]]
    >>> result = coefficient_intervals(table)
    >>> kappa = result["cohen_kappa"]
    >>> round(kappa["value"], 5), round(kappa["standard_error"], 5), [round(end, 5) for end in kappa["ci"]]
    (0.65909, 0.10049, [0.45584, 0.86235])
    >>> {name: round(result[name]["standard_error"], 5) for name in ("gwet_ac1", "bennett_s", "krippendorff_alpha")}
    {'gwet_ac1': 0.09827, 'bennett_s': 0.09904, 'krippendorff_alpha': 0.10105}
    """
    table, _ = check_table(table, categories)
    confidence_level = check_confidence_level(confidence_level)
    weights = _check_weights(weights, table.shape[0])
    n = float(table.sum())
    fpc = _fpc(population_size, n)
    warnings: list[str] = []
    result: dict[str, Any] = {"n_items": n, "confidence_level": confidence_level, "warnings": warnings}
    estimates: dict[str, tuple[float | None, float | None]]
    if n == 0:
        warnings.append("the contingency table is empty (no items): every coefficient is undefined")
        estimates = dict.fromkeys(_names(), (None, None))
    else:
        estimates = _estimates(table, weights, fpc)
    quantile = t_ppf((1.0 + confidence_level) / 2.0, n - 1) if n >= 2 else None
    if 0 < n < 2:
        warnings.append("fewer than 2 items: no t interval or p-value (n - 1 degrees of freedom)")
    for name in _names():
        value, variance = estimates[name]
        entry: dict[str, Any] = {"value": value, "standard_error": None, "ci": None, "p_value": None}
        if value is None:
            if n > 0:
                warnings.append(f"{name}: chance agreement is 1, undefined")
        elif variance is None:
            warnings.append(f"{name}: no analytic variance (the coefficient gives no Gwet g term)")
        else:
            se = math.sqrt(max(variance, 0.0))
            entry["standard_error"] = se
            if quantile is not None:
                entry["ci"] = [value - quantile * se, min(1.0, value + quantile * se)]
                if se > 0:
                    entry["p_value"] = 2.0 * t_sf(abs(value) / se, n - 1)
                else:
                    entry["p_value"] = 1.0 if value == 0 else 0.0
        result[name] = entry
    return result


def bootstrap_coefficient_intervals(table, coefficient: str | Callable = "cohen_kappa", *,
                                    confidence_level: float = 0.95, n_resamples: int = 1000, random_state=None,
                                    **options) -> dict[str, Any]:
    r"""Compute a percentile bootstrap interval of any coefficient of a table, resampling the items.

    Parameters
    ----------
    table : array-like
        q x q whole counts (rows one annotator, columns the other).
    coefficient : str or callable, default "cohen_kappa"
        A key of :func:`coefficients`' result (``"scott_pi"``, ``"f_measure"``, ``"finn_r"``...), or a
        function of a count table returning a float or None.
    confidence_level : float, default 0.95
        The level of the interval, in (0, 1).
    n_resamples : int, default 1000
        The number of bootstrap resamples.
    random_state : int, numpy.random.Generator or None, optional
        The seed (a non-negative int) or generator of the resampling; None draws fresh entropy.
    **options
        Passed to :func:`coefficients` (``categories``, ``distance``, ``finn_order``, ``nothing``).

    Returns
    -------
    dict
        ``value`` (the coefficient of ``table``), ``ci`` (``[low, high]``, None if every resample
        is undefined), ``n_resamples``, ``undefined_resamples`` (resamples where the coefficient is
        None: counted, not used) and ``confidence_level``.

    Raises
    ------
    ValueError
        A malformed table or counts that are not whole numbers, a ``coefficient`` that names no
        number of :func:`coefficients`, or an option out of range.
    TypeError
        A ``random_state`` that is not an int, a Generator or None.

    See Also
    --------
    coefficient_intervals : Gwet's analytic intervals.

    Notes
    -----
    Resampling the :math:`n` items with replacement makes a resampled table multinomial,
    :math:`(n_{kl}^*) \sim \mathrm{Multinomial}(n, n_{kl}/n)`; the interval is the
    :math:`(1 \mp \mathrm{level})/2` quantiles of the coefficient over the resamples where it is
    defined. For the kappa family it comes close to :func:`coefficient_intervals`' (0.4558 to 0.8623
    on the example's table).

    Examples
    --------
    >>> table = [[10, 2, 1], [3, 12, 2], [0, 1, 9]]
    >>> result = bootstrap_coefficient_intervals(table, n_resamples=200, random_state=0)
    >>> round(result["value"], 5), result["n_resamples"], result["undefined_resamples"]
    (0.65909, 200, 0)
    >>> low, high = result["ci"]
    >>> 0.35 < low < 0.5 < 0.8 < high < 0.95
    True

    Kappa is undefined on a table of one category: every resample is too.

    >>> bootstrap_coefficient_intervals([[3, 0], [0, 0]], n_resamples=50, random_state=0)
    {'value': None, 'ci': None, 'n_resamples': 50, 'undefined_resamples': 50, 'confidence_level': 0.95}
    """
    table, _ = check_table(table, options.get("categories"))
    confidence_level = check_confidence_level(confidence_level)
    n_resamples = check_resamples(n_resamples)
    rng = make_rng(random_state)
    if callable(coefficient):
        statistic = coefficient
    else:
        known = coefficients(table, **options)
        if coefficient not in known or not (known[coefficient] is None or isinstance(known[coefficient], float)):
            raise ValueError(f"coefficient must name a number of coefficients(...), got {coefficient!r}")

        def statistic(counts):
            return coefficients(counts, **options)[coefficient]

    n = round(table.sum())
    if n != table.sum():
        raise ValueError("the bootstrap resamples items: the table must hold whole counts")
    value = statistic(table) if n else None
    values = []
    if n:
        tables = rng.multinomial(n, (table / n).ravel(), size=n_resamples).reshape((n_resamples, *table.shape))
        values = [statistic(resampled) for resampled in tables]
    defined = np.array([v for v in values if v is not None], dtype=float)
    ci = None
    if defined.size:
        low, high = percentile_interval(defined, confidence_level)
        ci = [float(low), float(high)]
    return {"value": None if value is None else float(value), "ci": ci, "n_resamples": n_resamples,
            "undefined_resamples": n_resamples - int(defined.size) if n else n_resamples,
            "confidence_level": confidence_level}


def agreement_report_with_intervals(predictions, references, confidence_level=None, **options) -> dict[str, Any]:
    """``agreement_report`` (the coefficients metric's core) plus, with ``confidence_level``, each
    view's ``intervals``: ``coefficient_intervals`` of the view's contingency table."""
    if confidence_level is not None:
        confidence_level = check_confidence_level(confidence_level)
    report = agreement_report(predictions, references, **options)
    if confidence_level is not None:
        for value in report.values():
            if isinstance(value, dict) and "contingency" in value:
                table = value["contingency"]["table"]
                value["intervals"] = plain(coefficient_intervals(table, confidence_level=confidence_level))
    return report


__all__ = ["TABLE_COEFFICIENTS", "agreement_report_with_intervals", "bootstrap_coefficient_intervals",
           "coefficient_intervals"]
