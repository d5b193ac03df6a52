"""Scott's (1955) pi.

``D_e = sum_kl pi_k pi_l d_kl`` with the pooled margins ``pi_k = (r_k + c_k) / 2N`` (prevalence
paper, section 3.1), ``A_e = sum_kl w_kl pi_k pi_l``; Gwet's (2014) variance term
``g_kl = pibar_k + pibar_l``, ``pibar_k = (wbar_k + wbar'_k) / 2``.
"""

from __future__ import annotations

import numpy as np

from .base import Table, TableCoefficient, exact_pair_value

__all__ = ["ScottPi"]


def pooled_margins(table: Table) -> np.ndarray:
    return (table.rows + table.cols) / (2 * table.total)


class ScottPi(TableCoefficient):
    name = "scott_pi"
    title = "Scott's pi"

    def chance_disagreement(self, table: Table) -> float | None:
        if table.used <= 1:
            return None
        pooled = pooled_margins(table)
        return table.weighted_pairs(pooled, pooled)

    def expected_agreement(self, table: Table) -> float:
        pooled = pooled_margins(table)
        return float(np.sum(np.outer(pooled, pooled) * table.weights))

    def gwet_g(self, table: Table) -> np.ndarray:
        rows, cols = table.rows / table.total, table.cols / table.total
        pibar = ((table.weights * cols[None, :]).sum(axis=1) + (table.weights * rows[:, None]).sum(axis=0)) / 2.0
        return pibar[:, None] + pibar[None, :]

    def exact_value(self, table: Table) -> float:
        return exact_pair_value(table, pooled=True)
