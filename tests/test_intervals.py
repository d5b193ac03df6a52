"""Bootstrap intervals of chance-corrected F1 and the comparison of two systems (issue 12, items 1, 2, 4)."""

from __future__ import annotations

import itertools
import json
import math
import warnings
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from chance_agreement import chance_f1, compare_systems
from chance_agreement.chance.bootstrap_intervals import (
    SCORES,
    bootstrap_scores,
    resample_counts,
    scores_from_sums,
    sentence_arrays,
)
from chance_agreement.chance.corrected_f1 import UndefinedMetricWarning, corpus_statistics, scores_from_statistics
from chance_agreement.chance.statistics import FIELDS
from chance_agreement.chance.system_comparison import compare_statistics
from chance_agreement.reports.cli import main

REFERENCES = [
    ["B-PER", "I-PER", "O", "O", "B-LOC", "O"],
    ["O", "B-ORG", "I-ORG", "I-ORG", "O"],
    ["B-LOC", "O", "O", "B-PER", "I-PER", "O", "O"],
    ["O", "O", "O"],
    ["B-ORG", "O", "B-PER", "O"],
    ["O", "B-LOC", "I-LOC", "O", "O", "B-ORG"],
]
PREDICTIONS = [
    ["B-PER", "I-PER", "O", "O", "O", "O"],
    ["O", "B-ORG", "I-ORG", "O", "O"],
    ["B-LOC", "O", "O", "B-PER", "O", "O", "B-LOC"],
    ["O", "B-PER", "O"],
    ["B-ORG", "O", "B-PER", "I-PER"],
    ["O", "B-LOC", "I-LOC", "O", "O", "O"],
]
OTHER = [
    ["B-PER", "I-PER", "O", "O", "B-LOC", "O"],
    ["O", "B-ORG", "O", "O", "O"],
    ["O", "O", "O", "B-PER", "I-PER", "O", "O"],
    ["O", "O", "O"],
    ["B-LOC", "O", "B-PER", "O"],
    ["O", "B-LOC", "O", "O", "O", "B-ORG"],
]
CI_KEYS = [f"overall_{score}_ci" for score in SCORES]


# --- item 1: intervals on chance_f1 ---------------------------------------------------------------


def test_intervals_are_added_only_when_asked_and_leave_the_scores_alone():
    plain = chance_f1(PREDICTIONS, REFERENCES, zero_division=0)
    result = chance_f1(PREDICTIONS, REFERENCES, zero_division=0, confidence_level=0.9, random_state=3)
    assert not any(key.endswith("_ci") for key in plain)
    assert {key: value for key, value in result.items() if key not in CI_KEYS and not isinstance(value, dict)} == \
        {key: value for key, value in plain.items() if not isinstance(value, dict)}
    for key in CI_KEYS:
        low, high = result[key]
        assert type(low) is float and type(high) is float and low <= high
    for name in ("LOC", "ORG", "PER"):
        assert {key: value for key, value in result[name].items() if not key.endswith("_ci")} == plain[name]
        for score in SCORES:
            low, high = result[name][f"{score}_ci"]
            assert type(low) is float and low <= high
    json.dumps(result)


def test_seeded_and_reproducible():
    def run(random_state):
        return chance_f1(PREDICTIONS, REFERENCES, zero_division=0, confidence_level=0.95, n_resamples=200,
                         random_state=random_state)

    assert run(11) == run(11)
    assert run(np.random.default_rng(11)) == run(11)
    assert run(11)["overall_corrected_f1_ci"] != run(12)["overall_corrected_f1_ci"]
    # no global state: numpy's legacy seed does not matter
    np.random.seed(0)
    first = run(5)
    np.random.seed(1)
    assert run(5) == first


