"""Krippendorff's alpha for (nested) segmentations and the entailment test.

Source: the supplement of Ramanath et al. (ACL 2013; LAW VII 2013),
``krippendorff_alpha_segmentation_supplement.txt``, Algorithms 1-7.

A segmentation of an item of ``w`` words is a *boundary vector* of ``w - 1`` non-negative values,
one per gap between two words: 0 for no boundary; for a flat segmentation 1 for a boundary; for a
nested one the level of the split (larger = nearer the root).

- Distances (Algorithms 1, 2): ``d1(A, B) = sum |A_t - B_t|``, ``d2(A, B) = sum |A_t^2 - B_t^2|``,
  both divided by ``w - 1``, the vector length.
- Within variance (Algorithm 3): per item the mean distance over ordered pairs of its
  annotations, summed over items and divided by ``2 q`` (``q`` items).
- Between variance (Algorithms 4, 5): the distance summed over all ordered pairs of annotations
  in the data set, divided by ``2 N (N - 1)`` (``N`` annotations). Two vectors of different lengths
  are compared by sliding alignment: the shorter is compared with every window of the longer
  one of its own length, and the distances (divided by the shorter length) are averaged.
- ``alpha = 1 - within / between`` (Algorithm 6).

Items with fewer than two annotations, or one-word items (empty vectors), cannot be paired; they are
left out of both variances (as Krippendorff's alpha leaves out unpairable values), each with a
note in ``warnings``. When the between variance is 0, ``alpha`` is ``None`` with a warning.
"""

from __future__ import annotations

import json
import math
import os
from collections import defaultdict
from collections.abc import Mapping, Sequence

import numpy as np

from .._numerics.exact_sum import exact_dot
from ..spans.tags import check_mode, resolve_scheme, spans_from_tags

__all__ = ["DISTANCES", "boundaries_from_tags", "entails", "load_segmentation_json", "segmentation_alpha"]

DISTANCES = ("d1", "d2")


def segmentation_alpha(items, *, distance: str = "d2") -> dict:
    r"""Compute Krippendorff's alpha of (nested) segmentations (supplement, Algorithms 1-6).

    Parameters
    ----------
    items : mapping of item id -> list of boundary vectors
        One boundary vector per annotation of the item; all vectors of one item have the same
        length (words - 1). A list of such lists is also accepted (ids are the indices).
    distance : {"d1", "d2"}, default="d2"
        Algorithm 1 (absolute differences) or Algorithm 2 (differences of squares).

    Returns
    -------
    dict
        ``alpha`` (float, or ``None`` when the between variance is 0), ``within_variance``,
        ``between_variance`` (floats), ``n_items`` and ``n_annotations`` (those used) and
        ``warnings``.

    Raises
    ------
    ValueError
        Unknown distance; no items; an item whose vectors have different lengths or hold
        negative, non-numeric or non-finite values (the message names the item).

    See Also
    --------
    load_segmentation_json : Read a released segmentation file into ``items``.
    boundaries_from_tags : A flat boundary vector from tags.
    entails : Whether a nested segmentation entails a flat one.

    Notes
    -----
    An item of :math:`w` words has boundary vectors of :math:`w - 1` values (0 no boundary; for a
    nested segmentation the level of the split). The distances (Algorithms 1 and 2) are

    .. math::

        d_1(A, B) = \frac{1}{w - 1} \sum_t |A_t - B_t|, \qquad
        d_2(A, B) = \frac{1}{w - 1} \sum_t |A_t^2 - B_t^2|.

    With :math:`q` items, :math:`N` annotations and :math:`P_i` the ordered pairs of item
    :math:`i`'s annotations (Algorithms 3-6),

    .. math::

        \sigma^2_{within} = \frac{1}{2q} \sum_i \frac{1}{|P_i|} \sum_{(A, B) \in P_i} d(A, B),
        \qquad
        \sigma^2_{between} = \frac{1}{2N(N - 1)} \sum_{A \ne B} d(A, B), \qquad
        \alpha = 1 - \frac{\sigma^2_{within}}{\sigma^2_{between}},

    the between sum over all ordered pairs of annotations in the data set; vectors of different
    lengths are compared by sliding the shorter over the longer and averaging. Items with fewer
    than two annotations or of one word are left out (a note in ``warnings``); a between variance
    of 0 leaves alpha undefined: None, with a warning, never NaN.

    References
    ----------
    Ramanath, R., Choudhury, M., Bali, K. and Saha Roy, R. (2013). Crowd prefers the middle path:
    a new IAA metric for crowdsourcing reveals Turker biases in query segmentation. *Proceedings
    of ACL 2013*, and its supplementary material (Algorithms 1-7).

    Examples
    --------
    The supplement's worked example (two queries; within variance 3.3667/4, between variance
    34.9/40, alpha 0.035):

    >>> result = segmentation_alpha({
    ...     "major league baseball salary cap": [[1, 0, 2, 0], [0, 1, 0, 2], [2, 0, 1, 0]],
    ...     "wind beneath my wings sheet music": [[0, 1, 0, 2, 0], [0, 2, 0, 1, 0]],
    ... })
    >>> round(result["within_variance"], 6), round(result["between_variance"], 4), round(result["alpha"], 4)
    (0.841667, 0.8725, 0.0353)
    """
    if distance not in DISTANCES:
        raise ValueError(f"distance must be one of {DISTANCES}, got {distance!r}")
    vectors, warnings = _check_items(items)
    n_items = len(vectors)
    if n_items == 0:
        warnings.append("no item has two or more annotations: every value is None")
        return {"alpha": None, "within_variance": None, "between_variance": None,
                "n_items": 0, "n_annotations": 0, "warnings": warnings}
    n_annotations = sum(matrix.shape[0] for matrix in vectors.values())
    stacks, groups, distinct, exponent = _scaled_stacks(vectors, distance)

    # Algorithm 3: per item, the mean normalised distance over ordered pairs of annotations
    within = _within_sum(stacks) / (2 * n_items)
    # Algorithms 4 and 5: all ordered pairs of annotations, by pairs of lengths
    between = _between_sum(groups, distinct) / (2 * n_annotations * (n_annotations - 1))

    return {**_alpha(within, between, exponent, warnings), "n_items": n_items, "n_annotations": n_annotations,
            "warnings": warnings}


