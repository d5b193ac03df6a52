"""Every kind of reported number, as exact ``float.hex``, for the same-bits-on-every-CPU test.

``python tests/cpu_probe.py`` prints one JSON object: ``golden`` (the outputs of
``golden_chance_f1.outputs`` on the three CoNLL-2003 systems, when the shared data are there) and
``extras`` (seeded synthetic inputs through every numeric path that is not in the golden file:
long documents whose random model takes the band path, nested spans, bootstrap intervals with BCa and Poisson intervals,
system comparison, the team F1, the coefficients with every weighting, several raters with their
standard errors, segmentation and unitizing alphas, the noise bound). ``test_same_bits_everywhere``
runs it under several simulated processors and compares the outputs bit for bit.
"""

from __future__ import annotations

import json
import os
import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from golden_chance_f1 import exact, outputs  # noqa: E402

TAGS = ("O", "O", "O", "O", "B-PER", "I-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG")


def _geometric(rng, p: float) -> int:
    """Trials up to the first success of probability ``p``: numpy's ``Generator.geometric`` takes
    libm's log1p for p < 1/3, so its draws may differ between machines; comparisons are exact."""
    trials = 1
    while rng.random() >= p:
        trials += 1
    return trials


def _documents(rng, count: int, length: int, density: float) -> tuple[list, list]:
    """Two annotators of ``count`` long documents: segments of 1-40 tokens covering about ``density``."""
    first, second = [], []
    for _ in range(count):
        tags = ["O"] * length
        t = 0
        while t < length:
            if rng.random() < density / 8:
                size = min(length - t, 1 + _geometric(rng, 0.15))
                kind = ("PER", "LOC")[int(rng.integers(2))]
                tags[t : t + size] = [f"B-{kind}"] + [f"I-{kind}"] * (size - 1)
                t += size + 1
            else:
                t += 1
        other = [tag if rng.random() > 0.03 else "O" for tag in tags]
        other = [tag if not (tag.startswith("I-") and (i == 0 or other[i - 1] == "O")) else "B" + tag[1:]
                 for i, tag in enumerate(other)]
        first.append(tags)
        second.append(other)
    return first, second


def _short(rng, sentences: int, annotators: int) -> list[list]:
    """``annotators`` random annotations of the same ``sentences`` short sentences."""
    lengths = rng.integers(3, 30, size=sentences)
    return [[[TAGS[i] for i in rng.integers(0, len(TAGS), size=n)] for n in lengths] for _ in range(annotators)]


def extras() -> dict:
    import chance_agreement as ca

    rng = np.random.default_rng(20261124)
    out: dict = {}
    long_a, long_b = _documents(rng, 6, 1500, 0.35)
    for level in ("token", "entity"):
        out[f"long/{level}"] = ca.chance_f1(long_a, long_b, level=level, return_sentence_scores=True)
    out["coverage/band"] = ca.coverage_probabilities(5000, [int(x) for x in rng.integers(1, 60, size=90)]).tolist()
    short_a, short_b, third = _short(rng, 300, 3)
    out["intervals/bca"] = ca.chance_f1(short_a, short_b, confidence_level=0.9, n_resamples=200, random_state=3)
    out["intervals/poisson"] = {level: ca.chance_f1(long_a + short_a, long_b + short_b, level=level, confidence_level=0.9,
                                                    n_resamples=300, random_state=3, resampling="poisson")
                                for level in ("token", "entity")}
    out["compare"] = ca.compare_systems(short_a, third, short_b, n_resamples=200, n_permutations=200, random_state=5)
    out["team"] = ca.team_chance_f1(ca.by_item([short_a, short_b, third]), level="entity")
    lengths = [len(s) for s in short_a[:60]]
    nested_a = [[(0, min(3, n), "PER"), (0, 1, "LOC")] + ([(4, n, "ORG")] if n > 6 else []) for n in lengths]
    nested_b = [[(0, min(2, n), "PER"), (0, 1, "LOC")] + ([(5, n, "ORG")] if n > 7 else []) for n in lengths]
    out["nested"] = ca.nested_chance_f1(nested_a, nested_b, lengths, level="entity")
    table = rng.integers(0, 40, size=(5, 5))
    codes = np.arange(1.0, 6.0)
    out["coefficients"] = ca.coefficients(table, categories=list("12345"), distance=np.abs(codes[:, None] - codes) * np.sqrt(np.abs(codes[:, None] - codes)))
    out["table_intervals"] = {w: ca.coefficient_intervals(table, weights=ca.agreement_weights(w, list("12345")))
                              for w in ("identity", "quadratic", "circular", "radical", "ratio", "bipolar")}
    ratings = rng.integers(1, 5, size=(80, 4)).astype(float)
    ratings[rng.random(ratings.shape) < 0.1] = np.nan
    out["raters"] = {w: ca.multi_rater_agreement(ratings, weights=w) for w in ("identity", "quadratic", "circular")}
    out["conger"] = ca.conger_kappa(ratings, weights="quadratic")
    out["krippendorff"] = ca.krippendorff_alpha_inference(ratings, weights="quadratic")
    out["light"] = ca.light_kappa(ratings)
    out["fleiss"] = ca.fleiss_kappa(ratings, details=True)
    boundaries = {i: [list(rng.integers(0, 2, size=25)) for _ in range(3)] for i in range(20)}
    out["segmentation"] = {d: ca.segmentation_alpha(boundaries, distance=d) for d in ("d1", "d2")}
    out["unitizing"] = ca.unitizing_alpha([[long_a[0], long_b[0]], [long_a[1], long_b[1]]])
    out["noise"] = [ca.noise_bound(n, d, p).as_dict() for n, d, p in
                    ((1000, 40, 0.5), (200_000, 3_000, 0.35), (10**7, 10**5, 0.8))]
    items = [list(item) for item in zip(short_a[:80], short_b[:80], third[:80])]
    out["gamma"] = {sampler: ca.gamma_agreement(items, sampler=sampler, n_samples=8, random_state=2).to_dict()
                    for sampler in ("statistical", "shuffle", "random_model")}
    out["gamma"]["pair"] = ca.gamma_agreement([item[:2] for item in items], n_samples=8, random_state=2).to_dict()
    return out


def _plain(value):
    """JSON-able: numpy scalars and arrays to Python, dataclass-like results by ``to_dict``."""
    if hasattr(value, "to_dict"):
        value = value.to_dict()
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if isinstance(value, np.ndarray):
        return _plain(value.tolist())
    if isinstance(value, np.generic):
        return value.item()
    return value


def main() -> int:
    from golden_chance_f1 import NAMES, read_systems

    data = Path(os.environ.get("CHANCE_AGREEMENT_DATA", Path(__file__).resolve().parents[2] / "shared" / "data"))
    result = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if data.is_dir():
            references, predictions = read_systems(data)
            result["golden"] = outputs(references, dict(zip(NAMES, predictions)))
        result["extras"] = exact(_plain(extras()))
    json.dump(result, sys.stdout, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
