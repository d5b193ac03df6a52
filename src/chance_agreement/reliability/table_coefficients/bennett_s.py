"""Bennett, Alpert and Goldstein's (1954) S (Brennan-Prediger with weights).

``A_e = sum_kl w_kl / q^2`` (every category equally likely), so ``D_e = sum_kl d_kl / q^2``:
``(q - 1) / q`` unweighted (prevalence paper, section 3.1). Gwet's variance has no ``g`` term.
"""

from __future__ import annotations

import numpy as np

from .base import Table, TableCoefficient

__all__ = ["BennettS"]


class BennettS(TableCoefficient):
    name = "bennett_s"
    title = "Bennett's S"

    def chance_disagreement(self, table: Table) -> float | None:
        q = table.q
        if table.identity:
            return (q - 1) / q if q > 1 else None
        chance = float(np.sum(table.distance)) / q**2
        return chance if chance > 0 else None

    def expected_agreement(self, table: Table) -> float:
        return float(table.weights.sum()) / table.q**2

    def gwet_g(self, table: Table) -> np.ndarray:
        return np.zeros((table.q, table.q))
