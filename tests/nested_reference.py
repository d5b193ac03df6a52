"""The nested model from its definition, in exact fractions: the oracle of the fast nested scorer.

Written from the model, not from ``chance_agreement.spans.nested`` or ``chance_agreement.chance.nested_f1``
(issue 33 asked for an oracle that is not a copy of the code it checks):

- ``reference_build_forest`` reads the forest off its definition, span by span: a span's depth is the
  number of distinct extents that strictly contain it, its parent the first span (in ``(start, -end,
  label)`` order) of the innermost of those extents; two spans cross when they share tokens and neither
  contains the other. Quadratic, declarative, no stack.
- ``reference_nested_statistics`` places every ``(parent, label)`` group of an annotator's forest at
  random inside its parent (the whole sentence for the roots), independently given the parent's start:
  a member's start law inside its region is ``oracles_random_model.exact_start`` (the closed Proposition-3
  sum in integers) under the non-overlapping model and uniform under the overlapping one, and its law in
  the sentence is that law shifted by the parent's start, summed over the parent's law. Then, per depth
  and label, ``E[overlap] = sum_t c_a(t) c_b(t)`` with ``c(t)`` the expected number of spans covering
  token ``t`` and ``E[matches] = sum over same-length pairs of sum_l P_a(l) P_b(l)``, all as Fractions,
  rounded once at the end.

``tests/test_nested_f1.py`` checks the fast ``nested_statistics`` and ``build_forest`` against these on
random forests, and these against the brute-force enumeration of every placement on tiny sentences.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from functools import lru_cache

import numpy as np

from chance_agreement.chance.random_models import get_model
from chance_agreement.chance.statistics import ACTUAL, ANNOTATED_TOKENS, EXPECTED_MATCHES, EXPECTED_OVERLAP, FIELDS
from chance_agreement.chance.statistics import LEVELS, OVERLAP, PREDICTED, TRUE_POSITIVES, ChanceStatistics
from chance_agreement.spans.nested import Node, check_lengths, check_span_lists
from oracles_random_model import exact_start

__all__ = ["reference_build_forest", "reference_nested_statistics"]


def reference_build_forest(spans, where: str = "spans") -> list[Node]:
    """The forest of one sentence's spans, from the definition (see the module docstring)."""
    ordered = sorted(spans, key=lambda span: (span[0], -span[1], span[2]))
    nodes: list[Node] = []
    for index, (start, end, label) in enumerate(ordered):
        # the earlier spans that hold this span's first token: all of them contain it unless two cross
        holding = [i for i in range(index) if ordered[i][0] <= start < ordered[i][1]]
        if not holding:
            nodes.append(Node(start, end, label, 0, None))
            continue
        inner_start, inner_end = max((ordered[i][0], -ordered[i][1]) for i in holding)
        first_inner = min(i for i in holding if (ordered[i][0], ordered[i][1]) == (inner_start, -inner_end))
        if end > -inner_end:
            top = ordered[first_inner]
            raise ValueError(
                f"{where}: spans {tuple(top)!r} and {(start, end, label)!r} cross "
                f"(they share tokens but neither contains the other)"
            )
        if (start, end, label) in {tuple(ordered[i]) for i in holding}:
            raise ValueError(f"{where}: span {(start, end, label)!r} is given twice")
        strictly = [i for i in holding if (ordered[i][0], ordered[i][1]) != (start, end)]
        depth = len({(ordered[i][0], ordered[i][1]) for i in strictly})
        parent = None
        if strictly:
            parent_extent = max((ordered[i][0], -ordered[i][1]) for i in strictly)
            parent = min(i for i in strictly if (ordered[i][0], -ordered[i][1]) == parent_extent)
        nodes.append(Node(start, end, label, depth, parent))
    return nodes


@lru_cache(maxsize=None)
def _relative_start(region: int, lengths: tuple[int, ...], length: int, overlapping: bool) -> tuple[Fraction, ...]:
    """``P(start = l)`` inside a region of ``region`` tokens of one segment of ``length`` in a group of
    ``lengths`` (the segment included), exactly."""
    support = region - length + 1
    if overlapping or len(lengths) == 1:
        return (Fraction(1, support),) * support
    ordered = sorted(lengths)
    ordered.remove(length)
    return tuple(exact_start(region, [*ordered, length], len(ordered)))


