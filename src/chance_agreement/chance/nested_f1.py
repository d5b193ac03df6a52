"""Chance-corrected F1 of nested annotations, layer by layer (the chance-F1 paper's extension:
"iteratively applying the same method layer by layer, ensuring compliance with the nested
structure").

Input: per sentence, each annotator's spans ``(start, end, label)`` over tokens (half-open), which
form a forest (``spans.nested``: a span strictly inside another is its descendant, crossing spans
are an error). The depth of a span is its number of ancestors.

**Random model.** Per sentence, annotator and label, the top-level spans (depth 0) keep their number
and lengths and are placed in the sentence by the flat model of ``random_model`` (non-overlapping
by default), exactly as ``chance_f1`` places them. The children of a span with a given label are
placed by the same model inside their parent (a text of the parent's length) and move with it;
grandchildren inside their parent, and so on. Different labels and different parents are
independent. So the start of a depth-``d`` span ``v`` with parent ``p`` has the distribution

    P(start_v = l) = sum_m P(start_p = m) P_rel(start_v - start_p = l - m)     (convolution)

and the coverage of a token ``t`` by the label-``y`` children of ``p`` is

    c(t) = sum_m P(start_p = m) c_rel(t - m),

``c_rel`` the flat coverage of Proposition 2/3 inside a text of ``len(p)`` tokens: expected
overlaps stay exact (Proposition 1: ``E[overlap] = sum_t c_A(t) c_B(t)``, the annotators being
independent) and cost one convolution per parent.

**Per depth.** At depth ``d`` the depth-``d`` spans of annotator A are compared with the depth-``d``
spans of annotator B of the same sentence and label, as ``chance_f1`` compares flat spans:

- token level: ``observed = 2 sum overlap / (a_A + a_B)``, ``chance = 2 sum_t c_A(t) c_B(t) / (a_A + a_B)``,
  sums over sentences and labels (``a`` = tokens in depth-``d`` spans, counted per span);
- entity level: ``observed = 2 TP / (k_A + k_B)`` (exact span matches),
  ``chance = 2 E[matches] / (k_A + k_B)``, ``E[matches] = sum over same-length pairs sum_l P_a(l) P_b(l)``;
- ``corrected = (observed - chance) / (1 - chance)``, the kappa form ``(A_o - A_e) / (1 - A_e)`` of the
  paper's introduction.

A depth-``d`` span of A is never paired with a span of B at another depth. **Pooled** scores add
every depth's sums (numerators and denominators, per label, then over labels) before dividing, so
they are the micro-average over all spans of all depths. With a single layer (flat input) depth 0
is ``chance_f1`` of the IOB2 tags of the spans, number for number, and so is the pooled result.

Seqeval's keys (precision, recall, f1, number per label; overall precision, recall, f1) count exact
matches at each depth (pooled: over all depths). ``overall_accuracy`` at depth ``d``: the share of
tokens whose depth-``d`` labels (label and begin/inside mark of each covering depth-``d`` span)
agree, no span on either side counting as agreement; for flat input that is IOB2 tag accuracy.
Pooled accuracy is the mean over depths.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from .corrected_f1 import FIELDS, LEVELS, ChanceStatistics, _checked_levels, scores_from_statistics
from .exact_sum import exact_dot, ordered_convolve
from .corrected_f1 import _expected_matches as flat_expected_matches
from .corrected_f1 import _expected_overlap as flat_expected_overlap
from .random_model import _check_model, _coverage, _start_distribution, sample_annotation
from ..spans.nested import Node, check_lengths, forests

_TP, _PRED, _TRUE, _OVERLAP, _EXP_OVERLAP, _ANNOTATED, _EXP_MATCHES = (
    FIELDS.index(name) for name in (
        "true_positives", "predicted", "actual", "overlap", "expected_overlap", "annotated_tokens",
        "expected_matches",
    )
)


class _Layer:
    """One annotator's spans of one depth and label in one sentence, with their chance distributions."""

    def __init__(self, n: int):
        self.spans: list[tuple[int, int]] = []
        self.coverage = None  # expected number of spans covering each token
        self.starts: dict[int, list[tuple[np.ndarray, int]]] = defaultdict(list)  # length -> [(P(start), count)]
        self.n = n

    def add_group(self, coverage: np.ndarray, starts: dict[int, np.ndarray], counts: dict[int, int]) -> None:
        self.coverage = coverage if self.coverage is None else self.coverage + coverage
        for length, distribution in starts.items():
            self.starts[length].append((distribution, counts[length]))

    def lengths(self) -> tuple[int, ...]:
        return tuple(sorted(end - start for start, end in self.spans))


