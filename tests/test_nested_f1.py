"""Nested chance F1: exact enumeration with fractions, Monte Carlo, flat input equals chance_f1."""

from __future__ import annotations

import itertools
import warnings
from collections import defaultdict
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

from chance_agreement import chance_f1, nested_chance_f1
from chance_agreement.chance.statistics import FIELDS, LEVELS
from chance_agreement.chance.nested_f1 import nested_statistics, sample_nested_annotation
from chance_agreement.spans.nested import build_forest, tags_from_spans

EXP_OVERLAP, EXP_MATCHES = FIELDS.index("expected_overlap"), FIELDS.index("expected_matches")


def placements(region: int, lengths, model: str):
    """Every placement (tuple of starts) of the segments, each equally likely under the model."""
    for starts in itertools.product(*(range(region - a + 1) for a in lengths)):
        segments = sorted(zip(starts, lengths))
        if model == "overlapping" or all(s + a <= t for (s, a), (t, _) in zip(segments, segments[1:])):
            yield starts


def nested_placements(forest, n: int, model: str):
    """Every draw of the nested model as (probability, [(start, end, label, depth)]), by brute force."""
    groups = defaultdict(list)
    for index, node in enumerate(forest):
        groups[(node.parent, node.label)].append(index)
    order = sorted(groups.items(), key=lambda item: item[1][0])

    def walk(position: int, placed: dict, probability: Fraction):
        if position == len(order):
            yield probability, [(placed[i], placed[i] + node.length, node.label, node.depth) for i, node in enumerate(forest)]
            return
        (parent, _), members = order[position]
        region = n if parent is None else forest[parent].length
        offset = 0 if parent is None else placed[parent]
        options = list(placements(region, [forest[i].length for i in members], model))
        for starts in options:
            yield from walk(position + 1, {**placed, **{i: offset + s for i, s in zip(members, starts)}},
                            probability / len(options))

    yield from walk(0, {}, Fraction(1))


def brute_force(spans_a, spans_b, n: int, model: str):
    """Exact E[overlap] and E[matches] per (depth, label) with both annotators randomised."""
    draws_a = list(nested_placements(build_forest(spans_a), n, model))
    draws_b = list(nested_placements(build_forest(spans_b), n, model))
    overlap, matches = defaultdict(Fraction), defaultdict(Fraction)
    for (p, a), (q, b) in itertools.product(draws_a, draws_b):
        for sa, ea, la, da in a:
            for sb, eb, lb, db in b:
                if (la, da) == (lb, db):
                    overlap[(da, la)] += p * q * max(0, min(ea, eb) - max(sa, sb))
                    matches[(da, la)] += p * q * ((sa, ea) == (sb, eb))
    return overlap, matches


TINY = [
    # (n, annotator A, annotator B)
    (6, [(0, 4, "LOC"), (0, 1, "ORG"), (2, 3, "ORG")], [(1, 5, "LOC"), (1, 3, "ORG")]),
    (7, [(0, 5, "X"), (1, 4, "X"), (2, 3, "Y"), (5, 7, "X")], [(2, 7, "X"), (2, 5, "X"), (3, 4, "Y")]),
    (6, [(0, 3, "A"), (0, 3, "B"), (1, 2, "A"), (4, 6, "B")], [(1, 4, "A"), (2, 4, "A"), (4, 6, "B"), (4, 5, "A")]),
    (5, [(0, 5, "S"), (0, 2, "T"), (0, 1, "U"), (3, 5, "T"), (4, 5, "U")], [(0, 5, "S"), (1, 3, "T"), (1, 2, "U"), (2, 3, "U")]),
]


