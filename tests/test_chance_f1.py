"""chance_f1: the paper's tables, seqeval parity, exact expectations, degenerate and bad input."""

from __future__ import annotations

import itertools
import json
import math
import warnings
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from seqeval.metrics import accuracy_score, classification_report

from chance_agreement import chance_f1
from chance_agreement.chance.corrected_f1 import UndefinedMetricWarning, corpus_statistics, scores_from_statistics
from chance_agreement.reports.paper_examples import SIMULATIONS, bits_to_tags
from chance_agreement.spans.tags import resolve_scheme

SEQEVAL_KEYS = ("overall_precision", "overall_recall", "overall_f1", "overall_accuracy")


def seqeval_module_result(predictions, references, suffix=False, scheme=None, mode=None, zero_division="warn"):
    """What evaluate's seqeval module returns: seqeval's report reshaped the same way."""
    report = classification_report(
        y_true=references, y_pred=predictions, suffix=suffix, output_dict=True,
        scheme=resolve_scheme(scheme), mode=mode, zero_division=zero_division,
    )
    report.pop("macro avg")
    report.pop("weighted avg")
    overall = report.pop("micro avg")
    result = {
        name: {"precision": s["precision"], "recall": s["recall"], "f1": s["f1-score"], "number": s["support"]}
        for name, s in report.items()
    }
    result["overall_precision"] = overall["precision"]
    result["overall_recall"] = overall["recall"]
    result["overall_f1"] = overall["f1-score"]
    result["overall_accuracy"] = accuracy_score(y_true=references, y_pred=predictions)
    return result


def assert_seqeval_parity(ours, expected):
    types = [key for key, value in expected.items() if isinstance(value, dict)]
    assert sorted(types) == sorted(key for key, value in ours.items() if isinstance(value, dict))
    for name in types:
        for key in ("precision", "recall", "f1", "number"):
            assert ours[name][key] == expected[name][key], (name, key)
            assert type(ours[name][key]) in (float, int)
    for key in SEQEVAL_KEYS:
        assert ours[key] == expected[key], key
        assert type(ours[key]) is float


def printed(value: float, paper: float) -> bool:
    """The paper prints 4 decimals, mostly rounded, in one row truncated."""
    return round(value, 4) == paper or math.floor(value * 1e4) / 1e4 == paper


@pytest.fixture(scope="module")
def metric(load_metric):
    return load_metric("chance_f1_metric")


@pytest.mark.parametrize("simulation", SIMULATIONS, ids=[s.name for s in SIMULATIONS])
def test_paper_simulation_tables_through_evaluate(metric, simulation):
    annotator_1, annotator_2 = simulation.tags()
    result = metric.compute(predictions=[annotator_1], references=[annotator_2])
    for key, paper in (("overall_observed_f1", simulation.observed_f1),
                       ("overall_chance_f1", simulation.chance_f1),
                       ("overall_corrected_f1", simulation.corrected_f1)):
        assert printed(result[key], paper), (key, result[key], paper)
        assert abs(result[key] - paper) < 1e-4
    assert result["ENT"]["chance_f1"] == result["overall_chance_f1"]


def test_sim4_reverses_the_ranking_after_correction():
    """Annotator 1 has the lower observed F1 but the higher corrected F1 (paper, Table 9)."""
    first, second = SIMULATIONS[-2], SIMULATIONS[-1]
    r1 = chance_f1([first.tags()[0]], [first.tags()[1]])
    r2 = chance_f1([second.tags()[0]], [second.tags()[1]])
    assert r2["overall_observed_f1"] == pytest.approx(32 / 47)  # printed truncated as 0.6808
    assert r1["overall_observed_f1"] < r2["overall_observed_f1"]
    assert r1["overall_corrected_f1"] > r2["overall_corrected_f1"]


