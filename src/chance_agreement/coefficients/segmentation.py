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
from typing import Mapping, Sequence

import numpy as np

from ..spans.tags import check_mode, resolve_scheme, spans_from_tags

__all__ = ["DISTANCES", "boundaries_from_tags", "entails", "load_segmentation_json", "segmentation_alpha"]

DISTANCES = ("d1", "d2")


def segmentation_alpha(items, distance: str = "d2") -> dict:
    """Krippendorff's alpha of segmentations (supplement, Algorithms 1-6).

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

    Examples
    --------
    The supplement's worked example (Table 2):

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
    if distance == "d2":
        vectors = {item: matrix**2 for item, matrix in vectors.items()}

    # Algorithm 3: per item, the mean normalised distance over ordered pairs of annotations
    within_total = 0.0
    for matrix in vectors.values():
        c, length = matrix.shape
        pair_sum = sum(_abs_sum(matrix[:, t], matrix[:, t]) for t in range(length)) / length
        within_total += pair_sum / (c * (c - 1))
    n_items = len(vectors)
    n_annotations = sum(matrix.shape[0] for matrix in vectors.values())

    if n_items == 0:
        warnings.append("no item has two or more annotations: every value is None")
        return {"alpha": None, "within_variance": None, "between_variance": None,
                "n_items": 0, "n_annotations": 0, "warnings": warnings}
    within = within_total / (2 * n_items)

    # Algorithms 4 and 5: all ordered pairs of annotations; vectors of one length stacked together
    by_length: dict[int, list[np.ndarray]] = defaultdict(list)
    for matrix in vectors.values():
        by_length[matrix.shape[1]].append(matrix)
    groups = {length: np.vstack(parts) for length, parts in sorted(by_length.items())}
    lengths = list(groups)
    between_sum = 0.0
    for a_index, short in enumerate(lengths):
        for long in lengths[a_index:]:
            between_sum += (1 if short == long else 2) * _aligned_sum(groups[short], groups[long])
    between = between_sum / (2 * n_annotations * (n_annotations - 1))

    if between == 0:
        warnings.append("alpha is None because the between variance is 0 (all annotations are identical)")
        alpha = None
    else:
        alpha = float(1 - within / between)
    return {"alpha": alpha, "within_variance": float(within), "between_variance": float(between),
            "n_items": n_items, "n_annotations": n_annotations, "warnings": warnings}


def _aligned_sum(short: np.ndarray, long: np.ndarray) -> float:
    """Sum over all (row of short, row of long) of the sliding-alignment distance (Algorithm 4).

    For rows of equal length this is the plain normalised distance; otherwise the shorter row
    is compared with each of the ``len(long) - len(short) + 1`` windows of the longer one, each
    distance divided by the shorter length, and the windows are averaged.
    """
    a, b = short.shape[1], long.shape[1]
    windows = b - a + 1
    total = 0.0
    for k in range(windows):
        total += sum(_abs_sum(short[:, t], long[:, k + t]) for t in range(a))
    return total / a / windows


def _abs_sum(x: np.ndarray, y: np.ndarray) -> float:
    """``sum_i sum_j |x_i - y_j|`` in O((n + m) log m) by sorting."""
    y = np.sort(y)
    prefix = np.concatenate(([0.0], np.cumsum(y)))
    below = np.searchsorted(y, x)  # how many y are < x
    total = prefix[-1]
    sums = x * below - prefix[below] + (total - prefix[below]) - x * (len(y) - below)
    return float(sums.sum())


def _check_items(items) -> tuple[dict, list[str]]:
    if isinstance(items, (str, bytes)) or not isinstance(items, (Mapping, Sequence)):
        raise ValueError("items must map each item id to its list of boundary vectors")
    pairs = items.items() if isinstance(items, Mapping) else enumerate(items)
    vectors, warnings = {}, []
    seen = 0
    for item, item_annotations in pairs:
        seen += 1
        if isinstance(item_annotations, (str, bytes)) or not isinstance(item_annotations, (Sequence, np.ndarray)):
            raise ValueError(f"item {item!r}: expected a list of boundary vectors, got {type(item_annotations).__name__}")
        rows = []
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
        elif len(rows[0]) == 0:
            warnings.append(f"item {item!r} left out: empty boundary vectors (a one-word item has no boundary)")
        else:
            vectors[item] = np.vstack(rows)
    if seen == 0:
        raise ValueError("empty input: no items were given")
    return vectors, warnings


def entails(flat, nested) -> bool:
    """Whether a nested segmentation entails a flat one (supplement, Algorithm 7, isEntail).

    Take the highest split of ``nested`` (its largest value, the first if tied). If ``flat`` has a
    boundary there, both sides must entail each other recursively; if not, the whole span must be
    one flat segment, i.e. ``flat`` may have no boundary at any position where ``nested`` splits
    (value > 0). Spans of at most one boundary position always entail each other.

    Notes
    -----
    Two points where the pseudocode is read, not copied: its ``while`` loop (negating the largest
    value until it reaches 0) never ends when a span has no 0 value; here it visits each positive
    position once, which is what the loop is for. As in the pseudocode, positions where ``nested``
    is 0 (inside a leaf segment) are not checked against ``flat``.

    Raises
    ------
    ValueError
        Different lengths, flat values other than 0/1, negative nested values.

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


def boundaries_from_tags(tags: Sequence[str], scheme=None, mode=None, suffix: bool = False) -> list[int]:
    """Flat boundary vector of a BIO (or IOBES, ...) tag sequence.

    Convention: the segments are the entities (as :func:`chance_agreement.spans_from_tags` finds
    them) and the maximal runs of tokens outside any entity. Position ``k`` (between tokens ``k``
    and ``k + 1``) is 1 exactly when an entity starts at token ``k + 1`` or ends at token ``k``;
    the vector has ``len(tags) - 1`` values (empty for zero or one token).

    >>> boundaries_from_tags(["O", "B-PER", "I-PER", "O", "O", "B-LOC", "B-LOC"])
    [1, 0, 1, 0, 1, 1]
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
        raise ValueError(f"{name}: the annotation set {key!r} must be a JSON object, got {type(annotation_set).__name__}")

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
