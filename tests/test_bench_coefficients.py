"""benchmarks/bench_coefficients.py stays importable and prints its rows (no timing assertions)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_coefficients.py"


def test_benchmark_main_prints_same_run_ratios(capsys):
    spec = importlib.util.spec_from_file_location("bench_coefficients", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--repeats", "1", "--rows", "fleiss"]) == 0
    out = capsys.readouterr().out
    assert "best of 1 runs" in out
    line = next(line for line in out.splitlines() if line.startswith("| Fleiss' kappa, 100,000 x 10"))
    assert line.rstrip().endswith("statsmodels |") and "x |" in line