def test_conll_systems_match_seqeval_exactly(conll_systems):
    references, systems = conll_systems
    assert len(references) == 3453 and sum(map(len, references)) == 46435
    for name, predictions in systems.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ours = chance_f1(predictions, references)
            expected = seqeval_module_result(predictions, references)
        assert_seqeval_parity(ours, expected)
        # plausibility (paper Table 10): chance around 0.2 on CoNLL-2003, correction widens the range
        assert 0.15 < ours["overall_chance_f1"] < 0.3, name
        assert ours["overall_corrected_f1"] < ours["overall_observed_f1"]
    spans_f1 = {name: round(chance_f1(p, references)["overall_f1"], 4) for name, p in systems.items()}
    assert spans_f1 == {"CnonWrand_lstmCrf_7849": 0.7849, "CflairWglove_lstmCrf_9303": 0.9303, "CbertWnon_snonMlp_9109": 0.9109}


def test_conll_strict_mode_matches_seqeval(conll_systems):
    references, systems = conll_systems
    predictions = systems["CflairWglove_lstmCrf_9303"]  # no invalid I- starts
    ours = chance_f1(predictions, references, mode="strict", scheme="IOB2")
    assert_seqeval_parity(ours, seqeval_module_result(predictions, references, mode="strict", scheme="IOB2"))


def test_conll_entity_level_observed_is_seqeval_f1(conll_systems):
    references, systems = conll_systems
    predictions = systems["CnonWrand_lstmCrf_7849"]
    result = chance_f1(predictions, references, level="entity")
    assert result["overall_observed_f1"] == result["overall_f1"]
    for name in ("PER", "LOC", "ORG", "MISC"):
        assert result[name]["observed_f1"] == result[name]["f1"]
    assert 0 < result["overall_chance_f1"] < result["overall_observed_f1"]


SCHEME_VOCABULARY = {
    "IOB2": ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"],
    "IOBES": ["O", "B-PER", "I-PER", "E-PER", "S-PER", "S-LOC", "B-LOC", "E-LOC"],
    "BILOU": ["O", "B-PER", "I-PER", "L-PER", "U-PER", "U-LOC"],
    "IOE2": ["O", "I-PER", "E-PER", "E-LOC", "I-LOC"],
}


@settings(max_examples=120, deadline=None)
@given(data=st.data(), scheme=st.sampled_from(sorted(SCHEME_VOCABULARY) + [None]), zero_division=st.sampled_from(["warn", 0, 1]))
def test_random_sequences_match_seqeval(data, scheme, zero_division):
    vocabulary = SCHEME_VOCABULARY[scheme] if scheme else SCHEME_VOCABULARY["IOBES"]
    lengths = data.draw(st.lists(st.integers(1, 9), min_size=1, max_size=5))
    references = [data.draw(st.lists(st.sampled_from(vocabulary), min_size=n, max_size=n)) for n in lengths]
    predictions = [data.draw(st.lists(st.sampled_from(vocabulary), min_size=n, max_size=n)) for n in lengths]
    mode = "strict" if scheme else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = seqeval_module_result(predictions, references, scheme=scheme, mode=mode, zero_division=zero_division)
        ours = chance_f1(predictions, references, scheme=scheme, mode=mode, zero_division=zero_division)
    assert_seqeval_parity(ours, expected)
    for key in ("overall_observed_f1", "overall_chance_f1", "overall_corrected_f1"):
        assert not math.isnan(ours[key])
    assert 0.0 <= ours["overall_chance_f1"] <= 1.0


bits = st.text(alphabet="01", min_size=1, max_size=14)


@settings(max_examples=150, deadline=None)
@given(pair=st.integers(1, 14).flatmap(lambda n: st.tuples(st.text("01", min_size=n, max_size=n), st.text("01", min_size=n, max_size=n))))
def test_token_level_chance_is_symmetric_and_bounded(pair):
    a, b = (bits_to_tags(x) for x in pair)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        forward = chance_f1([a], [b], zero_division=0)
        backward = chance_f1([b], [a], zero_division=0)
    for key in ("overall_observed_f1", "overall_chance_f1", "overall_corrected_f1"):
        assert forward[key] == pytest.approx(backward[key], abs=1e-12)
    assert 0.0 <= forward["overall_chance_f1"] <= 1.0


