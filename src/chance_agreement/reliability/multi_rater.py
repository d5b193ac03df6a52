"""The several-rater family of Gwet (2014), "Handbook of Inter-Rater Reliability", 4th ed., with his
analytic standard errors (the values irrCAC's ``*.raw`` and ``*.dist`` functions print).

Notation: ``n`` items (subjects), ``r`` raters, ``q`` categories, ``r_ik`` raters putting item ``i``
in category ``k``, ``r_i = sum_k r_ik`` (missing ratings allowed), weights ``w_kl``
(``weights.py``), ``r*_ik = sum_l w_kl r_il``, ``n2`` the items with ``r_i >= 2``::

    p_a = 1/n2 sum_{r_i >= 2} sum_k r_ik (r*_ik - 1) / (r_i (r_i - 1))          (Gwet 2014, eq. 2.1.7)
    pi_k = 1/n sum_i r_ik / r_i
    coefficient = (p_a - p_e) / (1 - p_e)

with chance agreement ``p_e``:

- percent agreement: ``0``;
- Brennan-Prediger (Randolph's free-marginal kappa): ``sum_kl w_kl / q^2``;
- Gwet's AC1 (identity weights) / AC2 (any weights): ``sum_kl w_kl / (q (q - 1)) * sum_k pi_k (1 - pi_k)``;
- Fleiss' kappa (weighted with weights): ``sum_kl w_kl pi_k pi_l``;
- Conger's kappa: ``sum_kl w_kl (pbar_k pbar_l - s2_kl / r)`` with ``p_gk`` rater ``g``'s
  proportion in category ``k``, ``pbar_k`` their mean over raters and ``s2_kl`` their covariance;
- Krippendorff's alpha (Gwet's form): ``p_a = (1 - eps) p'_a + eps`` with ``p'_a`` using the
  mean ``rbar`` of ``r_i`` over the pairable items, ``eps = 1 / sum r_i``, ``pi_k = 1/n sum r_ik / rbar``.

Standard error (Gwet 2014, section 5.5; linearisation): with item terms
``c_i = (n / n2) (p_a|i - p_e [r_i >= 2]) / (1 - p_e)`` and ``c*_i = c_i - 2 (1 - c) (p_e|i - p_e) / (1 - p_e)``,
``var = (1 - f) / (n (n - 1)) sum_i (c*_i - c)^2``, ``f = n / N`` (N the population size, default
infinite). Interval: ``c -+ t_{n-1, (1 + level)/2} se``, the upper end capped at 1 (as irrCAC); the
p-value is the two-sided t test of ``c = 0`` with ``n - 1`` degrees of freedom.

Items nobody rated are dropped (``n_items`` counts the others); raters who rated nothing are
left out of Conger's and Light's kappa. Undefined values (a single category, chance agreement 1,
no item with two ratings) are ``None`` with the reason in ``warnings``; a standard error of an
undefined coefficient or from one item is ``None``.
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np

from ..chance.chance_corrected import has_room
from ..chance.exact_sum import exact_dot, ordered_matmul, quadratic_form
from ..chance.portable_math import t_ppf, t_sf
from .benchmark_scales import benchmark
from .multi_annotator import check_counts, count_matrix, rating_codes
from .weights import agreement_weights

COEFFICIENTS = (
    "percent_agreement", "brennan_prediger", "gwet_ac", "fleiss_kappa", "conger_kappa",
    "krippendorff_alpha", "light_kappa",
)


class _Data:
    """Ratings as counts (items x categories), and per rater when raw ratings were given."""

    def __init__(self, ratings=None, counts=None, categories=None, weights="identity"):
        if (ratings is None) == (counts is None):
            raise ValueError("give exactly one of ratings (items x raters) or counts= (items x categories)")
        self.warnings: list[str] = []
        if counts is not None:
            table = check_counts(counts)
            if categories is None:
                categories = list(range(1, table.shape[1] + 1))
            categories = list(categories)
            if len(categories) != table.shape[1]:
                raise ValueError(f"counts has {table.shape[1]} category columns but {len(categories)} categories given")
            self.raw = None
        else:
            # raw[i, g] = category index of rater g's label for item i, -1 if missing
            self.raw, categories = rating_codes(ratings, categories)
            table = count_matrix(self.raw, len(categories))
        rated = table.sum(axis=1) > 0
        if not rated.all():
            self.warnings.append(f"{int((~rated).sum())} item(s) without any rating left out")
            table = table[rated]
            if self.raw is not None:
                self.raw = self.raw[rated]
        if table.shape[0] == 0:
            raise ValueError("no item has a rating")
        self.categories = categories
        self.counts = table
        self.weights = agreement_weights(weights, categories)
        self.weights_name = weights if isinstance(weights, str) else "custom"


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


def _result(value, pa, pe, variance, n, confidence_level, warnings):
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


def _weighted(counts, weights):
    """``r*_ik = sum_l w_kl r_il`` (``ordered_matmul(counts, weights.T)``, the same bits: the terms
    in increasing ``l``) from each item's nonzero counts only, so the work is items x categories x
    (categories an item has) instead of items x categories^2; identity weights give the counts."""
    if np.array_equal(weights, np.eye(weights.shape[0])):
        return counts.copy()
    out = np.zeros((counts.shape[0], weights.shape[0]))
    rows, columns = np.nonzero(counts)  # row by row, each row's categories increasing
    if rows.size:
        starts = np.searchsorted(rows, rows)  # first nonzero of each entry's row
        rank = np.arange(rows.size) - starts
        for position in range(int(rank.max()) + 1):
            chosen = rank == position
            items, categories = rows[chosen], columns[chosen]
            out[items] += counts[items, categories][:, None] * weights[:, categories].T
    return out


def _pa_terms(counts, weights):
    """``(p_a, p_a|i, r_i, pairable mask)``; ``p_a|i = sum_k r_ik (r*_ik - 1) / (r_i (r_i - 1))``, 0 if r_i < 2."""
    r_i = counts.sum(axis=1)
    weighted = _weighted(counts, weights)
    agreeing = (counts * (weighted - 1.0)).sum(axis=1)
    pairable = r_i >= 2
    pa_i = np.zeros_like(r_i)
    pa_i[pairable] = agreeing[pairable] / (r_i[pairable] * (r_i[pairable] - 1))
    pa = float(pa_i[pairable].mean()) if pairable.any() else None
    return pa, pa_i, r_i, pairable


def _linearised(pa, pa_i, pe, pe_i, pairable, population_size, confidence_level, warnings):
    """The chance-corrected coefficient and its Gwet (2014) linearised variance."""
    n = pa_i.size
    if pa is None:
        return _result(None, None, pe, None, n, confidence_level, warnings + ["no item has two or more ratings"])
    if pe is not None and not has_room(pe):
        return _result(None, pa, pe, None, n, confidence_level,
                       warnings + ["chance agreement is 1 (a single category is used), so the coefficient is undefined"])
    value = (pa - pe) / (1 - pe)
    terms = (n / pairable.sum()) * (pa_i - pe * pairable) / (1 - pe)
    if pe_i is not None:
        terms = terms - 2 * (1 - value) * (pe_i - pe) / (1 - pe)
    fraction = 0.0 if population_size is None else n / population_size
    variance = (1 - fraction) / (n * (n - 1)) * float(((terms - value) ** 2).sum()) if n > 1 else None
    return _result(float(value), pa, float(pe), variance, n, confidence_level, warnings)


def _single_category(data):
    if data.counts.shape[1] < 2:
        return ["a single category is used: chance-corrected agreement is undefined"]
    return []


def _proportions(counts):
    r_i = counts.sum(axis=1)
    return (counts / r_i[:, None]).mean(axis=0)


def _family(name, data, population_size, confidence_level):
    counts, weights = data.counts, data.weights
    q = counts.shape[1]
    pa, pa_i, r_i, pairable = _pa_terms(counts, weights)
    warnings = list(data.warnings)
    if name == "percent_agreement":
        return _linearised(pa, pa_i, 0.0, None, pairable, population_size, confidence_level, warnings)
    if q < 2:
        return _result(None, pa, None, None, counts.shape[0], confidence_level, warnings + _single_category(data))
    if name == "brennan_prediger":
        pe = float(weights.sum()) / q**2
        return _linearised(pa, pa_i, pe, None, pairable, population_size, confidence_level, warnings)
    pi = _proportions(counts)
    if name == "gwet_ac":
        scale = float(weights.sum()) / (q * (q - 1))
        pe = scale * float((pi * (1 - pi)).sum())
        pe_i = scale * ordered_matmul(counts, 1 - pi) / r_i
        return _linearised(pa, pa_i, pe, pe_i, pairable, population_size, confidence_level, warnings)
    if name == "fleiss_kappa":
        pe = quadratic_form(pi, weights, pi)
        pe_i = ordered_matmul(counts, ordered_matmul((weights + weights.T) / 2, pi)) / r_i
        return _linearised(pa, pa_i, pe, pe_i, pairable, population_size, confidence_level, warnings)
    raise AssertionError(name)


def _check_level(confidence_level, population_size):
    if not (isinstance(confidence_level, (int, float)) and 0 < confidence_level < 1):
        raise ValueError(f"confidence_level must be a number in (0, 1), got {confidence_level!r}")
    if population_size is not None and not (isinstance(population_size, (int, float)) and population_size > 0):
        raise ValueError(f"population_size must be a positive number or None (infinite), got {population_size!r}")


def _coefficient(name, ratings, counts, weights, categories, confidence_level, population_size):
    _check_level(confidence_level, population_size)
    data = _Data(ratings, counts, categories, weights)
    return _family(name, data, population_size, confidence_level)


def percent_agreement(ratings=None, *, counts=None, weights="identity", categories=None,
                      confidence_level=0.95, population_size=None) -> dict:
    """Percent agreement ``p_a`` (Gwet 2014, eq. 2.1.7; weighted with ``weights``) with its standard error.

    ``ratings``: items x raters labels (None/NaN missing), or ``counts=``: items x categories.
    Returns ``value``, ``observed_agreement``, ``expected_agreement``, ``standard_error``,
    ``confidence_interval``, ``p_value``, ``n_items``, ``warnings`` (module docstring).
    """
    return _coefficient("percent_agreement", ratings, counts, weights, categories, confidence_level, population_size)


def brennan_prediger(ratings=None, *, counts=None, weights="identity", categories=None,
                     confidence_level=0.95, population_size=None) -> dict:
    """Brennan-Prediger coefficient (Randolph's free-marginal kappa), ``p_e = sum w_kl / q^2``."""
    return _coefficient("brennan_prediger", ratings, counts, weights, categories, confidence_level, population_size)


def gwet_ac1(ratings=None, *, counts=None, categories=None, confidence_level=0.95, population_size=None) -> dict:
    """Gwet's AC1, ``p_e = 1/(q - 1) sum_k pi_k (1 - pi_k)`` (Gwet 2014, eq. 4.2.x for r raters)."""
    return _coefficient("gwet_ac", ratings, counts, "identity", categories, confidence_level, population_size)


def gwet_ac2(ratings=None, *, counts=None, weights="quadratic", categories=None,
             confidence_level=0.95, population_size=None) -> dict:
    """Gwet's AC2: AC1 with weights, ``p_e = sum w_kl / (q (q - 1)) sum_k pi_k (1 - pi_k)``."""
    return _coefficient("gwet_ac", ratings, counts, weights, categories, confidence_level, population_size)


def weighted_fleiss_kappa(ratings=None, *, counts=None, weights="identity", categories=None,
                          confidence_level=0.95, population_size=None) -> dict:
    """Fleiss' kappa, weighted with ``weights``, ``p_e = sum w_kl pi_k pi_l``, with Gwet's standard
    error (irrCAC ``fleiss.kappa.raw``/``.dist``; missing ratings as there)."""
    return _coefficient("fleiss_kappa", ratings, counts, weights, categories, confidence_level, population_size)


def fleiss_kappa_per_category(ratings=None, *, counts=None, categories=None, confidence_level=0.95,
                              population_size=None) -> dict:
    """Fleiss (1971, eq. 11) kappa of each category,
    ``kappa_k = 1 - (1/n2 sum_i r_ik (r_i - r_ik) / (r_i (r_i - 1))) / (pi_k (1 - pi_k))``:
    Fleiss' kappa of the ratings dichotomised into "k" and "not k", each with its standard
    error. Returns {category: result dict}."""
    _check_level(confidence_level, population_size)
    data = _Data(ratings, counts, categories, "identity")
    return _per_category(data.counts, data.categories, data.warnings, population_size, confidence_level)


def _per_category(counts, categories, warnings, population_size, confidence_level) -> dict:
    """``fleiss_kappa_per_category`` of an items x categories table whose every item is rated."""
    out = {}
    for k, category in enumerate(categories):
        inside = counts[:, k]
        binary = _Data(counts=np.stack([inside, counts.sum(axis=1) - inside], axis=1))
        result = _family("fleiss_kappa", binary, population_size, confidence_level)
        result["warnings"] = warnings + result["warnings"]
        out[category] = result
    return out


def _raters(data):
    if data.raw is None:
        raise ValueError("Conger's and Light's kappa need ratings per rater (items x raters), not counts")
    raw = data.raw
    active = (raw >= 0).any(axis=0)
    warnings = list(data.warnings)
    if not active.all():
        warnings.append(f"rater(s) {[int(g) for g in np.nonzero(~active)[0]]} gave no rating and are left out")
    return raw[:, active], warnings


def conger_kappa(ratings, *, weights="identity", categories=None, confidence_level=0.95,
                 population_size=None) -> dict:
    """Conger's (1980) kappa: ``p_e = sum w_kl (pbar_k pbar_l - s2_kl / r)``, the mean of the
    pairwise Cohen chance agreements; Gwet's standard error (irrCAC ``conger.kappa.raw``)."""
    _check_level(confidence_level, population_size)
    return _conger(_Data(ratings, None, categories, weights), confidence_level, population_size)


def _conger(data, confidence_level, population_size) -> dict:
    raw, warnings = _raters(data)
    counts, w = data.counts, data.weights
    n, r = raw.shape
    q = counts.shape[1]
    pa, pa_i, _, pairable = _pa_terms(counts, w)
    if q < 2 or r < 2:
        reason = _single_category(data) or ["fewer than two raters gave ratings"]
        return _result(None, pa, None, None, n, confidence_level, warnings + reason)
    rated = raw >= 0  # n x r
    per_rater = np.stack([np.bincount(column[column >= 0], minlength=q) for column in raw.T]).astype(float)  # r x q
    n_g = per_rater.sum(axis=1)  # items rated by each rater
    p_gk = per_rater / n_g[:, None]
    p_bar = p_gk.mean(axis=0)
    s2 = (ordered_matmul(p_gk.T, p_gk) - r * np.outer(p_bar, p_bar)) / (r - 1)
    pe = float((w * (np.outer(p_bar, p_bar) - s2 / r)).sum())
    lam = _conger_item_terms(raw, rated, p_gk, p_bar, w, n_g / n)
    pe_i = lam.sum(axis=1) / (r * (r - 1))
    return _linearised(pa, pa_i, pe, pe_i, pairable, population_size, confidence_level, warnings)


def _conger_item_terms(raw, rated, p_gk, p_bar, w, share) -> np.ndarray:
    """Rater ``g``'s share of item ``i``'s ``p_e`` (Gwet 2014, section 5.5; irrCAC's lambda terms),
    ``lam_ig = n/n_g sum_{k,l} w_kl (d_igl - c_ig p_gl) v_gk`` with ``d_igl = [x_ig = l]``,
    ``c_ig = [i rated by g] - n_g/n`` and ``v_g = r pbar - p_g``, without the items x raters x
    categories array: with ``A_g = v_g w`` and ``b_g = sum_l p_gl A_gl`` (exact sums),
    ``lam_ig = n/n_g (A_g[x_ig] [i rated by g] - c_ig b_g)``: ``O(n r + r q^2)``."""
    r = raw.shape[1]
    v = r * p_bar[None, :] - p_gk  # r x q
    a = ordered_matmul(v, w)  # a[g, l] = sum_k v_gk w_kl
    b = np.array([exact_dot(p_gk[g], a[g]) for g in range(r)])
    own = np.where(rated, a[np.arange(r)[None, :], np.where(rated, raw, 0)], 0.0)  # A_g[x_ig]
    c = rated - share[None, :]
    return (own - c * b[None, :]) * (1.0 / share)[None, :]


def krippendorff_alpha_inference(ratings=None, *, counts=None, weights="identity", categories=None,
                                 confidence_level=0.95, population_size=None) -> dict:
    """Krippendorff's alpha in Gwet's (2014, section 2.4) form with his standard error (irrCAC
    ``krippen.alpha.raw``/``.dist``); the weights give alpha's distance ``1 - w``. Over the ``n``
    items with ``r_i >= 2``: ``p_a = (1 - eps) p'_a + eps``, ``p'_a = 1/n sum_i sum_k r_ik
    (r*_ik - 1) / (rbar (r_i - 1))``, ``eps = 1 / sum r_i``, ``pi_k = 1/n sum_i r_ik / rbar``,
    ``p_e = sum w_kl pi_k pi_l``. The value equals Krippendorff's alpha.

    irrCAC linearises differently for raw ratings (``.raw``: around ``alpha'``, the ``p_e`` term
    doubled) and for counts (``.dist``: around ``alpha``, ``p_a|i`` shrunk by ``1 - eps``, the
    ``p_e`` term single); both are reproduced, chosen by the input form, so the same data give
    slightly different standard errors as ratings and as counts (0.0812 and 0.0824 on
    irrCAC's distrib.6raters)."""
    _check_level(confidence_level, population_size)
    return _alpha_inference(_Data(ratings, counts, categories, weights), confidence_level, population_size)


def _alpha_inference(data, confidence_level, population_size) -> dict:
    warnings = list(data.warnings)
    w = data.weights
    r_all = data.counts.sum(axis=1)
    counts = data.counts[r_all >= 2]
    n = counts.shape[0]
    if n == 0:
        return _result(None, None, None, None, 0, confidence_level, warnings + ["no item has two or more ratings"])
    if counts.shape[1] < 2:
        return _result(None, None, None, None, n, confidence_level, warnings + _single_category(data))
    r_i = counts.sum(axis=1)
    r_bar = r_i.mean()
    eps = 1.0 / r_i.sum()
    agreeing = (counts * (_weighted(counts, w) - 1.0)).sum(axis=1)
    pa_prime = float((agreeing / (r_bar * (r_i - 1))).mean())
    pa = (1 - eps) * pa_prime + eps
    pi = (counts / r_bar).mean(axis=0)
    pe = quadratic_form(pi, w, pi)
    if not has_room(pe):
        return _result(None, pa, pe, None, n, confidence_level,
                       warnings + ["chance agreement is 1 (a single category is used), so alpha is undefined"])
    value = (pa - pe) / (1 - pe)
    pe_i = ordered_matmul(counts, ordered_matmul((w + w.T) / 2, pi)) / r_bar
    if data.raw is not None:  # irrCAC krippen.alpha.raw: linearised around alpha' = (p'_a - p_e)/(1 - p_e)
        centre = (pa_prime - pe) / (1 - pe)
        pa_i = agreeing / (r_bar * (r_i - 1)) - pa_prime * (r_i - r_bar) / r_bar
        pe_i = pe_i - pe * (r_i - r_bar) / r_bar
        terms = (pa_i - pe) / (1 - pe) - 2 * (1 - centre) * (pe_i - pe) / (1 - pe)
    else:  # irrCAC krippen.alpha.dist (whose standard error the package README prints)
        centre = value
        pa_i = (1 - eps) * (agreeing / (r_bar * (r_i - 1)) - pa_prime * (r_i - r_bar) / r_bar) + eps
        pe_i = pe_i - pi.sum() * (r_i - r_bar) / r_bar
        terms = (pa_i - pe) / (1 - pe) - (1 - value) * (pe_i - pe) / (1 - pe)
    fraction = 0.0 if population_size is None else n / population_size
    variance = (1 - fraction) / (n * (n - 1)) * float(((terms - centre) ** 2).sum()) if n > 1 else None
    return _result(float(value), float(pa), pe, variance, n, confidence_level, warnings)


def _cohen_from_table(table, w):
    """Weighted Cohen's kappa of a q x q count table; None when undefined."""
    total = table.sum()
    if total == 0:
        return None
    p = table / total
    pe = quadratic_form(p.sum(axis=1), w, p.sum(axis=0))
    if not has_room(pe):
        return None
    return (float((w * p).sum()) - pe) / (1 - pe)


def light_kappa(ratings, *, weights="identity", categories=None, confidence_level=0.95) -> dict:
    """Light's (1971) kappa: the mean of Cohen's (weighted) kappa over every pair of raters, each
    on the items both rated. Returns ``value``, ``standard_error``, ``confidence_interval``,
    ``p_value`` (t with n - 1 degrees of freedom), ``n_items``, ``pairwise`` (r x r, diagonal and
    undefined pairs None), ``n_pairs`` (pairs averaged) and ``warnings``. Gwet's family has no
    analytic variance for it: the standard error is the delete-one-item jackknife,
    ``var = (n - 1)/n sum_i (L_(i) - mean L_(.))^2``."""
    _check_level(confidence_level, None)
    return _light(_Data(ratings, None, categories, weights), confidence_level)


def _light(data, confidence_level) -> dict:
    raw, warnings = _raters(data)
    w = data.weights
    q = len(data.categories)
    n, r = raw.shape
    pairwise = [[None] * r for _ in range(r)]
    values, leave_one_out = [], []
    for g, h in itertools.combinations(range(r), 2):
        both = (raw[:, g] >= 0) & (raw[:, h] >= 0)
        table = np.zeros((q, q))
        np.add.at(table, (raw[both, g], raw[both, h]), 1.0)
        kappa = _cohen_from_table(table, w)
        if kappa is None:
            continue
        pairwise[g][h] = pairwise[h][g] = kappa
        values.append(kappa)
        # the pair's kappa without item i: unchanged unless i is one of its common items
        without = np.full(n, kappa)
        for a, b in zip(*np.nonzero(table)):
            table[a, b] -= 1
            cell = _cohen_from_table(table, w)
            table[a, b] += 1
            without[both & (raw[:, g] == a) & (raw[:, h] == b)] = np.nan if cell is None else cell
        leave_one_out.append(without)
    if len(values) < r * (r - 1) // 2:
        warnings.append(f"{r * (r - 1) // 2 - len(values)} pair(s) of raters with no common item or chance "
                        "agreement 1 left out of the mean")
    value = float(np.mean(values)) if values else None
    variance = None
    if values:
        jack = np.mean(leave_one_out, axis=0)
        if np.all(np.isfinite(jack)) and n > 1:
            variance = (n - 1) / n * float(((jack - jack.mean()) ** 2).sum())
        else:
            warnings.append("a pair's kappa is undefined without some item: no jackknife standard error")
    result = _result(value, None, None, variance, n, confidence_level, warnings)
    for key in ("observed_agreement", "expected_agreement"):
        del result[key]
    result.update({"pairwise": pairwise, "n_pairs": len(values)})
    return result


def multi_rater_agreement(ratings=None, *, counts=None, weights="identity", categories=None,
                          confidence_level=0.95, population_size=None, benchmark_scale=None) -> dict:
    """Every several-rater coefficient at once, each with its standard error, interval and p-value.

    Keys: ``percent_agreement``, ``brennan_prediger``, ``gwet_ac1`` (``gwet_ac2`` with weights),
    ``fleiss_kappa`` (weighted with weights), ``krippendorff_alpha``, with raw ratings also
    ``conger_kappa`` and ``light_kappa`` (jackknife standard error); ``fleiss_kappa_per_category``
    (unweighted);
    ``categories``, ``n_items``, ``n_raters`` (None for counts), ``weights``. With
    ``benchmark_scale`` ("landis_koch", "fleiss" or "altman") each coefficient with a standard
    error also gets ``benchmark`` (``benchmark_scales.benchmark``).
    """

    _check_level(confidence_level, population_size)
    data = _Data(ratings, counts, categories, weights)
    gwet = "gwet_ac1" if isinstance(weights, str) and weights == "identity" else "gwet_ac2"
    out = {
        "percent_agreement": _family("percent_agreement", data, population_size, confidence_level),
        "brennan_prediger": _family("brennan_prediger", data, population_size, confidence_level),
        gwet: _family("gwet_ac", data, population_size, confidence_level),
        "fleiss_kappa": _family("fleiss_kappa", data, population_size, confidence_level),
        "krippendorff_alpha": _alpha_inference(data, confidence_level, population_size),
    }
    if data.raw is not None:  # the ratings coded and counted once for every coefficient
        out["conger_kappa"] = _conger(data, confidence_level, population_size)
        out["light_kappa"] = _light(data, confidence_level)
    if benchmark_scale is not None:
        for result in out.values():
            if result.get("standard_error") is not None:
                result["benchmark"] = benchmark(result["value"], result["standard_error"], benchmark_scale)
    out["fleiss_kappa_per_category"] = {
        str(category): result for category, result in
        _per_category(data.counts, data.categories, [], population_size, confidence_level).items()
    }
    out["categories"] = [c if isinstance(c, (str, int, float)) else str(c) for c in data.categories]
    out["n_items"] = int(data.counts.shape[0])
    out["n_raters"] = None if data.raw is None else int(data.raw.shape[1])
    out["weights"] = data.weights_name
    return out


__all__ = [
    "COEFFICIENTS",
    "brennan_prediger",
    "conger_kappa",
    "fleiss_kappa_per_category",
    "gwet_ac1",
    "gwet_ac2",
    "krippendorff_alpha_inference",
    "light_kappa",
    "multi_rater_agreement",
    "percent_agreement",
    "weighted_fleiss_kappa",
]
