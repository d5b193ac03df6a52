"""Krippendorff's alpha of two annotators without missing values (prevalence paper, section 3.3).

``D_e = sum_kl n_k n_l d_kl / (2N (2N - 1))``, ``n_k = r_k + c_k`` (the 2N values pooled, drawn
without replacement). Equal to Gwet's (2014) form ``(p'_a - p_e) / (1 - p_e)`` with
``p'_a = (1 - 1/(2N)) p_a + 1/(2N)`` and Scott's ``p_e``; the analytic standard error is Scott's
(``table_inference``), so ``expected_agreement`` and ``gwet_g`` are Scott's.
"""

from __future__ import annotations

import math

import numpy as np

from .base import Table
from .scott_pi import ScottPi

__all__ = ["KrippendorffAlpha"]


class KrippendorffAlpha(ScottPi):
    name = "krippendorff_alpha"
    title = "Krippendorff's alpha"
    unweighted = False

    def chance_disagreement(self, table: Table) -> float | None:
        if table.total * 2 ** table.exponent <= 0.5:
            return None
        values = table.rows + table.cols
        # 2N (2N - 1) in scaled counts: N = total 2^e, so 2N(2N - 1) = 2^2e 2 total (2 total - 2^-e)
        chance = float(np.sum(np.outer(values, values) * table.distance)
                       / (2 * table.total * (2 * table.total - math.ldexp(1.0, -table.exponent))))
        return chance if chance > 0 else None
