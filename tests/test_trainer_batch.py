"""Trainer's batch mode (``batch_eval_metrics=True``) with a real Trainer and a tiny BERT built from a
config: the same numbers as the concatenating mode, bit for bit; a fresh start on every evaluation
loop, also after an interrupted one; torch tensors taken as they come."""

from __future__ import annotations

import gc
import math
import tracemalloc

import numpy as np
import pytest

from chance_agreement.chance.corrected_f1 import chance_f1
from chance_agreement.ecosystem.flat import flatten
from chance_agreement.ecosystem.trainer import compute_metrics_fn, module_metrics_fn
from conftest import require_torch

torch = require_torch(module_level=True)

from test_trainer import LABELS, _encode, tiny_setup  # noqa: E402, F401  (tiny_setup is a fixture)


def _trainer(tokenizer, model, output_dir, dataset, compute_metrics, callbacks=None, **extra_args):
    from transformers import DataCollatorForTokenClassification, Trainer, TrainingArguments

    args = TrainingArguments(output_dir=str(output_dir), report_to=[], use_cpu=True, disable_tqdm=True, seed=0,
                             **extra_args)
    return Trainer(model=model, args=args, eval_dataset=dataset, compute_metrics=compute_metrics,
                   data_collator=DataCollatorForTokenClassification(tokenizer), callbacks=callbacks)


def _scores(metrics: dict) -> dict:
    return {key: value for key, value in metrics.items()
            if key.startswith("eval_") and not key.endswith(("_runtime", "_per_second", "_preparation_time"))}


@pytest.mark.parametrize("batch_size", [1, 3, 8])
@pytest.mark.parametrize("options", [{"zero_division": 0}, {"level": "entity", "model": "overlapping"},
                                     {"confidence_level": 0.9, "resampling": "poisson", "random_state": 5,
                                      "n_resamples": 200}])
def test_batch_mode_equals_the_concatenating_mode_bit_for_bit(tiny_setup, tmp_path, batch_size, options):
    tokenizer, model = tiny_setup
    dataset, _ = _encode(tokenizer)
    results = {}
    for batched in (False, True):
        trainer = _trainer(tokenizer, model, tmp_path / str(batched), dataset, compute_metrics_fn(LABELS, **options),
                           per_device_eval_batch_size=batch_size, batch_eval_metrics=batched)
        results[batched] = _scores(trainer.evaluate())
    assert "eval_corrected_f1" in results[True] and "eval_PER_chance_f1" in results[True]
    if "confidence_level" in options:  # Poisson intervals: the same whatever the batches
        assert results[True]["eval_corrected_f1_ci_low"] <= results[True]["eval_corrected_f1_ci_high"]
    assert results[True] == results[False]  # every key, exactly
    assert all(type(v) is float and math.isfinite(v) for v in results[True].values())


class _StopAtStep:
    """A callback raising in the middle of an evaluation loop (after some batches were scored)."""

    def __init__(self, step: int):
        from transformers import TrainerCallback

        stop_at = step

        class Stop(TrainerCallback):
            steps = 0

            def on_prediction_step(self, args, state, control, **kwargs):
                Stop.steps += 1
                if Stop.steps == stop_at:
                    raise KeyboardInterrupt("stopped in the middle of the evaluation loop")

        self.callback = Stop()


def test_an_interrupted_loop_leaves_nothing_behind(tiny_setup, tmp_path):
    tokenizer, model = tiny_setup
    dataset, _ = _encode(tokenizer)
    metrics = compute_metrics_fn(LABELS, zero_division=0)
    reference = _scores(_trainer(tokenizer, model, tmp_path / "a", dataset, compute_metrics_fn(LABELS, zero_division=0),
                                 per_device_eval_batch_size=4, batch_eval_metrics=True).evaluate())
    stop = _StopAtStep(4)  # on_prediction_step runs before compute_metrics: 3 batches were added
    trainer = _trainer(tokenizer, model, tmp_path / "b", dataset, metrics, callbacks=[stop.callback],
                       per_device_eval_batch_size=4, batch_eval_metrics=True)
    with pytest.raises(KeyboardInterrupt):
        trainer.evaluate()
    assert metrics._state.sentences == 12  # the interrupted loop's batches are still held ...
    trainer.remove_callback(type(stop.callback))
    assert _scores(trainer.evaluate()) == reference  # ... and the next loop starts without them
    assert _scores(trainer.evaluate()) == reference  # and again after a complete loop
    assert metrics._state.sentences == 0


def test_batch_mode_of_the_evaluate_module(tiny_setup, tmp_path, load_metric):
    tokenizer, model = tiny_setup
    dataset, _ = _encode(tokenizer)
    results = {}
    for config in ("default", "flat"):
        module = load_metric("chance_f1_metric", config)
        for batched in (False, True):
            trainer = _trainer(tokenizer, model, tmp_path / f"{config}{batched}", dataset,
                               module_metrics_fn(module, LABELS, zero_division=0, level="entity"),
                               per_device_eval_batch_size=3, batch_eval_metrics=batched)
            results[config, batched] = _scores(trainer.evaluate())
    assert len(set(map(lambda r: tuple(sorted(r.items())), results.values()))) == 1  # all four equal exactly
    assert "eval_overall_corrected_f1" in results["flat", True] and "eval_PER_corrected_f1" in results["flat", True]


