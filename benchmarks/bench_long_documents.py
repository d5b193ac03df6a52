"""Speed of the chance core on long units: whole documents instead of sentences (issue 26).

    python benchmarks/bench_long_documents.py [--repeats 3] [--documents 300]

The corpus is generated, seeded (``long_document_corpus``): documents of 300 to 3,000 tokens
(log-uniform), four entity types, per type and document 5 to 80 segments (about one per 37
tokens), segment lengths from 1 to 300 tokens with a heavy (discrete Pareto) tail, and two
annotators that mostly agree (the second drops, retypes or moves the boundary of a few segments
of the first and adds a few of its own). Every figure is a *first call*: each run of ``chance_f1``
is the first call of a fresh Python process (no cache of the random model can help), the best of
``--repeats`` such processes; the peer (seqeval's ``classification_report`` and ``f1_score``,
what a user would otherwise run) is timed in fresh processes of the same run, alternating with
ours, so the ratios are same-run ratios on a shared machine.

Rows: ``chance_f1`` at token and entity level against ``classification_report`` (goals, from the
same run: the entity level at most seqeval's ``f1_score`` alone, about 0.2x, and the token level at
most half of it), the same with ``return_sentence_scores`` (one score per document) and
with 1,000-resample intervals (``confidence_level=0.95``); then the growth of the first call in the
document length: corpora of equal size (``GROWTH_TOKENS`` tokens) made of documents of one length
``n`` in ``GROWTH_LENGTHS`` at the same density, and the fitted exponent of time per document in
``n`` (1: linear).

Then one dense document (``dense_document``: 30,000 tokens, one type, 2,250 segments of the same
length law, 6,759 annotated tokens: the case whose factors left the double range, issue 32), token
and entity level against ``classification_report`` on it (goal: within 2x).

Then real documents: the CoNLL-2003 test set as its 231 documents (``conll_documents``: the
sentences of each ``-DOCSTART-`` document of the original gold file joined, 46,435 tokens, 57
documents of 256 tokens or more, the longest 797), gold against the first system of
``conll03_test_gold_plus_3_systems.tsv``, read from ``../shared/data`` or ``$CHANCE_AGREEMENT_DATA``
(the rows are left out, with a note, where the data are not there). Goals as same-run ratios: the
entity level at most seqeval's ``f1_score``, the token level at most half of it.

``--numpy`` adds, for every ``chance_f1`` row, the same call on the numpy code instead of the
compiled kernels (``CHANCE_AGREEMENT_PURE_PYTHON=1``, what a machine without a C compiler runs),
timed in the same rounds: the kernels' speed-up as a same-run ratio.

``main()`` prints the table and returns 0; ``rows()`` returns it as a list of dicts.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np

from chance_agreement._numerics import portable_math as pm

HERE = Path(__file__).resolve().parent
TYPES = ("PER", "ORG", "LOC", "QUOTE")
SEED = 2026
DOCUMENTS = 300
REPEATS = 3
TOKENS_PER_SEGMENT = 37.5  # per type: 8 segments in 300 tokens, 80 in 3,000
PARETO_SHAPE = 1.3  # P(length >= l) = l ** -1.3: mean about 3.6, one in 1,600 at 300
MAX_LENGTH = 300
GROWTH_LENGTHS = (300, 600, 1_200, 3_000)
GROWTH_TOKENS = 120_000
DENSE_GOAL = 2.0  # the dense document: within 2x of seqeval's report on it


# ----------------------------------------------------------------------------------- the corpus


def _segment_lengths(rng: np.random.Generator, count: int) -> np.ndarray:
    """``count`` lengths in 1..MAX_LENGTH, ``P(length >= l) = l ** -PARETO_SHAPE`` below the cap."""
    return np.minimum(np.floor(pm.exp(pm.log(rng.random(count)) * (-1.0 / PARETO_SHAPE))), MAX_LENGTH).astype(np.int64)


def _first_annotator(rng: np.random.Generator, n: int) -> list[tuple[int, int, int]]:
    """Non-overlapping ``(start, end, type)`` segments of one document, in text order."""
    counts = [int(np.clip(round(n * rng.uniform(0.5, 1.5) / TOKENS_PER_SEGMENT), 5, 80)) for _ in TYPES]
    types = np.repeat(np.arange(len(TYPES)), counts)
    lengths = _segment_lengths(rng, types.size)
    while lengths.sum() > 0.8 * n:  # too long for the document: shorten the longest
        lengths[np.argmax(lengths)] //= 2
    order = rng.permutation(types.size)
    types, lengths = types[order], lengths[order]
    gaps = rng.multinomial(n - int(lengths.sum()), np.full(types.size + 1, 1.0 / (types.size + 1)))
    starts = np.cumsum(gaps[:-1]) + np.concatenate(([0], np.cumsum(lengths)[:-1]))
    return [(int(s), int(s + a), int(t)) for s, a, t in zip(starts, lengths, types)]


def _second_annotator(rng: np.random.Generator, n: int, segments) -> list[tuple[int, int, int]]:
    """A mostly agreeing copy: each segment kept (85%), dropped (5%), retyped (3%) or with a
    boundary moved by up to 2 tokens into the free space next to it (7%); a short segment added
    in 5% of the gaps of 4 tokens or more."""
    out = []
    previous_end = 0
    for index, (start, end, kind) in enumerate(segments):
        next_start = segments[index + 1][0] if index + 1 < len(segments) else n
        draw = rng.random()
        if draw < 0.05:
            continue
        if draw < 0.08:
            kind = (kind + int(rng.integers(1, len(TYPES)))) % len(TYPES)
        elif draw < 0.15:
            shift = int(rng.integers(-2, 3))
            if rng.random() < 0.5:
                start = min(max(start + shift, previous_end), end - 1)
            else:
                end = max(min(end + shift, next_start), start + 1)
        gap_start = out[-1][1] if out else 0
        if start - gap_start >= 4 and rng.random() < 0.05:
            begin = int(rng.integers(gap_start + 1, start - 1))
            out.append((begin, begin + 1 + int(rng.integers(0, min(3, start - 1 - begin))), int(rng.integers(len(TYPES)))))
        out.append((start, end, kind))
        previous_end = end
    return out


def _tags(n: int, segments) -> list[str]:
    tags = ["O"] * n
    for start, end, kind in segments:
        tags[start] = "B-" + TYPES[kind]
        for t in range(start + 1, end):
            tags[t] = "I-" + TYPES[kind]
    return tags


def long_document_corpus(documents: int = DOCUMENTS, seed: int = SEED, length: int | None = None):
    """``(predictions, references)``: IOB2 tags of ``documents`` generated documents (see the
    module docstring); ``length``: every document that long instead of log-uniform in 300..3,000."""
    rng = np.random.default_rng(seed)
    references, predictions = [], []
    for _ in range(documents):
        n = length or int(round(pm.exp(rng.uniform(pm.log(300.0), pm.log(3_000.0)))))
        first = _first_annotator(rng, n)
        references.append(_tags(n, first))
        predictions.append(_tags(n, _second_annotator(rng, n, first)))
    return predictions, references


# One dense document (issue 32): DENSE_TOKENS tokens, one type, DENSE_DENSITY segments per token (2,250)
# of the corpus's length law (seed DENSE_SEED), the longest halved while they cover more than 0.8 of
# the text; also read by bench_dense_document.py and tests/test_short_bands.py.
DENSE_TOKENS, DENSE_DENSITY, DENSE_SEED = 30_000, 0.075, 7


def dense_lengths(tokens: int, seed: int = DENSE_SEED) -> np.ndarray:
    """The segment lengths of the dense document, in the law's order."""
    lengths = _segment_lengths(np.random.default_rng(seed), round(DENSE_DENSITY * tokens))
    while lengths.sum() > 0.8 * tokens:
        lengths[np.argmax(lengths)] //= 2
    return lengths


