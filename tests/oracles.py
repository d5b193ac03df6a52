"""Slow exact algorithms kept as the tests' oracles (moved out of ``src/``, where they sat behind a
``reference=`` flag): the random model's distributions from the full Proposition-3 band, one
segment at a time, with no closed forms, no exact-integer path and no converged band.

- ``band_mass_reference``: the band before the grouped table and the converged band (was
  ``random_model._band_mass_reference``);
- ``count_table_reference``: ``document_bands._count_table`` over the whole table at every step
  (before the table was limited to the part a step can reach);
- ``two_ended_reference``, ``coverage_reference``, ``start_distribution_reference``: what
  ``random_model._two_ended``, ``_coverage_of`` and ``_start_distribution_of`` computed with
  ``reference=True``.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np

from chance_agreement.chance.exact_sum import ordered_matmul
from chance_agreement.chance.random_model import _hypergeometric_matrix, _j_cap, _mirror_fill, _subset_excess_table

__all__ = ["band_mass_reference", "conger_item_terms_reference", "count_table_reference", "coverage_reference", "start_distribution_reference",
           "two_ended_reference"]


def band_mass_reference(slots: int, draws: int, excesses: list[int], length: int, scale: float) -> np.ndarray:
    """``out[t] = scale * sum_{q + x = t} sum_j HG(j; slots, q, draws) D_j(x)`` for ``t < length``,
    the whole band in one matrix product (``random_model._band_mass``'s oracle)."""
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
    """``random_model._two_ended`` with the full Proposition-3 band ``E`` at each end."""
    total_excess = sum(excesses)
    scale, mass = float(scale), float(mass)
    if size < 2 * total_excess + 1:  # no flat middle: every value from the band computation
        out = band_mass_reference(slots, draws, excesses, size, scale)
    else:
        out = _mirror_fill(band_mass_reference(slots, draws, excesses, total_excess, scale), size, mass)
    return 1.0 - out if complement else out


def coverage_reference(n: int, lengths: tuple[int, ...], model: str) -> np.ndarray:
    """Coverage probabilities of every token (``random_model._coverage_of``'s oracle)."""
    k = len(lengths)
    if model == "overlapping" or k == 1:  # one segment: both models place it uniformly
        cover = np.zeros(n)
        t = np.arange(n)
        for length, count in Counter(lengths).items():
            starts = np.minimum(t, n - length) - np.maximum(0, t - length + 1) + 1
            cover += count * starts / (n - length + 1)
        return cover
    total = sum(lengths)
    if k == 0:
        return np.zeros(n)
    if total == n:
        return np.ones(n)
    slots = n - (total - k)
    return two_ended_reference(n, slots - 1, k, [a - 1 for a in lengths], Fraction(slots - k, slots), n - total,
                               complement=True)


def start_distribution_reference(n: int, others: tuple[int, ...], length: int, model: str) -> np.ndarray:
    """``P(start = l)`` of a segment of ``length`` among ``others`` (``random_model._start_distribution_of``'s oracle)."""
    support = n - length + 1
    if model == "overlapping" or not others:
        return np.full(support, 1.0 / support)
    excess_others = [a - 1 for a in others]
    slots = n - sum(excess_others) - (length - 1)
    return two_ended_reference(support, slots - 1, len(others), excess_others, Fraction(1, slots), 1)



def conger_item_terms_reference(raw: np.ndarray, weights: np.ndarray, categories: int) -> np.ndarray:
    """Conger's ``lam_ig = n/n_g sum_k (sum_l (d_igl - c_ig p_gl) w_kl) (r pbar_k - p_gk)`` through
    the dense items x raters x categories arrays (``multi_rater._conger_item_terms``'s oracle, as
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
