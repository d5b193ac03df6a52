"""One name per idea (issue 33): ``confidence_level`` (never ``confidence``) and ``random_state``
(never ``rng`` nor ``seed``), in every public function and class, the evaluate modules' ``_compute``,
the Trainer hook and the command line (``--confidence-level``, ``--random-state``, ``--n-resamples``).

The old keywords keep working for one release: a FutureWarning names the new one and the result
has the same bits (``chance_agreement.spans.deprecation.renamed_keywords``, applied once at the
public boundary).
"""

from __future__ import annotations

import argparse
import inspect
import warnings
from pathlib import Path

import numpy as np
import pytest

import chance_agreement
from chance_agreement import (
    NonOverlapping,
    Overlapping,
    chance_difference,
    compute_metrics_fn,
    noise_bound,
    noise_report,
    noise_report_multi,
    sample_annotation,
    tolerable_disagreements,
)
from chance_agreement.chance.nested_f1 import sample_nested_annotation
from chance_agreement.reports.cli import build_parser, main
from chance_agreement.spans.nested import build_forest

REPO = Path(__file__).resolve().parent.parent
OLD_NAMES = {"confidence": "confidence_level", "rng": "random_state", "seed": "random_state"}
OLD_FLAGS = {"--confidence": "--confidence-level", "--seed": "--random-state", "--resamples": "--n-resamples"}
REFERENCES = [["B-PER", "I-PER", "O", "B-LOC", "O", "O", "B-ORG", "O"], ["O", "B-LOC", "O", "O", "B-PER", "O"]]
PREDICTIONS = [["B-PER", "I-PER", "O", "O", "O", "O", "B-ORG", "I-ORG"], ["O", "B-LOC", "O", "B-ORG", "B-PER", "O"]]


def public_callables():
    """Every public function and class at the root, the classes' methods, and the modules' ``_compute``."""
    for name in chance_agreement.__all__:
        if name == "__version__":
            continue
        value = getattr(chance_agreement, name)
        if inspect.isclass(value):
            yield name, value
            for method_name, method in vars(value).items():
                if callable(method) and not method_name.startswith("_"):
                    yield f"{name}.{method_name}", method
        elif callable(value):
            yield name, value


def same_bits(a, b) -> bool:
    """Equal, floats compared by their bits (so 0.0 and -0.0, or two NaNs, are told apart)."""
    if isinstance(a, float) and isinstance(b, float):
        return a.hex() == b.hex()
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_bits(a[k], b[k]) for k in a)
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and a.tobytes() == b.tobytes()
    return type(a) is type(b) and a == b


