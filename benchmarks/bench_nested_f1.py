"""Speed of span input and the nested model on the CoNLL-2003 test set (flat spans, one layer),
against chance_f1 on the tags in the same run, and on a synthetic nested corpus.

    python benchmarks/bench_nested_f1.py            (data from ../shared/data or $CHANCE_AGREEMENT_DATA)

Each figure is the best of several runs with the random model's caches cleared before every run.
"""

from __future__ import annotations

import os
import time
import warnings
from pathlib import Path

import numpy as np

from chance_agreement import chance_f1, nested_chance_f1, span_chance_f1
from chance_agreement.chance.random_models import clear_caches
from chance_agreement.spans.conll import read_conll
from chance_agreement.spans.tags import spans_from_tags

REPO = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("CHANCE_AGREEMENT_DATA", REPO.parent / "shared" / "data"))
REPEATS = 5


def best_time(function) -> float:
    times = []
    for _ in range(REPEATS):
        clear_caches()
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def synthetic_nested(rng, sentences=2000, n=25):
    """Per sentence: up to 3 top-level spans, each with up to 2 children, some with a grandchild."""
    corpus = []
    for _ in range(sentences):
        spans, position = [], int(rng.integers(0, 3))
        while position < n - 4 and len(spans) < 9:
            length = int(rng.integers(1, 7))
            end = min(n, position + length)
            spans.append((position, end, str(rng.choice(["ORG", "LOC", "PER"]))))
            if end - position >= 3 and rng.random() < 0.7:
                spans.append((position + 1, end - 1, str(rng.choice(["LOC", "PER"]))))
                if end - position >= 5 and rng.random() < 0.5:
                    spans.append((position + 2, position + 3, "PER"))
            position = end + int(rng.integers(1, 4))
        corpus.append(spans)
    return corpus


def main() -> None:
    warnings.simplefilter("ignore")
    path = DATA / "conll03_systems" / "derived" / "conll03_test_gold_plus_3_systems.tsv"
    _, references, (predictions,) = read_conll(path, 1, (2,))
    lengths = [len(tags) for tags in references]
    as_spans = lambda corpus: [[(s, e, label) for label, s, e in spans_from_tags(tags)] for tags in corpus]
    spans_a, spans_b = as_spans(predictions), as_spans(references)
    print(f"CoNLL-2003 test, system 1 ({len(lengths)} sentences, {sum(lengths)} tokens), best of {REPEATS}:")
    for level in ("token", "entity"):
        tags = best_time(lambda: chance_f1(predictions, references, level=level))
        spans = best_time(lambda: span_chance_f1(spans_a, spans_b, lengths, level=level))
        nested = best_time(lambda: nested_chance_f1(spans_a, spans_b, lengths, level=level))
        print(f"  {level:6}  chance_f1 {tags:.3f} s   span_chance_f1 {spans:.3f} s ({spans / tags:.2f}x)"
              f"   nested_chance_f1 {nested:.3f} s ({nested / tags:.2f}x)")
    rng = np.random.default_rng(0)
    first, second = synthetic_nested(rng), synthetic_nested(rng)
    seconds = best_time(lambda: nested_chance_f1(first, second, [25] * len(first), level="entity"))
    count = sum(map(len, first)) + sum(map(len, second))
    print(f"synthetic nested corpus, 2,000 sentences of 25 tokens, {count} spans, depth <= 2: {seconds:.3f} s (entity level)")


if __name__ == "__main__":
    main()