def _oracle_quantiles(sentences, draws, level, confidence_level, zero_division=0):
    """Brute force: add up the drawn sentences' statistics and score them with scores_from_statistics."""
    types = sorted({name for stats in sentences for name in stats.per_type})
    values = {name: {score: [] for score in SCORES} for name in types + ["overall"]}
    for indices in draws:
        total = sum((sentences[i] for i in indices), type(sentences[0])())
        result = scores_from_statistics(total, level, zero_division)
        for name in types:
            for score in SCORES:
                value = result[name][score] if name in result else float(zero_division)
                values[name][score].append(_unsupported(total, [name], level, score) or value)
        for score in SCORES:
            values["overall"][score].append(_unsupported(total, types, level, score) or result[f"overall_{score}"])
    alpha = 1 - confidence_level
    return {name: {score: None if np.isnan(v).any() else list(np.quantile(v, [alpha / 2, 1 - alpha / 2]))
                   for score, v in scores.items()} for name, scores in values.items()}


def _unsupported(total, names, level, score):
    """NaN for a corrected F1 the random model does not support (chance F1 >= 1 - 1e-12, with
    entities), else None: such a resample leaves the interval undefined."""
    names = [name for name in names if name in total.per_type]
    if score != "corrected_f1" or not names:
        return None
    vector = sum(total.per_type[name] for name in names)
    fields = ("expected_overlap", "annotated_tokens") if level == "token" else ("expected_matches", None)
    expected = 2 * vector[FIELDS.index(fields[0])]
    denominator = vector[FIELDS.index(fields[1])] if fields[1] else vector[FIELDS.index("predicted")] + vector[FIELDS.index("actual")]
    return float("nan") if denominator > 0 and 1.0 - expected / denominator < 1e-12 else None


@pytest.mark.parametrize("level", ["token", "entity"])
def test_weight_vector_bootstrap_equals_resampling_sentences_by_brute_force(level):
    _, sentences = corpus_statistics(PREDICTIONS, REFERENCES, levels=(level,))
    n_resamples = 300
    draws = np.random.default_rng(7).integers(0, len(sentences), size=(n_resamples, len(sentences)), dtype=np.int32)
    oracle = _oracle_quantiles(sentences, draws, level, 0.8)
    fast = bootstrap_scores(sentences, level=level, confidence_level=0.8, n_resamples=n_resamples, random_state=7,
                            zero_division=0)
    for score in SCORES:
        assert np.allclose(fast["overall"][score], oracle["overall"][score], rtol=1e-12, atol=1e-12)
        for name, scores in fast["types"].items():
            assert np.allclose(scores[score], oracle[name][score], rtol=1e-12, atol=1e-12), (name, score)


TAGS = st.sampled_from(["O", "O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC"])


@st.composite
def corpora(draw):
    """1-6 sentences of 1-8 tokens, references and predictions drawn independently."""
    references, predictions = [], []
    for _ in range(draw(st.integers(1, 6))):
        length = draw(st.integers(1, 8))
        references.append(draw(st.lists(TAGS, min_size=length, max_size=length)))
        predictions.append(draw(st.lists(TAGS, min_size=length, max_size=length)))
    return references, predictions


@settings(derandomize=True, max_examples=40, deadline=None)
@given(corpus=corpora(), seed=st.integers(0, 2**16), zero_division=st.sampled_from([0, 1]))
def test_property_bootstrap_equals_brute_force_on_random_corpora(corpus, seed, zero_division):
    references, predictions = corpus
    _, sentences = corpus_statistics(predictions, references)
    n_resamples = 30
    draws = np.random.default_rng(seed).integers(0, len(sentences), size=(n_resamples, len(sentences)),
                                                 dtype=np.int32)
    oracle = _oracle_quantiles(sentences, draws, "token", 0.8, zero_division)
    fast = bootstrap_scores(sentences, confidence_level=0.8, n_resamples=n_resamples,
                            random_state=seed, zero_division=zero_division)
    for score in SCORES:
        if oracle["overall"][score] is None:  # a resample with chance F1 1: no corrected F1 interval
            assert score == "corrected_f1" and fast["overall"][score] is None
        else:
            low, high = fast["overall"][score]
            assert np.allclose([low, high], oracle["overall"][score], rtol=1e-12, atol=1e-12)
            assert low <= high <= 1.0
            if score != "corrected_f1":
                assert 0.0 <= low
        for name, scores in fast["types"].items():
            if oracle[name][score] is None:
                assert scores[score] is None, (name, score)
            else:
                assert np.allclose(scores[score], oracle[name][score], rtol=1e-12, atol=1e-12), (name, score)


