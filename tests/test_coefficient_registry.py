"""One implementation per coefficient, in a registry every reader uses (issue 20, item 4).

The kappa family was written twice: ``coefficients([[10**13, 0], [0, 1]])`` said Cohen's kappa
is 1.0 while ``coefficient_intervals`` of the same table said "undefined" (its ``1 - p_e`` fell
under a tolerance). Both now take their values from ``reliability.table_coefficients``. A new
coefficient is one class in one file plus ``register``: here the class lives in this test file.
"""

from __future__ import annotations

import numpy as np
import pytest

from chance_agreement import coefficient_intervals, coefficients
from chance_agreement.reliability.table_coefficients import (
    TableCoefficient, coefficient_names, get_coefficient, register, unregister,
)

TAGS_A = [["B-PER", "I-PER", "O", "B-LOC", "O", "O"], ["O", "B-ORG", "I-ORG", "O", "O"]]
TAGS_B = [["B-PER", "O", "O", "B-LOC", "I-LOC", "O"], ["B-ORG", "I-ORG", "O", "O", "O"]]


class HolleyGuilfordG(TableCoefficient):
    """Holley and Guilford's (1964) G: chance agreement 1/2 whatever the categories, G = 2 A_o - 1."""

    name = "holley_guilford_g"
    title = "Holley-Guilford G"

    def chance_disagreement(self, table):
        return 0.5

    def expected_agreement(self, table):
        return 0.5

    def gwet_g(self, table):
        return np.zeros((table.q, table.q))


@pytest.fixture
def registered():
    coefficient = register(HolleyGuilfordG())
    yield coefficient
    unregister(coefficient.name)


def test_a_huge_table_has_one_kappa_in_both_functions():
    table = [[10**13, 0], [0, 1]]
    point, intervals = coefficients(table), coefficient_intervals(table)
    for name in ("cohen_kappa", "scott_pi", "bennett_s", "gwet_ac1"):
        assert point[name] == 1.0 and intervals[name]["value"] == 1.0, name
    assert intervals["cohen_kappa"]["standard_error"] == 0.0


@pytest.mark.parametrize("seed", range(20))
def test_both_functions_give_the_same_bits_on_random_tables(seed):
    rng = np.random.default_rng(seed)
    q = int(rng.integers(2, 6))
    table = rng.integers(0, 30, size=(q, q)) * (rng.random((q, q)) < 0.8)
    point = coefficients(table, distance=1 - np.eye(q))
    intervals = coefficient_intervals(table)
    for name in ("cohen_kappa", "scott_pi", "bennett_s", "gwet_ac1", "krippendorff_alpha"):
        assert intervals[name]["value"] == point[name], name
    assert point["weighted_kappa"] == point["cohen_kappa"]


def test_single_category_tables_are_undefined_in_both():
    assert coefficients([[7, 0], [0, 0]])["cohen_kappa"] is None
    assert coefficient_intervals([[7, 0], [0, 0]])["cohen_kappa"]["value"] is None


def test_a_coefficient_defined_in_a_test_reaches_every_reader(registered, load_metric):
    from chance_agreement.reliability.contingency_table import contingency
    from chance_agreement.reports.team_report import Annotations, coefficients_section

    table, categories = contingency(TAGS_A, TAGS_B)
    observed = coefficients(table, categories)["observed_agreement"]
    assert coefficients(table, categories)["holley_guilford_g"] == pytest.approx(2 * observed - 1)
    entry = coefficient_intervals(table)["holley_guilford_g"]
    assert entry["value"] == pytest.approx(2 * observed - 1) and entry["standard_error"] > 0
    section = coefficients_section(Annotations(["a", "b"], [[["w"] * len(t) for t in TAGS_A]] * 2, [TAGS_A, TAGS_B]), {"span": {}})
    assert "holley_guilford_g" in [row[0] for row in section.tables[0].rows]
    result = load_metric("coefficients_metric").compute(predictions=TAGS_B, references=TAGS_A)
    assert result["all"]["holley_guilford_g"] == pytest.approx(2 * observed - 1)
    assert "holley_guilford_g" in coefficient_names()


def test_the_registry_refuses_clashes_and_keeps_the_built_ins():
    class Other(HolleyGuilfordG):
        name = "cohen_kappa"

    with pytest.raises(ValueError, match="already registered as 'cohen_kappa'"):
        register(Other())
    with pytest.raises(ValueError, match="cannot be unregistered"):
        unregister("scott_pi")
    with pytest.raises(ValueError, match="coefficient must be one of"):
        get_coefficient("holley_guilford_g")
