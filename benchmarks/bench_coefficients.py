"""Speed of the agreement coefficients, against their peers in the same run (issue 11, rows 4-7).

    python benchmarks/bench_coefficients.py [--repeats 5]   (data from $CHANCE_AGREEMENT_DATA)

Rows (each figure the best of ``--repeats`` runs, ours and the peer alternating run by run;
ratio = ours / peer in the same run, because the machine is shared and absolute times drift):

- Fleiss' kappa, 100,000 items x 10 annotators, 5 categories: ``fleiss_kappa(ratings)`` against
  statsmodels ``fleiss_kappa(aggregate_raters(ratings)[0])`` (both from the raw ratings).
- Krippendorff's alpha, 100,000 items x 10 annotators, 10% missing, nominal and interval:
  ``krippendorff_alpha`` against the ``krippendorff`` package's ``alpha`` on the same array.
- Segmentation alpha, CoNLL-2003 test gold vs one system (boundary vectors from the tags, built
  before the clock starts): absolute time, no peer.
- Token-level Fleiss' kappa and alpha of four annotators (CoNLL-2003 gold and the three
  systems, ``multi_annotator_agreement``): absolute time, no peer.
- Contingency table from BIO tags, 10 million tokens (the CoNLL-2003 test set repeated):
  ``contingency(predictions, references)`` against scikit-learn's ``confusion_matrix`` on the
  ready per-token category labels; the extra memory (tracemalloc peak, one separate run) of
  both.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("CHANCE_AGREEMENT_DATA", REPO.parent / "shared" / "data"))
CONLL = DATA / "conll03_systems" / "derived" / "conll03_test_gold_plus_3_systems.tsv"


def best_time(function, repeats: int) -> float:
    return best_times([function], repeats)[0]


def best_times(functions, repeats: int) -> list[float]:
    """Best of ``repeats`` runs of each function, the functions alternating run by run so that a
    load change on the shared machine hits ours and the peer alike."""
    best = [float("inf")] * len(functions)
    for _ in range(repeats):
        for k, function in enumerate(functions):
            start = time.perf_counter()
            function()
            best[k] = min(best[k], time.perf_counter() - start)
    return best


def peak_memory(function) -> int:
    """Peak bytes allocated while ``function`` runs (tracemalloc also sees numpy's buffers)."""
    tracemalloc.start()
    try:
        function()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def row(name: str, ours: float, peer: float | None = None, peer_name: str = "", note: str = "") -> dict:
    return {"row": name, "ours": ours, "peer": peer, "peer_name": peer_name, "note": note}


def bench_fleiss(repeats: int, seed: int = 0) -> dict:
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa as sm_fleiss

    from chance_agreement import fleiss_kappa

    ratings = np.random.default_rng(seed).integers(0, 5, size=(100_000, 10))
    ours, peer = best_times([lambda: fleiss_kappa(ratings), lambda: sm_fleiss(aggregate_raters(ratings)[0])], repeats)
    return row("Fleiss' kappa, 100,000 x 10", ours, peer, "statsmodels")


def bench_krippendorff(repeats: int, seed: int = 0) -> list[dict]:
    import krippendorff

    from chance_agreement import krippendorff_alpha

    rng = np.random.default_rng(seed)
    ratings = rng.integers(1, 6, size=(100_000, 10)).astype(float)
    ratings[rng.random(ratings.shape) < 0.1] = np.nan
    rows = []
    for level in ("nominal", "interval"):
        ours, peer = best_times(
            [lambda: krippendorff_alpha(ratings, distance=level),
             lambda: krippendorff.alpha(reliability_data=ratings.T, level_of_measurement=level)],
            repeats,
        )
        rows.append(row(f"Krippendorff's alpha, 100,000 x 10, 10% missing, {level}", ours, peer, "krippendorff"))
    return rows


def conll():
    from chance_agreement.spans.conll import read_conll

    _, references, systems = read_conll(CONLL, 1, (2, 3, 4))
    return references, systems


def bench_segmentation(repeats: int, references, systems) -> dict:
    from chance_agreement.reliability.segmentation import boundaries_from_tags, segmentation_alpha

    items = [
        [boundaries_from_tags(ref), boundaries_from_tags(pred)]
        for ref, pred in zip(references, systems[0])
    ]
    ours = best_time(lambda: segmentation_alpha(items), repeats)
    return row("segmentation alpha, CoNLL-2003 gold vs one system", ours, note=f"{len(items)} items")


def bench_multi_annotator(repeats: int, references, systems) -> dict:
    from chance_agreement import multi_annotator_agreement

    annotations = [[ref, *preds] for ref, *preds in zip(references, *systems)]
    ours = best_time(lambda: multi_annotator_agreement(annotations), repeats)
    return row("token-level Fleiss + alpha, CoNLL-2003 gold + 3 systems", ours, note="4 annotators")


def bench_contingency(repeats: int, references, systems, tokens: int = 10_000_000) -> dict:
    from sklearn.metrics import confusion_matrix

    from chance_agreement.reliability.contingency_table import contingency, token_categories
    from chance_agreement.spans.tags import corpus_spans

    per_copy = sum(map(len, references))
    copies = -(-tokens // per_copy)
    refs, preds = references * copies, systems[0] * copies
    n_tokens = per_copy * copies
    # the peer's ready labels: the category of every token, computed once outside the clock
    ref_labels, pred_labels = [], []
    for ref, r_spans, p_spans in zip(
        references, corpus_spans(references, "references"), corpus_spans(systems[0], "predictions")
    ):
        ref_labels += token_categories(r_spans, len(ref))
        pred_labels += token_categories(p_spans, len(ref))
    ref_labels, pred_labels = ref_labels * copies, pred_labels * copies

    ours, peer = best_times(
        [lambda: contingency(preds, refs), lambda: confusion_matrix(ref_labels, pred_labels)], repeats
    )
    ours_memory = peak_memory(lambda: contingency(preds, refs))
    peer_memory = peak_memory(lambda: confusion_matrix(ref_labels, pred_labels))
    note = f"{n_tokens:,} tokens; extra memory ours {ours_memory / 2**20:.0f} MiB, peer {peer_memory / 2**20:.0f} MiB"
    return row("contingency table from BIO tags, 10M tokens", ours, peer, "sklearn confusion_matrix", note)


def format_table(rows: list[dict], repeats: int) -> str:
    """The rows as a Markdown table (what ``main`` prints and ``bench_speed.py --write`` writes)."""
    lines = [f"best of {repeats} runs; ratio = ours / peer in the same run (shared machine: absolute times drift)",
             "", "| path | ours | peer | ratio | peer / note |", "|---|---|---|---|---|"]
    for r in rows:
        peer = f"{r['peer']:.4f} s" if r["peer"] is not None else "-"
        ratio = f"{r['ours'] / r['peer']:.2f}x" if r["peer"] is not None else "-"
        detail = "; ".join(x for x in (r["peer_name"], r["note"]) if x)
        lines.append(f"| {r['row']} | {r['ours']:.4f} s | {peer} | {ratio} | {detail} |")
    return "\n".join(lines)


def rows(repeats: int = 5, wanted=("fleiss", "krippendorff", "segmentation", "multi", "contingency")) -> list[dict]:
    """Every row of ``wanted``; raises FileNotFoundError without the CoNLL data."""
    wanted = set(wanted)
    out: list[dict] = []
    if "fleiss" in wanted:
        out.append(bench_fleiss(repeats))
    if "krippendorff" in wanted:
        out.extend(bench_krippendorff(repeats))
    if wanted & {"segmentation", "multi", "contingency"}:
        if not CONLL.exists():
            raise FileNotFoundError(f"data not found: {CONLL} (set CHANCE_AGREEMENT_DATA)")
        references, systems = conll()
        if "segmentation" in wanted:
            out.append(bench_segmentation(repeats, references, systems))
        if "multi" in wanted:
            out.append(bench_multi_annotator(repeats, references, systems))
        if "contingency" in wanted:
            out.append(bench_contingency(repeats, references, systems))
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument(
        "--rows", default="fleiss,krippendorff,segmentation,multi,contingency",
        help="comma-separated subset of fleiss,krippendorff,segmentation,multi,contingency",
    )
    args = parser.parse_args(argv)
    try:
        table = rows(args.repeats, args.rows.split(","))
    except FileNotFoundError as error:
        print(error, file=sys.stderr)
        return 1
    print(format_table(table, args.repeats))
    return 0

if __name__ == "__main__":
    sys.exit(main())
