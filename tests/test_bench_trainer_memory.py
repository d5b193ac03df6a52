"""benchmarks/bench_trainer_memory.py runs (at a small size) and prints its row: both Trainer modes in
fresh processes, the same metrics bit for bit, and the batch mode's peak below the concatenating
mode's once the logits outweigh the fixed costs (no timing assertions)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from conftest import require_torch

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_trainer_memory.py"


def test_benchmark_prints_both_modes_with_the_same_metrics(capsys):
    require_torch()
    spec = importlib.util.spec_from_file_location("bench_trainer_memory", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--sentences", "1200"]) == 0
    out = capsys.readouterr().out
    (row,) = [line for line in out.splitlines() if line.startswith("| 1,200 |")]
    concatenated, batched = (int(value) for value in re.findall(r"\+(\d+) MiB", row))
    assert row.rstrip().endswith("| yes |")
    assert batched < concatenated, row  # 1,200 x 128 x 37 float32 logits alone are 22 MiB