def _alpha(within, between, exponent: int, warnings: list[str]) -> dict:
    """``alpha = 1 - within / between`` (None when between is 0) and the variances scaled back."""
    if between == 0:
        warnings.append("alpha is None because the between variance is 0 (all annotations are identical)")
        alpha = None
    else:
        alpha = float(1 - within / between)
    try:
        within, between = math.ldexp(within, exponent), math.ldexp(between, exponent)
    except OverflowError:
        raise ValueError(
            "boundary values too large: the variances overflow a float (alpha does not depend on "
            "the scale: divide the values)"
        ) from None
    return {"alpha": alpha, "within_variance": float(within), "between_variance": float(between)}


def _scaled_stacks(vectors: dict, distance: str) -> tuple:
    """``(stacks, groups, distinct, exponent)``: the items stacked by shape (items x c x length)
    and grouped by length, scaled exactly by ``2**-exponent`` and squared for d2."""
    by_shape: dict[tuple[int, int], list[np.ndarray]] = defaultdict(list)
    for matrix in vectors.values():
        by_shape[matrix.shape].append(matrix)
    stacks = {shape: np.stack(parts) for shape, parts in sorted(by_shape.items())}  # items x c x length
    # alpha is scale-free: divide every value by a power of two (exact) so that values of 1e200
    # or 1e-200 neither overflow nor underflow when squared; the variances are scaled back
    largest = max(float(stack.max()) for stack in stacks.values())
    exponent = math.frexp(largest)[1] if largest > 0 else 0
    stacks = {shape: np.ldexp(stack, -exponent) for shape, stack in stacks.items()}
    if distance == "d2":
        stacks = {shape: stack**2 for shape, stack in stacks.items()}
        exponent *= 2
    by_length: dict[int, list[np.ndarray]] = defaultdict(list)
    for (_, length), stack in stacks.items():
        by_length[length].append(stack.reshape(-1, length))
    groups = {length: np.concatenate(parts) for length, parts in sorted(by_length.items())}
    distinct = np.unique(np.concatenate([group.ravel() for group in groups.values()]))
    _check_size(groups, len(distinct))
    return stacks, groups, distinct, exponent


# Largest number of (column, distinct value) cells the histogram method may hold at once, about
# 400 MB of float64: beyond it the input is refused up front, not after minutes.
MAX_HISTOGRAM_CELLS = 50_000_000


