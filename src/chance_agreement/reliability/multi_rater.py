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

Computation: from the nonzero cells ``(i, k, r_ik)`` of the count table (``_Data``), never the
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

import copy
import functools
import itertools
import math

import numpy as np

from ..chance.chance_corrected import has_room
from .._numerics.exact_sum import exact_dot, ordered_matmul, quadratic_form, sparse_row_sums
from .._numerics.portable_math import t_ppf, t_sf
from .benchmark_scales import benchmark
from .multi_annotator import MAX_COUNT_CELLS, check_counts, rating_codes
from .weights import agreement_weights

COEFFICIENTS = (
    "percent_agreement", "brennan_prediger", "gwet_ac", "fleiss_kappa", "conger_kappa",
    "krippendorff_alpha", "light_kappa",
)


class _Data:
    """Ratings as the nonzero cells of the items x categories count table (``items``, ``cells``,
    ``values``: item, category and count of each, by item and then category), never the table
    itself, and per rater (``raw``) when raw ratings were given."""

    def __init__(self, ratings=None, counts=None, categories=None, weights="identity", *, coded=None):
        if coded is not None:  # ``rating_codes(ratings, categories)`` already computed by the caller
            ratings = coded
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
            n, (items, cells) = table.shape[0], np.nonzero(table)  # row by row, categories increasing
            values = table[items, cells]
        else:
            # raw[i, g] = category index of rater g's label for item i, -1 if missing
            self.raw, categories = coded if coded is not None else rating_codes(ratings, categories)
            n, (items, cells, values) = self.raw.shape[0], _cells(self.raw, len(categories))
        _check_categories(len(categories))
        self.q = len(categories)
        r_i = sparse_row_sums(items, cells, values, n, self.q)  # counts.sum(axis=1)'s bits
        rated = r_i > 0
        if not rated.all():
            self.warnings.append(f"{int((~rated).sum())} item(s) without any rating left out")
            items, r_i = (np.cumsum(rated) - 1)[items], r_i[rated]
            if self.raw is not None:
                self.raw = self.raw[rated]
        if r_i.size == 0:
            raise ValueError("no item has a rating")
        self.items, self.cells, self.values, self.r_i, self.n = items, cells, values, r_i, r_i.size
        self.categories = categories
        self.weights = agreement_weights(weights, categories)
        self.weights_name = weights if isinstance(weights, str) else "custom"

    def row_sums(self, values) -> np.ndarray:
        """``sum_k table_ik``-shaped sums of per-cell ``values`` (zeros elsewhere), the bits of the
        dense table's ``sum(axis=1)`` (``exact_sum.sparse_row_sums``)."""
        return sparse_row_sums(self.items, self.cells, values, self.n, self.q)

    def column_means(self, values) -> np.ndarray:
        """``table.mean(axis=0)``-shaped means of per-cell ``values``: numpy adds the rows of a
        reduction over axis 0 one after another, as ``bincount`` adds the cells in item order."""
        return np.bincount(self.cells, weights=values, minlength=self.q) / self.n

    def subset(self, keep):
        """The cells of the items where ``keep`` is true, renumbered (a shallow copy)."""
        out = copy.copy(self)
        chosen = keep[self.items]
        out.items, out.cells, out.values = (np.cumsum(keep) - 1)[self.items[chosen]], self.cells[chosen], self.values[chosen]
        out.r_i, out.n = self.r_i[keep], int(keep.sum())
        return out


def _cells(raw: np.ndarray, q: int):
    """``(items, categories, counts)`` of the nonzero cells of ``count_matrix(raw, q)``, in its
    row-major order, from each item's sorted codes (work items x raters, whatever ``q``)."""
    ordered = np.sort(raw, axis=1)
    keys = (np.arange(raw.shape[0], dtype=np.int64)[:, None] * q + ordered)[ordered >= 0]
    if keys.size == 0:
        return keys, keys, np.zeros(0)
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    counts = np.diff(np.r_[starts, keys.size]).astype(float)
    return keys[starts] // q, keys[starts] % q, counts


