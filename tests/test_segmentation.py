"""Krippendorff's alpha for segmentations and entailment (Ramanath et al. 2013, supplement).

Reference values: the supplement's worked example (section 3, Table 2; SPEC_NOTES section 2).
A naive oracle written straight from Algorithms 1-6 (loops over every pair and every window)
checks the vectorised kernel; entailment is checked against explicit trees.
"""

from __future__ import annotations

import io
import itertools
import json
import random
from fractions import Fraction

import pytest

import chance_agreement
from chance_agreement.reliability.segmentation import boundaries_from_tags, entails, load_segmentation_json, segmentation_alpha

Q1 = "major league baseball salary cap"
Q2 = "wind beneath my wings sheet music"
TOY = {Q1: [[1, 0, 2, 0], [0, 1, 0, 2], [2, 0, 1, 0]], Q2: [[0, 1, 0, 2, 0], [0, 2, 0, 1, 0]]}


def test_supplement_worked_example_d2():
    result = segmentation_alpha(TOY)
    # within: (13/6 + 2.4/2) / (2 * 2) = 101/120; between: 34.9 / (2 * 5 * 4) = 349/400
    assert round(result["within_variance"], 6) == 0.841667
    assert round(result["between_variance"], 4) == 0.8725
    assert round(result["alpha"], 4) == 0.0353
    assert round(result["alpha"], 3) == 0.035  # as the supplement prints it
    assert result["within_variance"] == pytest.approx(float(Fraction(101, 120)), rel=1e-14)
    assert result["between_variance"] == pytest.approx(float(Fraction(349, 400)), rel=1e-14)
    assert result["alpha"] == pytest.approx(float(1 - Fraction(101, 120) / Fraction(349, 400)), rel=1e-12)
    assert (result["n_items"], result["n_annotations"], result["warnings"]) == (2, 5, [])


def test_supplement_worked_example_d1_by_hand():
    """d1 (Algorithm 1): Q1 pairs 1.5, 0.5, 1.5 -> 7/6; Q2 0.4 -> within (7/6 + 0.4) / 4 = 47/120."""
    result = segmentation_alpha(TOY, distance="d1")
    assert result["within_variance"] == pytest.approx(47 / 120, rel=1e-14)
    assert result["alpha"] == pytest.approx(1 - result["within_variance"] / result["between_variance"])


def test_sliding_alignment_between_two_single_annotations():
    """Supplement 3.2: A11 = 1020 vs A21 = 01020 -> windows 2.5 and 0 -> 1.25 (d2)."""
    data = {"a": [[1, 0, 2, 0], [1, 0, 2, 0]], "b": [[0, 1, 0, 2, 0], [0, 1, 0, 2, 0]]}
    result = segmentation_alpha(data)
    # between: pairs across items 4 x 1.25, counted both ways, within-item pairs 0 -> 10 / (2*4*3)
    assert result["between_variance"] == pytest.approx(10 / 24)
    assert result["within_variance"] == 0.0 and result["alpha"] == 1.0


# ---------------------------------------------------------------------------------------------
# naive oracle from Algorithms 1-6


def _naive_distance(a, b, distance):
    if distance == "d1":
        return sum(abs(x - y) for x, y in zip(a, b))
    return sum(abs(x * x - y * y) for x, y in zip(a, b))


def _naive_pair(a, b, distance):
    """Algorithm 4 for one pair of annotations (sliding alignment when lengths differ)."""
    if len(a) == len(b):
        return Fraction(_naive_distance(a, b, distance), len(a))
    short, long = sorted((a, b), key=len)
    windows = [long[k:k + len(short)] for k in range(len(long) - len(short) + 1)]
    return sum(Fraction(_naive_distance(short, w, distance), len(short)) for w in windows) / len(windows)


def _naive_alpha(items, distance):
    q = len(items)
    within = sum(
        sum(_naive_pair(a, b, distance) for a, b in itertools.permutations(vectors, 2))
        / (len(vectors) * (len(vectors) - 1))
        for vectors in items.values()
    ) / (2 * q)
    everything = [v for vectors in items.values() for v in vectors]
    n = len(everything)
    between = sum(_naive_pair(a, b, distance) for a, b in itertools.permutations(everything, 2)) / (2 * n * (n - 1))
    return within, between


