"""The two-annotator table coefficients of the kappa family, one file each, and their registry.

``coefficients`` (the prevalence paper's table), ``coefficient_intervals`` (Gwet's analytic
standard errors), the reports, the command line and the coefficients metric all read the values
from here (``TableCoefficient.value``, ``base.py``): one implementation per coefficient. A new
coefficient is one ``TableCoefficient`` subclass in one file plus ``register(MyCoefficient())``
(a test does it with a class defined in the test).
"""

from __future__ import annotations

from ...spans.registry import Registry
from .base import Table, TableCoefficient
from .bennett_s import BennettS
from .cohen_kappa import CohenKappa
from .gwet_ac1 import GwetAC1
from .krippendorff_alpha import KrippendorffAlpha
from .scott_pi import ScottPi

__all__ = ["Table", "TableCoefficient", "coefficient_names", "get_coefficient", "register", "titles",
           "two_rater_coefficients", "unregister"]

_BUILT_IN = (BennettS(), ScottPi(), CohenKappa(), GwetAC1(), KrippendorffAlpha())

two_rater_coefficients = Registry("coefficient", TableCoefficient, lambda: _BUILT_IN)

# the registry's methods under the names this module gave them before the registries had one shape
register, unregister = two_rater_coefficients.register, two_rater_coefficients.unregister
coefficient_names, get_coefficient = two_rater_coefficients.names, two_rater_coefficients.get


def titles() -> dict[str, str]:
    """``{name: title}`` of the registered coefficients, for reports."""
    return {name: coefficient.title or name for name, coefficient in two_rater_coefficients.entries().items()}