@settings(derandomize=True, max_examples=30, deadline=None)
@given(corpus=corpora(), other=corpora(), seed=st.integers(0, 2**16))
def test_property_comparison_is_antisymmetric(corpus, other, seed):
    references, predictions = corpus
    second = [tags[: len(reference)] + ["O"] * (len(reference) - len(tags))
              for tags, reference in zip(other[1] * len(references), references)]
    forward = compare_systems(predictions, second, references, n_resamples=20, n_permutations=20, random_state=seed)
    backward = compare_systems(second, predictions, references, n_resamples=20, n_permutations=20, random_state=seed)
    for score in ("corrected_f1", "observed_f1"):
        if forward[f"{score}_p_value"] is None:  # chance F1 1 somewhere: no corrected F1 comparison either way
            assert score == "corrected_f1" and backward[f"{score}_difference_ci"] is None
            continue
        assert forward[f"{score}_difference"] == -backward[f"{score}_difference"]
        assert forward[f"{score}_p_value"] == backward[f"{score}_p_value"]
        assert 1 / 21 <= forward[f"{score}_p_value"] <= 1.0
        low, high = forward[f"{score}_difference_ci"]
        assert low <= high and np.allclose([low, high], [-x for x in reversed(backward[f"{score}_difference_ci"])])


def test_resample_counts_are_multinomial_with_exact_probabilities():
    n_units, n_resamples = 3, 30000
    counts = resample_counts(np.random.default_rng(0), n_units, n_resamples)
    assert counts.shape == (n_resamples, n_units) and np.all(counts.sum(axis=1) == n_units)
    exact = Counter()
    for draw in itertools.product(range(n_units), repeat=n_units):
        exact[tuple(np.bincount(draw, minlength=n_units))] += Fraction(1, n_units**n_units)
    seen = Counter(tuple(int(c) for c in row) for row in counts)
    assert set(seen) == set(exact)
    for vector, probability in exact.items():
        p = float(probability)
        assert abs(seen[vector] / n_resamples - p) < 4 * math.sqrt(p * (1 - p) / n_resamples), vector


def test_degenerate_resamples_take_the_zero_division_value_without_warnings():
    references = [["B-PER", "I-PER", "O", "O"], ["O", "O"]]
    predictions = [["B-PER", "O", "O", "O"], ["O", "O"]]
    # a resample of only the empty sentence (probability 1/4) is 0/0
    low = chance_f1(predictions, references, zero_division=0, confidence_level=0.9, random_state=0)
    high = chance_f1(predictions, references, zero_division=1, confidence_level=0.9, random_state=0)
    for score in SCORES:
        assert low[f"overall_{score}_ci"][0] == 0.0
        assert high[f"overall_{score}_ci"][1] == 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("error", UndefinedMetricWarning)
        result = chance_f1(predictions, references, confidence_level=0.9, random_state=0)
    assert result["overall_observed_f1_ci"][0] == 0.0


def test_scores_from_sums_follow_chance_f1_rules():
    sums = np.array([[4.0, 1.0, 5.0], [0.0, 0.0, 0.0], [2.0, 2.0, 2.0]])
    scores = scores_from_sums(sums, zero_division=1)
    assert scores["observed_f1"].tolist() == [0.8, 1.0, 1.0]
    assert scores["chance_f1"].tolist() == [0.2, 1.0, 1.0]
    assert np.allclose(scores["corrected_f1"], [0.75, 1.0, 1.0])  # chance 1 -> zero_division


