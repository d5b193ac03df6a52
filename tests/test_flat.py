"""Flat results: flatten(), the "flat" configuration of chance_f1_metric, and the evaluate tools
that need flat scalar dicts (evaluator bootstrap, radar_plot, evaluate.save)."""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest

from chance_agreement.chance.corrected_f1 import chance_f1
from chance_agreement.ecosystem.flat import flatten

REFERENCES = [["O", "B-PER", "I-PER", "O", "B-LOC"], ["B-ORG", "I-ORG", "O", "O"], ["O", "O", "B-PER"]]
PREDICTIONS = [["O", "B-PER", "I-PER", "I-PER", "B-LOC"], ["B-ORG", "O", "O", "B-LOC"], ["O", "O", "B-PER"]]
MAIN_KEYS = ["overall_observed_f1", "overall_chance_f1", "overall_corrected_f1", "overall_f1", "overall_accuracy"]


def _sample(conll_systems, count=200, system=0):
    references, systems = conll_systems
    return list(systems.values())[system][:count], references[:count]


def test_flatten_joins_nested_keys_and_keeps_numbers_only():
    result = {
        "PER": {"f1": np.float64(0.5), "number": 3, "inner": {"x": True}},
        "overall_f1": 0.25,
        "sentence_scores": [{"observed_f1": 1.0}],
        "kappa": None,
        "categories": ["PER", "O"],
        "name": "abc",
        "zero_d": np.array(2.0),
    }
    flat = flatten(result)
    assert flat == {"PER_f1": 0.5, "PER_number": 3.0, "PER_inner_x": 1.0, "overall_f1": 0.25, "zero_d": 2.0}
    assert all(type(value) is float for value in flat.values())
    assert flatten({"PER": {"f1": 1}}, separator="/") == {"PER/f1": 1.0}


def test_flatten_rejects_bad_input():
    with pytest.raises(ValueError, match="expects a dict"):
        flatten([1, 2])
    with pytest.raises(ValueError, match="separator must be a string"):
        flatten({"a": 1}, separator=None)
    with pytest.raises(ValueError, match="flat key 'overall_f1'"):
        flatten({"overall_f1": 0.5, "overall": {"f1": 0.4}})


def test_flat_config_equals_flatten_of_default(load_metric, conll_systems):
    default = load_metric("chance_f1_metric")
    flat = load_metric("chance_f1_metric", "flat")
    predictions, references = _sample(conll_systems, count=500)
    for kwargs in ({}, {"level": "entity"}, {"return_sentence_scores": True}):
        expected = flatten(default.compute(predictions=predictions, references=references, **kwargs))
        got = flat.compute(predictions=predictions, references=references, **kwargs)
        assert got == expected
    assert "sentence_scores" not in got and "PER_corrected_f1" in got and "overall_corrected_f1" in got
    assert all(type(value) is float for value in got.values())
    # the nested default on the small example, key by key
    nested = chance_f1(PREDICTIONS, REFERENCES)
    flat_small = flat.compute(predictions=PREDICTIONS, references=REFERENCES)
    assert flat_small["PER_corrected_f1"] == nested["PER"]["corrected_f1"]
    assert flat_small["LOC_number"] == 1.0 and flat_small["overall_f1"] == nested["overall_f1"]


def test_unknown_config_is_refused(load_metric):
    with pytest.raises(ValueError, match="unknown configuration 'nested'"):
        load_metric("chance_f1_metric", "nested")


def test_seeded_bootstrap_over_sentences_gives_finite_intervals_around_the_estimate(load_metric, conll_systems):
    """Resample sentences with replacement (seeded), recompute the flat metric, percentile intervals."""
    flat = load_metric("chance_f1_metric", "flat")
    predictions, references = _sample(conll_systems, count=200)
    point = flat.compute(predictions=predictions, references=references, zero_division=0)
    rng = np.random.default_rng(12345)
    samples: dict[str, list[float]] = {key: [] for key in point}
    for _ in range(40):
        index = rng.integers(0, len(references), size=len(references))
        result = flat.compute(
            predictions=[predictions[i] for i in index], references=[references[i] for i in index], zero_division=0
        )
        for key in samples:
            samples[key].append(result.get(key, math.nan))
    keys = MAIN_KEYS + [f"{t}_{stat}" for t in ("PER", "LOC", "ORG", "MISC") for stat in ("corrected_f1", "f1")]
    for key in keys:
        values = np.asarray(samples[key])
        assert np.isfinite(values).all(), key
        low, high = np.percentile(values, [2.5, 97.5])
        assert low <= point[key] <= high, (key, low, point[key], high)
        assert high > low, key  # the resamples really differ