def _check_size(groups: dict[int, np.ndarray], n_values: int) -> None:
    """ValueError when the histograms of ``_between_sum`` would not fit ``MAX_HISTOGRAM_CELLS``."""
    lengths = sorted(groups)
    cells = n_values * sum(length + 1 for length in lengths)
    gathered = max(short * (len(lengths) - k) for k, short in enumerate(lengths)) * n_values
    if max(cells, gathered) > MAX_HISTOGRAM_CELLS:
        raise ValueError(
            f"input too large for segmentation_alpha: {n_values} distinct boundary values over vectors of "
            f"{len(lengths)} different lengths up to {lengths[-1]} need {max(cells, gathered):,} histogram "
            f"cells (limit {MAX_HISTOGRAM_CELLS:,}); boundary vectors hold few distinct levels (0/1 for a "
            "flat segmentation), round or bin the values"
        )


def _within_sum(stacks: dict[tuple[int, int], np.ndarray]) -> float:
    """sum over items of (sum over ordered pairs of annotations of d / length) / (c (c - 1)).

    ``stacks`` holds the items of one shape (c annotations x length) stacked; per column, the
    ordered-pair sum of |x_i - x_j| is 2 sum_i x_(i) (2i - c + 1) over the sorted values
    x_(0) <= ... <= x_(c-1).
    """
    total = 0.0
    for (c, length), stack in stacks.items():
        weights = 2.0 * np.arange(c) - c + 1.0
        pair_sums = 2.0 * exact_dot(np.sort(stack, axis=1), weights[None, :, None])
        total += pair_sums / length / (c * (c - 1))
    return total


def _between_sum(groups: dict[int, np.ndarray], distinct: np.ndarray) -> float:
    """sum over ordered pairs of annotations of the sliding-alignment distance (Algorithm 4).

    For lengths a <= b (w = b - a + 1 windows), the pair sum of all rows of the length-a group with
    all rows of the length-b group is (1 / (a w)) sum_t sum_{k < w} sum_{i,j} |S_it - L_j,t+k|.
    With H_a[t, v] the number of length-a rows holding value v in column t, and P_b[c, v] =
    sum_j |v - L_jc| (from cumulative histograms of column c), the window sum over k is a band
    of consecutive columns of P_b: with prefix sums Q_b[c] = sum_{c' < c} P_b[c'] it is
    sum_t H_a[t] . (Q_b[t + w] - Q_b[t]). Cost O(columns x distinct values), no sort per window.
    """
    n_values = len(distinct)
    lengths = list(groups)
    histograms, prefixes = {}, []
    for length, group in groups.items():
        codes = np.searchsorted(distinct, group)
        column = np.broadcast_to(np.arange(length), group.shape)
        histogram = np.bincount((column * n_values + codes).ravel(), minlength=length * n_values)
        histogram = histogram.reshape(length, n_values).astype(float)
        histograms[length] = histogram
        below = np.cumsum(histogram, axis=1)  # rows with a value <= distinct[v], per column
        below_sum = np.cumsum(histogram * distinct, axis=1)
        everything = below_sum[:, -1:]
        profile = distinct * (2.0 * below - group.shape[0]) + everything - 2.0 * below_sum
        prefix = np.zeros((length + 1, n_values))
        np.cumsum(profile, axis=0, out=prefix[1:])
        prefixes.append(prefix)
    starts = np.cumsum([0] + [length + 1 for length in lengths])[:-1]
    stacked = np.concatenate(prefixes)

    total = 0.0
    for k, short in enumerate(lengths):
        longs = np.array(lengths[k:])
        windows = longs - short + 1
        t = np.arange(short)
        first = starts[k:, None] + t[None, :]  # Q_b[t] rows, one line per longer length b
        band = stacked[first + windows[:, None]] - stacked[first]  # (lengths, a, values)
        pair_sums = [exact_dot(histograms[short], window) for window in band]
        weights = np.where(longs == short, 1.0, 2.0) / (short * windows)
        total += exact_dot(weights, pair_sums)
    return total


