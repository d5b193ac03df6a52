"""Options are keyword-only (issue 33): the public functions take their data positionally and every
option by name (``chance_f1(predictions, references, *, level=...)``), so that a call reads the same
in every release and an option never lands in the wrong place. The evaluate modules' ``_compute``
keeps seqeval's (predictions, references) order; evaluate passes everything by name.
"""

from __future__ import annotations

import inspect

import pytest

import chance_agreement
from chance_agreement import chance_f1, coverage_probabilities, noise_bound, spans_from_tags

# A defaulted parameter that is data, not an option: the table's category names, the coefficient a
# bootstrap resamples, the alternative layout's items, the report's output path, and the several-rater
# functions' ratings (an alternative to their counts table, given by name or first).
DATA_WITH_A_DEFAULT = {
    ("coefficients", "categories"),
    ("bootstrap_coefficient_intervals", "coefficient"),
    ("by_item", "items"),
    ("html_report", "path"),
    # the second annotation (and nested spans' lengths): None when the first argument is an AnnotationSet,
    # which holds both annotations and their lengths
    ("chance_f1", "references"), ("contingency", "references"), ("noise_report", "references"),
    ("nested_chance_f1", "references"), ("nested_chance_f1", "lengths"),
    *((name, "ratings") for name in ("brennan_prediger", "fleiss_kappa", "fleiss_kappa_per_category", "gwet_ac1",
                                      "gwet_ac2", "krippendorff_alpha_inference", "multi_rater_agreement",
                                      "percent_agreement", "weighted_fleiss_kappa")),
}


def public_functions():
    for name in chance_agreement.__all__:
        value = getattr(chance_agreement, name)
        if callable(value) and not inspect.isclass(value):
            yield name, value


def test_every_option_of_a_public_function_is_keyword_only():
    positional = [(name, parameter.name) for name, function in public_functions()
                  for parameter in inspect.signature(function).parameters.values()
                  if parameter.default is not inspect.Parameter.empty
                  and parameter.kind is not inspect.Parameter.KEYWORD_ONLY
                  and (name, parameter.name) not in DATA_WITH_A_DEFAULT]
    assert positional == []


def test_the_state_takes_its_options_by_name():
    state = chance_agreement.ChanceF1State(level="entity")
    assert state.level == "entity"
    with pytest.raises(TypeError, match="positional"):
        chance_agreement.ChanceF1State("entity")


@pytest.mark.parametrize("call", [
    lambda: chance_f1([["B-PER"]], [["B-PER"]], False),
    lambda: coverage_probabilities(5, [2], "overlapping"),
    lambda: noise_bound(1000, 100, 0.5, 0.9),
    lambda: spans_from_tags(["B-PER"], "IOB2"),
])
def test_an_option_given_by_position_is_refused(call):
    with pytest.raises(TypeError, match="positional argument"):
        call()
