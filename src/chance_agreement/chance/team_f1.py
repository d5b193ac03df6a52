"""Chance-corrected F1 for a team of m >= 2 annotators: the pairwise micro average.

For every sentence ``s``, entity type and pair ``(i, j)`` of annotators who both annotated ``s``
(an annotator given as ``None`` for a sentence is left out of it; an empty annotation is an
annotation with no entities), with ``a_i`` the tokens annotator ``i`` marks with the type and
``o_ij`` the tokens both mark::

    observed = sum 2 o_ij / sum (a_i + a_j)
    chance   = sum 2 E[o_ij] / sum (a_i + a_j)
    corrected = (observed - chance) / (1 - chance)

with ``E[o_ij] = sum_t c_i(t) c_j(t)`` under the random annotation model, every annotator
randomised independently (chance_agreement_sequence_annotation.txt, Proposition 1 applied to each
pair). The entity level uses exact span matches and span counts instead (``2 m_ij / (k_i + k_j)``).
Each pair's per-sentence statistics are exactly those of the two-annotator ``chance_f1`` (the same
function computes them), so with m = 2 the result equals ``chance_f1`` bit for bit.

Besides the team scores (overall and per type), ``per_annotator`` pools the pairs of one
annotator with every other annotator (who agrees least beyond chance) and ``pairwise_*`` give
the m x m matrices of the pairs. Input is per sentence, the annotators' tag sequences
(``annotations[s][a]``, the one layout of the API).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np

from ..spans.annotation_set import AnnotationSet
from ..spans.tags import effective_scheme, spans_from_tags
from ..spans.validation import as_items, by_annotator, by_item, check_annotations, problem
from .bootstrap_intervals import add_intervals
from .chance_corrected import zero_division_value
from .corrected_f1 import chance_scores, pair_statistics, pooled_scores, sentence_scores
from .random_models import RandomModel, get_model
from .statistics import LEVELS, ChanceStatistics

SCORES = ("observed_f1", "chance_f1", "corrected_f1")


def _check_annotations(annotations, names, function: str):
    """Several annotators' tags in the API's layout (``annotations[s][a]``, ``spans.validation``)
    checked, and turned annotator-major for the pairs: ``(annotations[a][s], names, lengths)``."""
    rows = check_annotations(annotations, function=function)
    m = len(rows[0])
    if names is None:
        names = [f"annotator_{a + 1}" for a in range(m)]
    else:
        names = [str(name) for name in names]
        if len(names) != m or len(set(names)) != m:
            raise ValueError(problem(function, "names",
                                     f"must be {m} distinct names, one per annotator, got {names!r}"))
    lengths = [len(next((tags for tags in row if tags is not None), ())) for row in rows]
    if not any(lengths):
        raise ValueError(problem(function, "annotations",
                                 "empty input: every sentence has zero tokens or no annotator"))
    return [[row[a] for row in rows] for a in range(m)], names, lengths


def team_statistics(annotations, *, names=None, level="token", model="non_overlapping", suffix=False,
                    scheme=None, mode=None, sentences=None, pairs=None, pair_sentences=None,
                    function="team_statistics"):
    """``(names, {(i, j): ChanceStatistics or None})``: each pair's statistics over the sentences
    both annotated (``None`` for a pair that never met).

    Pair ``(i, j)``, ``i < j``, holds exactly ``chance_f1``'s statistics with annotator ``i`` as the
    references and ``j`` as the predictions (the same corpus pass computes them, with exact sums).
    ``pairs`` (default: every pair) lists the pairs ``(i, j)``, ``i < j``, to compute. If
    ``sentences`` is a list, one ``ChanceStatistics`` per sentence (every pair of the sentence
    pooled) is appended to it; if ``pair_sentences`` is a dict, ``pair_sentences[i, j]`` is set to
    the pair's statistics of every sentence (an empty ``ChanceStatistics`` where the two did not
    both annotate it).
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {list(LEVELS)}, got {level!r}")
    model = get_model(model)
    team = team_set(annotations, names, scheme, mode, suffix, function)
    keep = sentences is not None or pair_sentences is not None
    n = team.n_items
    by_sentence: list[list[ChanceStatistics]] | None = [[] for _ in range(n)] if sentences is not None else None
    totals: dict[tuple[int, int], ChanceStatistics | None] = {}
    for i, j in itertools.combinations(range(team.n_annotators), 2) if pairs is None else pairs:
        shared = team.shared_items(i, j)
        if not shared.size:
            totals[i, j] = None
            continue
        pair = team.select([i, j], shared)  # i the references, j the predictions, as in chance_f1
        totals[i, j], per_sentence = pair_statistics(pair, model=model, levels=(level,), keep_sentences=keep)
        if pair_sentences is not None:
            pair_sentences[i, j] = [ChanceStatistics()] * n
            for s, stats in zip(shared.tolist(), per_sentence, strict=True):
                pair_sentences[i, j][s] = stats
        if by_sentence is not None:
            for s, stats in zip(shared.tolist(), per_sentence, strict=True):
                by_sentence[s].append(stats)
    if by_sentence is not None:
        sentences.extend(sum(parts, ChanceStatistics()) for parts in by_sentence)
    return list(team.names), totals


