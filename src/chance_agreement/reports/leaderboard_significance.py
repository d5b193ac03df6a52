"""How sure is a leaderboard? Intervals, tests against the next system down, the chance difference.

For rows already sorted by corrected F1 (``leaderboard.build_leaderboard``):

- with ``confidence_level``: each system's sentence-bootstrap percentile interval of corrected F1
  (``corrected_f1_ci_low`` / ``corrected_f1_ci_high``) and, against the next system down, the
  two-sided approximate-randomization p-value of the corrected-F1 difference (``p_next``) and
  ``differs_from_next`` (p < 1 - confidence_level); the last row, and a row whose corrected F1
  (or the next one's) is undefined, has None;
- with ``gold_noise`` (the share gamma = R / L of noisy items in the gold standard, e.g. from the
  noise metric on a doubly annotated sample): the noise paper's chance difference (section 4.1,
  ``noise_model.chance_difference``, Chebyshev at ``confidence_level`` or 0.95) for L = the gold's
  tokens, ``chance_difference`` in tokens, beside ``correct_difference``, the difference in
  correctly tagged tokens to the next system down, and ``beyond_chance_difference``
  (``correct_difference > chance_difference``).

Seeds: no number depends on which other systems are on the board. With an int ``random_state``
every system's interval is drawn from ``random_state`` itself, the interval ``chance_f1(system,
gold, confidence_level=..., n_resamples=..., random_state=random_state, zero_division=0)`` gives
(the HTML board's), and every pair's p-value is ``compare_systems(a, b, gold, n_resamples=N,
n_permutations=N, random_state=random_state)``'s (``N`` = ``n_resamples``; the same either way
round). A ``numpy.random.Generator`` or None first gives one int seed (``board_seed``), used as above.
"""

from __future__ import annotations

import math

import numpy as np

from ..chance.bootstrap_intervals import bootstrap_scores, check_confidence_level, make_rng
from ..chance.system_comparison import compare_statistics
from ..noise.noise_model import chance_difference


def _check_gold_noise(gold_noise) -> float:
    if isinstance(gold_noise, bool) or not isinstance(gold_noise, (int, float)):
        raise TypeError(f"gold_noise must be a share of noisy items in [0, 1], got {gold_noise!r}")
    if not (math.isfinite(gold_noise) and 0.0 <= gold_noise <= 1.0):
        raise ValueError(f"gold_noise must be a share of noisy items in [0, 1], got {gold_noise!r}")
    return float(gold_noise)


def board_seed(random_state) -> int:
    """The int seed of every interval and test of a board: ``random_state`` itself when an int,
    else one draw in ``[0, 2^63)`` from the Generator (or from fresh entropy for None)."""
    rng = make_rng(random_state)  # checks the type and sign
    if random_state is None or isinstance(random_state, np.random.Generator):
        return int(rng.integers(0, 2**63 - 1))
    return int(random_state)


def add_significance(rows: list[dict], level: str, confidence_level=None, n_resamples: int = 1000,
                     random_state=None, gold_noise=None) -> None:
    """Add the columns above to ``rows`` in place; each row's ``_statistics`` (total, sentences) is removed."""
    statistics = [row.pop("_statistics") for row in rows]
    if confidence_level is not None:
        confidence_level = check_confidence_level(confidence_level)
        seed = board_seed(random_state)
        for row, (_, sentences) in zip(rows, statistics, strict=True):
            if row["corrected_f1"] is None:  # undefined (chance F1 1): no interval, no test
                row["corrected_f1_ci_low"] = row["corrected_f1_ci_high"] = None
                continue
            interval = bootstrap_scores(sentences, level=level, confidence_level=confidence_level,
                                        n_resamples=n_resamples, random_state=seed,
                                        zero_division=0)["overall"]["corrected_f1"]
            row["corrected_f1_ci_low"], row["corrected_f1_ci_high"] = interval or (None, None)
        for index, row in enumerate(rows):
            if index + 1 == len(rows) or None in (row["corrected_f1"], rows[index + 1]["corrected_f1"]):
                row["p_next"] = row["differs_from_next"] = None
                continue
            test = compare_statistics(statistics[index][1], statistics[index + 1][1], level=level,
                                      confidence_level=confidence_level, n_resamples=n_resamples,
                                      n_permutations=n_resamples, random_state=seed)
            row["p_next"] = test["corrected_f1_p_value"]
            row["differs_from_next"] = test["corrected_f1_p_value"] < 1.0 - confidence_level
    if gold_noise is not None:
        gold_noise = _check_gold_noise(gold_noise)
        tokens = statistics[0][0].total_tokens
        difference = chance_difference(tokens, gold_noise * tokens, confidence_level=confidence_level or 0.95).answers
        for index, row in enumerate(rows):
            row["chance_difference"] = difference
            if index + 1 == len(rows):
                row["correct_difference"] = row["beyond_chance_difference"] = None
                continue
            gap = statistics[index][0].correct_tokens - statistics[index + 1][0].correct_tokens
            row["correct_difference"] = gap
            row["beyond_chance_difference"] = gap > difference


def significance_columns(board: dict) -> list[tuple[str, str]]:
    """(key, Markdown header) pairs of the columns ``add_significance`` added."""
    columns = []
    if board.get("confidence_level") is not None:
        level = f"{board['confidence_level']:.0%}"
        columns += [("corrected_f1_ci_low", f"Cor {level} low"), ("corrected_f1_ci_high", f"Cor {level} high"),
                    ("p_next", "p vs next"), ("differs_from_next", "differs from next")]
    if board.get("gold_noise") is not None:
        columns += [("correct_difference", "correct tokens vs next"), ("chance_difference", "chance difference"),
                    ("beyond_chance_difference", "beyond chance")]
    return columns


__all__ = ["add_significance", "board_seed", "significance_columns"]
