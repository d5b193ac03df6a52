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
    r"""Build the q x q agreement weight matrix of Gwet (2014, chapter 3) for ``categories``.

    Parameters
    ----------
    weights : str or array-like
        A name of ``WEIGHTS`` (``"identity"``, ``"linear"``, ``"quadratic"``, ``"ordinal"``,
        ``"radical"``, ``"ratio"``, ``"circular"``, ``"bipolar"``), or a q x q matrix, which is
        checked and returned as it is.
    categories : sequence
        The categories, in their order: numbers are used as values, other labels by their rank
        1..q in this order.

    Returns
    -------
    numpy.ndarray
        The q x q float matrix :math:`w_{kl}` in [0, 1] with ones on the diagonal.

    Raises
    ------
    ValueError
        An unknown name; a matrix of the wrong shape, outside [0, 1] or without ones on the
        diagonal; fewer than two distinct category values for a named non-identity weighting;
        non-positive values for the ratio weights.

    See Also
    --------
    distance_from_weights : The distances the weights imply.

    Notes
    -----
    With :math:`x_k` the category values and :math:`x_{\min}`, :math:`x_{\max}` their extremes:

    .. math::

        w^{\mathrm{linear}}_{kl} = 1 - \frac{|x_k - x_l|}{x_{\max} - x_{\min}}, \qquad
        w^{\mathrm{quadratic}}_{kl} = 1 - \frac{(x_k - x_l)^2}{(x_{\max} - x_{\min})^2},

    and likewise radical (square roots), ratio, ordinal (on ranks, :math:`\binom{|k - l| + 1}{2}`
    scaled), circular (:math:`\sin^2(\pi (x_k - x_l) / U)`, :math:`U = x_{\max} - x_{\min} + 1`) and
    bipolar, each a distance scaled to [0, 1] and subtracted from 1 (the module docstring lists them
    all). The examples' matrices are irrCAC's (``irrCAC.weights.Weights``).

    References
    ----------
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed., chapter 3. Advanced
    Analytics.

    Examples
    --------
    >>> agreement_weights("quadratic", ["low", "mid", "high"]).tolist()
    [[1.0, 0.75, 0.0], [0.75, 1.0, 0.75], [0.0, 0.75, 1.0]]
    >>> agreement_weights("linear", [1, 2, 4]).round(4).tolist()
    [[1.0, 0.6667, 0.0], [0.6667, 1.0, 0.3333], [0.0, 0.3333, 1.0]]
    """
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
    r"""Turn agreement weights into the distances they imply, :math:`1 - w`.

    Parameters
    ----------
    matrix : array-like
        A q x q agreement weight matrix (:func:`agreement_weights`).

    Returns
    -------
    numpy.ndarray
        :math:`\delta_{kl} = 1 - w_{kl}`, a distance for :func:`krippendorff_alpha` (Krippendorff's
        :math:`\delta` up to a scale, which alpha does not see).

    See Also
    --------
    agreement_weights : The weights.

    Examples
    --------
    >>> distance_from_weights(agreement_weights("quadratic", ["a", "b", "c"])).tolist()
    [[0.0, 0.25, 1.0], [0.25, 0.0, 0.25], [1.0, 0.25, 0.0]]
    """
    return 1.0 - np.asarray(matrix, dtype=float)


__all__ = ["WEIGHTS", "agreement_weights", "category_values", "distance_from_weights"]
