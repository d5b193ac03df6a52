"""Load cases of the nested span scorer (issue 24, item 3a), each against the flat path in the same run.

    python benchmarks/bench_nested_load.py [CASE ...] [--timeout SECONDS]

Cases (one sentence each: a long document is the worst case for per-sentence work):

- ``32k``: 32,000 tokens, 3,200 spans per annotator, a third of them nested in another;
- ``1m``: 1,000,000 tokens, 100,000 spans per annotator, likewise;
- ``labels1000`` and ``labels4000``: one extent carrying 1,000 (4,000) labels, each a span, both
  annotators (the forest's same-extent siblings);
- ``depth1000``: a chain of 1,000 spans, each strictly inside the previous one, in 2,001 tokens
  (the other annotator: every other span of it);
- ``corpus+depth1000``: 2,000 sentences of 25 tokens with spans nested up to depth 2, and that
  chain as one more sentence (the corpus's depth is the deepest sentence's).

Each case runs in its own process (token level, ``nested_chance_f1``), with ``chance_f1`` on the
outermost spans' IOB2 tags of the same document beside it: the flat path the nested one should
stay within a constant factor of (not for the label cases: same-extent siblings have no flat
form). A case still running after ``--timeout`` seconds (default 600)
is reported as such.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

import numpy as np

CASES = ("32k", "1m", "labels1000", "labels4000", "depth1000", "corpus+depth1000")
LABELS = ("PER", "LOC", "ORG", "MISC")


def document(n: int, spans: int, seed: int) -> list[tuple[int, int, str]]:
    """About ``spans`` spans over ``n`` tokens: top-level spans of 1..8 tokens at random gaps, a
    third of those of 3 tokens or more holding one child strictly inside."""
    rng = np.random.default_rng(seed)
    out, position = [], 0
    step = max(2, (2 * n) // max(1, spans))
    while position < n and len(out) < spans:
        length = int(rng.integers(1, 9))
        end = min(n, position + length)
        out.append((position, end, LABELS[int(rng.integers(0, 4))]))
        if end - position >= 3 and rng.random() < 0.6 and len(out) < spans:
            out.append((position + 1, end - 1, LABELS[int(rng.integers(0, 4))]))
        position = end + int(rng.integers(1, step))
    return out


def perturbed(spans, seed: int) -> list[tuple[int, int, str]]:
    """The other annotator: 10% of the spans dropped, 10% relabelled (still a forest)."""
    rng = np.random.default_rng(seed)
    kept = [span for span in spans if rng.random() >= 0.1]
    return [(s, e, LABELS[int(rng.integers(0, 4))] if rng.random() < 0.1 else label) for s, e, label in kept]


def case_input(name: str):
    """``(first, second, lengths)`` of one case."""
    if name in ("32k", "1m"):
        n, k = (32_000, 3_200) if name == "32k" else (1_000_000, 100_000)
        first = document(n, k, 1)
        return [first], [perturbed(first, 2)], [n]
    if name.startswith("labels"):
        count = int(name[len("labels"):])
        spans = [(2, 6, f"L{index:05d}") for index in range(count)]
        return [spans], [spans[: count // 2] + [(1, 7, "L00000")]], [10]
    if name in ("depth1000", "corpus+depth1000"):
        n = 2001
        chain = [(depth, n - depth, "X") for depth in range(1000)]
        if name == "depth1000":
            return [chain], [chain[::2]], [n]
        first = [document(25, 6, seed) for seed in range(2000)]
        second = [perturbed(spans, seed) for seed, spans in enumerate(first)]
        return first + [chain], second + [chain[::2]], [25] * 2000 + [n]
    raise ValueError(f"unknown case {name!r}; choose from {CASES}")


def run_case(name: str) -> dict:
    import warnings

    from chance_agreement import chance_f1, nested_chance_f1, outermost_tags

    warnings.simplefilter("ignore")
    first, second, lengths = case_input(name)
    spans = sum(map(len, first)) + sum(map(len, second))
    start = time.perf_counter()
    result = nested_chance_f1(first, second, lengths)
    nested = time.perf_counter() - start
    flat = None
    if not name.startswith("labels"):  # same-extent siblings have no flat form
        tags_a, tags_b = outermost_tags(first, lengths), outermost_tags(second, lengths)
        start = time.perf_counter()
        chance_f1(tags_a, tags_b)
        flat = time.perf_counter() - start
    return {"case": name, "tokens": sum(lengths), "spans": spans, "depths": len(result["depths"]),
            "nested_s": nested, "flat_s": flat, "corrected": result["overall_corrected_f1"]}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*", default=list(CASES))
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(run_case(args.one)))
        return 0
    print(f"{'case':<11} {'tokens':>9} {'spans':>7} {'depths':>6} {'nested':>10} {'flat':>8} {'ratio':>7}")
    for name in args.cases:
        try:
            done = subprocess.run([sys.executable, __file__, "--one", name], capture_output=True, text=True,
                                  timeout=args.timeout, check=True)
        except subprocess.TimeoutExpired:
            print(f"{name:<11} still running after {args.timeout:.0f} s")
            continue
        row = json.loads(done.stdout)
        flat = "-" if row["flat_s"] is None else f"{row['flat_s']:.3f}s"
        ratio = "-" if row["flat_s"] is None else f"{row['nested_s'] / row['flat_s']:.1f}x"
        print(f"{name:<11} {row['tokens']:>9,} {row['spans']:>7,} {row['depths']:>6} {row['nested_s']:>9.3f}s "
              f"{flat:>8} {ratio:>7}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
