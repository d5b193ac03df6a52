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

from collections import Counter, defaultdict
from itertools import pairwise

import numpy as np

from .._numerics.exact_sum import exact_dot, ordered_convolve
from ..spans.annotation_set import AnnotationSet, as_pair
from ..spans.deprecation import renamed_keywords
from ..spans.nested import Node, check_lengths, forests
from .corrected_f1 import checked_levels, scores_from_statistics
from .random_models import RandomModel, get_model
from .statistics import (
    ACTUAL,
    ANNOTATED_TOKENS,
    EXPECTED_MATCHES,
    EXPECTED_OVERLAP,
    FIELDS,
    LEVELS,
    OVERLAP,
    PREDICTED,
    TRUE_POSITIVES,
    ChanceStatistics,
)


class _Layer:
    """One annotator's spans of one depth and label in one sentence, with their chance distributions.

    ``coverage`` (depth >= 1): the expected number of the layer's spans covering each token;
    ``starts`` (depth >= 1, entity level): per span length, the sum over the layer's spans of that
    length of their start distributions in the sentence. Both are computed when first asked for
    (a layer the other annotator has no span in never needs them), from the recorded parts:
    ``(parent kind, relative distribution)`` pairs placed by ``kinds``.
    """

    def __init__(self, kinds=None):
        self.spans: list[tuple[int, int]] = []
        self.kinds = kinds
        self.coverage_parts: list[tuple[int | None, np.ndarray]] = []
        self.start_parts: dict[int, list[tuple[int | None, np.ndarray]]] = defaultdict(list)
        self._coverage: np.ndarray | None = None

    def lengths(self) -> list[int]:
        return [end - start for start, end in self.spans]

    def _placed(self, parts) -> np.ndarray:
        total = None
        for parent_kind, relative in parts:
            placed = self.kinds.place(parent_kind, relative)
            total = placed.copy() if total is None else total + placed
        return total  # type: ignore[return-value]  # a layer asked for has parts

    @property
    def coverage(self) -> np.ndarray:
        if self._coverage is None:
            self._coverage = self._placed(self.coverage_parts)
        return self._coverage

    def starts(self, length: int) -> np.ndarray:
        return self._placed(self.start_parts[length])


class _Kinds:
    """Start distributions shared by many spans, computed once per kind.

    A node's *kind* is (its parent's kind, the signature of its group: region and sorted lengths,
    its length): its start in the sentence is the parent's start plus the flat model's start inside
    the region, so nodes of one kind have the same distribution (top-level nodes of one label and
    length share it, and so do their children of one label and length when their groups look
    alike). Sums over nodes are taken per kind first (``sum_i conv(P, c_i) = conv(P, sum_i c_i)``),
    so the work is one convolution per kind, not per parent. Kinds and signatures are numbered, so
    a long tuple of lengths is hashed once per group, never once per node.
    """

    def __init__(self, n: int, model: RandomModel):
        self.n, self.model = n, model
        self.signatures: dict[tuple[int, tuple[int, ...]], int] = {}  # (region, lengths) -> number
        self.regions: list[tuple[int, tuple[int, ...]]] = []
        self.numbers: dict[tuple[int | None, int, int], int] = {}  # (parent kind, signature, length) -> kind
        self.kinds: list[tuple[int | None, int, int]] = []
        self.absolute: dict[int, np.ndarray] = {}

    def signature(self, region: int, lengths: tuple[int, ...]) -> int:
        key = (region, lengths)
        if key not in self.signatures:
            self.signatures[key] = len(self.regions)
            self.regions.append(key)
        return self.signatures[key]

    def kind(self, parent: int | None, signature: int, length: int) -> int:
        key = (parent, signature, length)
        if key not in self.numbers:
            self.numbers[key] = len(self.kinds)
            self.kinds.append(key)
        return self.numbers[key]

    def relative(self, signature: int, length: int) -> np.ndarray:
        """The flat model's start distribution of a ``length`` segment of a group in its region."""
        region, lengths = self.regions[signature]
        others = list(lengths)
        others.remove(length)
        return self.model.start_distribution(region, tuple(others), length)

    def start(self, kind: int) -> np.ndarray:
        """P(start = l) in the sentence of every node of ``kind``."""
        if kind not in self.absolute:
            parent, signature, length = self.kinds[kind]
            self.absolute[kind] = self.place(parent, self.relative(signature, length))
        return self.absolute[kind]

    def place(self, parent: int | None, relative: np.ndarray) -> np.ndarray:
        """A distribution over a parent of ``parent`` kind moved into the sentence (a convolution)."""
        return relative if parent is None else ordered_convolve(self.start(parent), relative)


