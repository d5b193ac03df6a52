"""Poisson bootstrap intervals that merge (issue 23, item 3): exact Poisson(1) weights from ids and a
seed, exact integer sums, the brute-force oracle, the same intervals under any sharding (chance_f1,
ChanceF1State in batches and merged from JSON, the evaluate module's multi-process mode), and coverage
by simulation."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
import uuid
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chance_agreement import ChanceF1State, agreement_report, chance_f1
from chance_agreement.chance.bootstrap_intervals import SCORES, scores_from_sums, sentence_arrays
from chance_agreement.chance.corrected_f1 import corpus_statistics, scores_from_statistics
from chance_agreement.chance.statistics import ChanceStatistics
from chance_agreement.chance.poisson_bootstrap import (
    GAMMA, POISSON_THRESHOLDS, PoissonSums, _mix64_int, document_key, limb_columns, limbs_value, poisson_weights,
)
from test_intervals import PREDICTIONS, REFERENCES, _docs_text, templates  # noqa: F401  (templates: a fixture)

TAGS = ["O", "O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG"]
CI_KEYS = [f"overall_{score}_ci" for score in SCORES]


# --- the weights ---------------------------------------------------------------------------------


def test_thresholds_give_poisson_one_within_two_to_the_minus_65():
    mpmath.mp.dps = 60
    previous = 0
    for k, threshold in enumerate(POISSON_THRESHOLDS):
        cumulative = mpmath.fsum(mpmath.exp(-1) / mpmath.factorial(i) for i in range(k + 1))
        assert abs(mpmath.mpf(threshold) - cumulative * 2**64) <= 0.5  # round(2**64 P(W <= k)), exactly
        assert threshold > previous
        previous = threshold
    beyond = mpmath.fsum(mpmath.exp(-1) / mpmath.factorial(i) for i in range(21))
    assert len(POISSON_THRESHOLDS) == 20 and (1 - beyond) * 2**64 < 0.5  # the largest weight is 20


def _oracle_weight(document_id, seed: int, resample: int) -> int:
    """The module docstring's formula with Python integers alone."""
    state = _mix64_int(document_key(document_id) ^ _mix64_int((seed + GAMMA) % 2**64))
    u = _mix64_int((state + (resample + 1) * GAMMA) % 2**64)
    return sum(threshold <= u for threshold in POISSON_THRESHOLDS)


def test_weights_follow_the_formula_for_int_and_str_ids():
    ids = [0, 1, 7, 2**63 + 5, -3, "doc-17", "Überall", ""]
    keys = np.array([document_key(i) for i in ids], dtype=np.uint64)
    weights = poisson_weights(keys, 2026, 40)
    assert weights.dtype == np.int64 and weights.shape == (40, len(ids))
    for d, document_id in enumerate(ids):
        assert [_oracle_weight(document_id, 2026, b) for b in range(40)] == weights[:, d].tolist()
    assert not np.array_equal(weights, poisson_weights(keys, 2027, 40))


def test_weights_are_poisson_one_and_independent():
    weights = poisson_weights(np.arange(50_000, dtype=np.uint64), 11, 8)
    seen = np.bincount(weights.ravel(), minlength=8)[:8]
    n = weights.size
    for k in range(6):
        p = math.exp(-1) / math.factorial(k)
        assert abs(seen[k] / n - p) < 5 * math.sqrt(p * (1 - p) / n), k
    centred = weights - 1.0
    correlations = [float(np.mean(centred[0] * centred[b])) for b in range(1, 8)]  # across resamples
    correlations.append(float(np.mean(centred[:, :-1] * centred[:, 1:])))  # across neighbouring ids
    assert max(abs(c) for c in correlations) < 5 / math.sqrt(50_000)


# --- exact sums ----------------------------------------------------------------------------------


