"""``annotator_test`` (issue 36): is a candidate annotator as good as one more human, on
chance-corrected span F1? Proved by simulation: teams drawn from one noise process (a true
annotation; each annotator misses, retypes and shifts each entity with probability p)."""

from __future__ import annotations

import numpy as np
import pytest
from statsmodels.stats.multitest import multipletests

from chance_agreement import annotator_test, by_item, chance_f1
from chance_agreement.chance.annotator_test import benjamini_yekutieli

TYPES = ("PER", "LOC", "ORG")
BLOCK = 4  # each true entity lies inside a block of 4 tokens, so a shifted one stays inside it


def truth(rng, sentences: int, blocks: int = 3) -> list:
    """The true spans ``(type, start, end)`` of each sentence (``blocks * BLOCK`` tokens)."""
    out = []
    for _ in range(sentences):
        spans = []
        for b in range(blocks):
            if rng.random() < 0.6:
                length = 1 + int(rng.integers(0, 2))
                spans.append((TYPES[int(rng.integers(0, 3))], b * BLOCK + 1, b * BLOCK + 1 + length))
        out.append(spans)
    return out


def noisy(rng, gold: list, p: float, blocks: int = 3) -> list:
    """One annotator's tags: each true entity missed, retyped, shifted by one token, each with
    probability ``p`` (independently)."""
    out = []
    for spans in gold:
        tags = ["O"] * (blocks * BLOCK)
        for kind, start, end in spans:
            if rng.random() < p:
                continue
            if rng.random() < p:
                kind = TYPES[(TYPES.index(kind) + 1 + int(rng.integers(0, 2))) % 3]
            if rng.random() < p:
                shift = 1 if rng.random() < 0.5 else -1
                start, end = start + shift, end + shift
            tags[start] = f"B-{kind}"
            tags[start + 1:end] = [f"I-{kind}"] * (end - start - 1)
        out.append(tags)
    return out


def team(seed: int, humans: int, sentences: int, p: float, candidate_p: float):
    """``(annotations[s][h], candidate tags)`` from one noise process."""
    rng = np.random.default_rng(seed)
    gold = truth(rng, sentences)
    members = [noisy(rng, gold, p) for _ in range(humans)]
    return by_item(members), noisy(rng, gold, candidate_p)


P = 0.1


@pytest.mark.parametrize("seed", [1, 2])
def test_a_candidate_with_the_humans_noise_is_non_inferior_and_equivalent(seed):
    humans, candidate = team(seed, 3, 150, P, P)
    result = annotator_test(humans, candidate, margin=0.1, n_resamples=300, random_state=seed)
    assert result["verdict"] == "non-inferior"
    assert result["p_value"] <= 0.05 and result["mean_advantage_ci"][0] > -0.1
    both = annotator_test(humans, candidate, margin=0.1, n_resamples=300, random_state=seed, equivalence=True)
    assert both["verdict"] == "equivalent" and both["equivalence_p_value"] <= 0.05
    assert -0.1 < both["mean_advantage_ci"][0] <= both["mean_advantage_ci"][1] < 0.1


@pytest.mark.parametrize("seed", [1, 2])
def test_a_candidate_with_three_and_a_half_times_the_noise_is_inferior(seed):
    humans, candidate = team(seed, 3, 150, P, 3.5 * P)
    result = annotator_test(humans, candidate, margin=0.1, n_resamples=300, random_state=seed)
    assert result["verdict"] == "inferior"
    assert result["mean_advantage_ci"][1] < -0.1 and result["inferiority_p_value"] <= 0.05
    assert result["winning_rate"] == 0.0 and not result["replaceable"]
    assert all(value < -0.1 for value in result["advantage"].values())


