"""Gwet's AC1 (identity weights) and AC2 (any weights; Gwet 2014, chapter 4):
``p_e = sum_kl w_kl / (q (q - 1)) sum_k pi_k (1 - pi_k)``, ``p_e|i = T_w / (q (q - 1)) sum_k r_ik (1 - pi_k) / r_i``."""

from __future__ import annotations

from .base import ChanceCorrected, shares

__all__ = ["GwetAC"]


class GwetAC(ChanceCorrected):
    name = "gwet_ac"
    title = "Gwet's AC1/AC2"

    def key(self, ratings):
        return "gwet_ac1" if ratings.weights_name == "identity" else "gwet_ac2"

    def chance(self, ratings):
        q, pi = ratings.q, shares(ratings)
        total = float(q) if ratings.identity else float(ratings.weights.sum())
        scale = total / (q * (q - 1))
        pe = scale * float((pi * (1 - pi)).sum())
        pe_i = scale * ratings.row_sums(ratings.values * (1 - pi)[ratings.cells]) / ratings.r_i
        return pe, pe_i