@settings(max_examples=80, deadline=None)
@given(pair=st.integers(2, 12).flatmap(lambda n: st.tuples(st.text("01", min_size=n, max_size=n), st.text("01", min_size=n, max_size=n))).filter(lambda p: "1" in p[0] and "1" in p[1]))
def test_chance_decreases_as_unannotated_tokens_are_appended(pair):
    """Proposition 4: with more empty text, chance agreement falls (towards 0)."""
    values = []
    for extra in (0, 5, 20, 200):
        a, b = (bits_to_tags(x + "0" * extra) for x in pair)
        values.append(chance_f1([a], [b])["overall_chance_f1"])
    assert all(later <= earlier + 1e-12 for earlier, later in zip(values, values[1:]))
    assert values[-1] < 0.1 or values[0] == 1.0


def test_single_segments_give_the_same_chance_under_both_models():
    a, b = bits_to_tags("0011100000"), bits_to_tags("0001111000")
    assert chance_f1([a], [b])["overall_chance_f1"] == pytest.approx(chance_f1([a], [b], model="overlapping")["overall_chance_f1"], abs=1e-15)


def brute_force_chance(n, lengths_a, lengths_b):
    """Exact expected token overlap and exact-match count over every pair of placements."""
    def placements(lengths):
        for starts in itertools.product(*[range(n - a + 1) for a in lengths]):
            cells = [t for s, a in zip(starts, lengths) for t in range(s, s + a)]
            if len(cells) == len(set(cells)):
                yield starts
    pa, pb = list(placements(lengths_a)), list(placements(lengths_b))
    overlap = matches = Fraction(0)
    for sa in pa:
        cells_a = {t for s, a in zip(sa, lengths_a) for t in range(s, s + a)}
        spans_a = set(zip(sa, lengths_a))
        for sb in pb:
            overlap += len(cells_a & {t for s, b in zip(sb, lengths_b) for t in range(s, s + b)})
            matches += len(spans_a & set(zip(sb, lengths_b)))
    total = len(pa) * len(pb)
    return overlap / total, matches / total


@pytest.mark.parametrize("a,b", [("0110100111", "0111000110"), ("1100110000", "0011001100"), ("101010000", "111000011")])
def test_expectations_equal_brute_force_over_both_annotators(a, b):
    n = len(a)
    runs = lambda bits: [len(r) for r in bits.split("0") if r]
    overlap, matches = brute_force_chance(n, runs(a), runs(b))
    denominator_tokens = a.count("1") + b.count("1")
    token = chance_f1([bits_to_tags(a)], [bits_to_tags(b)])
    entity = chance_f1([bits_to_tags(a)], [bits_to_tags(b)], level="entity")
    assert token["overall_chance_f1"] == pytest.approx(float(2 * overlap / denominator_tokens), abs=1e-12)
    assert entity["overall_chance_f1"] == pytest.approx(float(2 * matches / (len(runs(a)) + len(runs(b)))), abs=1e-12)


def test_add_batch_equals_one_shot(metric, conll_systems):
    references, systems = conll_systems
    predictions = systems["CbertWnon_snonMlp_9109"]
    one_shot = metric.compute(predictions=predictions, references=references)
    for start in range(0, len(references), 1000):
        metric.add_batch(predictions=predictions[start : start + 1000], references=references[start : start + 1000])
    assert metric.compute() == one_shot


def test_statistics_of_shards_add_up_exactly(conll_systems):
    references, systems = conll_systems
    predictions = systems["CnonWrand_lstmCrf_7849"][:800]
    references = references[:800]
    total, sentences = corpus_statistics(predictions, references)
    merged = sum(sentences[1:], sentences[0])
    assert scores_from_statistics(merged) == scores_from_statistics(total)
    assert scores_from_statistics(merged, "entity") == scores_from_statistics(total, "entity")
    token_only, _ = corpus_statistics(predictions, references, levels=("token",))
    with pytest.raises(ValueError, match="without entity-level expectations"):
        scores_from_statistics(token_only, "entity")


def test_sentence_scores_split_a_test_set_by_chance_level():
    refs = [bits_to_tags("0011100000"), ["O"] * 4, bits_to_tags("1111")]
    preds = [bits_to_tags("0001110000"), ["O"] * 4, bits_to_tags("1111")]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = chance_f1(preds, refs, return_sentence_scores=True)
    scores = result["sentence_scores"]
    assert len(scores) == 3
    assert scores[1] == {"observed_f1": None, "chance_f1": None, "denominator": 0.0}
    assert scores[2]["chance_f1"] == 1.0 and scores[2]["observed_f1"] == 1.0
    assert 0 < scores[0]["chance_f1"] < scores[0]["observed_f1"] < 1