def team_set(annotations, names, scheme, mode, suffix, function) -> AnnotationSet:
    """The annotators as an ``AnnotationSet``: a set as given (renamed by ``names``), or the tags in
    the API's layout checked and chunked once; a tag the chunker refuses raises naming the sentence
    and the annotator (``_check_tags``)."""
    if isinstance(annotations, AnnotationSet):
        annotations.chunked_as(scheme, mode, suffix, function)
        if names is None:
            return annotations
        checked = [str(name) for name in names]
        if len(checked) != annotations.n_annotators or len(set(checked)) != len(checked):
            raise ValueError(problem(function, "names", f"must be {annotations.n_annotators} distinct names, one per "
                                     f"annotator, got {names!r}"))
        return dataclasses.replace(annotations, names=tuple(checked))  # a fresh cache (init=False)
    corpora, names, _ = _check_annotations(annotations, names, function)
    try:
        return AnnotationSet.from_tags(corpora, names=names, scheme=scheme, mode=mode, suffix=suffix)
    except ValueError:
        resolved = effective_scheme([tags for corpus in corpora for tags in corpus if tags is not None], scheme, mode,
                                    suffix)
        _check_tags(corpora, names, resolved, mode, suffix, function)
        raise


def _check_tags(annotations, names, scheme, mode, suffix, function) -> None:
    """Chunk every annotator's every sentence; the first error names the sentence and the annotator
    (run only to name a refused tag)."""
    for s in range(len(annotations[0])):
        for a, sentences in enumerate(annotations):
            if sentences[s] is not None:
                try:
                    spans_from_tags(list(sentences[s]), scheme=scheme, mode=mode, suffix=suffix)
                except ValueError as error:
                    raise ValueError(problem(function, "annotations", str(error), s, a, name=names[a])) from None


def _pooled(pair_totals) -> ChanceStatistics | None:
    """The exact sum of the pairs' statistics; ``None`` if no pair ever met."""
    met = [totals for totals in pair_totals if totals is not None]
    return sum(met, ChanceStatistics()) if met else None