@pytest.mark.parametrize("model", ["non_overlapping", "overlapping"])
@pytest.mark.parametrize("n,spans_a,spans_b", TINY)
def test_expectations_equal_exact_enumeration_of_every_nested_placement(n, spans_a, spans_b, model):
    overlap, matches = brute_force(spans_a, spans_b, n, model)
    depths = nested_statistics([spans_a], [spans_b], [n], model=model)
    seen = set()
    for depth, stats in enumerate(depths):
        for label, vector in stats.per_type.items():
            seen.add((depth, label))
            assert vector[EXP_OVERLAP] == pytest.approx(float(overlap[(depth, label)]), rel=1e-12, abs=1e-15)
            assert vector[EXP_MATCHES] == pytest.approx(float(matches[(depth, label)]), rel=1e-12, abs=1e-15)
    assert {key for key, value in overlap.items()} <= seen
    assert any(depth > 0 and value > 0 for (depth, _), value in overlap.items())


def test_monte_carlo_on_a_larger_nested_sentence():
    n = 30
    spans_a = [(0, 12, "ORG"), (2, 5, "LOC"), (6, 11, "LOC"), (7, 9, "PER"), (14, 20, "PER"), (15, 17, "LOC"),
               (22, 28, "ORG"), (23, 24, "LOC")]
    spans_b = [(1, 12, "ORG"), (2, 4, "LOC"), (6, 10, "LOC"), (7, 8, "PER"), (13, 19, "ORG"), (14, 16, "LOC"),
               (22, 29, "ORG")]
    depths = nested_statistics([spans_a], [spans_b], [n])
    forest_a, forest_b = build_forest(spans_a), build_forest(spans_b)
    rng = np.random.default_rng(20261122)
    draws = 4000
    keys = [(d, label) for d, stats in enumerate(depths) for label in stats.per_type]
    overlap = {key: np.zeros(draws) for key in keys}
    matches = {key: np.zeros(draws) for key in keys}
    for i in range(draws):
        a = sample_nested_annotation(forest_a, n, rng)
        b = sample_nested_annotation(forest_b, n, rng)
        for sa, ea, la, da in a:
            for sb, eb, lb, db in b:
                if (la, da) == (lb, db):
                    overlap[(da, la)][i] += max(0, min(ea, eb) - max(sa, sb))
                    matches[(da, la)][i] += (sa, ea) == (sb, eb)
    for d, label in keys:
        vector = depths[d].per_type[label]
        for samples, exact in ((overlap[(d, label)], vector[EXP_OVERLAP]), (matches[(d, label)], vector[EXP_MATCHES])):
            error = samples.std(ddof=1) / np.sqrt(draws)
            assert abs(samples.mean() - exact) <= 4 * error + 1e-12, (d, label, samples.mean(), exact)
    assert len(depths) == 3 and depths[2].per_type["PER"][EXP_OVERLAP] > 0


def test_sampled_nested_annotations_respect_the_nesting():
    spans = [(0, 12, "ORG"), (2, 5, "LOC"), (6, 11, "LOC"), (7, 9, "PER"), (14, 20, "PER")]
    forest = build_forest(spans)
    for seed in range(50):
        placed = sample_nested_annotation(forest, 25, seed)
        for node, (start, end, label, depth) in zip(forest, placed):
            assert (end - start, label, depth) == (node.length, node.label, node.depth)
            if node.parent is not None:
                parent = placed[node.parent]
                assert parent[0] <= start and end <= parent[1]


flat_sentence = st.integers(1, 12).flatmap(
    lambda n: st.tuples(
        st.just(n),
        *[st.lists(st.tuples(st.integers(0, n - 1), st.integers(1, 4), st.sampled_from("ABC")), max_size=4)] * 2,
    )
)


def _disjoint(n, raw):
    taken, spans = set(), []
    for start, length, label in raw:
        end = min(n, start + length)
        if not taken & set(range(start, end)):
            taken |= set(range(start, end))
            spans.append((start, end, label))
    return spans


@settings(derandomize=True, max_examples=60, deadline=None)
@given(st.lists(flat_sentence, min_size=1, max_size=4), st.sampled_from(["token", "entity"]),
       st.sampled_from(["non_overlapping", "overlapping"]))
