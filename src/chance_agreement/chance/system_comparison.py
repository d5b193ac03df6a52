"""Is system A better than system B on the same gold? Paired bootstrap and approximate randomization.

Both tests work on the per-sentence (agreement, expected agreement, denominator) rows of the two
systems against the same references (``bootstrap_intervals.sentence_arrays``, summed over types),
so neither recomputes the random annotation model.

- Paired bootstrap: one count vector ``w`` per resample, applied to both systems (the same
  sentences), gives the resampled difference ``D* = F(w @ A) - F(w @ B)``; its percentile interval
  is reported.
- Approximate randomization (Noreen 1989; Riezler & Maxwell 2005): under the null hypothesis the
  two systems' outputs on a sentence are exchangeable, so each sentence's rows are swapped with
  probability 1/2 (sums ``A + z @ (B - A)``, one 0/1 vector ``z`` per permutation) and
  ``p = (1 + #{|D*| >= |D|}) / (1 + R)`` (two-sided; the +1 keeps the test valid).

``F`` is the corpus-level corrected (or observed) F1 of the kernel (``chance_corrected.f1_scores``,
through ``bootstrap_intervals.supported_scores``). Where the random model supports no corrected F1
(chance F1 >= 1, under the overlapping model) in the point estimates, a resample or a permutation,
the corrected F1 comparison is ``None`` throughout, with an ``UndefinedMetricWarning``.
"""

from __future__ import annotations

import warnings

import numpy as np

from .._numerics.exact_sum import ordered_matmul
from .bootstrap_intervals import (
    DEFAULT_RESAMPLES,
    check_confidence_level,
    check_resamples,
    make_rng,
    percentile_interval,
    resample_counts,
    sentence_arrays,
    supported_scores,
)
from .chance_corrected import UndefinedMetricWarning, zero_division_value
from .corrected_f1 import corpus_statistics
from .statistics import LEVELS, ChanceStatistics

COMPARED = ("corrected_f1", "observed_f1")
# |D*| >= |D| up to rounding: a permutation that reproduces D must count
_TIES = 1e-12


def _overall_rows(sentences: list[ChanceStatistics], level: str) -> np.ndarray:
    """(S, 3) per-sentence rows summed over entity types."""
    return sentence_arrays(sentences, level)[1].sum(axis=1)


def permutation_p_values(rows_a: np.ndarray, rows_b: np.ndarray, n_permutations: int, rng: np.random.Generator,
                         zero_division=0) -> dict[str, float | None]:
    """Two-sided approximate-randomization p-values of the differences in ``COMPARED``."""
    observed = {score: supported_scores(rows_a.sum(axis=0), zero_division)[score]
                - supported_scores(rows_b.sum(axis=0), zero_division)[score] for score in COMPARED}
    swaps = rng.integers(0, 2, size=(n_permutations, rows_a.shape[0])).astype(float)
    shift = ordered_matmul(swaps, rows_b - rows_a)
    sums_a = rows_a.sum(axis=0) + shift
    sums_b = rows_b.sum(axis=0) - shift
    scores_a, scores_b = supported_scores(sums_a, zero_division), supported_scores(sums_b, zero_division)
    out: dict[str, float | None] = {}
    for score in COMPARED:
        differences = scores_a[score] - scores_b[score]
        if np.isnan(observed[score]) or np.isnan(differences).any():
            out[score] = None
            continue
        extreme = np.count_nonzero(np.abs(differences) >= abs(observed[score]) - _TIES)
        out[score] = float((1 + extreme) / (1 + n_permutations))
    return out