@given(st.lists(st.floats(min_value=0, max_value=1e300, allow_nan=False), min_size=1, max_size=20))
def test_limbs_hold_every_float_exactly(values):
    limbs = limb_columns(values)
    assert all(0 <= int(column.min()) and int(column.max()) < 2**25 for column in limbs.values())
    for i, value in enumerate(values):
        own = {j: int(column[i]) for j, column in limbs.items()}
        assert sum(Fraction(c) * Fraction(2) ** (24 * j) for j, c in own.items()) == Fraction(value)
        assert limbs_value(own) == value
    assert limbs_value({j: int(column.sum()) for j, column in limbs.items()}) == float(sum(map(Fraction, values)))


def _oracle_intervals(sentences, weights, level, confidence_level):
    """Brute force: each resample adds w[b, d] copies of sentence d (exact sums) and scores them with
    scores_from_statistics; percentiles with numpy."""
    types = sorted({name for stats in sentences for name in stats.per_type})
    values = {name: {score: [] for score in SCORES} for name in types + ["overall"]}
    for row in weights:
        total = ChanceStatistics()
        for stats, w in zip(sentences, row.tolist()):
            for _ in range(w):
                total = total + stats
        result = scores_from_statistics(total, level, 0) if total.total_tokens else {}
        for name in types:
            for score in SCORES:
                values[name][score].append(result[name][score] if name in result else 0.0)
        for score in SCORES:
            values["overall"][score].append(result.get(f"overall_{score}", 0.0))
    alpha = 1 - confidence_level
    return {name: {score: list(np.quantile(v, [alpha / 2, 1 - alpha / 2])) for score, v in scores.items()}
            for name, scores in values.items()}


@pytest.mark.parametrize("level", ["token", "entity"])
def test_poisson_intervals_equal_the_brute_force_resamples(level):
    _, sentences = corpus_statistics(PREDICTIONS, REFERENCES, levels=(level,))
    weights = poisson_weights(np.arange(len(sentences), dtype=np.uint64), 9, 300)
    oracle = _oracle_intervals(sentences, weights, level, 0.8)
    result = chance_f1(PREDICTIONS, REFERENCES, level=level, zero_division=0, confidence_level=0.8, n_resamples=300,
                       random_state=9, resampling="poisson")
    for score in SCORES:
        assert np.allclose(result[f"overall_{score}_ci"], oracle["overall"][score], rtol=1e-12, atol=1e-12)
        for name in ("LOC", "ORG", "PER"):
            assert np.allclose(result[name][f"{score}_ci"], oracle[name][score], rtol=1e-12, atol=1e-12)


# --- the same intervals under any sharding ---------------------------------------------------------