def dense_segments(tokens: int, seed: int = DENSE_SEED) -> tuple[list, list]:
    """``(prediction, reference)`` as ``(start, end, type)`` segments: the reference's segments
    (one type) in a random order with random gaps, the prediction ``_second_annotator``'s copy."""
    rng = np.random.default_rng(seed + 1)
    lengths = rng.permutation(dense_lengths(tokens, seed))
    gaps = rng.multinomial(tokens - int(lengths.sum()), np.full(lengths.size + 1, 1.0 / (lengths.size + 1)))
    starts = np.cumsum(gaps[:-1]) + np.concatenate(([0], np.cumsum(lengths)[:-1]))
    first = [(int(s), int(s + a), 0) for s, a in zip(starts, lengths, strict=True)]
    return [(start, end, 0) for start, end, _ in _second_annotator(rng, tokens, first)], first


def dense_document(tokens: int = DENSE_TOKENS, seed: int = DENSE_SEED) -> tuple[list[str], list[str]]:
    """``(prediction, reference)``: IOB2 tags of the dense document."""
    prediction, reference = dense_segments(tokens, seed)
    return _tags(tokens, prediction), _tags(tokens, reference)


DATA = Path(os.environ.get("CHANCE_AGREEMENT_DATA", HERE.parent.parent / "shared" / "data"))
CONLL_GOLD = DATA / "conll03_systems" / "gold" / "eng.testb.conll03_test_original.txt"
CONLL_SYSTEMS = DATA / "conll03_systems" / "derived" / "conll03_test_gold_plus_3_systems.tsv"