@pytest.mark.parametrize("distance", ["d1", "d2"])
@pytest.mark.parametrize("seed", range(6))
def test_matches_naive_algorithms_on_random_data(seed, distance):
    rng = random.Random(seed)
    items = {}
    for k in range(rng.randint(2, 7)):
        words = rng.randint(2, 9)
        items[f"q{k}"] = [[rng.randint(0, 3) for _ in range(words - 1)] for _ in range(rng.randint(2, 5))]
    within, between = _naive_alpha(items, distance)
    result = segmentation_alpha(items, distance=distance)
    assert result["within_variance"] == pytest.approx(float(within), rel=1e-12, abs=1e-15)
    assert result["between_variance"] == pytest.approx(float(between), rel=1e-12)
    assert result["alpha"] == pytest.approx(float(1 - within / between), rel=1e-9, abs=1e-12)


def test_invariant_to_item_and_annotation_order():
    def numbers(result):
        return [result[key] for key in ("alpha", "within_variance", "between_variance", "n_items", "n_annotations")]

    reference = numbers(segmentation_alpha(TOY))
    shuffled = {Q2: TOY[Q2][::-1], Q1: [TOY[Q1][2], TOY[Q1][0], TOY[Q1][1]]}
    assert numbers(segmentation_alpha(shuffled)) == pytest.approx(reference, rel=1e-12)
    assert numbers(segmentation_alpha([TOY[Q1], TOY[Q2]])) == pytest.approx(reference, rel=1e-12)  # a list


def test_identical_annotations_per_item_give_alpha_one():
    data = {"a": [[1, 0, 1]] * 4, "b": [[0, 2, 0, 1]] * 3}
    result = segmentation_alpha(data)
    assert result["within_variance"] == 0.0 and result["alpha"] == 1.0


def test_all_identical_everywhere_gives_none_with_reason():
    result = segmentation_alpha({"a": [[1, 0]] * 2, "b": [[1, 0]] * 3})
    assert result["alpha"] is None and result["between_variance"] == 0.0
    assert "between variance is 0" in result["warnings"][0]
    json.dumps(result, allow_nan=False)


def test_unpairable_items_are_left_out_with_a_warning():
    with_single = {**TOY, "alone": [[1, 1, 1, 1, 1]], "one word": [[], []]}
    result = segmentation_alpha(with_single)
    assert result == {**segmentation_alpha(TOY), "warnings": result["warnings"]}
    assert len(result["warnings"]) == 2
    assert "item 'alone' left out: 1 annotation(s)" in result["warnings"][0]
    assert "item 'one word' left out: empty boundary vectors" in result["warnings"][1]
    nothing = segmentation_alpha({"alone": [[1, 0]]})
    assert nothing["alpha"] is None and nothing["n_items"] == 0
    json.dumps(nothing, allow_nan=False)


@pytest.mark.parametrize(
    ("items", "kwargs", "message"),
    [
        ({"q1": [[1, 0, 2], [0, 1]]}, {},
         "item 'q1': inconsistent boundary vector lengths: annotation 1 has 2 values but annotation 0 has 3"),
        (TOY, {"distance": "d3"}, r"distance must be one of \('d1', 'd2'\), got 'd3'"),
        ({}, {}, "empty input: no items"),
        ({"q": ["1020", "0102"]}, {}, "item 'q': annotation 0 is a string"),
        ({"q": [[1, -1], [0, 0]]}, {}, "item 'q': annotation 0 has negative or non-finite values"),
        ({"q": [[1, float("nan")], [0, 0]]}, {}, "item 'q': annotation 0 has negative or non-finite values"),
        ({"q": [[1, "a"], [0, 0]]}, {}, "item 'q': annotation 0 is not a vector of numbers"),
        ({"q": 3}, {}, "item 'q': expected a list of boundary vectors"),
        ("1020", {}, "items must map each item id"),
    ],
)
def test_bad_items(items, kwargs, message):
    with pytest.raises(ValueError, match=message):
        segmentation_alpha(items, **kwargs)


# ---------------------------------------------------------------------------------------------
# entailment (Algorithm 7), checked against explicit trees


def _tree_vector_and_nodes(tree, start=0):
    """A nested segmentation as a tree of word counts, e.g. ((1, 1), (1, 1)).

    Returns (words, boundary vector with the height of each split, set of node spans). Leaves are
    integers (a leaf of k words has k - 1 unsplit positions, value 0).
    """
    if isinstance(tree, int):
        return tree, [0] * (tree - 1), {(start, start + tree)}
    children = []
    position = start
    for child in tree:
        children.append(_tree_vector_and_nodes(child, position))
        position += children[-1][0]
    height = 1 + max((max(v) if v else 0) for _, v, _ in children)
    vector, nodes = [], {(start, position)}
    for k, (_, child_vector, child_nodes) in enumerate(children):
        if k:
            vector.append(height)
        vector += child_vector
        nodes |= child_nodes
    return position - start, vector, nodes


