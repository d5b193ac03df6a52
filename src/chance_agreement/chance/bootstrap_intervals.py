"""Sentence-level bootstrap intervals for observed, chance and chance-corrected F1.

Every corpus score is a ratio of sums over sentences (chance_agreement_sequence_annotation.txt,
Proposition 1 and the micro average of section 4): per entity type, with ``a`` the agreement
(2 x overlap at token level, 2 x exact matches at entity level), ``e`` its expectation under the
random annotation model and ``d`` the denominator (a1 + a2, or k1 + k2),

    observed = sum a / sum d,   chance = sum e / sum d,   corrected = (observed - chance) / (1 - chance)

A bootstrap resample draws the sentences with replacement, so it is a count vector ``w``
(multinomial(S, 1/S)) and its sums are ``w @ M`` for the (sentences x statistics) matrix ``M``:
the random model is never recomputed, and 1,000 resamples cost one matrix product.

Why sentences: the random model places segments within a sentence, so a sentence's statistics are
computed together and depend on each other; sentences are the independent units of a test set.

Intervals: ``"percentile"`` (the default: the alpha/2 and 1 - alpha/2 quantiles of the resampled
scores, numpy's linear interpolation) or ``"bca"`` (bias-corrected and accelerated, Efron 1987:
bias ``z0 = Phi^-1(#{theta* < theta} / B)``, acceleration ``a`` from the leave-one-sentence-out
jackknife, which is cheap here because a jackknife value is the total minus one row). A
proportion of 0 or 1 in ``z0`` is clipped to 1/(2B) or 1 - 1/(2B), so the BCa interval is
always defined.

Degenerate resamples (the rules of the kernel ``chance_corrected.f1_scores``, the point
estimate's): a resample whose denominator is 0 (no entity on either side) gives the scores the
``zero_division`` value (0.0 for ``"warn"``, without one warning per resample). Chance F1 is never
clipped: under the ``"overlapping"`` model it can exceed 1, and its interval says so. Where a
resample's chance F1 is 1 or more, corrected F1 is not supported by the model (no room for
agreement beyond chance): no number stands in for it, so the interval of a corrected F1 with
such resamples is ``None`` (with an ``UndefinedMetricWarning`` under ``zero_division="warn"``
saying how many resamples the model could not score), never a filled or clipped number.
"""

from __future__ import annotations

import warnings
from numbers import Integral

import numpy as np

from .._numerics.exact_sum import ordered_matmul
from .._numerics.portable_math import ndtr, ndtri
from .chance_corrected import NO_ROOM, UndefinedMetricWarning, f1_scores, zero_division_value
from .statistics import f1_terms

SCORES = ("observed_f1", "chance_f1", "corrected_f1")
METHODS = ("percentile", "bca")
DEFAULT_RESAMPLES = 1000


# --- the one access to the per-sentence statistics of corrected_f1 --------------------------------


def sentence_arrays(sentences, level: str, types=None) -> tuple[list[str], np.ndarray]:
    """``(types, M)``: ``M[s, t]`` = (agreement, expected agreement, denominator) of sentence s, type t.

    ``sentences``: ``ChanceStatistics`` of each sentence (``corrected_f1.corpus_statistics``); the
    terms are ``statistics.f1_terms`` of each level. ``types`` defaults to every type seen, sorted.
    """
    if types is None:
        types = sorted({name for stats in sentences for name in stats.per_type})
    index = {name: i for i, name in enumerate(types)}
    # only the three numbers each (sentence, type) needs, gathered in one array operation (no
    # sentences x types x fields array); a pair absent from a sentence stays 0, as 2 x 0 and 0 + 0 would make it
    places = [(s, index[name], vector) for s, stats in enumerate(sentences) for name, vector in stats.per_type.items()]
    arrays = np.zeros((len(sentences), len(types), 3))
    if places:
        rows, cols, vectors = zip(*places, strict=True)
        arrays[rows, cols] = np.stack(f1_terms(np.asarray(vectors, dtype=float), level), axis=-1)
    return list(types), arrays


# --- scores from summed statistics, vectorised ----------------------------------------------------


def scores_from_sums(sums: np.ndarray, zero_division="warn") -> dict[str, np.ndarray]:
    """Observed, chance and corrected F1 of summed (agreement, expected, denominator) on the last axis.

    Works on any leading shape (resamples, types), by the kernel ``chance_corrected.f1_scores``:
    a 0 denominator gives every score the ``zero_division`` value; chance F1 >= 1 gives corrected
    F1 that value (as ``chance_f1`` does); chance F1 is not clipped.
    """
    observed, chance, corrected, _ = f1_scores(sums[..., 0], sums[..., 1], sums[..., 2], zero_division)
    return {"observed_f1": observed, "chance_f1": chance, "corrected_f1": corrected}


