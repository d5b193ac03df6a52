"""The best alignment of a continuum, exactly (Mathet et al. 2015, sections 4.2 and 5.1).

An alignment partitions the units into *unitary alignments*: n-tuples with at most one unit of
each annotator, the other places taken by the empty unit. With ``P = n (n - 1) / 2`` pairs of
places, a unitary alignment ``a`` of ``k`` units costs

    delta(a) = [ sum over its pairs of units d(u, v) + (P - k (k - 1) / 2) * delta_empty ] / P

(every pair with an empty place costs ``delta_empty``, pygamma's convention; a unit alone costs
``delta_empty``), and the disorder of an alignment is ``sum_a delta(a) / (N / n)``, ``N`` units.
The best alignment has the least disorder; its disorder is gamma's observed disorder.

Why the problem splits into small pieces (section 5.1's criterion, made local). Splitting a
unitary alignment into two parts ``S`` and ``T`` changes its cost by
``[(P + |S||T|) delta_empty - sum of d over the |S||T| cross pairs] / P``. So when every cross pair
costs at least ``(P + 1) delta_empty``, the split never costs more, and some best alignment only
joins units that are linked by pairs cheaper than ``(P + 1) delta_empty``: the connected
components of that graph are solved one by one (for two annotators, pairs above ``2 delta_empty``,
two empty units, never help). With ``S`` one unit ``u`` the same identity shows that a best
alignment never needs a unitary alignment in which ``sum_v d(u, v) >= (P + k - 1) delta_empty``,
nor one costing more than its ``k`` units alone (``delta(a) > k delta_empty``, pygamma's bound in
its per-alignment form); candidates failing these are left out. None of this is approximate: the
value is the minimum over all alignments.

- Two annotators: a minimum-cost assignment with the empty unit per component (scipy's
  ``linear_sum_assignment`` on ``d(u, v) - 2 delta_empty``, pairs left unmatched cost nothing
  extra); a component of one pair is that pair. Among equally good alignments, two units whose
  pair costs exactly ``2 delta_empty`` (adjacent units of different categories, for instance)
  are aligned rather than left alone, as pygamma's solver does: gamma is the same either way,
  gamma-cat and gamma-k are not.
- Three or more: components of at most ``_SMALL`` units of distinct annotators (most of them)
  compare all their set partitions at once; the others form one set-partition problem over the
  candidate unitary alignments (tuples of units pairwise cheaper than ``(P + n - 1) delta_empty``,
  enumerated as cliques, array by array), a binary programme for scipy's ``milp`` (HiGHS,
  relative gap 0), whose linear relaxation is tried first: when it is integral (as on every
  CoNLL-2003 continuum tried) it is the optimum.

A bound on the work. Where many annotators pile many units on a short stretch (every unit within
reach of every other), the candidates grow like the product of the annotators' unit counts: six
annotators with ten units each on ten tokens give over a million, the programme then takes minutes
and gigabytes. Before each size of candidates is built, the count of each component's next size
is known from the previous one (every candidate grown by every later neighbour of its last unit,
an upper bound on what is kept); past ``max_candidates`` (:data:`MAX_CANDIDATES`, 100,000 by
default: about two seconds of enumeration and programme) in one component, the alignment is
refused with :class:`AlignmentTooLarge`, naming the component (its text, positions, annotators and
units) before anything large is allocated. Nothing is approximated silently.

Not a dynamic programme over positions: under ``d_pos`` a crossing matching can be cheaper.
The reported disorders are exact sums (``math.fsum``) of the chosen unitary alignments.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Integral

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, linear_sum_assignment, linprog, milp
from scipy.sparse import coo_matrix, csc_matrix
from scipy.sparse.csgraph import connected_components

from .continuum import Continuum
from .dissimilarity import Dissimilarity

__all__ = ["MAX_CANDIDATES", "Alignment", "AlignmentTooLarge", "best_alignment", "candidate_pairs"]

# Slack on the pruning thresholds, so that rounding never leaves out a candidate the exact
# arithmetic keeps (extra candidates cost time, never exactness).
_SLACK = 1e-9
# Objective scale for HiGHS, whose absolute gap tolerance is 1e-6: a power of two, exact.
_MILP_SCALE = 1024.0
# A relaxation value this close to 0 or 1 counts as integral.
_INTEGRAL = 1e-9
# Two units whose pair costs exactly two empty units are aligned, as pygamma's solver does: the
# assignment sees such a pair as a gain of 1e-12 delta_empty (a tie-break, not a cost).
_TIE = 1e-12
# Components of at most this many units, all of distinct annotators, are solved by comparing all
# their set partitions (Bell(4) = 15) at once; larger ones go to the binary programme.
_SMALL = 4
# Candidate unitary alignments of one size that one component may need before the exact alignment
# is refused (module docstring): enumeration and programme then take about two seconds.
MAX_CANDIDATES = 100_000


class AlignmentTooLarge(ValueError):
    """The exact alignment of one component would need more than ``limit`` candidate unitary
    alignments of one size. ``text`` is the index of the text the component starts in, ``start``
    and ``end`` its extent in that text, ``annotators`` the names of the annotators with units in
    it, ``n_units`` its units, ``estimate`` the candidates counted for its next size, and ``sample``
    None for the observed continuum or the number of the random continuum (from 1)."""

    ADVICE = "or raise max_candidates knowing it may take minutes and gigabytes"

    def __init__(self, text: int, start: float, end: float, annotators: tuple, n_units: int, estimate: int,
                 limit: int, sample: int | None = None):
        self.text, self.start, self.end, self.annotators = text, start, end, annotators
        self.n_units, self.estimate, self.limit, self.sample = n_units, estimate, limit, sample
        super().__init__(self.describe(f"text {text}", self.ADVICE))

    def describe(self, text: str, advice: str) -> str:
        """The message, with the component's text named as ``text`` (a sentence, a document) and
        ``advice`` last (what else to do)."""
        where = text if self.sample is None else f"random continuum {self.sample} (the observed one passed), {text}"
        return (f"gamma: {where}, positions {_plain(self.start)} to {_plain(self.end)}: {self.n_units} units of "
                f"{len(self.annotators)} annotators ({', '.join(map(str, self.annotators))}) are linked by "
                f"nearby pairs into one component, and their exact alignment would need at least "
                f"{self.estimate:,} candidate unitary alignments of one size (limit {self.limit:,}); compare "
                f"fewer annotators at a time (two are always aligned quickly), split that stretch, {advice}")


@dataclass(frozen=True, eq=False)
class Alignment:
    """A partition of a continuum's units into unitary alignments.

    ``tuples[a, i]`` is the unit of annotator ``i`` in unitary alignment ``a`` (-1: the empty
    unit); ``disorders[a]`` is its cost ``delta(a)``. ``disorder`` = ``fsum(disorders) / (N / n)``.
    """

    continuum: Continuum
    tuples: np.ndarray
    disorders: np.ndarray

    @property
    def disorder(self) -> float:
        c = self.continuum
        if c.n_units == 0:
            return 0.0
        return math.fsum(self.disorders.tolist()) / (c.n_units / c.n_annotators)

    def rows(self) -> list[dict]:
        """One dict per unitary alignment, left to right: its disorder and, per annotator,
        ``[category, start, end]`` or None (plus the text index when the continuum has texts)."""
        c = self.continuum
        units = np.where(self.tuples >= 0, self.tuples, 0)
        first = np.where(self.tuples >= 0, c.start[units], np.inf).min(axis=1)
        rows = []
        for a in np.lexsort((np.arange(len(first)), first)):
            members = [int(u) for u in self.tuples[a]]
            row: dict = {"disorder": float(self.disorders[a])}
            if c.text_offsets is not None:
                row["text"] = int(c.text_of([min(u for u in members if u >= 0)])[0])
            row["units"] = {
                str(c.annotators[i]): None if u < 0 else [c.categories[c.category[u]], _plain(c.start[u]),
                                                          _plain(c.end[u])]
                for i, u in enumerate(members)
            }
            rows.append(row)
        return rows


def _plain(value: float):
    return int(value) if float(value).is_integer() else float(value)


def candidate_pairs(continuum: Continuum, dissimilarity: Dissimilarity, matrix: np.ndarray, threshold: float):
    """``(u, v, d)``: every pair of units of two different annotators with ``d(u, v) < threshold``,
    ``u < v``. Units are looked up in a window of starts (``Dissimilarity.reach``), then the
    exact cost is computed and compared."""
    c = continuum
    groups = [c.units_of(i) for i in range(c.n_annotators)]
    reach = dissimilarity.reach(threshold)
    found_u, found_v = [], []
    for i in range(c.n_annotators):
        for j in range(i + 1, c.n_annotators):
            u, v = _window_pairs(c, groups[i], groups[j], reach)
            found_u.append(u)
            found_v.append(v)
    u = np.concatenate(found_u) if found_u else np.zeros(0, np.int64)
    v = np.concatenate(found_v) if found_v else np.zeros(0, np.int64)
    cost = dissimilarity.pair(c.start[u], c.end[u], c.category[u], c.start[v], c.end[v], c.category[v], matrix)
    keep = cost < threshold
    order = np.lexsort((v[keep], u[keep]))
    return u[keep][order], v[keep][order], cost[keep][order]


def _window_pairs(c: Continuum, first: np.ndarray, second: np.ndarray, reach: float):
    """Pairs (u in ``first``, v in ``second``) with ``|s_u - s_v| < reach * (l_u + max l_v)``."""
    if first.size == 0 or second.size == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    if math.isinf(reach):
        return np.repeat(first, second.size), np.tile(second, first.size)
    starts = c.start[second]  # sorted: units are sorted by (annotator, start, ...)
    half = reach * ((c.end[first] - c.start[first]) + float((c.end[second] - c.start[second]).max()))
    low = np.searchsorted(starts, c.start[first] - half, side="left")
    high = np.searchsorted(starts, c.start[first] + half, side="right")
    counts = high - low
    total = int(counts.sum())
    position = np.repeat(low - np.cumsum(counts) + counts, counts) + np.arange(total)
    return np.repeat(first, counts), second[position]


def _components(n_units: int, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    graph = coo_matrix((np.ones(u.size, dtype=np.int8), (u, v)), shape=(n_units, n_units))
    return connected_components(graph, directed=False)[1]


def best_alignment(continuum: Continuum, dissimilarity: Dissimilarity | None = None, *,
                   max_candidates: int = MAX_CANDIDATES) -> Alignment:
    """The alignment of least disorder (module docstring): exact for any number of annotators.

    Parameters
    ----------
    continuum : Continuum
    dissimilarity : Dissimilarity, default ``Dissimilarity()``
    max_candidates : int, default :data:`MAX_CANDIDATES`
        Candidate unitary alignments of one size that one component may need (three or more
        annotators); past it the alignment is refused before they are built.

    Returns
    -------
    Alignment

    Raises
    ------
    AlignmentTooLarge
        When a component needs more than ``max_candidates`` candidates (a ``ValueError``).
    ValueError
        With fewer than two annotators, or ``max_candidates`` not a positive integer.

    Examples
    --------
    >>> from chance_agreement.reliability.gamma import best_alignment, continuum_from_units
    >>> units = {"a": [("X", 0, 4)], "b": [("X", 0, 4)], "c": [("X", 1, 4)]}
    >>> round(best_alignment(continuum_from_units(units)).disorder, 4)
    0.0136
    """
    dissimilarity = dissimilarity or Dissimilarity()
    if continuum.n_annotators < 2:
        raise ValueError(f"gamma needs two or more annotators, got {continuum.n_annotators}")
    if isinstance(max_candidates, bool) or not isinstance(max_candidates, Integral) or max_candidates < 1:
        raise ValueError(f"max_candidates must be a positive integer, got {max_candidates!r}")
    matrix = dissimilarity.category_values(continuum.categories)
    if continuum.n_annotators == 2:
        return _two_annotators(continuum, dissimilarity, matrix)
    return _set_partition(continuum, dissimilarity, matrix, int(max_candidates))


def _assemble(c: Continuum, groups: list[np.ndarray], disorders: list[np.ndarray], delta: float) -> Alignment:
    """Unitary alignments from lists of member arrays (-1 padded) plus every unit left alone."""
    n = c.n_annotators
    blocks = [np.zeros((0, n), dtype=np.int64)]
    for members in groups:
        block = np.full((members.shape[0], n), -1, dtype=np.int64)
        rows = np.repeat(np.arange(members.shape[0]), members.shape[1])
        flat = members.ravel()
        keep = flat >= 0
        block[rows[keep], c.annotator[flat[keep]]] = flat[keep]
        blocks.append(block)
    tuples = np.concatenate(blocks)
    used = np.zeros(c.n_units, dtype=bool)
    used[tuples[tuples >= 0]] = True
    alone = np.flatnonzero(~used)
    single = np.full((alone.size, n), -1, dtype=np.int64)
    single[np.arange(alone.size), c.annotator[alone]] = alone
    all_disorders = np.concatenate([np.zeros(0), *disorders, np.full(alone.size, delta)])
    return Alignment(c, np.concatenate([tuples, single]), all_disorders)


def _two_annotators(c: Continuum, dissimilarity: Dissimilarity, matrix: np.ndarray) -> Alignment:
    """Least ``sum d(u, v) + delta_empty * (units left alone)``: per component, an assignment.
    A component with one unit on a side (most of them) keeps its cheapest pair, array-wide."""
    delta = dissimilarity.delta_empty
    u, v, cost = candidate_pairs(c, dissimilarity, matrix, 2 * delta * (1 + _SLACK))
    gain = np.where(cost < 2 * delta, cost - 2 * delta, -_TIE * delta)  # a pair at exactly 2 delta is aligned
    keep = gain < 0
    u, v, cost, gain = u[keep], v[keep], cost[keep], gain[keep]
    label = _components(c.n_units, u, v)[u]
    row_of, rows = _local_index(label, u)
    col_of, cols = _local_index(label, v)
    star = (rows[label] == 1) | (cols[label] == 1)
    order = np.lexsort((gain, label))
    first = order[np.r_[True, label[order][1:] != label[order][:-1]]] if order.size else order
    picked = [first[star[first]]]
    rest = np.flatnonzero(~star)
    if rest.size:
        rest = rest[np.argsort(label[rest], kind="stable")]
        for edges in np.split(rest, np.flatnonzero(np.diff(label[rest])) + 1):
            table = np.zeros((rows[label[edges[0]]], cols[label[edges[0]]]))
            table[row_of[edges], col_of[edges]] = gain[edges]
            at = np.full(table.shape, -1)
            at[row_of[edges], col_of[edges]] = edges
            r, k = linear_sum_assignment(table)
            picked.append(at[r, k][table[r, k] < 0])
    chosen = np.concatenate(picked)
    return _assemble(c, [np.stack([u[chosen], v[chosen]], axis=1)], [cost[chosen]], delta)


def _local_index(label: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rank of each ``x`` among the distinct values of its ``label`` group, and, per label, the
    number of distinct values (0 for labels without any)."""
    width = np.zeros(int(label.max()) + 1 if label.size else 0, dtype=np.int64)
    if not label.size:
        return np.zeros(0, np.int64), width
    order = np.lexsort((x, label))
    sorted_label, sorted_x = label[order], x[order]
    new_label = np.r_[True, sorted_label[1:] != sorted_label[:-1]]
    new_value = new_label | np.r_[True, sorted_x[1:] != sorted_x[:-1]]
    count = np.cumsum(new_value) - 1
    base = count[new_label]
    local = count - np.repeat(base, np.diff(np.r_[np.flatnonzero(new_label), label.size]))
    out = np.empty_like(local)
    out[order] = local
    np.maximum.at(width, label, out + 1)
    return out, width