def _flat_segments(flat):
    cuts = [0] + [k + 1 for k, b in enumerate(flat) if b] + [len(flat) + 1]
    return list(zip(cuts, cuts[1:]))


# depth 3, binary down to single words: "a b c d e f g h"
DEPTH_3 = (((1, 1), (1, 1)), ((1, 1), (1, 1)))
# depth 4, unbalanced, with a two-word leaf ("salary cap")
DEPTH_4 = ((1, ((1, 1), 1)), 2)


def test_tree_encoding_is_the_supplements():
    assert _tree_vector_and_nodes(DEPTH_3)[1] == [1, 2, 1, 3, 1, 2, 1]
    assert _tree_vector_and_nodes(((1, 2), 2))[1] == [1, 0, 2, 0]  # Q1's 1020


@pytest.mark.parametrize(
    ("flat", "expected"),
    [
        ([0, 0, 0, 0, 0, 0, 0], True),  # the root as one segment
        ([0, 0, 0, 1, 0, 0, 0], True),  # the two depth-1 subtrees
        ([0, 1, 0, 1, 0, 0, 0], True),
        ([1, 1, 0, 1, 0, 1, 0], True),
        ([1, 1, 1, 1, 1, 1, 1], True),  # every word
        ([0, 1, 0, 0, 0, 0, 0], False),  # a depth-2 split without the root split
        ([0, 0, 0, 1, 1, 0, 0], False),  # e | f g h: splits a node below an unsplit one
        ([1, 0, 0, 1, 0, 0, 0], False),  # a | b c d is no node
        ([0, 0, 0, 0, 0, 0, 1], False),
    ],
)
def test_entails_depth_three(flat, expected):
    assert entails(flat, [1, 2, 1, 3, 1, 2, 1]) is expected


@pytest.mark.parametrize("tree", [DEPTH_3, (((1, 1), 1), (1, (1, (1, 1)))), ((((1, 1), 1), 1), 1)])
def test_entails_iff_every_flat_segment_is_a_node(tree):
    """Trees split down to single words: entailment = each flat segment is a subtree (all 2^n)."""
    words, nested, nodes = _tree_vector_and_nodes(tree)
    assert max(nested) >= 3 and 0 not in nested
    outcomes = set()
    for flat in itertools.product((0, 1), repeat=words - 1):
        expected = all(segment in nodes for segment in _flat_segments(flat))
        assert entails(list(flat), nested) is expected, flat
        outcomes.add(expected)
    assert outcomes == {True, False}


def test_entails_with_leaf_segments():
    words, nested, _ = _tree_vector_and_nodes(DEPTH_4)
    assert nested == [3, 1, 2, 4, 0]  # a | ((b c) d), then the leaf (e f)
    assert entails([0, 0, 0, 1, 0], nested)  # (a b c d) (e f)
    assert entails([1, 0, 1, 1, 0], nested)
    assert not entails([0, 0, 1, 0, 0], nested)  # a b c | d e f ignores the root split
    assert not entails([0, 1, 0, 1, 0], nested)  # a b | c d ignores the split at a
    # positions inside a leaf (nested 0) are not checked, as in Algorithm 7's pseudocode
    assert entails([0, 0, 0, 1, 1], nested)
    assert entails([0, 0, 1, 0], [1, 0, 2, 0]) and not entails([1, 0, 0, 0], [1, 0, 2, 0])


def test_entails_trivial_and_bad_input():
    assert entails([], []) and entails([1], [0]) and entails([0], [5])
    with pytest.raises(ValueError, match="flat has 2 boundary values but nested has 3"):
        entails([0, 1], [1, 2, 3])
    with pytest.raises(ValueError, match="flat boundary values must be 0 or 1"):
        entails([0, 2], [1, 2])
    with pytest.raises(ValueError, match="nested boundary values must be non-negative numbers"):
        entails([0, 1], [1, -2])


# ---------------------------------------------------------------------------------------------
# BIO tags -> flat boundary vectors


