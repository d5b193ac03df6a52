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

from . import exact_expectations
from .base import RandomModel
from .non_overlapping import NonOverlapping
from .overlapping import Overlapping

__all__ = ["NonOverlapping", "Overlapping", "RandomModel", "clear_caches", "get_model", "model_names", "register",
           "unregister"]

_REGISTRY: dict[str, RandomModel] = {}


def register(model: RandomModel) -> RandomModel:
    """Make ``model`` available by its name (``model=model.name``); returns it."""
    if not isinstance(model, RandomModel) or not isinstance(model.name, str) or not model.name:
        raise TypeError(f"register takes a RandomModel instance with a non-empty name, got {model!r}")
    if model.name in _REGISTRY and _REGISTRY[model.name] != model:
        raise ValueError(f"a different random model is already registered as {model.name!r}")
    _REGISTRY[model.name] = model
    return model


def unregister(name: str) -> None:
    """Forget a registered model (the built-in ones stay)."""
    if name in (NonOverlapping.name, Overlapping.name):
        raise ValueError(f"the built-in model {name!r} cannot be unregistered")
    _REGISTRY.pop(name, None)


def model_names() -> tuple[str, ...]:
    """The registered models' names, the built-in ones first."""
    return tuple(_REGISTRY)


def clear_caches() -> None:
    """Forget every cached distribution and expectation of every registered model (a benchmark's
    first call, a test that changes a module constant)."""
    exact_expectations.clear_caches()
    for model in _REGISTRY.values():
        model.clear_caches()


def get_model(model) -> RandomModel:
    """The model of a registered name or a ``RandomModel`` instance (returned as it is)."""
    if isinstance(model, RandomModel):
        return model
    if isinstance(model, str) and model in _REGISTRY:
        return _REGISTRY[model]
    raise ValueError(f"model must be one of {list(_REGISTRY)} or a RandomModel instance, got {model!r}")


register(NonOverlapping())
register(Overlapping())