def test_the_type_one_error_at_the_margin_is_at_most_alpha():
    """A candidate drawn like the humans is exchangeable with each of them, so its expected
    advantage is exactly 0: with margin 0 the truth lies on the margin. Over 200 teams (2 humans,
    100 sentences of 12 tokens, 199 resamples) the non-inferiority test may reject at most
    200 x 0.05 + 3 x sqrt(200 x 0.05 x 0.95) = 19.2 times (alpha plus three Monte Carlo standard
    errors of 1.5 points each). Below about 100 sentences the percentile bootstrap rejects more
    often than alpha (7.5 % at 60 sentences, 8 % at 30, over 400 and 200 teams): the result says
    so in ``notes``."""
    rejections = 0
    for seed in range(200):
        humans, candidate = team(seed, 2, 100, P, P)
        result = annotator_test(humans, candidate, margin=0.0, n_resamples=199, random_state=seed)
        rejections += result["p_value"] <= 0.05
    assert 1 <= rejections <= 19


def test_the_same_random_state_gives_the_same_result():
    humans, candidate = team(5, 3, 40, P, 2 * P)
    first = annotator_test(humans, candidate, margin=0.05, n_resamples=200, random_state=11)
    assert annotator_test(humans, candidate, margin=0.05, n_resamples=200, random_state=11) == first
    other = annotator_test(humans, candidate, margin=0.05, n_resamples=200, random_state=12)
    assert other["mean_advantage"] == first["mean_advantage"]
    assert other["mean_advantage_ci"] != first["mean_advantage_ci"]


@pytest.mark.parametrize("level", ["token", "entity"])
def test_two_humans_without_gaps_are_chance_f1_bit_for_bit(level):
    rng = np.random.default_rng(3)
    gold = truth(rng, 50)
    first, second, candidate = (noisy(rng, gold, P) for _ in range(3))
    result = annotator_test(by_item([first, second]), candidate, margin=0.1, level=level, n_resamples=20,
                            random_state=0, names=["ann", "bob"])
    pair = chance_f1(second, first, level=level)["overall_corrected_f1"]
    assert result["human_corrected_f1"] == {"ann": pair, "bob": pair}
    assert result["candidate_corrected_f1"] == {
        "ann": chance_f1(candidate, second, level=level)["overall_corrected_f1"],
        "bob": chance_f1(candidate, first, level=level)["overall_corrected_f1"]}
    assert result["advantage"]["ann"] == result["candidate_corrected_f1"]["ann"] - pair


def test_two_humans_on_conll_are_chance_f1_bit_for_bit(conll_systems):
    references, systems = conll_systems
    flair, bert, lstm = (systems[name] for name in ("CflairWglove_lstmCrf_9303", "CbertWnon_snonMlp_9109",
                                                    "CnonWrand_lstmCrf_7849"))
    result = annotator_test(by_item([references, flair]), {"bert": bert, "lstm": lstm}, margin=0.02,
                            n_resamples=30, random_state=0, names=["gold", "flair"])
    pair = chance_f1(flair, references)["overall_corrected_f1"]
    for name, tags in (("bert", bert), ("lstm", lstm)):
        assert result[name]["human_corrected_f1"] == {"gold": pair, "flair": pair}
        assert result[name]["candidate_corrected_f1"] == {"gold": chance_f1(tags, flair)["overall_corrected_f1"],
                                                          "flair": chance_f1(tags, references)["overall_corrected_f1"]}
    assert result["lstm"]["verdict"] == "inferior"


def test_a_missing_human_compares_the_candidate_on_that_humans_sentences():
    """Human ``ann`` skipped sentences: the candidate's score for ann is taken on ann's sentences."""
    rng = np.random.default_rng(4)
    gold = truth(rng, 40)
    first, second, candidate = (noisy(rng, gold, P) for _ in range(3))
    kept = [s for s in range(40) if s % 4]
    gapped = [tags if s in kept else None for s, tags in enumerate(first)]
    result = annotator_test(by_item([gapped, second]), candidate, margin=0.1, n_resamples=20, random_state=0,
                            names=["ann", "bob"])
    on_kept = [[tags[s] for s in kept] for tags in (first, second, candidate)]
    assert result["human_corrected_f1"]["ann"] == chance_f1(on_kept[1], on_kept[0])["overall_corrected_f1"]
    assert result["candidate_corrected_f1"]["ann"] == chance_f1(on_kept[2], on_kept[1])["overall_corrected_f1"]
    assert result["candidate_corrected_f1"]["bob"] == chance_f1(on_kept[2], on_kept[0])["overall_corrected_f1"]


