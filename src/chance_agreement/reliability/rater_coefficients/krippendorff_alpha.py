"""Krippendorff's alpha of several raters: one value, from the coincidence matrix, and Gwet's inference.

``alpha = 1 - D_o / D_e`` (Krippendorff 2011, "Computing Krippendorff's alpha-reliability")::

    o_ck = sum_u (number of c-k pairs in unit u) / (m_u - 1)   (units with m_u >= 2 values)
    n_c = sum_k o_ck,  n = sum_c n_c
    D_o = 1/n sum_ck o_ck delta_ck,   D_e = 1/(n(n-1)) sum_ck n_c n_k delta_ck

``KrippendorffAlpha.disagreements`` is the one place alpha is computed: ``krippendorff_alpha``
(any distance), ``krippendorff_alpha_inference`` and ``multi_rater_agreement`` (distance
``1 - w`` of Gwet's weights; nominal with identity weights, the same matrix as "nominal") all read
it. The coincidence matrix is a sum of integer tables, one per unit size, added in increasing size
(``combine_pair_tables``), so it has the same bits however it is counted: from each pair of raters
(``coincidences_from_codes``) or from the items x categories count table (``coincidence_matrix``).

The standard error is Gwet's (2014, section 2.4; irrCAC ``krippen.alpha.raw``/``.dist``): over the
``n`` items with ``r_i >= 2``, ``p_a = (1 - eps) p'_a + eps``, ``p'_a = 1/n sum_i sum_k r_ik
(r*_ik - 1) / (rbar (r_i - 1))``, ``eps = 1 / sum r_i``, ``pi_k = 1/n sum_i r_ik / rbar``,
``p_e = sum w_kl pi_k pi_l`` (``(p_a - p_e) / (1 - p_e)`` is alpha, in other rounding: its
``observed_agreement`` and ``expected_agreement`` are these ``p_a`` and ``p_e``). irrCAC
linearises differently for raw ratings (``.raw``: around ``alpha'``, the ``p_e`` term doubled)
and for counts (``.dist``: around alpha, ``p_a|i`` shrunk by ``1 - eps``, the ``p_e`` term
single); both are reproduced, chosen by the input form, so the same data give slightly different
standard errors as ratings and as counts (0.0812 and 0.0824 on irrCAC's distrib.6raters).
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from ..._numerics.compiled import compiled_kernels
from ..._numerics.exact_sum import ordered_matmul, quadratic_form
from ...chance.chance_corrected import has_room
from .base import NO_PAIRS, RaterCoefficient, result_dict, single_category, weighted_cells
from .ratings import MAX_COUNT_CELLS

__all__ = ["KrippendorffAlpha", "coincidence_matrix", "coincidences_from_codes", "coincidences_of",
           "combine_pair_tables", "patterns_fit", "variance_terms"]

def combine_pair_tables(tables: dict[int, np.ndarray], q: int) -> np.ndarray:
    """``o_ck = sum_m N_m[c, k] / (m - 1)``, summed in increasing ``m``: ``N_m`` counts the ordered
    pairs of values ``(c, k)`` from two different annotators of a unit with ``m`` values (exact
    integers), so the matrix is the same bits whatever the order of units or how they were counted.
    ``q`` categories: with no pairable unit a ``q x q`` matrix of zeros."""
    out = np.zeros((q, q))
    for m in sorted(tables):
        out = out + tables[m] / (m - 1.0)
    return out


def coincidence_matrix(counts: np.ndarray) -> np.ndarray:
    """o_ck = sum_u n_uc (n_uk - [c == k]) / (m_u - 1) over units with m_u >= 2 values (Krippendorff
    2011, the coincidence matrix), one integer table per unit size (``combine_pair_tables``)."""
    m_u = counts.sum(axis=1)
    tables = {}
    for m in np.unique(m_u[m_u >= 2]):
        rows = counts[m_u == m]
        tables[int(m)] = ordered_matmul(rows.T, rows) - np.diag(rows.sum(axis=0))
    return combine_pair_tables(tables, counts.shape[1])


def coincidences_from_codes(codes: np.ndarray, n_categories: int) -> np.ndarray:
    """``coincidence_matrix(count_matrix(codes, q))`` without the items x categories table, counted
    the first way that applies, the same integer tables each way: the units grouped by their
    category counts (``_coincidences_by_pattern``), each item's pairs from its category counts in
    the compiled kernels (``_compiled_pair_tables``), or the pairs of annotators counted by one
    ``bincount`` each, per unit size (``_annotator_pair_tables``; memory ``O(sizes q^2)``)."""
    by_pattern = _coincidences_by_pattern(codes, n_categories)
    if by_pattern is not None:
        return by_pattern
    compiled = _compiled_pair_tables(codes, n_categories)
    return compiled if compiled is not None else _annotator_pair_tables(codes, n_categories)


def _compiled_pair_tables(codes: np.ndarray, q: int) -> np.ndarray | None:
    """``coincidences_from_codes`` by the compiled ``pair_tables``, or None without the kernels or
    where its ``(raters + 1) q^2`` cells would pass ``MAX_COUNT_CELLS``."""
    kernels = compiled_kernels()
    n, raters = codes.shape
    if kernels is None or (raters + 1) * q * q > MAX_COUNT_CELLS:
        return None
    counted = np.zeros((raters + 1) * q * q, dtype=np.int64)
    kernels.pair_tables(n, raters, q, np.ascontiguousarray(codes, dtype=np.int64), counted)
    counted = counted.reshape(raters + 1, q, q)
    return combine_pair_tables({m: counted[m].astype(float) for m in range(2, raters + 1) if counted[m].any()}, q)


def _annotator_pair_tables(codes: np.ndarray, q: int) -> np.ndarray:
    """``coincidences_from_codes`` from the pairs of annotators, one ``bincount`` each, per unit size."""
    given = codes >= 0
    m_u = given.sum(axis=1)
    sizes = np.unique(m_u[m_u >= 2])
    if sizes.size * q * q > MAX_COUNT_CELLS:
        raise ValueError(
            f"{q:,} distinct labels need {q * q:,} coincidence cells per unit size ({sizes.size} sizes; limit "
            f"{MAX_COUNT_CELLS:,}): score per entity type or merge rare labels (fleiss_kappa has no limit); "
            "numeric (interval) labels can also be rounded or binned")
    tables = {}
    for m in sizes:
        unit = codes[m_u == m]
        pairs = np.zeros(q * q, dtype=np.int64)
        for g, h in itertools.combinations(range(codes.shape[1]), 2):
            both = (unit[:, g] >= 0) & (unit[:, h] >= 0)
            pairs += np.bincount(unit[both, g] * q + unit[both, h], minlength=q * q)
        table = pairs.reshape(q, q)
        tables[int(m)] = (table + table.T).astype(float)
    return combine_pair_tables(tables, q)


# the largest number of distinct count patterns x q^2 that ``_coincidences_by_pattern`` expands at once
_PATTERN_CELLS = 1 << 22


def patterns_fit(raters: int, q: int) -> bool:
    """Whether a unit's category counts fit in one int64 as a base ``raters + 1`` number (and
    ``q`` is small enough for the pattern tables): ``_coincidences_by_pattern`` can count them."""
    return 1 <= q <= 64 and (raters + 1) ** q <= 2**62


def _coincidences_by_pattern(codes: np.ndarray, q: int) -> np.ndarray | None:
    """``coincidences_from_codes`` from the units grouped by their category counts: each unit's
    counts ``n_uc`` as one number ``sum_c n_uc (r + 1)^c`` (its pattern), the distinct patterns
    counted (``bincount`` over a small range, else ``unique``), and each size's integer table
    ``sum_p (units with p) (n_pc n_pk - [c == k] n_pc)`` from the distinct patterns alone: the
    same exact integers as the pairs of annotators. None where the patterns do not fit
    (``patterns_fit``) or are too many to expand (``_PATTERN_CELLS``)."""
    n, raters = codes.shape
    if not patterns_fit(raters, q):
        return None
    base = raters + 1
    powers = np.append(base ** np.arange(q, dtype=np.int64), 0)  # a missing code (-1) counts nothing
    patterns = powers[codes].sum(axis=1)
    if base**q <= 4 * n + 1024:
        times = np.bincount(patterns)
        distinct = np.flatnonzero(times)
        times = times[distinct]
    else:
        distinct, times = np.unique(patterns, return_counts=True)
    if distinct.size * q * q > _PATTERN_CELLS:
        return None
    counts = (distinct[:, None] // powers[None, :q]) % base  # n_pc
    sizes = counts.sum(axis=1)
    pairable = sizes >= 2
    counts, sizes, times = counts[pairable], sizes[pairable], times[pairable]
    pairs = counts[:, :, None] * counts[:, None, :] - counts[:, :, None] * np.eye(q, dtype=np.int64)
    pairs *= times[:, None, None]
    return combine_pair_tables({int(m): pairs[sizes == m].sum(axis=0).astype(float) for m in np.unique(sizes)}, q)


def coincidences_of(ratings) -> np.ndarray:
    """The coincidence matrix of ``Ratings``: from each rater's codes, or from the count table."""
    if ratings.raw is not None:
        return coincidences_from_codes(ratings.raw, ratings.q)
    return coincidence_matrix(ratings.table)


