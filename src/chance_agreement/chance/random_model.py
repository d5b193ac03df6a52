"""The random annotation model (chance_agreement_sequence_annotation.txt, Propositions 2-5).

For one annotator, one text of ``n`` tokens and one entity type, the model keeps the number ``k``
of segments and their lengths ``a_1..a_k`` and places them uniformly at random over all feasible
placements:

- ``"non_overlapping"`` (the paper's experiments): segments may touch but not overlap. There are
  ``k! * C(n - a + k, k)`` placements, ``a = sum(a_i)`` (Proposition 2).
- ``"overlapping"``: every segment independently uniform over its ``n - a_i + 1`` starts
  (Proposition 5).

How the non-overlapping distributions are computed (exactly, without Proposition 2's 2^k subsets):
write each segment as one *slot* plus its excess ``e_i = a_i - 1`` and let ``E = sum(e_i)``.
A placement is then a uniform choice of ``k`` slots among ``M = n - E`` compressed positions,
independent of a uniform order of the segments; a segment in slot ``q`` (0-based) starts at token
``q + X``, where ``X`` is the excess of the segments in earlier slots. Hence, for a segment ``i``,

    P(start_i = l) = 1/M * sum_{q + x = l} sum_j HG(j; M-1, q, k-1) * D_j(x)

with ``HG`` the hypergeometric probability that ``j`` of the other ``k - 1`` slots precede ``q`` and
``D_j(x)`` the probability that a uniform ``j``-subset of the other segments has excess ``x``: only
the number of segments to one side and their total length matter. The same sum with all ``k``
segments gives the probability that token ``t`` is a free (unannotated) token, times ``(M - k)/M``.
Proposition 3 makes both distributions flat in the middle band, so only the two ends (``E``
positions each, mirror images) are computed and the middle value follows from the total mass.
Everything is done with probabilities (never counts or factorials), so ``n = 100,000`` is fine.
"""

from __future__ import annotations

import operator
from collections import Counter
from functools import lru_cache

import numpy as np
from scipy.special import gammaln

MODELS = ("non_overlapping", "overlapping")

# Hypergeometric mass left out when the number of segments to one side is truncated: far below
# double precision, so the truncation changes no printed digit.
_TRUNCATED_MASS = 1e-20

# log(x!) for small x, each value to about one ulp: the fast path for texts up to this size.
_SMALL = 1024
_LOG_FACTORIAL = gammaln(np.arange(_SMALL + 1) + 1.0)


def _check_model(model: str) -> str:
    if model not in MODELS:
        raise ValueError(f"model must be one of {list(MODELS)}, got {model!r}")
    return model


def _check_inputs(n, lengths, model: str) -> tuple[int, tuple[int, ...]]:
    _check_model(model)
    try:
        n = operator.index(n)
    except TypeError:
        raise ValueError(f"n must be an integer number of tokens, got {n!r}") from None
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    checked = []
    for position, length in enumerate(lengths):
        try:
            length = operator.index(length)
        except TypeError:
            raise ValueError(f"lengths[{position}] must be an integer, got {length!r}") from None
        if length < 1:
            raise ValueError(f"lengths[{position}] must be >= 1, got {length}")
        checked.append(length)
    if model == "non_overlapping" and sum(checked) > n:
        raise ValueError(
            f"segments of total length {sum(checked)} do not fit without overlap in n={n} tokens"
        )
    if model == "overlapping" and checked and max(checked) > n:
        raise ValueError(f"a segment of length {max(checked)} does not fit in n={n} tokens")
    return n, tuple(checked)


def _log_rising(base: int, steps: int) -> np.ndarray:
    """``out[s] = log((base + s)! / base!)`` for ``s = 0..steps`` by a short cumulative sum."""
    out = np.zeros(steps + 1)
    if steps > 0:
        np.cumsum(np.log(np.arange(base + 1, base + steps + 1, dtype=float)), out=out[1:])
    return out