def test_bca_agrees_with_scipy_on_a_ratio_statistic():
    _, sentences = corpus_statistics(PREDICTIONS * 5, REFERENCES * 5)
    _, arrays = sentence_arrays(sentences, "token")
    rows = arrays.sum(axis=1)

    def corrected(a, e, d, axis=-1):
        return scores_from_sums(np.stack([a.sum(axis), e.sum(axis), d.sum(axis)], axis=-1))["corrected_f1"]

    reference = stats.bootstrap(tuple(rows.T), corrected, paired=True, vectorized=True, n_resamples=20000,
                                method="BCa", confidence_level=0.9, random_state=np.random.default_rng(1))
    ours = bootstrap_scores(sentences, confidence_level=0.9, n_resamples=20000, random_state=2, method="bca")
    width = reference.confidence_interval.high - reference.confidence_interval.low
    assert np.allclose(ours["overall"]["corrected_f1"], list(reference.confidence_interval), atol=0.05 * width)
    percentile = bootstrap_scores(sentences, confidence_level=0.9, n_resamples=20000, random_state=2)
    assert ours["overall"]["corrected_f1"] != percentile["overall"]["corrected_f1"]


@pytest.mark.parametrize("kwargs,error", [
    (dict(confidence_level=1.0), ValueError),
    (dict(confidence_level=0), ValueError),
    (dict(confidence_level="0.95"), TypeError),
    (dict(confidence_level=0.95, n_resamples=0), ValueError),
    (dict(confidence_level=0.95, n_resamples=10.5), TypeError),
    (dict(confidence_level=0.95, random_state="seed"), TypeError),
    (dict(confidence_level=0.95, random_state=-1), ValueError),
    (dict(random_state=np.random.RandomState(0)), TypeError),
    (dict(n_resamples=-3), ValueError),
])
def test_bad_arguments_are_refused(kwargs, error):
    with pytest.raises(error, match="confidence_level|n_resamples|random_state"):
        chance_f1(PREDICTIONS, REFERENCES, **kwargs)


def test_bad_method_is_refused():
    _, sentences = corpus_statistics(PREDICTIONS, REFERENCES)
    with pytest.raises(ValueError, match="method"):
        bootstrap_scores(sentences, method="basic")


def test_evaluate_module_and_flat_configuration(load_metric):
    arguments = dict(predictions=PREDICTIONS, references=REFERENCES, zero_division=0, confidence_level=0.9,
                     n_resamples=200, random_state=4)
    nested = load_metric("chance_f1_metric").compute(**arguments)
    assert nested == chance_f1(PREDICTIONS, REFERENCES, zero_division=0, confidence_level=0.9, n_resamples=200,
                               random_state=4)
    flat = load_metric("chance_f1_metric", "flat").compute(**arguments)
    for score in SCORES:
        assert flat[f"overall_{score}_ci_low"] == nested[f"overall_{score}_ci"][0]
        assert flat[f"overall_{score}_ci_high"] == nested[f"overall_{score}_ci"][1]
        assert flat[f"PER_{score}_ci_low"] == nested["PER"][f"{score}_ci"][0]
        assert flat[f"PER_{score}_ci_high"] == nested["PER"][f"{score}_ci"][1]
    assert all(type(value) is float for value in flat.values())


def test_cli_f1_prints_and_returns_intervals(tmp_path, capsys):
    from chance_agreement.spans.conll import write_conll

    path = tmp_path / "system.conll"
    with path.open("w") as handle:
        write_conll(handle, [["w"] * len(tags) for tags in REFERENCES], REFERENCES, PREDICTIONS)
    options = ["--confidence-level", "0.9", "--n-resamples", "200", "--random-state", "4"]
    assert main(["f1", str(path), "--json", *options]) == 0
    printed = json.loads(capsys.readouterr().out)
    expected = chance_f1(PREDICTIONS, REFERENCES, confidence_level=0.9, n_resamples=200, random_state=4)
    assert printed["overall_corrected_f1_ci"] == expected["overall_corrected_f1_ci"]
    assert main(["f1", str(path), *options]) == 0
    text = capsys.readouterr().out
    low, high = expected["overall_corrected_f1_ci"]
    assert "90% intervals (sentence bootstrap, 200 resamples, percentile)" in text
    assert f"corrected [{low:.4f}, {high:.4f}]" in text
    assert main(["f1", str(path), "--confidence-level", "2"]) == 2
    assert "--confidence-level: 2 is not strictly between 0 and 1" in capsys.readouterr().err


