"""The one scoring kernel: observed, chance and chance-corrected agreement, and when they are undefined.

Every path that reports a chance-corrected F1 (corpus, per type, per sentence, bootstrap and
permutation resamples, teams, nested depths, merged shards) and every two-rater or several-rater
coefficient of the form ``(A_o - A_e) / (1 - A_e)`` calls this module; the formula, its
undefined cases and the tolerance for "chance = 1" are written here once.

For summed statistics (chance_agreement_sequence_annotation.txt, Proposition 1 and the micro
average of section 4) with ``a`` the agreement (2 x overlap at token level, 2 x exact matches at
entity level), ``e`` its expectation under the random annotation model and ``d`` the
denominator (a1 + a2, or k1 + k2)::

    observed = a / d,   chance = e / d,   corrected = (observed - chance) / (1 - chance)

(the kappa form ``(A_o - A_e) / (1 - A_e)`` of the paper's introduction). The undefined cases:

- ``NO_ENTITIES``: ``d = 0`` (no entity on either side), all three scores are 0/0;
- ``NO_ROOM``: ``1 - chance < CHANCE_ONE``: random annotators agree at least as much as identical
  ones (both cover every token; or, under the ``"overlapping"`` model, random segments stack and
  chance exceeds 1), so there is no room for agreement beyond chance and ``corrected`` is
  undefined. Chance itself is never clipped.

A 0/0 score and an undefined corrected F1 take the ``zero_division`` value in a point estimate
(``"warn"``: 0.0 with an ``UndefinedMetricWarning``, as seqeval and scikit-learn do). Bootstrap
intervals never report a number for a corrected F1 the model cannot support: see
``bootstrap_intervals``.
"""

from __future__ import annotations

import numpy as np

# 1 - chance below this is chance == 1: no room for agreement beyond chance.
CHANCE_ONE = 1e-12

# Why a score is undefined (the ``reason`` array of ``f1_scores``).
DEFINED, NO_ENTITIES, NO_ROOM = 0, 1, 2


class UndefinedMetricWarning(UserWarning):
    """A score is 0/0 and was set by ``zero_division`` (as seqeval and scikit-learn do)."""


def zero_division_value(zero_division) -> float:
    """The value of an undefined score: 0.0 for ``"warn"`` (which also warns), else 0 or 1."""
    if isinstance(zero_division, str) and zero_division == "warn":
        return 0.0
    if not isinstance(zero_division, str) and zero_division in (0, 1):
        return float(zero_division)
    raise ValueError(f'zero_division must be "warn", 0 or 1, got {zero_division!r}')


def has_room(chance):
    """True where ``corrected`` is defined: ``1 - chance >= CHANCE_ONE`` (scalars or arrays)."""
    return 1.0 - chance >= CHANCE_ONE


def chance_corrected(observed: float, chance: float) -> float | None:
    """``(observed - chance) / (1 - chance)`` of two numbers, or ``None`` without room beyond chance."""
    if not has_room(chance):
        return None
    return float((observed - chance) / (1.0 - chance))


def f1_scores(agreement, expected, denominator, zero_division="warn", observed=None) -> tuple:
    """``(observed, chance, corrected, reason)`` of summed statistics, elementwise on any shape.

    ``observed`` (optional) replaces ``a / d`` where ``d > 0`` (the entity level reports seqeval's
    ``2pr / (p + r)``, equal to ``2 tp / (k1 + k2)`` up to rounding). Undefined entries take the
    ``zero_division`` value; ``reason`` says which are undefined and why (``DEFINED``,
    ``NO_ENTITIES``, ``NO_ROOM``). No warning is given here: the callers that report a point
    estimate warn (``warn_undefined``), resampling callers do not warn once per resample.
    """
    fill = zero_division_value(zero_division)
    agreement, expected, denominator = np.asarray(agreement), np.asarray(expected), np.asarray(denominator)
    defined = denominator > 0
    safe = np.where(defined, denominator, 1.0)
    if observed is None:
        observed = agreement / safe
    observed = np.where(defined, observed, fill)
    chance = np.where(defined, expected / safe, fill)
    room = defined & has_room(chance)
    corrected = np.where(room, (observed - chance) / np.where(room, 1.0 - chance, 1.0), fill)
    reason = np.where(defined, np.where(room, DEFINED, NO_ROOM), NO_ENTITIES)
    return observed, chance, corrected, reason


def undefined_message(reason: int, chance: float, what: str, fill: float) -> str:
    """The warning text of one undefined point estimate (``reason`` from ``f1_scores``)."""
    if reason == NO_ENTITIES:
        return (f"{what}: F1 with no entities from either side is ill-defined (0/0) and set to {fill}; "
                f"use zero_division to control this")
    why = ("chance agreement 1 (both annotators cover every token)" if chance <= 1.0 else
           f"chance agreement {chance:.6g} > 1 (random segments stack under the overlapping model)")
    return (f"{what}: corrected F1 is undefined with {why}: no room for agreement beyond chance; "
            f"set to {fill}, use zero_division to control this")


__all__ = [
    "CHANCE_ONE",
    "DEFINED",
    "NO_ENTITIES",
    "NO_ROOM",
    "UndefinedMetricWarning",
    "chance_corrected",
    "f1_scores",
    "has_room",
    "undefined_message",
    "zero_division_value",
]