def supported_scores(sums: np.ndarray, zero_division) -> dict[str, np.ndarray]:
    """``scores_from_sums`` with NaN where the model supports no corrected F1 (chance F1 >= 1):
    resampling callers report no interval or p-value for it rather than a filled number."""
    observed, chance, corrected, reason = f1_scores(sums[..., 0], sums[..., 1], sums[..., 2], zero_division)
    return {"observed_f1": observed, "chance_f1": chance,
            "corrected_f1": np.where(reason == NO_ROOM, np.nan, corrected)}


# --- arguments -----------------------------------------------------------------------------------


def check_confidence_level(confidence_level) -> float:
    if isinstance(confidence_level, bool) or not isinstance(confidence_level, (int, float, np.floating, np.integer)):
        raise TypeError(f"confidence_level must be a number in (0, 1) or None, got {confidence_level!r}")
    if not 0.0 < float(confidence_level) < 1.0:
        raise ValueError(f"confidence_level must lie strictly between 0 and 1, got {confidence_level!r}")
    return float(confidence_level)


def check_resamples(n_resamples, name: str = "n_resamples") -> int:
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, Integral):
        raise TypeError(f"{name} must be a positive integer, got {n_resamples!r}")
    if n_resamples < 1:
        raise ValueError(f"{name} must be a positive integer, got {n_resamples}")
    return int(n_resamples)


def check_random_state(random_state):
    """``random_state`` as ``make_rng`` takes it (a non-negative int, a numpy Generator or None), checked
    without drawing entropy or importing ``numpy.random`` for an int or None (a call that resamples
    nothing stays cheap); raises ``TypeError`` or ``ValueError`` otherwise."""
    if random_state is None:
        return None
    if isinstance(random_state, Integral) and not isinstance(random_state, bool):
        if random_state < 0:
            raise ValueError(f"random_state must be a non-negative int, got {random_state}")
        return int(random_state)
    if isinstance(random_state, np.random.Generator):
        return random_state
    raise TypeError(f"random_state must be an int, a numpy Generator or None, got {random_state!r}")


def make_rng(random_state) -> np.random.Generator:
    """``np.random.default_rng`` of an int seed, a Generator (used as is) or None (fresh entropy)."""
    return np.random.default_rng(check_random_state(random_state))


def check_method(method) -> str:
    if method not in METHODS:
        raise ValueError(f"method must be one of {list(METHODS)}, got {method!r}")
    return method


# --- resampling and intervals --------------------------------------------------------------------


def resample_counts(rng: np.random.Generator, n_units: int, n_resamples: int) -> np.ndarray:
    """(n_resamples, n_units) float counts: how often each unit is drawn in each resample.

    Resample b draws ``rng.integers(0, n_units, size=(n_resamples, n_units), dtype=np.int32)[b]``
    (32-bit draws are faster to generate); counting row by row keeps each ``bincount`` in cache
    (faster than one offset ``bincount`` over all draws).
    """
    counts = np.empty((n_resamples, n_units))
    if n_units == 0:
        return counts
    draws = rng.integers(0, n_units, size=(n_resamples, n_units), dtype=np.int32)
    for row, drawn in zip(counts, draws, strict=True):
        row[:] = np.bincount(drawn, minlength=n_units)
    return counts


def percentile_interval(replicates: np.ndarray, confidence_level: float) -> np.ndarray:
    """(2, ...) array: the (1 - level)/2 and (1 + level)/2 quantiles over the first axis."""
    alpha = 1.0 - confidence_level
    return np.quantile(replicates, [alpha / 2, 1 - alpha / 2], axis=0)


def bca_interval(replicates: np.ndarray, estimate: np.ndarray, jackknife: np.ndarray,
                 confidence_level: float) -> np.ndarray:
    """(2, ...) BCa bounds; ``jackknife`` holds the leave-one-unit-out values on its first axis."""
    n_resamples = replicates.shape[0]
    below = np.mean(replicates < estimate, axis=0) + 0.5 * np.mean(replicates == estimate, axis=0)
    below = np.clip(below, 1.0 / (2 * n_resamples), 1.0 - 1.0 / (2 * n_resamples))
    z0 = ndtri(below)
    deviations = jackknife.mean(axis=0) - jackknife
    squares = deviations * deviations
    spread = np.sum(squares, axis=0)
    safe = np.where(spread > 0, spread, 1.0)
    acceleration = np.where(spread > 0, np.sum(squares * deviations, axis=0) / (6.0 * safe * np.sqrt(safe)), 0.0)
    alpha = 1.0 - confidence_level
    bounds = []
    for z_alpha in (ndtri(alpha / 2), ndtri(1 - alpha / 2)):
        shifted = z0 + z_alpha
        level = ndtr(z0 + shifted / (1.0 - acceleration * shifted))
        bounds.append(level)
    out = np.empty((2, *np.shape(estimate)))
    flat_replicates = replicates.reshape(n_resamples, -1)
    for side, level in enumerate(bounds):
        flat_level = np.broadcast_to(level, np.shape(estimate)).ravel()
        out[side] = np.array([np.quantile(flat_replicates[:, k], flat_level[k]) if np.isfinite(flat_level[k])
                              else np.nan
                              for k in range(flat_replicates.shape[1])]).reshape(np.shape(estimate))
    return out


