"""Krippendorff's unitizing alphas, the baselines of the chance-F1 paper (SPEC_NOTES section 1).

Two variants, both computed exactly (integer and rational arithmetic, floats only in the result):

- ``"u_alpha"``: Krippendorff's original unitizing alpha (1995; *Content Analysis*, 2nd ed. 2004,
  pp. 251-256), the paper's *Alpha*. Each annotator's continuum is cut into *units* (the entities
  of one type) and *gaps* (the runs between them); the distance of two sections of different
  annotators is ``(start difference)^2 + (end difference)^2`` for two overlapping units, the unit's
  ``length^2`` for a unit lying inside the other's gap, else 0.
- ``"mu_alpha"``: Krippendorff, Mathet, Bouvry and Widloecher (2016), eq. 5a, the paper's
  *muAlpha*: a coincidence matrix of overlap lengths, with the expected coincidences discounted by
  ``l^2`` for a unit and ``l`` for a gap (a gap counts as ``l`` one-token pieces).

How several texts are combined. Krippendorff defines both coefficients on one continuum per
annotator. The texts are therefore concatenated into one continuum of ``L = sum of text lengths``
tokens per annotator, and a gap never runs across a text boundary: every text boundary is a *gap
break*. This is what the expected disagreement of u_alpha already does with the continua of
different annotators (their gaps are pooled but never joined), and it matches the chance model of
the paper (an entity cannot be placed across two sentences). The choice changes nothing else:
the observed disagreement only sees a unit lying inside a gap, never the gap's length, and
mu_alpha weights a gap by its length, which is additive. As a consequence a single 30-token text
"Sim1 A + ten O" gives our value for Sim1 B (ExpD 0.0411), while the same data given as two texts
(Sim1 A, then ten O) gives the paper's 0.0366 = 319/8705.

How types are pooled. Per type, a continuum holds that type's entities as units and everything
else as gap. The pooled u_alpha is ``1 - sum_c Do_c / sum_c De_c`` (Krippendorff 1995/2004 over
all categories); the pooled observed and expected disagreements reported are these sums (DKPro
Statistics reports their means, which gives the same alpha). The pooled mu_alpha is eq. 5a with
every type as one value and the gap as another (for a single type it equals the per-type value).

Degenerate input never raises and never returns NaN: with fewer than two annotators every value
is ``None``; when the expected disagreement is 0 (no units at all, for instance) ``alpha`` is
``None``. Each ``None`` comes with its reason in the result's ``warnings`` list.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction
from itertools import accumulate, pairwise
from typing import Any

import numpy as np

from ..spans.annotation_set import AnnotationSet
from ..spans.tags import check_items, check_mode, effective_scheme, spans_from_tags

__all__ = ["VARIANTS", "unitizing_alpha", "unitizing_alpha_from_units"]

VARIANTS = ("u_alpha", "mu_alpha")
UNTYPED = "_"  # the type of a unit given as (start, end), as tags.py names an untyped entity

Section = tuple[int, int, bool]  # (start, end, is_unit), end exclusive


def unitizing_alpha(annotations, *, variant: str = "u_alpha", scheme=None, mode=None, suffix: bool = False) -> dict:
    r"""Unitizing alpha of two or more annotators on BIO-tagged texts, per entity type and pooled.

    Parameters
    ----------
    annotations : list over texts of lists over annotators of tag sequences
        ``annotations[t][i]`` is annotator ``i``'s tag sequence for text ``t`` (items by
        annotators, as for every multi-annotator input of the package). Every text has the same
        number of annotators and, within a text, every sequence has the same length. Or an
        ``AnnotationSet`` (every annotator on every text), whose spans are not chunked again.
    variant : {"u_alpha", "mu_alpha"}, default="u_alpha"
        Krippendorff's 1995/2004 unitizing alpha or Krippendorff et al. 2016 eq. 5a.
    scheme, mode, suffix
        As in :func:`chance_agreement.spans_from_tags`; with ``mode="strict"`` and no scheme, the
        scheme is detected once over all sequences.

    Returns
    -------
    dict
        ``observed_disagreement``, ``expected_disagreement``, ``alpha`` (floats, or ``None`` when
        undefined), ``per_type`` (type -> the same three keys) and ``warnings`` (reasons for every
        ``None``). See the module docstring for how texts and types are combined.

    Raises
    ------
    ValueError
        Bad input, naming the text (and annotator) index: no texts, a string instead of a list,
        differing numbers of annotators, sequences of different lengths in a text, invalid tags,
        an unknown variant.

    See Also
    --------
    unitizing_alpha_from_units : The same of unit intervals on one continuum, with the formulas.
    gamma_agreement : Gamma of the same kind of data.

    Notes
    -----
    Per entity type, each annotator's texts are one continuum of :math:`L` tokens cut into units
    (that type's entities) and gaps; a gap never runs across a text boundary. Both variants are
    :math:`\alpha = 1 - D_o / D_e` (the formulas under :func:`unitizing_alpha_from_units`); the
    pooled u_alpha is

    .. math::

        \alpha = 1 - \frac{\sum_c D_{o,c}}{\sum_c D_{e,c}},

    and the pooled mu_alpha is equation 5a of Krippendorff et al. (2016) with every type as one
    value and the gap as another. Fewer than two annotators, or an expected disagreement of 0 (no
    units), leave alpha undefined: None, with the reason in ``warnings``, never NaN.

    These are the *Alpha* and *muAlpha* baselines of Li et al. (2024); the examples are its
    simulation Sim1 A, reproduced to every printed digit.

    References
    ----------
    Krippendorff, K. (1995). On the reliability of unitizing continuous data. *Sociological
    Methodology* 25. Krippendorff, K. (2004). *Content Analysis*, 2nd ed., pp. 251-256.
    Krippendorff, K., Mathet, Y., Bouvry, S. and Widloecher, A. (2016). On the reliability of
    unitizing textual continua: further developments. *Quality & Quantity* 50. Li, D., Rosé, C.,
    Yuan, A. and Zhou, C. (2024). Estimating agreement by chance for sequence annotation.
    *Proceedings of ACL 2024*, 5085-5097.

    Examples
    --------
    Sim1 A of the chance-F1 paper (Alpha 0.8602, muAlpha 0.7177):

    >>> a = "O O O B-X I-X O O O B-X I-X I-X O O O B-X I-X I-X I-X O O".split()
    >>> b = "O O B-X I-X I-X O O O B-X I-X I-X I-X O O B-X I-X I-X I-X I-X O".split()
    >>> round(unitizing_alpha([[a, b]])["alpha"], 4)
    0.8602
    >>> round(unitizing_alpha([[a, b]], variant="mu_alpha")["alpha"], 4)
    0.7177
    """
    _check_variant(variant)
    if isinstance(annotations, AnnotationSet):
        annotations.chunked_as(scheme, mode, suffix, "unitizing_alpha")
        missing = np.argwhere(~annotations.present)
        if missing.size:
            i, t = missing[0].tolist()
            raise ValueError(f"text {t}, annotator {i}: not annotated; unitizing alpha needs every annotator on "
                             "every text")
        spans = [annotations.sentence_spans(i) for i in range(annotations.n_annotators)]
        offset, units, breaks = _continuum_units(annotations.lengths.tolist(), len(spans), lambda t, i: spans[i][t])
        return unitizing_alpha_from_units(offset, units, variant=variant, gap_breaks=breaks)
    check_mode(mode)
    check_items(annotations)
    texts = _check_annotations(annotations)
    scheme = effective_scheme([seq for text in texts for seq in text], scheme, mode, suffix)

    def chunked(t: int, i: int) -> list:
        try:
            return spans_from_tags(texts[t][i], scheme=scheme, mode=mode, suffix=suffix)
        except ValueError as error:
            raise ValueError(f"text {t}, annotator {i}: {error}") from None

    offset, units, breaks = _continuum_units([len(text[0]) for text in texts], len(texts[0]), chunked)
    return unitizing_alpha_from_units(offset, units, variant=variant, gap_breaks=breaks)


def _continuum_units(lengths: list, annotators: int, spans_of) -> tuple[int, list, list]:
    """The texts one after the other on one continuum: ``(length, units per annotator, breaks)``;
    ``spans_of(t, i)``: annotator ``i``'s spans ``(type, start, end)`` of text ``t``."""
    units: list[list[tuple[Any, int, int]]] = [[] for _ in range(annotators)]
    breaks = []
    offset = 0
    for t, length in enumerate(lengths):
        if t:
            breaks.append(offset)
        for i in range(annotators):
            units[i].extend((type_, offset + start, offset + end) for type_, start, end in spans_of(t, i))
        offset += length
    return offset, units, [b for b in breaks if 0 < b < offset]  # empty texts add no break


def unitizing_alpha_from_units(length: int, units_per_annotator, *, variant: str = "u_alpha", gap_breaks=()) -> dict:
    """Unitizing alpha on unit intervals of a continuum ``[0, length)``, per type and pooled.

    Parameters
    ----------
    length : int
        Length ``L`` of the continuum (every annotator covers all of it).
    units_per_annotator : list over annotators of lists of units
        A unit is ``(start, end)`` (end exclusive; its type is ``"_"``) or ``(type, start, end)``.
        Units of one type and one annotator must not overlap; for ``"mu_alpha"`` no two units of
        one annotator may overlap at all (every position has one value).
    variant : {"u_alpha", "mu_alpha"}, default="u_alpha"
    gap_breaks : iterable of int, default=()
        Positions ``0 < p < length`` where gaps are cut in two, as at a text boundary; a unit may
        not run across one. Breaks only change u_alpha's expected disagreement. Example: Sim1 B as
        one continuum of 30 gives ExpD 0.0411; with ``gap_breaks=[20]`` (the ten appended zeros a
        separate gap) it gives the paper's 319/8705 = 0.0366.

    Returns
    -------
    dict
        As :func:`unitizing_alpha`.

    Notes
    -----
    u_alpha (Krippendorff 2004, pp. 251-256), for ``m`` annotators and one type, ``N`` units of
    all annotators with lengths ``l``, gaps pooled over annotators:

    .. math::

        D_o = \\frac{\\sum_{i \\ne j} \\sum_{g, h} \\delta^2_{ig,jh}}{m(m-1)L^2}, \\quad
        D_e = \\frac{2}{L} \\frac{\\sum_u \\left[ \\frac{(N-1)(2l^3 - 3l^2 + l)}{3}
              + l^2 \\sum_{gaps\\, l_g \\ge l} (l_g - l + 1) \\right]}
             {mL(mL-1) - \\sum_u l(l-1)}

    mu_alpha (Krippendorff et al. 2016, eq. 5a), with ``n = mL`` and ``w = l^2`` for a unit,
    ``l`` for a gap: ``o_cc = 1/(m-1) * sum_{i != j}`` overlaps of sections valued ``c``,
    ``e_cc = n (n_c^2 - sum_c w) / (n^2 - sum w)``, ``Do = 1 - sum_c o_cc / n``,
    ``De = 1 - sum_c e_cc / n``. In both, ``alpha = 1 - Do / De``.

    References
    ----------
    Krippendorff, K. (2004). *Content Analysis*, 2nd ed., pp. 251-256. Krippendorff, K., Mathet, Y.,
    Bouvry, S. and Widloecher, A. (2016). On the reliability of unitizing textual continua: further
    developments. *Quality & Quantity* 50.

    Examples
    --------
    Krippendorff (2004, p. 254), category c on [150, 450), shifted to start at 0:

    >>> result = unitizing_alpha_from_units(300, [[(75, 145), (220, 250)],
    ...                                           [(70, 150), (205, 225), (250, 270)]])
    >>> [round(result[key], 4) for key in ("observed_disagreement", "expected_disagreement", "alpha")]
    [0.0144, 0.0532, 0.7286]
    """
    _check_variant(variant)
    length, units, breaks = _check_units(length, units_per_annotator, gap_breaks)
    return _unitizing_result(length, units, breaks, variant)


def _unitizing_result(length: int, units, breaks, variant: str) -> dict:
    """``unitizing_alpha_from_units`` of checked units: per type, then pooled."""
    n_annotators = len(units)
    types = sorted({unit[0] for annotator in units for unit in annotator}, key=str)
    warnings: list[str] = []

    if n_annotators < 2:
        reason = f"{n_annotators} annotator(s): unitizing alpha needs two or more annotators"
        warnings.append(f"all values are None: {reason}")
        none = {"observed_disagreement": None, "expected_disagreement": None, "alpha": None}
        return {**none, "per_type": {type_: dict(none) for type_ in types}, "warnings": warnings}

    by_type = _units_by_type(units, types)
    segments = _Segments(length, breaks)
    per_type_fractions = {type_: _type_disagreements(variant, length, by_type[type_], segments) for type_ in types}
    observed, expected = _pooled_disagreements(variant, length, units, types, per_type_fractions)

    per_type = {
        type_: _summary(do, de, f"type {type_!r}", warnings) for type_, (do, de) in per_type_fractions.items()
    }
    label = "pooled" if types else "pooled (no units at all)"
    return {**_summary(observed, expected, label, warnings), "per_type": per_type, "warnings": warnings}


def _units_by_type(units, types) -> dict:
    """``{type: [sorted (start, end) of each annotator]}`` in one pass over the units."""
    by_type: dict = {type_: [[] for _ in units] for type_ in types}
    for a, annotator in enumerate(units):
        for type_, start, end in annotator:
            by_type[type_][a].append((start, end))
    for spans in by_type.values():
        for annotator in spans:
            annotator.sort()
    return by_type


def _type_disagreements(variant: str, length: int, spans, segments: _Segments) -> tuple:
    """``(Do, De)`` of one type (``spans``: each annotator's sorted ``(start, end)``) as Fractions."""
    if variant == "u_alpha":
        return _u_alpha_disagreements(length, spans, segments)
    valued = [[(1, s, e) for s, e in annotator] for annotator in spans]
    return _mu_alpha_disagreements(length, valued, 1)


def _pooled_disagreements(variant: str, length: int, units, types, per_type_fractions) -> tuple:
    """``(Do, De)`` over every type: u_alpha sums the types' fractions; mu_alpha values each
    position by its type (one value per position)."""
    if variant == "u_alpha":
        observed = sum((do for do, _ in per_type_fractions.values()), Fraction(0))
        expected = sum((de for _, de in per_type_fractions.values()), Fraction(0))
        return observed, expected
    index = {type_: k + 1 for k, type_ in enumerate(types)}
    valued = [[(index[t], s, e) for t, s, e in annotator] for annotator in units]
    for i, annotator in enumerate(valued):
        try:
            _sorted_units(annotator)
        except ValueError as error:
            raise ValueError(f"annotator {i}: {error}; mu_alpha needs one value per position") from None
    return _mu_alpha_disagreements(length, valued, len(types))


# ---------------------------------------------------------------------------------------------
# u_alpha (Krippendorff 1995; 2004 pp. 251-256)


class _Segments:
    """The continuum's segments between gap breaks (``breaks`` sorted, inside (0, L)): their
    starts and the multiset of their lengths, shared by every type."""

    def __init__(self, length: int, breaks: list[int]):
        self.breaks = breaks
        self.starts = [0, *breaks]
        self.ends = [*breaks, length]
        self.lengths = Counter(end - start for start, end in zip(self.starts, self.ends, strict=True))

    def compressed(self, spans: list[list[tuple[int, int]]]) -> tuple[int, list, list[int], Counter]:
        """The segments that hold a unit of ``spans`` (units never cross a break), joined into one
        shorter continuum: ``(its length, the spans moved onto it, its breaks, the lengths of the
        other segments)``. In every other segment each annotator has one gap, the whole segment."""
        touched = sorted({bisect_left(self.breaks, start + 1) for annotator in spans for start, _ in annotator})
        shift, position, breaks = {}, 0, []
        for k in touched:
            if position:
                breaks.append(position)
            shift[k] = position - self.starts[k]
            position += self.ends[k] - self.starts[k]
        moved = [[(start + shift[k], end + shift[k]) for start, end in annotator
                  for k in (bisect_left(self.breaks, start + 1),)] for annotator in spans]
        untouched = self.lengths - Counter(self.ends[k] - self.starts[k] for k in touched)
        return position, moved, breaks, untouched


def _u_alpha_disagreements(length: int, spans: list[list[tuple[int, int]]], segments: _Segments):
    """``(Do, De)`` of one type as Fractions (Krippendorff 2004, p. 253 and p. 254).

    Only the segments (texts) holding a unit of the type are cut into sections; each other segment
    is one gap per annotator, which adds nothing to the observed disagreement and its length to the
    gaps of the expected one: the same integers as sections over the whole continuum."""
    m, L = len(spans), length
    short, moved, breaks, untouched = segments.compressed(spans)
    sections = [_sections(annotator, short, breaks) for annotator in moved]
    squared = 0
    for i in range(m):
        for j in range(i + 1, m):
            squared += _pair_squared_distance(sections[i], sections[j])
    observed = Fraction(2 * squared, m * (m - 1) * L * L)  # delta^2 is symmetric: 2 x unordered pairs

    unit_lengths = Counter(e - s for annotator in sections for s, e, is_unit in annotator if is_unit)
    gaps = Counter(e - s for annotator in sections for s, e, is_unit in annotator if not is_unit)
    for gap, count in untouched.items():
        gaps[gap] += m * count
    n_units = sum(unit_lengths.values())
    # suffix sums over the distinct gap lengths: sum of (l_g + 1) and count of gaps with l_g >= l
    distinct = sorted(gaps)
    suffix_sum = list(accumulate(reversed([gaps[g] * (g + 1) for g in distinct]), initial=0))[::-1]
    suffix_count = list(accumulate(reversed([gaps[g] for g in distinct]), initial=0))[::-1]
    numerator = 0
    for l, count in unit_lengths.items():
        first = bisect_left(distinct, l)
        fits = suffix_sum[first] - suffix_count[first] * l  # sum over gaps l_g >= l of (l_g - l + 1)
        numerator += count * ((n_units - 1) * (l * (l - 1) * (2 * l - 1) // 3) + l * l * fits)
    denominator = m * L * (m * L - 1) - sum(count * l * (l - 1) for l, count in unit_lengths.items())
    expected = Fraction(2 * numerator, L * denominator)
    return observed, expected


def _sections(spans: list[tuple[int, int]], length: int, breaks: list[int]) -> list[Section]:
    """Units and gaps of one annotator partitioning ``[0, length)``; gaps are cut at ``breaks``."""
    out: list[Section] = []
    position = 0
    for start, end in [*spans, (length, length)]:
        if start > position:
            cuts = breaks[bisect_left(breaks, position + 1):bisect_left(breaks, start)]
            for gap_start, gap_end in zip([position, *cuts], [*cuts, start], strict=True):
                out.append((gap_start, gap_end, False))
        if end > start:
            out.append((start, end, True))
        position = max(position, end)
    return out


def _pair_squared_distance(first: list[Section], second: list[Section]) -> int:
    """Sum of delta^2 over the overlapping sections of two annotators (only those can differ)."""
    total, p, q = 0, 0, 0
    while p < len(first) and q < len(second):
        s1, e1, unit1 = first[p]
        s2, e2, unit2 = second[q]
        if unit1 and unit2:
            total += (s1 - s2) ** 2 + (e1 - e2) ** 2
        elif unit1 and s2 <= s1 and e1 <= e2:  # unit inside the other's gap
            total += (e1 - s1) ** 2
        elif unit2 and s1 <= s2 and e2 <= e1:
            total += (e2 - s2) ** 2
        if e1 <= e2:
            p += 1
        if e2 <= e1:
            q += 1
    return total


# ---------------------------------------------------------------------------------------------
# mu_alpha (Krippendorff et al. 2016, eq. 5a)


def _mu_alpha_disagreements(length: int, valued_units: list[list[tuple[int, int, int]]], n_values: int):
    """``(Do, De)`` of eq. 5a as Fractions; units are ``(value, start, end)`` with values 1..n_values.

    Positions covered by no unit have the gap value 0. ``sum_c o_cc`` is ``1/(m-1)`` times the
    number of (ordered annotator pair, position) with equal values, since sections partition the
    continuum. Positions are never enumerated: for two annotators, the equal positions are the
    common gap ``L - covered_i - covered_j + overlap_ij`` plus the overlap of equally valued units,
    from one merge of the sorted units (memory O(units), not O(L)).
    """
    m = len(valued_units)
    n = m * length
    units = [_sorted_units(annotator) for annotator in valued_units]
    covered = [sum(end - start for start, end, _ in annotator) for annotator in units]
    agreeing = 0
    for i in range(m):
        for j in range(i + 1, m):
            overlap, same = _overlaps(units[i], units[j])
            agreeing += length - covered[i] - covered[j] + overlap + same
    observed = 1 - Fraction(2 * agreeing, (m - 1) * n)

    n_c = [n - sum(covered)] + [0] * n_values
    w_c = [n_c[0]] + [0] * n_values  # a gap weighs its length, a unit its squared length
    for annotator in units:
        for start, end, value in annotator:
            n_c[value] += end - start
            w_c[value] += (end - start) ** 2
    expected = 1 - Fraction(sum(c * c - w for c, w in zip(n_c, w_c, strict=True)), n * n - sum(w_c))
    return observed, expected


def _sorted_units(valued_units) -> list[tuple[int, int, int]]:
    """``(start, end, value)`` sorted by start; ValueError if two units overlap."""
    units = sorted((start, end, value) for value, start, end in valued_units)
    reach = 0
    for start, end, _ in units:
        if start < reach:
            raise ValueError(f"units overlap at [{start}, {end})")
        reach = end
    return units


def _overlaps(first, second) -> tuple[int, int]:
    """(total overlap of the units of two annotators, overlap of units with equal values)."""
    overlap = same = 0
    p = q = 0
    while p < len(first) and q < len(second):
        s1, e1, v1 = first[p]
        s2, e2, v2 = second[q]
        common = min(e1, e2) - max(s1, s2)
        if common > 0:
            overlap += common
            if v1 == v2:
                same += common
        if e1 <= e2:
            p += 1
        else:
            q += 1
    return overlap, same


# ---------------------------------------------------------------------------------------------
# results and validation


def _summary(observed: Fraction, expected: Fraction, label: str, warnings: list[str]) -> dict:
    """Plain floats; alpha = 1 - Do/De, or None (with a warning) when De = 0."""
    if expected == 0:
        alpha = None
        warnings.append(
            f"{label}: alpha is None because the expected disagreement is 0 "
            "(no units, or nothing could be placed differently by chance)"
        )
    else:
        alpha = float(1 - observed / expected)
    return {"observed_disagreement": float(observed), "expected_disagreement": float(expected), "alpha": alpha}


def _check_variant(variant) -> None:
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {VARIANTS}, got {variant!r}")


def _check_annotations(annotations) -> list[list[Sequence[str]]]:
    """Texts as lists of annotators' tag sequences; ValueError naming the text otherwise."""
    if isinstance(annotations, (str, bytes)) or not isinstance(annotations, (Sequence, np.ndarray)):
        raise ValueError("annotations must be a list over texts of lists over annotators of tag sequences")
    if len(annotations) == 0:
        raise ValueError("empty input: no texts were given")
    texts = []
    for t, text in enumerate(annotations):
        if isinstance(text, (str, bytes)) or not isinstance(text, (Sequence, np.ndarray)):
            raise ValueError(f"text {t}: expected a list over annotators of tag sequences, got {type(text).__name__}")
        if len(text) != len(annotations[0]):
            raise ValueError(f"text {t} has {len(text)} annotators but text 0 has {len(annotations[0])}")
        if len(text) == 0:
            raise ValueError(f"text {t}: no annotators")
        for i, tags in enumerate(text):
            if tags is None:
                raise ValueError(f"text {t}, annotator {i}: missing annotation (None); unitizing alpha needs "
                                 "every annotator on every text")
            if isinstance(tags, (str, bytes)):
                raise ValueError(f"text {t}, annotator {i}: expected a list of tags, got a string")
            if len(tags) != len(text[0]):
                raise ValueError(f"text {t}: annotator {i} has {len(tags)} tags but annotator 0 has {len(text[0])}")
        texts.append(list(text))
    if not any(len(text[0]) for text in texts):
        raise ValueError("empty input: every text has zero tokens")
    return texts


def _check_units(length, units_per_annotator, gap_breaks):
    """Normalise to ``(L, [[(type, start, end), ...] per annotator], sorted breaks)``."""
    if isinstance(length, bool) or not isinstance(length, (int, np.integer)) or length < 1:
        raise ValueError(f"length must be a positive integer, got {length!r}")
    length = int(length)
    if isinstance(units_per_annotator, (str, bytes)) or not isinstance(units_per_annotator, Sequence):
        raise ValueError("units_per_annotator must be a list over annotators of lists of units")
    if isinstance(gap_breaks, (str, bytes)) or not isinstance(gap_breaks, Iterable):
        raise ValueError(f"gap_breaks must be a list of integer positions, got {gap_breaks!r}")
    breaks = sorted({_as_position(b, "gap break") for b in gap_breaks})
    if breaks and not 0 < breaks[0] <= breaks[-1] < length:
        raise ValueError(f"gap breaks must lie strictly inside (0, {length}), got {breaks}")
    units = []
    for i, annotator in enumerate(units_per_annotator):
        if isinstance(annotator, (str, bytes)) or not isinstance(annotator, (Sequence, np.ndarray, set)):
            raise ValueError(f"annotator {i}: expected a list of units, got {annotator!r}")
        normalised = []
        for k, unit in enumerate(annotator):
            if (isinstance(unit, (str, bytes)) or not isinstance(unit, (Sequence, np.ndarray))
                    or len(unit) not in (2, 3)):
                raise ValueError(f"annotator {i}, unit {k}: expected (start, end) or (type, start, end), got {unit!r} "
                                 f"(units_per_annotator is a list over annotators of lists of units)")
            type_, start, end = (UNTYPED, *unit) if len(unit) == 2 else unit
            start, end = _as_position(start, "unit start"), _as_position(end, "unit end")
            if not 0 <= start < end <= length:
                raise ValueError(f"annotator {i}, unit {k} {unit!r}: needs 0 <= start < end <= {length}")
            cut = bisect_left(breaks, start + 1)
            if cut < len(breaks) and breaks[cut] < end:
                raise ValueError(f"annotator {i}, unit {k} {unit!r} runs across the gap break {breaks[cut]}")
            normalised.append((type_, start, end))
        by_type = sorted(normalised, key=lambda u: (str(u[0]), u[1]))
        for previous, current in pairwise(by_type):
            if previous[0] == current[0] and current[1] < previous[2]:
                raise ValueError(f"annotator {i}: units {previous!r} and {current!r} of one type overlap")
        units.append(normalised)
    return length, units, breaks


def _as_position(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{what} must be an integer, got {value!r}")
    return int(value)