def _layers(forest: list[Node], n: int, model: RandomModel, with_starts: bool) -> dict[tuple[int, str], _Layer]:
    """``(depth, label) -> _Layer`` of one annotator's forest in a sentence of ``n`` tokens.

    Coverage and starts are only needed below the top (depth 0 uses the flat model's functions).
    Per (depth, label, parent kind) the relative coverages and starts are counted by group
    signature first, then summed and placed with one convolution.
    """
    groups: dict[tuple[int | None, str], list[int]] = defaultdict(list)  # (parent, label) -> nodes
    for index, node in enumerate(forest):
        groups[(node.parent, node.label)].append(index)
    kinds = _Kinds(n, model)
    kind_of: dict[int, int] = {}  # node -> its kind
    coverage_counts: dict[tuple, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    start_counts: dict[tuple, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    layers: dict[tuple[int, str], _Layer] = {}
    # parents sort before their children (forest order), so a parent's kind is known first
    for (parent, label), members in sorted(groups.items(), key=lambda item: item[1][0]):
        lengths = tuple(sorted(forest[i].length for i in members))
        signature = kinds.signature(n if parent is None else forest[parent].length, lengths)
        depth = forest[members[0]].depth
        layer = layers.setdefault((depth, label), _Layer(kinds))
        layer.spans.extend((forest[i].start, forest[i].end) for i in members)
        parent_kind = None if parent is None else kind_of[parent]
        by_length = {length: kinds.kind(parent_kind, signature, length) for length in set(lengths)}
        for i in members:
            kind_of[i] = by_length[forest[i].length]
        if depth and with_starts:
            for length, count in Counter(lengths).items():
                start_counts[(depth, label, parent_kind, length)][signature] += count
        if depth:
            coverage_counts[(depth, label, parent_kind)][signature] += 1
    for (depth, label, parent_kind), counts in coverage_counts.items():
        relative = sum(count * model.coverage(*kinds.regions[signature]) for signature, count in counts.items())
        layers[(depth, label)].coverage_parts.append((parent_kind, relative))  # type: ignore[arg-type]  # an array
    for (depth, label, parent_kind, length), counts in start_counts.items():
        relative = sum(count * kinds.relative(signature, length) for signature, count in counts.items())
        layers[(depth, label)].start_parts[length].append((parent_kind, relative))  # type: ignore[arg-type]  # an array
    return layers


def _overlap(spans_a, spans_b) -> int:
    """Tokens covered by a span of each list, counted once per pair of spans (Proposition 1's sum).

    The spans of one list never share a token (one depth, one label), so this is the size of the
    intersection of their unions: one merge of the two sorted lists.
    """
    first, second = sorted(spans_a), sorted(spans_b)
    total, i, j = 0, 0, 0
    while i < len(first) and j < len(second):
        (start_a, end_a), (start_b, end_b) = first[i], second[j]
        total += max(0, min(end_a, end_b) - max(start_a, start_b))
        if end_a <= end_b:
            i += 1
        else:
            j += 1
    return total


def _expected_matches(first: _Layer, second: _Layer) -> float:
    """``sum over same-length pairs of sum_l P_a(l) P_b(l)`` = per length the dot of the summed starts."""
    return sum(exact_dot(first.starts(length), second.starts(length))
               for length in sorted(first.start_parts.keys() & second.start_parts.keys()))


def _marks(forest: list[Node], depth: int) -> list[tuple[int, int, frozenset]]:
    """The depth-``depth`` extents of a forest, sorted, each with its labels (same-extent siblings merged)."""
    labels: dict[tuple[int, int], set] = defaultdict(set)
    for node in forest:
        if node.depth == depth:
            labels[(node.start, node.end)].add(node.label)
    return [(start, end, frozenset(names)) for (start, end), names in sorted(labels.items())]


def _disagreeing_tokens(first: list, second: list) -> int:
    """Tokens whose marks differ: a token's mark is (labels, first token or not) of the extent
    covering it, or none. The extents of one side are disjoint, so one sweep over the cut points
    (every start, start + 1 and end) compares constant stretches."""
    cuts = sorted({point for start, end, _ in first + second for point in (start, start + 1, end)})
    wrong, i, j = 0, 0, 0
    for left, right in pairwise(cuts):
        while i < len(first) and first[i][1] <= left:
            i += 1
        while j < len(second) and second[j][1] <= left:
            j += 1
        mark_a = (first[i][2], first[i][0] == left) if i < len(first) and first[i][0] <= left else None
        mark_b = (second[j][2], second[j][0] == left) if j < len(second) and second[j][0] <= left else None
        if mark_a != mark_b:
            wrong += right - left
    return wrong


def _sentence_depth(n, depth, layers_a, layers_b, forest_a, forest_b, model, levels) -> ChanceStatistics:
    with_matches = "entity" in levels
    empty = _Layer()
    per_type = {}
    names = sorted({label for d, label in layers_a if d == depth} | {label for d, label in layers_b if d == depth})
    for label in names:
        a = layers_a.get((depth, label), empty)
        b = layers_b.get((depth, label), empty)
        vector = np.zeros(len(FIELDS))
        vector[TRUE_POSITIVES] = len(set(a.spans) & set(b.spans))
        vector[PREDICTED] = len(a.spans)
        vector[ACTUAL] = len(b.spans)
        vector[ANNOTATED_TOKENS] = sum(a.lengths()) + sum(b.lengths())
        if a.spans and b.spans:
            vector[OVERLAP] = _overlap(a.spans, b.spans)
            if depth == 0:  # the flat model: the very functions of chance_f1, to the last bit
                lengths_a, lengths_b = tuple(sorted(a.lengths())), tuple(sorted(b.lengths()))
                vector[EXPECTED_OVERLAP] = model.expected_overlap(n, lengths_a, lengths_b)
                if with_matches:
                    vector[EXPECTED_MATCHES] = model.expected_matches(n, lengths_a, lengths_b)
            else:
                vector[EXPECTED_OVERLAP] = exact_dot(a.coverage, b.coverage)
                if with_matches:  # else 0: the statistics record that only the token level was computed
                    vector[EXPECTED_MATCHES] = _expected_matches(a, b)
        per_type[label] = vector
    wrong = _disagreeing_tokens(_marks(forest_a, depth), _marks(forest_b, depth))
    return ChanceStatistics(per_type, n - wrong, n, model.name, levels)


def _depth_count(forest: list[Node]) -> int:
    return 1 + max((node.depth for node in forest), default=-1)


def nested_statistics(predictions, references=None, lengths=None, *, model="non_overlapping",
                      levels=LEVELS) -> list[ChanceStatistics]:
    """Corpus statistics of every depth, ``[depth 0, depth 1, ...]`` (see the module docstring).

    ``predictions`` and ``references``: per sentence, lists of ``(start, end, label)`` token spans
    (half-open); ``lengths``: the number of tokens of each sentence. Or an ``AnnotationSet`` of two
    annotators alone (``from_spans(..., nested=True)``; annotator 0 the references, 1 the
    predictions, over the sentences both annotated). A sentence contributes to the depths it has;
    at a deeper depth of the corpus its tokens all agree (no span on either side), which is added
    as one count per depth.
    """
    levels = checked_levels(levels)
    model = get_model(model)
    if isinstance(predictions, AnnotationSet):
        if lengths is not None:
            raise TypeError("nested_chance_f1: an AnnotationSet has its own lengths: give it alone")
        pair = as_pair(predictions, references, function="nested_chance_f1", nested=True)
        predictions, references = ([[(start, end, label) for label, start, end in spans]
                                    for spans in pair.sentence_spans(a)] for a in (1, 0))
        lengths = pair.lengths.tolist()
    lengths = check_lengths(lengths)
    forests_a = forests(predictions, lengths, "predictions")
    forests_b = forests(references, lengths, "references")
    depth_count = max(1, max((_depth_count(forest) for forest in forests_a + forests_b), default=0))
    totals = [ChanceStatistics() for _ in range(depth_count)]
    agreeing = [0] * (depth_count + 1)  # tokens of sentences with fewer depths: agreeing from that depth on
    with_matches = "entity" in levels
    for n, forest_a, forest_b in zip(lengths, forests_a, forests_b, strict=True):
        own = max(_depth_count(forest_a), _depth_count(forest_b))
        agreeing[own] += n
        if not own:
            continue
        layers_a = _layers(forest_a, n, model, with_matches)
        layers_b = _layers(forest_b, n, model, with_matches)
        for depth in range(own):
            totals[depth] = totals[depth] + _sentence_depth(n, depth, layers_a, layers_b, forest_a, forest_b, model,
                                                            levels)
    tokens = 0
    for depth in range(depth_count):
        tokens += agreeing[depth]
        totals[depth] = totals[depth] + ChanceStatistics({}, tokens, tokens, model.name, levels)
    return totals


def nested_chance_f1(
    predictions, references=None, lengths=None, *, zero_division="warn", model="non_overlapping", level: str = "token"
) -> dict:
    r"""Compute observed, chance and corrected F1 of nested span annotations, pooled and per depth.

    Parameters
    ----------
    predictions, references : list of list of tuple
        Per sentence, the two annotations' ``(start, end, label)`` token spans, half-open; a span
        may lie inside another of the same annotation (crossing spans are an error). Or a nested
        two-annotator ``AnnotationSet`` alone as ``predictions`` (references and lengths None).
    lengths : list of int
        Per sentence, its number of tokens.
    zero_division : {"warn", 0, 1}, default "warn"
        The value of a 0/0 score ("warn": 0.0 with an ``UndefinedMetricWarning``).
    model : str or RandomModel, default "non_overlapping"
        The random annotation model.
    level : {"token", "entity"}, default "token"
        Token overlap or exact span match.

    Returns
    -------
    dict
        The pooled scores with the keys of ``chance_f1`` (seqeval's keys plus
        ``overall_observed_f1``, ``overall_chance_f1``, ``overall_corrected_f1`` and per-label
        dicts) and ``"depths"``: a list with a dict of the same keys for every depth, outermost
        first. Flat input (no span inside another) gives ``chance_f1`` of its IOB2 tags for both.

    Raises
    ------
    ValueError
        A span out of its sentence, crossing spans, a bad length; naming the sentence and span.

    See Also
    --------
    span_chance_f1 : Flat span lists.
    outermost_tags, innermost_tags : Flat views of nested spans.

    Notes
    -----
    The nested random model places the top-level spans of each label in the sentence and each
    parent's children inside the parent, by the flat model. Statistics are kept per depth
    :math:`d` and label; the pooled scores sum them over depths,

    .. math::

        \mathrm{chance} = \frac{2 \sum_{d} E[o_d]}{\sum_{d} (a_{1,d} + a_{2,d})}, \qquad
        \mathrm{corrected} = \frac{\mathrm{observed} - \mathrm{chance}}{1 - \mathrm{chance}},

    an extension of Proposition 1 of [1]_ (the paper treats flat annotations). A 0/0 score takes
    ``zero_division``, never NaN.

    References
    ----------
    .. [1] D. Li, C. Rosé, A. Yuan, C. Zhou. Estimating Agreement by Chance for Sequence Annotation. ACL 2024.

    Examples
    --------
    >>> predictions = [[(0, 5, "ORG"), (1, 3, "PER")]]  # a person inside an organisation
    >>> references = [[(0, 5, "ORG"), (1, 2, "PER")]]
    >>> scores = nested_chance_f1(predictions, references, [6])
    >>> round(scores["overall_observed_f1"], 4), round(scores["overall_corrected_f1"], 4)
    (0.9231, 0.6923)
    >>> [round(depth["overall_corrected_f1"], 4) for depth in scores["depths"]]
    [1.0, 0.5556]
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {list(LEVELS)}, got {level!r}")
    depths = nested_statistics(predictions, references, lengths, model=model, levels=(level,))
    pooled = sum(depths[1:], depths[0])  # adds the per-label sums, correct and total tokens
    result = scores_from_statistics(pooled, level, zero_division)
    result["depths"] = [scores_from_statistics(stats, level, zero_division) for stats in depths]
    return result


@renamed_keywords(rng="random_state")
def sample_nested_annotation(forest: list[Node], n: int, random_state=None,
                             model="non_overlapping") -> list[tuple[int, int, str, int]]:
    """One draw of the nested random model: ``(start, end, label, depth)`` for every node, in order.

    Top-level spans of each label by ``sample_annotation`` in the sentence, then each parent's
    children of each label by ``sample_annotation`` inside the parent, shifted by its start.
    """
    model = get_model(model)
    rng = np.random.default_rng(random_state)
    groups: dict[tuple[int | None, str], list[int]] = defaultdict(list)
    for index, node in enumerate(forest):
        groups[(node.parent, node.label)].append(index)
    placed: dict[int, int] = {}
    for (parent, _), members in sorted(groups.items(), key=lambda item: item[1][0]):
        region = n if parent is None else forest[parent].length
        offset = 0 if parent is None else placed[parent]
        starts = model.sample(region, [forest[i].length for i in members], rng)
        for i, start in zip(members, starts, strict=True):
            placed[i] = offset + int(start)
    return [(placed[i], placed[i] + node.length, node.label, node.depth) for i, node in enumerate(forest)]


__all__ = ["nested_chance_f1", "nested_statistics", "sample_nested_annotation"]
