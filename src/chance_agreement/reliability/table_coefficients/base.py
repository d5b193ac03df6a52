"""What a two-annotator chance-corrected coefficient of a contingency table is, written once.

Every coefficient here has the kappa form (prevalence paper, section 3.1; Gwet 2014, chapter 2)

    coefficient = (A_o - A_e) / (1 - A_e) = 1 - D_o / D_e,    D = 1 - A,

with disagreement weights (a category distance) ``d_kl`` (``1 - d`` are the agreement weights;
none: unweighted, ``d = 1 - I``), the observed disagreement ``D_o = sum_kl p_kl d_kl`` shared by all of them and a
chance disagreement ``D_e`` that is what tells the coefficients apart. ``D_e`` is formed from non-negative terms
where the coefficient allows it, so it is 0 exactly when chance agreement is 1 (then the
coefficient is undefined, ``None``) and never a cancellation of two numbers near 1: for a table
``[[10**13, 0], [0, 1]]`` kappa is 1.0, not "undefined". A subclass gives ``chance_disagreement``
(``None`` when undefined), ``expected_agreement`` ``A_e`` and Gwet's ``g_kl`` for the analytic
variance (``table_inference``). ``coefficients`` and ``coefficient_intervals`` both take their
values from ``value``: one implementation per coefficient.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

__all__ = ["Table", "TableCoefficient", "exact_pair_value", "pair_disagreement", "scale_table", "sum_of_others"]


def sum_of_others(values: np.ndarray) -> np.ndarray:
    """``sum_{k != j} values_k`` for every j along the last axis, without the cancellation of
    ``total - values_j`` (a prefix and a suffix sum of non-negative terms)."""
    values = np.asarray(values, dtype=float)
    zero = np.zeros((*values.shape[:-1], 1))
    before = np.concatenate((zero, np.cumsum(values[..., :-1], axis=-1)), axis=-1)
    after = np.concatenate((np.cumsum(values[..., ::-1][..., :-1], axis=-1)[..., ::-1], zero), axis=-1)
    return before + after


def pair_disagreement(first: np.ndarray, second: np.ndarray) -> float:
    """sum_k first_k sum_{j != k} second_j, the chance that two independent draws differ (times
    the two totals); computed from non-negative terms only, so it is 0 only when it truly is."""
    return float(np.sum(first * sum_of_others(second)))


def scale_table(table: np.ndarray) -> tuple[np.ndarray, int]:
    """``(table / 2**e, e)`` with the largest count scaled into [0.5, 1): exact (a power of two),
    so that N^2 and products of margins neither overflow (counts of 1e200) nor underflow (1e-200)."""
    largest = float(table.max()) if table.size else 0.0
    if largest <= 0.0:
        return table, 0
    exponent = math.frexp(largest)[1]
    return np.ldexp(table, -exponent), exponent


class Table:
    """A checked q x q count table (rows: the first annotator) with a category ``distance``
    (disagreement weights; None: 1 off the diagonal), scaled exactly by a power of two
    (``scale_table``: every ratio below is unchanged), and the sums the coefficients share."""

    def __init__(self, counts: np.ndarray, distance: np.ndarray | None = None):
        self.original = counts
        self.q = counts.shape[0]
        self.identity = distance is None or bool(np.array_equal(distance, 1.0 - np.eye(self.q)))
        self.distance = 1.0 - np.eye(self.q) if distance is None else distance
        self.weights = 1.0 - self.distance  # agreement weights
        self.n, self.exponent = scale_table(counts)
        self.total = float(self.n.sum())
        self.rows, self.cols = self.n.sum(axis=1), self.n.sum(axis=0)
        self.used = int(np.count_nonzero(counts.sum(axis=0) + counts.sum(axis=1)))
        if self.identity:  # the off-diagonal cells only: no zero terms in the sum
            self.observed_disagreement = float(np.sum(self.n[~np.eye(self.q, dtype=bool)]) / self.total)
        else:
            self.observed_disagreement = float(np.sum(self.n * self.distance) / self.total)

    def weighted_pairs(self, first: np.ndarray, second: np.ndarray) -> float:
        """``sum_kl first_k second_l d_kl``: ``pair_disagreement`` without a distance."""
        if self.identity:
            return pair_disagreement(first, second)
        return float(np.sum(np.outer(first, second) * self.distance))


class TableCoefficient:
    """Base class: ``value = 1 - D_o / D_e`` (module docstring); subclasses give ``D_e``."""

    name: str = ""
    title: str = ""  # the name reports print
    # reported by ``coefficients`` without a distance (Krippendorff's alpha is reported with one)
    unweighted: bool = True

    def chance_disagreement(self, table: Table) -> float | None:
        """``D_e`` (``None``: chance agreement is 1, the coefficient is undefined)."""
        raise NotImplementedError

    def expected_agreement(self, table: Table) -> float:
        """``A_e``, as the variance formula and the reports use it."""
        raise NotImplementedError

    def gwet_g(self, table: Table) -> np.ndarray:
        """Gwet's (2014) ``g_kl`` of the two-rater variance (``table_inference``)."""
        raise NotImplementedError

    def exact_value(self, table: Table) -> float:
        """``1 - D_o / D_e`` in exact rationals, when ``D_e`` underflows in floats (default: 0)."""
        raise ZeroDivisionError(f"{self.name}: the chance disagreement underflows")

    def value(self, table: Table) -> float | None:
        chance = self.chance_disagreement(table)
        if chance is None:
            return None
        if chance == 0.0:  # unweighted, 0 is an underflow only (0 exactly is None above): exact rationals
            return self.exact_value(table) if table.identity else None
        return float(1.0 - table.observed_disagreement / chance)


def exact_pair_value(table: Table, pooled: bool) -> float:
    """1 - D_o / D_e of Scott's pi (``pooled``) or Cohen's kappa in exact rationals (floats are
    dyadic rationals), for a table whose counts span more than ~600 orders of magnitude."""
    cells = [[Fraction(float(x)) for x in row] for row in table.original]
    q = len(cells)
    rows = [sum(row, Fraction(0)) for row in cells]
    cols = [sum((cells[i][j] for i in range(q)), Fraction(0)) for j in range(q)]
    if not table.identity:
        raise ZeroDivisionError("the weighted chance disagreement underflows")
    if pooled:
        rows = cols = [r + c for r, c in zip(rows, cols, strict=True)]
    total = sum(rows, Fraction(0))
    observed = sum((cells[i][j] for i in range(q) for j in range(q) if i != j), Fraction(0))
    observed /= sum(map(sum, cells), Fraction(0))
    chance = sum((r * (total - c) for r, c in zip(rows, cols, strict=True)), Fraction(0)) / (total * total)
    return float(1 - observed / chance)