def test_output_is_plain_json():
    result = chance_f1([["B-PER", "I-PER", "O"]], [["B-PER", "O", "O"]], return_sentence_scores=True)
    assert json.loads(json.dumps(result)) == result


def test_no_entities_anywhere_gives_zero_division_values():
    with pytest.warns(UndefinedMetricWarning, match="no entities"):
        result = chance_f1([["O", "O"]], [["O", "O"]])
    assert result["overall_observed_f1"] == result["overall_chance_f1"] == result["overall_corrected_f1"] == 0.0
    assert result["overall_accuracy"] == 1.0
    result = chance_f1([["O", "O"]], [["O", "O"]], zero_division=1)
    assert result["overall_corrected_f1"] == 1.0 and result["overall_f1"] == 1.0


def test_every_token_an_entity_gives_chance_one_and_a_documented_corrected_value():
    tags = [["B-PER", "I-PER", "I-PER"]]
    with pytest.warns(UndefinedMetricWarning, match="chance agreement 1"):
        result = chance_f1(tags, tags)
    assert result["overall_chance_f1"] == 1.0 and result["overall_observed_f1"] == 1.0
    assert result["overall_corrected_f1"] == 0.0
    assert chance_f1(tags, tags, zero_division=1)["PER"]["corrected_f1"] == 1.0


@pytest.mark.parametrize(
    "predictions,references,kwargs,message",
    [
        ([["O", "O"]], [["O"]], {}, "sentence 0: the prediction has 2 tags but the reference has 1"),
        ([["O"], ["O"]], [["O"]], {}, "got 2 prediction sequences but 1 reference"),
        ([], [], {}, "empty input"),
        ([["O", ""]], [["O", "O"]], {}, r"predictions\[0\], position 1: the tag is an empty string"),
        ([["E-PER"]], [["B-PER"]], {"mode": "strict", "scheme": "IOB2"}, r"predictions\[0\]: Invalid token is found: E-PER"),
        ([["O"]], [["O"]], {"scheme": "IOB9", "mode": "strict"}, "Scheme should be one of"),
        ([["O"]], [["O"]], {"level": "span"}, "level must be one of"),
        ([["O"]], [["O"]], {"model": "uniform"}, "model must be one of"),
        ([["O"]], [["O"]], {"zero_division": 2}, "zero_division must be"),
    ],
)
def test_bad_input_names_the_problem(metric, predictions, references, kwargs, message):
    with pytest.raises(ValueError, match=message):
        chance_f1(predictions, references, **kwargs)
    if predictions and len(predictions) == len(references):
        with pytest.raises(ValueError, match=message):
            metric.compute(predictions=predictions, references=references, **kwargs)


def test_sample_weight_is_accepted_like_seqeval_and_has_no_effect():
    tags = [["B-PER", "O"]], [["B-PER", "B-LOC"]]
    with pytest.warns(UserWarning, match="sample_weight has no effect"):
        weighted = chance_f1(*tags, sample_weight=[3])
    assert weighted == chance_f1(*tags)


def test_the_public_function_is_not_shadowed_by_a_submodule():
    """Importing every core module must leave ``chance_agreement.chance_f1`` the function."""
    import importlib
    import pkgutil

    import chance_agreement

    for module in pkgutil.walk_packages(chance_agreement.__path__, "chance_agreement."):
        importlib.import_module(module.name)
    for name in chance_agreement.__all__:
        value = getattr(chance_agreement, name)
        assert not isinstance(value, type(chance_agreement)), f"chance_agreement.{name} is a module"
    assert chance_agreement.chance_f1([["B-PER"]], [["B-PER"]])["overall_f1"] == 1.0


# --- the fast corpus path (issue 11) and the consistency items of issue 10 -------------------------


