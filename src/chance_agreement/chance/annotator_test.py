"""Is a candidate annotator (an LLM, a model, a new person) as good as one more human?

An equivalence test on chance-corrected span F1, after the Alternative Annotator Test (Calderon,
Reichart and Dror, ACL 2025: leave one human out, compare the candidate's alignment with the other
humans to the left-out human's) and the TOST equivalence tests of "Can We Hide Machines in the
Crowd?" (arXiv 2510.06658), with the team statistics of ``team_f1`` as the measure of alignment.

For humans ``1..m`` (``m >= 2``) and a candidate ``c``, with ``F(x, O_h)`` the chance-corrected F1
of ``x`` against the humans ``O_h`` other than ``h``, pooled as ``team_chance_f1`` pools the pairs
(sums over every sentence, entity type and pair ``(x, g)``, ``g`` in ``O_h``, of the agreement,
its expectation under the random annotation model and the denominator, both annotators
randomised independently)::

    advantage_h = F(c, O_h) - F(h, O_h)          (replacing h by c)
    mean advantage = (1/m) sum_h advantage_h

``F(c, O_h)`` is computed on the sentences ``h`` annotated, so both terms count the same
(sentence, other human) pairs. With two humans and every sentence annotated, ``F(h, O_h)`` is
``chance_f1`` of the two humans and ``F(c, O_h)`` is ``chance_f1`` of the candidate against the
other human, bit for bit (the pairs' statistics are ``chance_f1``'s, summed exactly).

Uncertainty: a paired bootstrap over sentences (or over documents, with ``document_ids``: the
sentences of a document are drawn together). Resample ``b`` is a count vector ``w_b`` over the
units (``bootstrap_intervals.resample_counts``); every sum above becomes ``w_b @ rows`` of the
per-sentence statistics (the random model is not recomputed), and the same ``w_b`` serves every
human, candidate and pair, so the comparison is paired. With ``B`` resamples and margin ``d``:

    p_value             = (1 + #{b: mean advantage*_b <= -d}) / (B + 1)   non-inferiority, H0: mean <= -d
    equivalence_p_value = max(p_value, (1 + #{b: mean*_b >= d}) / (B + 1)) TOST, H0: |mean| >= d
    inferiority_p_value = (1 + #{b: mean*_b >= -d}) / (B + 1)              H0: mean >= -d
    mean_advantage_ci   = the alpha and 1 - alpha percentiles of mean*    (the 1 - 2 alpha interval)

Verdict: "equivalent" (asked with ``equivalence=True``: both one-sided tests reject at ``alpha``),
"non-inferior" (``p_value <= alpha``: the interval lies above ``-d``), "inferior" (the interval
lies below ``-d``) or "inconclusive". The percentile p-values and the interval come from the same
resamples, so they agree but for one resample at the interval's end.

Per human, the one-sided test of ``advantage_h > -d`` (the same resamples), Benjamini-Yekutieli
adjusted over the ``m`` humans (valid under any dependence); the winning rate is the share of
humans the candidate beats so, and the alt-test replaces the humans when it is at least 1/2
(``replaceable``).

Unparsed output (``candidate[s] is None``; in an ``AnnotationSet``, a sentence the candidate did
not annotate) is counted in ``unparsed`` and scored as an empty annotation (the default: the
candidate is charged for it) or, with ``unparsed="exclude"``, left out together with every human's
statistics of that sentence (stated in ``unparsed_policy``).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from numbers import Real

import numpy as np

from .._numerics.exact_sum import ordered_matmul
from ..spans.annotation_set import AnnotationSet
from ..spans.validation import as_items, check_annotations, problem
from .bootstrap_intervals import (
    DEFAULT_RESAMPLES,
    check_resamples,
    make_rng,
    percentile_interval,
    resample_counts,
    sentence_arrays,
)
from .chance_corrected import DEFINED, f1_scores
from .corrected_f1 import pooled_scores
from .poisson_bootstrap import document_keys
from .random_models import get_model
from .statistics import ChanceStatistics
from .team_f1 import team_set, team_statistics

UNPARSED = ("empty", "exclude")
VERDICTS = ("equivalent", "non-inferior", "inferior", "inconclusive")
FUNCTION = "annotator_test"
_ONE = "candidate"  # the name of a candidate given alone
# fewer resampled units than this: the result notes that the test's level exceeds alpha
# (simulations of tests/test_annotator_test.py: 5 % at 100 sentences, 7.5 % at 60, 8 % at 30)
FEW_UNITS = 100


def annotator_test(annotations, candidate, *, margin, level="token", alpha=0.05, equivalence=False,
                   n_resamples=DEFAULT_RESAMPLES, random_state=None, unparsed="empty", names=None,
                   model="non_overlapping", document_ids=None, scheme=None, mode=None, suffix=False) -> dict:
    r"""Test whether a candidate annotator is as good as one more human, on chance-corrected F1.

    Per human ``h``: ``advantage_h = F(candidate, O_h) - F(h, O_h)``, the corrected F1 against the
    other humans pooled (``team_chance_f1``'s pairs); the mean over the humans is tested against
    ``-margin`` by a paired bootstrap (formulas and verdicts: the module docstring).

    Parameters
    ----------
    annotations : list over sentences of lists over humans (>= 2) of tag sequences, or AnnotationSet
        ``annotations[s][h]``, ``None`` where ``h`` did not annotate ``s`` (``by_item`` converts);
        the tags and the candidates' are checked and chunked once, into one ``AnnotationSet``. Or
        that set itself, the humans and the candidates its annotators (``candidate`` names the
        candidates, every other annotator is a human): nothing is chunked again, and a sentence a
        candidate did not annotate is its unparsed output.
    candidate : list over sentences of tag sequences (``None``: unparsed), or a dict of such lists
        A dict ``{name: tags}`` tests several candidates against the same humans and resamples.
        With an ``AnnotationSet``: the name of one of its annotators, or a list of names (a dict
        of results, one per name).
    margin : float
        In ``[0, 1)``: the corrected F1 the candidate may lose against a human (0: superiority).
    level : {"token", "entity"}, default "token"
        Token overlap or exact span match, as in ``chance_f1``.
    alpha : float, default 0.05
        Level of each one-sided test, in ``(0, 0.5)`` (the interval is the 1 - 2 alpha one).
    equivalence : bool, default False
        Also test equivalence (TOST) within the margin.
    n_resamples : int, default 1000
        Bootstrap resamples (p-values >= 1 / (n_resamples + 1)).
    random_state : int, numpy.random.Generator or None, default None
        The bootstrap's seed.
    unparsed : {"empty", "exclude"}, default "empty"
        An unparsed sentence scored as an empty annotation, or left out with the humans' statistics.
    names : list of str, optional
        The humans' names (with an ``AnnotationSet``: None, the set names its annotators).
    model : str or RandomModel, default "non_overlapping"
        The random annotation model.
    document_ids : sequence, optional
        One id per sentence, to resample documents instead of sentences.
    scheme, mode, suffix : optional
        As in seqeval.

    Returns
    -------
    dict
        ``verdict``; per human (dicts) ``advantage``, ``candidate_corrected_f1``,
        ``human_corrected_f1``, ``advantage_p_value``, ``advantage_adjusted_p_value``; ``beats``,
        ``mean_advantage``, ``mean_advantage_ci``, ``p_value``, ``equivalence_p_value``,
        ``inferiority_p_value``, ``winning_rate``, ``replaceable``, ``unparsed``,
        ``unparsed_policy``, ``notes`` and the settings; for a dict of candidates, one per name.

    Raises
    ------
    ValueError
        Bad input (naming sentence and annotator), an option out of range, too little data.

    See Also
    --------
    team_chance_f1 : The humans' pairwise scores.

    Notes
    -----
    For each of the :math:`m` humans :math:`h`, with :math:`O_h` the other humans pooled and
    :math:`F` the corrected F1,

    .. math::

        \mathrm{advantage}_h = F(\mathrm{candidate}, O_h) - F(h, O_h), \qquad
        \bar A = \frac{1}{m} \sum_h \mathrm{advantage}_h,

    and the non-inferiority p-value of :math:`B` paired bootstrap resamples is
    :math:`(1 + \#\{\bar A^* \le -\mathrm{margin}\}) / (B + 1)` (Calderon, Reichart and Dror,
    ACL 2025; equivalence as in arXiv 2510.06658); :math:`F` is the chance-corrected F1 of [1]_.
    A corrected F1 that is undefined in the data or in a resample is an error saying there is too
    little data, never a number.

    References
    ----------
    .. [1] D. Li, C. Rosé, A. Yuan, C. Zhou. Estimating Agreement by Chance for Sequence Annotation. ACL 2024.

    Examples
    --------
    >>> from chance_agreement import annotator_test, by_item
    >>> human = [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-ORG", "I-ORG", "O"], ["B-LOC", "O", "O", "O"]]
    >>> humans = by_item([human, human, human[:2] + [["B-LOC", "O", "O", "B-PER"]]])
    >>> llm = [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-ORG", "I-ORG", "O"], None]
    >>> result = annotator_test(humans, llm, margin=0.1, n_resamples=200, random_state=0)
    >>> result["verdict"], round(result["mean_advantage"], 4), result["unparsed"]
    ('inconclusive', -0.1162, 1)

    The same humans and candidate as one annotation set, the candidate named (the same result):

    >>> from chance_agreement import AnnotationSet
    >>> team = AnnotationSet.from_tags({"ann": human, "bob": human, "eve": human[:2] + [["B-LOC", "O", "O", "B-PER"]],
    ...                                 "llm": llm})
    >>> same = annotator_test(team, "llm", margin=0.1, n_resamples=200, random_state=0)
    >>> same["humans"], same["mean_advantage"] == result["mean_advantage"], same["p_value"] == result["p_value"]
    (['ann', 'bob', 'eve'], True, True)
    """
    settings = _settings(margin, alpha, equivalence, n_resamples, unparsed, level, model)
    team, candidates = _team(annotations, candidate, names, {"scheme": scheme, "mode": mode, "suffix": suffix})
    weights, sampling = _resample_weights(make_rng(random_state), document_ids, team.n_items, settings["n_resamples"])
    tested = _Team(team, len(candidates), unparsed, weights, {"level": level, "model": model})
    results = {name: tested.test(c, name, {**settings, **sampling}) for c, name in enumerate(candidates)}
    if isinstance(candidate, Mapping) or (isinstance(annotations, AnnotationSet) and not isinstance(candidate, str)):
        return results  # several candidates: one result per name
    return results[candidates[0]]


def _settings(margin, alpha, equivalence, n_resamples, unparsed, level, model) -> dict:
    """The options checked, as the result states them."""
    if isinstance(margin, bool) or not isinstance(margin, Real) or not 0.0 <= float(margin) < 1.0:
        raise ValueError(f"{FUNCTION}: margin must be a number in [0, 1) (corrected F1 the candidate may lose "
                         f"against a human), got {margin!r}")
    if isinstance(alpha, bool) or not isinstance(alpha, Real) or not 0.0 < float(alpha) < 0.5:
        raise ValueError(f"{FUNCTION}: alpha must be a number strictly between 0 and 0.5, got {alpha!r}")
    if not isinstance(equivalence, bool):
        raise ValueError(f"{FUNCTION}: equivalence must be True or False, got {equivalence!r}")
    if unparsed not in UNPARSED:
        raise ValueError(f"{FUNCTION}: unparsed must be one of {list(UNPARSED)}, got {unparsed!r}")
    if level not in ("token", "entity"):
        raise ValueError(f"{FUNCTION}: level must be one of ['token', 'entity'], got {level!r}")
    return {"unparsed_policy": unparsed, "margin": float(margin), "alpha": float(alpha),
            "confidence_level": 1.0 - 2.0 * float(alpha),
            "equivalence": equivalence, "level": level, "model": get_model(model).name,
            "n_resamples": check_resamples(n_resamples)}


def _team(annotations, candidate, names, span: dict) -> tuple[AnnotationSet, list[str]]:
    """``(set, candidate names)``: the humans then the candidates as one ``AnnotationSet`` (tags
    checked and chunked once; an unparsed sentence not annotated), and the candidates' names."""
    if isinstance(annotations, AnnotationSet):
        return _set_team(annotations, candidate, names, span)
    humans = check_annotations(annotations, function=FUNCTION)
    human_names = _human_names(names, len(humans[0]))
    candidates = _candidates(candidate, humans, human_names)
    rows = [list(humans[s]) + [tags[s] for tags in candidates.values()] for s in range(len(humans))]
    return (team_set(as_items(rows), human_names + list(candidates), span["scheme"], span["mode"], span["suffix"],
                     FUNCTION), list(candidates))


def _set_team(annotations: AnnotationSet, candidate, names, span: dict) -> tuple[AnnotationSet, list[str]]:
    """A set's annotators reordered, the humans first; ``candidate`` names one or several of them."""
    if names is not None:
        raise ValueError(problem(FUNCTION, "names", "an AnnotationSet names its annotators: give names=None "
                                 "(rename them when building the set)"))
    given = [candidate] if isinstance(candidate, str) else candidate
    if isinstance(given, (bytes, Mapping)) or not isinstance(given, (list, tuple)) or not given:
        raise ValueError(f"{FUNCTION}: with an AnnotationSet, candidate is the name of one of its annotators or a "
                         f"list of such names, got {candidate!r}")
    wanted = [str(name) for name in given]
    unknown = [name for name in wanted if name not in annotations.names]
    if unknown or len(set(wanted)) < len(wanted):
        raise ValueError(f"{FUNCTION}: candidate {candidate!r} must name distinct annotators of the set "
                         f"{list(annotations.names)}")
    humans = [a for a, name in enumerate(annotations.names) if name not in wanted]
    if len(humans) < 2:
        raise ValueError(f"{FUNCTION}: the set has {len(humans)} annotator(s) besides the candidates: the test needs "
                         "two or more humans")
    annotations.chunked_as(span["scheme"], span["mode"], span["suffix"], FUNCTION)
    return annotations.select(humans + [annotations.names.index(name) for name in wanted]), wanted


def _human_names(names, m: int) -> list[str]:
    if names is None:
        return [f"human_{h + 1}" for h in range(m)]
    names = [str(name) for name in names]
    if len(names) != m or len(set(names)) != m:
        raise ValueError(problem(FUNCTION, "names", f"must be {m} distinct names, one per human, got {names!r}"))
    return names


def _candidates(candidate, humans: list, human_names: list[str]) -> dict:
    """``{name: tags per sentence}`` checked: one entry (or None) per sentence, each as long as the
    humans' tags of the sentence."""
    given = dict(candidate) if isinstance(candidate, Mapping) else {_ONE: candidate}
    if not given:
        raise ValueError(f"{FUNCTION}: candidate is an empty dict: give one candidate's tags or a dict of them")
    out = {}
    for name, tags in given.items():
        name = str(name)
        if name in human_names or name in out:
            raise ValueError(f"{FUNCTION}: the candidate name {name!r} is already a human's or another candidate's")
        if tags is None or isinstance(tags, (str, bytes, Mapping)) or not hasattr(tags, "__len__"):
            raise ValueError(f"{FUNCTION}: candidate {name!r} must be a list with one tag sequence (or None) per "
                             f"sentence, got {type(tags).__name__}")
        if len(tags) != len(humans):
            raise ValueError(f"{FUNCTION}: candidate {name!r} has {len(tags)} sentences and the humans {len(humans)}: "
                             "give one tag sequence per sentence, None where its output could not be parsed")
        for s, (mine, row) in enumerate(zip(tags, humans, strict=True)):
            length = next((len(theirs) for theirs in row if theirs is not None), None)
            if mine is not None and (isinstance(mine, (str, bytes)) or (length is not None and len(mine) != length)):
                raise ValueError(problem(FUNCTION, "candidate", f"{len(mine)} tags where the humans have {length}: "
                                         "align the candidate's output to the humans' tokens, or give None",
                                         s, name=name))
        out[name] = list(tags)
    return out


def _filled(team: AnnotationSet, candidate: int, humans: int, unparsed: str) -> AnnotationSet:
    """The set with the candidate's unparsed sentences (not annotated) as empty annotations
    (``"empty"``, where a human annotated the sentence), or as they are (``"exclude"``)."""
    if unparsed == "exclude":
        return team
    items = np.flatnonzero(~team.present[candidate] & team.present[:humans].any(axis=0))
    return team.with_empty(candidate, items) if items.size else team


def _notes(resampled: str, units: int) -> list[str]:
    """What the reader of the result should know: too few units for the bootstrap's level."""
    if units >= FEW_UNITS:
        return []
    return [f"only {units} {resampled} to resample: below about {FEW_UNITS} the percentile bootstrap rejects more "
            "often than alpha (in simulations 7.5 % at 60 sentences, 8 % at 30, for alpha 5 %), so a "
            "non-inferior verdict is weaker than it reads"]


def _resample_weights(rng, document_ids, count: int, n_resamples: int):
    """``(weights (B, sentences), {"resampled", "units", "notes"})``: multinomial counts over the
    sentences, or over the documents with every sentence taking its document's count."""
    if document_ids is None:
        weights, resampled, units = resample_counts(rng, count, n_resamples), "sentences", count
    else:
        _, inverse = np.unique(document_keys(document_ids, count), return_inverse=True)
        resampled, units = "documents", int(inverse.max()) + 1
        # C order, as resample_counts gives it: ordered_matmul's order of addition follows the layout
        weights = np.ascontiguousarray(resample_counts(rng, units, n_resamples)[:, inverse.ravel()])
    return weights, {"resampled": resampled, "units": units, "notes": _notes(resampled, units)}


def _corrected(sums: np.ndarray) -> np.ndarray:
    """Corrected F1 of summed (agreement, expected, denominator) rows (last axis); NaN where it is
    undefined (no entity on either side, or no room beyond chance)."""
    _, _, corrected, reason = f1_scores(sums[..., 0], sums[..., 1], sums[..., 2], 0)
    return np.where(reason == DEFINED, corrected, np.nan)


def _mean_over_humans(values: np.ndarray) -> np.ndarray:
    """The mean over the last axis, added in order (the same bits on every machine)."""
    total = values[..., 0].copy()
    for h in range(1, values.shape[-1]):
        total = total + values[..., h]
    return total / values.shape[-1]


def _exceed_p(replicates: np.ndarray, below: bool, bound: float) -> np.ndarray:
    """``(1 + #{b: x*_b <= bound}) / (B + 1)`` (``below``), or with ``>=``, over the first axis."""
    count = np.count_nonzero(replicates <= bound if below else replicates >= bound, axis=0)
    return (1 + count) / (replicates.shape[0] + 1)


def benjamini_yekutieli(p_values) -> list[float]:
    """Benjamini-Yekutieli adjusted p-values (step-up, valid under any dependence).

    Parameters
    ----------
    p_values : list of float
        The ``m`` raw p-values.

    Returns
    -------
    list of float
        ``min over k >= rank of min(1, m c(m) p_(k) / k)``, ``c(m) = sum_{i <= m} 1/i``, in the
        input order; a hypothesis is rejected at false discovery rate ``q`` when its value is at
        most ``q``.

    Examples
    --------
    >>> [round(p, 4) for p in benjamini_yekutieli([0.01, 0.04, 0.03])]
    [0.055, 0.0733, 0.0733]
    """
    m = len(p_values)
    harmonic = math.fsum(1.0 / i for i in range(1, m + 1))
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted, running = [0.0] * m, 1.0
    for rank in range(m, 0, -1):
        running = min(running, p_values[order[rank - 1]] * m * harmonic / rank)
        adjusted[order[rank - 1]] = running
    return adjusted


def _verdict(p_lower: float, p_upper: float, p_inferior: float, alpha: float, equivalence: bool) -> str:
    if p_lower <= alpha:
        return "equivalent" if equivalence and p_upper <= alpha else "non-inferior"
    return "inferior" if p_inferior <= alpha else "inconclusive"


class _Team:
    """The humans' pair statistics, shared by every candidate's test."""

    def __init__(self, team: AnnotationSet, candidates: int, unparsed: str, weights, span):
        m = team.n_annotators - candidates
        self.parsed = team.present[m:].copy()  # before the unparsed sentences are filled
        for c in range(candidates):
            team = _filled(team, m + c, m, unparsed)
        pairs = list(itertools.combinations(range(m), 2)) + [(h, m + c) for c in range(candidates) for h in range(m)]
        self.per_pair: dict = {}
        _, self.totals = team_statistics(team, pairs=pairs, pair_sentences=self.per_pair, function=FUNCTION, **span)
        self.names, self.level, self.weights = list(team.names[:m]), span["level"], weights
        self.present = list(team.present[:m])
        self.rows = {pair: sentence_arrays(stats, self.level)[1].sum(axis=1)
                     for pair, stats in self.per_pair.items()}

    def _exact(self, pairs, mask) -> float:
        """The exact corrected F1 of the pairs pooled over the sentences of ``mask``."""
        if mask.all():
            parts = [self.totals[pair] for pair in pairs if self.totals[pair] is not None]
        else:
            parts = [self.per_pair[pair][s] for pair in pairs for s in np.flatnonzero(mask)]
        return pooled_scores(sum(parts, ChanceStatistics()), self.level, 0, "annotator_test")["corrected_f1"]

    def _sides(self, c: int, h: int, included):
        """For human ``h``: the pairs, masks and per-sentence rows of the candidate's side and h's side."""
        others = [g for g in range(len(self.names)) if g != h]
        sides = [([(g, c) for g in others], included & self.present[h]),
                 ([(min(g, h), max(g, h)) for g in others], included)]
        return [(pairs, mask, sum(self.rows[pair] for pair in pairs) * mask[:, None]) for pairs, mask in sides]

    def test(self, index: int, name: str, settings: dict) -> dict:
        """The candidate ``index`` (0: the first) tested; ``settings`` are copied into the result."""
        m, margin, alpha = len(self.names), settings["margin"], settings["alpha"]
        included = self.parsed[index] | (settings["unparsed_policy"] == "empty")
        sides = [self._sides(m + index, h, included) for h in range(m)]
        rows = np.concatenate([side[2] for per_human in sides for side in per_human], axis=1)
        sums = np.concatenate([ordered_matmul(np.ones((1, rows.shape[0])), rows), ordered_matmul(self.weights, rows)])
        corrected = _corrected(sums.reshape(sums.shape[0], m, 2, 3))
        _check_defined(corrected, name, self.names)
        exact = np.array([[self._exact(pairs, mask) for pairs, mask, _ in per_human] for per_human in sides])
        advantage, replicates = exact[:, 0] - exact[:, 1], corrected[1:, :, 0] - corrected[1:, :, 1]
        mean, means = float(_mean_over_humans(advantage)), _mean_over_humans(replicates)
        p_lower = float(_exceed_p(means, True, -margin))
        p_upper = float(_exceed_p(means, False, margin))
        p_inferior = float(_exceed_p(means, False, -margin))
        per_human = _exceed_p(replicates, True, -margin).tolist()
        adjusted = benjamini_yekutieli(per_human)
        low, high = percentile_interval(means, settings["confidence_level"])
        beats = [human for human, p in zip(self.names, adjusted, strict=True) if p <= alpha]
        return {
            "candidate": name, "humans": list(self.names),
            "verdict": _verdict(p_lower, p_upper, p_inferior, alpha, settings["equivalence"]),
            "advantage": dict(zip(self.names, advantage.tolist(), strict=True)),
            "candidate_corrected_f1": dict(zip(self.names, exact[:, 0].tolist(), strict=True)),
            "human_corrected_f1": dict(zip(self.names, exact[:, 1].tolist(), strict=True)),
            "mean_advantage": mean, "mean_advantage_ci": [float(low), float(high)],
            "p_value": p_lower, "equivalence_p_value": max(p_lower, p_upper) if settings["equivalence"] else None,
            "inferiority_p_value": p_inferior,
            "advantage_p_value": dict(zip(self.names, per_human, strict=True)),
            "advantage_adjusted_p_value": dict(zip(self.names, adjusted, strict=True)),
            "beats": beats, "winning_rate": len(beats) / m, "replaceable": len(beats) / m >= 0.5,
            "unparsed": int((~self.parsed[index]).sum()), "sentences": int(included.sum()), **settings,
        }


def _check_defined(corrected: np.ndarray, name: str, humans: list[str]) -> None:
    """Refuse a test with an undefined corrected F1 in the data (row 0) or in some resample."""
    for h, human in enumerate(humans):
        for side, who in enumerate((f"candidate {name!r}", f"human {human!r}")):
            undefined = np.isnan(corrected[:, h, side])
            if undefined.any():
                where = ("on the data" if undefined[0] else
                         f"in {int(undefined.sum())} of {len(undefined) - 1} resamples")
                raise ValueError(f"{FUNCTION}: the corrected F1 of {who} against the humans other than {human!r} is "
                                 f"undefined {where} (no entity on either side, or chance agreement 1): too little "
                                 "data for the test; give more sentences or documents with entities")


__all__ = ["FEW_UNITS", "FUNCTION", "UNPARSED", "VERDICTS", "annotator_test", "benjamini_yekutieli"]
