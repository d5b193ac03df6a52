"""The two-annotator table coefficients of the kappa family, one file each, and their registry.

``coefficients`` (the prevalence paper's table), ``coefficient_intervals`` (Gwet's analytic
standard errors), the reports, the command line and the coefficients metric all read the values
from here (``TableCoefficient.value``, ``base.py``): one implementation per coefficient. A new
coefficient is one ``TableCoefficient`` subclass in one file plus ``register(MyCoefficient())``
(a test does it with a class defined in the test).
"""

from __future__ import annotations

from .base import Table, TableCoefficient
from .bennett_s import BennettS
from .cohen_kappa import CohenKappa
from .gwet_ac1 import GwetAC1
from .krippendorff_alpha import KrippendorffAlpha
from .scott_pi import ScottPi

__all__ = ["Table", "TableCoefficient", "coefficient_names", "get_coefficient", "register", "titles", "unregister"]

_REGISTRY: dict[str, TableCoefficient] = {}
_BUILT_IN = ("bennett_s", "scott_pi", "cohen_kappa", "gwet_ac1", "krippendorff_alpha")


def register(coefficient: TableCoefficient) -> TableCoefficient:
    """Make ``coefficient`` available by its name in every table result; returns it."""
    if not isinstance(coefficient, TableCoefficient) or not coefficient.name:
        raise TypeError(f"register takes a TableCoefficient instance with a name, got {coefficient!r}")
    if coefficient.name in _REGISTRY and type(_REGISTRY[coefficient.name]) is not type(coefficient):
        raise ValueError(f"a different coefficient is already registered as {coefficient.name!r}")
    _REGISTRY[coefficient.name] = coefficient
    return coefficient


def unregister(name: str) -> None:
    """Forget a registered coefficient (the built-in ones stay)."""
    if name in _BUILT_IN:
        raise ValueError(f"the built-in coefficient {name!r} cannot be unregistered")
    _REGISTRY.pop(name, None)


def coefficient_names() -> tuple[str, ...]:
    """The registered coefficients, the built-in ones first."""
    return tuple(_REGISTRY)


def titles() -> dict[str, str]:
    """``{name: title}`` of the registered coefficients, for reports."""
    return {name: coefficient.title or name for name, coefficient in _REGISTRY.items()}


def get_coefficient(name: str) -> TableCoefficient:
    if name not in _REGISTRY:
        raise ValueError(f"coefficient must be one of {list(_REGISTRY)}, got {name!r}")
    return _REGISTRY[name]


for _coefficient in (BennettS(), ScottPi(), CohenKappa(), GwetAC1(), KrippendorffAlpha()):
    register(_coefficient)