def test_conll_intervals_surround_the_estimates(conll_systems):
    references, systems = conll_systems
    result = chance_f1(systems["CflairWglove_lstmCrf_9303"], references, confidence_level=0.95, random_state=0)
    for score in SCORES:
        low, high = result[f"overall_{score}_ci"]
        assert low < result[f"overall_{score}"] < high
        assert high - low < 0.05
        for name in ("LOC", "MISC", "ORG", "PER"):
            low, high = result[name][f"{score}_ci"]
            assert low < result[name][score] < high


# --- item 2: comparing two systems ----------------------------------------------------------------


def test_comparison_is_antisymmetric_and_zero_for_identical_systems():
    ab = compare_systems(PREDICTIONS, OTHER, REFERENCES, random_state=9, n_resamples=300, n_permutations=300)
    ba = compare_systems(OTHER, PREDICTIONS, REFERENCES, random_state=9, n_resamples=300, n_permutations=300)
    point = {name: chance_f1(tags, REFERENCES, zero_division=0) for name, tags in (("a", PREDICTIONS), ("b", OTHER))}
    for score in ("corrected_f1", "observed_f1"):
        assert ab[f"{score}_a"] == point["a"][f"overall_{score}"] and ab[f"{score}_b"] == point["b"][f"overall_{score}"]
        assert ab[f"{score}_difference"] == -ba[f"{score}_difference"]
        assert np.allclose(ab[f"{score}_difference_ci"], [-x for x in reversed(ba[f"{score}_difference_ci"])])
        assert ab[f"{score}_p_value"] == ba[f"{score}_p_value"]
    same = compare_systems(PREDICTIONS, PREDICTIONS, REFERENCES, random_state=0, n_resamples=100, n_permutations=100)
    assert same["corrected_f1_difference"] == 0.0 and same["corrected_f1_difference_ci"] == [0.0, 0.0]
    assert same["corrected_f1_p_value"] == 1.0


def test_paired_bootstrap_equals_brute_force_with_the_same_draws():
    _, sentences_a = corpus_statistics(PREDICTIONS, REFERENCES)
    _, sentences_b = corpus_statistics(OTHER, REFERENCES)
    n_resamples = 200
    draws = np.random.default_rng(21).integers(0, len(sentences_a), size=(n_resamples, len(sentences_a)), dtype=np.int32)
    differences = []
    for indices in draws:
        a = scores_from_statistics(sum((sentences_a[i] for i in indices), type(sentences_a[0])()), "token", 0)
        b = scores_from_statistics(sum((sentences_b[i] for i in indices), type(sentences_b[0])()), "token", 0)
        differences.append(a["overall_corrected_f1"] - b["overall_corrected_f1"])
    result = compare_statistics(sentences_a, sentences_b, confidence_level=0.9, n_resamples=n_resamples,
                                n_permutations=10, random_state=21)
    assert np.allclose(result["corrected_f1_difference_ci"], np.quantile(differences, [0.05, 0.95]), atol=1e-12)


