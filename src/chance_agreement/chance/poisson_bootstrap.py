"""Poisson bootstrap intervals that merge: the same intervals however a corpus is split into shards.

The sentence bootstrap of ``bootstrap_intervals`` draws a count vector over all sentences at once
(multinomial(S, 1/S)), so it needs every sentence in one place. The Poisson bootstrap (Hanley and
MacGibbon 2006; Chamandy et al. 2012, "Estimating uncertainty for massive data streams") gives each
*document* ``d`` in resample ``b`` an independent weight ``w[b, d] ~ Poisson(1)``, the limit of the
multinomial count as S grows. Here the weight is a deterministic function of the document's id,
the seed and ``b`` alone:

    key(d)    = the id itself (an int, mod 2**64) or the first 8 bytes of its BLAKE2b hash (a str)
    state(d)  = mix64(key(d) XOR mix64(seed + GAMMA))
    u[b, d]   = mix64(state(d) + (b + 1) GAMMA)  mod 2**64     (SplitMix64's counter stream)
    w[b, d]   = #{k : T_k <= u[b, d]},   T_k = round(2**64 P(Poisson(1) <= k))

(inversion with exact integer thresholds, ``POISSON_THRESHOLDS``; no floating point, no global
random state). Sentences that share a document id share their weights (they are resampled together).

So a shard can add, for every resample, its own weighted statistics, and shards merge by adding:
with ``a``, ``e``, ``d`` the agreement, expected agreement and denominator of a type
(chance_agreement_sequence_annotation.txt, Proposition 1 and the micro average of section 4),
resample ``b`` scores ``observed = sum_d w a / sum_d w d``, ``chance = sum_d w e / sum_d w d``,
``corrected = (observed - chance) / (1 - chance)`` (``bootstrap_intervals.scores_from_sums``). The
counts are integers and their weighted sums int64; each expectation is split into integer *limbs*
on a fixed grid (``x = sum_j c_j 2**(24 j)``, ``limb_columns``), whose weighted sums are int64 too.
Every sum is exact, so the merged sums, and the intervals (percentiles of the sorted resampled
scores), do not depend on the order, the sharding or the processor (no BLAS: integer products).
"""

from __future__ import annotations

import hashlib
import math
import secrets
from fractions import Fraction
from numbers import Integral

import numpy as np

from .bootstrap_intervals import (
    SCORES,
    check_confidence_level,
    check_resamples,
    intervals_out,
    percentile_interval,
    put_intervals,
    sentence_arrays,
    supported_scores,
)
from .chance_corrected import zero_division_value

