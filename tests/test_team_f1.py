"""team_chance_f1: m = 2 is chance_f1 bit for bit, exact enumeration, Monte Carlo, missing
annotators, per-annotator and pairwise scores, the "multi" configuration of chance_f1_metric."""

from __future__ import annotations

import itertools
import json
import random
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chance_agreement import chance_f1, team_chance_f1
from chance_agreement.chance.corrected_f1 import UndefinedMetricWarning
from chance_agreement.chance.random_model import sample_annotation
from chance_agreement.chance.team_f1 import by_annotator, by_item
from chance_agreement.reports.paper_examples import bits_to_tags

SCORES = ("observed_f1", "chance_f1", "corrected_f1")


def overall(result):
    return [result[f"overall_{key}"] for key in SCORES]


def assert_same_as_chance_f1(team, two):
    """Every team score equals chance_f1's, bit for bit (== on floats)."""
    assert overall(team) == overall(two)
    types = sorted(key for key, value in two.items() if isinstance(value, dict))
    assert types == sorted(key for key, value in team.items() if isinstance(value, dict) and key != "per_annotator")
    for name in types:
        assert [team[name][key] for key in SCORES] == [two[name][key] for key in SCORES], name
    for key in SCORES:
        assert team[f"pairwise_{key}"] == [[None, two[f"overall_{key}"]], [two[f"overall_{key}"], None]]
    for scores in team["per_annotator"].values():
        assert [scores[key] for key in SCORES] == overall(two)


@pytest.mark.parametrize("level", ["token", "entity"])
def test_two_annotators_are_chance_f1_exactly_on_conll(conll_systems, level):
    references, systems = conll_systems
    for predictions in systems.values():
        team = team_chance_f1(by_item([references, predictions]), level=level)
        assert_same_as_chance_f1(team, chance_f1(predictions, references, level=level))


TAG = st.sampled_from(["O", "O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "I-ORG"])


@settings(derandomize=True, max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 12), min_size=1, max_size=5).flatmap(
    lambda sizes: st.tuples(*[st.tuples(st.lists(TAG, min_size=n, max_size=n), st.lists(TAG, min_size=n, max_size=n))
                              for n in sizes])),
    st.sampled_from(["token", "entity"]), st.sampled_from(["non_overlapping", "overlapping"]))
def test_two_annotators_are_chance_f1_exactly_on_random_data(sentences, level, model):
    first = [a for a, _ in sentences]
    second = [b for _, b in sentences]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        team = team_chance_f1(by_item([first, second]), level=level, model=model, zero_division=0)
        two = chance_f1(second, first, level=level, model=model, zero_division=0)
    assert_same_as_chance_f1(team, two)


def placements(n, lengths, model):
    for starts in itertools.product(*[range(n - a + 1) for a in lengths]):
        cells = [t for s, a in zip(starts, lengths) for t in range(s, s + a)]
        if model == "overlapping" or len(cells) == len(set(cells)):
            yield starts


def runs(bits):
    """(start, length) of the runs of 1s."""
    out, start = [], None
    for t, bit in enumerate(bits + "0"):
        if bit == "1" and start is None:
            start = t
        if bit != "1" and start is not None:
            out.append((start, t - start))
            start = None
    return out


def brute_force_team(sentences, model):
    """Exact (observed, chance) token and entity F1 of a team on one entity type, by enumerating
    the joint placements of every present annotator in every sentence (as Fractions).

    ``sentences``: per sentence, one bit string per annotator ("1" = inside a segment of the
    type; adjacent runs are one segment) or None for a missing annotator.
    """
    token_num = token_exp = token_den = Fraction(0)
    entity_num = entity_exp = entity_den = Fraction(0)
    for bits in sentences:
        present = [b for b in bits if b is not None]
        if len(present) < 2:
            continue
        n = len(present[0])
        lengths = [[a for _, a in runs(b)] for b in present]
        laws = [list(placements(n, lens, model)) for lens in lengths]
        sum_overlap = sum_matches = Fraction(0)
        for joint in itertools.product(*laws):
            cover = [[0] * n for _ in present]
            spans = []
            for who, (starts, lens) in enumerate(zip(joint, lengths)):
                for s, a in zip(starts, lens):
                    for t in range(s, s + a):
                        cover[who][t] += 1
                spans.append(list(zip(starts, lens)))
            for i, j in itertools.combinations(range(len(present)), 2):
                sum_overlap += sum(x * y for x, y in zip(cover[i], cover[j]))
                # segment pairs with the same span (under the overlapping model two segments may coincide)
                sum_matches += sum(spans[i].count(s) * spans[j].count(s) for s in set(spans[i]))
        size = 1
        for law in laws:
            size *= len(law)
        token_exp += 2 * sum_overlap / size
        entity_exp += 2 * sum_matches / size
        for i, j in itertools.combinations(range(len(present)), 2):
            token_num += 2 * sum(x == y == "1" for x, y in zip(present[i], present[j]))
            token_den += present[i].count("1") + present[j].count("1")
            entity_num += 2 * len(set(runs(present[i])) & set(runs(present[j])))
            entity_den += len(runs(present[i])) + len(runs(present[j]))
    return {"token": (token_num / token_den, token_exp / token_den),
            "entity": (entity_num / entity_den, entity_exp / entity_den)}


