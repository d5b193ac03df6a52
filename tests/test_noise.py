"""Noise bound of the agreed subset (Beigman Klebanov & Beigman 2009; SPEC_NOTES section 4)."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import nbinom

import chance_agreement
from chance_agreement import (
    as_items,
    chance_difference,
    easy_proportion_from_kappa,
    fleiss_kappa,
    hard_agreement_probability,
    kappa_noise_estimate,
    noise_bound,
    noise_report,
    noise_report_multi,
    tolerable_disagreements,
)
from noise_scenarios import (
    as_annotations,
    five_annotators,
    three_annotators_1000_150,
    two_annotators_992_121,
    two_annotators_1000_100,
)


def exact_t0(n: int, d: int, p: Fraction, confidence: Fraction) -> int:
    """Equation 1 with a uniform prior, in exact rational arithmetic (the oracle)."""
    weights = [math.comb(i, d) * p ** (i - d) for i in range(d, n + 1)]
    total = sum(weights)
    tail = total
    for t in range(d, n + 1):
        tail -= weights[t - d]
        if tail < (1 - confidence) * total:
            return t
    raise AssertionError("unreachable: the tail at t = n is 0")


def disagreed_rows(rows):
    return [row for row in rows if len(set(row)) > 1]


# --------------------------------------------------------------------------- the paper's numbers


@pytest.mark.parametrize(
    ("n", "d", "p", "t0", "gamma"),
    [
        (1000, 100, 0.5, 225, 0.1389),  # section 3.1: "up to 125", 13.8%
        (992, 121, 0.47, 253, 0.1515),  # section 3.1, Poesio & Vieira: 15%
        (1000, 340, 0.0625, 371, 0.0470),  # section 3.2, five annotators: 5%
        (1000, 150, 0.25, 214, 0.0753),  # section 5.3, three annotators: paper prints 7.7%
    ],
)
def test_paper_bounds(n, d, p, t0, gamma):
    bound = noise_bound(n, d, p)
    assert bound.t0 == t0
    assert round(bound.noise, 4) == gamma
    assert bound.noise == (t0 - d) / (n - d)
    assert (bound.n, bound.d, bound.p, bound.confidence_level) == (n, d, p, 0.95)
    assert bound.t0 == exact_t0(n, d, Fraction(p), Fraction(95, 100))


def test_first_example_hides_125_coin_flips():
    bound = noise_bound(1000, 100, 0.5)
    assert bound.noisy_items == 125 and bound.agreed == 900
    assert bound.as_dict() == {
        "n": 1000, "d": 100, "p": 0.5, "confidence_level": 0.95, "t0": 225,
        "noise": 125 / 900, "agreed": 900, "noisy_items": 125,
    }


def test_bound_is_frozen():
    bound = noise_bound(1000, 100, 0.5)
    with pytest.raises(AttributeError):
        bound.t0 = 1


def test_tolerable_disagreements_33():
    # section 3.1: 1000 instances, two annotators, p 0.5 -> only 33 disagreements (kappa 0.93)
    assert tolerable_disagreements(1000, 0.5) == 33
    assert noise_bound(1000, 33, 0.5).noise <= 0.05 < noise_bound(1000, 34, 0.5).noise
    rows = [("PER", "PER")] * 484 + [("O", "O")] * 483 + [("PER", "O")] * 17 + [("O", "PER")] * 16
    assert len(disagreed_rows(rows)) == 33
    assert round(fleiss_kappa(rows), 2) == 0.93


def test_tolerable_disagreements_edges():
    assert tolerable_disagreements(12, 0.5) is None  # even d = 0 bounds at 4/12
    assert noise_bound(12, 0, 0.5).noise > 0.05
    assert tolerable_disagreements(1, 0.5, max_noise=1.0) == 0
    assert tolerable_disagreements(50, 0.5, max_noise=1.0) == 49  # d == n is never a gold standard
    for max_noise in (0.01, 0.1, 0.3):
        d = tolerable_disagreements(1000, 0.25, max_noise=max_noise, confidence_level=0.9)
        assert noise_bound(1000, d, 0.25, confidence_level=0.9).noise <= max_noise
        assert noise_bound(1000, d + 1, 0.25, confidence_level=0.9).noise > max_noise


def test_chance_difference_35_answers():
    # section 4.1: L = 900, R = 125, 4.5 sigma -> up to 35 answers, 3.9% of the gold standard
    result = chance_difference(900, 125)
    assert result.sigma == math.sqrt(125 / 2)
    assert round(result.k, 1) == 4.5 and 1 / result.k**2 == pytest.approx(0.05)
    assert result.answers == 35
    assert round(result.fraction, 3) == 0.039
    assert result.as_dict()["answers"] == 35


def test_chance_difference_normal_uses_two_sigma():
    # footnote 9: for large R the normal approximation gives about 2 sigma at 95%
    result = chance_difference(900, 125, method="normal")
    assert round(result.k, 2) == 1.96
    assert result.answers == math.floor(1.959963984540054 * math.sqrt(62.5)) == 15


def test_chance_difference_is_capped_at_the_noisy_items():
    result = chance_difference(4, 2)  # 4.47 * sqrt(1) > 2, but |S| <= R = 2
    assert result.difference == 2.0 and result.answers == 2 and result.fraction == 0.5
    assert chance_difference(0, 0).as_dict()["fraction"] == 0.0


@pytest.mark.parametrize(
    ("split", "kappa"), [("4-1", 0.728), ("3-2", 0.592), ("mixed", 0.637)]
)
def test_five_annotator_kappas(split, kappa):
    # section 3.2 (eq. 2): 0.73 (4-1), 0.592 (3-2; the paper prints 0.52), 0.637 (2:1 mixture)
    rows = five_annotators(split)
    assert len(rows) == 1000 and len(disagreed_rows(rows)) == 340
    assert round(fleiss_kappa(rows), 3) == kappa


@pytest.mark.parametrize(
    ("rows", "p"),
    [
        (two_annotators_1000_100(), 0.5),
        (five_annotators("4-1"), 0.0625),
        (five_annotators("3-2"), 0.0625),
        (three_annotators_1000_150(), 0.25),
        (two_annotators_992_121(), 6881 / 14641),
    ],
)
def test_hard_agreement_probability_of_the_scenarios(rows, p):
    assert hard_agreement_probability(disagreed_rows(rows)) == pytest.approx(p, abs=1e-15)


def test_992_scenario_is_the_nearest_to_047():
    p = hard_agreement_probability(disagreed_rows(two_annotators_992_121()))
    assert round(p, 4) == 0.4700
    assert round(noise_bound(992, 121, p).noise, 4) == 0.1515


def test_kappa_estimates_the_easy_proportion():
    # section 3.3: kappa 0.8 -> 800 of the 900 agreed easy, 11%; kappa 0.637 -> 637 of 660, 3.5%
    assert easy_proportion_from_kappa(0.8) == 0.8
    assert easy_proportion_from_kappa(-0.2) == 0.0  # footnote 7: kappa may be negative
    assert round(kappa_noise_estimate(0.8, 1000, 100), 3) == 0.111
    assert round(kappa_noise_estimate(0.637, 1000, 340), 3) == 0.035
    assert kappa_noise_estimate(0.3, 10, 10) == 0.0  # nothing agreed
    assert kappa_noise_estimate(1.0, 10, 0) == 0.0


def test_hard_agreement_probability_general_formula():
    labels = [["A", "B", "C"], ["B", "B", "A"], ["C", "A", "A"], ["A", "C", "B"]]
    # q_1 = (2/4 A, 1/4 B, 1/4 C), q_2 = (1/4, 2/4, 1/4), q_3 = (2/4, 1/4, 1/4)
    expected = (2 * 1 * 2 + 1 * 2 * 1 + 1 * 1 * 1) / 4**3
    assert hard_agreement_probability(labels) == pytest.approx(expected)
    assert hard_agreement_probability(np.array(labels)) == pytest.approx(expected)


# --------------------------------------------------------------------------- model checks


def test_monte_carlo_coverage_of_the_generative_model():
    """Easy instances agree, hard ones are independent coin flips, h uniform on 0..n.

    The true noise of the agreed subset exceeds the bound in at most about 1 - confidence of the
    data sets; the exceedance rate also matches the model's exact value, E_d P(H > t0(d) | d).
    """
    rng = np.random.default_rng(20090101)
    n, simulations, confidence = 150, 4000, 0.95
    biases = np.array([0.5, 0.6, 0.7])  # P(annotator j says category 1 | hard)
    p = float(np.prod(biases) + np.prod(1 - biases))
    h = rng.integers(0, n + 1, size=simulations)
    votes = rng.random((simulations, n, 3)) < biases
    agree = votes.all(axis=2) | ~votes.any(axis=2)
    is_hard = np.arange(n) < h[:, None]
    d = (is_hard & ~agree).sum(axis=1)
    t0 = np.array([noise_bound(n, k, p, confidence_level=confidence).t0 if k < n else n for k in range(n + 1)])
    true_noise = (h - d) / np.maximum(n - d, 1)
    bound = (t0[d] - d) / np.maximum(n - d, 1)
    exceeded = true_noise > bound
    assert np.array_equal(exceeded, h > t0[d])
    rate = exceeded.mean()
    se = math.sqrt(0.05 * 0.95 / simulations)
    assert rate <= (1 - confidence) + 3 * se

    # the model's exact exceedance probability, from the joint P(h) P(d | h)
    hs = np.arange(n + 1)
    ds = np.arange(n + 1)
    log_comb = (
        np.vectorize(math.lgamma)(hs[None, :] + 1.0)
        - np.vectorize(math.lgamma)(ds[:, None] + 1.0)
        - np.vectorize(math.lgamma)(np.maximum(hs[None, :] - ds[:, None], 0) + 1.0)
    )
    joint = np.where(
        hs[None, :] >= ds[:, None],
        np.exp(log_comb + ds[:, None] * math.log(1 - p) + (hs[None, :] - ds[:, None]) * math.log(p)),
        0.0,
    ) / (n + 1)
    exact = float(joint[hs[None, :] > t0[:, None]].sum())
    assert 0.02 < exact < 0.05
    assert abs(rate - exact) <= 4 * math.sqrt(exact * (1 - exact) / simulations)


def test_large_n_is_finite_and_matches_the_negative_binomial():
    # posterior of h - d is NB(d + 1, 1 - p) truncated at n - d; for n = 10^7 the truncation is
    # immaterial, so t0 - d is the smallest j with P(J > j) < 1 - confidence
    for d, p in [(100, 0.5), (1_000_000, 0.25), (0, 0.9)]:
        bound = noise_bound(10_000_000, d, p)
        assert math.isfinite(bound.noise) and 0.0 <= bound.noise <= 1.0
        j = bound.t0 - d
        assert nbinom.sf(j, d + 1, 1 - p) < 0.05 <= nbinom.sf(j - 1, d + 1, 1 - p)


def test_huge_n_saturated_and_near_certain_agreement_cases_do_not_overflow():
    assert noise_bound(10_000_000, 5_000_000, 1 - 1e-9).noise == 1.0
    assert noise_bound(10_000_000, 10_000_000 - 1, 0.5).t0 == 10_000_000
    bound = noise_bound(10_000_000, 0, 1 - 1e-12)  # nearly uniform posterior: t0 ~ 0.95 n
    assert abs(bound.t0 - 9_500_000) <= 2


def test_degenerate_counts():
    everything = noise_bound(10, 10, 0.5)
    assert (everything.t0, everything.noise) == (10, 0.0)  # empty agreed subset
    nothing = noise_bound(1000, 0, 0.5)
    assert nothing.t0 == exact_t0(1000, 0, Fraction(1, 2), Fraction(95, 100)) == 4


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    n=st.integers(1, 60),
    data=st.data(),
    p=st.fractions(min_value=Fraction(1, 100), max_value=Fraction(99, 100), max_denominator=100),
    confidence=st.sampled_from([Fraction(1, 2), Fraction(9, 10), Fraction(95, 100), Fraction(99, 100)]),
)
def test_bound_equals_exact_equation_1(n, data, p, confidence):
    """t0 is the smallest t with an exact tail below 1 - confidence, up to float rounding
    (1e-12 relative) of that threshold: e.g. n 8, d 0, p 1/100 at 99% has a tail 1e-18 below it."""
    d = data.draw(st.integers(0, n))
    t0 = noise_bound(n, d, float(p), confidence_level=float(confidence)).t0
    weights = [math.comb(i, d) * p ** (i - d) for i in range(d, n + 1)]
    total, alpha = sum(weights), 1 - confidence

    def tail(t):  # P(X > t | A_d), eq. 1
        return sum(weights[t + 1 - d:]) / total

    assert tail(t0) < alpha * (1 + Fraction(1, 10**12))
    assert t0 == d or tail(t0 - 1) >= alpha * (1 - Fraction(1, 10**12))
    if abs(tail(t0) - alpha) > alpha / 10**12 and (t0 == d or abs(tail(t0 - 1) - alpha) > alpha / 10**12):
        assert t0 == exact_t0(n, d, p, confidence)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    n=st.integers(2, 400),
    p=st.floats(0.001, 0.999),
    confidence=st.floats(0.5, 0.999),
)
def test_bound_grows_with_d(n, p, confidence):
    bounds = [noise_bound(n, d, p, confidence_level=confidence) for d in range(n)]
    for low, high in zip(bounds, bounds[1:]):
        assert high.t0 >= low.t0
        if high.t0 > low.t0:
            assert high.noise >= low.noise
        else:  # t0 stuck at its ceiling: the integer t0 lowers gamma by less than one instance
            dip = (n - low.t0) / ((n - low.d) * (n - low.d - 1))
            assert high.noise >= low.noise - dip - 1e-12


def test_bound_grows_with_d_away_from_saturation():
    for p in (0.0625, 0.25, 0.5, 0.8):
        noises = [noise_bound(1000, d, p).noise for d in range(0, 600)]
        below = [x for x in noises if x <= 0.5]
        assert np.all(np.diff(below) >= 0) and len(below) > 50


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    weights=st.lists(st.floats(0.05, 1.0), min_size=2, max_size=4),
    k=st.integers(2, 6),
    n=st.integers(1, 3000),
    data=st.data(),
)
def test_bound_shrinks_as_annotators_are_added(weights, k, n, data):
    d = data.draw(st.integers(0, n))
    q = np.array(weights) / sum(weights)  # the same coin for every annotator
    p_k, p_more = float(np.sum(q**k)), float(np.sum(q ** (k + 1)))
    assert p_more < p_k
    assert noise_bound(n, d, p_more).noise <= noise_bound(n, d, p_k).noise


@settings(max_examples=80, deadline=None, derandomize=True)
@given(
    n=st.integers(1, 100_000),
    data=st.data(),
    p=st.floats(1e-6, 1 - 1e-6),
    confidence=st.floats(0.01, 0.9999),
)
def test_bound_lies_in_the_unit_interval(n, data, p, confidence):
    d = data.draw(st.integers(0, n))
    bound = noise_bound(n, d, p, confidence_level=confidence)
    assert d <= bound.t0 <= n
    assert 0.0 <= bound.noise <= 1.0


# --------------------------------------------------------------------------- reports from rows


def test_report_multi_on_the_five_annotator_scenario():
    out = noise_report_multi(as_annotations(five_annotators("4-1")))
    assert (out["instances"], out["agreed"], out["disagreed"]) == (1000, 660, 340)
    assert out["p"] == 0.0625 and out["t0"] == 371
    assert round(out["noise_bound"], 4) == 0.0470
    assert round(out["kappa"], 3) == 0.728


def test_report_with_no_disagreement_takes_p_from_all_instances():
    references = [["B-PER", "O", "B-LOC", "O"]]
    out = noise_report(references, references)
    # categories PER 1/4, LOC 1/4, O 1/2 for both annotators: p = 1/16 + 1/16 + 1/4
    assert out["disagreed"] == 0 and out["p"] == 0.375
    assert out["t0"] == noise_bound(4, 0, 0.375).t0 and out["kappa"] == 1.0


def test_report_with_a_single_category_is_the_uninformative_limit():
    out = noise_report([["O"] * 20], [["O"] * 20])
    # p = 1: every h in 0..n is equally likely, t0 = min{t : (n - t)/(n + 1) < 0.05} = 19
    assert out["p"] == 1.0 and out["t0"] == 19 and out["noise_bound"] == 19 / 20
    assert out["kappa"] is None and out["kappa_noise_estimate"] is None
    assert out["tolerable_disagreements"] is None


def test_report_when_hard_instances_can_never_agree():
    # annotator 1 says PER on every disagreed token, annotator 2 says O: p = 0, no hidden noise
    out = noise_report([["O", "O", "B-PER"]], [["B-PER", "O", "B-PER"]])
    assert out["p"] == 0.0 and out["t0"] == out["disagreed"] == 1 and out["noise_bound"] == 0.0
    assert out["tolerable_disagreements"] == 2


def test_report_when_everything_is_disagreed():
    out = noise_report([["B-PER", "O"]], [["O", "B-LOC"]])
    assert (out["agreed"], out["disagreed"], out["noise_bound"]) == (0, 2, 0.0)
    assert out["chance_difference"] == 0 and out["chance_difference_fraction"] == 0.0


def test_entity_unit_instances():
    references = [["B-PER", "I-PER", "O", "B-LOC", "O"], ["B-ORG", "O"]]
    predictions = [["B-PER", "I-PER", "O", "B-ORG", "I-ORG"], ["B-ORG", "O"]]
    out = noise_report(predictions, references, unit="entity")
    # spans: PER(0,2) agreed, LOC(3,4) vs none, ORG(3,5) none vs ORG, ORG(0,1) agreed
    assert (out["instances"], out["agreed"], out["disagreed"]) == (4, 2, 2)
    # disagreed rows (reference, prediction): (LOC, O), (O, ORG): q1 = (LOC 1/2, O 1/2),
    # q2 = (O 1/2, ORG 1/2) -> p = 1/4
    assert out["p"] == 0.25
    tokens = noise_report(predictions, references)
    assert (tokens["instances"], tokens["disagreed"]) == (7, 2)  # LOC/ORG and O/ORG


def test_strict_mode_and_suffix_are_passed_to_seqeval_spans():
    references = [["PER-B", "PER-I", "O"]]
    predictions = [["PER-B", "O", "O"]]
    out = noise_report(predictions, references, suffix=True)
    assert out["disagreed"] == 1
    # IOB2 strict: an I- after O is not an entity
    strict = noise_report([["O", "I-PER"]], [["O", "B-PER"]], mode="strict", scheme="IOB2")
    lenient = noise_report([["O", "I-PER"]], [["O", "B-PER"]])
    assert (strict["disagreed"], lenient["disagreed"]) == (1, 0)


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: noise_bound(10, 11, 0.5), r"d = 11 disagreed instances cannot exceed n = 10"),
        (lambda: noise_bound(10, -1, 0.5), r"d \(the number of disagreed instances\) must be a non-negative integer"),
        (lambda: noise_bound(0, 0, 0.5), r"n \(the number of instances\) must be at least 1"),
        (lambda: noise_bound(10.5, 1, 0.5), r"n \(the number of instances\) must be a non-negative integer"),
        (lambda: noise_bound(10, 1, 0.0), r"p \(the probability of agreement on a hard instance\) must lie strictly between 0 and 1"),
        (lambda: noise_bound(10, 1, 1.0), r"p .* must lie strictly between 0 and 1, got 1.0"),
        (lambda: noise_bound(10, 1, "0.5"), r"p .* must be a number strictly between 0 and 1"),
        (lambda: noise_bound(10, 1, 0.5, confidence_level=1.0), r"confidence_level must lie strictly between 0 and 1"),
        (lambda: noise_bound(10, 1, 0.5, confidence_level=0), r"confidence_level must lie strictly between 0 and 1"),
        (lambda: tolerable_disagreements(10, 1.5), r"p .* must lie strictly between 0 and 1"),
        (lambda: tolerable_disagreements(10, 0.5, max_noise=2), r"max_noise must lie between 0 and 1"),
        (lambda: chance_difference(900, 125, method="bonferroni"), r"method must be one of \('chebyshev', 'normal'\), got 'bonferroni'"),
        (lambda: chance_difference(900, 901), r"noisy_items must lie between 0 and gold_size = 900"),
        (lambda: chance_difference(900, 125, confidence_level=1.5), r"confidence_level must lie strictly between 0 and 1"),
        (lambda: hard_agreement_probability([["A"], ["B"]]), r"need at least two annotators \(columns\), got 1"),
        (lambda: hard_agreement_probability([]), r"labels_on_disagreed is empty"),
        (lambda: hard_agreement_probability([["A", "B"], ["A"]]), r"item 1 has 1 labels but item 0 has 2"),
        (lambda: hard_agreement_probability([["A", None]]), r"item 0: annotator 1's label is missing"),
        (lambda: easy_proportion_from_kappa(1.5), r"kappa must be a finite number at most 1"),
        (lambda: noise_report([["O"]], [["O"]], unit="sentence"), r"unit must be one of \('token', 'entity'\), got 'sentence'"),
        (lambda: noise_report([["O"]], [["O"]], confidence_level=1.2), r"confidence_level must lie strictly between 0 and 1"),
        (lambda: noise_report([["O"]], [["O", "O"]]), r"sentence 0: the prediction has 1 tags but the reference has 2"),
        (lambda: noise_report([["O", None]], [["O", "O"]]), r"predictions\[0\], position 1: the tag is None"),
        (lambda: noise_report([["O"]], [["O"]], unit="entity"), r"no instances: with unit='entity'"),
        (lambda: noise_report_multi([[["O", "B-PER"]]]), r"noise_report_multi: annotations: need at least 2 annotators per sentence, sentence 0 has 1"),
        (lambda: noise_report_multi(as_items([[["O"], ["O"]], [["O"], None]])), r"annotations\[1\]\[1\]: the annotator is missing"),
        (lambda: noise_report_multi([[["O"], ["O"]], [["O"]]]), r"noise_report_multi: annotations\[1\]: 1 annotator slots but sentence 0 has 2"),
        (lambda: noise_report_multi([[["O"], ["O", "O"]]]), r"noise_report_multi: annotations\[0\]: the annotators' tag sequences have different lengths \[1, 2\]"),
        (lambda: noise_report_multi([[["O"], ["B-PER", "Z"]], [["O", ""], ["O", "O"]]][1:]), r"annotations\[0\]\[0\], position 1: the tag is an empty string"),
        (lambda: noise_report_multi([]), r"noise_report_multi: annotations: expected a non-empty list of sentences"),
    ],
)
def test_bad_input_raises_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_public_names_are_exported():
    for name in (
        "noise_bound", "hard_agreement_probability", "tolerable_disagreements", "chance_difference",
        "easy_proportion_from_kappa", "kappa_noise_estimate", "noise_report", "noise_report_multi",
        "NoiseBound", "ChanceDifference",
    ):
        assert getattr(chance_agreement, name).__module__ == "chance_agreement.noise.noise_model"


# -- posteriors too wide to enumerate (issue 10 item 5) --------------------------------------------


def test_noise_bound_of_1e12_instances_needs_no_94_gib():
    bound = noise_bound(10**12, 10**6, 0.999999)
    assert 10**6 < bound.t0 <= 10**12 and 0.0 < bound.noise < 1.0
    # the posterior of j = h - d is a negative binomial truncated at n - d; its mean p(d+1)/(1-p)
    # is about 1e12, so nearly all of the agreed subset may be noise
    assert bound.noise > 0.999


def _wide_cases(count, seed=4):
    import random

    from chance_agreement.noise.noise_model import _window

    rng = random.Random(seed)
    cases = []
    while len(cases) < count:
        n = rng.randint(10**4, 10**6)
        d = rng.randint(0, n - 1)
        p = rng.choice([0.5, 0.9, 0.99, 0.999, 0.3])
        confidence = rng.choice([0.9, 0.95, 0.99])
        left, right = _window(d, n - d, math.log(p))
        if right - left > 1000:
            cases.append((n, d, p, confidence))
    return cases


@pytest.mark.parametrize("n, d, p, confidence", _wide_cases(25))
def test_closed_form_tail_and_chunked_sum_agree_with_the_window_sum(monkeypatch, n, d, p, confidence):
    import chance_agreement.noise.noise_model as module

    expected = noise_bound(n, d, p, confidence_level=confidence).t0
    monkeypatch.setattr(module, "MAX_WINDOW", 97)  # force the wide-window paths
    assert noise_bound(n, d, p, confidence_level=confidence).t0 == expected  # closed form, else chunks
    left, right = module._window(d, n - d, math.log(p))
    assert d + module._t0_in_chunks(d, left, right, math.log(p), 1 - confidence) == expected


def test_posterior_too_wide_even_to_sum_is_refused_up_front(monkeypatch):
    import chance_agreement.noise.noise_model as module

    monkeypatch.setattr(module, "MAX_SUMMED", 1 << 20)
    with pytest.raises(ValueError, match="noise_bound cannot evaluate n = 1000000000000, d = 1000000"):
        noise_bound(10**12, 10**6, 0.9999999)


def test_posterior_beyond_2_to_the_53_is_refused_not_rounded():
    with pytest.raises(ValueError, match="beyond 2\\^53"):
        noise_bound(10**20, 10**19, 0.9)
    # a huge n whose posterior stays near d is fine: the hidden counts are small
    bound = noise_bound(10**30, 10**10, 0.5)
    assert 10**10 < bound.t0 < 3 * 10**10


def test_closed_form_tail_matches_the_normal_limit_up_to_2_to_the_53():
    """Truncated at its mean, the posterior's upper 5% lies within 0.0627 standard deviations
    below n (half-normal limit: 0.025 / phi(0) = 0.06267)."""
    import chance_agreement.noise.noise_model as module

    for exponent in (12, 14, 15):
        n = 10**exponent
        d = n // 10
        t0 = noise_bound(n, d, 0.9).t0
        sd = math.sqrt((d + 1) * 0.9) / 0.1
        assert (n - t0) / sd == pytest.approx(0.0627, abs=2e-4)
    assert module._EXACT_INTEGERS == 2**53


# --- issue 24, 1f: footnote 3's p estimate of 0 --------------------------------------------------

# Every disagreement goes one way: the references mark PER on 100 tokens the predictions leave O.
ONE_WAY_REFERENCES = [["B-PER" if i % 10 == 5 else "O" for i in range(100)] for _ in range(10)]
ONE_WAY_PREDICTIONS = [["O"] * 100 for _ in range(10)]


def test_a_zero_p_estimate_is_flagged_with_the_least_favourable_bound():
    """The bound was 0.0000 with nothing said: footnote 3 gives p = 0 when each annotator keeps to
    one category on the disagreed instances, and with p = 0 no hard instance can hide."""
    from chance_agreement import as_items
    from chance_agreement.noise.noise_model import NoiseModelWarning

    with pytest.warns(NoiseModelWarning, match="estimate of p is 0.*noise_bound_least_favourable = 0.1389"):
        out = noise_report(ONE_WAY_PREDICTIONS, ONE_WAY_REFERENCES)
    assert (out["p"], out["noise_bound"]) == (0.0, 0.0)  # the paper's estimate, as before
    assert out["p_least_favourable"] == 0.5  # one coin with the pooled proportions (1/2, 1/2)
    assert out["noise_bound_least_favourable"] == noise_bound(1000, 100, 0.5).noise
    with pytest.warns(NoiseModelWarning):
        multi = noise_report_multi(as_items([[p, r, r] for p, r in zip(ONE_WAY_PREDICTIONS, ONE_WAY_REFERENCES)]))
    assert multi["p"] == 0.0 and multi["p_least_favourable"] == pytest.approx(1 / 3 ** 3 + (2 / 3) ** 3)
    assert multi["noise_bound_least_favourable"] > 0.0


def test_the_least_favourable_p_equals_the_estimate_when_annotators_split_alike():
    references = [["B-PER" if i % 10 == 5 and s % 2 == 0 else "O" for i in range(100)] for s in range(10)]
    predictions = [["B-PER" if i % 10 == 5 and s % 2 == 1 else "O" for i in range(100)] for s in range(10)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = noise_report(predictions, references)
    assert out["p"] == out["p_least_favourable"] == 0.5
    assert out["noise_bound"] == out["noise_bound_least_favourable"]


@given(st.lists(st.lists(st.sampled_from("abc"), min_size=3, max_size=3), min_size=1, max_size=12))
def test_the_pooled_p_is_the_largest_over_annotators_with_the_same_pooled_proportions(rows):
    """AM-GM per category: prod_j q_jc <= mean_j(q_jc)^k, equality when every annotator's q_c is
    the pooled one; so the pooled p is the least favourable (largest bound: the bound grows with p)."""
    from chance_agreement.noise.noise_model import least_favourable_agreement_probability

    estimate = hard_agreement_probability(rows)
    pooled = least_favourable_agreement_probability(rows)
    assert estimate <= pooled + 1e-15
    labels = [label for row in rows for label in row]
    expected = sum(Fraction(labels.count(c), len(labels)) ** 3 for c in set(labels))
    assert pooled == pytest.approx(float(expected), rel=1e-15)
    same = [[row[0]] * 3 for row in rows]  # annotators alike: both estimates agree
    assert hard_agreement_probability(same) == pytest.approx(least_favourable_agreement_probability(same))
