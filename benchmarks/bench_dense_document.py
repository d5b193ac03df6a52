"""One dense long document (issue 32): the bands, chance F1 and seqeval's report on it.

    python benchmarks/bench_dense_document.py [--tokens 30000] [--repeats 1]

The document is ``bench_long_documents.dense_document(--tokens)``: one entity type, ``0.075 * tokens``
segments (2,250 for 30,000) with the corpus's length law (seed 7), the longest halved while their
total is above 0.8 of the text, placed in a random order with random gaps; the prediction is
``bench_long_documents._second_annotator``'s copy of it, every segment of the one type. Each figure
is a first call in a fresh Python process, the best of ``--repeats``: ``bands`` the document bands
the entity and token levels read (``prefetch_bands``), then ``chance_f1`` at both levels and
seqeval's ``classification_report``, alternating in the same run.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_long_documents import dense_document, dense_segments  # noqa: E402

sys.path.pop(0)


def _measure(path: str, tokens: int) -> float:
    warnings.simplefilter("ignore")
    prediction, reference = dense_document(tokens)
    if path == "classification_report":
        from seqeval import metrics

        call = lambda: metrics.classification_report([reference], [prediction], output_dict=True)  # noqa: E731
    elif path == "bands":
        from chance_agreement.chance.random_models.non_overlapping_bands import prefetch_bands

        sides = [tuple(sorted(end - start for start, end, _ in side)) for side in dense_segments(tokens)]
        call = lambda: prefetch_bands([(tokens, *sides)], overlap=True, matches=True)  # noqa: E731
    else:
        from chance_agreement import chance_f1

        call = lambda: chance_f1([prediction], [reference], level=path)  # noqa: E731
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=30_000)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--paths", default="bands,entity,token,classification_report")
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure:
        print(json.dumps({"seconds": _measure(args.measure, args.tokens)}))
        return 0
    best = {path: math.inf for path in args.paths.split(",")}
    for _ in range(args.repeats):
        for path in best:
            command = [sys.executable, __file__, "--measure", path, "--tokens", str(args.tokens)]
            done = subprocess.run(command, check=True, capture_output=True, text=True)
            best[path] = min(best[path], json.loads(done.stdout.strip().splitlines()[-1])["seconds"])
    for path, seconds in best.items():
        print(f"{path}: {seconds:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