def _cuts(size: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    return [0, *sorted(rng.sample(range(1, size), min(size - 1, rng.randint(1, 8)))), size]


@settings(max_examples=25)
@given(st.lists(st.lists(st.sampled_from(TAGS), min_size=1, max_size=9).flatmap(
    lambda ref: st.tuples(st.just(ref), st.lists(st.sampled_from(TAGS), min_size=len(ref), max_size=len(ref)))),
    min_size=2, max_size=14), st.integers(0, 1000), st.sampled_from(["token", "entity"]))
def test_merged_states_give_chance_f1s_intervals_bit_for_bit(pairs, seed, level):
    references = [list(r) for r, _ in pairs]
    predictions = [list(p) for _, p in pairs]
    options = dict(confidence_level=0.9, n_resamples=50, random_state=seed)
    expected = chance_f1(predictions, references, level=level, zero_division=0, resampling="poisson", **options)
    cuts = _cuts(len(references), seed)
    shards = [ChanceF1State(level=level, resampling="poisson", **options)
              .update(predictions[a:b], references[a:b], document_ids=list(range(a, b))).to_json()
              for a, b in zip(cuts, cuts[1:])]
    random.Random(seed).shuffle(shards)
    states = [ChanceF1State.from_json(text) for text in shards]
    while len(states) > 1:  # merged pairwise, in a tree
        states = [states[i].merge(states[i + 1]) if i + 1 < len(states) else states[i] for i in range(0, len(states), 2)]
    assert states[0].result(zero_division=0) == expected


def test_intervals_follow_the_documents_not_their_order_and_shared_ids_resample_together():
    options = dict(zero_division=0, confidence_level=0.9, n_resamples=200, random_state=4, resampling="poisson")
    ids = [f"doc-{i}" for i in range(len(REFERENCES))]
    first = chance_f1(PREDICTIONS, REFERENCES, document_ids=ids, **options)
    order = [3, 0, 5, 1, 4, 2]
    shuffled = chance_f1([PREDICTIONS[i] for i in order], [REFERENCES[i] for i in order],
                         document_ids=[ids[i] for i in order], **options)
    assert shuffled == first
    positional = chance_f1(PREDICTIONS, REFERENCES, **options)
    assert positional == chance_f1(PREDICTIONS, REFERENCES, document_ids=list(range(6)), **options)
    assert positional["overall_corrected_f1_ci"] != first["overall_corrected_f1_ci"]
    # two sentences of one document get the same weights (the brute force with those weights)
    together = ChanceF1State(confidence_level=0.9, n_resamples=200, random_state=4, resampling="poisson")
    together.update(PREDICTIONS, REFERENCES, document_ids=[0, 0, 1, 2, 3, 4])
    weights = poisson_weights(np.array([0, 0, 1, 2, 3, 4], dtype=np.uint64), 4, 200)
    assert np.array_equal(weights[:, 0], weights[:, 1])
    oracle = _oracle_intervals(corpus_statistics(PREDICTIONS, REFERENCES, levels=("token",))[1], weights, "token", 0.9)
    for score in SCORES:
        assert np.allclose(together.result(zero_division=0)[f"overall_{score}_ci"], oracle["overall"][score],
                           rtol=1e-12, atol=1e-12)


def test_a_state_scores_both_levels_and_counts_agreement_reports_tables(conll_systems):
    references, systems = conll_systems
    predictions = systems["CnonWrand_lstmCrf_7849"]
    options = dict(confidence_level=0.95, n_resamples=100, random_state=1, resampling="poisson")
    cuts = _cuts(len(references), 3)
    states = [ChanceF1State(levels=("token", "entity"), contingency_views=("all", "entities", "grouped"), **options)
              .update(predictions[a:b], references[a:b]) if a == 0 else
              ChanceF1State(levels=("token", "entity"), contingency_views=("all", "entities", "grouped"), **options)
              .update(predictions[a:b], references[a:b], document_ids=list(range(a, b)))
              for a, b in zip(cuts, cuts[1:])]
    merged = states[0]
    for state in states[1:]:
        merged = ChanceF1State.from_json(merged.merge(state).to_json())
    for level in ("token", "entity"):
        assert merged.result(level=level) == chance_f1(predictions, references, level=level, **options)
    report = agreement_report(predictions, references, views=("all", "entities", "grouped"))
    assert merged.contingency_report() == {view: report[view] for view in ("all", "entities", "grouped")}


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match=r"resampling must be one of \['multinomial', 'poisson'\]"):
        chance_f1(PREDICTIONS, REFERENCES, confidence_level=0.9, resampling="bayes")
    with pytest.raises(ValueError, match="document_ids choose the weights of resampling='poisson' only"):
        chance_f1(PREDICTIONS, REFERENCES, confidence_level=0.9, document_ids=list(range(6)))
    with pytest.raises(ValueError, match="document_ids has 2 ids for 6 sentences"):
        chance_f1(PREDICTIONS, REFERENCES, confidence_level=0.9, resampling="poisson", document_ids=[1, 2])
    with pytest.raises(TypeError, match=r"document_ids\[1\] must be an int or a str, got True"):
        chance_f1(PREDICTIONS, REFERENCES, confidence_level=0.9, resampling="poisson",
                  document_ids=[0, True, 2, 3, 4, 5])
    with pytest.raises(ValueError, match=r"random_state must be an int in \[0, 2\*\*64\)"):
        chance_f1(PREDICTIONS, REFERENCES, confidence_level=0.9, resampling="poisson", random_state=2**64)
    with pytest.raises(ValueError, match="a state's intervals need resampling='poisson'"):
        ChanceF1State(confidence_level=0.9)
    first = ChanceF1State(confidence_level=0.9, resampling="poisson").update(PREDICTIONS, REFERENCES)
    second = ChanceF1State(confidence_level=0.9, resampling="poisson").update(PREDICTIONS, REFERENCES)
    with pytest.raises(ValueError, match="cannot merge states of different options"):
        first.merge(second)  # two unseeded states drew different seeds
    with pytest.raises(ValueError, match="document_ids choose the Poisson bootstrap's weights"):
        ChanceF1State().update(PREDICTIONS, REFERENCES, document_ids=list(range(6)))
    data = first.to_dict()
    data["bootstrap"]["sums"]["token"]["PER"]["agreement"][0] = -1
    with pytest.raises(ValueError, match="agreement must be a list of 1000 non-negative integers"):
        ChanceF1State.from_dict(data)
    with pytest.raises(ValueError, match="bootstrap sums must be there exactly when options.confidence_level is set"):
        ChanceF1State.from_dict({**first.to_dict(), "bootstrap": None})
    with pytest.raises(ValueError, match="bootstrap sums of 6 sentences in a state of 7"):
        ChanceF1State.from_dict({**first.to_dict(), "sentences": 7})
    with pytest.raises(ValueError, match="this state computed the levels"):
        first.result(level="entity")