def _check_items(items) -> tuple[dict, list[str]]:
    if isinstance(items, (str, bytes)) or not isinstance(items, (Mapping, Sequence)):
        raise ValueError("items must map each item id to its list of boundary vectors")
    pairs = items.items() if isinstance(items, Mapping) else enumerate(items)
    vectors: dict = {}  # item -> its matrix (None until its shape group is converted)
    warnings: list[str] = []
    by_shape: dict[tuple[int, int], list] = defaultdict(list)
    seen = 0
    for item, item_annotations in pairs:
        seen += 1
        if type(item_annotations) not in (list, tuple) and (
            isinstance(item_annotations, (str, bytes)) or not isinstance(item_annotations, (Sequence, np.ndarray))
        ):
            raise ValueError(f"item {item!r}: expected a list of boundary vectors, got "
                             f"{type(item_annotations).__name__}")
        shape = _plain_shape(item_annotations)
        if shape is not None:  # the common case: converted per shape below, in one call each
            if shape[0] < 2:
                warnings.append(f"item {item!r} left out: {shape[0]} annotation(s), two are needed to pair")
            elif shape[1] == 0:
                warnings.append(f"item {item!r} left out: empty boundary vectors (a one-word item has no boundary)")
            else:
                vectors[item] = None
                by_shape[shape].append((item, item_annotations))
            continue
        vectors[item] = _item_matrix(item, item_annotations, warnings)
        if vectors[item] is None:
            del vectors[item]
    if seen == 0:
        raise ValueError("empty input: no items were given")
    for shape, members in by_shape.items():
        try:
            stack = np.array([annotations for _, annotations in members], dtype=float)
        except (TypeError, ValueError):
            stack = None
        if stack is None or stack.shape != (len(members), *shape):
            for item, annotations in members:
                vectors[item] = _item_matrix(item, annotations, warnings)  # raises the precise error
        else:
            for (item, _), matrix in zip(members, stack, strict=True):
                vectors[item] = matrix
    if vectors:
        values = np.concatenate([matrix.ravel() for matrix in vectors.values()])
        if not (np.all(np.isfinite(values)) and values.min() >= 0):
            for item, matrix in vectors.items():
                bad = ~np.isfinite(matrix) | (matrix < 0)
                if bad.any():
                    k = int(np.argwhere(bad)[0][0])
                    vector = list(items[item])[k] if isinstance(items, Mapping) else items[item][k]
                    raise ValueError(
                        f"item {item!r}: annotation {k} has negative or non-finite values: {vector!r}"
                    )
    return vectors, warnings


def _plain_shape(item_annotations) -> tuple[int, int] | None:
    """(annotations, length) of a list of equally long plain lists/tuples, else None."""
    if type(item_annotations) not in (list, tuple) or not item_annotations:
        return None
    length = len(item_annotations[0]) if type(item_annotations[0]) in (list, tuple) else -1
    for vector in item_annotations:
        if type(vector) not in (list, tuple) or len(vector) != length:
            return None
    return len(item_annotations), length


def _item_matrix(item, item_annotations, warnings: list[str]) -> np.ndarray | None:
    """One item's vectors checked one by one (the message names the item and annotation);
    None, with a warning, when the item cannot be paired."""
    rows: list = []
    for k, vector in enumerate(item_annotations):
        if isinstance(vector, (str, bytes)):
            raise ValueError(
                f"item {item!r}: annotation {k} is a string {vector!r}; give a list of numbers "
                "(load_segmentation_json converts the released strings)"
            )
        try:
            row = np.asarray(vector, dtype=float)
        except (TypeError, ValueError):
            raise ValueError(f"item {item!r}: annotation {k} is not a vector of numbers: {vector!r}") from None
        if row.ndim != 1:
            raise ValueError(f"item {item!r}: annotation {k} is not a flat vector of numbers: {vector!r}")
        if not np.all(np.isfinite(row)) or np.any(row < 0):
            raise ValueError(f"item {item!r}: annotation {k} has negative or non-finite values: {vector!r}")
        if rows and len(row) != len(rows[0]):
            raise ValueError(
                f"item {item!r}: inconsistent boundary vector lengths: annotation {k} has {len(row)} "
                f"values but annotation 0 has {len(rows[0])}"
            )
        rows.append(row)
    if len(rows) < 2:
        warnings.append(f"item {item!r} left out: {len(rows)} annotation(s), two are needed to pair")
        return None
    if len(rows[0]) == 0:
        warnings.append(f"item {item!r} left out: empty boundary vectors (a one-word item has no boundary)")
        return None
    return np.vstack(rows)