def test_flat_input_gives_chance_f1_exactly(sentences, level, model):
    lengths = [n for n, _, _ in sentences]
    a = [_disjoint(n, raw) for n, raw, _ in sentences]
    b = [_disjoint(n, raw) for n, _, raw in sentences]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = chance_f1(tags_from_spans(a, lengths), tags_from_spans(b, lengths), level=level, model=model)
        result = nested_chance_f1(a, b, lengths, level=level, model=model)
    depths = result.pop("depths")
    assert result == expected
    assert depths == [expected]


def test_pooled_sums_every_depth():
    a = [[(0, 4, "LOC"), (0, 1, "ORG"), (2, 3, "ORG")], [(0, 2, "PER")]]
    b = [[(1, 5, "LOC"), (1, 3, "ORG")], [(0, 2, "PER"), (0, 1, "PER")]]
    depths = nested_statistics(a, b, [6, 3])
    pooled = nested_chance_f1(a, b, [6, 3], zero_division=0)
    total = {k: sum(d.per_type.get(k, np.zeros(len(FIELDS))) for d in depths) for k in ("LOC", "ORG", "PER")}
    overlap, annotated = FIELDS.index("overlap"), FIELDS.index("annotated_tokens")
    observed = 2 * sum(v[overlap] for v in total.values()) / sum(v[annotated] for v in total.values())
    chance = 2 * sum(v[EXP_OVERLAP] for v in total.values()) / sum(v[annotated] for v in total.values())
    assert pooled["overall_observed_f1"] == pytest.approx(observed)
    assert pooled["overall_chance_f1"] == pytest.approx(chance)
    assert pooled["overall_corrected_f1"] == pytest.approx((observed - chance) / (1 - chance))
    assert len(pooled["depths"]) == 2
    # depth 1: ORG (0,1),(2,3) of A against ORG (1,3) of B; PER (0,1) of B alone
    assert pooled["depths"][1]["ORG"]["observed_f1"] == pytest.approx(2 * 1 / (2 + 2))
    assert pooled["overall_accuracy"] == pytest.approx((depths[0].correct_tokens + depths[1].correct_tokens) / 18)


def test_crossing_spans_are_an_error_naming_both():
    with pytest.raises(ValueError, match=r"references\[1\]: spans \(0, 3, 'A'\) and \(2, 5, 'B'\) cross"):
        nested_chance_f1([[], []], [[], [(0, 3, "A"), (2, 5, "B")]], [3, 6])


def test_bad_spans_name_the_sentence_and_span():
    with pytest.raises(ValueError, match=r"predictions\[0\]: span \(2, 9, 'A'\) is not a non-empty token range"):
        nested_chance_f1([[(2, 9, "A")]], [[]], [5])
    with pytest.raises(ValueError, match=r"given twice"):
        nested_chance_f1([[(0, 2, "A"), (0, 2, "A")]], [[]], [5])
    with pytest.raises(TypeError, match=r"label must be a string"):
        nested_chance_f1([[(0, 2, 7)]], [[]], [5])
    with pytest.raises(ValueError, match=r"has 1 sentences but lengths has 2"):
        nested_chance_f1([[]], [[], []], [5, 2])
    with pytest.raises(ValueError, match="every sentence has zero tokens"):
        nested_chance_f1([[]], [[]], [0])


def test_no_spans_at_all_gives_the_zero_division_value():
    result = nested_chance_f1([[]], [[]], [4], zero_division=1)
    assert result["overall_corrected_f1"] == 1.0 and len(result["depths"]) == 1


def test_conll_systems_as_spans_give_chance_f1(conll_systems):
    """Real data: the CoNLL-2003 gold and a system as span lists; only accuracy differs (IOB1 vs IOB2 tags)."""
    from chance_agreement.spans.tags import spans_from_tags

    references, systems = conll_systems
    predictions = systems["CflairWglove_lstmCrf_9303"]
    lengths = [len(tags) for tags in references]
    as_spans = lambda corpus: [[(s, e, label) for label, s, e in spans_from_tags(tags)] for tags in corpus]
    for level in ("token", "entity"):
        expected = chance_f1(predictions, references, level=level)
        result = nested_chance_f1(as_spans(predictions), as_spans(references), lengths, level=level)
        assert len(result.pop("depths")) == 1
        assert result.pop("overall_accuracy") == pytest.approx(expected.pop("overall_accuracy"), abs=1e-3)
        assert result == expected