def conll_documents() -> tuple[list[list[str]], list[list[str]]]:
    """``(predictions, references)``: the CoNLL-2003 test set as its documents, the first system's
    tags and the gold. The derived file has the sentences without their ``-DOCSTART-`` lines; the
    original gold file says which document each sentence is in (the two are checked to agree)."""
    from chance_agreement.spans.conll import read_conll

    document_of, lengths, document, length = [], [], -1, 0
    for line in CONLL_GOLD.read_text(encoding="utf-8").splitlines() + [""]:
        fields = line.split()
        if fields and fields[0] == "-DOCSTART-":
            document += 1
        elif fields:
            length += 1
        elif length:
            document_of.append(document)
            lengths.append(length)
            length = 0
    _, references, systems = read_conll(CONLL_SYSTEMS, 1, (2,))
    if list(map(len, references)) != lengths:
        raise ValueError(f"{CONLL_SYSTEMS} and {CONLL_GOLD} do not hold the same sentences")
    predictions, gold = [[] for _ in range(document + 1)], [[] for _ in range(document + 1)]
    for index, reference in enumerate(references):
        gold[document_of[index]] += reference
        predictions[document_of[index]] += systems[0][index]
    return predictions, gold


# ----------------------------------------------------------------------------------- the timing

# The corpora ``_measure`` reads: the generated one (``documents``, ``length``), the dense document
# and the CoNLL-2003 documents.
CORPORA = ("generated", "dense", "conll")


def _measure(path: str, documents: int, length: int | None, corpus: str = "generated") -> float:
    """Seconds of one first call of ``path`` in this (fresh) process, on ``corpus``."""
    warnings.simplefilter("ignore")
    if corpus == "conll":
        predictions, references = conll_documents()
    elif corpus == "dense":
        prediction, reference = dense_document()
        predictions, references = [prediction], [reference]
    else:
        predictions, references = long_document_corpus(documents, length=length)
    if path in ("classification_report", "f1_score"):
        from seqeval import metrics

        call = (lambda: metrics.classification_report(references, predictions, output_dict=True)) \
            if path == "classification_report" else (lambda: metrics.f1_score(references, predictions))
    else:
        from chance_agreement import chance_f1

        level, _, extra = path.partition("+")
        options = {"sentence_scores": dict(return_sentence_scores=True),
                   "intervals": dict(confidence_level=0.95, random_state=0), "": {}}[extra]
        call = lambda: chance_f1(predictions, references, level=level, **options)  # noqa: E731
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


# a path ending in this runs on the numpy code (no compiled kernels)
NUMPY = "@numpy"


def _fresh(path: str, documents: int, length: int | None, corpus: str = "generated") -> float:
    """``_measure`` in a new Python process."""
    path, numpy_code, _ = path.partition(NUMPY)
    command = [sys.executable, str(Path(__file__).resolve()), "--measure", path, "--documents", str(documents),
               "--corpus", corpus]
    if length:
        command += ["--length", str(length)]
    environment = {key: value for key, value in os.environ.items() if key != "CHANCE_AGREEMENT_PURE_PYTHON"}
    if numpy_code:
        environment["CHANCE_AGREEMENT_PURE_PYTHON"] = "1"
    done = subprocess.run(command, check=True, capture_output=True, text=True, env=environment)
    return float(json.loads(done.stdout.strip().splitlines()[-1])["seconds"])


def _best(paths, repeats: int, documents: int, length: int | None = None, corpus: str = "generated") -> dict[str, float]:
    """Best time of each path over ``repeats`` rounds, the paths alternating within a round."""
    best = {path: math.inf for path in paths}
    for _ in range(repeats):
        for path in paths:
            best[path] = min(best[path], _fresh(path, documents, length, corpus))
    return best


def _twins(paths: list[str], numpy_too: bool) -> list[str]:
    """Each path, followed by its numpy-code twin when ``numpy_too``."""
    return [twin for path in paths for twin in ((path, path + NUMPY) if numpy_too else (path,))]


