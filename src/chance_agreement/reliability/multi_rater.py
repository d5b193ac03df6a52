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

Fleiss' kappa and Krippendorff's alpha are reported in the form ``1 - D_o / D_e`` (from
non-negative terms; alpha from its coincidence matrix), which is the value above in exact
arithmetic and the bits of ``fleiss_kappa`` and ``krippendorff_alpha``: each coefficient is one
class in ``rater_coefficients/`` (its ``value`` computed in one place, its ``result`` adding Gwet's
standard error, ``rater_coefficients/base.py``), and this module's functions are thin calls into
them; ``multi_rater_agreement`` reports every coefficient of ``several_rater_coefficients``.

Computation: from the nonzero cells ``(i, k, r_ik)`` of the count table (``Ratings``), never the
items x categories table itself, so work and memory grow with items x raters whatever the number
of categories (483,000 tokens x 3 raters x 222 labels: 127 MB peak). Every per-item sum over
categories replays numpy's row order on the nonzero terms (``exact_sum.sparse_row_sums``), so
percent agreement, Brennan-Prediger, Gwet's AC1/AC2, (weighted) Fleiss' kappa and alpha's
inference are the dense table's bits; Fleiss' kappa per category (one pass for all categories,
sums over items by ``math.fsum``, the value as ``1 - D_o / D_e``) and Light's jackknife (each
deletion in closed form, exact with identity weights) add in another order: their values are within
1e-14 relative or 1e-15 absolute of exact fractions, closer than the dense path, which loses digits
where ``p_a`` and ``p_e`` are both near 1. The ``q x q`` arrays (weights, Conger's rater
covariances) limit ``q`` to ``sqrt(MAX_COUNT_CELLS)`` = 10,000 labels, checked up front.

Items nobody rated are dropped (``n_items`` counts the others); raters who rated nothing are
left out of Conger's and Light's kappa. Undefined values (a single category, chance agreement 1,
no item with two ratings) are ``None`` with the reason in ``warnings``; a standard error of an
undefined coefficient or from one item is ``None``.
"""

from __future__ import annotations

import math

import numpy as np

from ..chance.chance_corrected import has_room
from .benchmark_scales import benchmark
from .rater_coefficients import several_rater_coefficients
from .rater_coefficients.base import NO_PAIRS, ONE_CATEGORY, check_level, result_dict
from .rater_coefficients.ratings import MAX_COUNT_CELLS, Ratings

# the built-in coefficients (``rater_coefficients``), in the order ``multi_rater_agreement`` reports them
COEFFICIENTS = several_rater_coefficients.names()


def _check_categories(q: int) -> None:
    """The family's category-by-category arrays (weights, Conger's rater covariances, Light's pair
    tables) have ``q^2`` cells: beyond ``MAX_COUNT_CELLS`` a clear error before any work."""
    if q * q > MAX_COUNT_CELLS:
        raise ValueError(
            f"{q:,} distinct labels: the several-rater family needs {q:,} x {q:,} category tables "
            f"({q * q:,} cells, limit {MAX_COUNT_CELLS:,}) for its weights, Conger's and Light's kappa; "
            "score fewer labels at once (e.g. per entity type) or merge rare labels; fleiss_kappa counts "
            "such nominal data sparsely and has no limit")


def _ratings(ratings, counts, categories, weights, confidence_level, population_size, coded=None) -> Ratings:
    """The checked options and ``Ratings`` of the family's public functions."""
    check_level(confidence_level, population_size)
    data = Ratings(ratings, counts, categories, weights, coded=coded)
    if data.n == 0:
        raise ValueError("no item has a rating")
    largest = float(data.r_i.max())
    if not math.isfinite(largest * largest):
        raise ValueError(f"counts are too large: an item has {largest:g} ratings, and r_i (r_i - 1) in Gwet's "
                         "p_a overflows a float; divide the counts by a common factor (fleiss_kappa takes them as "
                         "they are)")
    _check_categories(data.q)
    return data


def _coefficient(name, ratings, counts, weights, categories, confidence_level, population_size):
    data = _ratings(ratings, counts, categories, weights, confidence_level, population_size)
    return several_rater_coefficients.get(name).result(data, confidence_level, population_size)


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
    data = _ratings(ratings, counts, categories, "identity", confidence_level, population_size)
    return _per_category(data, data.warnings, population_size, confidence_level)