def _set_partition(c: Continuum, dissimilarity: Dissimilarity, matrix: np.ndarray, limit: int) -> Alignment:
    """Three or more annotators, per component: all set partitions when the component has at most
    ``_SMALL`` units of distinct annotators (most of them), else candidate unitary alignments
    and one ``milp`` for all such components together."""
    n, delta = c.n_annotators, dissimilarity.delta_empty
    places = n * (n - 1) // 2
    u, v, cost = candidate_pairs(c, dissimilarity, matrix, (places + n - 1) * delta * (1 + _SLACK))
    near = cost < (places + 1) * delta * (1 + _SLACK)
    labels = _components(c.n_units, u[near], v[near])
    sizes = np.bincount(labels, minlength=c.n_units)
    annotators = np.bincount(np.unique(labels * n + c.annotator) // n, minlength=c.n_units)
    small = (sizes <= _SMALL) & (annotators == sizes)
    groups, disorders = [], []
    for m in range(2, _SMALL + 1):
        units = np.flatnonzero(small[labels] & (sizes[labels] == m))
        members = units[np.lexsort((c.annotator[units], labels[units]))].reshape(-1, m)
        for chosen, raw in _best_partitions(c, dissimilarity, matrix, members, places):
            groups.append(chosen)
            disorders.append(raw / places)
    large = ~small[labels[u]] & (labels[u] == labels[v])
    guard = _Guard(c, labels, limit)
    members, raws = _candidate_tuples(c.n_units, u[large], v[large], cost[large], n, places, delta, guard)
    if raws.size:
        chosen = _solve_partition(c.n_units, members, raws, places * delta)
        groups.append(members[chosen])
        disorders.append(raws[chosen] / places)
    return _assemble(c, groups, disorders, delta)


def _set_partitions(m: int) -> list[list[list[int]]]:
    """Every partition of ``range(m)`` into blocks, fewest blocks first."""
    found: list[list[list[int]]] = [[]]
    for item in range(m):
        found = [[*blocks[:i], blocks[i] + [item], *blocks[i + 1:]] for blocks in found for i in range(len(blocks))] + \
                [[*blocks, [item]] for blocks in found]
    return sorted(found, key=len)


def _best_partitions(c, dissimilarity, matrix, members: np.ndarray, places: int):
    """For components of ``m`` units of distinct annotators (rows of ``members``): the partition
    of least cost, all partitions compared at once (ties: the first, with the fewest unitary
    alignments). Yields ``(members of each chosen block of 2+ units, raw cost P * delta(a))``."""
    count, m = members.shape
    if count == 0:
        return
    delta = dissimilarity.delta_empty
    pair = {}
    for i in range(m):
        for j in range(i + 1, m):
            a, b = members[:, i], members[:, j]
            pair[i, j] = dissimilarity.pair(c.start[a], c.end[a], c.category[a], c.start[b], c.end[b], c.category[b],
                                            matrix)
    partitions = _set_partitions(m)

    def raw(block):
        total = np.zeros(count)
        for x in range(len(block)):
            for y in range(x + 1, len(block)):
                total = total + pair[block[x], block[y]]
        return total + (places - len(block) * (len(block) - 1) // 2) * delta

    raws = {tuple(block): raw(block) for blocks in partitions for block in blocks if len(block) > 1}
    totals = np.stack([sum((raws[tuple(b)] for b in blocks if len(b) > 1), np.zeros(count))
                       + sum(len(b) == 1 for b in blocks) * places * delta for blocks in partitions], axis=1)
    best = np.argmin(totals, axis=1)
    for p, blocks in enumerate(partitions):
        rows = np.flatnonzero(best == p)
        for block in (b for b in blocks if len(b) > 1 and rows.size):
            chosen = np.full((rows.size, c.n_annotators), -1, dtype=np.int64)
            chosen[:, :len(block)] = members[rows][:, block]
            yield chosen, raws[tuple(block)][rows]


@dataclass(frozen=True)
class _Guard:
    """Refuses a component whose next size of candidates would pass ``limit`` (module docstring)."""

    continuum: Continuum
    labels: np.ndarray
    limit: int

    def check(self, first: np.ndarray, counts: np.ndarray) -> None:
        """``counts[r]``: the candidates to be built from the one whose first unit is ``first[r]``."""
        if not first.size:
            return
        per_component = np.bincount(self.labels[first], weights=counts)
        worst = int(np.argmax(per_component))
        if per_component[worst] <= self.limit:
            return
        c = self.continuum
        units = np.flatnonzero(self.labels == worst)
        text = int(c.text_of(units[:1])[0])
        low = float(c.start[units].min()) - (0 if c.text_offsets is None else float(c.text_offsets[text]))
        high = float(c.end[units].max()) - (0 if c.text_offsets is None else float(c.text_offsets[text]))
        names = tuple(c.annotators[i] for i in np.unique(c.annotator[units]))
        raise AlignmentTooLarge(text, low, high, names, int(units.size), int(per_component[worst]), self.limit)


def _candidate_tuples(n_units, u, v, cost, n, places, delta, guard: _Guard):
    """Unitary alignments of two or more units that may be in a best alignment (module docstring):
    cliques of the pair graph, one unit per annotator, grown one place at a time, each size
    counted (``guard``) before it is built. Returns the members (-1 padded to ``n`` columns) and
    the raw costs ``P * delta(a)``."""
    if u.size == 0:
        return np.zeros((0, n), dtype=np.int64), np.zeros(0)
    guard.check(u, np.ones(u.size))
    keys = u * n_units + v
    starts = np.searchsorted(u, np.arange(n_units + 1))
    level = np.stack([u, v], axis=1)
    pair_sum = cost.copy()
    unit_sums = np.stack([cost, cost], axis=1)
    kept_members, kept_raws = [], []
    while level.shape[0]:
        k = level.shape[1]
        raw = pair_sum + (places - k * (k - 1) // 2) * delta
        ok = raw <= k * places * delta * (1 + _SLACK)
        ok &= (unit_sums < (places + k - 1) * delta * (1 + _SLACK)).all(axis=1)
        padded = np.full((int(ok.sum()), n), -1, dtype=np.int64)
        padded[:, :k] = level[ok]
        kept_members.append(padded)
        kept_raws.append(raw[ok])
        if k == n:
            break
        level, pair_sum, unit_sums = _grow(level, pair_sum, unit_sums, keys, starts, v, cost, n_units, guard)
    return np.concatenate(kept_members), np.concatenate(kept_raws)


def _grow(level, pair_sum, unit_sums, keys, starts, v, cost, n_units, guard: _Guard):
    """Every clique one unit larger: a neighbour ``x`` of the last member, ``x`` above it, joined
    by a pair to every other member. Sums are accumulated in a fixed order."""
    last = level[:, -1]
    counts = starts[last + 1] - starts[last]
    guard.check(level[:, 0], counts)
    rows = np.repeat(np.arange(level.shape[0]), counts)
    edge = np.repeat(starts[last] - np.cumsum(counts) + counts, counts) + np.arange(int(counts.sum()))
    new = v[edge]
    added = cost[edge].copy()
    columns = [cost[edge]]
    alive = np.ones(new.size, dtype=bool)
    for m in range(level.shape[1] - 1):
        key = level[rows, m] * n_units + new
        at = np.minimum(np.searchsorted(keys, key), keys.size - 1)
        alive &= keys[at] == key
        columns.insert(m, cost[at])
        added = added + cost[at]
    grown = np.concatenate([level[rows], new[:, None]], axis=1)[alive]
    old_sums = unit_sums[rows] + np.stack(columns, axis=1)
    sums = np.concatenate([old_sums, added[:, None]], axis=1)[alive]
    return grown, (pair_sum[rows] + added)[alive], sums


def _integral_relaxation(objective: np.ndarray, a) -> np.ndarray | None:
    """The linear relaxation's optimum (HiGHS) when it is integral, which makes it optimal for
    the binary programme too (its bound is reached); None when it is fractional."""
    result = linprog(objective, A_eq=a, b_eq=np.ones(a.shape[0]), bounds=(0, 1), method="highs-ds")
    if result.x is None or not np.all((result.x < _INTEGRAL) | (result.x > 1 - _INTEGRAL)):
        return None
    return result.x


def _solve_partition(n_units: int, members: np.ndarray, raws: np.ndarray, alone: float) -> np.ndarray:
    """Indices of the candidates in a least-cost set partition (units left out stand alone at
    cost ``alone`` each): one binary programme, solved by HiGHS with relative gap 0, unless its
    linear relaxation (solved first, about three times faster) is already integral."""
    involved = np.unique(members[members >= 0])
    local = np.full(n_units, -1)
    local[involved] = np.arange(involved.size)
    width = members.shape[0]
    cols = np.concatenate([np.repeat(np.arange(width), members.shape[1]), width + np.arange(involved.size)])
    rows = np.concatenate([local[np.where(members >= 0, members, involved[0])].ravel(), np.arange(involved.size)])
    weight = np.concatenate([(members >= 0).ravel().astype(float), np.ones(involved.size)])
    a = csc_matrix((weight, (rows, cols)), shape=(involved.size, width + involved.size))
    a.eliminate_zeros()
    objective = np.concatenate([raws, np.full(involved.size, alone)]) * _MILP_SCALE
    x = _integral_relaxation(objective, a)
    if x is None:
        result = milp(objective, integrality=np.ones(objective.size), bounds=Bounds(0, 1),
                      constraints=LinearConstraint(a, 1, 1), options={"mip_rel_gap": 0.0})
        if result.x is None:
            raise RuntimeError(f"HiGHS found no alignment: {result.message}")
        x = result.x
    chosen = np.flatnonzero(x[:width] > 0.5)
    cover = np.bincount(members[chosen][members[chosen] >= 0], minlength=n_units)[involved]
    cover += (x[width:] > 0.5)
    if not (cover == 1).all():
        raise RuntimeError("HiGHS returned a solution that is not a partition of the units")
    return chosen