def _absolute_starts(forest: list[Node], n: int, overlapping: bool) -> list[dict[int, Fraction]]:
    """Each node's start law in the sentence: ``{start: probability}``."""
    groups: dict[tuple[int | None, str], list[int]] = defaultdict(list)
    for index, node in enumerate(forest):
        groups[(node.parent, node.label)].append(index)
    laws: list[dict[int, Fraction]] = [{} for _ in forest]
    for index, node in enumerate(forest):  # a parent precedes its children in forest order
        members = groups[(node.parent, node.label)]
        region = n if node.parent is None else forest[node.parent].end - forest[node.parent].start
        lengths = tuple(forest[i].end - forest[i].start for i in members)
        relative = _relative_start(region, lengths, node.end - node.start, overlapping)
        offsets = {0: Fraction(1)} if node.parent is None else laws[node.parent]
        law: dict[int, Fraction] = defaultdict(Fraction)
        for offset, weight in offsets.items():
            for start, probability in enumerate(relative):
                law[offset + start] += weight * probability
        laws[index] = dict(law)
    return laws


def _layer_terms(forest, laws, depth: int, label: str, n: int):
    """The spans, their lengths, the coverage ``c(t)`` and the start laws of one depth and label."""
    members = [i for i, node in enumerate(forest) if node.depth == depth and node.label == label]
    coverage = [Fraction(0)] * n
    for i in members:
        length = forest[i].end - forest[i].start
        for start, probability in laws[i].items():
            for t in range(start, start + length):
                coverage[t] += probability
    return members, coverage


def _marks(forest, depth: int, n: int) -> list[frozenset]:
    """Per token, the ``(label, "B" or "I")`` marks of the depth-``depth`` spans covering it."""
    marks: list[set] = [set() for _ in range(n)]
    for node in forest:
        if node.depth == depth:
            for t in range(node.start, node.end):
                marks[t].add((node.label, "B" if t == node.start else "I"))
    return [frozenset(m) for m in marks]


def reference_nested_statistics(predictions, references, lengths, *, model="non_overlapping", levels=LEVELS) -> list[ChanceStatistics]:
    """Corpus statistics of every depth, ``[depth 0, depth 1, ...]`` (see the module docstring).

    ``predictions`` and ``references``: per sentence, lists of ``(start, end, label)`` token spans
    (half-open); ``lengths``: the number of tokens of each sentence.
    """
    levels = tuple(level for level in LEVELS if level in levels)
    name = get_model(model).name
    overlapping = name == "overlapping"
    lengths = check_lengths(lengths)
    forests_a = [reference_build_forest(s) for s in check_span_lists(predictions, lengths, "predictions")]
    forests_b = [reference_build_forest(s) for s in check_span_lists(references, lengths, "references")]
    depth_count = 1 + max((node.depth for forest in forests_a + forests_b for node in forest), default=0)
    totals = [ChanceStatistics() for _ in range(depth_count)]
    for n, forest_a, forest_b in zip(lengths, forests_a, forests_b, strict=True):
        laws_a, laws_b = _absolute_starts(forest_a, n, overlapping), _absolute_starts(forest_b, n, overlapping)
        for depth in range(depth_count):
            per_type = {}
            labels = {node.label for node in forest_a + forest_b if node.depth == depth}
            for label in sorted(labels):
                members_a, cover_a = _layer_terms(forest_a, laws_a, depth, label, n)
                members_b, cover_b = _layer_terms(forest_b, laws_b, depth, label, n)
                spans_a = [(forest_a[i].start, forest_a[i].end) for i in members_a]
                spans_b = [(forest_b[i].start, forest_b[i].end) for i in members_b]
                vector = np.zeros(len(FIELDS))
                vector[TRUE_POSITIVES] = len(set(spans_a) & set(spans_b))
                vector[PREDICTED], vector[ACTUAL] = len(spans_a), len(spans_b)
                vector[ANNOTATED_TOKENS] = sum(e - s for s, e in spans_a) + sum(e - s for s, e in spans_b)
                vector[OVERLAP] = sum(len(set(range(*a)) & set(range(*b))) for a in spans_a for b in spans_b)
                if spans_a and spans_b:
                    vector[EXPECTED_OVERLAP] = float(sum(x * y for x, y in zip(cover_a, cover_b, strict=True)))
                    if "entity" in levels:
                        matches = Fraction(0)
                        for i in members_a:
                            for j in members_b:
                                if forest_a[i].end - forest_a[i].start == forest_b[j].end - forest_b[j].start:
                                    matches += sum(p * laws_b[j].get(s, 0) for s, p in laws_a[i].items())
                        vector[EXPECTED_MATCHES] = float(matches)
                per_type[label] = vector
            marks_a, marks_b = _marks(forest_a, depth, n), _marks(forest_b, depth, n)
            wrong = sum(a != b for a, b in zip(marks_a, marks_b, strict=True))
            totals[depth] = totals[depth] + ChanceStatistics(per_type, n - wrong, n, name, levels)
    return totals
