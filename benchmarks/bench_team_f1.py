"""Speed of team_chance_f1 on the CoNLL-2003 test set: the gold standard and the three system
outputs as a team of m = 2, 3, 4 annotators, beside the two-annotator chance_f1 in the same run.

    python benchmarks/bench_team_f1.py            (data from ../shared/data or $CHANCE_AGREEMENT_DATA)

Every figure is the best of several runs with the random model's caches cleared before each run;
the m-annotator time grows with the m (m - 1) / 2 pairs, the random model being shared.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from chance_agreement import chance_f1, team_chance_f1
from chance_agreement.chance.random_models import clear_caches
from chance_agreement.spans.conll import read_conll

REPO = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("CHANCE_AGREEMENT_DATA", REPO.parent / "shared" / "data"))
REPEATS = 5


def best_time(function):
    best = float("inf")
    for _ in range(REPEATS):
        clear_caches()
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


def main():
    path = DATA / "conll03_systems" / "derived" / "conll03_test_gold_plus_3_systems.tsv"
    _, references, systems = read_conll(path, 1, (2, 3, 4))
    for level in ("token", "entity"):
        two = best_time(lambda: chance_f1(systems[0], references, level=level))
        print(f"{level}: chance_f1 (2 annotators) {two:.3f} s")
        for m in (2, 3, 4):
            team = [references, *systems[: m - 1]]
            seconds = best_time(lambda: team_chance_f1(team, level=level))
            print(f"{level}: team_chance_f1 m={m} ({m * (m - 1) // 2} pairs) {seconds:.3f} s, ratio {seconds / two:.2f}")


if __name__ == "__main__":
    main()
