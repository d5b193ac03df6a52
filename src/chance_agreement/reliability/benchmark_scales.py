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


SCALE_TITLES = {
    "landis_koch": "Landis and Koch (1977)",
    "fleiss": "Fleiss (1981)",
    "altman": "Altman (1991)",
}
READING_SCALE = "landis_koch"  # the scale reports read scores on


def level_of(value, scale=READING_SCALE) -> str:
    """The label of the level of ``scale`` that holds ``value`` (a value below the lowest level's
    lower bound, as a corrected F1 under -1 can be, falls in the lowest level).

    Parameters
    ----------
    value : float
        A coefficient or chance-corrected score, at most 1.
    scale : str or list of (lower, upper, label), default "landis_koch"
        As in ``benchmark``.

    Returns
    -------
    str
        The level's label, lower case (``"substantial"``).

    Examples
    --------
    >>> level_of(0.7731), level_of(0.8), level_of(1.0), level_of(-2.5)
    ('substantial', 'almost perfect', 'almost perfect', 'poor')
    """
    _, levels = _scale(scale)
    for lower, upper, label in levels:
        if lower <= value < upper or (value >= upper == levels[0][1]):
            return label.lower()
    return levels[-1][2].lower()


def reading(value, interval=None, scale=READING_SCALE, confidence_level=None) -> str | None:
    """A score read in words on a named verbal scale, for a report: "substantial agreement (0.6
    to 0.8 on the Landis and Koch (1977) scale)", and with an ``interval`` the levels its ends
    fall in. The scales were made for kappa; reports apply them to chance-corrected F1 as a
    convention, which the sentence says.

    Parameters
    ----------
    value : float or None
        The score; None (undefined) gives None: no words for a value that does not exist.
    interval : (low, high), optional
        Its interval; None or absent: not read.
    scale : str, default "landis_koch"
        A scale of ``SCALES``.
    confidence_level : float, optional
        The interval's level, named in the sentence (e.g. 0.95 -> "95% interval").

    Returns
    -------
    str or None

    Examples
    --------
    >>> reading(0.7731)
    'substantial agreement (0.6 to 0.8 on the Landis and Koch (1977) scale)'
    >>> reading(0.7731, (0.6280, 0.9288), confidence_level=0.95)
    'substantial agreement (0.6 to 0.8 on the Landis and Koch (1977) scale); its 95% interval runs from \
substantial to almost perfect'
    >>> reading(None) is None
    True
    """
    if value is None:
        return None
    name, levels = _scale(scale)
    label = level_of(value, scale)
    lower, upper = next((lo, hi) for lo, hi, text in levels if text.lower() == label)
    lower = max(lower, -1.0)
    text = f"{label} agreement ({lower:g} to {upper:g} on the {SCALE_TITLES.get(name, 'given')} scale)"
    if interval is None or None in interval:
        return text
    low, high = (level_of(bound, scale) for bound in interval)
    named = f"{confidence_level:.0%} interval" if confidence_level is not None else "interval"
    if low == high:
        return f"{text}; its {named} lies within {low}"
    return f"{text}; its {named} runs from {low} to {high}"


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
    r"""Benchmark a coefficient on a verbal scale with Gwet's membership probabilities.

    Parameters
    ----------
    value : float
        The coefficient, in [-1, 1].
    standard_error : float
        Its standard error, at least 0.
    scale : str or sequence of tuple, default "landis_koch"
        ``"landis_koch"``, ``"fleiss"`` or ``"altman"`` (irrCAC's scales), or custom levels
        ``(lower, upper, label)``, highest first.
    threshold : float, default 0.95
        The cumulative probability a level must reach to be retained, in (0, 1].

    Returns
    -------
    dict
        ``scale``; ``levels``, one dict per level (highest first) with ``label``, ``lower``,
        ``upper``, ``membership_probability`` and ``cumulative_probability``; ``most_likely``, the
        level of the highest membership probability with that ``probability``; ``retained``, the
        first level whose cumulative probability reaches ``threshold``, with that ``probability``
        (Gwet's rule).

    Raises
    ------
    ValueError
        An unknown scale or a malformed custom one, a value outside [-1, 1], a negative or
        non-finite standard error, or a threshold outside (0, 1].
    TypeError
        A value or standard error that is not a number.

    Notes
    -----
    Gwet (2014, chapter 6; irrCAC's ``*.bf`` functions): the probability that the true coefficient
    lies in the level :math:`[a, b)` is the normal probability truncated to [-1, 1],

    .. math::

        P(a \le \kappa < b) = \frac{\Phi\left(\frac{c - a}{\mathrm{se}}\right)
                                     - \Phi\left(\frac{c - b}{\mathrm{se}}\right)}
                                    {\Phi\left(\frac{c + 1}{\mathrm{se}}\right)
                                     - \Phi\left(\frac{c - 1}{\mathrm{se}}\right)},

    and a level's cumulative probability adds those of every level above it. A standard error of 0
    puts all the mass on the level holding ``value``. The example's cumulative probabilities are
    irrCAC's (``Benchmark(0.657142857, 0.213631889).landis_koch()``): 0.20892, 0.58282, 0.87908,
    0.98289, 0.99889, 1.

    References
    ----------
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed., chapter 6. Landis, J. R. and
    Koch, G. G. (1977). The measurement of observer agreement for categorical data. *Biometrics*
    33(1).

    Examples
    --------
    >>> result = benchmark(0.657142857142857, 0.21363188882600195)
    >>> [round(level["cumulative_probability"], 5) for level in result["levels"]]
    [0.20892, 0.58282, 0.87908, 0.98289, 0.99889, 1.0]
    >>> result["most_likely"]["label"], result["retained"]["label"]
    ('Substantial', 'Fair')
    >>> benchmark(0.5, 0.0, scale="fleiss")["retained"]
    {'label': 'Intermediate to Good', 'probability': 1.0}
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


__all__ = ["READING_SCALE", "SCALES", "SCALE_TITLES", "benchmark", "level_of", "reading"]