def _layers(forest: list[Node], n: int, model: str, with_starts: bool) -> dict[tuple[int, str], _Layer]:
    """``(depth, label) -> _Layer`` of one annotator's forest in a sentence of ``n`` tokens."""
    groups: dict[tuple[int | None, str], list[int]] = defaultdict(list)  # (parent, label) -> nodes
    for index, node in enumerate(forest):
        groups[(node.parent, node.label)].append(index)
    parents = {node.parent for node in forest}
    absolute: dict[int, np.ndarray] = {}  # node -> distribution of its start in the sentence
    layers: dict[tuple[int, str], _Layer] = {}
    # parents sort before their children (forest order), so their start distributions are known
    for (parent, label), members in sorted(groups.items(), key=lambda item: item[1][0]):
        region = n if parent is None else forest[parent].length
        lengths = tuple(sorted(forest[i].length for i in members))
        depth = forest[members[0]].depth
        layer = layers.setdefault((depth, label), _Layer(n))
        layer.spans.extend((forest[i].start, forest[i].end) for i in members)
        coverage = _coverage(region, lengths, model)
        if parent is not None:
            coverage = ordered_convolve(absolute[parent], coverage)
        starts, counts = {}, {}
        needed = {forest[i].length for i in members if with_starts or i in parents}
        for length in sorted(set(lengths)):
            counts[length] = lengths.count(length)
            if length not in needed:
                continue
            others = list(lengths)
            others.remove(length)
            relative = _start_distribution(region, tuple(others), length, model)
            starts[length] = relative if parent is None else ordered_convolve(absolute[parent], relative)
        for i in members:
            if i in parents:
                absolute[i] = starts[forest[i].length]
        layer.add_group(coverage, starts if with_starts else {}, counts)
    return layers


def _overlap(spans_a, spans_b) -> int:
    """Tokens covered by a span of each list, counted once per pair of spans (Proposition 1's sum)."""
    return sum(max(0, min(end_a, end_b) - max(start_a, start_b)) for start_a, end_a in spans_a for start_b, end_b in spans_b)


def _expected_matches(first: _Layer, second: _Layer) -> float:
    """``sum over same-length pairs of sum_l P_a(l) P_b(l)``, grouped by identical distributions."""
    total = 0.0
    for length in set(first.lengths()) & set(second.lengths()):
        for start_a, count_a in first.starts[length]:
            for start_b, count_b in second.starts[length]:
                total += count_a * count_b * exact_dot(start_a, start_b)
    return total


def _token_labels(forest: list[Node], depth: int) -> dict[int, set]:
    """token -> its (label, "B" or "I") marks from the depth-``depth`` spans; tokens without any left out."""
    labels: dict[int, set] = defaultdict(set)
    for node in forest:
        if node.depth == depth:
            labels[node.start].add((node.label, "B"))
            for t in range(node.start + 1, node.end):
                labels[t].add((node.label, "I"))
    return labels


def _sentence_depth(n, depth, layers_a, layers_b, forest_a, forest_b, model, levels) -> ChanceStatistics:
    with_matches = "entity" in levels
    empty = _Layer(n)
    per_type = {}
    names = sorted({label for d, label in layers_a if d == depth} | {label for d, label in layers_b if d == depth})
    for label in names:
        a = layers_a.get((depth, label), empty)
        b = layers_b.get((depth, label), empty)
        vector = np.zeros(len(FIELDS))
        vector[_TP] = len(set(a.spans) & set(b.spans))
        vector[_PRED] = len(a.spans)
        vector[_TRUE] = len(b.spans)
        vector[_ANNOTATED] = sum(a.lengths()) + sum(b.lengths())
        if a.spans and b.spans:
            vector[_OVERLAP] = _overlap(a.spans, b.spans)
            if depth == 0:  # the flat model: the very functions of chance_f1, to the last bit
                lengths_a, lengths_b = tuple(sorted(a.lengths())), tuple(sorted(b.lengths()))
                vector[_EXP_OVERLAP] = flat_expected_overlap(n, lengths_a, lengths_b, model)
                if with_matches:
                    vector[_EXP_MATCHES] = flat_expected_matches(n, lengths_a, lengths_b, model)
            else:
                vector[_EXP_OVERLAP] = exact_dot(a.coverage, b.coverage)
                if with_matches:  # else 0: the statistics record that only the token level was computed
                    vector[_EXP_MATCHES] = _expected_matches(a, b)
        per_type[label] = vector
    marks_a, marks_b = _token_labels(forest_a, depth), _token_labels(forest_b, depth)
    wrong = sum(marks_a.get(t) != marks_b.get(t) for t in marks_a.keys() | marks_b.keys())
    return ChanceStatistics(per_type, n - wrong, n, model, levels)


