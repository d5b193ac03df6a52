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
several_rater_coefficients.__doc__ = r"""The registry of the coefficients that multi_rater_agreement reports.

A :class:`~chance_agreement.spans.registry.Registry` of ``RaterCoefficient`` instances:
``names()``, ``get(name)``, ``entries()``, ``register(instance)`` and ``unregister(name)``. The
built-in ones, in the order they are reported: percent agreement, Brennan-Prediger, Gwet's AC1/AC2,
Fleiss' kappa, Krippendorff's alpha, Conger's kappa and Light's kappa.

Notes
-----
A ``ChanceCorrected`` subclass gives the chance agreement :math:`p_e` (and its item terms
:math:`p_{e|i}` for Gwet's variance) of

.. math::

    c = \frac{p_a - p_e}{1 - p_e},

with the weighted percent agreement :math:`p_a` (Gwet 2014, equation 2.1.7) and the linearised
standard error (section 5.5) computed once for all of them.

Examples
--------
>>> from chance_agreement import multi_rater_agreement, several_rater_coefficients
>>> several_rater_coefficients.names()  # doctest: +NORMALIZE_WHITESPACE
('percent_agreement', 'brennan_prediger', 'gwet_ac', 'fleiss_kappa', 'krippendorff_alpha',
 'conger_kappa', 'light_kappa')

A new coefficient is one subclass and one ``register`` call; :func:`multi_rater_agreement` then
reports it, with its standard error:

>>> from chance_agreement.reliability.rater_coefficients.base import ChanceCorrected
>>> class HalfChance(ChanceCorrected):
...     name, title = "half_chance", "Chance agreement 1/2"
...     def chance(self, ratings):
...         return 0.5, None
>>> several_rater_coefficients.register(HalfChance()).name
'half_chance'
>>> ratings = [["a", "a", "a"], ["a", "b", "a"], ["b", "b", "b"], ["b", "b", "b"]]
>>> result = multi_rater_agreement(ratings)["half_chance"]
>>> round(result["observed_agreement"], 4), round(result["value"], 4)  # (5/6 - 1/2) / (1/2)
(0.8333, 0.6667)
>>> several_rater_coefficients.unregister("half_chance")
"""
