"""Speed of the chance core (issue 11, the chance_f1 and coverage rows), in one run.

    python benchmarks/bench_chance_f1.py        (data from ../shared/data or $CHANCE_AGREEMENT_DATA)

Rows, each the best of ``REPEATS`` runs with every cache of the model cleared before each run
("first call"); a ratio is ours / peer measured in the same run, the two run alternately (the
machine is shared, so only same-run ratios are meaningful):

- ``chance_f1`` token level on the CoNLL-2003 test set (gold vs one system, 46,435 tokens) against
  seqeval's ``classification_report`` + ``accuracy_score`` (what our result also contains);
- the evaluate module's ``compute`` against a local evaluate module that calls seqeval the way
  evaluate's seqeval module does (``benchmarks/seqeval_peer_metric``; nothing from the Hub);
- ``chance_f1`` entity level against the same seqeval call;
- coverage of one text, ``n = 100,000, k = 2,000`` and ``n = 1,000,000, k = 20,000`` (segment
  lengths uniform in 1..5): absolute time, and peak traced memory for the larger one;
- the growth exponent of the long-text core: the slope of log(time) on log(n) at a fixed density
  (``k = n / 50``), n from 250,000 to 4,000,000.

``main()`` prints the table and returns 0; ``rows()`` returns it as a list of dicts.
"""

from __future__ import annotations

import math
import os
import sys
import tempfile
import time
import uuid
import tracemalloc
import warnings
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("CHANCE_AGREEMENT_DATA", REPO.parent / "shared" / "data"))
REPEATS = 5
SYSTEM = 0  # which of the three CoNLL-2003 system outputs is scored


def clear_caches() -> None:
    """Forget every cached distribution and expectation (the next call is a first call)."""
    from chance_agreement.chance.random_models import clear_caches as clear_model_caches

    clear_model_caches()


def best_time(function, repeats: int = REPEATS, clear: bool = True) -> float:
    best = math.inf
    for _ in range(repeats):
        if clear:
            clear_caches()
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


def best_pair(ours, peer, repeats: int = REPEATS, clear_peer: bool = False) -> tuple[float, float]:
    """Best times of ``ours`` (cold caches) and ``peer``, run alternately so that both see the
    same load on a shared machine."""
    best_ours = best_peer = math.inf
    for _ in range(repeats):
        best_peer = min(best_peer, best_time(peer, 1, clear=clear_peer))
        best_ours = min(best_ours, best_time(ours, 1))
    return best_ours, best_peer


def long_text(n: int, k: int, seed: int = 2024) -> list[int]:
    return [int(x) for x in np.random.default_rng(seed).integers(1, 6, size=k)]


def growth_exponent(sizes=(250_000, 500_000, 1_000_000, 2_000_000, 4_000_000)) -> float:
    from chance_agreement import coverage_probabilities

    times = [best_time(lambda n=n: coverage_probabilities(n, long_text(n, n // 50)), repeats=3) for n in sizes]
    return float(np.polyfit(np.log(sizes), np.log(times), 1)[0])


def rows() -> list[dict]:
    import evaluate
    from seqeval.metrics import accuracy_score, classification_report

    from chance_agreement import chance_f1, coverage_probabilities
    from chance_agreement.spans.conll import read_conll

    path = DATA / "conll03_systems" / "derived" / "conll03_test_gold_plus_3_systems.tsv"
    if not path.exists():
        raise FileNotFoundError(f"data not found: {path} (set CHANCE_AGREEMENT_DATA)")
    _, references, systems = read_conll(path, 1, (2, 3, 4))
    predictions = systems[SYSTEM]
    tokens = sum(map(len, references))
    # A private cache directory and experiment id: other jobs using the same module name would
    # otherwise share evaluate's cache files and locks with this run.
    private = {"cache_dir": tempfile.mkdtemp(prefix="bench_chance_f1_"), "experiment_id": uuid.uuid4().hex}
    ours_module = evaluate.load(str(REPO / "chance_f1_metric"), **private)
    peer_module = evaluate.load(str(REPO / "benchmarks" / "seqeval_peer_metric"), **private)
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        def seqeval():
            classification_report(references, predictions, output_dict=True)
            accuracy_score(references, predictions)

        token, peer = best_pair(lambda: chance_f1(predictions, references), seqeval)
        out.append({"path": f"chance_f1, token level, CoNLL-2003 test ({tokens:,} tokens), first call",
                    "ours_s": token, "peer": "seqeval classification_report", "peer_s": peer, "goal": 0.10})
        module, peer = best_pair(lambda: ours_module.compute(predictions=predictions, references=references),
                                 lambda: peer_module.compute(predictions=predictions, references=references))
        out.append({"path": "the evaluate module's compute", "ours_s": module,
                    "peer": "evaluate module calling seqeval", "peer_s": peer, "goal": 0.15})
        entity, peer = best_pair(lambda: chance_f1(predictions, references, level="entity"), seqeval)
        out.append({"path": "chance_f1, entity level", "ours_s": entity,
                    "peer": "seqeval classification_report", "peer_s": peer, "goal": 0.15})
    lengths = long_text(100_000, 2_000)
    out.append({"path": "coverage of one text, n = 100,000, k = 2,000",
                "ours_s": best_time(lambda: coverage_probabilities(100_000, lengths)), "goal_s": 0.05})
    lengths = long_text(1_000_000, 20_000)
    seconds = best_time(lambda: coverage_probabilities(1_000_000, lengths), repeats=3)
    clear_caches()
    tracemalloc.start()
    coverage_probabilities(1_000_000, lengths)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    out.append({"path": "coverage of one text, n = 1,000,000, k = 20,000", "ours_s": seconds,
                "peak_mb": peak / 1e6, "goal_s": 2.0, "goal_mb": 200})
    out.append({"path": "long-text core: growth exponent of time in n (k = n / 50)", "exponent": growth_exponent()})
    return out


def format_rows(table: list[dict]) -> str:
    lines = ["| path | ours | peer or limit | ratio | goal |", "|---|---|---|---|---|"]
    for row in table:
        if "exponent" in row:
            lines.append(f"| {row['path']} | {row['exponent']:.2f} | | | near 1 |")
        elif "peer_s" in row:
            ratio = row["ours_s"] / row["peer_s"]
            lines.append(f"| {row['path']} | {row['ours_s']:.4f} s | {row['peer']} {row['peer_s']:.4f} s "
                         f"| {ratio:.3f} | <= {row['goal']:.2f} |")
        else:
            memory = f", {row['peak_mb']:.0f} MB peak" if "peak_mb" in row else ""
            goal = f"<= {row['goal_s']:g} s" + (f", <= {row['goal_mb']} MB" if "goal_mb" in row else "")
            lines.append(f"| {row['path']} | {row['ours_s']:.4f} s{memory} | (no peer) | | {goal} |")
    return "\n".join(lines)


def main() -> int:
    try:
        table = rows()
    except FileNotFoundError as error:
        print(error, file=sys.stderr)
        return 1
    print(f"chance core, best of {REPEATS} runs, caches cleared before each run, same-run ratios\n")
    print(format_rows(table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
