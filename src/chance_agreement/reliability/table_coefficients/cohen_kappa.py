"""Cohen's (1960) kappa; weighted (Cohen 1968) with a distance.

``D_e = sum_kl r_k c_l d_kl / N^2`` (the two annotators' own margins; prevalence paper, section
3.1 and 3.3), ``A_e = sum_kl w_kl r_k c_l / N^2``; Gwet's (2014) variance term
``g_kl = wbar_k + wbar'_l``, ``wbar_k = sum_l w_kl p_+l``, ``wbar'_l = sum_k w_kl p_k+``.
"""

from __future__ import annotations

import numpy as np

from .base import Table, TableCoefficient, exact_pair_value

__all__ = ["CohenKappa"]


class CohenKappa(TableCoefficient):
    name = "cohen_kappa"
    title = "Cohen's kappa"

    def chance_disagreement(self, table: Table) -> float | None:
        if table.used <= 1:
            return None
        return table.weighted_pairs(table.rows / table.total, table.cols / table.total)

    def expected_agreement(self, table: Table) -> float:
        return float(np.sum(np.outer(table.rows, table.cols) * table.weights) / (table.total * table.total))

    def gwet_g(self, table: Table) -> np.ndarray:
        rows, cols = table.rows / table.total, table.cols / table.total
        return ((table.weights * cols[None, :]).sum(axis=1)[:, None]
                + (table.weights * rows[:, None]).sum(axis=0)[None, :])

    def exact_value(self, table: Table) -> float:
        return exact_pair_value(table, pooled=False)