def test_permutation_p_value_matches_the_exact_enumeration_of_swaps():
    _, sentences_a = corpus_statistics(PREDICTIONS, REFERENCES)
    _, sentences_b = corpus_statistics(OTHER, REFERENCES)

    def difference(swapped):
        a = [sb if swap else sa for sa, sb, swap in zip(sentences_a, sentences_b, swapped)]
        b = [sa if swap else sb for sa, sb, swap in zip(sentences_a, sentences_b, swapped)]
        score = [scores_from_statistics(sum(side, type(side[0])()), "token", 0)["overall_corrected_f1"] for side in (a, b)]
        return score[0] - score[1]

    observed = abs(difference([False] * len(sentences_a)))
    patterns = list(itertools.product([False, True], repeat=len(sentences_a)))
    exact = Fraction(sum(abs(difference(p)) >= observed - 1e-12 for p in patterns), len(patterns))
    n_permutations = 20000
    result = compare_statistics(sentences_a, sentences_b, n_resamples=1, n_permutations=n_permutations, random_state=5)
    p = float(exact)
    assert abs(result["corrected_f1_p_value"] - p) < 4 * math.sqrt(p * (1 - p) / n_permutations) + 1 / n_permutations


def test_comparison_refuses_unpaired_input():
    _, sentences = corpus_statistics(PREDICTIONS, REFERENCES)
    with pytest.raises(ValueError, match="same sentences"):
        compare_statistics(sentences, sentences[:-1])
    with pytest.raises(ValueError, match="level"):
        compare_statistics(sentences, sentences, level="span")
    with pytest.raises(ValueError, match="n_permutations"):
        compare_statistics(sentences, sentences, n_permutations=0)


def test_two_conll_systems_differ_significantly(conll_systems):
    references, systems = conll_systems
    result = compare_systems(systems["CflairWglove_lstmCrf_9303"], systems["CbertWnon_snonMlp_9109"], references,
                             random_state=0)
    low, high = result["corrected_f1_difference_ci"]
    assert 0 < low < result["corrected_f1_difference"] < high
    assert result["corrected_f1_p_value"] < 0.01 and result["observed_f1_p_value"] < 0.01


# --- item 4: honest intervals, by simulation ------------------------------------------------------
#
# The known model: a sentence is one of K gold sentences (uniform) with one of M predictions drawn
# from a noise model (uniform), i.e. a sentence is a draw from the K x M templates below. The
# corpus-level corrected F1 is a ratio of sums, so its population value (what the estimate tends to
# as the corpus grows) is the same ratio of the expected per-sentence sums: exact here, the mean of
# the templates' rows. Nothing about the intervals is used to choose it.

TEMPLATE_GOLD, TEMPLATE_PREDICTIONS = 60, 6


def _tags(spans, length):
    tags = ["O"] * length
    for name, start, end in spans:
        tags[start:end] = ["B-" + name] + ["I-" + name] * (end - start - 1)
    return tags


def _gold_spans(rng, length):
    spans, position = [], 0
    while True:
        position += int(rng.integers(1, 8))
        size = int(rng.integers(1, 4))
        if position + size > length:
            return spans
        spans.append((str(rng.choice(["PER", "LOC"])), position, position + size))
        position += size


def _noisy(rng, spans, length):
    """Each entity missed (15%) or with its end moved by one (15%); a spurious PER 30% of the time."""
    out = []
    for name, start, end in spans:
        u = rng.random()
        if u < 0.15:
            continue
        if u < 0.3:
            end = min(length, end + 1) if rng.random() < 0.5 else max(start + 1, end - 1)
        out.append((name, start, end))
    if rng.random() < 0.3:
        start = int(rng.integers(0, length))
        out.append(("PER", start, start + 1))
    kept, last_end = [], 0
    for span in sorted(out, key=lambda s: s[1]):
        if span[1] >= last_end:
            kept.append(span)
            last_end = span[2]
    return kept


@pytest.fixture(scope="module")
def templates():
    rng = np.random.default_rng(2026)
    references, predictions = [], []
    for _ in range(TEMPLATE_GOLD):
        length = int(rng.integers(4, 25))
        gold = _gold_spans(rng, length)
        for _ in range(TEMPLATE_PREDICTIONS):
            references.append(_tags(gold, length))
            predictions.append(_tags(_noisy(rng, gold, length), length))
    return corpus_statistics(predictions, references)[1]


