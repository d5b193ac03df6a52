"""Exactly rounded, exactly mergeable sums (chance.exact_sum): any grouping, any order, one result."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chance_agreement.chance.exact_sum import add_exactly, exact_partials, merge_exactly

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
