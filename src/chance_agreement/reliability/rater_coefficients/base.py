"""What a several-rater coefficient is, written once: a value and, optionally, its inference.

A ``RaterCoefficient`` gives ``value(ratings)`` (the one place its value is computed) and
``result(ratings, confidence_level, population_size)``, the dict ``multi_rater_agreement``
reports (``value`` from ``value``, bit for bit, and Gwet's (2014) standard error, interval and
p-value). ``ChanceCorrected`` is Gwet's family ``(p_a - p_e) / (1 - p_e)``: a subclass gives the
chance agreement ``p_e`` and its item terms ``p_e|i``; the weighted percent agreement

    p_a = 1/n2 sum_{r_i >= 2} sum_k r_ik (r*_ik - 1) / (r_i (r_i - 1)),   r*_ik = sum_l w_kl r_il

and the linearised variance (Gwet 2014, section 5.5)

    c_i = (n / n2) (p_a|i - p_e [r_i >= 2]) / (1 - p_e),   c*_i = c_i - 2 (1 - c) (p_e|i - p_e) / (1 - p_e),
    var = (1 - f) / (n (n - 1)) sum_i (c*_i - c)^2,   f = n / N

are here. Intervals: ``c -+ t_{n-1, (1 + level)/2} se``, the upper end capped at 1 (as irrCAC);
the p-value is the two-sided t test of ``c = 0`` with ``n - 1`` degrees of freedom.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from ..._numerics.portable_math import t_ppf, t_sf
from ...chance.chance_corrected import has_room
from .ratings import Ratings

__all__ = ["NO_PAIRS", "ONE_CATEGORY", "ChanceCorrected", "RaterCoefficient", "check_level", "linearised_variance",
           "pa_terms", "result_dict", "shares", "single_category", "weighted_cells"]

NO_PAIRS = "no item has two or more ratings"
ONE_CATEGORY = "chance agreement is 1 (a single category is used), so the coefficient is undefined"


def check_level(confidence_level, population_size) -> None:
    """A confidence level in (0, 1) and a positive population size (None: infinite), or a ValueError."""
    if not (isinstance(confidence_level, (int, float)) and 0 < confidence_level < 1):
        raise ValueError(f"confidence_level must be a number in (0, 1), got {confidence_level!r}")
    if population_size is not None and not (isinstance(population_size, (int, float)) and population_size > 0):
        raise ValueError(f"population_size must be a positive number or None (infinite), got {population_size!r}")


@functools.lru_cache(maxsize=256)
def _t_quantile(confidence_level: float, degrees: int) -> float:
    """The two-sided interval's t quantile: one per level and item count, shared by every
    coefficient of a report (each costs a portable incomplete-beta inversion)."""
    return float(t_ppf(1 - (1 - confidence_level) / 2, degrees))


def _t_inference(value, variance, n, confidence_level):
    if value is None or n < 2 or variance is None or not np.isfinite(variance):
        return None, None, None
    se = math.sqrt(max(variance, 0.0))
    half = se * _t_quantile(confidence_level, int(n - 1))
    interval = [float(value - half), float(min(1.0, value + half))]
    p_value = 2 * t_sf(abs(value / se), n - 1) if se > 0 else (0.0 if value != 0 else 1.0)
    return float(se), interval, float(p_value)


def result_dict(value, pa, pe, variance, n, confidence_level, warnings) -> dict:
    """The reported dict of a coefficient: ``value``, ``observed_agreement``, ``expected_agreement``,
    ``standard_error``, ``confidence_interval``, ``p_value``, ``n_items``, ``warnings``."""
    se, interval, p_value = _t_inference(value, variance, n, confidence_level)
    return {
        "value": value,
        "observed_agreement": pa,
        "expected_agreement": pe,
        "standard_error": se,
        "confidence_interval": interval,
        "p_value": p_value,
        "n_items": int(n),
        "warnings": warnings,
    }


def weighted_cells(ratings: Ratings, weights: np.ndarray | None = None) -> np.ndarray:
    """``r*_ik = sum_l w_kl r_il`` at each nonzero cell ``(i, k)`` (the only ones the coefficients
    use), the terms in increasing ``l`` over item ``i``'s nonzero counts (the dense
    ``ordered_matmul``'s bits): work cells x (categories an item has). ``weights`` None: the
    ratings' own; identity weights give the counts."""
    if weights is None:
        if ratings.identity:
            return ratings.values.copy()
        weights = ratings.weights
    elif np.array_equal(weights, np.eye(weights.shape[0])):
        return ratings.values.copy()
    starts = np.searchsorted(ratings.items, np.arange(ratings.n))  # each item's first cell
    first, size = starts[ratings.items], np.diff(np.r_[starts, ratings.items.size])[ratings.items]
    out = np.zeros(ratings.values.size)
    for position in range(int(size.max(initial=0))):
        has = size > position
        other = first[has] + position  # the item's cell of rank ``position``
        out[has] += ratings.values[other] * weights[ratings.cells[has], ratings.cells[other]]
    return out


