"""Brennan and Prediger's coefficient (Randolph's free-marginal kappa): ``p_e = sum_kl w_kl / q^2``."""

from __future__ import annotations

from .base import ChanceCorrected

__all__ = ["BrennanPrediger"]


class BrennanPrediger(ChanceCorrected):
    name = "brennan_prediger"
    title = "Brennan-Prediger"

    def chance(self, ratings):
        total = float(ratings.q) if ratings.identity else float(ratings.weights.sum())
        return total / ratings.q**2, None
