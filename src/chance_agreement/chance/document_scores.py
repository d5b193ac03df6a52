"""Chance-corrected F1 per document: the agreement of two annotators or a team in each document.

Teams and INCEpTION users read agreement document by document. Each sentence's statistics (every
pair of annotators who both hold it pooled, ``team_f1.team_statistics``) are summed exactly over
the sentences of a document, and the document's observed, chance and corrected F1 are those of
the sum (the corpus scores' micro average, restricted to the document). With two annotators a
document's scores are ``chance_f1``'s on its sentences, bit for bit.

Intervals (``confidence_level``): a bootstrap over the document's own sentences
(``bootstrap_intervals.bootstrap_scores``, seeded by ``random_state``, the same bits on every
machine); a document of one sentence has none (``None``: nothing to resample).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..spans.annotation_set import AnnotationSet
from .bootstrap_intervals import bootstrap_scores, check_confidence_level, check_random_state, check_resamples
from .chance_corrected import defined_scores
from .corrected_f1 import pooled_scores
from .random_models import RandomModel
from .statistics import ChanceStatistics
from .team_f1 import team_statistics

SCORES = ("observed_f1", "chance_f1", "corrected_f1")


def document_chance_f1(annotations: Sequence[Sequence[Sequence[str] | None]] | AnnotationSet,
                       documents: Sequence[str], *,
                       names: Sequence[str] | None = None, level: str = "token",
                       model: str | RandomModel = "non_overlapping", suffix: bool = False,
                       scheme: str | type | None = None, mode: str | None = None,
                       confidence_level: float | None = None, n_resamples: int = 1000,
                       random_state: int | np.random.Generator | None = None) -> list[dict[str, Any]]:
    """Observed, chance and chance-corrected F1 of each document, for two or more annotators.

    Parameters
    ----------
    annotations : list of list, or AnnotationSet
        ``annotations[s][a]``: per sentence, annotator ``a``'s tags or ``None`` (not annotated),
        as ``team_chance_f1`` takes them, or their ``AnnotationSet`` (not chunked again).
    documents : list of str
        Per sentence, the name of its document (sentences of one document need not be adjacent).
    names, level, model, suffix, scheme, mode
        As in ``team_chance_f1``.
    confidence_level : float, optional
        Adds ``corrected_f1_ci`` per document: a percentile interval from a bootstrap over the
        document's sentences (``None`` for a document of one sentence, or where some resample's
        chance F1 is 1).
    n_resamples : int, default 1000
        Bootstrap resamples of each document's sentences.
    random_state : int, numpy.random.Generator or None
        The bootstrap's seed; each document's resamples start from it.

    Returns
    -------
    list of dict
        One dict per document, in the order documents first appear: ``document``, ``sentences``
        (how many), ``observed_f1``, ``chance_f1``, ``corrected_f1`` (``None`` where undefined: no
        entity in the document, or no room beyond chance) and, when asked, ``corrected_f1_ci``.

    Raises
    ------
    ValueError
        Bad annotations (as ``team_chance_f1``), or ``documents`` not one name per sentence.

    Examples
    --------
    >>> from chance_agreement.chance.team_f1 import as_items
    >>> annotations = as_items([[["B-PER", "O", "O"], ["B-PER", "O", "O"]], [["O", "B-LOC", "O"], ["B-LOC", "O", "O"]],
    ...                         [["B-ORG", "I-ORG", "I-ORG"], ["B-ORG", "I-ORG", "I-ORG"]]])
    >>> rows = document_chance_f1(annotations, ["a.ann", "a.ann", "b.ann"])
    >>> [(row["document"], row["sentences"], row["corrected_f1"] and round(row["corrected_f1"], 4)) for row in rows]
    [('a.ann', 2, 0.25), ('b.ann', 1, None)]
    """
    sentences: list = []
    names, _ = team_statistics(annotations, names=names, level=level, model=model, suffix=suffix, scheme=scheme,
                               mode=mode, sentences=sentences, function="document_chance_f1")
    if isinstance(documents, str) or len(documents) != len(sentences):
        raise ValueError(f"document_chance_f1: documents must name the document of each of the {len(sentences)} "
                         f"sentences, got {len(documents)} names")
    if confidence_level is not None:
        check_confidence_level(confidence_level)
    check_resamples(n_resamples)
    check_random_state(random_state)
    groups: dict[str, list[int]] = {}
    for index, document in enumerate(documents):
        groups.setdefault(str(document), []).append(index)
    rows = []
    for document, indices in groups.items():
        total = sum((sentences[i] for i in indices), ChanceStatistics())
        row: dict[str, Any] = {"document": document, "sentences": len(indices)}
        row.update(defined_scores(lambda fill, total=total, name=document: pooled_scores(
            total, level, fill, f"document {name}")) if total.per_type else dict.fromkeys(SCORES))
        if confidence_level is not None:
            row["corrected_f1_ci"] = None if len(indices) < 2 or row["corrected_f1"] is None else bootstrap_scores(
                [sentences[i] for i in indices], level=level, confidence_level=confidence_level,
                n_resamples=n_resamples, random_state=random_state, zero_division=0)["overall"]["corrected_f1"]
        rows.append(row)
    return rows


__all__ = ["document_chance_f1"]