def bits_with_runs(bits):
    """Tags where every run of 1s is one PER segment (a B- starts it)."""
    return bits_to_tags(bits)


TINY = [
    # three annotators, one sentence each
    [("0110100", "0111000", "1100011")],
    # a missing annotator in the second sentence; an annotator with no entity in the first
    [("011010", "001100", "000000"), ("11011", None, "01101")],
    # four annotators, two sentences
    [("1101", "0110", "1011", "0100"), ("01100", "11000", "00110", "01110")],
]


@pytest.mark.parametrize("model", ["non_overlapping", "overlapping"])
@pytest.mark.parametrize("case", TINY)
def test_tiny_teams_equal_exact_enumeration(case, model):
    exact = brute_force_team(case, model)
    annotators = [[None if bits[a] is None else bits_with_runs(bits[a]) for bits in case] for a in range(len(case[0]))]
    for level in ("token", "entity"):
        result = team_chance_f1(by_item(annotators), level=level, model=model)
        observed, chance = exact[level]
        assert result["overall_observed_f1"] == pytest.approx(float(observed), abs=1e-12)
        assert result["overall_chance_f1"] == pytest.approx(float(chance), abs=1e-12)
        corrected = (observed - chance) / (1 - chance)
        assert result["overall_corrected_f1"] == pytest.approx(float(corrected), abs=1e-12)


def test_monte_carlo_on_a_larger_team():
    """Five annotators, 40-token sentences: the chance F1 (token and entity level) is the mean
    pairwise F1 of independent random re-placements of every annotator's segments (within four
    standard errors)."""
    rng = np.random.default_rng(13)
    sentences = []
    for _ in range(3):
        row = []
        for _ in range(5):
            bits = ["0"] * 40
            for start in sorted(rng.choice(38, size=3, replace=False))[::1]:
                bits[start] = "1"
                if rng.random() < 0.5:
                    bits[start + 1] = "1"
            row.append("".join(bits))
        sentences.append(row)
    annotators = [[bits_to_tags(row[a]) for row in sentences] for a in range(5)]
    result = team_chance_f1(by_item(annotators))
    from chance_agreement.spans.tags import spans_from_tags

    lengths = [[[end - start for _, start, end in spans_from_tags(annotators[a][s])] for a in range(5)]
               for s in range(3)]
    denominator = sum(sum(lengths[s][i]) + sum(lengths[s][j]) for s in range(3)
                      for i, j in itertools.combinations(range(5), 2))
    span_denominator = sum(len(lengths[s][i]) + len(lengths[s][j]) for s in range(3)
                           for i, j in itertools.combinations(range(5), 2))
    draws, match_draws = [], []
    for _ in range(4000):
        numerator = matches = 0
        for s in range(3):
            cover = np.zeros((5, 40))
            placed = []
            for a in range(5):
                starts = sample_annotation(40, lengths[s][a], random_state=rng)
                placed.append(set(zip(starts.tolist(), lengths[s][a])))
                for start, length in zip(starts, lengths[s][a]):
                    cover[a, start:start + length] += 1
            gram = cover @ cover.T
            numerator += 2 * (gram.sum() - np.trace(gram)) / 2
            matches += 2 * sum(len(placed[i] & placed[j]) for i, j in itertools.combinations(range(5), 2))
        draws.append(numerator / denominator)
        match_draws.append(matches / span_denominator)
    mean, error = np.mean(draws), np.std(draws) / np.sqrt(len(draws))
    assert abs(result["overall_chance_f1"] - mean) < 4 * error
    entity = team_chance_f1(by_item(annotators), level="entity")
    mean, error = np.mean(match_draws), np.std(match_draws) / np.sqrt(len(match_draws))
    assert abs(entity["overall_chance_f1"] - mean) < 4 * error