def reference_rows(n, pred_spans, true_spans, model, with_matches):
    """Today's algorithm per sentence and type: coverage dot products and start-distribution
    products from the full Proposition-3 band (``tests/oracles.py``), no closed forms, no caches."""
    from oracles import coverage_reference, start_distribution_reference

    rows = {}
    types = {name for name, _, _ in pred_spans} | {name for name, _, _ in true_spans}
    for name in types:
        a = tuple(sorted(e - s for t, s, e in pred_spans if t == name))
        b = tuple(sorted(e - s for t, s, e in true_spans if t == name))
        overlap = matches = 0.0
        if a and b:
            overlap = float(coverage_reference(n, a, model) @ coverage_reference(n, b, model))
            for length in set(a) & set(b) if with_matches else ():
                others_a, others_b = list(a), list(b)
                others_a.remove(length)
                others_b.remove(length)
                pa = start_distribution_reference(n, tuple(others_a), length, model)
                pb = start_distribution_reference(n, tuple(others_b), length, model)
                matches += a.count(length) * b.count(length) * float(pa @ pb)
        rows[name] = (overlap, matches)
    return rows


def test_fast_path_agrees_with_todays_algorithm_on_every_conll_sentence(conll_systems):
    from chance_agreement.chance.corrected_f1 import corpus_statistics
    from chance_agreement.chance.statistics import EXPECTED_MATCHES, EXPECTED_OVERLAP
    from chance_agreement.spans.tags import paired_spans

    references, systems = conll_systems
    compared = 0
    for predictions in systems.values():
        pred_spans, true_spans = paired_spans(predictions, references)
        sentences = corpus_statistics(predictions, references)[1]
        seen = set()
        for tags, pred, true, statistics in zip(references, pred_spans, true_spans, sentences, strict=True):
            n = len(tags)
            fast = statistics.per_type
            key = (n, tuple(sorted((t, e - s) for t, s, e in pred)), tuple(sorted((t, e - s) for t, s, e in true)))
            if key in seen:
                continue
            seen.add(key)
            for name, (overlap, matches) in reference_rows(n, pred, true, "non_overlapping", True).items():
                assert fast[name][EXPECTED_OVERLAP] == pytest.approx(overlap, rel=0, abs=1e-12)
                assert fast[name][EXPECTED_MATCHES] == pytest.approx(matches, rel=0, abs=1e-12)
                compared += 1
    assert compared > 1000


@settings(max_examples=150, deadline=None)
@given(n=st.integers(1, 40), data=st.data())
def test_one_segment_each_closed_form_equals_exact_enumeration(n, data):
    from chance_agreement.chance.random_models.exact_expectations import single_pair_overlap as _single_pair_overlap

    a = data.draw(st.integers(1, n))
    b = data.draw(st.integers(1, n))
    exact = Fraction(sum(max(0, min(s + a, u + b) - max(s, u)) for s in range(n - a + 1) for u in range(n - b + 1)),
                     (n - a + 1) * (n - b + 1))
    assert _single_pair_overlap(n, a, b) == float(exact)  # correctly rounded