def test_several_candidates_are_each_tested_as_if_alone():
    humans, good = team(6, 3, 50, P, P)
    _, bad = team(7, 3, 50, P, 3 * P)
    together = annotator_test(humans, {"good": good, "bad": bad}, margin=0.1, n_resamples=100, random_state=2)
    assert list(together) == ["good", "bad"]
    for name, tags in (("good", good), ("bad", bad)):
        alone = annotator_test(humans, {name: tags}, margin=0.1, n_resamples=100, random_state=2)
        assert together[name] == alone[name]
    assert together["good"]["mean_advantage"] > together["bad"]["mean_advantage"]


def test_unparsed_output_is_charged_as_empty_or_excluded_and_always_counted():
    humans, candidate = team(8, 3, 60, P, P)
    lost = {3, 10, 11, 40}
    gapped = [None if s in lost else tags for s, tags in enumerate(candidate)]
    parsed = annotator_test(humans, candidate, margin=0.1, n_resamples=100, random_state=1)
    empty = annotator_test(humans, gapped, margin=0.1, n_resamples=100, random_state=1)
    excluded = annotator_test(humans, gapped, margin=0.1, n_resamples=100, random_state=1, unparsed="exclude")
    assert (parsed["unparsed"], empty["unparsed"], excluded["unparsed"]) == (0, 4, 4)
    assert (empty["unparsed_policy"], excluded["unparsed_policy"]) == ("empty", "exclude")
    assert (empty["sentences"], excluded["sentences"]) == (60, 56)
    as_empty = [["O"] * 12 if s in lost else tags for s, tags in enumerate(candidate)]
    charged = annotator_test(humans, as_empty, margin=0.1, n_resamples=100, random_state=1)
    assert charged["advantage"] == empty["advantage"]
    assert empty["mean_advantage"] < parsed["mean_advantage"]
    rest = [s for s in range(60) if s not in lost]
    subset = annotator_test(by_item([[tags[s] for s in rest] for tags in by_annotator_of(humans)]),
                            [candidate[s] for s in rest], margin=0.1, n_resamples=100, random_state=1)
    assert excluded["advantage"] == subset["advantage"]
    assert excluded["human_corrected_f1"] == subset["human_corrected_f1"]


def by_annotator_of(items) -> list:
    return [[row[h] for row in items] for h in range(len(items[0]))]


def test_document_ids_resample_documents():
    humans, candidate = team(9, 2, 40, P, P)
    plain = annotator_test(humans, candidate, margin=0.1, n_resamples=100, random_state=3)
    by_sentence = annotator_test(humans, candidate, margin=0.1, n_resamples=100, random_state=3,
                                 document_ids=list(range(40)))
    assert by_sentence["resampled"] == "documents" and by_sentence["units"] == 40
    assert {k: v for k, v in by_sentence.items() if k not in ("resampled", "notes")} == \
        {k: v for k, v in plain.items() if k not in ("resampled", "notes")}
    grouped = annotator_test(humans, candidate, margin=0.1, n_resamples=100, random_state=3,
                             document_ids=[f"doc{s // 5}" for s in range(40)])
    assert grouped["units"] == 8 and grouped["advantage"] == plain["advantage"]
    assert grouped["mean_advantage_ci"] != plain["mean_advantage_ci"]


def test_benjamini_yekutieli_equals_statsmodels():
    p_values = [0.001, 0.2, 0.013, 0.04, 0.04, 0.5, 0.009]
    expected = multipletests(p_values, method="fdr_by")[1]
    assert np.allclose(benjamini_yekutieli(p_values), expected, rtol=1e-12, atol=0)