nested_case = st.integers(2, 6).flatmap(
    lambda n: st.tuples(
        st.just(n),
        *[st.lists(st.tuples(st.integers(0, n - 1), st.integers(1, n), st.sampled_from("XY")), max_size=4)] * 2,
    )
)


def _forest_or_none(n, raw):
    spans = sorted({(start, min(n, start + length), label) for start, length, label in raw})
    try:
        build_forest(spans)
    except ValueError:  # crossing spans
        return None
    return spans


@settings(derandomize=True, max_examples=40, deadline=None)
@given(nested_case, st.sampled_from(["non_overlapping", "overlapping"]))
def test_random_nested_forests_against_enumeration(case, model):
    n, raw_a, raw_b = case
    spans_a, spans_b = _forest_or_none(n, raw_a), _forest_or_none(n, raw_b)
    assume(spans_a is not None and spans_b is not None)
    overlap, matches = brute_force(spans_a, spans_b, n, model)
    for depth, stats in enumerate(nested_statistics([spans_a], [spans_b], [n], model=model)):
        for label, vector in stats.per_type.items():
            assert vector[EXP_OVERLAP] == pytest.approx(float(overlap[(depth, label)]), rel=1e-12, abs=1e-15)
            assert vector[EXP_MATCHES] == pytest.approx(float(matches[(depth, label)]), rel=1e-12, abs=1e-15)


# --- issue 24, 3a: near-linear nested scoring, checked against the model's definition in fractions ----

from nested_reference import reference_build_forest, reference_nested_statistics  # noqa: E402

INTEGER_FIELDS = [FIELDS.index(name) for name in ("true_positives", "predicted", "actual", "overlap",
                                                  "annotated_tokens")]


def _assert_same_statistics(fast, slow):
    assert len(fast) == len(slow)
    for depth, (mine, theirs) in enumerate(zip(fast, slow)):
        assert (mine.correct_tokens, mine.total_tokens, mine.model, mine.levels) == (
            theirs.correct_tokens, theirs.total_tokens, theirs.model, theirs.levels)
        assert sorted(mine.per_type) == sorted(theirs.per_type)
        for label, vector in mine.per_type.items():
            other = theirs.per_type[label]
            assert vector[INTEGER_FIELDS].tolist() == other[INTEGER_FIELDS].tolist(), (depth, label)
            for index in (EXP_OVERLAP, EXP_MATCHES):  # the oracle's values are exact fractions, rounded once
                assert vector[index] == pytest.approx(other[index], rel=1e-13, abs=1e-300), (depth, label)


corpus_case = st.integers(1, 4).flatmap(
    lambda sentences: st.lists(
        st.integers(1, 14).flatmap(lambda n: st.tuples(
            st.just(n),
            *[st.lists(st.tuples(st.integers(0, n - 1), st.integers(1, n), st.sampled_from("XYZ")), max_size=9)] * 2)),
        min_size=sentences, max_size=sentences))


@settings(derandomize=True, max_examples=60, deadline=None)
@given(corpus_case, st.sampled_from(["non_overlapping", "overlapping"]), st.sampled_from([("token",), ("entity",), LEVELS]))
def test_fast_nested_statistics_equal_the_exact_reference(corpus, model, levels):
    lengths, first, second = [], [], []
    for n, raw_a, raw_b in corpus:
        spans_a, spans_b = _forest_or_none(n, raw_a), _forest_or_none(n, raw_b)
        assume(spans_a is not None and spans_b is not None)
        lengths.append(n)
        first.append(spans_a)
        second.append(spans_b)
    fast = nested_statistics(first, second, lengths, model=model, levels=levels)
    _assert_same_statistics(fast, reference_nested_statistics(first, second, lengths, model=model, levels=levels))


