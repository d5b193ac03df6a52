"""Gamma (issue 25): the best alignment against brute force (fractions) and against pygamma-agreement
0.5.9 as a peer, the samplers' distributions, gamma's results, input rules."""

from __future__ import annotations

import json
import logging
import math
from fractions import Fraction
import numpy as np
import pygamma_agreement as pygamma  # the peer, in the test extra
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chance_agreement
from chance_agreement import gamma_agreement, sample_annotation
from chance_agreement.reliability.gamma import alignment as alignment_module
from chance_agreement.reliability.gamma import (
    MAX_CANDIDATES, SAMPLES_LIMIT, AlignmentTooLarge, Dissimilarity, best_alignment, continuum_from_texts,
    continuum_from_units,
)
from chance_agreement.reliability.gamma.gamma import category_disorders
from chance_agreement.reliability.gamma.sampling import make_sampler, standard_normal

# --- brute force: every partition of the units, exact arithmetic ----------------------------------


def exact_cost(block, units, n, d):
    """``P * delta(block)`` in fractions (alpha, beta, delta_empty as fractions)."""
    alpha, beta, empty = (Fraction(x) for x in (d.alpha, d.beta, d.delta_empty))
    total = Fraction(0)
    for x in range(len(block)):
        for y in range(x + 1, len(block)):
            (_, cu, su, eu), (_, cv, sv, ev) = units[block[x]], units[block[y]]
            ratio = Fraction(abs(su - sv) + abs(eu - ev)) / ((eu - su) + (ev - sv))
            total += alpha * ratio * ratio * empty + beta * (0 if cu == cv else 1) * empty
    places = n * (n - 1) // 2
    return total + (places - len(block) * (len(block) - 1) // 2) * empty


def partitions(items):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for smaller in partitions(rest):
        for i, block in enumerate(smaller):
            yield smaller[:i] + [[first] + block] + smaller[i + 1:]
        yield [[first]] + smaller


def brute_force_disorder(units_by_annotator, d=Dissimilarity()) -> Fraction:
    names = list(units_by_annotator)
    units = [(names.index(a), c, Fraction(s), Fraction(e)) for a in names for c, s, e in units_by_annotator[a]]
    n, places = len(names), len(names) * (len(names) - 1) // 2
    best = None
    for blocks in partitions(list(range(len(units)))):
        if any(len({units[i][0] for i in block}) < len(block) for block in blocks):
            continue
        cost = sum(exact_cost(block, units, n, d) for block in blocks)
        best = cost if best is None or cost < best else best
    return best / places / Fraction(len(units), n)


unit = st.tuples(st.sampled_from("AB"), st.integers(0, 12), st.integers(1, 5)).map(lambda u: (u[0], u[1], u[1] + u[2]))


@st.composite
def small_continua(draw, max_annotators=4, max_units=7):
    n = draw(st.integers(2, max_annotators))
    units = {f"a{i}": draw(st.lists(unit, max_size=3)) for i in range(n)}
    total = sum(map(len, units.values()))
    if total == 0:
        units["a0"] = [("A", 0, 2)]
    while sum(map(len, units.values())) > max_units:
        longest = max(units, key=lambda a: len(units[a]))
        units[longest] = units[longest][:-1]
    return units


@settings(max_examples=150)
@given(small_continua())
def test_best_alignment_equals_brute_force(units):
    ours = best_alignment(continuum_from_units(units)).disorder
    assert ours == pytest.approx(float(brute_force_disorder(units)), rel=1e-12, abs=1e-12)


@settings(max_examples=60)
@given(small_continua(max_annotators=3, max_units=6), st.sampled_from([(1, 1, 1), (2, 0.5, 1), (1, 0, 1), (0.5, 3, 2)]))
def test_brute_force_with_other_weights(units, weights):
    d = Dissimilarity(alpha=weights[0], beta=weights[1], delta_empty=weights[2])
    ours = best_alignment(continuum_from_units(units), d).disorder
    assert ours == pytest.approx(float(brute_force_disorder(units, d)), rel=1e-12, abs=1e-12)


def test_crossing_alignment_beats_any_non_crossing_one():
    """Issue 25's note: under d_pos a crossing matching can be cheaper, so no positional DP."""
    units = {"a": [("X", 0, 10), ("X", 1, 2)], "b": [("X", 0, 3), ("X", 0, 12)]}
    exact = float(brute_force_disorder(units))
    assert best_alignment(continuum_from_units(units)).disorder == pytest.approx(exact, rel=1e-12)
    ordered = sorted(units["a"], key=lambda u: u[1:]), sorted(units["b"], key=lambda u: u[1:])
    d, matrix = Dissimilarity(), np.array([[0.0]])
    straight = sum(float(d.pair(np.array(float(u[1])), np.array(float(u[2])), np.array(0),
                                np.array(float(v[1])), np.array(float(v[2])), np.array(0), matrix))
                   for u, v in zip(*ordered)) / 2
    assert exact < straight


def test_milp_path_equals_all_partitions(monkeypatch):
    """The set-partition programme (HiGHS) gives the alignments the all-partitions path gives."""
    rng = np.random.default_rng(5)
    cases = [random_units(rng, n, 6, 25) for n in (3, 3, 4, 4, 5) for _ in range(6)]
    fast = [best_alignment(continuum_from_units(u)).disorder for u in cases]
    monkeypatch.setattr(alignment_module, "_SMALL", 1)
    slow = [best_alignment(continuum_from_units(u)).disorder for u in cases]
    assert slow == pytest.approx(fast, rel=1e-12)


# --- pygamma-agreement 0.5.9 as a peer --------------------------------------------------------------

logging.getLogger().setLevel(logging.ERROR)  # pygamma logs "CBC solver not installed" on every alignment


def random_units(rng, n, most, length, categories="ABC", real=False):
    units = {}
    for i in range(n):
        found = set()
        target = int(rng.integers(1, most + 1))
        while len(found) < target:
            start = float(rng.uniform(0, length)) if real else int(rng.integers(0, length))
            size = float(rng.uniform(0.5, 6)) if real else int(rng.integers(1, 6))
            found.add((categories[int(rng.integers(len(categories)))], start, start + size))
        units[f"a{i}"] = sorted(found)
    return units


def pygamma_alignment(units):
    from pyannote.core import Segment

    continuum = pygamma.Continuum()
    for annotator, annotator_units in units.items():
        continuum.add_annotator(annotator)
        for category, start, end in annotator_units:
            continuum.add(annotator, Segment(start, end), category)
    dissimilarity = pygamma.CombinedCategoricalDissimilarity()
    return continuum.get_best_alignment(dissimilarity), dissimilarity


def rescored(alignment, units) -> float:
    """pygamma's alignment scored exactly (fractions), to compare with ours at 1e-9."""
    names = list(units)
    n, places = len(names), len(names) * (len(names) - 1) // 2
    total = Fraction(0)
    for unitary in alignment.unitary_alignments:
        members = [(names.index(a), u.annotation, Fraction(u.segment.start), Fraction(u.segment.end))
                   for a, u in unitary.n_tuple if u is not None]
        total += exact_cost(list(range(len(members))), members, n, Dissimilarity())
    return float(total / places / Fraction(sum(map(len, units.values())), n))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_best_alignment_equals_pygamma_on_random_continua(n):
    rng = np.random.default_rng(100 + n)
    for _ in range(12 if n < 4 else 6):
        units = random_units(rng, n, 7 if n < 4 else 4, 40)
        ours = best_alignment(continuum_from_units(units)).disorder
        theirs, _ = pygamma_alignment(units)
        assert abs(ours - rescored(theirs, units)) <= 1e-9
        assert ours == pytest.approx(float(theirs.disorder), rel=1e-5)  # pygamma computes in float32


@pytest.mark.parametrize("n", [2, 3])
def test_gamma_cat_and_gamma_k_disorders_equal_pygamma(n):
    """Real positions (no two alignments tie), so both sides have the same best alignment."""
    rng = np.random.default_rng(7 + n)
    for _ in range(8):
        units = random_units(rng, n, 6, 30, real=True)
        continuum = continuum_from_units(units)
        ours = best_alignment(continuum)
        d = Dissimilarity()
        cat, per_category = category_disorders(ours, d, d.category_values(continuum.categories))
        theirs, dissimilarity = pygamma_alignment(units)
        assert cat == pytest.approx(theirs.gamma_k_disorder(dissimilarity, None), rel=1e-5, abs=1e-6)
        for k, name in enumerate(continuum.categories):
            assert per_category[k] == pytest.approx(theirs.gamma_k_disorder(dissimilarity, name), rel=1e-5, abs=1e-6)


def test_gamma_is_close_to_pygamma_with_the_same_sampler():
    """Both estimate the same expected disorder (different random streams): within 4 standard errors."""
    rng = np.random.default_rng(11)
    units = random_units(rng, 2, 12, 80)
    ours = gamma_agreement(units, n_samples=200, random_state=1)
    from pyannote.core import Segment

    continuum = pygamma.Continuum()
    for annotator, annotator_units in units.items():
        for category, start, end in annotator_units:
            continuum.add(annotator, Segment(start, end), category)
    np.random.seed(3)  # pygamma's samplers use numpy's global state
    theirs = continuum.compute_gamma(pygamma.CombinedCategoricalDissimilarity(), n_samples=200)
    assert ours.observed_disorder == pytest.approx(float(theirs.observed_disorder), rel=1e-5)
    spread = float(np.std([a.disorder for a in theirs.chance_alignments], ddof=1)) / math.sqrt(200)
    combined = math.hypot(ours.expected_disorder_se, spread)
    assert abs(ours.expected_disorder - theirs.expected_disorder) < 4 * combined


def test_conll_gold_and_system_alignment_equals_pygamma(conll_systems):
    references, systems = conll_systems
    prediction = next(iter(systems.values()))
    texts = [[r, p] for r, p in zip(references[:150], prediction[:150])]
    continuum = continuum_from_texts(texts, annotators=["gold", "system"])
    units = {name: [] for name in continuum.annotators}
    for k in range(continuum.n_units):
        units[continuum.annotators[continuum.annotator[k]]].append(
            (continuum.categories[continuum.category[k]], int(continuum.start[k]), int(continuum.end[k])))
    ours = best_alignment(continuum).disorder
    theirs, _ = pygamma_alignment(units)
    assert abs(ours - rescored(theirs, units)) <= 1e-9


# --- samplers ---------------------------------------------------------------------------------------


def test_normal_deviates():
    z = standard_normal(np.random.default_rng(1), 200_000)
    assert abs(z.mean()) < 0.01 and abs(z.var() - 1) < 0.01
    assert abs(np.mean(z < -1.959963984540054) - 0.025) < 0.002
    assert np.array_equal(z, standard_normal(np.random.default_rng(1), 200_000))


def test_random_model_sampler_is_uniform_over_non_overlapping_placements():
    """One text of 7 tokens, an annotator with segments of lengths 2 and 1 (category A) and one of
    length 3 (category B): each category's placements are uniform, as sample_annotation's."""
    units = [[[("A", 0, 2), ("A", 3, 4), ("B", 4, 7)], [("A", 1, 2)]]]
    continuum = continuum_from_texts(units, lengths=[7])
    draw, rng = make_sampler(continuum, "random_model"), np.random.default_rng(0)
    counts: dict = {}
    for _ in range(6000):
        sample = draw(rng)
        mine = sample.annotator == 0
        placed = tuple(sorted((sample.categories[c], s, e) for c, s, e in
                              zip(sample.category[mine], sample.start[mine], sample.end[mine])))
        a_spans = [u for u in placed if u[0] == "A"]
        assert all(0 <= s < e <= 7 for _, s, e in placed)
        assert a_spans[0][2] <= a_spans[1][1] or a_spans[1][2] <= a_spans[0][1]  # no overlap within a category
        counts[tuple(u for u in placed if u[0] == "A")] = counts.get(tuple(u for u in placed if u[0] == "A"), 0) + 1
    feasible = {tuple(sorted([("A", float(s), float(s + 2)), ("A", float(t), float(t + 1))]))
                for s in range(6) for t in range(7) if t + 1 <= s or s + 2 <= t}
    assert set(counts) == feasible  # 2! * C(7 - 3 + 2, 2) = 30 placements
    oracle = {tuple(sorted([("A", float(s), float(s + 2)), ("A", float(t), float(t + 1))]))
              for s, t in (sample_annotation(7, [2, 1], random_state=seed) for seed in range(400))}
    assert oracle <= feasible
    expected = 6000 / len(feasible)
    assert all(abs(c - expected) < 5 * math.sqrt(expected) for c in counts.values())


def test_statistical_sampler_without_spread_reproduces_the_layout():
    """Equal counts, lengths and gaps: every random continuum is the observed one."""
    units = {"a": [("X", 0, 2), ("X", 2, 4)], "b": [("X", 0, 2), ("X", 2, 4)]}
    result = gamma_agreement(units, n_samples=5)
    assert result.sample_disorders == (0.0,) * 5
    assert result.gamma == 1.0  # observed disorder 0


def test_shuffle_sampler_shifts_whole_annotations():
    units = {"a": [("X", 0, 3), ("Y", 10, 12)], "b": [("X", 1, 3), ("Y", 10, 14), ("X", 20, 21)]}
    continuum = continuum_from_units(units)
    draw, rng = make_sampler(continuum, "shuffle"), np.random.default_rng(2)
    low, high = continuum.bounds
    for _ in range(50):
        sample = draw(rng)
        for place in range(2):
            mine = np.flatnonzero(sample.annotator == place)
            shape = sorted(zip(sample.category[mine], sample.end[mine] - sample.start[mine]))
            assert shape in (sorted([(0, 3.0), (1, 2.0)]), sorted([(0, 2.0), (1, 4.0), (0, 1.0)]))
            assert np.all(sample.start[mine] == np.round(sample.start[mine]))  # integer pivots
            assert np.all(sample.start[mine] <= high)


@pytest.mark.parametrize("sampler", ["statistical", "shuffle", "random_model"])
def test_seeded_and_reproducible(sampler):
    tags = [["B-PER I-PER O B-LOC O O".split(), "B-PER O O B-LOC I-LOC O".split()],
            ["O B-ORG I-ORG I-ORG O".split(), "O B-ORG I-ORG O O".split()]]
    first = gamma_agreement(tags, sampler=sampler, n_samples=12, random_state=4)
    again = gamma_agreement(tags, sampler=sampler, n_samples=12, random_state=4)
    other = gamma_agreement(tags, sampler=sampler, n_samples=12, random_state=5)
    assert first.sample_disorders == again.sample_disorders and first.gamma == again.gamma
    assert first.sample_disorders != other.sample_disorders
    assert first.observed_disorder == other.observed_disorder


# --- results, inputs ------------------------------------------------------------------------------


def test_identical_annotators_and_result_export():
    tags = ["B-PER I-PER O B-LOC O".split(), "O B-ORG O O B-MISC".split()]
    result = gamma_agreement([[t, t, t] for t in tags], n_samples=4)
    assert result.observed_disorder == 0 and result.gamma == 1.0 and result.gamma_cat == 1.0
    out = json.loads(json.dumps(result.to_dict()))
    assert out["annotators"] == ["annotator 0", "annotator 1", "annotator 2"]
    assert len(out["alignment"]) == 4 and out["alignment"][0]["units"]["annotator 1"] == ["PER", 0, 2]
    assert set(out["gamma_k"]) == {"PER", "LOC", "ORG", "MISC"}


def test_gamma_from_spans_equals_gamma_from_tags():
    tags = [["B-PER I-PER O B-LOC".split(), "B-PER O O B-LOC".split()], ["O B-ORG".split(), "B-ORG I-ORG".split()]]
    spans = [[[("PER", 0, 2), ("LOC", 3, 4)], [("PER", 0, 1), ("LOC", 3, 4)]], [[("ORG", 1, 2)], [("ORG", 0, 2)]]]
    a = gamma_agreement(tags, n_samples=6, sampler="random_model")
    b = gamma_agreement(spans, lengths=[4, 2], n_samples=6, sampler="random_model")
    assert a.sample_disorders == b.sample_disorders and a.gamma == b.gamma


def test_precision_target_draws_enough_samples():
    rng = np.random.default_rng(3)
    units = random_units(rng, 2, 8, 60)
    result = gamma_agreement(units, n_samples=10, precision_level="low")
    disorders = np.array(result.sample_disorders)
    required = math.ceil((disorders.std() / disorders.mean() * 1.96 / 0.05) ** 2)
    assert result.n_samples >= max(10, required) and result.n_samples == len(disorders)
    assert result.gamma_se == pytest.approx(result.observed_disorder / result.expected_disorder ** 2
                                            * result.expected_disorder_se)


def test_root_exports():
    assert chance_agreement.gamma_agreement is gamma_agreement
    assert chance_agreement.GammaDissimilarity is Dissimilarity


@pytest.mark.parametrize("call, message", [
    (lambda: gamma_agreement([[["B-X"]]]), "two or more annotators"),
    (lambda: gamma_agreement({"a": [("X", 3, 3)], "b": []}), "start 3 must be below end 3"),
    (lambda: gamma_agreement([[[("X", 0, 5)], []]], lengths=[4]), r"text 0, annotator 0, span 0: \(0, 5\) lies outside"),
    (lambda: gamma_agreement([[[("X", 0, 2)], []]]), "span lists need lengths"),
    (lambda: gamma_agreement({"a": [("X", 0, 1)], "b": []}, sampler="magic"), "sampler must be one of"),
    (lambda: gamma_agreement({"a": [("X", 0, 1)], "b": []}, precision_level=2), "precision_level"),
    (lambda: gamma_agreement({"a": [("X", 0, 1)], "b": []}, sampler="random_model"), "needs texts of tokens"),
    (lambda: gamma_agreement([[[("X", 0, 2), ("X", 1, 3)], []]], lengths=[3], sampler="random_model"),
     "do not fit side by side"),
    (lambda: gamma_agreement({"a": [], "b": []}), "no units at all"),
    (lambda: Dissimilarity(category_matrix={("A", "B"): 0.5, ("B", "A"): 0.7}), "not symmetric"),
    (lambda: Dissimilarity(alpha=-1), "alpha must be >= 0"),
])
def test_bad_input_is_refused_with_a_clear_message(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_category_matrix_and_levels():
    d = Dissimilarity(category_levels={"low": 0, "mid": 1, "high": 3})
    assert d.category_values(("high", "low", "mid")).tolist() == [[0, 1, 2 / 3], [1, 0, 1 / 3], [2 / 3, 1 / 3, 0]]
    d = Dissimilarity(category_matrix={"A": {"B": 0.25}})
    assert d.category_values(("A", "B", "C")).tolist() == [[0, 0.25, 1], [0.25, 0, 1], [1, 1, 0]]
    units = {"a": [("A", 0, 4)], "b": [("B", 0, 4)]}
    assert best_alignment(continuum_from_units(units), d).disorder == 0.25  # one pair, d = 0.25, N/n = 1


def test_fractional_relaxation_falls_back_to_the_binary_programme():
    """Five units in a cycle of free pairs: the relaxation takes every pair at 1/2 (cost 0), the
    binary programme two pairs and one unit alone (cost 1)."""
    members = np.array([[i, (i + 1) % 5] for i in range(5)])
    members = np.sort(members, axis=1)
    padded = np.full((5, 3), -1)
    padded[:, :2] = members
    assert alignment_module._integral_relaxation(np.r_[np.zeros(5), np.ones(5)],
                                                 _cover_matrix(padded)) is None
    chosen = alignment_module._solve_partition(5, padded, np.zeros(5), 1.0)
    assert len(chosen) == 2 and len(set(members[chosen].ravel())) == 4


def _cover_matrix(members):
    from scipy.sparse import csc_matrix

    rows = [u for column in members for u in column if u >= 0] + list(range(5))
    cols = [k for k, column in enumerate(members) for u in column if u >= 0] + [5 + i for i in range(5)]
    return csc_matrix((np.ones(len(rows)), (rows, cols)), shape=(5, 10))


def test_gamma_from_the_readers_files_equals_gamma_from_their_spans():
    from chance_agreement import pair_annotations, read_brat, read_jsonl
    from conftest import REPO

    data = REPO / "tests" / "data" / "nested"
    a, b = read_jsonl(data / "annotator_a.jsonl"), read_brat(data / "brat_b" / "doc.ann")
    spans_a, spans_b, lengths = pair_annotations(a, b)
    texts = [[[(label, s, e) for s, e, label in x], [(label, s, e) for s, e, label in y]] for x, y in zip(spans_a, spans_b)]
    from_files = gamma_agreement({"a": a, "b": b}, n_samples=5, sampler="random_model")
    from_spans = gamma_agreement(texts, lengths=lengths, annotators=["a", "b"], n_samples=5, sampler="random_model")
    assert from_files.to_dict() == from_spans.to_dict() and from_files.observed_disorder > 0


# --- bounded work (issue 38 item 3a) ----------------------------------------------------------------


def dense_units(n: int, k: int) -> dict:
    """``n`` annotators with ``k`` units each on ``k + 4`` positions: every unit near every other."""
    return {f"a{a}": [("XY"[(a + i) % 2], i, i + 2 + (a * i) % 3) for i in range(k)] for a in range(n)}


def test_a_dense_component_is_refused_before_its_candidates_are_built():
    # 60 units from 6 annotators: on main the exact alignment ran for minutes and gigabytes
    with pytest.raises(AlignmentTooLarge) as caught:
        best_alignment(continuum_from_units(dense_units(6, 10)))
    error = caught.value
    assert isinstance(error, ValueError) and error.limit == MAX_CANDIDATES < error.estimate
    assert (error.text, error.start, error.end, error.n_units, error.sample) == (0, 0, 12, 60, None)
    assert error.annotators == tuple(f"a{i}" for i in range(6))
    assert "text 0, positions 0 to 12: 60 units of 6 annotators (a0, a1, a2, a3, a4, a5)" in str(error)
    assert "compare fewer annotators at a time" in str(error)
    with pytest.raises(AlignmentTooLarge, match="positions 0 to 12"):
        gamma_agreement(dense_units(6, 10))


def test_the_candidate_limit_counts_per_component_and_names_the_text():
    units = dense_units(4, 6)
    exact = best_alignment(continuum_from_units(units))
    assert exact.disorder == best_alignment(continuum_from_units(units), max_candidates=1296).disorder
    with pytest.raises(AlignmentTooLarge, match="at least 1,296 candidate unitary alignments of one size "
                                                r"\(limit 1,295\)"):
        best_alignment(continuum_from_units(units), max_candidates=1295)
    # the same dense stretch as the second of two texts: named by its text, positions inside it
    sparse = [("X", 0, 2)]
    texts = [[sparse] * 4, [[(c, s, e) for c, s, e in units[f"a{a}"]] for a in range(4)]]
    with pytest.raises(AlignmentTooLarge) as caught:
        best_alignment(continuum_from_texts(texts, lengths=[40, 10]), max_candidates=1295)
    assert (caught.value.text, caught.value.start, caught.value.end) == (1, 0, 9)
    for bad in (0, -1, 2.5, True):
        with pytest.raises(ValueError, match="max_candidates must be a positive integer"):
            best_alignment(continuum_from_units(units), max_candidates=bad)


def test_a_random_continuum_past_the_limit_is_named_as_such():
    units = {f"a{a}": [("X", 100 * i + a, 100 * i + a + 3) for i in range(6)] for a in range(4)}
    observed = best_alignment(continuum_from_units(units), max_candidates=1)  # components of 4: no candidates
    assert observed.tuples.shape == (6, 4) and (observed.tuples >= 0).all()
    with pytest.raises(AlignmentTooLarge, match=r"^gamma: random continuum \d+ \(the observed one passed\)") as caught:
        gamma_agreement(units, max_candidates=1)
    assert caught.value.sample >= 1


@pytest.mark.parametrize("option", ["n_samples", "max_samples"])
def test_sample_counts_are_capped(option):
    units = {"a": [("X", 0, 2)], "b": [("X", 0, 2)]}
    with pytest.raises(ValueError, match=f"{option} must be at most 10,000 random continua, got 10,001"):
        gamma_agreement(units, **{option: SAMPLES_LIMIT + 1})
    assert SAMPLES_LIMIT == 10_000
