"""Speed of gamma (issue 25) against pygamma-agreement 0.5.9, same inputs, same sampler, same count.

    python benchmarks/bench_gamma.py [--samples 2] [--sentences 200]
                                     (data from ../shared/data or $CHANCE_AGREEMENT_DATA)

Two cases, each run once per side (pygamma takes minutes; the machine is shared, so the ratio is
taken in the same run):

- CoNLL-2003 test set, gold against one system (``SYSTEM``): every sentence, laid end to end;
- three annotators (gold and two systems) on the first ``--sentences`` sentences (pygamma
  enumerates every triple of units: 93 s for one alignment of 300 sentences here).

Both sides compute gamma with the combined dissimilarity (alpha = beta = delta_empty = 1) and
the statistical sampler with ``--samples`` random continua (pygamma's default is 30; its 30 on
the full CoNLL pair took 402 s, so the peer runs fewer, and our time for 30 is printed too).
pygamma aligns the random continua in a thread pool over every core, ours in one thread. Printed:
both times, both gammas and observed disorders (pygamma computes in float32) and the ratio.
The expected disorders are Monte Carlo estimates from different random streams: they agree within
their standard errors, not digit for digit.
"""

from __future__ import annotations

import argparse
import logging
import os
import time
from pathlib import Path

import numpy as np

from chance_agreement.reliability.gamma import continuum_from_texts, gamma_agreement
from chance_agreement.spans.conll import read_conll

REPO = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("CHANCE_AGREEMENT_DATA", REPO.parent / "shared" / "data"))
SYSTEM = 0


def pygamma_continuum(continuum):
    import pygamma_agreement
    from pyannote.core import Segment

    peer = pygamma_agreement.Continuum()
    for k in range(continuum.n_units):
        peer.add(continuum.annotators[continuum.annotator[k]], Segment(float(continuum.start[k]), float(continuum.end[k])),
                 continuum.categories[continuum.category[k]])
    return peer


def run_case(name: str, continuum, samples: int) -> dict:
    import pygamma_agreement

    logging.disable(logging.WARNING)  # pygamma warns "CBC solver not installed" for every alignment
    peer = pygamma_continuum(continuum)
    np.random.seed(0)  # pygamma's samplers use numpy's global state
    start = time.perf_counter()
    theirs = peer.compute_gamma(pygamma_agreement.CombinedCategoricalDissimilarity(), n_samples=samples)
    peer_seconds = time.perf_counter() - start
    start = time.perf_counter()
    ours = gamma_agreement(continuum, n_samples=samples, sampler="statistical", random_state=0)
    our_seconds = time.perf_counter() - start
    start = time.perf_counter()
    ours30 = gamma_agreement(continuum, n_samples=30, sampler="statistical", random_state=0)
    our30_seconds = time.perf_counter() - start
    print(f"{name}: {continuum.n_units} units, {continuum.n_annotators} annotators, statistical sampler")
    print(f"  pygamma 0.5.9, {samples} samples: {peer_seconds:8.2f} s  gamma {float(theirs.gamma):.4f}  "
          f"observed {float(theirs.observed_disorder):.6f}  expected {float(theirs.expected_disorder):.4f}")
    print(f"  ours,          {samples} samples: {our_seconds:8.2f} s  gamma {ours.gamma:.4f}  "
          f"observed {ours.observed_disorder:.6f}  expected {ours.expected_disorder:.4f} "
          f"(se {ours.expected_disorder_se:.4f})")
    print(f"  ours,         30 samples: {our30_seconds:8.2f} s  gamma {ours30.gamma:.4f} (se {ours30.gamma_se:.4f})")
    print(f"  ratio pygamma / ours at {samples} samples: {peer_seconds / our_seconds:.0f}x; "
          f"observed disorders differ by {abs(float(theirs.observed_disorder) - ours.observed_disorder):.1e}")
    return {"case": name, "peer_seconds": peer_seconds, "our_seconds": our_seconds, "our30_seconds": our30_seconds,
            "ratio": peer_seconds / our_seconds, "peer_gamma": float(theirs.gamma), "our_gamma": ours.gamma,
            "peer_observed": float(theirs.observed_disorder), "our_observed": ours.observed_disorder}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=2, help="random continua on both sides (default 2)")
    parser.add_argument("--sentences", type=int, default=200, help="sentences of the three-annotator case")
    args = parser.parse_args(argv)
    path = DATA / "conll03_systems" / "derived" / "conll03_test_gold_plus_3_systems.tsv"
    if not path.is_file():
        raise SystemExit(f"data not found: {path} (set CHANCE_AGREEMENT_DATA)")
    _, references, systems = read_conll(path, 1, (2, 3, 4))
    pair = continuum_from_texts([[r, p] for r, p in zip(references, systems[SYSTEM])], annotators=["gold", "system"])
    run_case("CoNLL-2003 test, gold vs system", pair, args.samples)
    k = args.sentences
    three = continuum_from_texts([list(t) for t in zip(references[:k], systems[0][:k], systems[1][:k])],
                                 annotators=["gold", "system 1", "system 2"])
    run_case(f"CoNLL-2003 test, first {k} sentences, gold and two systems", three, args.samples)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
