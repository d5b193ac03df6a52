"""Slow exact algorithms kept as the tests' oracles (moved out of ``src/``, where they sat behind a
``reference=`` flag): the random model's distributions from the full Proposition-3 band, one
segment at a time, with no closed forms, no exact-integer path and no converged band.

- ``band_mass_reference``: the band before the grouped table and the converged band (was
  ``non_overlapping_bands._band_mass_reference``);
- ``ordered_matmul_reference``: ``exact_sum.ordered_matmul`` over every product, zeros included
  (before a mostly-zero right factor was multiplied sparsely);
- ``count_table_reference``: ``document_bands._count_table`` over the whole table at every step
  (before the table was limited to the part a step can reach);
- ``two_ended_reference``, ``coverage_reference``, ``start_distribution_reference``: what
  ``non_overlapping_bands._two_ended``, ``_coverage_of`` and ``_start_distribution_of`` computed with
  ``reference=True``;
- ``long_side_reference``, ``compact_start_among_reference``, ``expected_matches_reference``: the
  long-unit check one excess at a time, a segment's compact start form one length at a time, and
  ``exact_expectations.expected_matches`` one ``compact_dot`` at a time (before a side's lengths and
  a corpus's groups were formed together);
- ``holds_mass_reference``, ``factor_shifts_reference``, ``tail_rows_reference``:
  ``document_bands._holds_mass`` one band at a time (``math.fsum``), ``_factor_shifts``' check by
  numpy's ``cumprod`` and ``tail_rows`` in one block.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np

from chance_agreement._numerics.exact_sum import exact_dot, ordered_matmul, quadratic_form
from chance_agreement.chance.random_models import NonOverlapping, non_overlapping_bands
from chance_agreement.chance.random_models.exact_expectations import compact_dot
from chance_agreement.chance.random_models.non_overlapping_bands import _hypergeometric_matrix, _j_cap, _mirror_fill, _subset_excess_table

__all__ = ["DenseRatings", "alpha_inference_reference", "alpha_value_reference", "fleiss_value_reference", "band_mass_reference", "cohen_from_table_reference",
           "compact_start_among_reference", "conger_item_terms_reference", "count_table_reference", "coverage_reference",
           "expected_matches_reference", "factor_shifts_reference", "family_reference", "holds_mass_reference",
           "long_side_reference", "tail_rows_reference",
           "light_reference", "ordered_matmul_reference", "pa_terms_reference", "per_category_reference", "start_distribution_reference",
           "two_ended_reference", "weighted_counts_reference"]


def band_mass_reference(slots: int, draws: int, excesses: list[int], length: int, scale: float) -> np.ndarray:
    """``out[t] = scale * sum_{q + x = t} sum_j HG(j; slots, q, draws) D_j(x)`` for ``t < length``,
    the whole band in one matrix product (``non_overlapping_bands._band_mass``'s oracle)."""
    out = np.zeros(length)
    if length == 0:
        return out
    rows = min(length, slots + 1)
    j_cap = _j_cap(slots, draws, rows)
    hyper = _hypergeometric_matrix(slots, draws, rows, j_cap)
    x_max = min(length - 1, sum(excesses), j_cap * max(excesses, default=0))
    table = _subset_excess_table(excesses, j_cap, x_max)
    joint = ordered_matmul(hyper, table)  # joint[q, x] = P(slot q, excess x before it)
    if rows <= x_max + 1:
        for q in range(rows):
            stop = min(length, q + x_max + 1)
            out[q:stop] += joint[q, : stop - q]
    else:
        for x in range(x_max + 1):
            stop = min(length, x + rows)
            out[x:stop] += joint[: stop - x, x]
    out *= scale
    return out


def ordered_matmul_reference(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """``left @ right`` in ``ordered_matmul``'s order over the dense factors: increasing ``k`` for
    ``k <= n``, else numpy's pairwise ``add.reduce`` of each column's products."""
    left, right = np.asarray(left, dtype=float), np.asarray(right, dtype=float)
    inner, columns = right.shape
    if inner <= columns:
        out = np.zeros((left.shape[0], columns))
        for k in range(inner):
            out += left[:, k, None] * right[k]
        return out
    return np.stack([np.add.reduce(left * right[:, j], axis=1) for j in range(columns)], axis=1).reshape(left.shape[0], columns)


def count_table_reference(excesses: list[int], rows: int, columns: int) -> np.ndarray:
    """``c[j, x]``: ``j``-subsets of ``excesses`` with total excess ``x`` (``j < rows``, ``x < columns``),
    one segment at a time over the whole table: ``c_j(x) += c_{j-1}(x - e)``."""
    table = np.zeros((rows, columns))
    table[0, 0] = 1.0
    for excess in excesses:
        if rows > 1 and excess < columns:
            table[1:, excess:] += table[:-1, : columns - excess]
    return table


def two_ended_reference(size: int, slots: int, draws: int, excesses: list[int], scale: Fraction, mass: int,
                        complement: bool = False) -> np.ndarray:
    """``non_overlapping_bands._two_ended`` with the full Proposition-3 band ``E`` at each end."""
    total_excess = sum(excesses)
    scale, mass = float(scale), float(mass)
    if size < 2 * total_excess + 1:  # no flat middle: every value from the band computation
        out = band_mass_reference(slots, draws, excesses, size, scale)
    else:
        out = _mirror_fill(band_mass_reference(slots, draws, excesses, total_excess, scale), size, mass)
    return 1.0 - out if complement else out


def coverage_reference(n: int, lengths: tuple[int, ...], model: str) -> np.ndarray:
    """Coverage probabilities of every token (``non_overlapping_bands._coverage_of``'s oracle)."""
    k = len(lengths)
    if model == "overlapping" or k == 1:  # one segment: both models place it uniformly
        cover = [Fraction(0)] * n
        for length in lengths:  # every start equally likely; each covers its ``length`` tokens
            for start in range(n - length + 1):
                for t in range(start, start + length):
                    cover[t] += Fraction(1, n - length + 1)
        return np.array([float(c) for c in cover])
    total = sum(lengths)
    if k == 0:
        return np.zeros(n)
    if total == n:
        return np.ones(n)
    slots = n - (total - k)
    return two_ended_reference(n, slots - 1, k, [a - 1 for a in lengths], Fraction(slots - k, slots), n - total,
                               complement=True)


def start_distribution_reference(n: int, others: tuple[int, ...], length: int, model: str) -> np.ndarray:
    """``P(start = l)`` of a segment of ``length`` among ``others`` (``non_overlapping_bands._start_distribution_of``'s oracle)."""
    support = n - length + 1
    if model == "overlapping" or not others:
        return np.full(support, 1.0 / support)
    excess_others = [a - 1 for a in others]
    slots = n - sum(excess_others) - (length - 1)
    return two_ended_reference(support, slots - 1, len(others), excess_others, Fraction(1, slots), 1)



def holds_mass_reference(n: int, total: int, excess: int, band: np.ndarray, flat: float) -> bool:
    """``document_bands._holds_mass`` of one band: ``V`` sums to ``n - E`` over its ``n - e`` positions."""
    slots = n - total
    mass = 2.0 * math.fsum(band.tolist()) + (n - excess - 2 * band.size) * flat
    return math.isfinite(mass) and abs(mass - slots) <= 2.0**-40 * slots


def factor_shifts_reference(scale: float, draws: int, rows: int) -> np.ndarray:
    """``document_bands._factor_shifts`` with its check by numpy's ``cumprod``."""
    shifts = np.zeros(rows, dtype=np.int64)
    index = np.arange(1, min(rows, draws + 1), dtype=float)
    plain = np.cumprod(scale * index / np.maximum(draws - index + 1.0, 1.0))
    if plain.min(initial=1.0) >= 2.0**-1000 and plain.max(initial=1.0) <= 2.0**1000:
        return shifts
    mantissa, exponent = 1.0, 0
    for j in range(1, min(rows, draws + 1)):
        mantissa, step = math.frexp(mantissa * (scale * j / max(draws - j + 1.0, 1.0)))
        exponent += step
        shifts[j] = max(0, -1000 - exponent)
    shifts[min(rows, draws + 1):] = shifts[min(rows, draws + 1) - 1] if rows > draws + 1 else 0
    return shifts


def long_side_reference(n: int, lengths: tuple[int, ...], excess: int) -> bool:
    """``non_overlapping_bands._long_side``, one excess at a time."""
    bands = non_overlapping_bands
    if n < bands._LONG_UNIT:
        return False
    total, positive = sum(lengths) - len(lengths), sum(1 for a in lengths if a > 1)
    band = total - excess
    positive -= excess > 0
    if not (band > 0 and n - excess >= 2 * band + 1 and n - total - 1 - band >= positive):
        return False
    return total <= bands._LONG_BAND or bands._dense_side(n, lengths)


def compact_start_among_reference(n: int, lengths: tuple[int, ...], length: int):
    """``non_overlapping_bands.compact_start_among``, one length at a time: the band from the band
    cache, divided on its own, else ``compact_start``."""
    bands = non_overlapping_bands
    if len(lengths) > 1 and long_side_reference(n, lengths, length - 1) and (
            band := bands._long_bands.band(n, lengths, length - 1)) is not None:
        slots = n - (sum(lengths) - len(lengths))
        return band[0] / slots, band[1] / slots
    others = list(lengths)
    others.remove(length)
    return bands.compact_start(n, tuple(others), length)


def expected_matches_reference(model, n: int, lengths_a: tuple, lengths_b: tuple) -> float:
    """``exact_expectations.expected_matches``, one shared length and one ``compact_dot`` at a time
    (the non-overlapping model's compact forms from ``compact_start_among_reference``)."""
    if lengths_b < lengths_a:
        lengths_a, lengths_b = lengths_b, lengths_a
    if len(lengths_a) == 1 and len(lengths_b) == 1 and model.single_segment_uniform:
        return 1.0 / (n - lengths_a[0] + 1) if lengths_a == lengths_b else 0.0
    start = compact_start_among_reference if isinstance(model, NonOverlapping) else \
        lambda size, lengths, length: model.compact_start_among(size, lengths, length)
    total = 0.0
    for length in sorted(set(lengths_a) & set(lengths_b)):
        first, second = start(n, lengths_a, length), start(n, lengths_b, length)
        if first is not None and second is not None:
            product = compact_dot(n - length + 1, first, second)
        else:
            others_a, others_b = list(lengths_a), list(lengths_b)
            others_a.remove(length)
            others_b.remove(length)
            product = exact_dot(model.start_distribution(n, tuple(others_a), length),
                                model.start_distribution(n, tuple(others_b), length))
        total += lengths_a.count(length) * lengths_b.count(length) * product
    return total


def conger_item_terms_reference(raw: np.ndarray, weights: np.ndarray, categories: int) -> np.ndarray:
    """Conger's ``lam_ig = n/n_g sum_k (sum_l (d_igl - c_ig p_gl) w_kl) (r pbar_k - p_gk)`` through
    the dense items x raters x categories arrays (``conger_kappa.conger_item_terms``'s oracle, as
    ``conger_kappa`` computed it before it counted sparsely)."""
    n, r = raw.shape
    onehot = (raw[:, :, None] == np.arange(categories)).astype(float)  # n x r x q
    rated = (raw >= 0).astype(float)
    per_rater = onehot.sum(axis=0)
    n_g = per_rater.sum(axis=1)
    p_gk = per_rater / n_g[:, None]
    p_bar = p_gk.mean(axis=0)
    centred = onehot - (rated - n_g / n)[:, :, None] * p_gk[None, :, :]
    lam_k = ordered_matmul(centred.reshape(-1, categories), weights.T).reshape(centred.shape) * (n / n_g)[None, :, None]
    return (lam_k * (r * p_bar[None, None, :] - p_gk[None, :, :])).sum(axis=2)


# ---- the several-rater family through the dense items x categories count table -----------------
# (``multi_rater`` computed it so before it counted sparsely; its oracle: the same formulas, the table
# built with ``count_matrix`` and every per-item sum a numpy row reduction)

class DenseRatings:
    """Ratings as the dense items x categories count table (``rater_coefficients.ratings.Ratings`` before it was sparse)."""

    def __init__(self, ratings=None, counts=None, categories=None, weights="identity"):
        from chance_agreement.reliability.rater_coefficients.ratings import check_counts, count_matrix, rating_codes
        from chance_agreement.reliability.weights import agreement_weights

        self.warnings = []
        if counts is not None:
            table = check_counts(counts)
            categories = list(range(1, table.shape[1] + 1)) if categories is None else list(categories)
            self.raw = None
        else:
            self.raw, categories = rating_codes(ratings, categories)
            table = count_matrix(self.raw, len(categories))
        rated = table.sum(axis=1) > 0
        if not rated.all():
            self.warnings.append(f"{int((~rated).sum())} item(s) without any rating left out")
            table = table[rated]
            self.raw = None if self.raw is None else self.raw[rated]
        self.categories, self.counts = categories, table
        self.weights = agreement_weights(weights, categories)


def weighted_counts_reference(counts, weights):
    """``r*_ik = sum_l w_kl r_il``, the terms in increasing ``l`` over each item's nonzero counts."""
    if np.array_equal(weights, np.eye(weights.shape[0])):
        return counts.copy()
    out = np.zeros((counts.shape[0], weights.shape[0]))
    rows, columns = np.nonzero(counts)
    if rows.size:
        rank = np.arange(rows.size) - np.searchsorted(rows, rows)
        for position in range(int(rank.max()) + 1):
            chosen = rank == position
            items, categories = rows[chosen], columns[chosen]
            out[items] += counts[items, categories][:, None] * weights[:, categories].T
    return out


def pa_terms_reference(counts, weights):
    r_i = counts.sum(axis=1)
    agreeing = (counts * (weighted_counts_reference(counts, weights) - 1.0)).sum(axis=1)
    pairable = r_i >= 2
    pa_i = np.zeros_like(r_i)
    pa_i[pairable] = agreeing[pairable] / (r_i[pairable] * (r_i[pairable] - 1))
    pa = float(pa_i[pairable].mean()) if pairable.any() else None
    return pa, pa_i, r_i, pairable


def fleiss_value_reference(counts, weights):
    """Fleiss' kappa ``1 - D_o / D_e`` (``rater_coefficients.fleiss_kappa``) through the dense
    items x categories table: each item's terms over all its categories (zeros add no bit)."""
    from chance_agreement.reliability.table_coefficients.base import pair_disagreement

    r_i = counts.sum(axis=1)
    pi = (counts / r_i[:, None]).mean(axis=0)
    pairable = r_i >= 2
    a, r = counts[pairable], r_i[pairable][:, None]
    identity = np.array_equal(weights, np.eye(weights.shape[0]))
    others = r - a if identity else weighted_counts_reference(a, 1.0 - weights)
    chance = pair_disagreement(pi, pi) if identity else quadratic_form(pi, 1.0 - weights, pi)
    if np.count_nonzero(pi) <= 1 or chance == 0:
        return None
    return float(1.0 - float(np.mean(((a / r) * (others / (r - 1))).sum(axis=1))) / chance)


def family_reference(name, counts, weights, warnings, population_size=None, confidence_level=0.95):
    from chance_agreement.chance.chance_corrected import has_room
    from chance_agreement.reliability.rater_coefficients.base import (
        NO_PAIRS, ONE_CATEGORY, linearised_variance, result_dict,
    )

    q, n = counts.shape[1], counts.shape[0]
    pa, pa_i, r_i, pairable = pa_terms_reference(counts, weights)
    warnings = list(warnings)
    if name != "percent_agreement" and q < 2:
        return result_dict(None, pa, None, None, n, confidence_level,
                           warnings + ["a single category is used: chance-corrected agreement is undefined"])
    pi = (counts / r_i[:, None]).mean(axis=0)
    scale = float(weights.sum()) / (q * (q - 1)) if q > 1 else None
    pe, pe_i = {
        "percent_agreement": lambda: (0.0, None),
        "brennan_prediger": lambda: (float(weights.sum()) / q**2, None),
        "gwet_ac": lambda: (scale * float((pi * (1 - pi)).sum()), scale * ordered_matmul(counts, 1 - pi) / r_i),
        "fleiss_kappa": lambda: (quadratic_form(pi, weights, pi),
                                 ordered_matmul(counts, ordered_matmul((weights + weights.T) / 2, pi)) / r_i),
    }[name]()
    if pa is None:
        return result_dict(None, None, pe, None, n, confidence_level, warnings + [NO_PAIRS])
    if name == "fleiss_kappa":
        value = fleiss_value_reference(counts, weights)
    else:
        value = float((pa - pe) / (1 - pe)) if has_room(pe) else None
    if value is None:
        return result_dict(None, pa, pe, None, n, confidence_level, warnings + [ONE_CATEGORY])
    variance = linearised_variance(value, pa_i, pe, pe_i, pairable, population_size) if has_room(pe) else None
    return result_dict(value, pa, float(pe), variance, n, confidence_level, warnings)


def per_category_reference(counts, categories, population_size=None, confidence_level=0.95):
    """Fleiss' kappa of each category: one dense pass per category over its "k" / "not k" table."""
    out = {}
    for k, category in enumerate(categories):
        binary = np.stack([counts[:, k], counts.sum(axis=1) - counts[:, k]], axis=1)
        out[category] = family_reference("fleiss_kappa", binary, np.eye(2), [], population_size, confidence_level)
    return out


def alpha_value_reference(counts, weights):
    """Krippendorff's alpha ``1 - D_o / D_e`` through the dense count table: the coincidence matrix
    as one integer table per unit size, added in increasing size, distance ``1 - w``."""
    m_u = counts.sum(axis=1)
    q = counts.shape[1]
    coincidences = np.zeros((q, q))
    for m in np.unique(m_u[m_u >= 2]):
        rows = counts[m_u == m]
        coincidences = coincidences + (ordered_matmul(rows.T, rows) - np.diag(rows.sum(axis=0))) / (m - 1.0)
    delta = 1.0 - weights
    marginals = coincidences.sum(axis=1)
    total = float(marginals.sum())
    used = marginals > 0
    if total < 2 or not np.any(delta[np.ix_(used, used)] > 0):
        return None
    observed = float(np.sum(coincidences * delta) / total)
    return float(1.0 - observed / float(np.sum(np.outer(marginals, marginals) * delta) / (total * (total - 1.0))))


def alpha_inference_reference(data, population_size=None, confidence_level=0.95):
    from chance_agreement.chance.chance_corrected import has_room
    from chance_agreement._numerics.exact_sum import quadratic_form
    from chance_agreement.reliability.rater_coefficients.base import result_dict
    from chance_agreement.reliability.rater_coefficients.krippendorff_alpha import variance_terms

    w, warnings = data.weights, list(data.warnings)
    counts = data.counts[data.counts.sum(axis=1) >= 2]
    n = counts.shape[0]
    if n == 0 or counts.shape[1] < 2:
        return None
    r_i = counts.sum(axis=1)
    r_bar, eps = r_i.mean(), 1.0 / r_i.sum()
    agreeing = (counts * (weighted_counts_reference(counts, w) - 1.0)).sum(axis=1)
    pa_prime = float((agreeing / (r_bar * (r_i - 1))).mean())
    pa = (1 - eps) * pa_prime + eps
    pi = (counts / r_bar).mean(axis=0)
    pe = quadratic_form(pi, w, pi)
    value = alpha_value_reference(counts, w)
    if value is None:
        return None
    variance = None
    if has_room(pe):
        pe_i = ordered_matmul(counts, ordered_matmul((w + w.T) / 2, pi)) / r_bar
        # the dense inputs; the linearisation itself is the library's (one formula)
        centre, terms = variance_terms(data.raw is not None, agreeing, r_i, pa_prime, value, pe, pe_i, pi)
        fraction = 0.0 if population_size is None else n / population_size
        variance = (1 - fraction) / (n * (n - 1)) * float(((terms - centre) ** 2).sum()) if n > 1 else None
    return result_dict(float(value), float(pa), pe, variance, n, confidence_level, warnings)


def cohen_from_table_reference(table, w):
    from chance_agreement.chance.chance_corrected import has_room
    from chance_agreement._numerics.exact_sum import quadratic_form

    total = table.sum()
    if total == 0:
        return None
    p = table / total
    pe = quadratic_form(p.sum(axis=1), w, p.sum(axis=0))
    if not has_room(pe):
        return None
    return (float((w * p).sum()) - pe) / (1 - pe)


def light_reference(raw, w, q):
    """Light's kappa and its delete-one jackknife standard error, every deleted item's pair tables
    recomputed from a q x q table (``(value, standard_error, pairwise)``; None where undefined)."""
    n, r = raw.shape
    pairwise = [[None] * r for _ in range(r)]
    values, leave_one_out = [], []
    for g, h in itertools.combinations(range(r), 2):
        both = (raw[:, g] >= 0) & (raw[:, h] >= 0)
        table = np.zeros((q, q))
        np.add.at(table, (raw[both, g], raw[both, h]), 1.0)
        kappa = cohen_from_table_reference(table, w)
        if kappa is None:
            continue
        pairwise[g][h] = pairwise[h][g] = kappa
        values.append(kappa)
        without = np.full(n, kappa)
        for a, b in zip(*np.nonzero(table)):
            table[a, b] -= 1
            cell = cohen_from_table_reference(table, w)
            table[a, b] += 1
            without[both & (raw[:, g] == a) & (raw[:, h] == b)] = np.nan if cell is None else cell
        leave_one_out.append(without)
    if not values:
        return None, None, pairwise
    jack = np.mean(leave_one_out, axis=0)
    se = math.sqrt((n - 1) / n * float(((jack - jack.mean()) ** 2).sum())) if np.all(np.isfinite(jack)) and n > 1 else None
    return float(np.mean(values)), se, pairwise


def _ieee_divide(a: float, b: float) -> float:
    """``a / b`` as IEEE arithmetic gives it (numpy's), a zero divisor included."""
    if b:
        return a / b
    return math.copysign(math.inf, a) * math.copysign(1.0, b) if a else math.nan


def tail_rows_reference(slots, draws, last) -> np.ndarray:
    """``document_bands.tail_rows`` from its definition, one ``(N, K', t)`` at a time in Python: the
    terms ``r_0 = t + 1``, ``r_s = r_(s-1) * max(0, (K' - s + 1) / (N - t - K' + s) * (t + 1 - s) / (s + 1))``
    (the ratio of ``C(N - t, K - s) C(t + 1, s + 1)`` to its previous term), their tails summed from the
    end, and ``S`` the last ``s`` whose tail ``sum_{s' >= s} r_s'`` is above ``2^-60`` (0 at ``t = 0``)."""
    out = []
    for n, d, t in zip(*(np.atleast_1d(np.asarray(a, dtype=float)).tolist() for a in (slots, draws, last)),
                       strict=True):
        terms = [t + 1.0]
        for s in range(1, int(d) + 1):
            ratio = _ieee_divide(_ieee_divide(d - s + 1.0, n - t - d + s) * (t + 1.0 - s), s + 1.0)
            terms.append(terms[-1] * (ratio if ratio != ratio or ratio > 0.0 else 0.0))
        tail, rows = 0.0, 0
        for s in range(len(terms) - 1, 0, -1):
            tail = terms[s] + tail
            if tail > 2.0**-60:
                rows = max(rows, s)
        out.append(0 if t == 0 else min(rows, int(d)))
    return np.array(out, dtype=int)
