"""Flat results: one level of ``name -> float`` for tools that only take scalars.

seqeval-style results nest a dict per entity type (``{"PER": {"f1": ...}, "overall_f1": ...}``).
Trainer logging and best-model selection, evaluate's evaluator bootstrap,
``evaluate.visualization.radar_plot``, ``evaluate.save`` and ``push_to_hub`` need flat scalar
dicts instead, so ``flatten`` turns every nested key path into one key joined by ``separator``
(``{"PER": {"f1": 0.5}}`` -> ``{"PER_f1": 0.5}``) and keeps only numbers:

- ``int``, ``float``, ``bool`` and numpy scalars become Python ``float`` (``PER_number`` too);
- an interval, a ``[low, high]`` pair under a key ``ci`` or ending in ``_ci``, becomes two keys
  ``..._ci_low`` and ``..._ci_high`` (``overall_corrected_f1_ci`` -> ``overall_corrected_f1_ci_low``);
- other lists, tuples, arrays, strings and ``None`` are dropped (``sentence_scores``, contingency tables,
  category names, warnings, an undefined kappa), so the keys of a flat result are the same from
  one evaluation to the next as long as the same entity types occur.

``evaluate.load("./chance_f1_metric", "flat")`` returns ``flatten`` of the default result, with the
same inputs and arguments.

A note on ``evaluate.combine([...])``: ``compute(**kwargs)`` passes every keyword argument to
every combined module, so a combination only accepts arguments that all its modules accept
(combining ``chance_f1_metric`` with ``seqeval`` and passing ``level="entity"`` fails in seqeval),
and an argument given for one module also changes every other module that accepts it. Keys
returned by more than one module are prefixed with the module name (and, for two modules of the
same name such as the default and flat forms of ``chance_f1_metric``, ``{name}_{index}_``).
"""

from __future__ import annotations

from numbers import Number

import numpy as np


def _scalar(value):
    """``value`` as a Python float, or None if it is not a single number."""
    if isinstance(value, np.ndarray):
        return float(value) if value.ndim == 0 and np.issubdtype(value.dtype, np.number) else None
    if isinstance(value, (np.generic, Number)) and not isinstance(value, complex):
        try:
            return float(value)  # type: ignore[arg-type]  # a Number that is not a float raises, caught here
        except (TypeError, ValueError):
            return None
    return None


def _is_interval(key, value) -> bool:
    """A confidence interval: a ``[low, high]`` pair under ``ci`` or ``..._ci``."""
    return (str(key) == "ci" or str(key).endswith("_ci")) and isinstance(value, (list, tuple)) and len(value) == 2


def flatten(result: dict, *, separator: str = "_") -> dict[str, float]:
    """Flatten a result dict into one level of float scores.

    ``{type: {stat: x}, key: y}`` becomes ``{"{type}{separator}{stat}": float(x), key: float(y)}``,
    what loggers, the Trainer and leaderboards take.

    Parameters
    ----------
    result : dict
        A result of ``chance_f1``, ``agreement_report``, ``noise_report``, an evaluate module...
    separator : str, default "_"
        What joins the keys of nested dicts.

    Returns
    -------
    dict of str to float
        Nested dicts joined at any depth; non-numbers (lists, strings, None: an undefined score) are
        dropped, never replaced by a number.

    Raises
    ------
    ValueError
        ``result`` is not a dict, ``separator`` is not a string, or two key paths give the same
        flat key (e.g. a type named ``"overall"`` next to ``overall_f1``).

    See Also
    --------
    compute_metrics_fn : A Trainer hook returning flat scores.

    Examples
    --------
    >>> flatten({"overall_f1": 0.5, "PER": {"f1": 0.25, "number": 2}, "note": "x", "ci": None})
    {'overall_f1': 0.5, 'PER_f1': 0.25, 'PER_number': 2.0}
    """
    if not isinstance(result, dict):
        raise ValueError(f"flatten expects a dict of results, got {type(result).__name__}")
    if not isinstance(separator, str):
        raise ValueError(f"separator must be a string, got {separator!r}")
    flat: dict[str, float] = {}

    def visit(prefix: str, mapping: dict) -> None:
        for key, value in mapping.items():
            name = f"{prefix}{separator}{key}" if prefix else str(key)
            if isinstance(value, dict):
                visit(name, value)
                continue
            if _is_interval(key, value):
                visit("", {f"{name}{separator}low": value[0], f"{name}{separator}high": value[1]})
                continue
            number = _scalar(value)
            if number is None:
                continue
            if name in flat:
                raise ValueError(f"two result entries give the flat key {name!r}; use another separator")
            flat[name] = number

    visit("", result)
    return flat


__all__ = ["flatten"]
