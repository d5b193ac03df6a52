"""The coefficient paths on large nominal data (issue 26, item 3), in one run.

    python benchmarks/bench_large_nominal.py [--items 483000] [--labels 40]

Generated, seeded: ``--items`` tokens rated by two annotators who agree on 90%, labels drawn from
``--labels`` nominal categories (strings). Prints the bare coefficient functions
(``fleiss_kappa``, ``krippendorff_alpha``) against ``multi_rater_agreement`` (the whole Gwet family
with standard errors) and ``multi_rater_report`` (the bare two plus the family): the report should
cost about the bare functions plus the family, the family about a few bare functions. Then
``fleiss_kappa`` on the same tokens with 222 labels, which a dense items x categories table (107
million cells) would not hold: counted sparsely. Best of ``--repeats`` runs each.
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np


def ratings(items: int, labels: int, seed: int = 26) -> list[list[str]]:
    rng = np.random.default_rng(seed)
    names = np.array([f"label-{i}" for i in range(labels)], dtype=object)
    first = rng.integers(0, labels, items)
    second = np.where(rng.random(items) < 0.9, first, rng.integers(0, labels, items))
    return np.stack([names[first], names[second]], axis=1).tolist()


def best(function, repeats: int) -> float:
    seconds = math.inf
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        seconds = min(seconds, time.perf_counter() - start)
    return seconds


def main(argv=None) -> int:
    from chance_agreement import fleiss_kappa, krippendorff_alpha
    from chance_agreement.reliability.multi_rater import multi_rater_agreement
    from chance_agreement.reliability.multi_rater_tags import multi_rater_report

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=483_000)
    parser.add_argument("--labels", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args(argv)
    data = ratings(args.items, args.labels)
    rows = [("fleiss_kappa", lambda: fleiss_kappa(data)), ("krippendorff_alpha", lambda: krippendorff_alpha(data)),
            ("multi_rater_agreement", lambda: multi_rater_agreement(data)),
            ("multi_rater_report", lambda: multi_rater_report(data))]
    times = {name: best(call, args.repeats) for name, call in rows}
    bare = times["fleiss_kappa"] + times["krippendorff_alpha"]
    print(f"{args.items:,} items x 2 annotators, {args.labels} nominal labels, best of {args.repeats}\n")
    print("| path | time | / (fleiss_kappa + krippendorff_alpha) |\n|---|---|---|")
    for name, seconds in times.items():
        print(f"| {name} | {seconds:.2f} s | {seconds / bare:.2f} |")
    many = ratings(args.items, 222)
    try:
        print(f"| fleiss_kappa, 222 labels (sparse counting) | {best(lambda: fleiss_kappa(many), args.repeats):.2f} s | |")
    except ValueError as error:  # a dense count table refuses this size
        print(f"| fleiss_kappa, 222 labels | ValueError: {error} | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
