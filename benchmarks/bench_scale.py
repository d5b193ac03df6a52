"""Many entity types and many annotators (issue 24, items 3b and 3c), in one run.

    python benchmarks/bench_scale.py [--tokens 100000] [--types 10,100,1000] [--annotators 2,5,10,20]
                                     [--nominal-items 483000] [--labels 222]

Generated, seeded: sentences of 20 tokens, BIO tags, about a third of the tokens in entities of
1-3 tokens; every other annotator changes about a tenth of the first one's tags.

- Many types: ``agreement_report`` (every coefficient, the category probabilities, unitizing alpha
  and chance F1 of two annotators), and ``coefficients`` of the "all" contingency table built from
  the tags against scikit-learn's ``cohen_kappa_score`` given the same tokens' categories (the
  fastest peer, kappa alone); the growth exponent of ``agreement_report`` over the type counts;
  then the refusal of 10,000 types (a 10^8-cell table), which must come at once.
- Many annotators: ``team_chance_f1`` (token level) of m annotators against ``chance_f1`` of one
  pair in the same run: the m (m - 1) / 2 pairs share each annotator's chunking, so the cost per
  pair is a fraction of a lone pair's.
- Many nominal labels and several raters (issue 26, item 3): ``multi_rater_agreement`` (Gwet's
  family with standard errors, Conger, alpha's inference, Light's jackknife, Fleiss per category)
  and ``multi_rater_report`` on ``--nominal-items`` tokens x 3 raters x ``--labels`` labels (the
  dense items x categories table would be 107 million cells) against the bare ``fleiss_kappa`` +
  ``krippendorff_alpha`` in the same run, with the family's peak memory (tracemalloc, separate run).

Best of ``--repeats`` runs each.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
import warnings

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
from bench_large_nominal import best  # noqa: E402  (the same best-of-n timing loop)


def annotations(sentences: int, types: int, annotators: int, seed: int = 24) -> list:
    rng = random.Random(seed)
    names = [f"T{i}" for i in range(types)]
    first = []
    for _ in range(sentences):
        sentence = []
        while len(sentence) < 20:
            if rng.random() < 0.3:
                kind = rng.choice(names)
                sentence += [f"B-{kind}"] + [f"I-{kind}"] * rng.randint(0, 2)
            else:
                sentence.append("O")
        first.append(sentence[:20])
    others = [[[("O" if rng.random() < 0.5 else f"B-{rng.choice(names)}") if rng.random() < 0.1 else tag
                for tag in sentence] for sentence in first] for _ in range(annotators - 1)]
    return [first] + others


def many_types(tokens: int, type_counts: list[int], repeats: int) -> None:
    from sklearn.metrics import cohen_kappa_score

    from chance_agreement.reliability.agreement_coefficients import agreement_report, coefficients
    from chance_agreement.reliability.contingency_table import TooManyCategories, contingency, token_categories
    from chance_agreement.spans.tags import spans_from_tags

    print(f"Many types: 2 annotators, {tokens:,} tokens, best of {repeats}\n")
    print("| types | agreement_report | contingency + coefficients | sklearn cohen_kappa_score | ours / sklearn |")
    print("|---|---|---|---|---|")
    times = []
    for types in type_counts:
        first, second = annotations(tokens // 20, types, 2)
        labels = [[label for tags in corpus for label in token_categories(spans_from_tags(tags), len(tags))]
                  for corpus in (first, second)]
        report = best(lambda: agreement_report(second, first), repeats)
        table_time = best(lambda: coefficients(*contingency(second, first)), repeats)
        peer = best(lambda: cohen_kappa_score(labels[0], labels[1]), repeats)
        times.append(report)
        print(f"| {types:,} | {report:.2f} s | {table_time:.3f} s | {peer:.3f} s | {table_time / peer:.2f} x |")
    if len(type_counts) > 1:
        exponent = math.log(times[-1] / times[0]) / math.log(type_counts[-1] / type_counts[0])
        print(f"\nagreement_report grows as types^{exponent:.2f} over {type_counts[0]:,} -> {type_counts[-1]:,} types")
    first, second = annotations(100_000 // 20, 10_000, 2)  # 100,000 tokens: about 9,600 types used
    start = time.perf_counter()
    try:
        agreement_report(second, first)
        print("10,000 types: computed (no refusal)")
    except TooManyCategories as error:
        print(f"10,000 types: refused after {time.perf_counter() - start:.2f} s: {str(error)[:90]}...")


def many_annotators(tokens: int, counts: list[int], repeats: int) -> None:
    from chance_agreement import chance_f1, team_chance_f1
    from chance_agreement.chance.team_f1 import by_item

    print(f"\nMany annotators: {tokens:,} tokens, 5 types, token level, best of {repeats}\n")
    print("| annotators | pairs | team_chance_f1 | per pair | chance_f1, one pair (same run) | per pair / one pair |")
    print("|---|---|---|---|---|---|")
    team = annotations(tokens // 20, 5, max(counts))
    pair = best(lambda: chance_f1(team[1], team[0], zero_division=0), repeats)
    for m in counts:
        items = by_item(team[:m])
        seconds = best(lambda: team_chance_f1(items, zero_division=0), repeats)
        pairs = m * (m - 1) // 2
        print(f"| {m} | {pairs:,} | {seconds:.2f} s | {seconds / pairs:.3f} s | {pair:.3f} s | {seconds / pairs / pair:.2f} x |")


def many_labels(items: int, labels: int, repeats: int) -> None:
    import tracemalloc

    import numpy as np

    from chance_agreement import fleiss_kappa, krippendorff_alpha
    from chance_agreement.reliability.multi_rater import multi_rater_agreement
    from chance_agreement.reliability.multi_rater_tags import multi_rater_report

    rng = np.random.default_rng(26)  # three raters who agree with a common label 80% of the time each
    truth = rng.integers(0, labels, items)
    codes = np.where(rng.random((items, 3)) < 0.8, truth[:, None], rng.integers(0, labels, (items, 3)))
    ratings = np.array([f"label-{i}" for i in range(labels)], dtype=object)[codes].tolist()
    bare = best(lambda: (fleiss_kappa(ratings), krippendorff_alpha(ratings)), repeats)
    family = best(lambda: multi_rater_agreement(ratings), repeats)
    report = best(lambda: multi_rater_report(ratings), repeats)
    tracemalloc.start()
    multi_rater_agreement(ratings)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"\nMany nominal labels: {items:,} items x 3 raters x {labels} labels, best of {repeats}\n")
    print("| path | time | / (fleiss_kappa + krippendorff_alpha), same run |\n|---|---|---|")
    print(f"| fleiss_kappa + krippendorff_alpha | {bare:.2f} s | 1.00 x |")
    print(f"| multi_rater_agreement (peak {peak / 1e6:.0f} MB) | {family:.2f} s | {family / bare:.2f} x |")
    print(f"| multi_rater_report | {report:.2f} s | {report / bare:.2f} x |")


def numbers(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=100_000)
    parser.add_argument("--types", type=numbers, default=[10, 100, 1000])
    parser.add_argument("--annotator-tokens", type=int, default=40_000)
    parser.add_argument("--annotators", type=numbers, default=[2, 5, 10, 20])
    parser.add_argument("--nominal-items", type=int, default=483_000)
    parser.add_argument("--labels", type=int, default=222)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")  # types without a reference span: recall 0/0 warnings
    many_types(args.tokens, args.types, args.repeats)
    many_annotators(args.annotator_tokens, args.annotators, args.repeats)
    many_labels(args.nominal_items, args.labels, args.repeats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