# --- evaluate's multi-process mode ----------------------------------------------------------------


def test_the_evaluate_modules_two_processes_give_chance_f1s_poisson_intervals(tmp_path):
    from conftest import REPO
    from test_distributed import WORKER

    rng = random.Random(5)
    references = [[rng.choice(TAGS) for _ in range(rng.randint(1, 12))] for _ in range(300)]
    predictions = [[tag if rng.random() < 0.8 else rng.choice(TAGS) for tag in sentence] for sentence in references]
    compute_kwargs = {"zero_division": 0, "confidence_level": 0.9, "n_resamples": 200, "random_state": 8,
                      "resampling": "poisson"}
    data_file = tmp_path / "data.json"
    data_file.write_text(json.dumps({"metric_path": str(REPO / "chance_f1_metric"), "predictions": predictions,
                                     "references": references, "compute_kwargs": compute_kwargs}))
    script = tmp_path / "worker.py"
    script.write_text(WORKER)
    experiment_id = f"poisson-{uuid.uuid4().hex}"
    workers = [subprocess.Popen([sys.executable, str(script), str(data_file), str(i), experiment_id,
                                 str(tmp_path / "cache"), str(tmp_path / f"out{i}.json")],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path) for i in (0, 1)]
    for worker in workers:
        _, stderr = worker.communicate(timeout=180)
        assert worker.returncode == 0, stderr[-3000:]
    result = json.loads((tmp_path / "out0.json").read_text())["result"]
    expected = chance_f1(predictions, references, **compute_kwargs)
    assert result == json.loads(json.dumps(expected)) and result["overall_corrected_f1_ci"][0] < 1
    state = ChanceF1State(confidence_level=0.9, n_resamples=200, random_state=8, resampling="poisson")
    for start in range(0, 300, 70):  # what a stream of batches adds up to
        state.update(predictions[start:start + 70], references[start:start + 70])
    assert state.result(zero_division=0) == expected


# --- coverage, as tests/test_intervals.py checks the sentence bootstrap ------------------------------


def test_poisson_interval_covers_the_population_value(templates):  # noqa: F811
    rows = sentence_arrays(templates, "token")[1].sum(axis=1)
    truth = float(scores_from_sums(rows.mean(axis=0))["corrected_f1"])
    rng = np.random.default_rng(12)  # the corpora of test_intervals' check of the sentence bootstrap
    replications, corpus_size, covered = 1000, 200, 0
    for replication in range(replications):
        corpus = [templates[i] for i in rng.integers(0, len(templates), corpus_size)]
        sums = PoissonSums(seed=replication, n_resamples=500).add_sentences(
            corpus, np.arange(corpus_size, dtype=np.uint64))
        low, high = sums.intervals("token", 0.95)["overall"]["corrected_f1"]
        covered += low <= truth <= high
    assert 0.93 <= covered / replications <= 0.97, covered / replications
    assert f"Poisson intervals covered it in {covered / replications:.1%} of {replications:,} replications" \
        in _docs_text()
