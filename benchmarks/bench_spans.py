"""Speed of span extraction (tags -> entities) on the CoNLL-2003 test set, against seqeval.

    python benchmarks/bench_spans.py            (data from ../shared/data or $CHANCE_AGREEMENT_DATA)

For each system: ``paired_spans`` (both sides, input checks included, seqeval's default
chunker) and seqeval's ``get_entities`` on the same two corpora, best of REPEATS runs each in the
same process, and their ratio; the spans are checked to be seqeval's before timing.
"""

from __future__ import annotations

import os
import sys
import time
import warnings
from pathlib import Path

from seqeval.metrics.sequence_labeling import get_entities

from chance_agreement.spans.conll import read_conll
from chance_agreement.spans.tags import paired_spans

REPO = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("CHANCE_AGREEMENT_DATA", REPO.parent / "shared" / "data"))
REPEATS = int(os.environ.get("REPEATS", 5))


def best_time(function, repeats=REPEATS):
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


def flat_spans(spans, sentences):
    """Per-sentence spans in seqeval's flat coordinates (an O after every sentence), end inclusive."""
    out, offset = [], 0
    for sentence_spans, sentence in zip(spans, sentences):
        out += [(name, start + offset, end - 1 + offset) for name, start, end in sentence_spans]
        offset += len(sentence) + 1
    return out


def main() -> int:
    path = DATA / "conll03_systems" / "derived" / "conll03_test_gold_plus_3_systems.tsv"
    if not path.is_file():
        print(f"CoNLL-2003 systems file not found at {path} (set CHANCE_AGREEMENT_DATA)", file=sys.stderr)
        return 1
    _, references, systems = read_conll(path, 1, (2, 3, 4))
    tokens = sum(map(len, references))
    print(f"span extraction, CoNLL-2003 test ({tokens:,} tokens, {len(references):,} sentences), both sides, best of {REPEATS}")
    print(f"{'system':>8} {'ours ms':>9} {'seqeval ms':>11} {'ratio':>7}")
    warnings.simplefilter("ignore")
    for index, predictions in enumerate(systems):
        ours = paired_spans(predictions, references)
        assert flat_spans(ours[0], predictions) == get_entities(predictions)
        assert flat_spans(ours[1], references) == get_entities(references)
        t_ours = best_time(lambda: paired_spans(predictions, references))
        t_seqeval = best_time(lambda: (get_entities(predictions), get_entities(references)))
        print(f"{index:>8} {t_ours * 1e3:>9.2f} {t_seqeval * 1e3:>11.2f} {t_ours / t_seqeval:>7.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