@pytest.mark.parametrize(
    ("tags", "expected"),
    [
        (["O", "B-PER", "I-PER", "O", "O", "B-LOC", "B-LOC"], [1, 0, 1, 0, 1, 1]),
        (["B-PER", "I-PER", "I-PER"], [0, 0]),
        (["O", "O", "O"], [0, 0]),
        (["B-PER", "B-LOC", "I-LOC", "O"], [1, 0, 1]),
        (["I-PER", "I-LOC"], [1]),  # conlleval chunker: I- after another type starts an entity
        (["O"], []),
        ([], []),
    ],
)
def test_boundaries_from_tags(tags, expected):
    assert boundaries_from_tags(tags) == expected


def test_boundaries_from_tags_strict_and_errors():
    assert boundaries_from_tags(["S-X", "B-Y", "E-Y", "O"], mode="strict", scheme="IOBES") == [1, 0, 1]
    with pytest.raises(ValueError, match="position 1: the tag is an empty string"):
        boundaries_from_tags(["O", ""])
    with pytest.raises(ValueError, match="tags must be a list of tags, not a string"):
        boundaries_from_tags("O B-PER")
    with pytest.raises(ValueError, match="mode should be None"):
        boundaries_from_tags(["O"], mode="lenient")


def test_boundary_vectors_from_tags_feed_segmentation_alpha():
    annotators = [["B-X", "I-X", "O", "B-Y"], ["B-X", "O", "O", "B-Y"], ["B-X", "I-X", "O", "B-Y"]]
    vectors = [boundaries_from_tags(tags) for tags in annotators]
    assert vectors == [[0, 1, 1], [1, 0, 1], [0, 1, 1]]
    result = segmentation_alpha({"s1": vectors, "s2": [[0, 1], [1, 1]]}, distance="d1")
    assert 0 < result["within_variance"] and result["alpha"] is not None


# ---------------------------------------------------------------------------------------------
# the released JSON format (supplement, section 2)


def _released(annotation_set, items=None, key="annotation_set"):
    return json.dumps({"items": len(annotation_set) if items is None else items, key: annotation_set})


def test_load_released_json_reproduces_the_worked_example(tmp_path):
    path = tmp_path / "toy_nested.json"
    path.write_text(_released({
        Q1: {"1": "1020", "2": "0102", "3": "2010"},
        Q2: {"1": "01020", "2": "02010"},
    }))
    items = load_segmentation_json(path)
    assert items == TOY
    assert round(segmentation_alpha(items)["alpha"], 4) == 0.0353
    assert load_segmentation_json(str(path)) == TOY
    assert chance_agreement.load_segmentation_json is load_segmentation_json


def test_load_accepts_lists_separated_values_and_file_objects():
    text = _released({"q a b": [[1, 0], "0 12", "1,0"]}, items=["q a b"], key="annotations")
    assert load_segmentation_json(io.StringIO(text)) == {"q a b": [[1, 0], [0, 12], [1, 0]]}
    other_key = json.dumps({"items": 1, "Q500": {"x y": {"a": "1"}}})
    assert load_segmentation_json(io.StringIO(other_key)) == {"x y": [[1]]}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not valid JSON"),
        (json.dumps([1, 2]), "expected a JSON object with keys 'items' and the annotation set"),
        (json.dumps({"items": 2, "annotation_set": {"q": {"1": "10"}}}), "'items' says 2 items but the annotation set has 1"),
        (json.dumps({"items": ["p"], "annotation_set": {"q": {"1": "10"}}}), "'items' lists other items"),
        (json.dumps({"items": 1, "annotation_set": {"q": {"1": "1x"}}}), r"item 'q': annotation '1x' is not a boundary vector"),
        (json.dumps({"items": 1, "annotation_set": {"q": {"1": [1, True]}}}), "item 'q': annotation .* is not a boundary vector"),
        (json.dumps({"items": 1, "a": {}, "b": {}}), "cannot tell the annotation set key"),
        (json.dumps({"items": 1, "annotation_set": [1]}), "the annotation set 'annotation_set' must be a JSON object"),
    ],
)
def test_load_bad_files(text, message):
    with pytest.raises(ValueError, match=message):
        load_segmentation_json(io.StringIO(text))


# ---------------------------------------------------------------------------------------------
# the histogram kernel against the former one (a sort per sliding window), issue 11