def test_per_annotator_and_pairwise_scores_pool_the_pairs():
    a = [bits_to_tags("0110100110"), bits_to_tags("11000")]
    b = [bits_to_tags("0111000110"), bits_to_tags("11000")]
    c = [bits_to_tags("0000011011"), bits_to_tags("00011")]
    result = team_chance_f1(by_item([a, b, c]), names=["ann", "bob", "cy"])
    assert result["annotators"] == ["ann", "bob", "cy"]
    pairs = {(0, 1): (a, b), (0, 2): (a, c), (1, 2): (b, c)}
    for (i, j), (first, second) in pairs.items():
        two = chance_f1(second, first)
        for key in SCORES:
            assert result[f"pairwise_{key}"][i][j] == result[f"pairwise_{key}"][j][i] == two[f"overall_{key}"]
    for key in SCORES:
        assert all(result[f"pairwise_{key}"][i][i] is None for i in range(3))
    # cy is the outlier: lowest pooled corrected F1
    pooled = {name: scores["corrected_f1"] for name, scores in result["per_annotator"].items()}
    assert min(pooled, key=pooled.get) == "cy"
    # ann pooled against bob and cy = the micro average over ann's two pairs: concatenate the corpora
    ann = chance_f1(b + c, a + a)
    assert [result["per_annotator"]["ann"][key] for key in SCORES] == pytest.approx(overall(ann), abs=1e-15)
    team = chance_f1(b + c + c, a + a + b)
    assert overall(result) == pytest.approx(overall(team), abs=1e-15)
    assert json.loads(json.dumps(result)) == result


def test_sentence_scores_pool_the_pairs_and_equal_chance_f1_for_two(conll_systems):
    references, systems = conll_systems
    predictions = systems["CbertWnon_snonMlp_9109"][:300]
    references = references[:300]
    for level in ("token", "entity"):
        team = team_chance_f1(by_item([references, predictions]), level=level, return_sentence_scores=True)
        assert team["sentence_scores"] == chance_f1(predictions, references, level=level,
                                                    return_sentence_scores=True)["sentence_scores"]
    a = [bits_to_tags("0110"), bits_to_tags("0000")]
    b = [bits_to_tags("0111"), None]
    c = [bits_to_tags("1100"), bits_to_tags("0000")]
    scores = team_chance_f1(by_item([a, b, c]), return_sentence_scores=True)["sentence_scores"]
    assert scores[0]["denominator"] == (2 + 3) + (2 + 2) + (3 + 2)
    assert scores[0]["observed_f1"] == pytest.approx(2 * (2 + 1 + 1) / 14)
    assert scores[1] == {"observed_f1": None, "chance_f1": None, "denominator": 0.0}


def test_a_missing_annotator_is_not_an_empty_annotation():
    a = [bits_to_tags("0110"), bits_to_tags("1100")]
    b = [bits_to_tags("0110"), bits_to_tags("1100")]
    c_missing = [bits_to_tags("0011"), None]
    c_empty = [bits_to_tags("0011"), ["O"] * 4]
    missing = team_chance_f1(by_item([a, b, c_missing]))
    empty = team_chance_f1(by_item([a, b, c_empty]))
    assert missing["overall_observed_f1"] > empty["overall_observed_f1"]
    # leaving c out of sentence 2 is the same as a corpus in which c has no sentence 2
    assert overall(missing) == pytest.approx(overall(chance_f1(b + c_missing[:1] + c_missing[:1], a + a[:1] + b[:1])), abs=1e-15)


def test_pairs_that_never_meet_get_none():
    a = [bits_to_tags("0110"), None]
    b = [None, bits_to_tags("1100")]
    c = [bits_to_tags("0010"), bits_to_tags("1000")]
    result = team_chance_f1(by_item([a, b, c]))
    assert result["pairwise_corrected_f1"][0][1] is None
    assert result["pairwise_corrected_f1"][0][2] is not None
    with pytest.raises(ValueError, match="no sentence was annotated by two or more"):
        team_chance_f1(by_item([a, b]))


def test_degenerate_teams_take_the_zero_division_value():
    empty = [["O", "O", "O"]]
    with pytest.warns(UndefinedMetricWarning, match="no entities"):
        result = team_chance_f1(by_item([empty, empty, empty]))
    assert overall(result) == [0.0, 0.0, 0.0]
    assert overall(team_chance_f1(by_item([empty, empty, empty]), zero_division=1)) == [1.0, 1.0, 1.0]