def _hypergeometric_matrix(slots: int, draws: int, rows: int, j_max: int, first_row: int = 0) -> np.ndarray:
    """``H[q, j] = C(q, j) C(slots - q, draws - j) / C(slots, draws)``, ``first_row <= q < rows``, ``j <= j_max``.

    The probability that ``j`` of ``draws`` uniformly chosen slots (out of ``slots``) lie among the
    first ``q``. Logs are formed from short cumulative sums of logs, so no large log-factorials
    are subtracted from each other (relative error ~1e-13 even for ``slots`` ~ 1e5).
    """
    q = np.arange(first_row, rows)[:, None]
    j = np.arange(j_max + 1)[None, :]
    rest = slots - draws  # slots that stay empty
    t = j - q  # (slots - q) - (draws - j) = rest + t
    valid = (j <= q) & (draws - j <= slots - q) & (rest + t >= 0) & (j <= draws)
    out = np.zeros((rows - first_row, j_max + 1))
    if slots <= _SMALL:
        lf = _LOG_FACTORIAL
        logp = (
            lf[q] - lf[j] - lf[(q - j).clip(0)]
            + lf[slots - q] - lf[(draws - j).clip(0)] - lf[(rest + t).clip(0)]
            - (lf[slots] - lf[draws] - lf[rest])
        )
        np.exp(logp, out=out, where=valid)
        return out
    log_fact_small = _log_rising(0, rows)  # log(x!) for x <= rows
    log_c_small = log_fact_small[q] - log_fact_small[j.clip(max=rows)] - log_fact_small[(q - j).clip(0)]
    # log((slots - q)! / slots!)
    log_a = np.concatenate([[0.0], np.cumsum(-np.log(np.arange(slots, slots - rows + 1, -1, dtype=float)))])[:rows]
    # log(draws! / (draws - j)!)
    log_b = np.concatenate([[0.0], np.cumsum(np.log(np.arange(draws, draws - j_max, -1, dtype=float).clip(1)))])[: j_max + 1]
    # log(rest! / (rest + t)!) for t in [-(rows - 1), j_max]
    lo = min(rows - 1, rest)
    down = np.concatenate([[0.0], np.cumsum(np.log(np.arange(rest, rest - lo, -1, dtype=float)))])  # t = 0, -1, ..
    up = -_log_rising(rest, j_max)  # t = 0, 1, ..
    log_c = np.full(rows + j_max, -np.inf)
    log_c[rows - 1 : rows + j_max] = up
    log_c[rows - 1 - lo : rows] = down[::-1]
    logp = log_c_small + log_a[q] + log_b[None, :] + log_c[(t + rows - 1).clip(0)]
    np.exp(logp, out=out, where=valid)
    return out


def _subset_excess_table(excesses: list[int], j_max: int, x_max: int) -> np.ndarray:
    """``D[j, x]``: probability that a uniform ``j``-subset of the segments has total excess ``x``.

    Built one segment at a time; adding a segment to a pool of ``r - 1``:
    ``D'_j(x) = (r - j)/r * D_j(x) + j/r * D_{j-1}(x - e)``. Only ``j <= j_max``, ``x <= x_max``.
    """
    table = np.zeros((j_max + 1, x_max + 1))
    table[0, 0] = 1.0
    for pool, excess in enumerate(excesses, start=1):
        top = min(pool, j_max)
        j = np.arange(top + 1, dtype=float)
        if excess <= x_max:
            moved = table[:top, : x_max + 1 - excess] * (j[1:] / pool)[:, None]
            table[: top + 1] *= ((pool - j) / pool)[:, None]
            table[1 : top + 1, excess:] += moved
        else:
            table[: top + 1] *= ((pool - j) / pool)[:, None]
    return table


def _band_mass(slots: int, draws: int, excesses: list[int], length: int, scale: float) -> np.ndarray:
    """``out[t] = scale * sum_{q + x = t} sum_j HG(j; slots, q, draws) D_j(x)`` for ``t < length``."""
    out = np.zeros(length)
    if length == 0:
        return out
    rows = min(length, slots + 1)
    # Fewest j columns that keep all but _TRUNCATED_MASS of the hypergeometric law at q = rows - 1
    # (the law is stochastically increasing in q, so this bound holds for every row).
    j_cap = min(draws, rows - 1)
    last_row = _hypergeometric_matrix(slots, draws, rows, j_cap, first_row=rows - 1)[0]
    tail = np.cumsum(last_row[::-1])[::-1]  # tail[j] = P(J >= j) at the last row
    negligible = np.nonzero(tail < _TRUNCATED_MASS)[0]
    if negligible.size:
        j_cap = max(int(negligible[0]) - 1, 0)
    hyper = _hypergeometric_matrix(slots, draws, rows, j_cap)
    x_max = min(length - 1, sum(excesses), j_cap * max(excesses, default=0))
    table = _subset_excess_table(excesses, j_cap, x_max)
    joint = hyper @ table  # joint[q, x] = P(slot q, excess x before it)
    if rows <= x_max + 1:
        for q in range(rows):
            stop = min(length, q + x_max + 1)
            out[q:stop] += joint[q, : stop - q]
    else:
        for x in range(x_max + 1):
            stop = min(length, x + rows)
            out[x:stop] += joint[: stop - x, x]
    out *= scale
    return out


def _mirror_fill(left: np.ndarray, size: int, total: float) -> np.ndarray:
    """A distribution symmetric under ``t -> size - 1 - t``, flat between the two mirrored ends."""
    band = left.size
    out = np.empty(size)
    out[:band] = left
    out[size - band :] = left[::-1]
    out[band : size - band] = (total - 2.0 * left.sum()) / (size - 2 * band)
    return out


