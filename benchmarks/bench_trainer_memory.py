"""Peak memory of Trainer evaluation with compute_metrics_fn: concatenating mode against batch mode.

    python benchmarks/bench_trainer_memory.py                   (sizes 1,000 and 4,000 sentences)
    python benchmarks/bench_trainer_memory.py --sentences 500   (any sizes)

A synthetic evaluation set (sentences of 128 positions, 37 labels as in OntoNotes NER, random
token ids, 85% of the labels "O", 30% of the positions labelled -100 as padding, special tokens and
word-piece continuations would be) scored by a tiny BERT built from a config (no download, its
classifier biased towards "O" as a trained model's would be) through a real ``transformers.Trainer``. Each (mode, size) runs in a fresh Python process; a thread samples the
process's resident memory (``/proc/self/statm``) every 5 ms during ``trainer.evaluate()``. Printed:
the peak rise of resident memory over its level when evaluation starts, the time of
``evaluate()``, and whether both modes gave the same metrics bit for bit. In the concatenating mode
Trainer keeps every batch's logits (sentences x 128 x 37 floats) and labels until the end; in batch
mode ``compute_metrics_fn`` keeps only the additive statistics (``ChanceF1State``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import threading
import time

LABELS = ["O"] + [f"{prefix}-T{index}" for index in range(18) for prefix in ("B", "I")]  # 37 labels
LENGTH = 128
VOCABULARY = 200
PAGE = 4096


def resident_bytes() -> int:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * PAGE


class PeakSampler(threading.Thread):
    """Samples resident memory until stopped; ``peak`` is the highest value seen."""

    def __init__(self, interval: float = 0.005):
        super().__init__(daemon=True)
        self.interval, self.peak, self.running = interval, resident_bytes(), True

    def run(self):
        while self.running:
            self.peak = max(self.peak, resident_bytes())
            time.sleep(self.interval)

    def stop(self) -> int:
        self.running = False
        self.join()
        return max(self.peak, resident_bytes())


class Synthetic:
    """A map-style dataset of fixed-length rows (no Arrow, so only evaluation allocates)."""

    def __init__(self, sentences: int, seed: int = 0):
        import torch

        generator = torch.Generator().manual_seed(seed)
        self.input_ids = torch.randint(5, VOCABULARY, (sentences, LENGTH), generator=generator)
        self.labels = torch.randint(0, len(LABELS), (sentences, LENGTH), generator=generator)
        self.labels[torch.rand((sentences, LENGTH), generator=generator) < 0.85] = 0  # mostly outside entities
        self.labels[torch.rand((sentences, LENGTH), generator=generator) < 0.3] = -100
        self.labels[:, 0] = -100  # [CLS]

    def __len__(self):
        return len(self.input_ids)

    def __getitem__(self, index):
        return {"input_ids": self.input_ids[index], "attention_mask": self.input_ids[index] * 0 + 1,
                "labels": self.labels[index]}


def run_one(sentences: int, batched: bool, output_dir: str) -> dict:
    """One evaluation in this process: peak rise of resident memory, seconds, the metrics."""
    import torch
    from transformers import BertConfig, BertForTokenClassification, Trainer, TrainingArguments

    from chance_agreement import compute_metrics_fn

    torch.manual_seed(0)
    config = BertConfig(vocab_size=VOCABULARY, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                        intermediate_size=64, max_position_embeddings=LENGTH, num_labels=len(LABELS))
    args = TrainingArguments(output_dir=output_dir, report_to=[], use_cpu=True, disable_tqdm=True,
                             per_device_eval_batch_size=64, batch_eval_metrics=batched, dataloader_num_workers=0)
    model = BertForTokenClassification(config)
    with torch.no_grad():
        model.classifier.bias[0] += 4.0  # an untrained model that mostly predicts "O", as a trained one does
    trainer = Trainer(model=model, args=args, eval_dataset=Synthetic(sentences),
                      compute_metrics=compute_metrics_fn(LABELS, zero_division=0))
    start_memory = resident_bytes()
    sampler = PeakSampler()
    sampler.start()
    start = time.perf_counter()
    metrics = trainer.evaluate()
    seconds = time.perf_counter() - start
    peak = sampler.stop()
    scores = {key: value for key, value in metrics.items()
              if key.startswith("eval_") and not key.endswith(("_runtime", "_per_second", "_preparation_time"))}
    return {"rise": peak - start_memory, "seconds": seconds, "metrics": scores}


def measure(sentences: int, batched: bool) -> dict:
    """``run_one`` in a fresh Python process (so one mode's allocations cannot hide the other's)."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        code = ("import json, sys; sys.path.insert(0, sys.argv[1]); import bench_trainer_memory as b; "
                "print(json.dumps(b.run_one(int(sys.argv[2]), sys.argv[3] == '1', sys.argv[4])))")
        done = subprocess.run([sys.executable, "-c", code, str(_here()), str(sentences), "1" if batched else "0",
                               folder], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-2000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def _here():
    from pathlib import Path

    return Path(__file__).resolve().parent


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, nargs="+", default=[1000, 4000])
    args = parser.parse_args(argv)
    print(f"tiny BERT, {LENGTH} positions, {len(LABELS)} labels, eval batch 64; peak rise of resident memory "
          "during trainer.evaluate(), fresh process per row\n")
    print("| sentences | concatenating mode | batch mode (batch_eval_metrics=True) | same metrics |")
    print("|---|---|---|---|")
    for sentences in args.sentences:
        concatenated, batched = measure(sentences, False), measure(sentences, True)
        same = concatenated["metrics"] == batched["metrics"]
        print(f"| {sentences:,} | +{concatenated['rise'] / 2**20:.0f} MiB, {concatenated['seconds']:.1f} s "
              f"| +{batched['rise'] / 2**20:.0f} MiB, {batched['seconds']:.1f} s | {'yes' if same else 'NO'} |")
        if not same:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