def team_chance_f1(annotations: Sequence[Sequence[Sequence[str] | None]] | AnnotationSet, *,
                   names: Sequence[str] | None = None, level: str = "token",
                   model: str | RandomModel = "non_overlapping", suffix: bool = False,
                   scheme: str | type | None = None, mode: str | None = None,
                   zero_division: Literal["warn"] | float = "warn",
                   return_sentence_scores: bool = False, confidence_level: float | None = None,
                   n_resamples: int = 1000, random_state: int | np.random.Generator | None = None) -> dict[str, Any]:
    r"""Compute observed, chance and chance-corrected F1 of m >= 2 annotators (pairwise micro average).

    Parameters
    ----------
    annotations : list of list
        ``annotations[s][a]``: per sentence ``s``, annotator ``a``'s tags, or ``None`` if ``a`` did
        not annotate ``s`` (left out of that sentence's pairs; all-``O`` tags are an annotation
        with no entities): the layout of every several-annotator function (``spans.validation``).
        One list per annotator is passed as ``by_item(annotators)``; a list that reads both ways
        (every sequence of one length) is refused unless marked with ``as_items`` or ``by_item``.
    names : list of str, optional
        The annotators' names (default ``"annotator_1"``, ...).
    level : {"token", "entity"}, default "token"
        ``"token"``: the paper's token-overlap F1; ``"entity"``: exact span match.
    model : str or RandomModel, default "non_overlapping"
        The random annotation model: ``"non_overlapping"`` (the paper's), ``"overlapping"``,
        another name registered in ``random_models``, or a ``RandomModel`` instance.
    suffix : bool, default False
        As in seqeval: tags with the type first (``"PER-B"``).
    scheme : str, optional
        As in seqeval: the scheme of strict mode (``"IOB2"``, ``"IOBES"``, ...);
        strict mode without a scheme detects it from every given sequence.
    mode : {None, "strict"}, optional
        As in seqeval: None (conlleval-compatible) or ``"strict"``.
    zero_division : {"warn", 0, 1}, default "warn"
        The value of a 0/0 score ("warn": 0.0 with an ``UndefinedMetricWarning``).
    return_sentence_scores : bool, default False
        Add ``sentence_scores`` as ``chance_f1`` gives them, every pair of the sentence pooled
        (``None`` scores where fewer than two annotators have entities).
    confidence_level : float, optional
        None (default): no intervals. Otherwise sentence-bootstrap percentile intervals of the team
        scores (``overall_corrected_f1_ci`` ... and ``corrected_f1_ci`` ... per type, ``[low,
        high]``, as ``chance_f1`` gives them): each resample draws the sentences with replacement
        and sums their statistics, every pair of a sentence together (``bootstrap_intervals``).
        With two annotators they equal ``chance_f1``'s for the same seed, bit for bit.
    n_resamples : int, default 1000
        Bootstrap resamples.
    random_state : int, numpy.random.Generator or None
        The bootstrap's seed (``np.random.default_rng``): the same seed gives the same interval,
        the same bits on every machine.

    Returns
    -------
    dict
        ``overall_observed_f1``, ``overall_chance_f1``, ``overall_corrected_f1``; per entity type a
        dict with ``observed_f1``, ``chance_f1``, ``corrected_f1``; ``annotators`` (the names);
        ``per_annotator`` {name: the three scores over that annotator's pairs with all the
        others}; ``pairwise_observed_f1``, ``pairwise_chance_f1``, ``pairwise_corrected_f1`` (m x m
        lists, symmetric, diagonal ``None``; ``None`` also for a pair that never annotated the same
        sentence, and ``per_annotator`` is ``None`` for an annotator who shares no sentence).

    Raises
    ------
    ValueError
        Bad input, naming the sentence and annotator; an ambiguous layout, saying how to mark it.

    Warns
    -----
    UndefinedMetricWarning
        A 0/0 score under ``zero_division="warn"`` (it takes the ``zero_division`` value).

    See Also
    --------
    chance_f1 : Two annotations (a system and its gold standard).
    by_item : One list per annotator to the per-sentence layout.

    Notes
    -----
    The chance-F1 paper [1]_ stops at two annotators. Summing over every sentence, entity type and pair
    :math:`(i, j)` of annotators present in the sentence, every annotator randomised independently
    by the paper's model,

    .. math::

        \mathrm{observed} = \frac{\sum 2\,\mathrm{overlap}_{ij}}{\sum (a_i + a_j)}, \qquad
        \mathrm{chance} = \frac{\sum 2\,E[\mathrm{overlap}_{ij}]}{\sum (a_i + a_j)}, \qquad
        \mathrm{corrected} = \frac{\mathrm{observed} - \mathrm{chance}}{1 - \mathrm{chance}}

    (exact matches and span counts at ``level="entity"``). Each pair's statistics come from the
    two-annotator code, so with m = 2 the scores equal ``chance_f1`` of the second annotator's
    tags against the first's, bit for bit. A pair with no entity on either side adds nothing to
    the sums; a 0/0 score (no pair has an entity) takes ``zero_division``, never NaN.

    References
    ----------
    .. [1] D. Li, C. Rosé, A. Yuan, C. Zhou. Estimating Agreement by Chance for Sequence Annotation. ACL 2024.

    Examples
    --------
    >>> annotators = [
    ...     [["B-PER", "I-PER", "O", "O", "B-LOC", "O"], ["O", "B-ORG", "I-ORG", "O"]],
    ...     [["B-PER", "I-PER", "O", "O", "B-LOC", "O"], ["O", "B-ORG", "O", "O"]],
    ...     [["B-PER", "O", "O", "B-LOC", "I-LOC", "O"], None],       # cy skipped sentence 2
    ... ]
    >>> result = team_chance_f1(by_item(annotators), names=["ann", "bob", "cy"])
    >>> round(result["overall_observed_f1"], 4), round(result["overall_chance_f1"], 4)
    (0.7619, 0.259)
    >>> round(result["overall_corrected_f1"], 4)
    0.6787
    >>> {name: round(scores["corrected_f1"], 4) for name, scores in result["per_annotator"].items()}
    {'ann': 0.7246, 'bob': 0.7246, 'cy': 0.5714}
    """
    zero_division_value(zero_division)
    sentences: list | None = [] if return_sentence_scores or confidence_level is not None else None
    names, pairs = team_statistics(annotations, names=names, level=level, model=model, suffix=suffix,
                                   scheme=scheme, mode=mode, sentences=sentences, function="team_chance_f1")
    result = team_scores(names, pairs, level, zero_division)
    if return_sentence_scores:
        result["sentence_scores"] = sentence_scores(sentences, level)
    return add_intervals(result, sentences, level, zero_division, confidence_level, n_resamples, random_state)