def _scores_of_sums(sums: np.ndarray, zero_division) -> dict[str, np.ndarray]:
    """Per-type and overall (last column) scores of summed statistics of shape (B, T, 3); NaN
    marks a corrected F1 the model does not support (``_supported_scores``)."""
    per_type = supported_scores(sums, zero_division)
    overall = supported_scores(sums.sum(axis=1), zero_division)
    return {score: np.concatenate([per_type[score], overall[score][:, None]], axis=1) for score in SCORES}


def _summed_scores(arrays: np.ndarray, weights: np.ndarray, zero_division) -> dict[str, np.ndarray]:
    """Per-type and overall scores of weighted sums: arrays (S, T, 3), weights (B, S)."""
    sums = ordered_matmul(weights, arrays.reshape(arrays.shape[0], -1)).reshape(weights.shape[0], arrays.shape[1], 3)
    return _scores_of_sums(sums, zero_division)


# resamples x sentences x (types x 3) multiply-adds of the resampled sums (5 x 10^10: minutes);
# beyond it the intervals are refused before any array is built, saying what to change
MAX_RESAMPLE_WORK = 50_000_000_000


def check_resample_work(sentences, n_resamples: int) -> None:
    """Refuse bootstrap intervals whose resampled sums (one weighted sum per resample, sentence,
    type and statistic) exceed ``MAX_RESAMPLE_WORK``, before the per-sentence arrays are built."""
    types = len({name for stats in sentences for name in stats.per_type})
    work = n_resamples * len(sentences) * types * 3
    if work > MAX_RESAMPLE_WORK:
        raise ValueError(
            f"bootstrap intervals over {len(sentences):,} sentences x {types:,} entity types x {n_resamples:,} "
            f"resamples need {work:,} multiply-adds, more than the limit of {MAX_RESAMPLE_WORK:,}: turn intervals "
            "off (confidence_level=None; on the command line --no-intervals), use fewer resamples, or merge rare types"
        )


def bootstrap_scores(sentences, *, level: str = "token", confidence_level: float = 0.95,
                     n_resamples: int = DEFAULT_RESAMPLES, random_state=None, method: str = "percentile",
                     zero_division="warn") -> dict:
    r"""Compute bootstrap intervals of the three scores, per type and overall, from per-sentence statistics.

    Parameters
    ----------
    sentences : list of ChanceStatistics
        The statistics of each sentence (``sentence_statistics``).
    level : {"token", "entity"}, default "token"
        Token overlap or exact span match.
    confidence_level : float, default 0.95
        The intervals' level, in (0, 1).
    n_resamples : int, default 1000
        Bootstrap resamples (sentences drawn with replacement).
    random_state : int, numpy.random.Generator or None, default None
        The resampling's seed; the same seed gives the same intervals.
    method : {"percentile", "bca"}, default "percentile"
        Percentile or bias-corrected and accelerated intervals.
    zero_division : {"warn", 0, 1}, default "warn"
        The value of a 0/0 score in a resample.

    Returns
    -------
    dict
        ``{"overall": {score: [low, high]}, "types": {type: {score: [low, high]}}}`` for
        ``observed_f1``, ``chance_f1`` and ``corrected_f1``; an interval is ``None`` where it is
        undefined (a resample's chance F1 of 1 or more).

    Raises
    ------
    ValueError
        A confidence level outside (0, 1), a bad number of resamples, seed or method.

    See Also
    --------
    chance_f1 : Intervals with the scores (``confidence_level=``).

    Notes
    -----
    Each resample draws the sentences with replacement and recomputes the micro-averaged scores
    from the summed statistics (Proposition 1 of [1]_); the percentile interval is

    .. math::

        [\hat q_{\alpha/2}, \hat q_{1 - \alpha/2}], \qquad \alpha = 1 - \mathrm{confidence\_level},

    the quantiles of the resampled scores.

    References
    ----------
    .. [1] D. Li, C. Rosé, A. Yuan, C. Zhou. Estimating Agreement by Chance for Sequence Annotation. ACL 2024.

    Examples
    --------
    Twelve sentences (three, four times), their statistics resampled 200 times:

    >>> from chance_agreement import sentence_statistics
    >>> gold = [["B-PER", "I-PER", "O", "O"], ["O", "B-LOC", "O"], ["B-ORG", "I-ORG", "I-ORG"]] * 4
    >>> tags = [["B-PER", "O", "O", "O"], ["O", "B-LOC", "O"], ["B-ORG", "I-ORG", "O"]] * 4
    >>> sentences = [sentence_statistics(p, g) for p, g in zip(tags, gold)]
    >>> intervals = bootstrap_scores(sentences, n_resamples=200, random_state=0)
    >>> low, high = intervals["overall"]["corrected_f1"]
    >>> bool(0 < low < high <= 1), sorted(intervals["types"])
    (True, ['LOC', 'ORG', 'PER'])
    """
    confidence_level = check_confidence_level(confidence_level)
    n_resamples = check_resamples(n_resamples)
    method = check_method(method)
    zero_division_value(zero_division)
    rng = make_rng(random_state)
    check_resample_work(sentences, n_resamples)
    types, arrays = sentence_arrays(sentences, level)
    weights = resample_counts(rng, len(sentences), n_resamples)
    replicates = _summed_scores(arrays, weights, zero_division)
    bounds = {}
    if method == "percentile":
        for score in SCORES:
            bounds[score] = percentile_interval(replicates[score], confidence_level)
    else:
        total = arrays.sum(axis=0)
        estimate = _scores_of_sums(total[None], zero_division)
        # leave-one-sentence-out: the total minus one row (no S x S weight matrix)
        jackknife = _scores_of_sums(total[None] - arrays, zero_division) if len(sentences) > 1 else None
        for score in SCORES:
            if jackknife is None:
                bounds[score] = percentile_interval(replicates[score], confidence_level)
            else:
                bounds[score] = bca_interval(replicates[score], estimate[score][0], jackknife[score], confidence_level)
    return intervals_out(types, bounds, replicates, zero_division)