RESAMPLINGS = ("multinomial", "poisson")
SUMS_FORMAT = "chance_agreement.PoissonSums/1"
LIMB_BITS = 24
_MASK = (1 << LIMB_BITS) - 1
# the limbs a float64 can have, from its least bit 2**-1074 to its top 2**1024 (-45 to 42)
LIMB_INDICES = range(-1074 // LIMB_BITS, 1024 // LIMB_BITS + 1)
_WORD = 1 << 64
GAMMA = 0x9E3779B97F4A7C15  # SplitMix64's increment (odd; 2**64 / golden ratio)
DOCUMENT_CHUNK = 2048  # documents weighted at once: memory O(n_resamples x chunk), not O(corpus)
# int64 sums stay exact while documents x max weight (20) x max limb (< 2**25) < 2**63
MAX_DOCUMENTS = 1 << 32


def _mix64_int(z: int) -> int:
    """SplitMix64's finaliser on a Python int (a bijection of [0, 2**64))."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % _WORD
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % _WORD
    return z ^ (z >> 31)


def _mix64(z: np.ndarray) -> np.ndarray:
    """``_mix64_int`` on a uint64 array (numpy's uint64 products wrap mod 2**64, as wanted)."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def _poisson_thresholds() -> tuple[int, ...]:
    """``T_k = round(2**64 P(W <= k))`` for ``W ~ Poisson(1)``, while ``T_k < 2**64``: then
    ``P(w <= k) = T_k / 2**64`` for a uniform 64-bit ``u``, within ``2**-65`` of Poisson(1)'s.

    ``e**-1`` is bracketed by partial sums of its alternating series (width ``1/41!``), and each
    rounding is taken at both ends of the bracket, which agree (asserted): every threshold is the
    exact integer."""
    high = sum(Fraction((-1) ** i, math.factorial(i)) for i in range(41))  # ends on a + term: above e**-1
    low = high - Fraction(1, math.factorial(41))  # one more (-) term: below e**-1
    thresholds: list[int] = []
    cumulative, k = Fraction(0), 0
    while True:
        cumulative += Fraction(1, math.factorial(k))
        nearest_low = math.floor(low * cumulative * _WORD + Fraction(1, 2))
        assert nearest_low == math.floor(high * cumulative * _WORD + Fraction(1, 2)), "widen the series"
        if nearest_low >= _WORD:  # every u lies below: the largest weight is k
            return tuple(thresholds)
        thresholds.append(nearest_low)
        k += 1


POISSON_THRESHOLDS = _poisson_thresholds()
_THRESHOLDS = np.array(POISSON_THRESHOLDS, dtype=np.uint64)
assert len(POISSON_THRESHOLDS) < 32  # the largest weight, so the int64 bound of MAX_DOCUMENTS holds


def check_resampling(resampling) -> str:
    if not isinstance(resampling, str) or resampling not in RESAMPLINGS:
        raise ValueError(f"resampling must be one of {list(RESAMPLINGS)}, got {resampling!r}")
    return resampling


def poisson_seed(random_state) -> int:
    """The seed of the weights: an int in [0, 2**64) as given, one drawn from a numpy Generator,
    or a fresh one for None (then the intervals are not reproducible, as with an unseeded bootstrap)."""
    if random_state is None:
        return secrets.randbits(64)
    if isinstance(random_state, np.random.Generator):
        return int(random_state.integers(0, 2**63)) * 2 + int(random_state.integers(0, 2))
    if isinstance(random_state, bool) or not isinstance(random_state, Integral):
        raise TypeError(f"random_state must be an int, a numpy Generator or None, got {random_state!r}")
    if not 0 <= int(random_state) < _WORD:
        raise ValueError(f"random_state must be an int in [0, 2**64), got {random_state}")
    return int(random_state)


def document_key(document_id, where: str = "document id") -> int:
    """The 64-bit key of one id: an int (``-2**63 <= id < 2**64``) mod 2**64, a str its BLAKE2b hash."""
    if isinstance(document_id, str):
        digest = hashlib.blake2b(document_id.encode("utf-8"), digest_size=8, person=b"chance-doc-id").digest()
        return int.from_bytes(digest, "little")
    if isinstance(document_id, bool) or not isinstance(document_id, Integral):
        raise TypeError(f"{where} must be an int or a str, got {document_id!r}")
    if not -(1 << 63) <= int(document_id) < _WORD:
        raise ValueError(f"{where} must lie in [-2**63, 2**64), got {document_id}")
    return int(document_id) % _WORD


def document_keys(document_ids, count: int) -> np.ndarray:
    """uint64 keys of ``count`` ids (ValueError/TypeError naming the position of a bad one)."""
    if isinstance(document_ids, (str, bytes)) or not hasattr(document_ids, "__len__"):
        raise TypeError(f"document_ids must be a list with one id per sentence, got {document_ids!r}")
    if len(document_ids) != count:
        raise ValueError(f"document_ids has {len(document_ids)} ids for {count} sentences: give one per sentence")
    if isinstance(document_ids, np.ndarray) and document_ids.dtype.kind in "iu":
        return document_ids.astype(np.int64).view(np.uint64) if document_ids.dtype.kind == "i" \
            else document_ids.astype(np.uint64)
    return np.array([document_key(value, f"document_ids[{i}]") for i, value in enumerate(document_ids)],
                    dtype=np.uint64)


def poisson_weights(keys: np.ndarray, seed: int, n_resamples: int) -> np.ndarray:
    """``w[b, d]`` (int64, shape ``(n_resamples, len(keys))``) for uint64 document keys (module docstring)."""
    state = _mix64(np.asarray(keys, dtype=np.uint64) ^ np.uint64(_mix64_int((seed + GAMMA) % _WORD)))
    counters = np.arange(1, n_resamples + 1, dtype=np.uint64) * np.uint64(GAMMA)
    uniform = _mix64(counters[:, None] + state[None, :])
    return np.searchsorted(_THRESHOLDS, uniform, side="right").astype(np.int64)


def limb_columns(values) -> dict[int, np.ndarray]:
    """Integer limbs of non-negative finite floats: ``x[i] = sum_j out[j][i] * 2**(24 j)`` exactly.

    ``x = m 2**e`` (``m < 2**53`` from ``frexp``); ``m``'s three 24-bit pieces, each shifted by
    ``e mod 24`` (< 2**48), are split across two neighbouring limbs, so every limb is below 2**25."""
    values = np.asarray(values, dtype=float)
    if values.size and (not np.all(np.isfinite(values)) or values.min() < 0):
        raise ValueError("expectations must be finite and non-negative")
    mantissa, exponent = np.frexp(values)
    m = (mantissa * 2.0**53).astype(np.int64)
    e = exponent.astype(np.int64) - 53
    base = np.floor_divide(e, LIMB_BITS)
    shift = e - base * LIMB_BITS
    index, parts = [], []
    for piece in range(3):
        shifted = ((m >> (LIMB_BITS * piece)) & _MASK) << shift
        index += [base + piece, base + piece + 1]
        parts += [shifted & _MASK, shifted >> LIMB_BITS]
    at, limbs = np.stack(index, axis=1), np.stack(parts, axis=1)
    return {int(j): np.where(at == j, limbs, 0).sum(axis=1) for j in np.unique(at[limbs != 0])}


def limbs_value(limbs: dict[int, int]) -> float:
    """The correctly rounded float of ``sum_j c_j 2**(24 j)`` (Python integers, one division)."""
    if not limbs:
        return 0.0
    low = min(limbs)
    total = sum(int(c) << (LIMB_BITS * (j - low)) for j, c in limbs.items())
    return total / (1 << (-LIMB_BITS * low)) if low < 0 else float(total << (LIMB_BITS * low))


def _check_level(level) -> str:
    if level not in ("token", "entity"):
        raise ValueError(f"level must be one of ['token', 'entity'], got {level!r}")
    return level


def _zero_sums(n_resamples: int) -> dict:
    zeros = np.zeros(n_resamples, dtype=np.int64)
    return {"agreement": zeros.copy(), "denominator": zeros.copy(), "expected": {}}


def _add_into(target: dict, source: dict) -> None:
    """Add one type's resampled sums into another's (int64, exact)."""
    target["agreement"] = target["agreement"] + source["agreement"]
    target["denominator"] = target["denominator"] + source["denominator"]
    for j, column in source["expected"].items():
        target["expected"][j] = target["expected"][j] + column if j in target["expected"] else column.copy()


class PoissonSums:
    """Per-resample weighted sums of every type's (agreement, expected agreement, denominator), for
    each level in ``levels``: what a shard contributes to the Poisson bootstrap (module docstring).

    ``add_sentences`` adds per-sentence ``ChanceStatistics`` with their document keys; ``+`` adds
    two shards' sums exactly; ``intervals`` gives the percentile intervals; ``to_dict``/``from_dict``
    carry the sums as strict JSON (int lists)."""

    def __init__(self, *, seed: int, n_resamples: int, levels=("token",), documents: int = 0, sums=None):
        self.seed = poisson_seed(seed)
        self.n_resamples = check_resamples(n_resamples)
        if isinstance(levels, str) or not levels:
            raise ValueError(f"levels must be a non-empty tuple of 'token' and 'entity', got {levels!r}")
        self.levels = tuple(level for level in ("token", "entity") if level in {_check_level(x) for x in levels})
        self.documents = documents
        self.sums = sums if sums is not None else {level: {} for level in self.levels}

    def options(self) -> dict:
        return {"seed": self.seed, "n_resamples": self.n_resamples, "levels": list(self.levels)}

    def add_sentences(self, sentences, keys: np.ndarray) -> PoissonSums:
        """Add per-sentence statistics (``corpus_statistics(...)[1]``) whose documents have ``keys``."""
        keys = np.asarray(keys, dtype=np.uint64)
        if len(keys) != len(sentences):
            raise ValueError(f"{len(keys)} document keys for {len(sentences)} sentences")
        if self.documents + len(keys) > MAX_DOCUMENTS:
            raise ValueError(f"more than {MAX_DOCUMENTS} sentences: the exact int64 sums would overflow")
        arrays = {level: sentence_arrays(sentences, level) for level in self.levels}
        used = np.zeros(len(sentences), dtype=bool)  # sentences without spans add nothing
        for _, values in arrays.values():
            used |= values.reshape(len(sentences), -1).any(axis=1)
        rows = np.flatnonzero(used)
        for start in range(0, rows.size, DOCUMENT_CHUNK):
            chunk = rows[start:start + DOCUMENT_CHUNK]
            weights = poisson_weights(keys[chunk], self.seed, self.n_resamples)
            for level, (types, values) in arrays.items():
                self._add_chunk(level, types, values[chunk], weights)
        self.documents += len(keys)
        return self

    def _add_chunk(self, level: str, types, values: np.ndarray, weights: np.ndarray) -> None:
        """``weights (B, c) x columns (c, K)`` in int64 (no BLAS, exact), scattered into the sums."""
        layout: list[tuple[str, str, int | None]] = []
        columns: list[np.ndarray] = []
        for t, name in enumerate(types):
            layout += [(name, "agreement", None), (name, "denominator", None)]
            columns += [values[:, t, 0].astype(np.int64), values[:, t, 2].astype(np.int64)]
            for place, limb in limb_columns(values[:, t, 1]).items():
                layout.append((name, "expected", place))
                columns.append(limb)
        products = np.matmul(weights, np.stack(columns, axis=1))
        sums = self.sums[level]
        for (name, kind, j), column in zip(layout, products.T, strict=True):
            mine = sums.setdefault(name, _zero_sums(self.n_resamples))
            if j is None:
                mine[kind] = mine[kind] + column
            else:
                mine["expected"][j] = mine["expected"][j] + column if j in mine["expected"] else column.copy()

    def __add__(self, other: PoissonSums) -> PoissonSums:
        if not isinstance(other, PoissonSums):
            return NotImplemented
        if self.options() != other.options():
            raise ValueError(f"cannot merge Poisson bootstrap sums of different seeds, resample counts or levels: "
                             f"{self.options()} and {other.options()} (give every shard the same random_state)")
        if self.documents + other.documents > MAX_DOCUMENTS:
            raise ValueError(f"more than {MAX_DOCUMENTS} sentences: the exact int64 sums would overflow")
        merged = PoissonSums(seed=self.seed, n_resamples=self.n_resamples, levels=self.levels,
                             documents=self.documents + other.documents)
        for level in self.levels:
            for source in (self.sums[level], other.sums[level]):
                for name, type_sums in source.items():
                    _add_into(merged.sums[level].setdefault(name, _zero_sums(self.n_resamples)), type_sums)
        return merged

    def resampled_sums(self, level: str) -> tuple[list[str], np.ndarray]:
        """``(types, sums)``: ``sums[b, t]`` = (agreement, expected agreement, denominator) of resample
        ``b``, for each type (sorted) and overall (last), as ``bootstrap_intervals.sentence_arrays``
        lays them out (agreement = 2 overlap or 2 exact matches)."""
        if level not in self.levels:
            raise ValueError(f"these sums were accumulated for levels {list(self.levels)}, not {level!r}")
        types = sorted(self.sums[level])
        out = np.zeros((self.n_resamples, len(types) + 1, 3))
        overall_limbs: list[dict] = [{} for _ in range(self.n_resamples)]
        for t, name in enumerate(types):
            mine = self.sums[level][name]
            out[:, t, 0] = mine["agreement"].astype(float)
            out[:, t, 2] = mine["denominator"].astype(float)
            limbs = {j: column.tolist() for j, column in mine["expected"].items()}
            for b in range(self.n_resamples):
                own = {j: column[b] for j, column in limbs.items()}
                out[b, t, 1] = limbs_value(own)
                for j, c in own.items():
                    overall_limbs[b][j] = overall_limbs[b].get(j, 0) + c
        out[:, -1, 0] = sum((self.sums[level][name]["agreement"] for name in types), np.zeros(self.n_resamples))
        out[:, -1, 2] = sum((self.sums[level][name]["denominator"] for name in types), np.zeros(self.n_resamples))
        out[:, -1, 1] = [limbs_value(limbs) for limbs in overall_limbs]
        return types, out

    def intervals(self, level: str, confidence_level: float, zero_division="warn") -> dict:
        """``{"overall": {score: [low, high]}, "types": {type: {score: [low, high]}}}``: percentiles of
        the resampled scores (``bootstrap_intervals.percentile_interval``), by the rules of
        ``bootstrap_scores`` (``None`` for a corrected F1 some resample's model cannot support)."""
        confidence_level = check_confidence_level(confidence_level)
        zero_division_value(zero_division)
        types, sums = self.resampled_sums(level)
        replicates = supported_scores(sums, zero_division)
        bounds = {score: percentile_interval(replicates[score], confidence_level) for score in SCORES}
        return intervals_out(types, bounds, replicates, zero_division)

    def to_dict(self) -> dict:
        """Strict JSON: format, options, document count, and per level and type the int lists."""
        return {"format": SUMS_FORMAT, **self.options(), "documents": self.documents,
                "sums": {level: {name: {"agreement": mine["agreement"].tolist(),
                                        "denominator": mine["denominator"].tolist(),
                                        "expected": {str(j): c.tolist() for j, c in sorted(mine["expected"].items())}}
                                 for name, mine in sorted(types.items())}
                         for level, types in self.sums.items()}}

    @classmethod
    def from_dict(cls, data) -> PoissonSums:
        """Inverse of ``to_dict``; every part is checked (ValueError naming the problem)."""
        if not isinstance(data, dict) or data.get("format") != SUMS_FORMAT:
            raise ValueError(f"not {SUMS_FORMAT} sums")
        if set(data) != {"format", "seed", "n_resamples", "levels", "documents", "sums"}:
            raise ValueError(f"{SUMS_FORMAT} needs exactly format, seed, n_resamples, levels, documents and sums")
        documents = data["documents"]
        if isinstance(documents, bool) or not isinstance(documents, int) or not 0 <= documents <= MAX_DOCUMENTS:
            raise ValueError(f"documents must be an integer in [0, {MAX_DOCUMENTS}], got {documents!r}")
        if not isinstance(data["levels"], list):
            raise ValueError(f"levels must be a list, got {data['levels']!r}")
        out = cls(seed=data["seed"], n_resamples=data["n_resamples"], levels=data["levels"], documents=documents)
        sums = data["sums"]
        if not isinstance(sums, dict) or set(sums) != set(out.levels):
            raise ValueError(f"sums must hold exactly the levels {list(out.levels)}")
        for level, types in sums.items():
            if not isinstance(types, dict):
                raise ValueError(f"sums[{level!r}] must map types to their sums")
            for name, mine in types.items():
                out.sums[level][name] = _type_sums_from_dict(mine, out.n_resamples, f"sums[{level!r}][{name!r}]")
        return out


def _int_column(values, n_resamples: int, where: str) -> np.ndarray:
    if not isinstance(values, list) or len(values) != n_resamples or not all(
            type(v) is int and 0 <= v < 2**63 for v in values):
        raise ValueError(f"{where} must be a list of {n_resamples} non-negative integers below 2**63")
    return np.array(values, dtype=np.int64)


def _type_sums_from_dict(data, n_resamples: int, where: str) -> dict:
    if not isinstance(data, dict) or set(data) != {"agreement", "denominator", "expected"} \
            or not isinstance(data["expected"], dict):
        raise ValueError(f"{where} must hold agreement, denominator and expected (a dict of limbs)")
    out: dict = {kind: _int_column(data[kind], n_resamples, f"{where}.{kind}") for kind in ("agreement", "denominator")}
    out["expected"] = {}
    for j, column in data["expected"].items():
        try:
            index = int(j)
        except ValueError:
            raise ValueError(f"{where}.expected: limb index {j!r} is not an integer") from None
        if index not in LIMB_INDICES:
            raise ValueError(f"{where}.expected: limb index {j!r} is outside {LIMB_INDICES[0]} to {LIMB_INDICES[-1]} "
                             f"(the limbs of a float)")
        out["expected"][index] = _int_column(column, n_resamples, f"{where}.expected[{j}]")
    return out


def add_poisson_intervals(result: dict, sentences, level: str, zero_division, confidence_level,
                          n_resamples: int, random_state, document_ids=None) -> dict:
    """Put Poisson-bootstrap percentile intervals into a ``chance_f1`` result (``resampling="poisson"``).

    ``document_ids`` (default: the sentence positions 0, 1, ...) choose each sentence's weights."""
    n_resamples = check_resamples(n_resamples)
    seed = poisson_seed(random_state)
    if confidence_level is None:
        if document_ids is not None:
            raise ValueError("document_ids choose the Poisson bootstrap's weights: give confidence_level too")
        return result
    count = len(sentences)
    keys = np.arange(count, dtype=np.uint64) if document_ids is None else document_keys(document_ids, count)
    sums = PoissonSums(seed=seed, n_resamples=n_resamples, levels=(level,)).add_sentences(sentences, keys)
    return put_intervals(result, sums.intervals(level, confidence_level, zero_division))


__all__ = [
    "LIMB_INDICES",
    "POISSON_THRESHOLDS",
    "RESAMPLINGS",
    "PoissonSums",
    "add_poisson_intervals",
    "check_resampling",
    "document_key",
    "document_keys",
    "limb_columns",
    "limbs_value",
    "poisson_seed",
    "poisson_weights",
]
