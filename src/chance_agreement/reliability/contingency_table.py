"""Token-level contingency table of two annotations (prevalence paper, section 4.1).

Every token gets the category of the entity span covering it (spans found exactly as seqeval
finds them, ``tags.corpus_spans``), or ``"O"`` (the paper's Nothing) when no span covers it.
Rows are the references, columns the predictions; categories are the sorted entity types of
both annotations, then ``"O"``. The four ways of building the table of section 4.1.1:

- ``view="all"`` (case 1, Table 1): every token.
- ``markables`` (case 2, Table 3): per-sentence boolean masks of the tokens that are markable
  (e.g. the gene-name occurrences of a dictionary). A token that both annotators leave as O
  counts only when it is markable; a token that either annotator labels always counts (in the
  paper only the Nothing/Nothing cell shrinks, 18,840 -> 951, the other cells are unchanged).
- ``view="entities"`` (case 3, Table 4): only the tokens that both annotators labelled with some
  entity type; categories are the entity types without O.
- ``view="grouped"`` (case 4, Table 5): every entity type merged into one category
  (``GROUPED = "ENTITY"``) versus O.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..spans import tags

NOTHING = "O"
GROUPED = "ENTITY"
VIEWS = ("all", "entities", "grouped")


def token_categories(spans, length: int) -> list[str]:
    """Category of each of ``length`` tokens: the type of the span covering it, or ``"O"``."""
    labels = [NOTHING] * length
    for entity_type, start, end in spans:
        for position in range(start, end):
            labels[position] = entity_type
    return labels


def _check_markables(markables, references) -> list[np.ndarray]:
    if isinstance(markables, str) or len(markables) != len(references):
        count = "a string" if isinstance(markables, str) else f"{len(markables)} masks"
        raise ValueError(
            f"markables must be one boolean mask per sentence: got {count} for "
            f"{len(references)} sentences"
        )
    masks = []
    for index, (mask, ref) in enumerate(zip(markables, references)):
        if isinstance(mask, str):
            raise ValueError(f"sentence {index}: the markables mask is a string, not booleans")
        array = np.asarray(mask)
        if array.shape != (len(ref),):
            raise ValueError(
                f"sentence {index}: the markables mask has shape {array.shape} but the sentence "
                f"has {len(ref)} tokens"
            )
        if array.size and not (
            array.dtype == bool or np.all(np.isin(array, (0, 1)))
        ):
            raise ValueError(f"sentence {index}: the markables mask must hold booleans")
        masks.append(array.astype(bool))
    return masks


def contingency(
    predictions: Sequence[Sequence[str]],
    references: Sequence[Sequence[str]],
    scheme=None,
    mode=None,
    suffix: bool = False,
    view: str = "all",
    markables=None,
) -> tuple[np.ndarray, list[str]]:
    """Token-level contingency table ``(table, categories)``; rows references, columns predictions.

    ``scheme``/``mode``/``suffix`` as in seqeval (strict mode with no scheme detects it from the
    references). ``view`` is "all", "entities" or "grouped"; ``markables`` restricts the tokens
    both annotators leave as O (see the module docstring). ``table`` is an int numpy array.
    """
    if view not in VIEWS:
        raise ValueError(f"view must be one of {VIEWS}, got {view!r}")
    pred_spans, ref_spans = tags.paired_spans(predictions, references, scheme, mode, suffix)
    masks = _check_markables(markables, references) if markables is not None else None

    pairs: list[tuple[str, str]] = []
    for index, (ref, p_spans, r_spans) in enumerate(zip(references, pred_spans, ref_spans)):
        ref_labels = token_categories(r_spans, len(ref))
        pred_labels = token_categories(p_spans, len(ref))
        for position, (r, p) in enumerate(zip(ref_labels, pred_labels)):
            if r == NOTHING and p == NOTHING:
                if view == "entities" or (masks is not None and not masks[index][position]):
                    continue
            elif view == "entities" and NOTHING in (r, p):
                continue
            pairs.append((r, p))

    types = sorted(
        {t for spans in (pred_spans, ref_spans) for sent in spans for t, _, _ in sent}
    )
    if NOTHING in types:
        raise ValueError(f"an entity type is named {NOTHING!r}, which is the Nothing category")
    if view == "grouped":
        categories = [GROUPED, NOTHING]
        pairs = [
            (GROUPED if r != NOTHING else r, GROUPED if p != NOTHING else p) for r, p in pairs
        ]
    elif view == "entities":
        categories = types
    else:
        categories = types + [NOTHING]
    index_of = {c: i for i, c in enumerate(categories)}
    table = np.zeros((len(categories), len(categories)), dtype=np.int64)
    for r, p in pairs:
        table[index_of[r], index_of[p]] += 1
    return table, categories
