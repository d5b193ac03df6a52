"""Today's chance_f1 outputs on the CoNLL-2003 systems as exact ``float.hex`` strings.

``python tests/golden_chance_f1.py`` (with the shared data) rewrites
``tests/data/golden/chance_f1_conll03.json``; run it only when a change of the numbers is
intended. ``test_chance_f1_speed_identity.py`` compares the current code with the stored file.
"""

from __future__ import annotations

import hashlib
import json
import sys
import warnings
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent / "data" / "golden" / "chance_f1_conll03.json"
LEVELS = ("token", "entity")
MODELS = ("non_overlapping", "overlapping")


def exact(value):
    """Every float of a result as ``float.hex`` (ints and strings as they are)."""
    if isinstance(value, dict):
        return {key: exact(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [exact(item) for item in value]
    if isinstance(value, float):
        return float.hex(value)
    return value


def outputs(references, systems: dict, fast: bool = True) -> dict:
    """``{system: {level/model: result, statistics/model: ChanceStatistics.to_dict()}}``: the corpus
    result in hex and a SHA-256 of the per-sentence scores in hex (3,453 sentences: the digest
    keeps the file short), and the corpus statistics of both levels in hex.

    ``fast``: the result and the statistics from the corpus pass without per-sentence statistics
    (``chance_f1`` without sentence scores, the fast path); otherwise from the pass that keeps
    every sentence (``corpus_statistics``: the same array pass, split by sentence)."""
    from chance_agreement import chance_f1
    from chance_agreement.chance.corrected_f1 import _corpus, corpus_statistics
    from chance_agreement.chance.statistics import LEVELS as BOTH

    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, predictions in systems.items():
            for level in LEVELS:
                for model in MODELS:
                    with_sentences = chance_f1(predictions, references, level=level, model=model,
                                               return_sentence_scores=True)
                    sentences = json.dumps(exact(with_sentences.pop("sentence_scores")), sort_keys=True)
                    result = chance_f1(predictions, references, level=level, model=model) if fast else with_sentences
                    out.setdefault(name, {})[f"{level}/{model}"] = {
                        "result": exact(result), "sentence_scores_sha256": hashlib.sha256(sentences.encode()).hexdigest()}
            for model in MODELS:  # both levels at once: the additive statistics and their exact partials
                if fast:
                    total = _corpus(predictions, references, None, None, False, model, BOTH, keep_sentences=False)[0]
                else:
                    total = corpus_statistics(predictions, references, model=model)[0]
                out[name][f"statistics/{model}"] = exact(total.to_dict())
    return out


NAMES = ("CnonWrand_lstmCrf_7849", "CflairWglove_lstmCrf_9303", "CbertWnon_snonMlp_9109")


def read_systems(data: Path):
    """``(references, [predictions of each system in NAMES])`` from the shared data folder."""
    from chance_agreement.spans.conll import read_conll

    path = data / "conll03_systems" / "derived" / "conll03_test_gold_plus_3_systems.tsv"
    _, references, predictions = read_conll(path, 1, (2, 3, 4))
    return references, predictions


def main() -> int:
    import os

    references, predictions = read_systems(Path(os.environ["CHANCE_AGREEMENT_DATA"]))
    GOLDEN.write_text(json.dumps(outputs(references, dict(zip(NAMES, predictions)), fast=False), indent=1, sort_keys=True) + "\n")
    print(f"wrote {GOLDEN}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
