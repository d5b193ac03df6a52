"""ChanceF1Metric: a real torchmetrics Metric, two real ranks (torch.distributed, gloo), a real
Lightning validation loop; equal to the Trainer hook bit for bit."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

LIGHTNING_REASON = ('the Lightning metric\'s tests need torch, torchmetrics and lightning, kept out of the test extra: '
                    'pip install "torch==2.13.0" torchmetrics lightning (the CPU build of torch is enough)')
try:
    import lightning
    import torch
    import torchmetrics  # noqa: F401
except ImportError:
    if os.environ.get("CI"):  # .ci/run installs them beside the CPU torch
        pytest.fail(f"CI installs them: {LIGHTNING_REASON}", pytrace=False)
    pytest.skip(LIGHTNING_REASON, allow_module_level=True)

from chance_agreement import compute_metrics_fn
from chance_agreement.ecosystem.lightning import ChanceF1Metric

LABELS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG"]


def evaluation_set(sequences: int = 40, length: int = 12, seed: int = 5):
    """Integer logits (portable: no transcendental function) and labels with -100 padding."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, len(LABELS), size=(sequences, length))
    lengths = rng.integers(1, length + 1, size=sequences)
    labels[np.arange(length)[None, :] >= lengths[:, None]] = -100
    labels[3] = -100  # a sequence without a labelled position
    logits = rng.integers(-8, 9, size=(sequences, length, len(LABELS))).astype(np.float32)
    agree = rng.random(size=(sequences, length)) < 0.7  # the model is right at about 70% of positions
    rows, columns = np.nonzero(agree & (labels >= 0))
    logits[rows, columns, labels[rows, columns]] = 20.0
    return torch.from_numpy(logits), torch.from_numpy(labels)


OPTIONS = [{}, {"level": "entity", "zero_division": 0}, {"model": "overlapping"},
           {"confidence_level": 0.9, "resampling": "poisson", "random_state": 3, "n_resamples": 40}]


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_batches_give_the_trainer_hooks_scores_bit_for_bit(options):
    logits, labels = evaluation_set()
    expected = compute_metrics_fn(LABELS, **options)((logits.numpy(), labels.numpy()))
    metric = ChanceF1Metric(LABELS, **options)
    for start in range(0, len(labels), 7):
        metric.update(logits[start:start + 7], labels[start:start + 7])
    assert metric.compute() == expected
    metric.reset()
    metric.update(logits.argmax(dim=-1), labels)  # predicted ids instead of logits
    assert metric.compute() == expected


def test_merge_state_and_casts_keep_the_exact_statistics():
    logits, labels = evaluation_set()
    expected = compute_metrics_fn(LABELS)((logits.numpy(), labels.numpy()))
    first, second = ChanceF1Metric(LABELS), ChanceF1Metric(LABELS)
    first.update(logits[:25], labels[:25])
    second.update(logits[25:], labels[25:])
    first.merge_state(second)
    assert first.compute() == expected
    for dtype in (torch.float16, torch.bfloat16, torch.float64):  # the byte values survive every cast
        cast = ChanceF1Metric(LABELS)
        cast.update(logits, labels)
        cast.set_dtype(dtype)
        assert cast.compute() == expected


def test_flags_and_bad_input():
    metric = ChanceF1Metric(LABELS)
    assert (metric.higher_is_better, metric.full_state_update, metric.is_differentiable) == (True, False, False)
    with pytest.raises(ValueError, match="no labelled position was added"):
        metric.compute()
    with pytest.raises(ValueError, match="id 9 at sequence 0, position 1 is outside label_list"):
        metric.update(torch.tensor([[0, 9]]), torch.tensor([[0, 0]]))
    with pytest.raises(ValueError, match="intervals of the default resampling='multinomial' need every sentence"):
        ChanceF1Metric(LABELS, confidence_level=0.9)
    with pytest.raises(ValueError, match="label_list must be a non-empty sequence"):
        ChanceF1Metric([])


