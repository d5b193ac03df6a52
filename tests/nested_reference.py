"""The nested scorer as it was before issue 24 (3a), kept as the oracle of the fast one.

Quadratic in spans per sentence and label (pairwise overlaps), one convolution per parent, a
rescan for same-extent siblings: slow, but a direct reading of the model. ``tests/test_nested_f1.py``
checks the fast ``nested_statistics`` and ``build_forest`` against these on random forests.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from chance_agreement.chance.corrected_f1 import checked_levels
from chance_agreement.chance.statistics import FIELDS, LEVELS, ChanceStatistics
from chance_agreement._numerics.exact_sum import exact_dot, ordered_convolve
from chance_agreement.chance.random_models import RandomModel, get_model
from chance_agreement.spans.nested import Node, check_lengths, check_span_lists

__all__ = ["reference_build_forest", "reference_nested_statistics"]

_TP, _PRED, _TRUE, _OVERLAP, _EXP_OVERLAP, _ANNOTATED, _EXP_MATCHES = (
    FIELDS.index(name) for name in (
        "true_positives", "predicted", "actual", "overlap", "expected_overlap", "annotated_tokens",
        "expected_matches",
    )
)


def reference_build_forest(spans: Sequence[TokenSpan], where: str = "spans") -> list[Node]:
    """The forest of one sentence's checked spans, sorted by ``(start, -end, label)``.

    Crossing spans and repeated spans raise ValueError naming ``where`` and the spans.
    """
    ordered = sorted(spans, key=lambda span: (span[0], -span[1], span[2]))
    nodes: list[Node] = []
    open_: list[int] = []  # indices of the spans that contain the current position, outermost first
    for start, end, label in ordered:
        while open_ and nodes[open_[-1]].end <= start:
            open_.pop()
        if not open_:
            nodes.append(Node(start, end, label, 0, None))
            open_.append(len(nodes) - 1)
            continue
        top = nodes[open_[-1]]
        if end > top.end:
            raise ValueError(
                f"{where}: spans {(top.start, top.end, top.label)!r} and {(start, end, label)!r} cross "
                f"(they share tokens but neither contains the other)"
            )
        if (start, end) == (top.start, top.end):
            # a sibling with the same extent: the previous spans with this extent are all in the forest
            twins = [nodes[i] for i in range(len(nodes)) if (nodes[i].start, nodes[i].end) == (start, end)]
            if any(twin.label == label for twin in twins):
                raise ValueError(f"{where}: span {(start, end, label)!r} is given twice")
            nodes.append(Node(start, end, label, top.depth, top.parent))
            continue  # children go to the first twin, which stays open
        nodes.append(Node(start, end, label, top.depth + 1, open_[-1]))
        open_.append(len(nodes) - 1)
    return nodes



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


def _layers(forest: list[Node], n: int, model: RandomModel, with_starts: bool) -> dict[tuple[int, str], _Layer]:
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
        coverage = model.coverage(region, lengths)
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
            relative = model.start_distribution(region, tuple(others), length)
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
                vector[_EXP_OVERLAP] = model.expected_overlap(n, lengths_a, lengths_b)
                if with_matches:
                    vector[_EXP_MATCHES] = model.expected_matches(n, lengths_a, lengths_b)
            else:
                vector[_EXP_OVERLAP] = exact_dot(a.coverage, b.coverage)
                if with_matches:  # else 0: the statistics record that only the token level was computed
                    vector[_EXP_MATCHES] = _expected_matches(a, b)
        per_type[label] = vector
    marks_a, marks_b = _token_labels(forest_a, depth), _token_labels(forest_b, depth)
    wrong = sum(marks_a.get(t) != marks_b.get(t) for t in marks_a.keys() | marks_b.keys())
    return ChanceStatistics(per_type, n - wrong, n, model.name, levels)


def reference_nested_statistics(predictions, references, lengths, *, model="non_overlapping", levels=LEVELS) -> list[ChanceStatistics]:
    """Corpus statistics of every depth, ``[depth 0, depth 1, ...]`` (see the module docstring).

    ``predictions`` and ``references``: per sentence, lists of ``(start, end, label)`` token spans
    (half-open); ``lengths``: the number of tokens of each sentence.
    """
    levels = checked_levels(levels)
    model = get_model(model)
    lengths = check_lengths(lengths)
    forests_a = [reference_build_forest(s) for s in check_span_lists(predictions, lengths, "predictions")]
    forests_b = [reference_build_forest(s) for s in check_span_lists(references, lengths, "references")]
    depth_count = 1 + max((node.depth for forest in forests_a + forests_b for node in forest), default=0)
    totals = [ChanceStatistics() for _ in range(depth_count)]
    with_matches = "entity" in levels
    for n, forest_a, forest_b in zip(lengths, forests_a, forests_b):
        layers_a = _layers(forest_a, n, model, with_matches)
        layers_b = _layers(forest_b, n, model, with_matches)
        for depth in range(depth_count):
            totals[depth] = totals[depth] + _sentence_depth(n, depth, layers_a, layers_b, forest_a, forest_b, model, levels)
    return totals
