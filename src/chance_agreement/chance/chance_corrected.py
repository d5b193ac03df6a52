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


NO_ENTITIES_REASON = "no entity on either side, so observed and chance F1 are 0/0"


def no_room_reason(chance: float) -> str:
    """Why corrected F1 is undefined at this chance F1 (``has_room(chance)`` is False), in words.

    Parameters
    ----------
    chance : float
        The chance F1, 1 or more (up to ``CHANCE_ONE``).

    Returns
    -------
    str

    Examples
    --------
    >>> no_room_reason(1.0)
    'chance F1 is 1, so 1 - chance is 0 (both annotators cover every token): no room for agreement beyond chance'
    """
    if chance <= 1.0:
        why = f"chance F1 is 1, so 1 - chance is 0 ({_no_room_cause(chance)})"
    else:
        why = f"chance F1 is {chance:.6g} > 1 ({_no_room_cause(chance)})"
    return f"{why}: no room for agreement beyond chance"


def _no_room_cause(chance: float) -> str:
    return ("both annotators cover every token" if chance <= 1.0 else
            "random segments stack under the overlapping model")


def undefined_reason(scores) -> str | None:
    """Why a score triple's corrected F1 is undefined (None when it is defined).

    Parameters
    ----------
    scores : dict
        ``observed_f1``, ``chance_f1`` and ``corrected_f1``, undefined ones ``None``
        (``defined_scores``).

    Returns
    -------
    str or None

    Examples
    --------
    >>> undefined_reason({"observed_f1": None, "chance_f1": None, "corrected_f1": None})
    'no entity on either side, so observed and chance F1 are 0/0'
    >>> undefined_reason({"observed_f1": 0.5, "chance_f1": 0.1, "corrected_f1": 0.4444}) is None
    True
    """
    if scores.get("corrected_f1") is not None:
        return None
    if scores.get("chance_f1") is None:
        return NO_ENTITIES_REASON
    return no_room_reason(scores["chance_f1"])


def _agreed(low, high):
    """``low`` where it equals ``high`` (at any depth of dicts and lists), else None."""
    if isinstance(low, dict):
        return {key: _agreed(value, high[key]) for key, value in low.items()}
    if isinstance(low, list):
        return [_agreed(a, b) for a, b in zip(low, high, strict=True)]
    return low if low == high else None


def defined_scores(score):
    """``score(zero_division)`` with every value the ``zero_division`` fill decides set to None.

    A score is undefined exactly where its value depends on the fill: ``score(0)`` and
    ``score(1)`` differ there (0/0 without entities; corrected F1 without room beyond chance).
    Reports show such a value as undefined (``null`` in JSON) instead of a number, with
    ``undefined_reason``.

    Parameters
    ----------
    score : callable
        Takes ``zero_division`` (0 or 1) and returns a result (dicts and lists of numbers, e.g.
        ``scores_from_statistics`` of fixed statistics).

    Returns
    -------
    The result of ``score(0)`` with the undefined values None.

    Examples
    --------
    >>> from chance_agreement.chance.corrected_f1 import corpus_total, scores_from_statistics
    >>> total = corpus_total([["B-PER", "I-PER"]], [["B-PER", "I-PER"]])
    >>> result = defined_scores(lambda fill: scores_from_statistics(total, "token", fill))
    >>> result["overall_observed_f1"], result["overall_chance_f1"], result["overall_corrected_f1"]
    (1.0, 1.0, None)
    """
    return _agreed(score(0), score(1))


def with_defined_scores(result: dict, score) -> dict:
    """``result`` (computed with ``zero_division=0``, perhaps with intervals or sentence scores that
    ``score`` leaves out) with its point scores replaced by ``defined_scores(score)``'s.

    Parameters
    ----------
    result : dict
        A result to update in place (nested dicts are merged one level deep).
    score : callable
        As for ``defined_scores``: the same point scores for a given ``zero_division``.

    Returns
    -------
    dict
        ``result``, its undefined point scores None.

    Examples
    --------
    >>> from chance_agreement.chance.corrected_f1 import chance_f1
    >>> tags = [["B-PER", "I-PER"]]
    >>> result = chance_f1(tags, tags, zero_division=0, return_sentence_scores=True)
    >>> with_defined_scores(result, lambda fill: chance_f1(tags, tags, zero_division=fill))["overall_corrected_f1"]
    >>> len(result["sentence_scores"])
    1
    """
    for key, value in defined_scores(score).items():
        result[key] = {**result[key], **value} if isinstance(value, dict) and result.get(key) else value
    return result


def undefined_message(reason: int, chance: float, what: str, fill: float) -> str:
    """The warning text of one undefined point estimate (``reason`` from ``f1_scores``)."""
    if reason == NO_ENTITIES:
        return (f"{what}: F1 with no entities from either side is ill-defined (0/0) and set to {fill}; "
                f"use zero_division to control this")
    why = (f"chance agreement 1 ({_no_room_cause(chance)})" if chance <= 1.0 else
           f"chance agreement {chance:.6g} > 1 ({_no_room_cause(chance)})")
    return (f"{what}: corrected F1 is undefined with {why}: no room for agreement beyond chance; "
            f"set to {fill}, use zero_division to control this")


__all__ = [
    "CHANCE_ONE",
    "DEFINED",
    "NO_ENTITIES",
    "NO_ENTITIES_REASON",
    "NO_ROOM",
    "UndefinedMetricWarning",
    "chance_corrected",
    "defined_scores",
    "f1_scores",
    "has_room",
    "no_room_reason",
    "undefined_message",
    "undefined_reason",
    "with_defined_scores",
    "zero_division_value",
]
