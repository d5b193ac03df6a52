"""What 1,000 bootstrap resamples add to chance_f1 on the CoNLL-2003 test set (issue 12, item 5).

    python benchmarks/bench_intervals.py            (data from ../shared/data or $CHANCE_AGREEMENT_DATA)

Prints, per level and for the first system: the point estimate's time (``chance_f1``), the same
call with ``confidence_level=0.95`` (1,000 resamples), their difference, and the interval part
alone (``add_intervals`` on the per-sentence statistics: matrix, weights, matrix product,
quantiles), which is what the resamples cost; then ``compare_systems``'s tests (1,000 resamples
and 1,000 permutations) on the per-sentence statistics. Best of several runs; the random model's
caches are warm in every run, as in repeated evaluation.
"""

from __future__ import annotations

import sys
import warnings

from chance_agreement import chance_f1
from chance_agreement.chance.bootstrap_intervals import add_intervals
from chance_agreement.chance.corrected_f1 import corpus_statistics, scores_from_statistics
from chance_agreement.chance.system_comparison import compare_statistics
from chance_agreement.spans.conll import read_conll

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
from bench_chance_f1 import DATA, best_time  # noqa: E402  (the same timing loop and data folder)

REPEATS = 7
BUDGET = 0.2  # seconds the issue allows the resamples to add
SYSTEMS_FILE = DATA / "conll03_systems" / "derived" / "conll03_test_gold_plus_3_systems.tsv"


def timed(function) -> float:
    """Best of ``REPEATS`` runs, the random model's caches kept warm."""
    return best_time(function, repeats=REPEATS, clear=False)


def main() -> int:
    if not SYSTEMS_FILE.exists():
        print(f"data not found: {SYSTEMS_FILE} (set CHANCE_AGREEMENT_DATA)", file=sys.stderr)
        return 1
    _, references, (predictions, other, _unused) = read_conll(SYSTEMS_FILE, 1, (2, 3, 4))
    warnings.simplefilter("ignore")
    print(f"CoNLL-2003 test: {len(references)} sentences; 1,000 resamples; best of {REPEATS} runs\n")
    print(f"{'level':<8}{'point s':>9}{'with CI s':>11}{'added s':>9}{'intervals alone s':>19}{'within 0.2 s':>14}")
    for level in ("token", "entity"):
        point = timed(lambda: chance_f1(predictions, references, level=level))
        with_ci = timed(lambda: chance_f1(predictions, references, level=level, confidence_level=0.95,
                                              random_state=0))
        total, sentences = corpus_statistics(predictions, references, levels=(level,))
        result = scores_from_statistics(total, level, zero_division=0)
        alone = timed(lambda: add_intervals(dict(result, **{k: dict(v) for k, v in result.items()
                                                                 if isinstance(v, dict)}),
                                                sentences, level, 0, 0.95, 1000, 0))
        print(f"{level:<8}{point:>9.3f}{with_ci:>11.3f}{with_ci - point:>9.3f}{alone:>19.3f}"
              f"{'yes' if alone <= BUDGET else 'NO':>14}")
    _, sentences_a = corpus_statistics(predictions, references)
    _, sentences_b = corpus_statistics(other, references)
    comparison = timed(lambda: compare_statistics(sentences_a, sentences_b, random_state=0))
    print(f"\ncompare two systems (paired bootstrap + approximate randomization, 1,000 each): {comparison:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