def _check_categories(q: int) -> None:
    """The family's category-by-category arrays (weights, Conger's rater covariances, Light's pair
    tables) have ``q^2`` cells: beyond ``MAX_COUNT_CELLS`` a clear error before any work."""
    if q * q > MAX_COUNT_CELLS:
        raise ValueError(
            f"{q:,} distinct labels: the several-rater family needs {q:,} x {q:,} category tables "
            f"({q * q:,} cells, limit {MAX_COUNT_CELLS:,}) for its weights, Conger's and Light's kappa; "
            "score fewer labels at once (e.g. per entity type) or merge rare labels; fleiss_kappa counts "
            "such nominal data sparsely and has no limit")


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


def _weighted(data, weights) -> np.ndarray:
    """``r*_ik = sum_l w_kl r_il`` at each nonzero cell ``(i, k)`` (the only ones the coefficients
    use), the terms in increasing ``l`` over item ``i``'s nonzero counts (the dense
    ``ordered_matmul``'s bits): work cells x (categories an item has); identity weights give the counts."""
    if np.array_equal(weights, np.eye(weights.shape[0])):
        return data.values.copy()
    starts = np.searchsorted(data.items, np.arange(data.n))  # each item's first cell
    first, size = starts[data.items], np.diff(np.r_[starts, data.items.size])[data.items]
    out = np.zeros(data.values.size)
    for position in range(int(size.max(initial=0))):
        has = size > position
        other = first[has] + position  # the item's cell of rank ``position``
        out[has] += data.values[other] * weights[data.cells[has], data.cells[other]]
    return out


def _pa_terms(data, weights):
    """``(p_a, p_a|i, r_i, pairable mask)``; ``p_a|i = sum_k r_ik (r*_ik - 1) / (r_i (r_i - 1))``, 0 if r_i < 2."""
    r_i = data.r_i
    agreeing = data.row_sums(data.values * (_weighted(data, weights) - 1.0))
    pairable = r_i >= 2
    pa_i = np.zeros_like(r_i)
    pa_i[pairable] = agreeing[pairable] / (r_i[pairable] * (r_i[pairable] - 1))
    pa = float(pa_i[pairable].mean()) if pairable.any() else None
    return pa, pa_i, r_i, pairable


def _linearised(pa, pa_i, pe, pe_i, pairable, population_size, confidence_level, warnings):
    """The chance-corrected coefficient and its Gwet (2014) linearised variance."""
    n = pa_i.size
    if pa is None:
        return _result(None, None, pe, None, n, confidence_level, warnings + [_NO_PAIRS])
    if pe is not None and not has_room(pe):
        return _result(None, pa, pe, None, n, confidence_level, warnings + [_ONE_CATEGORY])
    value = (pa - pe) / (1 - pe)
    terms = (n / pairable.sum()) * (pa_i - pe * pairable) / (1 - pe)
    if pe_i is not None:
        terms = terms - 2 * (1 - value) * (pe_i - pe) / (1 - pe)
    fraction = 0.0 if population_size is None else n / population_size
    variance = (1 - fraction) / (n * (n - 1)) * float(((terms - value) ** 2).sum()) if n > 1 else None
    return _result(float(value), pa, float(pe), variance, n, confidence_level, warnings)


_NO_PAIRS = "no item has two or more ratings"
_ONE_CATEGORY = "chance agreement is 1 (a single category is used), so the coefficient is undefined"


def _single_category(data):
    if data.q < 2:
        return ["a single category is used: chance-corrected agreement is undefined"]
    return []


