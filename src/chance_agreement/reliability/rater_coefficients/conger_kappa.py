"""Conger's (1980) kappa: ``p_e = sum w_kl (pbar_k pbar_l - s2_kl / r)``, the mean of the pairwise
Cohen chance agreements, with ``p_gk`` rater ``g``'s proportion in category ``k``, ``pbar_k`` their
mean over raters and ``s2_kl`` their covariance; Gwet's standard error (irrCAC ``conger.kappa.raw``).
Raters who rated nothing are left out.
"""

from __future__ import annotations

import numpy as np

from ..._numerics.exact_sum import exact_dot, ordered_matmul
from .base import ChanceCorrected, single_category

__all__ = ["CongerKappa", "conger_item_terms", "rater_codes"]


def rater_codes(ratings):
    """The codes of the raters who rated something (items x raters) and the warnings, naming the others."""
    if ratings.raw is None:
        raise ValueError("Conger's and Light's kappa need ratings per rater (items x raters), not counts")
    raw = ratings.raw
    active = (raw >= 0).any(axis=0)
    warnings = list(ratings.warnings)
    if not active.all():
        warnings.append(f"rater(s) {[int(g) for g in np.nonzero(~active)[0]]} gave no rating and are left out")
    return raw[:, active], warnings




class CongerKappa(ChanceCorrected):
    name = "conger_kappa"
    title = "Conger's kappa"
    per_rater = True

    def checked(self, ratings):
        raw, warnings = rater_codes(ratings)
        if ratings.q < 2 or raw.shape[1] < 2:
            return warnings, single_category(ratings) or ["fewer than two raters gave ratings"]
        return warnings, []

    def chance(self, ratings):
        raw, _ = rater_codes(ratings)
        w, q = ratings.weights, ratings.q
        n, r = raw.shape
        rated = raw >= 0  # n x r
        per_rater = np.stack([np.bincount(column[column >= 0], minlength=q) for column in raw.T]).astype(float)  # r x q
        n_g = per_rater.sum(axis=1)  # items rated by each rater
        p_gk = per_rater / n_g[:, None]
        p_bar = p_gk.mean(axis=0)
        s2 = (ordered_matmul(p_gk.T, p_gk) - r * np.outer(p_bar, p_bar)) / (r - 1)
        pe = float((w * (np.outer(p_bar, p_bar) - s2 / r)).sum())
        lam = conger_item_terms(raw, rated, p_gk, p_bar, w, n_g / n)
        return pe, lam.sum(axis=1) / (r * (r - 1))


def conger_item_terms(raw, rated, p_gk, p_bar, w, share) -> np.ndarray:
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