def test_the_winning_rate_counts_the_humans_beaten():
    humans, candidate = team(10, 3, 150, P, 0.0)  # a candidate without noise beats every human
    result = annotator_test(humans, candidate, margin=0.0, n_resamples=300, random_state=0)
    assert result["beats"] == result["humans"] and result["winning_rate"] == 1.0 and result["replaceable"]
    assert all(p <= 0.05 for p in result["advantage_adjusted_p_value"].values())


@pytest.mark.parametrize("kwargs, message", [
    ({"margin": -0.1}, "margin must be a number in [0, 1)"),
    ({"margin": 0.1, "alpha": 0.5}, "alpha must be a number strictly between 0 and 0.5"),
    ({"margin": 0.1, "unparsed": "drop"}, "unparsed must be one of ['empty', 'exclude']"),
    ({"margin": 0.1, "names": ["a"]}, "must be 2 distinct names"),
    ({"margin": 0.1, "document_ids": [1, 2]}, "document_ids has 2 ids for 3 sentences"),
])
def test_bad_options_are_refused_with_what_to_do(kwargs, message):
    humans = by_item([[["B-PER", "O"], ["O", "B-LOC"], ["B-ORG", "O"]]] * 2)
    with pytest.raises(ValueError) as error:
        annotator_test(humans, [["B-PER", "O"], ["O", "B-LOC"], ["B-ORG", "O"]], **kwargs)
    assert message in str(error.value)


def test_bad_candidates_name_the_sentence_and_the_candidate():
    humans = by_item([[["B-PER", "O"], ["O", "B-LOC"]]] * 2)
    with pytest.raises(ValueError, match=r"candidate\[1\] \(annotator llm\): 3 tags where the humans have 2"):
        annotator_test(humans, {"llm": [["B-PER", "O"], ["O", "B-LOC", "O"]]}, margin=0.1)
    with pytest.raises(ValueError, match="candidate 'candidate' has 1 sentences and the humans 2"):
        annotator_test(humans, [["B-PER", "O"]], margin=0.1)
    with pytest.raises(ValueError, match=r"annotations\[1\]\[2\] \(annotator llm\)"):
        annotator_test(humans, {"llm": [["B-PER", "O"], ["O", 5]]}, margin=0.1)
    with pytest.raises(ValueError, match="already a human's"):
        annotator_test(humans, {"human_1": [["B-PER", "O"], ["O", "B-LOC"]]}, margin=0.1)


def test_too_little_data_is_an_error_not_a_number():
    humans = by_item([[["O", "O"], ["B-PER", "O"]], [["O", "O"], ["O", "O"]]])
    with pytest.raises(ValueError, match="too little data for the test"):
        annotator_test(humans, [["O", "O"], ["O", "O"]], margin=0.1, n_resamples=50, random_state=0)


def test_few_sentences_are_noted():
    humans, candidate = team(11, 2, 30, P, P)
    assert "percentile bootstrap rejects more often than alpha" in \
        annotator_test(humans, candidate, margin=0.1, n_resamples=50, random_state=0)["notes"][0]
    humans, candidate = team(11, 2, 100, P, P)
    assert annotator_test(humans, candidate, margin=0.1, n_resamples=50, random_state=0)["notes"] == []


# --- the humans and the candidates as one AnnotationSet (issue 33 item 3) ----------------------