def entails(flat, nested) -> bool:
    """Test whether a nested segmentation entails a flat one (supplement, Algorithm 7, isEntail).

    Parameters
    ----------
    flat : sequence of int
        A flat boundary vector: 0 or 1 at each of the ``w - 1`` gaps between words.
    nested : sequence of int or float
        A nested boundary vector of the same length: 0 for no split, else the level of the split
        (larger = nearer the root).

    Returns
    -------
    bool
        Whether every flat segment is a node of the nested segmentation's tree, as Algorithm 7
        decides it.

    Raises
    ------
    ValueError
        Different lengths, flat values other than 0/1, negative nested values.

    Notes
    -----
    Take the highest split of ``nested`` (its largest value, the first if tied). If ``flat`` has a
    boundary there, both sides must entail each other recursively; if not, the whole span must be
    one flat segment, i.e. ``flat`` may have no boundary at any position where ``nested`` splits
    (value > 0). Spans of at most one boundary position always entail each other.

    Two points where the pseudocode is read, not copied: its ``while`` loop (negating the largest
    value until it reaches 0) never ends when a span has no 0 value; here it visits each positive
    position once, which is what the loop is for. As in the pseudocode, positions where ``nested``
    is 0 (inside a leaf segment) are not checked against ``flat``.

    References
    ----------
    Ramanath, R., Choudhury, M. and Bali, K. (2013). Entailment: an effective metric for comparing
    and evaluating hierarchical and non-hierarchical annotation schemes. *Proceedings of the 7th
    Linguistic Annotation Workshop (LAW VII)*, and the supplement's Algorithm 7.

    Examples
    --------
    >>> entails([0, 0, 1, 0], [1, 0, 2, 0])  # (major league baseball) (salary cap)
    True
    >>> entails([1, 0, 0, 0], [1, 0, 2, 0])  # no flat boundary at the root split, one below it
    False
    """
    flat, nested = list(flat), list(nested)
    if len(flat) != len(nested):
        raise ValueError(f"flat has {len(flat)} boundary values but nested has {len(nested)}")
    if any(value not in (0, 1) for value in flat):
        raise ValueError(f"flat boundary values must be 0 or 1, got {flat}")
    if any(not isinstance(value, (int, float, np.integer, np.floating)) or isinstance(value, bool)
           or not math.isfinite(value) or value < 0 for value in nested):
        raise ValueError(f"nested boundary values must be non-negative numbers, got {nested}")
    spans = [(0, len(flat))]  # explicit stack instead of recursion
    while spans:
        begin, end = spans.pop()
        if end - begin <= 1:
            continue
        span = nested[begin:end]
        top = begin + span.index(max(span))
        if flat[top] == 1:
            spans += [(begin, top), (top + 1, end)]
        elif any(flat[t] == 1 and nested[t] > 0 for t in range(begin, end)):
            return False
    return True


def boundaries_from_tags(tags: Sequence[str], *, scheme=None, mode=None, suffix: bool = False) -> list[int]:
    """Build the flat boundary vector of a BIO (or IOBES, ...) tag sequence.

    Parameters
    ----------
    tags : sequence of str
        One sentence's tags.
    scheme, mode, suffix : optional
        As in seqeval and :func:`spans_from_tags`.

    Returns
    -------
    list of int
        ``len(tags) - 1`` values, 1 where a segment boundary falls between two tokens; empty for
        zero or one token.

    Raises
    ------
    ValueError
        A string instead of a list of tags, an unknown mode, or tags the scheme does not allow.

    See Also
    --------
    segmentation_alpha : Alpha of such vectors.

    Notes
    -----
    Convention: the segments are the entities (as :func:`chance_agreement.spans_from_tags` finds
    them) and the maximal runs of tokens outside any entity. Position ``k`` (between tokens ``k``
    and ``k + 1``) is 1 exactly when an entity starts at token ``k + 1`` or ends at token ``k``;
    the vector has ``len(tags) - 1`` values (empty for zero or one token).

    Examples
    --------
    >>> boundaries_from_tags(["O", "B-PER", "I-PER", "O", "O", "B-LOC", "B-LOC"])
    [1, 0, 1, 0, 1, 1]
    >>> boundaries_from_tags(["B-PER"])
    []
    """
    check_mode(mode)
    if isinstance(tags, (str, bytes)):
        raise ValueError("tags must be a list of tags, not a string")
    spans = spans_from_tags(tags, scheme=resolve_scheme(scheme), mode=mode, suffix=suffix)
    n = len(tags)
    vector = [0] * max(n - 1, 0)
    for _, start, end in spans:
        if start > 0:
            vector[start - 1] = 1
        if end < n:
            vector[end - 1] = 1
    return vector


