"""Exactly rounded, exactly mergeable sums (_numerics.exact_sum): any grouping, any order, one result."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chance_agreement._numerics.exact_sum import (
    add_exactly, exact_dot, exact_partials, merge_exactly, ordered_convolve, ordered_matmul, quadratic_form)
from oracles import ordered_matmul_reference

floats = st.floats(min_value=-1e300, max_value=1e300, allow_nan=False, allow_infinity=False)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(values=st.lists(floats, max_size=40), cuts=st.lists(st.integers(0, 40), max_size=6), data=st.data())
def test_any_grouping_and_order_gives_the_correctly_rounded_exact_sum(values, cuts, data):
    exact = float(sum(map(Fraction, values), Fraction(0)))
    bounds = sorted({0, len(values), *[min(c, len(values)) for c in cuts]})
    groups = [values[a:b] for a, b in zip(bounds, bounds[1:])]
    partials = [exact_partials(group) for group in groups]
    order = data.draw(st.permutations(range(len(partials))))
    merged = [0.0]
    for index in order:
        merged = merge_exactly(merged, partials[index])
    assert math.fsum(merged) == exact
    one_by_one: list[float] = []
    for value in data.draw(st.permutations(values)):
        add_exactly(one_by_one, value)
    assert math.fsum(one_by_one) == exact
    assert sum(map(Fraction, exact_partials(values)), Fraction(0)) == sum(map(Fraction, values), Fraction(0))


def test_non_finite_values_are_refused():
    with pytest.raises(ValueError, match="non-finite"):
        add_exactly([], float("nan"))
    with pytest.raises(ValueError, match="non-finite"):
        exact_partials([1.0, float("inf")])


# --- products without BLAS (issue 19: the same bits on every CPU) ---------------------------------

_finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)


@settings(max_examples=200, derandomize=True, deadline=None)
@given(st.lists(st.tuples(_finite, _finite), max_size=60))
def test_exact_dot_is_the_correctly_rounded_sum_of_the_rounded_products(pairs):
    first, second = np.array([a for a, _ in pairs]), np.array([b for _, b in pairs])
    exact = sum((Fraction(float(a * b)) for a, b in zip(first, second)), Fraction(0))
    assert exact_dot(first, second) == float(exact)


@pytest.mark.parametrize("shape", [(7, 3, 5), (4, 200, 3), (1, 1, 1), (6, 0, 2)])
def test_ordered_matmul_adds_in_a_fixed_order_close_to_blas(shape):
    m, k, n = shape
    rng = np.random.default_rng(k)
    left, right = rng.random((m, k)), rng.random((k, n))
    out = ordered_matmul(left, right)
    np.testing.assert_allclose(out, left @ right, rtol=1e-13, atol=0)
    # each entry is the sum of its own products in one fixed order: the row alone gives the same bits
    assert all(ordered_matmul(left[i : i + 1], right)[0].tobytes() == out[i].tobytes() for i in range(m))
    np.testing.assert_allclose(ordered_matmul(left, right[:, 0]), left @ right[:, 0], rtol=1e-13)


@settings(max_examples=120, deadline=None)
@given(m=st.integers(0, 9), inner=st.sampled_from([1, 5, 8, 9, 64, 129, 300, 1100]), columns=st.integers(1, 700),
       density=st.sampled_from([0.0, 0.002, 0.01, 0.1]), seed=st.integers(0, 2**32 - 1), whole=st.booleans())
def test_a_mostly_zero_right_factor_gives_the_dense_products_bits(m, inner, columns, density, seed, whole):
    """The sparse product (one in 64 or fewer nonzero, 4,096 entries or more) adds the nonzero
    products in the dense loop's order, short and long inner dimensions alike: the same bytes."""
    rng = np.random.default_rng(seed)
    right = np.where(rng.random((inner, columns)) < density, rng.random((inner, columns)) * 10, 0.0)
    left = rng.integers(0, 5, (m, inner)).astype(float) if whole else (2 * rng.random((m, inner)) - 1) * 1e3
    right = np.round(right) if whole else right
    assert ordered_matmul(left, right).tobytes() == ordered_matmul_reference(left, right).tobytes()


def test_the_sparse_product_in_small_chunks_gives_the_same_bits(monkeypatch):
    """Columns taken a few products at a time (both inner-dimension regimes): the same bytes."""
    from chance_agreement._numerics import exact_sum

    monkeypatch.setattr(exact_sum, "_SPARSE_CHUNK", 50)
    rng = np.random.default_rng(7)
    for inner in (100, 300):
        right = np.where(rng.random((inner, 200)) < 0.01, rng.random((inner, 200)), 0.0)
        left = 2 * rng.random((7, inner)) - 1
        assert ordered_matmul(left, right).tobytes() == ordered_matmul_reference(left, right).tobytes()


def test_quadratic_form_and_convolution_match_numpy():
    rng = np.random.default_rng(1)
    x, w, y = rng.random(9), rng.random((9, 9)), rng.random(9)
    assert quadratic_form(x, w, y) == pytest.approx(float(x @ w @ y), rel=1e-14)
    a, b = rng.random(40), rng.random(7)
    np.testing.assert_allclose(ordered_convolve(a, b), np.convolve(a, b), rtol=1e-13)
    assert ordered_convolve(a, np.zeros(0)).size == 0


def test_ordered_matmul_gives_the_same_bits_for_any_memory_layout():
    """A column-major or strided ``left`` gives the bits of the row-major one (numpy's pairwise
    reduction follows the memory layout: before, a Fortran-ordered weight matrix came out one
    rounding apart in the long-inner-dimension path)."""
    rng = np.random.default_rng(3)
    left = rng.random((40, 300)) - 0.5
    right = rng.random((300, 3)) - 0.5  # inner dimension longer than the columns: the reduce path
    expected = ordered_matmul(left, right)
    wide = np.zeros((40, 600))
    wide[:, ::2] = left
    for variant in (np.asfortranarray(left), wide[:, ::2], left.T.copy().T):
        np.testing.assert_array_equal(ordered_matmul(variant, right), expected)
        np.testing.assert_array_equal(ordered_matmul(variant, right[:, 0]), expected[:, 0])