def test_bootstrap_interval_covers_the_population_value(templates):
    rows = sentence_arrays(templates, "token")[1].sum(axis=1)
    truth = float(scores_from_sums(rows.mean(axis=0))["corrected_f1"])
    rng = np.random.default_rng(12)
    replications, corpus_size, covered = 1000, 200, 0
    for _ in range(replications):
        corpus = [templates[i] for i in rng.integers(0, len(templates), corpus_size)]
        low, high = bootstrap_scores(corpus, confidence_level=0.95, n_resamples=500,
                                     random_state=rng)["overall"]["corrected_f1"]
        covered += low <= truth <= high
    assert 0.93 <= covered / replications <= 0.97, covered / replications
    assert f"in {covered / replications:.1%} of {replications:,} replications" in _docs_text()
    from conftest import REPO

    card = " ".join((REPO / "hub_cards" / "chance_f1.md").read_text(encoding="utf-8").split())
    assert f"in {covered / replications:.1%} of {replications:,} corpora of {corpus_size} sentences" in card


def test_permutation_test_keeps_its_size_for_equally_good_systems(templates):
    rng = np.random.default_rng(13)
    replications, corpus_size, rejections = 1000, 100, 0
    for _ in range(replications):
        gold = rng.integers(0, TEMPLATE_GOLD, corpus_size) * TEMPLATE_PREDICTIONS
        system_a = [templates[i] for i in gold + rng.integers(0, TEMPLATE_PREDICTIONS, corpus_size)]
        system_b = [templates[i] for i in gold + rng.integers(0, TEMPLATE_PREDICTIONS, corpus_size)]
        result = compare_statistics(system_a, system_b, n_resamples=1, n_permutations=500, random_state=rng)
        rejections += result["corrected_f1_p_value"] < 0.05
    assert rejections / replications <= 0.07, rejections / replications
    assert f"at 5% in {rejections / replications:.1%} of {replications:,} replications" in _docs_text()


# --- the docs' numbers ---------------------------------------------------------------------------


def _docs_text() -> str:
    """The docs page on intervals and tests with its line breaks folded into spaces."""
    from docs_pages import folded, page

    return folded(page("howto/intervals-and-tests.md"))


def _docs_rows(heading: str) -> list[list[str]]:
    from docs_pages import page, table_after

    return table_after(page("howto/intervals-and-tests.md"), heading)


def test_docs_conll_intervals_and_comparison(conll_systems):
    references, systems = conll_systems
    rows = _docs_rows("On the CoNLL-2003 test set (`random_state=0`")
    assert [row[0] for row in rows] == list(systems)
    for name, observed, observed_ci, corrected, corrected_ci in rows:
        result = chance_f1(systems[name], references, confidence_level=0.95, random_state=0)
        assert f"{result['overall_observed_f1']:.4f}" == observed
        assert "-".join(f"{x:.4f}" for x in result["overall_observed_f1_ci"]) == observed_ci
        assert f"{result['overall_corrected_f1']:.4f}" == corrected
        assert "-".join(f"{x:.4f}" for x in result["overall_corrected_f1_ci"]) == corrected_ci
        _, sentences = corpus_statistics(systems[name], references)
        percentile = bootstrap_scores(sentences, random_state=0)["overall"]["corrected_f1"]
        bca = bootstrap_scores(sentences, random_state=0, method="bca")["overall"]["corrected_f1"]
        assert np.max(np.abs(np.subtract(percentile, bca))) < 0.002  # "differ by less than 0.002"
    result = compare_systems(systems["CflairWglove_lstmCrf_9303"], systems["CbertWnon_snonMlp_9109"], references,
                             random_state=0)
    low, high = result["corrected_f1_difference_ci"]
    sentence = (f"difference {result['corrected_f1_difference']:.4f}, interval {low:.4f}-{high:.4f}, "
                f"p = {result['corrected_f1_p_value']:.3f}")
    assert sentence in _docs_text()