_ANNOTATION_SET_KEYS = ("annotation_set", "annotation set", "annotationSet", "annotations", "annotation")


def load_segmentation_json(path_or_file) -> dict[str, list[list[int | float]]]:
    """Read a released segmentation file (supplement, section 2) into ``segmentation_alpha`` input.

    Parameters
    ----------
    path_or_file : str, os.PathLike or file-like
        The path of the JSON file (read as UTF-8), or an open text file.

    Notes
    -----
    The file is a JSON object with two keys: ``items`` (the number of items, or their list) and
    the annotation set, an object mapping each query or sentence to its annotations (an object of
    up to ten annotations keyed by annotator, or a list). The annotation-set key is taken from
    ``annotation_set``, ``annotation set``, ``annotationSet``, ``annotations``, ``annotation``, or
    else the only other key. An annotation is a list of numbers or a string: digits one per
    boundary (``"1020"``), or numbers separated by spaces or commas (``"1 0 12 0"``).

    Returns
    -------
    dict
        item (query or sentence) -> list of boundary vectors, in the file's order.

    Raises
    ------
    ValueError
        Not a JSON object with those two keys; ``items`` disagreeing with the annotation set;
        an annotation that is not a boundary vector (the message names the item).

    Examples
    --------
    The supplement's two queries, one with annotations keyed by annotator, the other a list:

    >>> import io, json
    >>> released = {"items": 2, "annotation_set": {
    ...     "major league baseball salary cap": {"a1": "1020", "a2": "0102", "a3": "2010"},
    ...     "wind beneath my wings sheet music": ["01020", "02010"]}}
    >>> items = load_segmentation_json(io.StringIO(json.dumps(released)))
    >>> items["major league baseball salary cap"]
    [[1, 0, 2, 0], [0, 1, 0, 2], [2, 0, 1, 0]]
    >>> round(segmentation_alpha(items)["alpha"], 4)
    0.0353
    """
    if hasattr(path_or_file, "read"):
        text = path_or_file.read()
        name = getattr(path_or_file, "name", "<file>")
    else:
        with open(os.fspath(path_or_file), encoding="utf-8") as handle:
            text = handle.read()
        name = os.fspath(path_or_file)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"{name}: not valid JSON: {error}") from None
    if not isinstance(data, dict) or "items" not in data:
        raise ValueError(f"{name}: expected a JSON object with keys 'items' and the annotation set")
    key = next((k for k in _ANNOTATION_SET_KEYS if k in data), None)
    if key is None:
        others = [k for k in data if k != "items"]
        if len(others) != 1:
            raise ValueError(f"{name}: cannot tell the annotation set key among {sorted(data)}")
        key = others[0]
    annotation_set = data[key]
    if not isinstance(annotation_set, dict):
        raise ValueError(f"{name}: the annotation set {key!r} must be a JSON object, got "
                         f"{type(annotation_set).__name__}")

    declared = data["items"]
    if isinstance(declared, bool) or not isinstance(declared, (int, list)):
        raise ValueError(f"{name}: 'items' must be the number of items or their list, got {declared!r}")
    if isinstance(declared, int) and declared != len(annotation_set):
        raise ValueError(f"{name}: 'items' says {declared} items but the annotation set has {len(annotation_set)}")
    if isinstance(declared, list) and set(map(str, declared)) != set(annotation_set):
        raise ValueError(f"{name}: 'items' lists other items than the annotation set holds")

    items = {}
    for item, item_annotations in annotation_set.items():
        values = item_annotations.values() if isinstance(item_annotations, dict) else item_annotations
        if not isinstance(values, (list, type({}.values()))):
            raise ValueError(f"{name}: item {item!r}: item_annotations must be an object or a list")
        items[item] = [_parse_vector(value, item, name) for value in values]
    return items


def _parse_vector(value, item, name) -> list[int | float]:
    if isinstance(value, str):
        text = value.strip()
        parts = text.replace(",", " ").split() if any(sep in text for sep in " ,") else list(text)
        try:
            numbers = [float(part) for part in parts]
        except ValueError:
            raise ValueError(f"{name}: item {item!r}: annotation {value!r} is not a boundary vector") from None
    elif isinstance(value, list) and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in value
    ):
        numbers = [float(v) for v in value]
    else:
        raise ValueError(f"{name}: item {item!r}: annotation {value!r} is not a boundary vector")
    return [int(v) if v.is_integer() else v for v in numbers]