def _family(name, data, population_size, confidence_level):
    weights, q = data.weights, data.q
    pa, pa_i, r_i, pairable = _pa_terms(data, weights)
    warnings = list(data.warnings)
    if name == "percent_agreement":
        return _linearised(pa, pa_i, 0.0, None, pairable, population_size, confidence_level, warnings)
    if q < 2:
        return _result(None, pa, None, None, data.n, confidence_level, warnings + _single_category(data))
    if name == "brennan_prediger":
        pe = float(weights.sum()) / q**2
        return _linearised(pa, pa_i, pe, None, pairable, population_size, confidence_level, warnings)
    pi = data.column_means(data.values / r_i[data.items])  # pi_k = 1/n sum_i r_ik / r_i
    if name == "gwet_ac":
        scale = float(weights.sum()) / (q * (q - 1))
        pe = scale * float((pi * (1 - pi)).sum())
        pe_i = scale * data.row_sums(data.values * (1 - pi)[data.cells]) / r_i
        return _linearised(pa, pa_i, pe, pe_i, pairable, population_size, confidence_level, warnings)
    if name == "fleiss_kappa":
        pe = quadratic_form(pi, weights, pi)
        pe_i = data.row_sums(data.values * ordered_matmul((weights + weights.T) / 2, pi)[data.cells]) / r_i
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
    """``fleiss_kappa_per_category``: every category's "k" / "not k" Fleiss kappa (``_family`` on the
    table ``[r_ik, r_i - r_ik]``) from one pass over the nonzero cells. An item without ``k`` has
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

    def deviation(pa_i, pe_i, rows, category):  # (c*_i - c)^2 of _linearised
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
    """``{category: result dict}`` from ``_per_category``'s arrays, as ``_linearised`` gives them."""
    pa, pe, value, total, n2, defined = arrays
    n = data.n
    fraction = 0.0 if population_size is None else n / population_size
    out = {}
    for j, category in enumerate(data.categories):
        if n2 == 0 or not defined[j]:
            reason = _NO_PAIRS if n2 == 0 else _ONE_CATEGORY
            result = _result(None, None if n2 == 0 else float(pa[j]), float(pe[j]), None, n, confidence_level, [reason])
        else:
            variance = (1 - fraction) / (n * (n - 1)) * float(total[j]) if n > 1 else None
            result = _result(float(value[j]), float(pa[j]), float(pe[j]), variance, n, confidence_level, [])
        result["warnings"] = list(warnings) + result["warnings"]
        out[category] = result
    return out


