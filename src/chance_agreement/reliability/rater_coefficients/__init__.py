"""The several-rater coefficients, one class each, and their registry.

Gwet's (2014) family (``percent_agreement``, ``brennan_prediger``, ``gwet_ac``), Fleiss' kappa,
Krippendorff's alpha, Conger's and Light's kappa: each is one ``RaterCoefficient`` subclass in one
file (``base.py``), whose ``value`` is the one place the coefficient is computed and whose
``result`` adds the standard error. ``fleiss_kappa``, ``krippendorff_alpha`` (the bare values),
``weighted_fleiss_kappa``, ``krippendorff_alpha_inference`` and ``multi_rater_agreement`` all read
them, so each pair gives the same bits. A new coefficient is one subclass plus
``several_rater_coefficients.register(MyCoefficient())``: ``multi_rater_agreement`` reports it.
"""

from __future__ import annotations

from ...spans.registry import Registry
from .base import RaterCoefficient
from .brennan_prediger import BrennanPrediger
from .conger_kappa import CongerKappa
from .fleiss_kappa import FleissKappa
from .gwet_ac import GwetAC
from .krippendorff_alpha import KrippendorffAlpha
from .light_kappa import LightKappa
from .percent_agreement import PercentAgreement
from .ratings import Ratings

__all__ = ["BrennanPrediger", "CongerKappa", "FleissKappa", "GwetAC", "KrippendorffAlpha", "LightKappa",
           "PercentAgreement", "RaterCoefficient", "Ratings", "several_rater_coefficients"]

# in the order ``multi_rater_agreement`` reports them
_BUILT_IN = (PercentAgreement(), BrennanPrediger(), GwetAC(), FleissKappa(), KrippendorffAlpha(), CongerKappa(),
             LightKappa())

several_rater_coefficients = Registry("coefficient", RaterCoefficient, lambda: _BUILT_IN)