class _Groups:
    """Correctly rounded sums per group (``math.fsum``), the values sorted by group once."""

    def __init__(self, groups: np.ndarray, size: int):
        self.order = np.argsort(groups, kind="stable")
        self.bounds = np.searchsorted(groups[self.order], np.arange(size + 1)).tolist()
        self.size = size

    def fsum(self, values, extra=None, chosen=None) -> np.ndarray:
        """``out[j] = fsum(values[groups == j (and chosen)] + extra[j])``."""
        ordered = np.asarray(values, dtype=float)[self.order]
        if chosen is not None:
            ordered = np.where(chosen[self.order], ordered, 0.0)
        ordered = ordered.tolist()
        rows = [[]] * self.size if extra is None else np.asarray(extra, dtype=float).reshape(self.size, -1).tolist()
        return np.array([math.fsum(ordered[self.bounds[j]:self.bounds[j + 1]] + rows[j]) for j in range(self.size)])


def _per_category(data, warnings, population_size, confidence_level) -> dict:
    """``fleiss_kappa_per_category``: every category's "k" / "not k" Fleiss kappa (``FleissKappa``'s
    variance on the table ``[r_ik, r_i - r_ik]``) from one pass over the nonzero cells. An item without ``k`` has
    ``p_a|i = 1`` (if ``r_i >= 2``), ``p_e|i = r_i pi'_k / r_i`` with ``pi'_k`` the "not k"
    proportion, and so an item term fixed by ``r_i``: such items enter every sum as (number of
    them per ``r_i``) x term. Each item's terms are the dense table's bits; the sums over items
    are correctly rounded (``math.fsum``) instead of numpy's order (values within 1e-14 of the
    dense path where that is well conditioned); the value as ``1 - D_o / D_e``, Fleiss' form."""
    n, q, r_i = data.n, data.q, data.r_i
    sizes, size_of = np.unique(r_i, return_inverse=True)  # classes of items by r_i
    outside = np.bincount(size_of, minlength=sizes.size)[None, :] - np.bincount(
        data.cells * sizes.size + size_of[data.items], minlength=q * sizes.size).reshape(q, sizes.size)
    k, c, r = data.cells, data.values, r_i[data.items]
    groups = _Groups(k, q)
    pi_in = groups.fsum(c / r) / n
    pi_out = groups.fsum((r - c) / r, outside.sum(axis=1)) / n
    pe = pi_in * pi_in + pi_out * pi_out  # quadratic_form(pi, I, pi): a sum of two rounded squares
    pairable, n2 = r >= 2, int((r_i >= 2).sum())
    pa_cell = np.where(pairable, _binary_pa(c, r), 0.0)
    pa = groups.fsum(pa_cell, outside[:, sizes >= 2].sum(axis=1), pairable) / max(n2, 1)
    # kappa_k = 1 - D_o / D_e (Fleiss 1971, eq. 11) from non-negative terms: no cancellation of p_a and
    # p_e near 1 (rare categories), where (p_a - p_e) / (1 - p_e) would lose digits
    with np.errstate(divide="ignore", invalid="ignore"):
        observed = groups.fsum(2 * c * (r - c) / (r * (r - 1)), chosen=pairable)
    defined = has_room(pe) & (n2 > 0) & (pi_in * pi_out > 0)
    value = np.where(defined, 1 - (observed / max(n2, 1)) / np.where(defined, 2 * pi_in * pi_out, 1.0), 0.0)

    def deviation(pa_i, pe_i, rows, category):  # (c*_i - c)^2 of base.linearised_variance
        room = np.where(defined, 1 - pe, 1.0)[category]
        terms = (n / max(n2, 1)) * (pa_i - pe[category] * rows) / room
        return (terms - 2 * (1 - value[category]) * (pe_i - pe[category]) / room - value[category]) ** 2

    cell_pe = (c * pi_in[k] + (r - c) * pi_out[k]) / r
    cell_terms = deviation(pa_cell, cell_pe, pairable, k)
    class_terms = deviation((sizes >= 2) * 1.0, (sizes[None, :] * pi_out[:, None]) / sizes[None, :], sizes >= 2,
                            np.arange(q)[:, None])
    total = groups.fsum(cell_terms, outside * class_terms)
    return _per_category_results(data, warnings, (pa, pe, value, total, n2, defined), population_size,
                                 confidence_level)


