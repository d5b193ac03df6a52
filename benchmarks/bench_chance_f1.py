"""Speed of chance_f1 on the CoNLL-2003 test set, measured against seqeval in the same run.

    python benchmarks/bench_chance_f1.py            (data from ../shared/data or $CHANCE_AGREEMENT_DATA)

Prints, per system: seqeval's classification_report time, our full result's time (seqeval's
scores included) through the core function and through ``evaluate.load("chance_f1_metric")``
``.compute`` (which adds evaluate's Arrow round trip), the time of the chance part alone
(random-model expectations for every sentence and type, cold caches), and the ratios; then a
100,000-token document with 2,000 segments.
Each figure is the best of several runs, with the model's caches cleared before every run.
"""

from __future__ import annotations

import os
import sys
import time
import warnings
from collections import defaultdict
from pathlib import Path

import numpy as np
from seqeval.metrics import accuracy_score, classification_report

from chance_agreement import chance_f1, coverage_probabilities
from chance_agreement.spans.conll import read_conll
from chance_agreement.chance.random_model import _coverage, _start_distribution
from chance_agreement.spans.tags import corpus_spans

REPO = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("CHANCE_AGREEMENT_DATA", REPO.parent / "shared" / "data"))
REPEATS = 5


def clear_caches():
    _coverage.cache_clear()
    _start_distribution.cache_clear()


def best_time(function, repeats=REPEATS, clear=True):
    best = float("inf")
    for _ in range(repeats):
        if clear:
            clear_caches()
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


def chance_part(predictions, references):
    """Only the random-model expectations: coverage products for every sentence and type."""
    pred_spans = corpus_spans(predictions, "predictions")
    true_spans = corpus_spans(references, "references")

    def run():
        total = 0.0
        for tags, pred, true in zip(references, pred_spans, true_spans):
            lengths = defaultdict(lambda: ([], []))
            for name, start, end in pred:
                lengths[name][0].append(end - start)
            for name, start, end in true:
                lengths[name][1].append(end - start)
            for a, b in lengths.values():
                if a and b:
                    total += float(_coverage(len(tags), tuple(sorted(a)), "non_overlapping") @ _coverage(len(tags), tuple(sorted(b)), "non_overlapping"))
        return total

    return run


def main() -> int:
    path = DATA / "conll03_systems" / "derived" / "conll03_test_gold_plus_3_systems.tsv"
    if not path.exists():
        print(f"data not found: {path} (set CHANCE_AGREEMENT_DATA)", file=sys.stderr)
        return 1
    _, references, systems = read_conll(path, 1, (2, 3, 4))
    print(f"CoNLL-2003 test: {len(references)} sentences, {sum(map(len, references))} tokens; best of {REPEATS} runs\n")
    import evaluate

    module = evaluate.load(str(REPO / "chance_f1_metric"))
    print(f"{'system':<10}{'seqeval s':>11}{'ours s':>9}{'ratio':>8}{'module s':>10}{'ratio':>8}"
          f"{'chance s':>10}{'chance/seqeval':>16}")
    warnings.simplefilter("ignore")
    for index, predictions in enumerate(systems, start=1):
        seqeval_time = best_time(lambda: (classification_report(references, predictions, output_dict=True),
                                          accuracy_score(references, predictions)), clear=False)
        ours_time = best_time(lambda: chance_f1(predictions, references))
        module_time = best_time(lambda: module.compute(predictions=predictions, references=references))
        chance_time = best_time(chance_part(predictions, references))
        print(f"{'system ' + str(index):<10}{seqeval_time:>11.3f}{ours_time:>9.3f}{ours_time / seqeval_time:>8.2f}"
              f"{module_time:>10.3f}{module_time / seqeval_time:>8.2f}"
              f"{chance_time:>10.3f}{chance_time / seqeval_time:>16.2f}")

    rng = np.random.default_rng(2024)
    lengths = [int(x) for x in rng.integers(1, 6, size=2000)]
    long_time = best_time(lambda: coverage_probabilities(100_000, lengths), repeats=3)
    print(f"\n100,000-token document, 2,000 segments (lengths 1-5): coverage in {long_time:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