def _rank(rank: int, world: int, address: str, out: str) -> None:
    import torch.distributed as dist

    dist.init_process_group("gloo", init_method=address, rank=rank, world_size=world)
    try:
        logits, labels = evaluation_set()
        metric = ChanceF1Metric(LABELS, level="entity")
        if rank == 0:  # uneven shares: rank 0 scores 30 sequences in two batches, rank 1 ten
            metric.update(logits[:13], labels[:13])
            metric.update(logits[13:30], labels[13:30])
        else:
            metric.update(logits[30:], labels[30:])
        together = metric.compute()  # synchronised over both ranks
        alone = metric.chance_state().sentences  # after compute, this rank's own state again
        with open(f"{out}.{rank}", "w") as handle:
            json.dump({"together": together, "alone": alone}, handle)
    finally:
        dist.destroy_process_group()


def test_two_ranks_synchronise_the_exact_states(tmp_path):
    import socket

    import torch.multiprocessing as mp

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    out = str(tmp_path / "rank")
    mp.spawn(_rank, args=(2, f"tcp://127.0.0.1:{port}", out), nprocs=2, join=True)
    logits, labels = evaluation_set()
    expected = compute_metrics_fn(LABELS, level="entity")((logits.numpy(), labels.numpy()))
    results = [json.loads(open(f"{out}.{rank}").read()) for rank in (0, 1)]
    assert results[0]["together"] == results[1]["together"] == expected
    assert [r["alone"] for r in results] == [29, 10]  # sequence 3 has no labelled position


class TinyTagger(lightning.LightningModule):
    """An embedding and a linear layer: a real model in a real validation loop."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.embedding = torch.nn.Embedding(50, 8)
        self.head = torch.nn.Linear(8, len(LABELS))
        self.metric = ChanceF1Metric(LABELS, level="entity", zero_division=0)
        self.outputs: list = []

    def forward(self, tokens):
        return self.head(self.embedding(tokens))

    def validation_step(self, batch, batch_index):
        tokens, labels = batch
        logits = self(tokens)
        self.metric.update(logits, labels)
        self.outputs.append((logits.detach(), labels))

    def on_validation_epoch_end(self):
        self.log_dict(self.metric.compute())
        self.computed = self.metric.compute()
        self.metric.reset()


def test_a_lightning_validation_loop_logs_the_scores(tmp_path):
    _, labels = evaluation_set()
    tokens = torch.arange(labels.numel()).reshape(labels.shape) % 50
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(tokens, labels), batch_size=8)
    model = TinyTagger()
    trainer = lightning.Trainer(accelerator="cpu", devices=1, logger=False, enable_checkpointing=False,
                                enable_progress_bar=False, enable_model_summary=False, default_root_dir=tmp_path)
    logged = trainer.validate(model, loader, verbose=False)[0]
    logits = torch.cat([o[0] for o in model.outputs]).numpy()
    expected = compute_metrics_fn(LABELS, level="entity", zero_division=0)((logits, labels.numpy()))
    assert model.computed == expected  # the metric itself: bit for bit
    assert set(logged) == set(expected)
    for key, value in expected.items():  # Lightning logs float32 tensors
        assert logged[key] == pytest.approx(value, rel=1e-6, abs=1e-7)


def test_intervals_of_merged_metrics_need_document_ids():
    options = {"confidence_level": 0.9, "resampling": "poisson", "random_state": 3, "n_resamples": 40}
    logits, labels = evaluation_set()
    ids = torch.arange(len(labels))
    whole = ChanceF1Metric(LABELS, **options)
    whole.update(logits, labels, document_ids=ids)
    first, second = ChanceF1Metric(LABELS, **options), ChanceF1Metric(LABELS, **options)
    first.update(logits[:25], labels[:25], document_ids=ids[:25])
    second.update(logits[25:], labels[25:], document_ids=ids[25:])
    first.merge_state(second)
    assert first.compute() == whole.compute()
    positional = ChanceF1Metric(LABELS, **options), ChanceF1Metric(LABELS, **options)
    positional[0].update(logits[:25], labels[:25])
    positional[1].update(logits[25:], labels[25:])
    positional[0].merge_state(positional[1])
    with pytest.raises(ValueError, match="intervals of several ranks or merged metrics need document_ids"):
        positional[0].compute()