def _binary_pa(c, r):
    """An item's ``p_a|i`` of the "k" / "not k" table, ``(c (c - 1) + (r - c)(r - c - 1)) / (r (r - 1))``."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return (c * (c - 1) + (r - c) * (r - c - 1)) / (r * (r - 1))


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
    w, q = data.weights, data.q
    n, r = raw.shape
    pa, pa_i, _, pairable = _pa_terms(data, w)
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
    pairs = data.subset(data.r_i >= 2)
    n = pairs.n
    if n == 0:
        return _result(None, None, None, None, 0, confidence_level, warnings + ["no item has two or more ratings"])
    if data.q < 2:
        return _result(None, None, None, None, n, confidence_level, warnings + _single_category(data))
    r_i = pairs.r_i
    r_bar = r_i.mean()
    eps = 1.0 / r_i.sum()
    agreeing = pairs.row_sums(pairs.values * (_weighted(pairs, w) - 1.0))
    pa_prime = float((agreeing / (r_bar * (r_i - 1))).mean())
    pa = (1 - eps) * pa_prime + eps
    pi = pairs.column_means(pairs.values / r_bar)
    pe = quadratic_form(pi, w, pi)
    if not has_room(pe):
        return _result(None, pa, pe, None, n, confidence_level,
                       warnings + ["chance agreement is 1 (a single category is used), so alpha is undefined"])
    value = (pa - pe) / (1 - pe)
    pe_i = pairs.row_sums(pairs.values * ordered_matmul((w + w.T) / 2, pi)[pairs.cells]) / r_bar
    centre, terms = _alpha_variance_terms(data.raw is not None, agreeing, r_i, pa_prime, value, pe, pe_i, pi)
    fraction = 0.0 if population_size is None else n / population_size
    variance = (1 - fraction) / (n * (n - 1)) * float(((terms - centre) ** 2).sum()) if n > 1 else None
    return _result(float(value), float(pa), pe, variance, n, confidence_level, warnings)


def _alpha_variance_terms(raw: bool, agreeing, r_i, pa_prime: float, value: float, pe: float, pe_i, pi):
    """Per-item terms of alpha's linearised variance and their centre, from each item's weighted
    agreeing pairs ``agreeing``, its ratings ``r_i``, ``p'_a``, alpha, ``p_e``, its chance terms
    ``pe_i`` and the category shares ``pi``: for ratings (irrCAC ``krippen.alpha.raw``) linearised
    around ``alpha' = (p'_a - p_e)/(1 - p_e)``, for counts (``krippen.alpha.dist``) around alpha."""
    r_bar, eps = r_i.mean(), 1.0 / r_i.sum()
    if raw:
        centre = (pa_prime - pe) / (1 - pe)
        pa_i = agreeing / (r_bar * (r_i - 1)) - pa_prime * (r_i - r_bar) / r_bar
        pe_i = pe_i - pe * (r_i - r_bar) / r_bar
        return centre, (pa_i - pe) / (1 - pe) - 2 * (1 - centre) * (pe_i - pe) / (1 - pe)
    pa_i = (1 - eps) * (agreeing / (r_bar * (r_i - 1)) - pa_prime * (r_i - r_bar) / r_bar) + eps
    pe_i = pe_i - pi.sum() * (r_i - r_bar) / r_bar
    return value, (pa_i - pe) / (1 - pe) - (1 - value) * (pe_i - pe) / (1 - pe)


def _cohen(agree, chance, total):
    """Weighted Cohen's kappa from ``A = sum_ab w_ab T_ab``, ``S = sum_ab R_a w_ab C_b`` (``R``, ``C``
    the table's margins) and ``N = sum T``: ``(A/N - S/N^2) / (1 - S/N^2) = (A N - S) / (N^2 - S)``;
    NaN where undefined (no item, chance agreement 1). With identity weights ``A``, ``S`` and ``N``
    are whole numbers, exact below 2^53, so the value is correctly rounded."""
    agree, chance, total = (np.asarray(x, dtype=float) for x in (agree, chance, total))
    with np.errstate(divide="ignore", invalid="ignore"):
        square = total * total
        defined = (total > 0) & has_room(chance / square)
        return np.where(defined, (agree * total - chance) / np.where(defined, square - chance, 1.0), np.nan)


def _cohen_pair(first, second, w, q):
    """Cohen's kappa of two raters' codes on their common items, and each item's kappa without
    that item (the delete-one jackknife): removing an item of cell ``(a, b)`` changes ``N`` by
    -1, ``A`` by ``-w_ab`` and ``S`` by ``-(w C)_a - (R w)_b + w_ab``, so one pass over the
    table's nonzero cells (no q x q table per deleted cell)."""
    keys, inverse, counts = np.unique(first * q + second, return_inverse=True, return_counts=True)
    a, b = keys // q, keys % q
    rows, columns = np.bincount(first, minlength=q).astype(float), np.bincount(second, minlength=q).astype(float)
    if np.array_equal(w, np.eye(q)):  # exact whole numbers
        chance, by_row, by_column = exact_dot(rows, columns), columns, rows
    else:
        chance, by_row, by_column = quadratic_form(rows, w, columns), ordered_matmul(w, columns), ordered_matmul(w.T, rows)
    agree, total = math.fsum((w[a, b] * counts).tolist()), float(first.size)
    kappa = _cohen(agree, chance, total)
    without = _cohen(agree - w[a, b], ((chance - by_row[a]) - by_column[b]) + w[a, b], total - 1)
    return float(kappa), without[inverse.ravel()]


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
    """``light_kappa`` of ratings read into ``_Data``: per pair of raters ``_cohen_pair`` (the kappa
    and each common item's delete-one kappa from the pair's nonzero cells), items a pair did not
    rate keeping its kappa; the jackknife over the mean of the pairs."""
    raw, warnings = _raters(data)
    w = data.weights
    q = len(data.categories)
    n, r = raw.shape
    pairwise = [[None] * r for _ in range(r)]
    values, leave_one_out = [], []
    for g, h in itertools.combinations(range(r), 2):
        both = (raw[:, g] >= 0) & (raw[:, h] >= 0)
        kappa, cells = _cohen_pair(raw[both, g], raw[both, h], w, q)
        if not np.isfinite(kappa):
            continue
        pairwise[g][h] = pairwise[h][g] = kappa
        values.append(kappa)
        without = np.full(n, kappa)  # the pair's kappa without item i: unchanged unless i is a common item
        without[both] = cells
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
    return _agreement(data, confidence_level, population_size, benchmark_scale)


def multi_rater_agreement_of_codes(codes, categories, *, weights="identity", confidence_level=0.95,
                                   population_size=None, benchmark_scale=None) -> dict:
    """``multi_rater_agreement`` of ratings already coded by ``multi_annotator.rating_codes``
    (``codes``: items x raters category indices, -1 missing; ``categories``: their labels), so a
    caller that also needs the bare coefficients codes the labels once."""
    _check_level(confidence_level, population_size)
    data = _Data(None, None, categories, weights, coded=(np.asarray(codes), list(categories)))
    return _agreement(data, confidence_level, population_size, benchmark_scale)


def _agreement(data, confidence_level, population_size, benchmark_scale) -> dict:
    """``multi_rater_agreement`` of ratings already read into ``_Data``."""
    gwet = "gwet_ac1" if data.weights_name == "identity" else "gwet_ac2"
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