def test_evaluators_own_bootstrap_helper_runs_on_the_flat_metric(load_metric, conll_systems):
    """evaluate.evaluator's scipy-based helper, without a model. scipy needs one-dimensional
    arrays: ragged sentence lists must be passed as object arrays of lists."""
    from evaluate.evaluator.base import Evaluator

    flat = load_metric("chance_f1_metric", "flat")
    predictions, references = _sample(conll_systems, count=60)

    def as_objects(rows):
        array = np.empty(len(rows), dtype=object)
        array[:] = [list(row) for row in rows]
        return array

    inputs = {"predictions": as_objects(predictions), "references": as_objects(references)}
    point = flat.compute(predictions=predictions, references=references)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # resamples without an entity type warn (zero_division)
        intervals = Evaluator._compute_confidence_interval(
            flat, inputs, ["overall_corrected_f1", "overall_chance_f1"], confidence_level=0.95, n_resamples=30,
            random_state=0,
        )
    for key, interval in intervals.items():
        low, high = map(float, interval["confidence_interval"])
        assert math.isfinite(low) and math.isfinite(high) and low < high, (key, interval)
        assert low <= point[key] <= high, (key, low, point[key], high)
        assert 0 < float(interval["standard_error"]) < 0.2


def test_radar_plot_of_two_systems(load_metric, conll_systems):
    """evaluate 0.4.6's radar_plot looks rows up with 1-tuples (``zip(data.index)``), which pandas 3
    refuses for a plain list of names; a one-level MultiIndex of names works on pandas 2 and 3."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd
    from matplotlib.figure import Figure

    import evaluate.visualization

    flat = load_metric("chance_f1_metric", "flat")
    keys = MAIN_KEYS + ["PER_corrected_f1", "LOC_corrected_f1"]
    results = []
    for system in (0, 1):
        predictions, references = _sample(conll_systems, count=300, system=system)
        result = flat.compute(predictions=predictions, references=references)
        results.append({key: result[key] for key in keys})
    assert results[0] != results[1]
    names = pd.MultiIndex.from_tuples([("system 1",), ("system 2",)])
    figure = evaluate.visualization.radar_plot(data=results, model_names=names)
    try:
        assert isinstance(figure, Figure)
        labels = [text.get_text() for axis in figure.axes for text in axis.get_xticklabels()]
        assert any("corrected" in label for label in labels)
        lines = [line for axis in figure.axes for line in axis.get_lines() if "system" in str(line.get_label())]
        assert len(lines) == 2  # one polygon per system
    finally:
        plt.close(figure)


def test_evaluate_save_round_trips_the_flat_result(load_metric, tmp_path):
    import evaluate

    flat = load_metric("chance_f1_metric", "flat")
    result = flat.compute(predictions=PREDICTIONS, references=REFERENCES)
    path = evaluate.save(str(tmp_path / "chance_f1.json"), **result)
    saved = json.loads(path.read_text())
    assert {key: saved[key] for key in result} == result
    assert "_evaluate_version" in saved  # evaluate adds its own metadata


@pytest.mark.parametrize(
    "folder,kwargs",
    [("coefficients_metric", {"views": ("all", "grouped")}), ("noise_metric", {"unit": "entity"})],
)
def test_flat_configuration_of_the_other_modules(load_metric, tmp_path, folder, kwargs):
    references = [["B-PER", "I-PER", "O", "B-LOC", "O", "O"], ["O", "B-ORG", "I-ORG", "O"]]
    predictions = [["B-PER", "O", "O", "B-LOC", "O", "B-LOC"], ["O", "B-ORG", "I-ORG", "O"]]
    nested = load_metric(folder).compute(predictions=predictions, references=references, **kwargs)
    flat = load_metric(folder, "flat").compute(predictions=predictions, references=references, **kwargs)
    assert flat == flatten(nested)
    assert flat and all(type(value) is float for value in flat.values())
    import evaluate

    saved = json.loads(evaluate.save(str(tmp_path / f"{folder}.json"), **flat).read_text())
    assert {key: saved[key] for key in flat} == flat
