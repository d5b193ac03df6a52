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
two_rater_coefficients.__doc__ = r"""The registry of two-annotator table coefficients of the kappa family.

A :class:`~chance_agreement.spans.registry.Registry` of ``TableCoefficient`` instances:
``names()``, ``get(name)``, ``entries()``, ``register(instance)`` and ``unregister(name)``. The
built-in ones are Bennett's S, Scott's pi, Cohen's kappa, Gwet's AC1 and Krippendorff's alpha;
:func:`coefficients`, :func:`coefficient_intervals`, the reports, the command line and the
coefficients metric read every registered coefficient from here.

Notes
-----
Every coefficient has the kappa form (prevalence paper, section 3.1; Gwet 2014, chapter 2)

.. math::

    c = \frac{A_o - A_e}{1 - A_e} = 1 - \frac{D_o}{D_e}, \qquad
    D_o = \sum_{kl} p_{kl} d_{kl},

and a subclass gives its chance disagreement :math:`D_e` (``chance_disagreement``; None when
chance agreement is 1, which leaves the coefficient undefined), :math:`A_e`
(``expected_agreement``) and Gwet's :math:`g_{kl}` (``gwet_g``, for the analytic variance).

Examples
--------
>>> from chance_agreement import coefficients, two_rater_coefficients
>>> two_rater_coefficients.names()
('bennett_s', 'scott_pi', 'cohen_kappa', 'gwet_ac1', 'krippendorff_alpha')

A new coefficient is one subclass and one ``register`` call; :func:`coefficients` then reports it:

>>> from chance_agreement.reliability.table_coefficients import TableCoefficient
>>> class HalfChance(TableCoefficient):
...     name, title = "half_chance", "Chance agreement 1/2"
...     def chance_disagreement(self, table):
...         return 0.5
...     def expected_agreement(self, table):
...         return 0.5
>>> two_rater_coefficients.register(HalfChance()).name
'half_chance'
>>> coefficients([[8, 2], [0, 10]])["half_chance"]  # 1 - (2/20) / (1/2)
0.8
>>> two_rater_coefficients.unregister("half_chance")
"""

# the registry's methods under the names this module gave them before the registries had one shape
register, unregister = two_rater_coefficients.register, two_rater_coefficients.unregister
coefficient_names, get_coefficient = two_rater_coefficients.names, two_rater_coefficients.get


def titles() -> dict[str, str]:
    """``{name: title}`` of the registered coefficients, for reports."""
    return {name: coefficient.title or name for name, coefficient in two_rater_coefficients.entries().items()}