class KrippendorffAlpha(RaterCoefficient):
    name = "krippendorff_alpha"
    title = "Krippendorff's alpha"

    @staticmethod
    def disagreements(coincidences: np.ndarray, delta: np.ndarray, scale: int = 0) -> dict:
        """``alpha``, ``observed_disagreement``, ``expected_disagreement`` (times ``2**scale``:
        ``delta`` is the distance divided by it), ``n_pairable_values`` and ``warnings`` (why alpha
        is None) of a coincidence matrix and a distance matrix (module docstring)."""
        marginals = coincidences.sum(axis=1)
        n = float(marginals.sum())
        warnings: list[str] = []
        result: dict[str, Any] = {"alpha": None, "observed_disagreement": None, "expected_disagreement": None,
                                  "n_pairable_values": round(n), "warnings": warnings}
        if n < 2:
            warnings.append("fewer than two pairable values: alpha is undefined")
            return result
        observed = float(np.sum(coincidences * delta) / n)
        expected = float(np.sum(np.outer(marginals, marginals) * delta) / (n * (n - 1.0)))
        try:
            result["observed_disagreement"] = math.ldexp(observed, scale)
            result["expected_disagreement"] = math.ldexp(expected, scale)
        except OverflowError:
            raise ValueError(
                "the labels are too far apart: their squared differences overflow a float "
                "(rescale the labels; interval alpha does not change)"
            ) from None
        # undefined exactly when no two pairable values differ (D_e = 0); all terms of D_e are
        # non-negative, so a positive distance between two used categories makes it positive
        used = marginals > 0
        if not np.any(delta[np.ix_(used, used)] > 0):
            warnings.append("expected disagreement is 0 (a single value is used), so alpha is undefined")
            return result
        result["alpha"] = float(1.0 - observed / expected)
        return result

    def value(self, ratings):
        distance = 1.0 - np.eye(ratings.q) if ratings.identity else 1.0 - ratings.weights
        return self.disagreements(coincidences_of(ratings), distance)["alpha"]

    def result(self, ratings, confidence_level=0.95, population_size=None):
        warnings = list(ratings.warnings)
        pairs = ratings.subset(ratings.r_i >= 2)
        n = pairs.n
        if n == 0:
            return result_dict(None, None, None, None, 0, confidence_level, [*warnings, NO_PAIRS])
        if ratings.q < 2:
            return result_dict(None, None, None, None, n, confidence_level, warnings + single_category(ratings))
        w, r_i = ratings.weights, pairs.r_i
        r_bar, eps = r_i.mean(), 1.0 / r_i.sum()
        agreeing = pairs.row_sums(pairs.values * (weighted_cells(pairs) - 1.0))
        pa_prime = float((agreeing / (r_bar * (r_i - 1))).mean())
        pa = (1 - eps) * pa_prime + eps
        pi = pairs.column_means(pairs.values / r_bar)
        pe = quadratic_form(pi, w, pi)
        value = self.value(ratings)
        if value is None:
            return result_dict(None, pa, pe, None, n, confidence_level,
                               [*warnings, "chance agreement is 1 (a single category is used), so alpha is undefined"])
        variance = None
        if has_room(pe):
            pe_i = pairs.row_sums(pairs.values * ordered_matmul((w + w.T) / 2, pi)[pairs.cells]) / r_bar
            centre, terms = variance_terms(ratings.raw is not None, agreeing, r_i, pa_prime, value, pe, pe_i, pi)
            fraction = 0.0 if population_size is None else n / population_size
            variance = (1 - fraction) / (n * (n - 1)) * float(((terms - centre) ** 2).sum()) if n > 1 else None
        return result_dict(value, float(pa), pe, variance, n, confidence_level, warnings)


def variance_terms(raw: bool, agreeing, r_i, pa_prime: float, value: float, pe: float, pe_i, pi):
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
