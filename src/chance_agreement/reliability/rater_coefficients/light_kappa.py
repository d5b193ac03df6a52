"""Light's (1971) kappa: the mean of Cohen's (weighted) kappa over every pair of raters, each on
the items both rated. Gwet's family has no analytic variance for it: the standard error is the
delete-one-item jackknife, ``var = (n - 1)/n sum_i (L_(i) - mean L_(.))^2``, each deletion in
closed form from the pair's nonzero cells (``cohen_pair``).
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from ..._numerics.exact_sum import exact_dot, ordered_matmul, quadratic_form
from ...chance.chance_corrected import has_room
from .base import RaterCoefficient, result_dict
from .conger_kappa import rater_codes

__all__ = ["LightKappa", "cohen_of_sums", "cohen_pair", "light"]


def cohen_of_sums(agree, chance, total):
    """Weighted Cohen's kappa from ``A = sum_ab w_ab T_ab``, ``S = sum_ab R_a w_ab C_b`` (``R``, ``C``
    the table's margins) and ``N = sum T``: ``(A/N - S/N^2) / (1 - S/N^2) = (A N - S) / (N^2 - S)``;
    NaN where undefined (no item, chance agreement 1). With identity weights ``A``, ``S`` and ``N``
    are whole numbers, exact below 2^53, so the value is correctly rounded."""
    agree, chance, total = (np.asarray(x, dtype=float) for x in (agree, chance, total))
    with np.errstate(divide="ignore", invalid="ignore"):
        square = total * total
        defined = (total > 0) & has_room(chance / square)
        return np.where(defined, (agree * total - chance) / np.where(defined, square - chance, 1.0), np.nan)


def cohen_pair(first, second, w, q):
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
        chance, by_row, by_column = (quadratic_form(rows, w, columns), ordered_matmul(w, columns),
                                     ordered_matmul(w.T, rows))
    agree, total = math.fsum((w[a, b] * counts).tolist()), float(first.size)
    kappa = cohen_of_sums(agree, chance, total)
    without = cohen_of_sums(agree - w[a, b], ((chance - by_row[a]) - by_column[b]) + w[a, b], total - 1)
    return float(kappa), without[inverse.ravel()]


class LightKappa(RaterCoefficient):
    name = "light_kappa"
    title = "Light's kappa"
    per_rater = True

    def value(self, ratings):
        return self.result(ratings)["value"]

    def result(self, ratings, confidence_level=0.95, population_size=None):
        """Light's kappa: ``value``, ``standard_error``, ``confidence_interval``, ``p_value`` (t with
        n - 1 degrees of freedom), ``n_items``, ``pairwise`` (r x r, diagonal and undefined pairs
        None), ``n_pairs`` (pairs averaged) and ``warnings`` (``population_size`` is not used)."""
        return light(ratings, confidence_level)


def light(ratings, confidence_level) -> dict:
    """``light_kappa`` of ``Ratings``: per pair of raters ``cohen_pair`` (the kappa
    and each common item's delete-one kappa from the pair's nonzero cells), items a pair did not
    rate keeping its kappa; the jackknife over the mean of the pairs."""
    raw, warnings = rater_codes(ratings)
    w = ratings.weights
    q = len(ratings.categories)
    n, r = raw.shape
    pairwise = [[None] * r for _ in range(r)]
    values: list = []
    jack_total: np.ndarray | None = None  # the pairs' delete-one kappas summed pair by pair: one row, never pairs x n
    for g, h in itertools.combinations(range(r), 2):
        both = (raw[:, g] >= 0) & (raw[:, h] >= 0)
        kappa, cells = cohen_pair(raw[both, g], raw[both, h], w, q)
        if not np.isfinite(kappa):
            continue
        pairwise[g][h] = pairwise[h][g] = kappa
        values.append(kappa)
        without = np.full(n, kappa)  # the pair's kappa without item i: unchanged unless i is a common item
        without[both] = cells
        jack_total = without if jack_total is None else jack_total + without  # np.mean(axis=0)'s order
    if len(values) < r * (r - 1) // 2:
        warnings.append(f"{r * (r - 1) // 2 - len(values)} pair(s) of raters with no common item or chance "
                        "agreement 1 left out of the mean")
    value = float(np.mean(values)) if values else None
    variance = None
    if values and jack_total is not None:
        jack: np.ndarray = jack_total / len(values)
        if np.all(np.isfinite(jack)) and n > 1:
            variance = (n - 1) / n * float(((jack - jack.mean()) ** 2).sum())
        else:
            warnings.append("a pair's kappa is undefined without some item: no jackknife standard error")
    result = result_dict(value, None, None, variance, n, confidence_level, warnings)
    for key in ("observed_agreement", "expected_agreement"):
        del result[key]
    result.update({"pairwise": pairwise, "n_pairs": len(values)})
    return result