def compare_statistics(sentences_a: list[ChanceStatistics], sentences_b: list[ChanceStatistics], *,
                       level: str = "token", confidence_level: float = 0.95, n_resamples: int = DEFAULT_RESAMPLES,
                       n_permutations: int = DEFAULT_RESAMPLES, random_state=None, zero_division=0) -> dict:
    """Compare two systems as ``compare_systems`` does, from their per-sentence statistics.

    Parameters
    ----------
    sentences_a, sentences_b : list of ChanceStatistics
        The statistics of each sentence for the two systems (same sentences, same order).
    level : {"token", "entity"}, default "token"
        Token overlap or exact span match.
    confidence_level : float, default 0.95
        The interval's level, in (0, 1).
    n_resamples, n_permutations : int, default 1000
        Bootstrap resamples and randomization-test permutations.
    random_state : int, numpy.random.Generator or None, default None
        The seed.
    zero_division : {"warn", 0, 1}, default 0
        The value of a 0/0 score in every resample.

    Returns
    -------
    dict
        As ``compare_systems``.

    Raises
    ------
    ValueError
        Two lists of different lengths, or options out of range.

    See Also
    --------
    compare_systems : The same from tags.

    Examples
    --------
    Twelve sentences; system B misses a location and cuts an organisation short:

    >>> from chance_agreement import sentence_statistics as statistics_of
    >>> gold = [["B-PER", "I-PER", "O"], ["O", "B-LOC", "O"], ["B-ORG", "O", "O"]] * 4
    >>> tags_a = [["B-PER", "I-PER", "O"], ["O", "B-LOC", "O"], ["B-ORG", "I-ORG", "O"]] * 4
    >>> tags_b = [["B-PER", "O", "O"], ["O", "O", "O"], ["B-ORG", "O", "O"]] * 4
    >>> result = compare_statistics([statistics_of(p, g) for p, g in zip(tags_a, gold)],
    ...                             [statistics_of(p, g) for p, g in zip(tags_b, gold)],
    ...                             n_resamples=100, n_permutations=100, random_state=1)
    >>> result["sentences"], round(result["observed_f1_difference"], 4), round(result["corrected_f1_difference"], 4)
    (12, 0.2222, 0.25)
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {list(LEVELS)}, got {level!r}")
    if len(sentences_a) != len(sentences_b):
        raise ValueError(f"the two systems have {len(sentences_a)} and {len(sentences_b)} sentences; "
                         "they must be scored on the same sentences")
    confidence_level = check_confidence_level(confidence_level)
    n_resamples = check_resamples(n_resamples)
    n_permutations = check_resamples(n_permutations, "n_permutations")
    zero_division_value(zero_division)
    rng = make_rng(random_state)
    rows_a, rows_b = _overall_rows(sentences_a, level), _overall_rows(sentences_b, level)
    point_a, point_b = (supported_scores(rows_a.sum(axis=0), zero_division),
                        supported_scores(rows_b.sum(axis=0), zero_division))
    weights = resample_counts(rng, len(sentences_a), n_resamples)
    boot_a = supported_scores(ordered_matmul(weights, rows_a), zero_division)
    boot_b = supported_scores(ordered_matmul(weights, rows_b), zero_division)
    p_values = permutation_p_values(rows_a, rows_b, n_permutations, rng, zero_division)
    result: dict = {}
    for score in COMPARED:
        differences = boot_a[score] - boot_b[score]
        if np.isnan(differences).any() or np.isnan(point_a[score] - point_b[score]) or p_values[score] is None:
            warnings.warn(f"no {score} comparison: chance F1 is 1 or more in the point estimates or some resamples, "
                          "where corrected F1 is not supported by the random model", UndefinedMetricWarning,
                          stacklevel=2)
            result.update(dict.fromkeys((f"{score}_a", f"{score}_b", f"{score}_difference", f"{score}_difference_ci",
                                         f"{score}_p_value")))
            continue
        low, high = percentile_interval(differences, confidence_level)
        result[f"{score}_a"] = float(point_a[score])
        result[f"{score}_b"] = float(point_b[score])
        result[f"{score}_difference"] = float(point_a[score] - point_b[score])
        result[f"{score}_difference_ci"] = [float(low), float(high)]
        result[f"{score}_p_value"] = p_values[score]
    result.update({"sentences": len(sentences_a), "confidence_level": confidence_level,
                   "n_resamples": n_resamples, "n_permutations": n_permutations, "level": level})
    return result


def compare_systems(predictions_a, predictions_b, references, *, level: str = "token",
                    model: str = "non_overlapping", confidence_level: float = 0.95,
                    n_resamples: int = DEFAULT_RESAMPLES, n_permutations: int = DEFAULT_RESAMPLES,
                    random_state=None, zero_division=0, scheme=None, mode=None, suffix=False) -> dict:
    r"""Test the difference of corrected and observed F1 between systems A and B on the same references.

    Parameters
    ----------
    predictions_a, predictions_b : list of list of str
        Per sentence, the two systems' tags.
    references : list of list of str
        Per sentence, the reference tags.
    level : {"token", "entity"}, default "token"
        Token overlap or exact span match.
    model : str or RandomModel, default "non_overlapping"
        The random annotation model.
    confidence_level : float, default 0.95
        The interval's level, in (0, 1).
    n_resamples, n_permutations : int, default 1000
        Bootstrap resamples and randomization-test permutations.
    random_state : int, numpy.random.Generator or None, default None
        The seed, through ``np.random.default_rng``.
    zero_division : {"warn", 0, 1}, default 0
        The value of a 0/0 score in every resample (default 0, no warning).
    scheme, mode, suffix : optional
        As in seqeval.

    Returns
    -------
    dict
        For ``score`` in ``corrected_f1`` and ``observed_f1``: ``{score}_a``, ``{score}_b``,
        ``{score}_difference`` (A - B), ``{score}_difference_ci`` (paired sentence-bootstrap
        percentile interval, ``[low, high]``) and ``{score}_p_value`` (two-sided approximate
        randomization test, sentences swapped between A and B); plus the settings
        (``sentences``, ``confidence_level``, ``n_resamples``, ``n_permutations``, ``level``).

    Raises
    ------
    ValueError
        Bad tags (naming the sentence), unequal lengths, bad options.

    See Also
    --------
    compare_statistics : The same from per-sentence statistics.
    bootstrap_scores : Intervals of one system's scores.

    Notes
    -----
    Both systems are scored on the same resampled sentences; the difference of the micro-averaged
    corrected F1 (Proposition 1 of [1]_),

    .. math::

        \Delta = \frac{o_A - c_A}{1 - c_A} - \frac{o_B - c_B}{1 - c_B},

    gets a percentile interval, and the p-value is the share of random swaps of the two systems'
    sentences with a difference at least as large. A difference that is undefined in a resample
    (chance F1 of 1) makes that score's entries ``None`` with a warning, never NaN.

    References
    ----------
    .. [1] D. Li, C. Rosé, A. Yuan, C. Zhou. Estimating Agreement by Chance for Sequence Annotation. ACL 2024.

    Examples
    --------
    >>> from chance_agreement import sentence_statistics
    >>> references = [["B-PER", "I-PER", "O", "B-LOC", "O"], ["O", "B-ORG", "I-ORG", "O"],
    ...               ["B-PER", "O", "O", "O"], ["O", "O", "B-LOC", "I-LOC"]] * 3
    >>> system_a = [["B-PER", "I-PER", "O", "B-LOC", "O"], ["O", "B-ORG", "O", "O"],
    ...             ["B-PER", "O", "O", "O"], ["O", "O", "B-LOC", "I-LOC"]] * 3
    >>> system_b = [["B-PER", "O", "O", "O", "O"], ["O", "B-ORG", "I-ORG", "O"],
    ...             ["O", "O", "B-PER", "O"], ["O", "O", "B-LOC", "O"]] * 3
    >>> result = compare_systems(system_a, system_b, references, n_resamples=200, n_permutations=200,
    ...                          random_state=0)
    >>> round(result["corrected_f1_difference"], 4), round(result["observed_f1_difference"], 4)
    (0.4802, 0.3179)
    >>> low, high = result["corrected_f1_difference_ci"]
    >>> bool(low < result["corrected_f1_difference"] < high), 0 < result["corrected_f1_p_value"] <= 1
    (True, True)
    """
    options = dict(scheme=scheme, mode=mode, suffix=suffix, model=model, levels=(level,))
    _, sentences_a = corpus_statistics(predictions_a, references, **options)
    _, sentences_b = corpus_statistics(predictions_b, references, **options)
    return compare_statistics(sentences_a, sentences_b, level=level, confidence_level=confidence_level,
                              n_resamples=n_resamples, n_permutations=n_permutations,
                              random_state=random_state, zero_division=zero_division)


__all__ = ["COMPARED", "compare_statistics", "compare_systems", "permutation_p_values"]
