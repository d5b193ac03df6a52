"""The random annotation models and their registry.

A model is an instance of a ``RandomModel`` subclass (``base.py``); the built-in ones are
``NonOverlapping`` (the default, the paper's experiments) and ``Overlapping``. Public functions
take a registered name (``model="overlapping"``, as users pass today) or a model instance and
resolve it once, at the boundary, with ``get_model``; everything below works with the object.
Nested annotations (``nested_f1``) place each layer with the same flat model.

A new model is one class in one file plus one ``register(MyModel())`` call (a test does it with
a class defined in the test).
"""

from __future__ import annotations

from ...spans.registry import Registry
from . import exact_expectations
from .base import RandomModel
from .non_overlapping import NonOverlapping
from .overlapping import Overlapping

__all__ = ["NonOverlapping", "Overlapping", "RandomModel", "clear_caches", "get_model", "model_names", "random_models",
           "register", "unregister"]

_BUILT_IN = (NonOverlapping(), Overlapping())

# The registry (``spans.registry.Registry``: register, get, names), exported at the package root.
random_models = Registry("model", RandomModel, lambda: _BUILT_IN)
random_models.__doc__ = r"""The registry of random annotation models, by name.

A :class:`~chance_agreement.spans.registry.Registry` of ``RandomModel`` instances: ``names()``,
``get(name)``, ``entries()``, ``register(instance)`` and ``unregister(name)``. The built-in ones are
``non_overlapping`` (the default, the paper's experiments) and ``overlapping``. Every public function
that takes ``model=`` (``chance_f1``, ``ChanceF1State``, the team, nested and span functions, the
random-model functions, the modules and ``--model`` on the command line) takes a registered name or
an instance, resolved once with ``get``.

Notes
-----
What a model computes, and how the chance-corrected F1 reads it (Proposition 1 of [1]_), is
described once, in ``RandomModel``. A new model is one ``RandomModel`` subclass and one
``register`` call; two instances of one class with one name are equal, so registering the class
again is allowed.

References
----------
.. [1] D. Li, C. Rosé, A. Yuan, C. Zhou. Estimating Agreement by Chance for Sequence Annotation. ACL 2024.

Examples
--------
>>> from chance_agreement import chance_f1, random_models
>>> random_models.names()
('non_overlapping', 'overlapping')
>>> random_models.get("overlapping")
Overlapping(name='overlapping')
>>> class Touching(Overlapping):  # a plug-in: one subclass, one name
...     name = "touching_example"
>>> random_models.register(Touching()).name
'touching_example'
>>> chance_f1([["B-X", "O", "O"]], [["B-X", "O", "O"]], model="touching_example")["overall_chance_f1"]
0.3333333333333333
>>> random_models.unregister("touching_example")
>>> "touching_example" in random_models.names()
False
"""


def register(model: RandomModel) -> RandomModel:
    """Make ``model`` available by its name (``model=model.name``); returns it."""
    return random_models.register(model)


def unregister(name: str) -> None:
    """Forget a registered model (the built-in ones stay)."""
    random_models.unregister(name)


def model_names() -> tuple[str, ...]:
    """The registered models' names, the built-in ones first."""
    return random_models.names()


def clear_caches() -> None:
    """Forget every cached distribution and expectation of every registered model (a benchmark's
    first call, a test that changes a module constant)."""
    exact_expectations.clear_caches()
    for model in random_models.entries().values():
        model.clear_caches()


def get_model(model) -> RandomModel:
    """The model of a registered name or a ``RandomModel`` instance (returned as it is): how every
    public function resolves its ``model=``, once, at the boundary."""
    try:
        return random_models.get(model)
    except ValueError:
        raise ValueError(f"model must be one of {list(model_names())} or a RandomModel instance, "
                         f"got {model!r}") from None
