"""The noise_metric evaluate module, loaded by local path: the paper's scenarios as tag sequences."""

from __future__ import annotations

import doctest
import importlib.util
import inspect
from pathlib import Path

import pytest

from chance_agreement import noise_report, noise_report_multi
from noise_scenarios import (
    as_annotations,
    five_annotators,
    tags_of,
    three_annotators_1000_150,
    two_annotators_992_121,
    two_annotators_1000_100,
)

METRIC_DIR = Path(__file__).resolve().parent.parent / "noise_metric"


@pytest.fixture(scope="module")
def noise_metric():
    import evaluate

    return evaluate.load(str(METRIC_DIR))


@pytest.fixture(scope="module")
def noise_metric_multi():
    import evaluate

    return evaluate.load(str(METRIC_DIR), "multi")


def as_pair(rows):
    """Annotator 1 as references, annotator 2 as predictions, one 1-token entity per category."""
    references = [[tags_of(a) for a, _ in rows]]
    predictions = [[tags_of(b) for _, b in rows]]
    return predictions, references


def assert_plain(out: dict):
    for key, value in out.items():
        assert value is None or type(value) in (int, float), (key, type(value))


def test_section_3_1_two_annotators(noise_metric):
    predictions, references = as_pair(two_annotators_1000_100())
    out = noise_metric.compute(predictions=predictions, references=references)
    assert_plain(out)
    assert (out["instances"], out["agreed"], out["disagreed"]) == (1000, 900, 100)
    assert out["p"] == 0.5
    assert out["t0"] == 225 and out["noisy_items"] == 125
    assert round(out["noise_bound"], 4) == 0.1389
    assert out["kappa"] == pytest.approx(0.8)
    assert round(out["kappa_noise_estimate"], 3) == 0.111  # 800 of 900 easy (section 3.3)
    assert out["tolerable_disagreements"] == 33
    assert out["chance_difference"] == 35  # section 4.1: L = 900, R = 125
    assert round(out["chance_difference_fraction"], 3) == 0.039
    assert out == noise_report(predictions, references)


def test_section_3_1_poesio_vieira(noise_metric):
    predictions, references = as_pair(two_annotators_992_121())
    out = noise_metric.compute(predictions=predictions, references=references)
    assert (out["instances"], out["disagreed"]) == (992, 121)
    assert round(out["p"], 4) == 0.4700
    assert round(out["noise_bound"], 4) == 0.1515


@pytest.mark.parametrize(("split", "kappa"), [("4-1", 0.728), ("3-2", 0.592), ("mixed", 0.637)])
def test_section_3_2_five_annotators(noise_metric_multi, split, kappa):
    annotations = as_annotations(five_annotators(split))
    out = noise_metric_multi.compute(annotations=annotations)
    assert_plain(out)
    assert (out["instances"], out["agreed"], out["disagreed"]) == (1000, 660, 340)
    assert round(out["kappa"], 3) == kappa
    if split != "mixed":  # balanced rotations: every annotator half PER on the disagreed
        assert out["p"] == 0.0625
        assert round(out["noise_bound"], 4) == 0.0470
    assert out == noise_report_multi(annotations)


def test_section_5_3_three_annotators(noise_metric_multi):
    out = noise_metric_multi.compute(annotations=as_annotations(three_annotators_1000_150()))
    assert (out["instances"], out["disagreed"]) == (1000, 150)
    assert out["p"] == 0.25
    assert out["t0"] == 214 and round(out["noise_bound"], 4) == 0.0753


def test_section_3_1_as_entities(noise_metric):
    # every token its own entity: 900 spans typed alike, 100 typed PER by one and LOC by the other
    rows = [("PER", "PER")] * 450 + [("LOC", "LOC")] * 450 + [("PER", "LOC")] * 50 + [("LOC", "PER")] * 50
    predictions, references = as_pair(rows)
    out = noise_metric.compute(predictions=predictions, references=references, unit="entity")
    assert (out["instances"], out["disagreed"], out["p"], out["t0"]) == (1000, 100, 0.5, 225)
    assert round(out["noise_bound"], 4) == 0.1389


def test_entity_unit_counts_spans_once(noise_metric_multi):
    annotations = [
        [["B-PER", "I-PER", "O"], ["B-PER", "I-PER", "O"], ["B-PER", "O", "O"]],
        [["B-LOC", "O", "O"], ["B-LOC", "O", "O"], ["B-LOC", "O", "B-ORG"]],
    ]
    out = noise_metric_multi.compute(annotations=annotations, unit="entity")
    # instances: PER(0,2) [PER, PER, O], PER(0,1) [O, O, PER], LOC(0,1) agreed, ORG(2,3) [O, O, ORG]
    assert (out["instances"], out["agreed"], out["disagreed"]) == (4, 1, 3)


def test_options_reach_the_core(noise_metric):
    predictions, references = as_pair(two_annotators_1000_100())
    out = noise_metric.compute(
        predictions=predictions, references=references, confidence_level=0.9, max_noise=0.1
    )
    assert out["confidence_level"] == 0.9 and out["max_noise"] == 0.1
    assert out == noise_report(predictions, references, confidence_level=0.9, max_noise=0.1)
    assert out["t0"] < 225


def test_add_batch_equals_one_call(noise_metric):
    predictions, references = as_pair(two_annotators_1000_100())
    sentences_p = [predictions[0][i : i + 100] for i in range(0, 1000, 100)]
    sentences_r = [references[0][i : i + 100] for i in range(0, 1000, 100)]
    for p, r in zip(sentences_p, sentences_r):
        noise_metric.add_batch(predictions=[p], references=[r])
    out = noise_metric.compute()
    assert out["t0"] == 225 and out["instances"] == 1000


def test_bad_input_through_the_module(noise_metric, noise_metric_multi):
    with pytest.raises(ValueError, match=r"unit must be one of \('token', 'entity'\), got 'word'"):
        noise_metric.compute(predictions=[["O"]], references=[["O"]], unit="word")
    with pytest.raises(ValueError, match=r"confidence_level must lie strictly between 0 and 1, got 1.0"):
        noise_metric.compute(predictions=[["O"]], references=[["O"]], confidence_level=1.0)
    with pytest.raises(ValueError, match=r"noise_report_multi: annotations: need at least 2 annotators per sentence, sentence 0 has 1"):
        noise_metric_multi.compute(annotations=[[["O", "B-PER"]]])


def test_unknown_configuration():
    import evaluate

    with pytest.raises(ValueError, match=r"unknown configuration 'triple'"):
        evaluate.load(str(METRIC_DIR), "triple")


def _script_module():
    spec = importlib.util.spec_from_file_location("noise_metric_script", METRIC_DIR / "noise_metric.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_script_is_thin_and_documented():
    module = _script_module()
    parameters = inspect.signature(module.NoiseMetric._compute).parameters
    assert all(p.kind != p.VAR_KEYWORD for p in parameters.values())  # as evaluate's own test
    for key in noise_report([["O"]], [["O"]]):
        assert key in module._DOCS.inputs_description, key
    assert "Beigman Klebanov" in module._DOCS.citation
    requirements = (METRIC_DIR / "requirements.txt").read_text().split()
    assert {"chance-agreement", "evaluate", "datasets", "seqeval", "numpy", "scipy"} <= set(requirements)


def test_docstring_example_runs():
    module = _script_module()
    text = module._DOCS.inputs_description.replace('"./noise_metric"', repr(str(METRIC_DIR)))
    test = doctest.DocTestParser().get_doctest(text, {}, "noise_metric", None, 0)
    assert len(test.examples) >= 5
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