def team_scores(names, pairs: dict, level: str = "token", zero_division="warn") -> dict:
    """``team_chance_f1``'s result (without sentence scores) from ``team_statistics``' output.

    Parameters
    ----------
    names : list of str
        The annotators.
    pairs : dict
        ``{(i, j): ChanceStatistics or None}`` of ``team_statistics``.
    level : str
        The level the statistics were computed at.
    zero_division : "warn", 0 or 1
        As in ``chance_f1``.

    Returns
    -------
    dict
        As ``team_chance_f1``.

    Raises
    ------
    ValueError
        If no pair ever annotated the same sentence.

    Examples
    --------
    >>> names, pairs = team_statistics([[["B-PER", "O"], ["B-PER", "O"], None]])
    >>> team_scores(names, pairs, zero_division=0)["pairwise_observed_f1"]
    [[None, 1.0, None], [1.0, None, None], [None, None, None]]
    """
    m = len(names)
    team = _pooled(pairs.values())
    if team is None:
        raise ValueError("no sentence was annotated by two or more annotators: agreement is undefined")
    result: dict = {}
    for name in sorted(team.per_type):
        result[name] = chance_scores(team.per_type[name], level, zero_division, name)
    overall = pooled_scores(team, level, zero_division, "overall")
    for key in SCORES:
        result[f"overall_{key}"] = overall[key]
    result["annotators"] = list(names)
    per_annotator = {}
    for a, name in enumerate(names):
        pooled = _pooled(totals for pair, totals in pairs.items() if a in pair)
        per_annotator[name] = None if pooled is None else pooled_scores(pooled, level, zero_division,
                                                                        f"annotator {name}")
    result["per_annotator"] = per_annotator
    matrices = {key: [[None] * m for _ in range(m)] for key in SCORES}
    for (i, j), totals in pairs.items():
        if totals is None:
            continue
        scores = pooled_scores(totals, level, zero_division, f"pair {names[i]}, {names[j]}")
        for key in SCORES:
            matrices[key][i][j] = matrices[key][j][i] = scores[key]
    for key in SCORES:
        result[f"pairwise_{key}"] = matrices[key]
    return result


__all__ = ["as_items", "by_annotator", "by_item", "team_chance_f1", "team_scores", "team_set", "team_statistics"]
