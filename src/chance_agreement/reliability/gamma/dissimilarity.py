"""Dissimilarities between two units of gamma (Mathet, Widloecher and Metivier 2015, section 4.1).

A unit is an interval ``[start, end)`` of the continuum with a category. Three dissimilarities,
defined as pygamma-agreement 0.5.9 defines them (``dissimilarity.py``), with its defaults:

- positional-sporadic: ``d_pos(u, v) = ((|s_u - s_v| + |e_u - e_v|) / (l_u + l_v))^2 * delta_empty``
  (0 for equal units, below ``delta_empty`` while one contains the other, above it once they
  are disjoint);
- categorical: ``d_cat(u, v) = M[c_u, c_v] * delta_empty`` with ``M`` the absolute matrix
  (0 on the diagonal, 1 elsewhere), a given symmetric matrix, or the ordinal matrix of numeric
  levels ``M[a, b] = |p_a - p_b| / max(1, max |p_i - p_j|)`` (pygamma's ordinal dissimilarity);
- combined (the default): ``d(u, v) = alpha * d_pos(u, v) + beta * d_cat(u, v)``, with
  ``alpha = beta = delta_empty = 1``.

The empty unit costs ``delta_empty`` against any unit (and against another empty unit). Every
value is an elementwise IEEE expression of the positions (no BLAS, no transcendental function),
so the same inputs give the same bits on every machine. pygamma computes in float32; this module
in float64. One difference with pygamma: its combined dissimilarity keeps ``M * 1`` in the
alignment whatever ``delta_empty`` is (the categorical part is compiled before ``delta_empty``
is passed on), while gamma-cat uses ``M * delta_empty``; here both use ``M * delta_empty``. The
two agree for the default ``delta_empty = 1``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from numbers import Real

import numpy as np

__all__ = ["Dissimilarity"]


def _check_weight(value, name: str, positive: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, Real) or not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    if value < 0 or (positive and value == 0):
        raise ValueError(f"{name} must be {'> 0' if positive else '>= 0'}, got {value!r}")
    return float(value)


@dataclass(frozen=True)
class Dissimilarity:
    r"""The combined dissimilarity ``alpha * d_pos + beta * d_cat`` of gamma (pygamma's defaults).

    Parameters
    ----------
    alpha, beta : float, default=1
        Weights of the positional-sporadic and categorical parts (``beta=0``: positional only,
        pygamma's ``PositionalSporadicDissimilarity``; ``alpha=0``: categorical only, every pair
        of units a candidate, so only for small inputs).
    delta_empty : float, default=1
        Cost of a unit against the empty unit.
    category_matrix : dict or None
        ``{(a, b): value}`` (symmetric, both orders or one) or ``{a: {b: value}}``; categories not
        listed cost 1 against each other. None (default): 0 for equal, 1 for different categories.
    category_levels : dict or None
        ``{category: number}``: the ordinal matrix ``|p_a - p_b| / max(1, max |p_i - p_j|)``.
        At most one of ``category_matrix`` and ``category_levels``.

    Raises
    ------
    ValueError
        A weight that is negative or not finite, ``delta_empty`` of 0, both ``alpha`` and ``beta``
        0, or both ``category_matrix`` and ``category_levels``.

    See Also
    --------
    gamma_agreement : Gamma with this dissimilarity.

    Notes
    -----
    Mathet, Widloecher and Metivier (2015, section 4.1), as pygamma-agreement 0.5.9 defines them:
    for units :math:`u = [s_u, e_u)` of length :math:`l_u` and category :math:`c_u`,

    .. math::

        d_{pos}(u, v) = \left(\frac{|s_u - s_v| + |e_u - e_v|}{l_u + l_v}\right)^2 \Delta_\emptyset,
        \qquad
        d_{cat}(u, v) = M_{c_u c_v} \Delta_\emptyset,
        \qquad
        d(u, v) = \alpha\, d_{pos}(u, v) + \beta\, d_{cat}(u, v),

    and a unit costs :math:`\Delta_\emptyset` against the empty unit. :math:`d_{pos}` is 0 for equal
    units, below :math:`\Delta_\emptyset` while one contains the other and above it once they are
    disjoint.

    References
    ----------
    Mathet, Y., Widloecher, A. and Metivier, J.-P. (2015). The unified and holistic method gamma
    for inter-annotator agreement measure and alignment. *Computational Linguistics* 41(3).

    Examples
    --------
    >>> from chance_agreement import GammaDissimilarity
    >>> dissimilarity = GammaDissimilarity()
    >>> float(dissimilarity.positional(0, 5, 0, 6))  # (1 / 11) ** 2
    0.008264462809917356
    >>> matrix = dissimilarity.category_values(["LOC", "PER"])
    >>> matrix.tolist()
    [[0.0, 1.0], [1.0, 0.0]]
    >>> float(dissimilarity.pair(0, 5, 0, 0, 6, 1, matrix))  # positional plus a different category
    1.0082644628099173
    >>> ordinal = GammaDissimilarity(category_levels={"low": 0, "mid": 1, "high": 2})
    >>> ordinal.category_values(["low", "mid", "high"]).tolist()
    [[0.0, 0.5, 1.0], [0.5, 0.0, 0.5], [1.0, 0.5, 0.0]]
    """

    alpha: float = 1.0
    beta: float = 1.0
    delta_empty: float = 1.0
    category_matrix: dict | None = None
    category_levels: dict | None = None
    _table: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "alpha", _check_weight(self.alpha, "alpha"))
        object.__setattr__(self, "beta", _check_weight(self.beta, "beta"))
        object.__setattr__(self, "delta_empty", _check_weight(self.delta_empty, "delta_empty", positive=True))
        if self.category_matrix is not None and self.category_levels is not None:
            raise ValueError("give category_matrix or category_levels, not both")
        if self.alpha == 0 and self.beta == 0:
            raise ValueError("alpha and beta are both 0: every alignment would cost nothing")
        self._table.update(_pairs_table(self.category_matrix, self.category_levels))

    def category_values(self, categories) -> np.ndarray:
        """``M`` over ``categories`` (in that order): a symmetric float matrix, zero diagonal."""
        size = len(categories)
        matrix = np.ones((size, size)) - np.eye(size)
        if self.category_levels is not None:
            missing = [c for c in categories if c not in self.category_levels]
            if missing:
                raise ValueError(f"category_levels has no level for the categories {missing}")
        for i, a in enumerate(categories):
            for j, b in enumerate(categories):
                if i != j and (a, b) in self._table:
                    matrix[i, j] = self._table[(a, b)]
        return matrix

    def positional(self, start_u, end_u, start_v, end_v) -> np.ndarray:
        """``((|s_u - s_v| + |e_u - e_v|) / (l_u + l_v))^2 * delta_empty``, elementwise."""
        ratio = (np.abs(start_u - start_v) + np.abs(end_u - end_v)) / ((end_u - start_u) + (end_v - start_v))
        return ratio * ratio * self.delta_empty

    def pair(self, start_u, end_u, cat_u, start_v, end_v, cat_v, matrix: np.ndarray) -> np.ndarray:
        """``alpha * d_pos + beta * M[c_u, c_v] * delta_empty``, elementwise (``matrix`` = ``M``)."""
        cost = self.alpha * self.positional(start_u, end_u, start_v, end_v)
        if self.beta:
            cost = cost + self.beta * (matrix[cat_u, cat_v] * self.delta_empty)
        return cost

    def reach(self, threshold: float) -> float:
        """``R`` with ``alpha * d_pos < threshold`` only if ``|s_u - s_v| + |e_u - e_v| < R (l_u + l_v)``
        (infinite when ``alpha = 0``): the window in which candidate pairs are looked for."""
        if self.alpha == 0:
            return math.inf
        return math.sqrt(threshold / (self.alpha * self.delta_empty)) * (1 + 1e-9) + 1e-12


def _pairs_table(matrix, levels) -> dict:
    """``{(a, b): M[a, b]}`` for the pairs given, both orders, checked."""
    if levels is not None:
        if not isinstance(levels, dict) or not levels:
            raise ValueError("category_levels must be a non-empty dict {category: number}")
        values = {c: _check_level(c, v) for c, v in levels.items()}
        spread = max(values.values()) - min(values.values())
        scale = max(1.0, spread)
        return {(a, b): abs(values[a] - values[b]) / scale for a in values for b in values if a != b}
    if matrix is None:
        return {}
    if not isinstance(matrix, dict):
        raise ValueError("category_matrix must be a dict {(a, b): value} or {a: {b: value}}")
    table: dict = {}
    for key, value in matrix.items():
        if isinstance(value, dict):
            items = [((key, b), v) for b, v in value.items()]
        elif isinstance(key, tuple) and len(key) == 2:
            items = [(key, value)]
        else:
            raise ValueError(f"category_matrix key {key!r}: expected a pair (a, b) or a category with a dict")
        for (a, b), v in items:
            v = _check_weight(v, f"category_matrix[{a!r}, {b!r}]")
            if a == b and v != 0:
                raise ValueError(f"category_matrix[{a!r}, {a!r}] = {v}: a category costs 0 against itself")
            for pair in ((a, b), (b, a)):
                if table.get(pair, v) != v:
                    raise ValueError(f"category_matrix is not symmetric: {a!r}, {b!r} has {table[pair]} and {v}")
                table[pair] = v
    return table


def _check_level(category, value) -> float:
    if isinstance(value, bool) or not isinstance(value, Real) or not math.isfinite(value):
        raise ValueError(f"category_levels[{category!r}] must be a finite number, got {value!r}")
    return float(value)