def test_flatten_splits_interval_pairs_only():
    from chance_agreement.ecosystem.flat import flatten

    flat = flatten({"overall_corrected_f1_ci": [0.1, 0.2], "PER": {"f1_ci": (0.3, 0.4)}, "ci": [1, 2],
                    "scores": [0.5, 0.6], "odd_ci": [1, 2, 3]})
    assert flat == {"overall_corrected_f1_ci_low": 0.1, "overall_corrected_f1_ci_high": 0.2,
                    "PER_f1_ci_low": 0.3, "PER_f1_ci_high": 0.4, "ci_low": 1.0, "ci_high": 2.0}


def test_leaderboard_command_shows_intervals_tests_and_chance_difference(shared_data, capsys):
    merged = str(shared_data / "conll03_systems" / "derived" / "conll03_test_gold_plus_3_systems.tsv")
    assert main(["leaderboard", f"{merged}:1", f"{merged}:3", f"{merged}:4", "--names", "flair,bert", "--confidence-level",
                 "0.9", "--n-resamples", "200", "--random-state", "0", "--gold-noise", "0.01", "--format", "csv"]) == 0
    rows = list(__import__("csv").DictReader(capsys.readouterr().out.splitlines()))
    assert [row["system"] for row in rows] == ["flair", "bert"]
    assert float(rows[0]["corrected_f1_ci_low"]) < float(rows[0]["corrected_f1"]) < float(rows[0]["corrected_f1_ci_high"])
    assert rows[0]["differs_from_next"] == "True" and rows[1]["p_next"] == ""
    from chance_agreement.noise.noise_model import chance_difference

    # 46,435 gold tokens, 1% noisy; the chance difference at the table's level, 0.9
    assert int(rows[0]["chance_difference"]) == chance_difference(46435, 464.35, confidence_level=0.9).answers == 48
    assert int(rows[0]["correct_difference"]) == 84
    assert main(["leaderboard", f"{merged}:1", f"{merged}:3", "--gold-noise", "2"]) == 2
    assert "--gold-noise: 2 is not strictly between 0 and 1" in capsys.readouterr().err


def test_a_chance_f1_above_one_gets_its_own_interval_and_no_corrected_interval():
    """Issue 20: under the overlapping model random segments stack and chance F1 exceeds 1 (here
    1.0556 in every sentence). Its interval was clipped to [1.0, 1.0] and the corrected F1 interval
    filled with [0.0, 0.0]; now chance F1's interval is the unclipped one and corrected F1, which
    the model cannot support there, has no interval (None, with a warning)."""
    tags = [["B-PER", "I-PER", "B-PER"], ["B-PER", "B-PER", "I-PER"]] * 3
    with pytest.warns(UndefinedMetricWarning, match="no corrected_f1 interval: chance F1 is 1 or more in 1000 of 1000"):
        result = chance_f1(tags, tags[::-1], model="overlapping", confidence_level=0.95, random_state=0)
    assert result["overall_chance_f1"] == pytest.approx(19 / 18)
    assert result["overall_chance_f1_ci"] == [result["overall_chance_f1"]] * 2
    assert result["overall_corrected_f1_ci"] is None and result["PER"]["corrected_f1_ci"] is None
    assert result["overall_observed_f1_ci"] is not None
    with warnings.catch_warnings():
        warnings.simplefilter("error", UndefinedMetricWarning)  # zero_division=0: the flag is the None
        quiet = chance_f1(tags, tags[::-1], model="overlapping", confidence_level=0.95, random_state=0, zero_division=0)
    assert quiet["overall_corrected_f1_ci"] is None
    with pytest.warns(UndefinedMetricWarning, match="no corrected_f1 comparison"):
        compared = compare_systems(tags, tags, tags[::-1], model="overlapping", n_resamples=20, n_permutations=20,
                                   random_state=0)
    assert compared["corrected_f1_p_value"] is None and compared["observed_f1_p_value"] == 1.0