def intervals_out(types, bounds, replicates, zero_division) -> dict:
    """``{"overall": {score: [low, high]}, "types": {...}}``; ``None`` for an interval with a
    resample the model cannot score (NaN), with a warning under ``zero_division="warn"``."""
    out: dict[str, dict] = {"overall": {}, "types": {name: {} for name in types}}
    names = [*types, None]
    for score in SCORES:
        low, high = bounds[score]
        unsupported = np.isnan(replicates[score]).sum(axis=0)
        for t, name in enumerate(names):
            interval = None if unsupported[t] else [float(low[t]), float(high[t])]
            if name is None:
                out["overall"][score] = interval
            else:
                out["types"][name][score] = interval
            if unsupported[t] and zero_division == "warn":
                warnings.warn(f"{'overall' if name is None else name}: no {score} interval: chance F1 is 1 or more "
                              f"in {int(unsupported[t])} of {replicates[score].shape[0]} resamples, where corrected F1 "
                              "is not supported by the random model (no room for agreement beyond chance)",
                              UndefinedMetricWarning, stacklevel=4)
    return out


def add_intervals(result: dict, sentences, level: str, zero_division, confidence_level,
                  n_resamples=DEFAULT_RESAMPLES, random_state=None) -> dict:
    """Put percentile intervals into a ``chance_f1`` result (the call at the end of ``chance_f1``).

    Adds ``overall_{score}_ci`` and, inside each type's dict, ``{score}_ci`` as ``[low, high]``.
    ``confidence_level=None`` adds nothing (but the other two arguments are still checked).
    """
    check_resamples(n_resamples)
    check_random_state(random_state)
    if confidence_level is None:
        return result
    intervals = bootstrap_scores(sentences, level=level, confidence_level=confidence_level,
                                 n_resamples=n_resamples, random_state=random_state, zero_division=zero_division)
    return put_intervals(result, intervals)


def put_intervals(result: dict, intervals: dict) -> dict:
    """Write ``bootstrap_scores``-shaped intervals into a ``chance_f1`` result: ``overall_{score}_ci``
    and, inside each type's dict, ``{score}_ci`` as ``[low, high]``."""
    for score in SCORES:
        result[f"overall_{score}_ci"] = intervals["overall"][score]
    for name, scores in intervals["types"].items():
        if name in result:
            for score in SCORES:
                result[name][f"{score}_ci"] = scores[score]
    return result


__all__ = [
    "DEFAULT_RESAMPLES",
    "MAX_RESAMPLE_WORK",
    "METHODS",
    "SCORES",
    "add_intervals",
    "bca_interval",
    "bootstrap_scores",
    "check_confidence_level",
    "check_method",
    "check_random_state",
    "check_resample_work",
    "check_resamples",
    "intervals_out",
    "make_rng",
    "percentile_interval",
    "put_intervals",
    "resample_counts",
    "scores_from_sums",
    "sentence_arrays",
    "supported_scores",
]