@lru_cache(maxsize=1 << 16)
def _coverage(n: int, lengths: tuple[int, ...], model: str) -> np.ndarray:
    """Cached coverage for a sorted tuple of lengths; the array is read-only."""
    k = len(lengths)
    if model == "overlapping" or k == 1:  # one segment: both models place it uniformly
        cover = np.zeros(n)
        t = np.arange(n)
        for length, count in Counter(lengths).items():
            starts = np.minimum(t, n - length) - np.maximum(0, t - length + 1) + 1
            cover += count * starts / (n - length + 1)
    else:
        total = sum(lengths)
        excess = total - k
        slots = n - excess
        if k == 0:
            cover = np.zeros(n)
        elif total == n:
            cover = np.ones(n)
        else:
            band = excess if n >= 2 * excess + 1 else n
            free = _band_mass(slots - 1, k, [a - 1 for a in lengths], band, (slots - k) / slots)
            if band < n:
                free = _mirror_fill(free, n, float(n - total))
            cover = 1.0 - free
    cover.setflags(write=False)
    return cover


def coverage_probabilities(n: int, lengths, model: str = "non_overlapping") -> np.ndarray:
    """Probability that each of the ``n`` tokens is covered by a random segment.

    ``c(t) = sum_i sum_{l = t - a_i + 1}^{t} P(start_i = l)`` (Propositions 2, 3 and 5). Under the
    ``"overlapping"`` model a token can be covered twice, and the value is the expected number of
    segments covering it, which is what the additive overlap of Proposition 1 needs. Sums to
    ``sum(lengths)``.
    """
    n, lengths = _check_inputs(n, lengths, model)
    return _coverage(n, tuple(sorted(lengths)), model).copy()


@lru_cache(maxsize=1 << 14)
def _start_distribution(n: int, others: tuple[int, ...], length: int, model: str) -> np.ndarray:
    support = n - length + 1
    if model == "overlapping" or not others:
        probabilities = np.full(support, 1.0 / support)
    else:
        k = len(others) + 1
        excess_others = [a - 1 for a in others]
        band = sum(excess_others)  # Proposition 3: flat on [band, support - band)
        slots = n - band - (length - 1)
        left_size = band if support >= 2 * band + 1 else support
        left = _band_mass(slots - 1, k - 1, excess_others, left_size, 1.0 / slots)
        probabilities = _mirror_fill(left, support, 1.0) if left_size < support else left
    probabilities.setflags(write=False)
    return probabilities


def start_probabilities(n: int, lengths, index: int, model: str = "non_overlapping") -> np.ndarray:
    """Distribution of the 0-based start of segment ``index``: ``P(start = l)``, ``l = 0..n - a_i``.

    Non-overlapping: Proposition 2 (computed as described in the module docstring), flat on the
    middle band of Proposition 3. Overlapping: uniform, ``1 / (n - a_i + 1)`` (Proposition 5).
    """
    n, lengths = _check_inputs(n, lengths, model)
    try:
        index = operator.index(index)
        length = lengths[index]
    except (TypeError, IndexError):
        raise ValueError(f"index must be an integer in [0, {len(lengths)}), got {index!r}") from None
    others = list(lengths)
    del others[index]
    others = tuple(sorted(others))
    return _start_distribution(n, others, length, model).copy()


def sample_annotation(n: int, lengths, rng=None, model: str = "non_overlapping") -> np.ndarray:
    """Start positions (0-based, in the order of ``lengths``) of one random annotation.

    Drawn uniformly from the model: non-overlapping placements as a uniform order of the segments
    times a uniform choice of ``k`` slots among ``n - sum(a_i - 1)``; overlapping placements as
    independent uniform starts. ``rng`` is a ``numpy.random.Generator`` or a seed.
    """
    n, lengths = _check_inputs(n, lengths, model)
    rng = np.random.default_rng(rng)
    sizes = np.asarray(lengths, dtype=np.int64)
    k = sizes.size
    if model == "overlapping":
        return rng.integers(0, n - sizes + 1) if k else np.zeros(0, dtype=np.int64)
    slots = n - int((sizes - 1).sum())
    order = rng.permutation(k)
    chosen = np.sort(rng.choice(slots, size=k, replace=False))
    excess_before = np.concatenate([[0], np.cumsum(sizes[order] - 1)[:-1]]) if k else np.zeros(0, np.int64)
    starts = np.empty(k, dtype=np.int64)
    starts[order] = chosen + excess_before
    return starts


def expected_overlap(n: int, lengths_a, lengths_b, model: str = "non_overlapping") -> float:
    """Expected number of tokens covered by both annotators: ``sum_t c_a(t) c_b(t)`` (Prop. 1)."""
    n, lengths_a = _check_inputs(n, lengths_a, model)
    _, lengths_b = _check_inputs(n, lengths_b, model)
    if not lengths_a or not lengths_b:
        return 0.0
    return float(_coverage(n, tuple(sorted(lengths_a)), model) @ _coverage(n, tuple(sorted(lengths_b)), model))
