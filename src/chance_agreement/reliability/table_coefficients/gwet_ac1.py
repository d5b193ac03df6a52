"""Gwet's AC1 (AC2 with weights; Gwet 2014, chapter 4).

``A_e = T_w / (q (q - 1)) sum_k pi_k (1 - pi_k)``, ``T_w = sum_kl w_kl``, ``pi_k = (r_k + c_k) / 2N``;
``D_e = 1 - A_e`` through the kernel's tolerance (``chance.chance_corrected``: chance agreement
within ``CHANCE_ONE`` of 1 is undefined; ``A_e`` has no non-negative form). Gwet's variance term
``g_kl = 2 T_w (1 - (pi_k + pi_l) / 2) / (q (q - 1))``.
"""

from __future__ import annotations

import numpy as np

from ...chance.chance_corrected import has_room
from .base import Table, TableCoefficient
from .scott_pi import pooled_margins

__all__ = ["GwetAC1"]


class GwetAC1(TableCoefficient):
    name = "gwet_ac1"
    title = "Gwet's AC1"

    def _scale(self, table: Table) -> float:
        return float(table.weights.sum()) / (table.q * (table.q - 1))

    def chance_disagreement(self, table: Table) -> float | None:
        if table.q < 2:
            return None
        expected = self.expected_agreement(table)
        return 1.0 - expected if has_room(expected) else None

    def expected_agreement(self, table: Table) -> float:
        pooled = pooled_margins(table)
        return self._scale(table) * float(np.sum(pooled * (1.0 - pooled)))

    def gwet_g(self, table: Table) -> np.ndarray:
        pooled = pooled_margins(table)
        return 2.0 * self._scale(table) * (1.0 - (pooled[:, None] + pooled[None, :]) / 2.0)