def rows(repeats: int = REPEATS, documents: int = DOCUMENTS, numpy_too: bool = False) -> list[dict]:
    predictions, references = long_document_corpus(documents)
    tokens = sum(map(len, references))
    ours = ["token", "entity", "token+sentence_scores", "entity+sentence_scores", "token+intervals",
            "entity+intervals"]
    ours = _twins(ours, numpy_too)
    best = _best(["classification_report", "f1_score", *ours], repeats, documents)
    peer = best["classification_report"]
    corpus = f"{documents} documents, {tokens:,} tokens"
    out = [{"path": f"seqeval f1_score ({corpus})", "ours_s": best["f1_score"], "peer_s": peer}]
    f1_ratio = best["f1_score"] / peer  # the goals: f1_score (entity) and half of it (token)
    for path in ours:
        level, _, extra = path.partition(NUMPY)[0].partition("+")
        label = f"chance_f1, {level} level" + {"": ", first call", "sentence_scores": ", sentence scores",
                                               "intervals": ", 1,000-resample intervals"}[extra]
        label += ", numpy code" if NUMPY in path else ""
        goal = None if extra else f1_ratio * (0.5 if level == "token" else 1.0)
        out.append({"path": label, "ours_s": best[path], "peer_s": peer, "goal": goal})
    dense = _best(["classification_report", *_twins(["token", "entity"], numpy_too)], repeats, 0, corpus="dense")
    label = f"one dense document ({DENSE_TOKENS:,} tokens, {round(DENSE_DENSITY * DENSE_TOKENS):,} segments of one type)"
    out.append({"path": f"seqeval classification_report, {label}", "ours_s": dense["classification_report"],
                "peer_s": dense["classification_report"]})
    for path in _twins(["token", "entity"], numpy_too):
        level, numpy_code, _ = path.partition(NUMPY)
        out.append({"path": f"chance_f1, {level} level, {label}{', numpy code' if numpy_code else ''}",
                    "ours_s": dense[path], "peer_s": dense["classification_report"], "goal": DENSE_GOAL})
    out += conll_rows(repeats, numpy_too)
    for level in _twins(["token", "entity"], numpy_too):
        per_document = []
        for n in GROWTH_LENGTHS:
            count = GROWTH_TOKENS // n
            per_document.append(_best([level], repeats, count, n)[level] / count)
        exponent = float(np.polyfit(np.log(GROWTH_LENGTHS), np.log(per_document), 1)[0])
        name, numpy_code, _ = level.partition(NUMPY)
        out.append({"path": f"chance_f1, {name} level{', numpy code' if numpy_code else ''}: growth exponent of "
                            f"time per document, n = {GROWTH_LENGTHS[0]:,} -> {GROWTH_LENGTHS[-1]:,}",
                    "exponent": exponent, "per_document_s": per_document})
    return out


def conll_rows(repeats: int, numpy_too: bool) -> list[dict]:
    """The rows of the CoNLL-2003 documents (none, with a note, where the data are not there): the
    goals are seqeval's ``f1_score`` (entity) and half of it (token), as ratios to its report."""
    if not (CONLL_GOLD.exists() and CONLL_SYSTEMS.exists()):
        print(f"(CoNLL-2003 documents left out: {CONLL_GOLD.parent.parent} not found; set CHANCE_AGREEMENT_DATA)")
        return []
    predictions, references = conll_documents()
    label = f"CoNLL-2003 test as its {len(references)} documents ({sum(map(len, references)):,} tokens)"
    best = _best(["classification_report", "f1_score", *_twins(["token", "entity"], numpy_too)], repeats, 0,
                 corpus="conll")
    peer = best["classification_report"]
    f1_ratio = best["f1_score"] / peer
    out = [{"path": f"seqeval f1_score, {label}", "ours_s": best["f1_score"], "peer_s": peer}]
    for path in _twins(["token", "entity"], numpy_too):
        level, numpy_code, _ = path.partition(NUMPY)
        out.append({"path": f"chance_f1, {level} level, {label}{', numpy code' if numpy_code else ''}",
                    "ours_s": best[path], "peer_s": peer, "goal": f1_ratio * (0.5 if level == "token" else 1.0)})
    return out


def format_rows(table: list[dict]) -> str:
    lines = ["| path | time | seqeval classification_report | ratio | goal |", "|---|---|---|---|---|"]
    for row in table:
        if "exponent" in row:
            detail = ", ".join(f"{1000 * s:.2f}" for s in row["per_document_s"])
            lines.append(f"| {row['path']} | {row['exponent']:.2f} (ms per document: {detail}) | | | near 1 |")
        else:
            goal = row.get("goal")
            goal = (f"<= {goal:.1f}" if round(goal, 1) == goal else f"<= {goal:.3f}") if goal else ""
            lines.append(f"| {row['path']} | {row['ours_s']:.3f} s | {row['peer_s']:.3f} s "
                         f"| {row['ours_s'] / row['peer_s']:.3f} | {goal} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=REPEATS)
    parser.add_argument("--documents", type=int, default=DOCUMENTS)
    parser.add_argument("--numpy", action="store_true", help="also time every chance_f1 row on the numpy code")
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    parser.add_argument("--length", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--corpus", choices=CORPORA, default="generated", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure:
        print(json.dumps({"seconds": _measure(args.measure, args.documents, args.length, args.corpus)}))
        return 0
    print(f"long documents, first call in a fresh process, best of {args.repeats}, same-run ratios\n")
    print(format_rows(rows(args.repeats, args.documents, args.numpy)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
