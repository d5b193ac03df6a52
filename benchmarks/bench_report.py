"""Size and build time of the HTML report of CoNLL-2003 gold against one system (budget: < 5 MB, < 3 s).

    python benchmarks/bench_report.py            (data from ../shared/data or $CHANCE_AGREEMENT_DATA)

Prints, best of several runs: reading the two columns, gathering the results (``report_data``:
chance F1 with sentence scores, contingency table and coefficients, noise bound), rendering the
page (``render_report``), and the page's size; then the same for the three-system leaderboard
and the three-annotator page.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from chance_agreement.reports.html_report import load_annotations, render_report, report_data

REPO = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("CHANCE_AGREEMENT_DATA", REPO.parent / "shared" / "data"))
FILE = DATA / "conll03_systems" / "derived" / "conll03_test_gold_plus_3_systems.tsv"
REPEATS = 3


def best(function, repeats=REPEATS):
    times, value = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        value = function()
        times.append(time.perf_counter() - start)
    return min(times), value


def measure(label, columns, names, **options):
    read, (tokens, annotations) = best(lambda: load_annotations([f"{FILE}:{c}" for c in columns], names))
    gather, data = best(lambda: report_data(tokens, annotations, **options))
    render, page = best(lambda: render_report(data))
    size = len(page.encode("utf-8"))
    total = read + gather + render
    print(f"{label:<38}{read:>8.2f}{gather:>9.2f}{render:>9.3f}{total:>8.2f}{size / 1e6:>10.3f}")
    return total, size


def main() -> int:
    if not FILE.exists():
        print(f"CoNLL-2003 data not found at {FILE} (set CHANCE_AGREEMENT_DATA)", file=sys.stderr)
        return 1
    print(f"best of {REPEATS} runs, seconds; size in MB (budget for gold vs one system: < 3 s, < 5 MB)\n")
    print(f"{'page':<38}{'read':>8}{'gather':>9}{'render':>9}{'total':>8}{'size MB':>10}")
    total, size = measure("CoNLL-2003 gold vs one system", (1, 2), ["gold", "lstm"])
    measure("leaderboard: gold + three systems", (1, 2, 3, 4), ["gold", "lstm", "flair", "bert"], leaderboard=True)
    measure("three annotators (the three systems)", (2, 3, 4), ["lstm", "flair", "bert"])
    within = total < 3.0 and size < 5e6
    print(f"\ngold vs one system: {total:.2f} s, {size / 1e6:.3f} MB: {'within' if within else 'OVER'} budget")
    return 0


if __name__ == "__main__":
    sys.exit(main())