def pa_terms(ratings: Ratings):
    """``(p_a, p_a|i, pairable mask)``; ``p_a|i = sum_k r_ik (r*_ik - 1) / (r_i (r_i - 1))``, 0 if
    r_i < 2; ``p_a`` None without a pairable item."""
    r_i = ratings.r_i
    agreeing = ratings.row_sums(ratings.values * (weighted_cells(ratings) - 1.0))
    pairable = r_i >= 2
    pa_i = np.zeros_like(r_i)
    pa_i[pairable] = agreeing[pairable] / (r_i[pairable] * (r_i[pairable] - 1))
    pa = float(pa_i[pairable].mean()) if pairable.any() else None
    return pa, pa_i, pairable


def shares(ratings: Ratings) -> np.ndarray:
    """``pi_k = 1/n sum_i r_ik / r_i``: each category's mean share of an item's ratings."""
    return ratings.column_means(ratings.values / ratings.r_i[ratings.items])


def linearised_variance(value, pa_i, pe, pe_i, pairable, population_size):
    """Gwet's (2014) linearised variance of ``value`` (module docstring); None from one item."""
    n = pa_i.size
    terms = (n / pairable.sum()) * (pa_i - pe * pairable) / (1 - pe)
    if pe_i is not None:
        terms = terms - 2 * (1 - value) * (pe_i - pe) / (1 - pe)
    fraction = 0.0 if population_size is None else n / population_size
    return (1 - fraction) / (n * (n - 1)) * float(((terms - value) ** 2).sum()) if n > 1 else None


def single_category(ratings: Ratings) -> list[str]:
    if ratings.q < 2:
        return ["a single category is used: chance-corrected agreement is undefined"]
    return []


class RaterCoefficient:
    """Base class of a several-rater coefficient (module docstring).

    A subclass sets ``name`` (its key in ``multi_rater_agreement`` and the registry) and
    ``title``, and gives ``value`` and ``result``; ``ChanceCorrected`` gives both from ``chance``.

    Examples
    --------
    >>> from chance_agreement import fleiss_kappa, weighted_fleiss_kappa
    >>> from chance_agreement.reliability.rater_coefficients import FleissKappa, Ratings
    >>> ratings = [["a", "a", "b"], ["b", "b", "b"], ["a", "b", "b"], ["a", "a", "a"]]
    >>> value = FleissKappa().value(Ratings(ratings))
    >>> value == fleiss_kappa(ratings) == weighted_fleiss_kappa(ratings)["value"]
    True
    >>> round(value, 4)
    0.3333
    """

    name: str = ""
    title: str = ""  # the name reports print
    per_rater: bool = False  # needs each rater's ratings (not counts): Conger's and Light's kappa

    def key(self, ratings: Ratings) -> str:
        """The coefficient's key in ``multi_rater_agreement``'s result."""
        return self.name

    def value(self, ratings: Ratings) -> float | None:
        """The coefficient: the one place it is computed.

        Parameters
        ----------
        ratings : Ratings
            The ratings (or counts), coded.

        Returns
        -------
        float or None
            The value, None when undefined.
        """
        raise NotImplementedError

    def result(self, ratings: Ratings, confidence_level: float = 0.95, population_size=None) -> dict:
        """``value`` (the same bits) with its standard error, interval and p-value.

        Parameters
        ----------
        ratings : Ratings
            The ratings (or counts), coded.
        confidence_level : float
            Of the t interval, in (0, 1).
        population_size : float or None
            ``N`` of the finite-population correction (None: infinite).

        Returns
        -------
        dict
            ``result_dict``'s keys; the reasons for a None in ``warnings``.
        """
        raise NotImplementedError


class ChanceCorrected(RaterCoefficient):
    """Gwet's family ``(p_a - p_e) / (1 - p_e)``; a subclass gives ``chance``."""

    two_categories = True  # undefined with a single category (percent agreement is not)

    def chance(self, ratings: Ratings) -> tuple[float, np.ndarray | None]:
        """``(p_e, p_e|i)`` (``p_e|i`` None: no chance term in the variance)."""
        raise NotImplementedError

    def corrected(self, ratings: Ratings, pa: float, pe: float) -> float | None:
        """The value from ``p_a`` and ``p_e`` (None without room beyond chance)."""
        return float((pa - pe) / (1 - pe)) if has_room(pe) else None

    def checked(self, ratings: Ratings) -> tuple[list[str], list[str]]:
        """``(warnings, reasons the coefficient is undefined before p_e is formed)``."""
        return list(ratings.warnings), single_category(ratings) if self.two_categories else []

    def value(self, ratings: Ratings) -> float | None:
        pa = pa_terms(ratings)[0]
        if pa is None or self.checked(ratings)[1]:
            return None
        return self.corrected(ratings, pa, self.chance(ratings)[0])

    def result(self, ratings: Ratings, confidence_level: float = 0.95, population_size=None) -> dict:
        pa, pa_i, pairable = pa_terms(ratings)
        warnings, reasons = self.checked(ratings)
        n = pa_i.size
        if reasons:
            return result_dict(None, pa, None, None, n, confidence_level, warnings + reasons)
        pe, pe_i = self.chance(ratings)
        if pa is None:
            return result_dict(None, None, pe, None, n, confidence_level, [*warnings, NO_PAIRS])
        value = self.corrected(ratings, pa, pe)
        if value is None:
            return result_dict(None, pa, pe, None, n, confidence_level, [*warnings, ONE_CATEGORY])
        variance = linearised_variance(value, pa_i, pe, pe_i, pairable, population_size) if has_room(pe) else None
        return result_dict(value, pa, float(pe), variance, n, confidence_level, warnings)