def test_span_overlap_is_a_linear_merge_on_one_long_sentence():
    """16,000 entities per side in one sentence (issue 10, item 5): the overlap of the sorted span
    lists, the expectation (the reference's length-1 segments cover each token with k/n, so
    E[overlap] = (k/n) * a_pred) and the scores are exact."""
    from chance_agreement.chance.nested_f1 import _overlap

    k = 16_000
    n = 4 * k
    references = ["B-X", "O", "O", "O"] * k
    predictions = ["B-X", "I-X", "O", "O"] * (k // 2) + ["O", "B-X", "O", "O"] * (k // 2)
    pred_spans = [(4 * i, 4 * i + 2) for i in range(k // 2)] + [(4 * i + 1, 4 * i + 2) for i in range(k // 2, k)]
    true_spans = [(4 * i, 4 * i + 1) for i in range(k)]
    assert _overlap(pred_spans[::-1], true_spans) == k // 2  # order of the input does not matter
    result = chance_f1([predictions], [references], zero_division=0)
    assert result["overall_observed_f1"] == 2 * (k // 2) / (k + 3 * k // 2)
    assert result["X"]["precision"] == 0.0 and result["X"]["number"] == k
    predicted_tokens = 2 * (k // 2) + k // 2
    expected_overlap = k / n * predicted_tokens
    assert result["overall_chance_f1"] == pytest.approx(2 * expected_overlap / (k + predicted_tokens), rel=1e-12)


def test_overlapping_model_chance_above_one_is_reported_unclipped_and_consistent():
    """Two 2-token segments per side in 4 tokens (issue 10, item 3): under the overlapping model
    E[additive overlap] = 40/9, chance F1 = 2 * 40/9 / 8 = 10/9 for the type, the corpus and the
    sentence alike; corrected F1 is undefined (zero_division, with a warning saying why)."""
    tags = [["B-X", "I-X", "B-X", "I-X"]]
    with pytest.warns(UndefinedMetricWarning, match=r"chance agreement 1\.11111 > 1 .*overlapping model"):
        result = chance_f1(tags, tags, model="overlapping", return_sentence_scores=True)
    assert result["overall_chance_f1"] == pytest.approx(10 / 9, rel=1e-15)
    assert result["X"]["chance_f1"] == result["overall_chance_f1"]
    assert result["sentence_scores"][0]["chance_f1"] == result["overall_chance_f1"]
    assert result["overall_corrected_f1"] == 0.0 and result["X"]["corrected_f1"] == 0.0
    assert chance_f1(tags, tags, model="overlapping", zero_division=1)["overall_corrected_f1"] == 1.0
    non_overlapping = chance_f1(tags, tags, zero_division=0)
    assert non_overlapping["overall_chance_f1"] <= 1.0


TAGS = ["O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-MISC"]


def random_corpus(draw_data, size):
    sentences = []
    for _ in range(size):
        n = draw_data.draw(st.integers(1, 14))
        sentences.append((draw_data.draw(st.lists(st.sampled_from(TAGS), min_size=n, max_size=n)),
                          draw_data.draw(st.lists(st.sampled_from(TAGS), min_size=n, max_size=n))))
    return sentences


@settings(max_examples=60, deadline=None, derandomize=True)
@given(data=st.data(), level=st.sampled_from(["token", "entity"]))
def test_every_number_is_bit_identical_under_permutation_and_any_grouping_of_shards(data, level):
    """Issue 10, item 7: permuting sentences, and summing any grouping of shards in any order."""
    corpus = random_corpus(data, data.draw(st.integers(2, 30)))
    predictions, references = [p for p, _ in corpus], [r for _, r in corpus]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = chance_f1(predictions, references, level=level, zero_division=0)
        order = data.draw(st.permutations(range(len(corpus))))
        permuted = chance_f1([predictions[i] for i in order], [references[i] for i in order], level=level, zero_division=0)
        assert permuted == expected
        cuts = sorted(data.draw(st.sets(st.integers(1, len(corpus) - 1), max_size=5)))
        bounds = [0, *cuts, len(corpus)]
        shards = [corpus_statistics(predictions[a:b], references[a:b], levels=(level,))[0] for a, b in zip(bounds, bounds[1:])]
        shard_order = data.draw(st.permutations(range(len(shards))))
        merged = sum((shards[i] for i in shard_order[1:]), shards[shard_order[0]])
        assert scores_from_statistics(merged, level, zero_division=0) == expected


def test_sums_that_used_to_depend_on_order_are_now_exact():
    """Expectations whose naive sums differ in the last bit with the order of the sentences."""
    from chance_agreement.chance.statistics import EXPECTED_OVERLAP

    predictions = [["B-PER"] + ["O"] * n for n in (2, 6, 9, 12)] + [["O", "B-PER", "I-PER"] + ["O"] * 4]
    references = [["O", "B-PER"] + ["O"] * (n - 1) for n in (2, 6, 9, 12)] + [["B-PER"] + ["O"] * 6]
    assert len(predictions[-1]) == len(references[-1])
    total, sentences = corpus_statistics(predictions, references)
    values = [s.per_type["PER"][EXPECTED_OVERLAP] for s in sentences]
    naive = {sum(values[i] for i in order) for order in itertools.permutations(range(len(values)))}
    exact = float(sum(Fraction(v) for v in values))
    assert total.per_type["PER"][EXPECTED_OVERLAP] == exact
    for order in itertools.permutations(range(len(values))):
        merged = sum((sentences[i] for i in order[1:]), sentences[order[0]])
        assert merged.per_type["PER"][EXPECTED_OVERLAP] == exact
    assert len(naive) > 1  # left-to-right float sums of these five numbers depend on the order


def test_add_batch_splits_through_evaluate_are_bit_identical(metric):
    rng = __import__("random").Random(5)
    corpus = [([rng.choice(TAGS) for _ in range(n)], [rng.choice(TAGS) for _ in range(n)])
              for n in (rng.randint(1, 12) for _ in range(60))]
    predictions, references = [p for p, _ in corpus], [r for _, r in corpus]
    expected = chance_f1(predictions, references, zero_division=0)
    for size in (1, 7, 25):
        for start in range(0, len(corpus), size):
            metric.add_batch(predictions=predictions[start : start + size], references=references[start : start + size])
        assert metric.compute(zero_division=0) == expected


def test_sentence_statistics_array_gives_the_per_sentence_vectors():
    from chance_agreement.chance.corrected_f1 import sentence_statistics_array
    from chance_agreement.chance.statistics import FIELDS

    predictions = [["B-PER", "I-PER", "O"], ["O", "B-LOC"], ["B-ORG", "O", "O"]]
    references = [["B-PER", "O", "O"], ["O", "B-LOC"], ["O", "O", "B-ORG"]]
    total, sentences = corpus_statistics(predictions, references)
    arrays = sentence_statistics_array(sentences)
    assert arrays.types == ["LOC", "ORG", "PER"]
    assert arrays.per_type.shape == (3, 3, len(FIELDS))
    for i, name in enumerate(arrays.types):
        assert list(arrays.per_type[:, i].sum(axis=0)) == list(total.per_type[name])
    assert arrays.tokens.sum(axis=0).tolist() == [total.correct_tokens, total.total_tokens]


def test_entity_level_skips_the_token_coverage_and_records_it():
    """The entity level computes only start distributions (issue 11: it used to compute the token
    coverage too and never report it); its statistics refuse to give token-level scores."""
    from chance_agreement.chance.statistics import EXPECTED_OVERLAP

    predictions = [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-LOC", "B-LOC"]]
    references = [["B-PER", "O", "O", "B-LOC"], ["B-LOC", "O", "B-LOC"]]
    total, _ = corpus_statistics(predictions, references, levels=("entity",))
    assert total.levels == ("entity",)
    assert all(vector[EXPECTED_OVERLAP] == 0 for vector in total.per_type.values())
    assert scores_from_statistics(total, "entity") == chance_f1(predictions, references, level="entity")
    with pytest.raises(ValueError, match="without token-level expectations"):
        scores_from_statistics(total, "token")


def test_a_sentence_too_dense_for_the_exact_model_fails_up_front_naming_it():
    """Half of a million-token sentence in 5-token entities: a clear error naming the sentence,
    not minutes of work and a MemoryError (issue 10, item 5)."""
    dense = ["B-X", "I-X", "I-X", "I-X", "I-X", "O", "O", "O", "O", "O"] * 100_000
    with pytest.raises(ValueError, match=r"sentence 1: this text is too dense to compute exactly"):
        chance_f1([["O"], dense], [["O"], dense])


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.lists(st.sampled_from(["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]), min_size=1, max_size=9),
                          st.randoms(use_true_random=False)), min_size=1, max_size=6),
       st.sampled_from(["non_overlapping", "overlapping"]), st.sampled_from(["token", "entity"]))
def test_chance_agreement_is_symmetric_to_the_last_bit(sentences, model, level):
    """Swapping predictions and references leaves observed and chance F1 bit-identical (the
    random model treats both annotators alike), so several-annotator pairs need no orientation."""
    references = [tags for tags, _ in sentences]
    predictions = [rnd.sample(tags, len(tags)) for tags, rnd in sentences]
    forward = chance_f1(predictions, references, model=model, level=level, zero_division=0)
    backward = chance_f1(references, predictions, model=model, level=level, zero_division=0)
    for key in ("overall_observed_f1", "overall_chance_f1", "overall_corrected_f1"):
        assert forward[key] == backward[key]