SET_OPTIONS = {
    "plain": {"margin": 0.1, "random_state": 0},
    "entity_equivalence": {"margin": 0.1, "random_state": 1, "level": "entity", "equivalence": True},
    "exclude": {"margin": 0.05, "random_state": 2, "unparsed": "exclude"},
    "documents": {"margin": 0.05, "random_state": 3, "document_ids": [s // 6 for s in range(60)]},
    "strict": {"margin": 0.05, "random_state": 3, "mode": "strict", "scheme": "IOB2", "model": "overlapping"},
}


def set_team():
    """Three humans, a candidate with unparsed sentences and a second candidate, of 60 sentences."""
    humans, candidate = team(3, 3, 60, P, 1.5 * P)
    _, other = team(4, 3, 60, P, 2 * P)
    return humans, [None if s % 7 == 0 else tags for s, tags in enumerate(candidate)], other


@pytest.mark.parametrize("options", SET_OPTIONS.values(), ids=SET_OPTIONS)
def test_an_annotation_set_gives_the_result_of_the_tags_bit_for_bit(options):
    from chance_agreement import AnnotationSet, by_annotator

    humans, candidate, other = set_team()
    span = {key: options[key] for key in ("mode", "scheme") if key in options}
    # the candidates first: the set's order does not matter, the other annotators are the humans
    annotations = AnnotationSet.from_tags({"x": candidate, "a": by_annotator(humans)[0], "y": other,
                                           "b": by_annotator(humans)[1], "c": by_annotator(humans)[2]}, **span)
    expected = annotator_test(humans, {"x": candidate, "y": other}, names=["a", "b", "c"], n_resamples=100, **options)
    assert annotator_test(annotations, ["x", "y"], n_resamples=100, **options) == expected
    alone = annotations.select([0, 1, 3, 4])  # "y" left out: every annotator but the candidate is a human
    assert annotator_test(alone, "x", n_resamples=100, **options) == expected["x"]
    assert expected["x"]["unparsed"] == 9


# sha256 (first 16 hex digits) of the results on main before the set (commit 7bed475): the same bits
GOLDEN = {"plain": "caada98375d17759", "strict": "510fd49d67de81d9", "exclude_several": "7542660f20007740"}


def test_the_results_keep_the_bits_they_had_before_the_set():
    import hashlib
    import json

    def digest(result) -> str:
        return hashlib.sha256(json.dumps(result, sort_keys=True).encode()).hexdigest()[:16]

    humans, candidate, other = set_team()
    assert digest(annotator_test(humans, candidate, n_resamples=100, **SET_OPTIONS["plain"])) == GOLDEN["plain"]
    assert digest(annotator_test(humans, candidate, n_resamples=100, **SET_OPTIONS["strict"])) == GOLDEN["strict"]
    several = annotator_test(humans, {"x": candidate, "y": other}, names=["a", "b", "c"], n_resamples=100,
                             **SET_OPTIONS["exclude"])
    assert digest(several) == GOLDEN["exclude_several"]


@pytest.mark.parametrize("candidate, kwargs, message", [
    ("zed", {}, "candidate 'zed' must name distinct annotators of the set ['ann', 'bob', 'llm']"),
    (["llm", "llm"], {}, "must name distinct annotators"),
    (["bob", "llm"], {}, "the set has 1 annotator(s) besides the candidates: the test needs two or more humans"),
    ({"llm": 1}, {}, "with an AnnotationSet, candidate is the name of one of its annotators or a list"),
    ("llm", {"names": ["a", "b"]}, "an AnnotationSet names its annotators: give names=None"),
    ("llm", {"mode": "strict"}, "the annotation set was chunked with mode=None, not 'strict'"),
])
def test_a_set_with_a_candidate_it_does_not_hold_is_refused(candidate, kwargs, message):
    from chance_agreement import AnnotationSet

    tags = [["B-PER", "O"], ["O", "B-LOC"], ["B-ORG", "O"]]
    annotations = AnnotationSet.from_tags({"ann": tags, "bob": tags, "llm": tags})
    with pytest.raises(ValueError) as error:
        annotator_test(annotations, candidate, margin=0.1, **kwargs)
    assert message in str(error.value)


def test_with_empty_is_refused_on_an_annotated_sentence():
    from chance_agreement import AnnotationSet

    annotations = AnnotationSet.from_tags({"ann": [["B-PER"], ["O"]], "llm": [["O"], None]})
    assert annotations.with_empty(1, [1]).present.tolist() == [[True, True], [True, True]]
    with pytest.raises(ValueError, match="llm annotated sentence 0: only sentences it did not annotate"):
        annotations.with_empty(1, [0, 1])