def _batches(seed: int, count: int, size: int = 4, length: int = 9):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        labels = rng.integers(0, len(LABELS), (size, length))
        labels[rng.random((size, length)) < 0.2] = -100
        logits = rng.random((size, length, len(LABELS))).astype(np.float32)
        yield logits, labels


def _concatenated(batches) -> dict:
    predicted, references = [], []
    for logits, labels in batches:
        ids = logits.argmax(-1)
        for row in range(len(labels)):
            keep = labels[row] != -100
            if keep.any():
                predicted.append([LABELS[i] for i in ids[row][keep]])
                references.append([LABELS[i] for i in labels[row][keep]])
    return {k.removeprefix("overall_"): v for k, v in flatten(chance_f1(predicted, references, zero_division=0)).items()}


@pytest.mark.parametrize("dtype", ["float32", "bfloat16", "ids"])
def test_torch_tensors_give_the_numpy_result(dtype):
    batches = list(_batches(1, 5))
    metrics = compute_metrics_fn(LABELS, zero_division=0)
    for index, (logits, labels) in enumerate(batches):
        tensor = torch.from_numpy(logits)
        if dtype == "bfloat16":  # the reference argmax sees the same bfloat16 values
            tensor = tensor.to(torch.bfloat16)
            batches[index] = (tensor.float().numpy(), labels)
        elif dtype == "ids":
            tensor = tensor.argmax(-1)
        out = metrics((tensor, torch.from_numpy(labels)), compute_result=index == len(batches) - 1)
    assert out == _concatenated(batches)


def test_errors_name_the_sequence_of_the_evaluation_set_and_reset_the_state():
    metrics = compute_metrics_fn(LABELS, zero_division=0)
    batches = list(_batches(2, 3))
    metrics(batches[0], compute_result=False)
    logits, labels = (np.array(part) for part in batches[1])
    labels[2, 3] = 7
    with pytest.raises(ValueError, match="label_ids: id 7 at sequence 6, position 3"):
        metrics((logits, labels), compute_result=False)
    nan_logits = torch.from_numpy(batches[1][0].copy())
    nan_labels = torch.from_numpy(batches[1][1].copy())
    nan_labels[1, 2] = 0
    nan_logits[1, 2, 4] = float("nan")
    metrics(batches[0], compute_result=False)
    with pytest.raises(ValueError, match="NaN at sequence 5, position 2"):
        metrics((nan_logits, nan_labels), compute_result=False)
    # after each error the state is empty: the next loop scores only its own batches
    for index, batch in enumerate(batches):
        out = metrics(batch, compute_result=index == 2)
    assert out == _concatenated(batches)


def test_nothing_labelled_in_the_whole_loop_is_an_error_but_one_empty_batch_is_not():
    metrics = compute_metrics_fn(LABELS, zero_division=0)
    empty = (np.zeros((2, 3, len(LABELS))), np.full((2, 3), -100))
    batches = list(_batches(3, 2))
    metrics(batches[0], compute_result=False)
    metrics(empty, compute_result=False)
    assert metrics(batches[1], compute_result=True) == _concatenated(batches)
    metrics(empty, compute_result=False)
    with pytest.raises(ValueError, match="nothing to evaluate"):
        metrics(empty, compute_result=True)


def test_memory_holds_summed_statistics_only():
    """The state after 1,000 batches takes no more memory than after 200: nothing per sentence is
    kept (the same 100 batches repeat, so the chance model's bounded caches are full after 100)."""
    metrics = compute_metrics_fn(LABELS, zero_division=0)
    batches = list(_batches(4, 100, size=8, length=20))
    tracemalloc.start()
    try:
        sizes = []
        for index in range(1000):
            metrics(batches[index % 100], compute_result=False)
            if index in (199, 999):
                gc.collect()
                sizes.append(tracemalloc.get_traced_memory()[0])
    finally:
        tracemalloc.stop()
    assert metrics._state.sentences == 8000
    assert sizes[1] - sizes[0] < 64 * 1024, sizes
    assert len(metrics._state.to_json()) < 4000


def test_batch_mode_refuses_what_needs_every_sentence():
    batch = next(_batches(5, 1))
    with pytest.raises(ValueError, match="resampling='multinomial' need every sentence at once; pass resampling='poisson'"):
        compute_metrics_fn(LABELS, confidence_level=0.95)(batch, compute_result=True)
    with pytest.raises(ValueError, match="return_sentence_scores need every sentence"):
        compute_metrics_fn(LABELS, return_sentence_scores=True)(batch, compute_result=True)
    with pytest.raises(ValueError, match="'coefficients' metric needs every sentence"):
        compute_metrics_fn(LABELS, metric="coefficients")(batch, compute_result=True)
    with pytest.raises(ValueError, match="strict mode needs an explicit scheme"):
        compute_metrics_fn(LABELS, mode="strict")(batch, compute_result=True)
    strict = compute_metrics_fn(LABELS, mode="strict", scheme="IOB2", zero_division=0)
    assert strict(batch, compute_result=True) == compute_metrics_fn(LABELS, mode="strict", scheme="IOB2",
                                                                    zero_division=0)(batch)
    with pytest.raises(ValueError, match="expected a loaded evaluate module"):
        module_metrics_fn(object(), LABELS)


def test_module_hook_refuses_an_option_the_module_does_not_take_when_built(load_metric):
    module = load_metric("chance_f1_metric", "flat")
    with pytest.raises(ValueError, match="the 'chance_f1' module takes no option 'levle' .*; its options: .*level"):
        module_metrics_fn(module, LABELS, levle="entity")