def _former_alpha(items, distance="d2"):
    """The former implementation: for every pair of lengths and every window, one sort."""
    import numpy as np

    def abs_sum(x, y):
        y = np.sort(y)
        prefix = np.concatenate(([0.0], np.cumsum(y)))
        below = np.searchsorted(y, x)
        return float((x * below - prefix[below] + (prefix[-1] - prefix[below]) - x * (len(y) - below)).sum())

    vectors = {k: np.array(v, dtype=float) for k, v in items.items() if len(v) >= 2 and len(v[0])}
    if distance == "d2":
        vectors = {k: m**2 for k, m in vectors.items()}
    within = sum(
        sum(abs_sum(m[:, t], m[:, t]) for t in range(m.shape[1])) / m.shape[1] / (m.shape[0] * (m.shape[0] - 1))
        for m in vectors.values()
    ) / (2 * len(vectors))
    groups = {}
    for m in vectors.values():
        groups.setdefault(m.shape[1], []).append(m)
    groups = {length: np.vstack(parts) for length, parts in sorted(groups.items())}
    lengths, total = list(groups), 0.0
    for i, a in enumerate(lengths):
        for b in lengths[i:]:
            windows = b - a + 1
            pair = sum(abs_sum(groups[a][:, t], groups[b][:, k + t]) for k in range(windows) for t in range(a))
            total += (1 if a == b else 2) * pair / a / windows
    n = sum(m.shape[0] for m in vectors.values())
    between = total / (2 * n * (n - 1))
    return within, between


def _conll_items(conll_systems, count):
    references, systems = conll_systems
    predictions = systems["CnonWrand_lstmCrf_7849"]
    return {i: [boundaries_from_tags(r), boundaries_from_tags(p)]
            for i, (r, p) in enumerate(zip(references[:count], predictions[:count]))}


def test_histogram_kernel_matches_the_former_one_on_conll(conll_systems):
    items = _conll_items(conll_systems, 120)
    within, between = _former_alpha(items)
    result = segmentation_alpha(items)
    assert result["within_variance"] == pytest.approx(within, rel=1e-12)
    assert result["between_variance"] == pytest.approx(between, rel=1e-12)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("distance", ["d1", "d2"])
def test_histogram_kernel_matches_the_former_one_on_random_levels(seed, distance):
    rng = random.Random(seed)
    items = {
        f"q{k}": [[rng.choice([0, 0, 1, 2, 3.5]) for _ in range(words)] for _ in range(rng.randint(2, 4))]
        for k, words in enumerate(rng.randint(1, 25) for _ in range(20))
    }
    within, between = _former_alpha(items, distance)
    result = segmentation_alpha(items, distance=distance)
    assert result["within_variance"] == pytest.approx(within, rel=1e-12)
    assert result["between_variance"] == pytest.approx(between, rel=1e-12)


# ---------------------------------------------------------------------------------------------
# long vectors and extreme values (issue 10 items 5 and 6)


def test_long_vectors_of_10000_and_20000_values():
    rng = random.Random(5)
    long_a = [rng.randint(0, 1) for _ in range(10_000)]
    long_b = [rng.randint(0, 1) for _ in range(20_000)]
    result = segmentation_alpha({"a": [long_a, long_a], "b": [long_b, long_b]}, distance="d1")
    # identical annotations within each item: within 0, alpha 1; between from the two lengths
    assert result["within_variance"] == 0.0 and result["alpha"] == 1.0
    assert result["between_variance"] > 0


def test_too_many_distinct_values_are_refused_up_front():
    rng = random.Random(6)
    items = {"a": [[rng.random() for _ in range(10_000)] for _ in range(2)],
             "b": [[rng.random() for _ in range(20_000)] for _ in range(2)]}
    with pytest.raises(ValueError, match="input too large for segmentation_alpha: 60000 distinct boundary values"):
        segmentation_alpha(items)


@pytest.mark.parametrize("distance", ["d1", "d2"])
@pytest.mark.parametrize("scale", [1e-200, 1e100])
def test_huge_and_tiny_boundary_values_keep_alpha(scale, distance):
    reference = segmentation_alpha(TOY, distance=distance)
    scaled = segmentation_alpha({k: [[x * scale for x in v] for v in vs] for k, vs in TOY.items()}, distance=distance)
    assert scaled["alpha"] == pytest.approx(reference["alpha"], rel=1e-12)
    power = 1 if distance == "d1" else 2
    assert scaled["between_variance"] == pytest.approx(reference["between_variance"] * scale**power, rel=1e-12)


def test_boundary_values_of_1e200_with_d2_are_a_clear_error():
    big = {k: [[x * 1e200 for x in v] for v in vs] for k, vs in TOY.items()}
    assert segmentation_alpha(big, distance="d1")["alpha"] == pytest.approx(segmentation_alpha(TOY, distance="d1")["alpha"])
    with pytest.raises(ValueError, match="boundary values too large: the variances overflow"):
        segmentation_alpha(big, distance="d2")