@pytest.mark.parametrize(
    "annotations,kwargs,error,message",
    [
        ([[["O"]]], {}, ValueError, r"team_chance_f1: annotations: need at least 2 annotators per sentence, sentence 0 has 1"),
        ([[["O", "O"], ["O"]]], {}, ValueError,
         r"team_chance_f1: annotations\[0\]: the annotators' tag sequences have different lengths \[2, 1\]"),
        ([[["O", None], ["O", "O"]]], {}, ValueError,
         r"team_chance_f1: annotations\[0\]\[0\] \(annotator annotator_1\): position 1: the tag is None"),
        ([[["O"], ["O"]]], {"names": ["x", "x"]}, ValueError, "team_chance_f1: names: must be 2 distinct names"),
        ([[["O"], ["O"]]], {"level": "span"}, ValueError, "level must be one of"),
        ([[["O"], ["O"]]], {"model": "uniform"}, ValueError, "model must be one of"),
        ([[["O"], ["O"]]], {"zero_division": 2}, ValueError, "zero_division must be"),
        ([[[], []]], {}, ValueError, "empty input"),
        ([[["O"], ["O"]], [["O"], ["O"], ["O"]]], {}, ValueError, r"annotations\[1\]: 3 annotator slots but sentence 0 has 2"),
        ("O O", {}, TypeError, "team_chance_f1: annotations: expected a list of sentences, each a list of the annotators' tag sequences; got a string"),
        ([None, [["O"], ["O"]]], {}, ValueError, r"annotations\[0\]: expected a list of the annotators' tag sequences"),
    ],
)
def test_bad_input_names_the_problem(annotations, kwargs, error, message):
    with pytest.raises(error, match=message):
        team_chance_f1(annotations, **kwargs)


def test_per_annotator_lists_are_named_by_the_error_and_by_item_takes_them():
    """Annotator-major input (one list per annotator, sentences of different lengths) cannot be
    read per sentence: the error says how to pass it."""
    annotators = [[["B-PER", "O", "O"], ["O", "B-LOC"]], [["B-PER", "I-PER", "O"], ["O", "O"]]]
    with pytest.raises(ValueError, match=r"different lengths \[3, 2\]; the input reads as one list per annotator "
                                         r"\(annotations\[annotator\]\[sentence\]\): pass team_chance_f1\(by_item"):
        team_chance_f1(annotators)
    assert team_chance_f1(by_item(annotators))["annotators"] == ["annotator_1", "annotator_2"]


def test_the_two_input_forms_are_transposes():
    annotators = [[["O", "B-PER"], None], [["B-PER", "O"], ["O"]], [["O", "O"], ["B-LOC"]]]
    items = by_item(annotators)
    assert items == [[["O", "B-PER"], ["B-PER", "O"], ["O", "O"]], [None, ["O"], ["B-LOC"]]]
    assert by_annotator(items) == annotators
    with pytest.raises(ValueError, match=r"by_annotator: items\[1\]: 3 annotator slots but sentence 0 has 2"):
        by_annotator([[["O"], ["O"]], [["O"], ["O"], ["O"]]])


THREE = [
    [["B-PER", "I-PER", "O", "B-LOC", "O"], ["O", "B-ORG", "I-ORG", "O"]],
    [["B-PER", "I-PER", "O", "O", "O"], ["O", "B-ORG", "I-ORG", "O"]],
    [["B-PER", "O", "O", "B-LOC", "O"], None],
]


@pytest.mark.parametrize("level", ["token", "entity"])
def test_multi_configuration_of_the_evaluate_module(load_metric, level):
    metric = load_metric("chance_f1_metric", "multi")
    expected = team_chance_f1(by_item(THREE), level=level, names=["a", "b", "c"])
    assert metric.compute(annotators=THREE, level=level, names=["a", "b", "c"]) == expected
    assert metric.compute(annotations=by_item(THREE), level=level, names=["a", "b", "c"]) == expected
    for row in by_item(THREE):
        metric.add(annotations=row)
    assert metric.compute(level=level, names=["a", "b", "c"]) == expected
    with pytest.raises(ValueError, match="give exactly one of"):
        metric.compute(annotators=THREE, annotations=by_item(THREE))
    scored = metric.compute(annotators=THREE, level=level, return_sentence_scores=True)
    assert scored["sentence_scores"] == team_chance_f1(by_item(THREE), level=level, return_sentence_scores=True)["sentence_scores"]
    two = load_metric("chance_f1_metric", "multi").compute(annotators=THREE[:2], level=level)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)  # seqeval's precision of LOC is 0/0
        assert overall(two) == overall(chance_f1(THREE[1], THREE[0], level=level))


