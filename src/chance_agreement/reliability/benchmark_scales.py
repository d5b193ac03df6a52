"""Benchmarking an agreement coefficient on a verbal scale with Gwet's (2014, chapter 6)
membership probabilities, so a report can say "substantial, with probability 0.83".

The scales (lower bound, upper bound, label), as irrCAC 1.0 ships them in
``inst/extdata/landis.koch.csv``, ``fleiss.csv`` and ``altman.csv`` (Landis & Koch 1977,
Biometrics 33:159-174; Fleiss 1981, Statistical Methods for Rates and Proportions; Altman 1991,
Practical Statistics for Medical Research), highest level first.

With the estimate ``c`` and its standard error ``se``, the probability that the true coefficient
lies in level ``[a, b)`` is the normal probability truncated to [-1, 1] (Gwet 2014, eq. 6.3.x;
irrCAC ``*.bf`` functions)::

    P(a <= kappa < b) = (Phi((c - a)/se) - Phi((c - b)/se)) / (Phi((c + 1)/se) - Phi((c - 1)/se))

and the cumulative probability of a level adds those of every level above it. Gwet's rule
retains the highest level whose cumulative probability reaches ``threshold`` (0.95).
"""

from __future__ import annotations

import math

from .._numerics.portable_math import norm_cdf

SCALES = {
    "landis_koch": (
        (0.8, 1.0, "Almost Perfect"),
        (0.6, 0.8, "Substantial"),
        (0.4, 0.6, "Moderate"),
        (0.2, 0.4, "Fair"),
        (0.0, 0.2, "Slight"),
        (-1.0, 0.0, "Poor"),
    ),
    "fleiss": (
        (0.75, 1.0, "Excellent"),
        (0.4, 0.75, "Intermediate to Good"),
        (-1.0, 0.4, "Poor"),
    ),
    "altman": (
        (0.8, 1.0, "Very Good"),
        (0.6, 0.8, "Good"),
        (0.4, 0.6, "Moderate"),
        (0.2, 0.4, "Fair"),
        (-1.0, 0.2, "Poor"),
    ),
}


def _scale(scale):
    if isinstance(scale, str):
        if scale not in SCALES:
            raise ValueError(f"scale must be one of {sorted(SCALES)} or a list of (lower, upper, label), got {scale!r}")
        return scale, SCALES[scale]
    levels = tuple((float(lo), float(hi), str(label)) for lo, hi, label in scale)
    if not levels or any(lo >= hi for lo, hi, _ in levels):
        raise ValueError("a custom scale needs (lower, upper, label) levels with lower < upper")
    return "custom", levels


def benchmark(value, standard_error, *, scale="landis_koch", threshold=0.95) -> dict:
    """Membership and cumulative probabilities of each level of ``scale`` for a coefficient.

    Returns ``scale``; ``levels``: one dict per level (highest first) with ``label``, ``lower``,
    ``upper``, ``membership_probability``, ``cumulative_probability``; ``most_likely``: the
    level with the highest membership probability and that ``probability``; ``retained``: the
    first level whose cumulative probability reaches ``threshold`` and that ``probability``
    (Gwet's rule). ``standard_error`` 0 puts all the mass on the level holding ``value``.
    """
    name, levels = _scale(scale)
    try:
        value = float(value)
        standard_error = float(standard_error)
    except (TypeError, ValueError):
        raise TypeError("value and standard_error must be numbers") from None
    if not (math.isfinite(value) and -1.0 <= value <= 1.0):
        raise ValueError(f"value must be a coefficient in [-1, 1], got {value}")
    if not (math.isfinite(standard_error) and standard_error >= 0):
        raise ValueError(f"standard_error must be a finite number >= 0, got {standard_error}")
    if not 0 < threshold <= 1:
        raise ValueError(f"threshold must be in (0, 1], got {threshold}")
    if standard_error == 0:
        membership = [1.0 if lo <= value < hi or (hi == 1.0 and value == 1.0) else 0.0 for lo, hi, _ in levels]
    else:
        total = norm_cdf((value + 1) / standard_error) - norm_cdf((value - 1) / standard_error)
        membership = [float((norm_cdf((value - lo) / standard_error) - norm_cdf((value - hi) / standard_error)) / total)
                      for lo, hi, _ in levels]
    rows, cumulative = [], 0.0
    for (lo, hi, label), probability in zip(levels, membership, strict=True):
        cumulative += probability
        rows.append({"label": label, "lower": lo, "upper": hi, "membership_probability": probability,
                     "cumulative_probability": cumulative})
    best = max(rows, key=lambda row: row["membership_probability"])
    retained = next((row for row in rows if row["cumulative_probability"] >= threshold - 1e-12), rows[-1])
    return {
        "scale": name,
        "levels": rows,
        "most_likely": {"label": best["label"], "probability": best["membership_probability"]},
        "retained": {"label": retained["label"], "probability": retained["cumulative_probability"]},
    }


__all__ = ["SCALES", "benchmark"]
