"""Fleiss' (1971) kappa, weighted with Gwet's (2014) weights; missing ratings as in irrCAC.

Over the ``n2`` items with ``r_i >= 2`` ratings, with ``pi_k = 1/n sum_i r_ik / r_i`` over every
rated item and the disagreement weights ``d_kl = 1 - w_kl``::

    kappa = 1 - D_o / D_e,   D_o = 1/n2 sum_i sum_k (r_ik / r_i) (sum_l d_kl r_il) / (r_i - 1),
                             D_e = sum_kl d_kl pi_k pi_l

which is ``(p_a - p_e) / (1 - p_e)`` with ``D = 1 - p``, written from non-negative terms: no
cancellation of ``p_a`` and ``p_e`` near 1 (a rare category, 1e10 counts), and ``D_e`` is 0
exactly when a single category (at positive distance) is used, the one case kappa is undefined.
``fleiss_kappa``, ``weighted_fleiss_kappa`` and ``multi_rater_agreement`` all take the value from
``FleissKappa.value``. The standard error is Gwet's linearisation around it with
``p_e = sum_kl w_kl pi_k pi_l`` and ``p_e|i = sum_k r_ik ((w + w') pi / 2)_k / r_i`` (irrCAC
``fleiss.kappa.raw``/``.dist``), None when ``p_e`` is within the kernel's tolerance of 1.
Nominal data never form a q x q array: any number of labels.
"""

from __future__ import annotations

import numpy as np

from ..._numerics.exact_sum import ordered_matmul, quadratic_form
from ..table_coefficients.base import pair_disagreement
from .base import ChanceCorrected, shares, weighted_cells

__all__ = ["FleissKappa"]


class FleissKappa(ChanceCorrected):
    name = "fleiss_kappa"
    title = "Fleiss' kappa"

    def chance(self, ratings):
        pi, w = shares(ratings), ratings.weights
        pe = quadratic_form(pi, w, pi)
        pe_i = ratings.row_sums(ratings.values * ordered_matmul((w + w.T) / 2, pi)[ratings.cells]) / ratings.r_i
        return pe, pe_i

    def corrected(self, ratings, pa, pe):
        return self.value(ratings)

    def value(self, ratings):
        return self.disagreements(ratings)["value"]

    def disagreements(self, ratings) -> dict:
        """``value`` (None when undefined, ``reason`` "no pairs" or "one category"), the observed
        and expected agreement ``1 - D`` of the module docstring's terms, and ``n_items``, the
        items with two or more ratings."""
        pairable = ratings.r_i >= 2
        out: dict = {"value": None, "observed_agreement": None, "expected_agreement": None,
               "n_items": int(pairable.sum()), "reason": None}
        if not pairable.any():
            out["reason"] = "no pairs"
            return out
        pairs = ratings.subset(pairable)
        r, a = pairs.r_i[pairs.items], pairs.values
        pi = shares(ratings)
        # a(a - 1) / (r(r - 1)) as a product of two ratios: counts of 1e200 do not overflow
        agreement = pairs.row_sums((a / r) * ((weighted_cells(pairs) - 1) / (r - 1)))
        if ratings.identity:
            others, chance = r - a, pair_disagreement(pi, pi)
            out["expected_agreement"] = float(np.sum(pi**2))
        else:
            distance = 1.0 - ratings.weights
            others, chance = weighted_cells(pairs, distance), quadratic_form(pi, distance, pi)
            out["expected_agreement"] = quadratic_form(pi, ratings.weights, pi)
        out["observed_agreement"] = float(np.mean(agreement))
        if np.count_nonzero(pi) <= 1 or chance == 0:
            out["reason"] = "one category"
            return out
        observed = float(np.mean(pairs.row_sums((a / r) * (others / (r - 1)))))
        out["value"] = float(1.0 - observed / chance)
        return out