@settings(derandomize=True, max_examples=40, deadline=None)
@given(st.integers(3, 5).flatmap(lambda m: st.lists(
    st.integers(2, 9).flatmap(lambda n: st.lists(st.one_of(st.none(), st.lists(TAG, min_size=n, max_size=n)),
                                                 min_size=m, max_size=m)), min_size=1, max_size=4)),
    st.randoms(use_true_random=False))
def test_relabelling_the_annotators_permutes_the_result(sentences, rnd):
    """Invariants: the team scores do not depend on the annotators' order; the per-annotator and
    pairwise scores follow them; corrected <= 1 and chance in [0, 1]."""
    m = len(sentences[0])
    for row in sentences:
        row[0] = row[0] if row[0] is not None else ["O"] * len(next((r for r in row if r is not None), ["O"]))
    sentences = [[r if r is None or len(r) == len(row[0]) else None for r in row] for row in sentences]
    annotators = [[row[a] for row in sentences] for a in range(m)]
    order = list(range(m))
    rnd.shuffle(order)
    names = [f"n{a}" for a in range(m)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        try:
            result = team_chance_f1(by_item(annotators), names=names, zero_division=0)
        except ValueError as error:  # every sentence had fewer than two annotators
            assert "no sentence was annotated by two or more" in str(error)
            return
        shuffled = team_chance_f1(by_item([annotators[a] for a in order]), names=[names[a] for a in order], zero_division=0)
    assert overall(shuffled) == pytest.approx(overall(result), abs=1e-12)
    assert 0.0 <= result["overall_chance_f1"] <= 1.0 and result["overall_corrected_f1"] <= 1.0 + 1e-12
    for position, a in enumerate(order):
        assert shuffled["per_annotator"][names[a]] == result["per_annotator"][names[a]] or all(
            shuffled["per_annotator"][names[a]][key] == pytest.approx(result["per_annotator"][names[a]][key], abs=1e-12)
            for key in SCORES)
        for other, b in enumerate(order):
            assert shuffled["pairwise_corrected_f1"][position][other] == result["pairwise_corrected_f1"][a][b]


# --- one layout for several annotators (issue 20, item 3) -----------------------------------------

ISSUE_TEAM = [  # 3 annotators x 3 sentences of 4 tokens each, one list per annotator
    [["B-PER", "I-PER", "O", "O"], ["O", "B-LOC", "O", "O"], ["B-ORG", "O", "O", "O"]],
    [["B-PER", "I-PER", "O", "O"], ["O", "B-LOC", "I-LOC", "O"], ["O", "O", "O", "O"]],
    [["B-PER", "O", "O", "O"], ["O", "B-LOC", "O", "O"], ["B-ORG", "I-ORG", "O", "O"]],
]


def test_input_that_reads_both_ways_is_refused_with_how_to_pass_it():
    """Issue 20's example: with equal-length sentences, per-annotator lists were taken as
    per-sentence lists without a word (Fleiss' kappa and the team's corrected F1 silently wrong).
    Every several-annotator function takes one layout and refuses input that reads both ways."""
    from chance_agreement import as_items, multi_annotator_agreement, multi_rater_report

    for function in (team_chance_f1, multi_rater_report, multi_annotator_agreement):
        with pytest.raises(ValueError, match=rf"{function.__name__}: annotations: 3 x 3 tag sequences, all 4 tokens long, "
                                             r"read both as 3 sentences x 3 annotators .* Say which: "
                                             rf"{function.__name__}\(by_item\(annotators\)\) for one list per annotator"):
            function(ISSUE_TEAM)
    team = team_chance_f1(by_item(ISSUE_TEAM))
    kappa = multi_rater_report(by_item(ISSUE_TEAM))["fleiss_kappa"]
    wrong_team = team_chance_f1(as_items(ISSUE_TEAM))  # the transposed reading, stated on purpose
    wrong_kappa = multi_rater_report(as_items(ISSUE_TEAM))["fleiss_kappa"]
    assert round(kappa, 4) == 0.5701 and round(wrong_kappa, 4) == -0.0209
    assert round(team["overall_corrected_f1"], 4) == 0.5085 and wrong_team["overall_corrected_f1"] == 0.0