def _per_category_results(data, warnings, arrays, population_size, confidence_level) -> dict:
    """``{category: result dict}`` from ``_per_category``'s arrays, as ``ChanceCorrected.result`` gives them."""
    pa, pe, value, total, n2, defined = arrays
    n = data.n
    fraction = 0.0 if population_size is None else n / population_size
    out = {}
    for j, category in enumerate(data.categories):
        if n2 == 0 or not defined[j]:
            reason = NO_PAIRS if n2 == 0 else ONE_CATEGORY
            result = result_dict(None, None if n2 == 0 else float(pa[j]), float(pe[j]), None, n, confidence_level,
                                 [reason])
        else:
            variance = (1 - fraction) / (n * (n - 1)) * float(total[j]) if n > 1 else None
            result = result_dict(float(value[j]), float(pa[j]), float(pe[j]), variance, n, confidence_level, [])
        result["warnings"] = list(warnings) + result["warnings"]
        out[category] = result
    return out


def _binary_pa(c, r):
    """An item's ``p_a|i`` of the "k" / "not k" table, ``(c (c - 1) + (r - c)(r - c - 1)) / (r (r - 1))``."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return (c * (c - 1) + (r - c) * (r - c - 1)) / (r * (r - 1))


def conger_kappa(ratings, *, weights="identity", categories=None, confidence_level=0.95,
                 population_size=None) -> dict:
    """Conger's (1980) kappa: ``p_e = sum w_kl (pbar_k pbar_l - s2_kl / r)``, the mean of the
    pairwise Cohen chance agreements; Gwet's standard error (irrCAC ``conger.kappa.raw``)."""
    return _coefficient("conger_kappa", ratings, None, weights, categories, confidence_level, population_size)


def krippendorff_alpha_inference(ratings=None, *, counts=None, weights="identity", categories=None,
                                 confidence_level=0.95, population_size=None) -> dict:
    """Krippendorff's alpha with Gwet's (2014, section 2.4) standard error (irrCAC
    ``krippen.alpha.raw``/``.dist``); the weights give alpha's distance ``1 - w``. The value is
    ``krippendorff_alpha``'s, bit for bit (``rater_coefficients.krippendorff_alpha``, which also
    says how the standard error is linearised for ratings and for counts)."""
    return _coefficient("krippendorff_alpha", ratings, counts, weights, categories, confidence_level, population_size)


def light_kappa(ratings, *, weights="identity", categories=None, confidence_level=0.95) -> dict:
    """Light's (1971) kappa: the mean of Cohen's (weighted) kappa over every pair of raters, each
    on the items both rated. Returns ``value``, ``standard_error``, ``confidence_interval``,
    ``p_value`` (t with n - 1 degrees of freedom), ``n_items``, ``pairwise`` (r x r, diagonal and
    undefined pairs None), ``n_pairs`` (pairs averaged) and ``warnings``. Gwet's family has no
    analytic variance for it: the standard error is the delete-one-item jackknife,
    ``var = (n - 1)/n sum_i (L_(i) - mean L_(.))^2``."""
    return _coefficient("light_kappa", ratings, None, weights, categories, confidence_level, None)


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

    data = _ratings(ratings, counts, categories, weights, confidence_level, population_size)
    return _agreement(data, confidence_level, population_size, benchmark_scale)


def multi_rater_agreement_of_codes(codes, categories, *, weights="identity", confidence_level=0.95,
                                   population_size=None, benchmark_scale=None) -> dict:
    """``multi_rater_agreement`` of ratings already coded by ``rater_coefficients.ratings.rating_codes``
    (``codes``: items x raters category indices, -1 missing; ``categories``: their labels), so a
    caller that also needs the bare coefficients codes the labels once."""
    data = _ratings(None, None, categories, weights, confidence_level, population_size,
                    coded=(np.asarray(codes), list(categories)))
    return _agreement(data, confidence_level, population_size, benchmark_scale)


def _agreement(data, confidence_level, population_size, benchmark_scale) -> dict:
    """``multi_rater_agreement`` of ``Ratings``: every registered coefficient (those that need each
    rater's ratings only when they were given)."""
    out = {coefficient.key(data): coefficient.result(data, confidence_level, population_size)
           for coefficient in several_rater_coefficients.entries().values()
           if data.raw is not None or not coefficient.per_rater}
    if benchmark_scale is not None:
        for result in out.values():
            if result.get("standard_error") is not None:
                result["benchmark"] = benchmark(result["value"], result["standard_error"], scale=benchmark_scale)
    out["fleiss_kappa_per_category"] = {
        str(category): result for category, result in
        _per_category(data, [], population_size, confidence_level).items()
    }
    out["categories"] = [c if isinstance(c, (str, int, float)) else str(c) for c in data.categories]
    out["n_items"] = int(data.n)
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
    "multi_rater_agreement_of_codes",
    "percent_agreement",
    "weighted_fleiss_kappa",
]
