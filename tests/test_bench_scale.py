"""benchmarks/bench_scale.py stays importable and prints its rows (no timing assertions)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_scale.py"


def test_benchmark_prints_the_many_types_and_many_annotators_rows(capsys):
    spec = importlib.util.spec_from_file_location("bench_scale", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--tokens", "4000", "--types", "5,50", "--annotator-tokens", "2000", "--annotators", "2,4",
                        "--nominal-items", "3000", "--labels", "40", "--repeats", "1"]) == 0
    out = capsys.readouterr().out
    assert "agreement_report grows as types^" in out
    assert "10,000 types: refused after" in out
    assert [line.split(" | ")[0] for line in out.splitlines() if line.startswith("| 4 | 6 |")] == ["| 4"]
    assert "3,000 items x 3 raters x 40 labels" in out
    assert [line.split(" | ")[0].split(" (")[0] for line in out.splitlines() if line.startswith("| multi_rater")] == [
        "| multi_rater_agreement", "| multi_rater_report"]
