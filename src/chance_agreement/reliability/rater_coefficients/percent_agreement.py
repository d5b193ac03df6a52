"""Percent agreement ``p_a`` (Gwet 2014, eq. 2.1.7; weighted with weights): ``p_e = 0``."""

from __future__ import annotations

from .base import ChanceCorrected

__all__ = ["PercentAgreement"]


class PercentAgreement(ChanceCorrected):
    name = "percent_agreement"
    title = "Percent agreement"
    two_categories = False

    def chance(self, ratings):
        return 0.0, None