def old_and_new(function, *args, old: str, new: str, value, **kwargs):
    """(result with the new keyword, result with the old one), checking the old one's FutureWarning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", FutureWarning)
        fresh = function(*args, **{new: value}, **kwargs)
    with pytest.warns(FutureWarning, match=rf"'{old}' is renamed '{new}'"):
        former = function(*args, **{old: value}, **kwargs)
    return fresh, former


def test_no_public_parameter_has_an_old_name():
    found = [(name, parameter) for name, value in public_callables()
             for parameter in _parameters(value) if parameter in OLD_NAMES]
    assert found == []


def _parameters(value) -> list[str]:
    try:
        return list(inspect.signature(value).parameters)
    except (TypeError, ValueError):  # a builtin without a signature
        return []


@pytest.mark.parametrize("folder", ["chance_f1_metric", "coefficients_metric", "noise_metric"])
def test_no_compute_keyword_has_an_old_name(load_metric, folder):
    parameters = inspect.signature(load_metric(folder)._compute).parameters
    assert not set(parameters) & set(OLD_NAMES)


def _visible_options(parser: argparse.ArgumentParser) -> dict[str, set[str]]:
    commands = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
    return {name: {option for action in sub._actions if action.help is not argparse.SUPPRESS
                   for option in action.option_strings} for name, sub in commands.choices.items()}


def test_no_command_shows_an_old_flag():
    shown = {name: options & set(OLD_FLAGS) for name, options in _visible_options(build_parser()).items()}
    assert {name: options for name, options in shown.items() if options} == {}


@pytest.mark.parametrize("function, args", [
    (noise_bound, (1000, 100, 0.5)),
    (tolerable_disagreements, (1000, 0.25)),
    (chance_difference, (900, 125)),
    (noise_report, (PREDICTIONS, REFERENCES)),
    (noise_report_multi, ([[p, r] for p, r in zip(PREDICTIONS, REFERENCES, strict=True)],)),
])
def test_the_old_confidence_keyword_warns_and_gives_the_same_bits(function, args):
    fresh, former = old_and_new(function, *args, old="confidence", new="confidence_level", value=0.9)
    as_dict = (lambda r: r if isinstance(r, dict) else vars(r) if hasattr(r, "__dict__") else r)
    assert same_bits(as_dict(fresh), as_dict(former))
    assert fresh != function(*args)  # 0.9 was used, not the default 0.95


def test_both_names_at_once_are_refused():
    with pytest.raises(TypeError, match=r"got both 'confidence' and its new name 'confidence_level'"):
        noise_bound(10, 1, 0.5, confidence=0.9, confidence_level=0.9)


@pytest.mark.parametrize("function, args", [
    (sample_annotation, (30, [2, 3, 4])),
    (lambda n, lengths, **kw: sample_annotation(n, lengths, model="overlapping", **kw), (30, [2, 3, 4])),
    (sample_nested_annotation, (build_forest([(0, 12, "ORG"), (2, 5, "LOC"), (7, 9, "PER")]), 25)),
])
def test_the_old_rng_keyword_warns_and_gives_the_same_bits(function, args):
    fresh, former = old_and_new(function, *args, old="rng", new="random_state", value=7)
    if isinstance(fresh, np.ndarray):
        assert same_bits(fresh, former)
    else:
        assert fresh == former


@pytest.mark.parametrize("model", [NonOverlapping(), Overlapping()])
def test_a_models_sample_takes_random_state(model):
    fresh = model.sample(30, [2, 5], random_state=np.random.default_rng(3))
    with pytest.warns(FutureWarning, match=r"'rng' is renamed 'random_state'"):
        former = model.sample(30, [2, 5], rng=np.random.default_rng(3))
    assert same_bits(fresh, former)


def test_the_noise_module_takes_the_old_keyword_with_a_warning(load_metric):
    noise = load_metric("noise_metric")
    with warnings.catch_warnings():
        warnings.simplefilter("error", FutureWarning)
        fresh = noise.compute(predictions=PREDICTIONS, references=REFERENCES, confidence_level=0.9)
    with pytest.warns(FutureWarning, match=r"'confidence' is renamed 'confidence_level'"):
        former = noise.compute(predictions=PREDICTIONS, references=REFERENCES, confidence=0.9)
    assert same_bits(fresh, former) and fresh["confidence_level"] == 0.9


def test_the_trainer_hook_takes_both_names():
    labels = ["O", "B-PER", "I-PER"]
    ids = np.array([[0, 1, 2, 0], [1, 0, 0, 0]])
    fresh = compute_metrics_fn(labels, metric="noise", confidence_level=0.9)((ids, ids))
    hook = compute_metrics_fn(labels, metric="noise", confidence=0.9)  # accepted when the hook is built
    with pytest.warns(FutureWarning, match=r"'confidence' is renamed 'confidence_level'"):
        former = hook((ids, ids))
    assert same_bits(fresh, former) and fresh["confidence_level"] == 0.9


@pytest.mark.parametrize("command, old, new", [
    (["agreement", str(REPO / "examples" / "anna.conll"), str(REPO / "examples" / "ben.conll"), "--format", "json"],
     ["--confidence", "0.9"], ["--confidence-level", "0.9"]),
    (["annotator-test", *(str(REPO / "examples" / f) for f in ("anna.conll", "ben.conll")),
      "--candidate", str(REPO / "examples" / "carl.conll"), "--margin", "0.1", "--format", "json"],
     ["--resamples", "30", "--seed", "5"], ["--n-resamples", "30", "--random-state", "5"]),
])
def test_the_old_flags_still_work_and_say_the_new_name(capsys, command, old, new):
    assert main([*command, *new]) == 0
    fresh = capsys.readouterr()
    assert main([*command, *old]) == 0
    former = capsys.readouterr()
    assert former.out == fresh.out
    for flag in old[::2]:
        assert f"warning: the option '{flag}' is renamed '{OLD_FLAGS[flag]}'" in former.err
        assert "renamed" not in fresh.err


def test_a_warning_of_a_decorated_function_still_names_the_callers_line():
    """The wrapper is one more frame: the noise model's warning must still point at the caller."""
    from chance_agreement.noise.noise_model import NoiseModelWarning

    with pytest.warns(NoiseModelWarning) as caught:
        noise_report([["O", "O", "O"]], [["B-PER", "O", "O"]])
    assert caught[0].filename == __file__