def test_fast_nested_statistics_on_many_parents_of_one_kind_and_a_deep_chain():
    """Many parents sharing one start distribution (grouped into one convolution), twins, a chain."""
    rng = np.random.default_rng(24)
    first, second, lengths = [], [], []
    for n in (60, 200, 41):
        spans, position = [], 0
        while position + 6 <= n:
            length = int(rng.integers(3, 7))
            spans.append((position, position + length, "X"))
            spans.append((position + 1, position + length - 1, str(rng.choice(["X", "Y"]))))
            if rng.random() < 0.3:
                spans.append((position + 1, position + length - 1, "Z"))  # a same-extent sibling
            position += length + int(rng.integers(0, 3))
        first.append(spans)
        second.append([span for span in spans if rng.random() < 0.8])
        lengths.append(n)
    chain = [(depth, 41 - depth, "X") for depth in range(20)]
    first[2], second[2] = chain, chain[::3]
    for levels in (("token",), LEVELS):
        fast = nested_statistics(first, second, lengths, levels=levels)
        _assert_same_statistics(fast, reference_nested_statistics(first, second, lengths, levels=levels))
    # depth 0 is the flat model's own computation: chance_f1 on the outermost spans, to the last bit
    def outermost(spans):
        return [(node.start, node.end, node.label) for node in build_forest(spans) if node.depth == 0]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        flat = chance_f1(tags_from_spans([outermost(s) for s in first], lengths),
                         tags_from_spans([outermost(s) for s in second], lengths))
        assert nested_chance_f1(first, second, lengths)["depths"][0] == flat


@settings(derandomize=True, max_examples=80, deadline=None)
@given(st.integers(1, 12).flatmap(
    lambda n: st.lists(st.tuples(st.integers(0, n - 1), st.integers(1, n), st.sampled_from("ABC")), max_size=12)))
def test_build_forest_equals_the_reference(raw):
    spans = [(start, start + length, label) for start, length, label in raw]
    try:
        expected = reference_build_forest(spans)
    except ValueError as error:
        with pytest.raises(ValueError) as caught:
            build_forest(spans)
        assert str(caught.value) == str(error)
        return
    assert build_forest(spans) == expected


def executed_lines(function) -> int:
    """Lines of chance_agreement run by ``function()``: a count of work that does not depend on the
    machine's speed (no timing in tests)."""
    import sys

    count = 0

    def trace(frame, event, arg):
        nonlocal count
        if "chance_agreement" not in frame.f_code.co_filename:
            return None
        if event == "line":
            count += 1
        return trace

    sys.settrace(trace)
    try:
        function()
    finally:
        sys.settrace(None)
    return count


def _growth(work, small: int, large: int) -> float:
    """log(work(large) / work(small)) / log(large / small): 1 for linear work, 2 for quadratic."""
    import math

    return math.log(executed_lines(lambda: work(large)) / executed_lines(lambda: work(small))) / math.log(large / small)


def test_same_extent_siblings_are_checked_in_linear_work():
    """The forest build rescanned every node for each same-extent sibling (1,000 -> 4,000 labels: 0.4 -> 12 s)."""
    assert _growth(lambda k: build_forest([(2, 6, f"L{i:05d}") for i in range(k)]), 200, 800) < 1.2
    with pytest.raises(ValueError, match=r"span \(2, 6, 'L00007'\) is given twice"):
        build_forest([(2, 6, f"L{i:05d}") for i in range(20)] + [(2, 6, "L00007")])


def test_nested_scoring_work_grows_linearly_with_spans_in_one_sentence():
    """Pairwise overlaps and one convolution per parent made one long sentence quadratic
    (32,000 tokens: 17 s; 10^6 tokens with 10^5 spans: killed after 600 s)."""

    def document(spans: int):
        first = []
        for index in range(spans):
            start = 10 * index
            first.append((start, start + 6, "XY"[index % 2]))
            first.append((start + 1, start + 5, "Y"))
        second = [span for index, span in enumerate(first) if index % 5]
        n = 10 * spans
        return lambda: nested_statistics([first], [second], [n], levels=LEVELS)

    assert _growth(lambda k: document(k)(), 100, 400) < 1.25