def nested_statistics(predictions, references, lengths, *, model="non_overlapping", levels=LEVELS) -> list[ChanceStatistics]:
    """Corpus statistics of every depth, ``[depth 0, depth 1, ...]`` (see the module docstring).

    ``predictions`` and ``references``: per sentence, lists of ``(start, end, label)`` token spans
    (half-open); ``lengths``: the number of tokens of each sentence.
    """
    levels = _checked_levels(levels)
    _check_model(model)
    lengths = check_lengths(lengths)
    forests_a = forests(predictions, lengths, "predictions")
    forests_b = forests(references, lengths, "references")
    depth_count = 1 + max((node.depth for forest in forests_a + forests_b for node in forest), default=0)
    totals = [ChanceStatistics() for _ in range(depth_count)]
    with_matches = "entity" in levels
    for n, forest_a, forest_b in zip(lengths, forests_a, forests_b):
        layers_a = _layers(forest_a, n, model, with_matches)
        layers_b = _layers(forest_b, n, model, with_matches)
        for depth in range(depth_count):
            totals[depth] = totals[depth] + _sentence_depth(n, depth, layers_a, layers_b, forest_a, forest_b, model, levels)
    return totals


def nested_chance_f1(
    predictions, references, lengths, *, zero_division="warn", model: str = "non_overlapping", level: str = "token"
) -> dict:
    """Observed, chance and corrected F1 of nested span annotations, pooled and per depth.

    Returns the pooled scores with the keys of ``chance_f1`` (seqeval's keys plus
    ``overall_observed_f1``, ``overall_chance_f1``, ``overall_corrected_f1`` and per-label dicts)
    and ``"depths"``: a list with a dict of the same keys for every depth, outermost first.
    Flat input (no span inside another) gives ``chance_f1`` of its IOB2 tags for both.
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {list(LEVELS)}, got {level!r}")
    depths = nested_statistics(predictions, references, lengths, model=model, levels=(level,))
    pooled = sum(depths[1:], depths[0])  # adds the per-label sums, correct and total tokens
    result = scores_from_statistics(pooled, level, zero_division)
    result["depths"] = [scores_from_statistics(stats, level, zero_division) for stats in depths]
    return result


def sample_nested_annotation(forest: list[Node], n: int, rng=None, model: str = "non_overlapping") -> list[tuple[int, int, str, int]]:
    """One draw of the nested random model: ``(start, end, label, depth)`` for every node, in order.

    Top-level spans of each label by ``sample_annotation`` in the sentence, then each parent's
    children of each label by ``sample_annotation`` inside the parent, shifted by its start.
    """
    rng = np.random.default_rng(rng)
    groups: dict[tuple[int | None, str], list[int]] = defaultdict(list)
    for index, node in enumerate(forest):
        groups[(node.parent, node.label)].append(index)
    placed: dict[int, int] = {}
    for (parent, _), members in sorted(groups.items(), key=lambda item: item[1][0]):
        region = n if parent is None else forest[parent].length
        offset = 0 if parent is None else placed[parent]
        starts = sample_annotation(region, [forest[i].length for i in members], rng, model)
        for i, start in zip(members, starts):
            placed[i] = offset + int(start)
    return [(placed[i], placed[i] + node.length, node.label, node.depth) for i, node in enumerate(forest)]


__all__ = ["nested_chance_f1", "nested_statistics", "sample_nested_annotation"]
