"""The named agreement weights of Gwet (2014, chapter 3) and irrCAC, ``w_kl`` in [0, 1], ``w_kk = 1``.

For numeric categories ``x_k`` are the sorted values, otherwise the ranks 1..q; ``x_min`` and
``x_max`` their extremes:

- identity: ``w_kl = [k == l]``
- linear: ``1 - |x_k - x_l| / (x_max - x_min)``
- quadratic: ``1 - (x_k - x_l)^2 / (x_max - x_min)^2``
- radical: ``1 - sqrt|x_k - x_l| / sqrt(x_max - x_min)``
- ratio: ``1 - ((x_k - x_l)/(x_k + x_l))^2 / ((x_max - x_min)/(x_max + x_min))^2`` (positive x)
- ordinal (ranks only): ``1 - C(|k - l| + 1, 2) / max``
- circular: ``1 - sin^2(pi (x_k - x_l) / U) / max``, ``U = x_max - x_min + 1``
- bipolar: ``1 - d_kl / max``, ``d_kl = (x_k - x_l)^2 / ((x_k + x_l - 2 x_min)(2 x_max - x_k - x_l))``, ``d_kk = 0``

A weight is one minus a distance scaled to [0, 1]: ``distance_from_weights`` gives it back.
"""

from __future__ import annotations

import numpy as np

from .._numerics.portable_math import sin_pi

WEIGHTS = ("identity", "linear", "quadratic", "ordinal", "radical", "ratio", "circular", "bipolar")


def category_values(categories) -> np.ndarray:
    """The numbers the weights use: the categories themselves if all numeric, else ranks 1..q."""
    categories = list(categories)
    if categories and all(isinstance(c, (int, float, np.integer, np.floating)) and not isinstance(c, bool)
                          for c in categories):
        return np.asarray(categories, dtype=float)
    return np.arange(1, len(categories) + 1, dtype=float)


def _scaled(distance: np.ndarray) -> np.ndarray:
    top = distance.max()
    return 1.0 - distance / top if top > 0 else np.ones_like(distance)


def agreement_weights(weights, categories) -> np.ndarray:
    """q x q weight matrix for ``categories`` (in their given order): a name from ``WEIGHTS`` or a
    matrix (checked: square of size q, finite, in [0, 1], ones on the diagonal)."""
    q = len(list(categories))
    if not isinstance(weights, str):
        try:
            matrix = np.asarray(weights, dtype=float)
        except (TypeError, ValueError) as error:
            raise ValueError("weights must be a name or a numeric q x q matrix") from error
        if matrix.shape != (q, q):
            raise ValueError(f"weights matrix has shape {matrix.shape}, expected {(q, q)} for {q} categories")
        if not np.all(np.isfinite(matrix)) or matrix.min() < 0 or matrix.max() > 1:
            raise ValueError("weights must be finite numbers in [0, 1]")
        if not np.all(np.diag(matrix) == 1):
            raise ValueError("weights must be 1 on the diagonal (full agreement)")
        return matrix
    if weights not in WEIGHTS:
        raise ValueError(f"weights must be one of {list(WEIGHTS)} or a q x q matrix, got {weights!r}")
    if weights == "identity" or q < 2:
        return np.eye(q)
    x = category_values(categories)
    if weights == "ordinal":
        x = np.arange(1, q + 1, dtype=float)
    span = x.max() - x.min()
    diff = x[:, None] - x[None, :]
    if span == 0:
        raise ValueError(f"the {weights} weights need at least two distinct category values")
    if weights == "linear":
        return 1.0 - np.abs(diff) / span
    if weights == "quadratic":
        return 1.0 - diff**2 / (span * span)
    if weights == "radical":
        return 1.0 - np.sqrt(np.abs(diff)) / np.sqrt(span)
    if weights == "ratio":
        if np.any(x <= 0):
            raise ValueError("the ratio weights need positive category values")
        total = x[:, None] + x[None, :]
        relative_span = span / (x.max() + x.min())
        return 1.0 - (diff / total) ** 2 / (relative_span * relative_span)
    if weights == "ordinal":
        steps = np.abs(diff) + 1
        return _scaled(steps * (steps - 1) / 2)
    if weights == "circular":
        return _scaled(sin_pi(np.abs(diff) / (span + 1)) ** 2)  # sin^2 is even
    # bipolar
    with np.errstate(divide="ignore", invalid="ignore"):
        distance = diff**2 / ((x[:, None] + x[None, :] - 2 * x.min()) * (2 * x.max() - x[:, None] - x[None, :]))
    # off the diagonal the denominator is positive (distinct values); on it 0/0 is set to 0
    distance = np.where(np.eye(q, dtype=bool), 0.0, distance)
    return _scaled(distance)


def distance_from_weights(matrix: np.ndarray) -> np.ndarray:
    """``1 - w``: the disagreement a weight matrix implies (Krippendorff's delta up to a scale)."""
    return 1.0 - np.asarray(matrix, dtype=float)


__all__ = ["WEIGHTS", "agreement_weights", "category_values", "distance_from_weights"]
