"""The random model as an object with a small registry (issue 20, item 2).

A new model is one class in one file plus its registration: here the class lives in this test
file (zero files in ``src/``) and is registered for the test's duration. It re-derives the
overlapping model (Proposition 5: independent uniform starts) with none of the built-in fast
paths (``single_segment_uniform`` stays False, the expectations come from the generic exact sums
of ``RandomModel``), so every chance path must agree with ``model="overlapping"``.
"""

from __future__ import annotations

import numpy as np
import pytest

from chance_agreement import ChanceStatistics, by_item, chance_f1, nested_chance_f1, team_chance_f1
from chance_agreement.chance.random_models import (
    NonOverlapping, Overlapping, RandomModel, get_model, model_names, register, unregister,
)

TAGS_A = [["B-PER", "I-PER", "O", "B-LOC", "O", "B-PER"], ["O", "B-ORG", "I-ORG", "I-ORG", "O"], ["B-PER", "O"]]
TAGS_B = [["B-PER", "O", "O", "B-LOC", "I-LOC", "B-PER"], ["B-ORG", "I-ORG", "O", "B-ORG", "O"], ["O", "B-PER"]]


class IndependentStarts(RandomModel):
    """Every segment uniform over its starts, independently (the overlapping model, written anew)."""

    name = "independent_starts"

    def check(self, n, lengths):
        if lengths and max(lengths) > n:
            raise ValueError(f"a segment of length {max(lengths)} does not fit in n={n} tokens")

    def coverage(self, n, lengths):
        t = np.arange(n)
        return sum((np.minimum(t, n - a) - np.maximum(0, t - a + 1) + 1) / (n - a + 1) for a in lengths) + np.zeros(n)

    def start_distribution(self, n, others, length):
        return np.full(n - length + 1, 1.0 / (n - length + 1))

    def sample(self, n, lengths, rng):
        return np.array([rng.integers(0, n - a + 1) for a in lengths], dtype=np.int64)


@pytest.fixture
def registered():
    model = register(IndependentStarts())
    yield model
    unregister(model.name)


def test_built_in_models_are_registered_by_the_names_users_pass():
    assert model_names()[:2] == ("non_overlapping", "overlapping")
    assert get_model("non_overlapping") == NonOverlapping() and get_model("overlapping") == Overlapping()
    model = get_model("overlapping")
    assert get_model(model) is model
    with pytest.raises(ValueError, match=r"model must be one of \['non_overlapping', 'overlapping'\] or a RandomModel"):
        chance_f1(TAGS_A, TAGS_B, model="independent_starts")


@pytest.mark.parametrize("level", ["token", "entity"])
def test_a_model_defined_in_a_test_scores_every_path_as_the_built_in_one(registered, level):
    for model in ("independent_starts", registered):  # by its registered name or as the object
        mine = chance_f1(TAGS_A, TAGS_B, model=model, level=level, return_sentence_scores=True)
        theirs = chance_f1(TAGS_A, TAGS_B, model="overlapping", level=level, return_sentence_scores=True)
        for key in ("overall_chance_f1", "overall_corrected_f1"):
            assert mine[key] == pytest.approx(theirs[key], rel=1e-13, abs=1e-15)
        assert mine["overall_observed_f1"] == theirs["overall_observed_f1"]
    team = team_chance_f1(by_item([TAGS_A, TAGS_B, TAGS_A]), model="independent_starts", level=level)
    built_in = team_chance_f1(by_item([TAGS_A, TAGS_B, TAGS_A]), model="overlapping", level=level)
    assert team["overall_chance_f1"] == pytest.approx(built_in["overall_chance_f1"], rel=1e-13)
    spans_a = [[(0, 3, "X"), (1, 2, "Y")], [(0, 2, "X")]]
    spans_b = [[(0, 2, "X"), (0, 1, "Y")], [(1, 3, "X")]]
    nested = nested_chance_f1(spans_a, spans_b, [5, 4], model="independent_starts", level=level)
    expected = nested_chance_f1(spans_a, spans_b, [5, 4], model="overlapping", level=level)
    assert nested["overall_chance_f1"] == pytest.approx(expected["overall_chance_f1"], rel=1e-13)


def test_statistics_record_the_models_name_and_read_back_only_while_registered(registered):
    from chance_agreement.chance.corrected_f1 import corpus_statistics

    total, _ = corpus_statistics(TAGS_A, TAGS_B, model=registered)
    assert total.model == "independent_starts"
    assert ChanceStatistics.from_dict(total.to_dict()).model == "independent_starts"
    unregister("independent_starts")
    with pytest.raises(ValueError, match="model must be one of"):
        ChanceStatistics.from_dict(total.to_dict())


def test_registration_refuses_a_clash_and_the_built_ins_stay():
    class Other(IndependentStarts):
        name = "overlapping"

    with pytest.raises(ValueError, match="already registered as 'overlapping'"):
        register(Other())
    with pytest.raises(ValueError, match="cannot be unregistered"):
        unregister("non_overlapping")
    with pytest.raises(TypeError):
        register("overlapping")


def test_random_models_share_the_registry_shape_of_the_other_registries():
    """The random models' registry is the one shape of ``spans.registry.Registry`` (register, get,
    names), exported at the root beside the coefficients' and readers' registries."""
    import chance_agreement as ca

    for registry in (ca.random_models, ca.two_rater_coefficients, ca.several_rater_coefficients, ca.file_readers):
        assert type(registry).__name__ == "Registry"
        assert all(registry.get(name).name == name for name in registry.names())
    assert ca.random_models.names()[:2] == ("non_overlapping", "overlapping")
    assert ca.random_models.get(ca.Overlapping()) == ca.Overlapping()


def test_a_renamed_subclass_of_a_built_in_model_computes_that_model():
    """Issue 33 item 2: a subclass of Overlapping registered under its own name gives the overlapping
    numbers (it gave the non-overlapping ones when the name string chose the formulas)."""
    import chance_agreement as ca

    class Stacked(ca.Overlapping):
        name = "stacked_test_model"

    ca.random_models.register(Stacked())
    try:
        prediction, reference = [["B-X", "I-X", "O", "O", "B-X", "O"]], [["B-X", "O", "O", "B-X", "I-X", "O"]]
        stacked = ca.chance_f1(prediction, reference, model="stacked_test_model")["overall_chance_f1"]
        assert stacked == ca.chance_f1(prediction, reference, model="overlapping")["overall_chance_f1"]
        assert stacked != ca.chance_f1(prediction, reference)["overall_chance_f1"]
        state = ca.ChanceF1State(model="stacked_test_model").update(prediction, reference)
        assert state.result()["overall_chance_f1"] == stacked
        assert ca.coverage_probabilities(6, [3, 3], model=Stacked()).sum() == 6
    finally:
        ca.random_models.unregister("stacked_test_model")
