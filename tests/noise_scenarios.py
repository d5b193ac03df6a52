"""The scenarios of Beigman Klebanov & Beigman (2009) as items x annotators category rows.

Each row is one instance (token), one category per annotator ("O" or an entity type). The same
rows feed the core functions directly and, turned into tag sequences, the evaluate module.
"""

from __future__ import annotations

from itertools import combinations


def two_annotators_1000_100():
    """Section 3.1: 1000 instances, 900 agreed, categories equiprobable everywhere: p 0.5, kappa 0.8."""
    return (
        [("PER", "PER")] * 450
        + [("O", "O")] * 450
        + [("PER", "O")] * 50
        + [("O", "PER")] * 50
    )


def two_annotators_992_121():
    """Section 3.1 (Poesio & Vieira): n 992, d 121, p 0.47.

    With 121 disagreed instances p = (sum_c a_c b_c)/121^2 cannot be 0.47 exactly; three categories
    give 6881/14641 = 0.46998, the nearest value (annotator 1: O 1, PER 53, LOC 67; annotator 2:
    O 5, PER 64, LOC 52).
    """
    disagreed = (
        [("O", "PER")] * 1
        + [("PER", "O")] * 1
        + [("PER", "LOC")] * 52
        + [("LOC", "O")] * 4
        + [("LOC", "PER")] * 63
    )
    return [("O", "O")] * 871 + disagreed


def _split_rows(majority: str, minority_annotators, k: int):
    other = "O" if majority == "PER" else "PER"
    return tuple(other if j in minority_annotators else majority for j in range(k))


def five_annotators(split: str):
    """Section 3.2: 1000 instances, 5 annotators, 660 agreed (330 PER, 330 O), 340 disagreed.

    ``split="4-1"``: every disagreement 4 to 1, the odd annotator rotating (kappa 0.728);
    ``"3-2"``: every disagreement 3 to 2, the minority pair rotating over the 10 pairs (0.592);
    ``"mixed"``: twice as many 3-2 as 4-1; 340 is not divisible by 3, so 227 3-2 and 113 4-1, with
    majorities chosen to keep both categories at exactly half the ratings (kappa 0.6372).
    Balanced rotations give every annotator half PER, half O on the disagreed items: p = 1/16.
    """
    rows = [("PER",) * 5] * 330 + [("O",) * 5] * 330
    pairs = list(combinations(range(5), 2))
    if split == "4-1":
        rows += [_split_rows("PER" if i < 170 else "O", {i % 5}, 5) for i in range(340)]
    elif split == "3-2":
        rows += [_split_rows("PER" if i < 170 else "O", set(pairs[i % 10]), 5) for i in range(340)]
    elif split == "mixed":
        rows += [_split_rows("PER" if i < 56 else "O", {i % 5}, 5) for i in range(113)]
        rows += [_split_rows("PER" if i < 115 else "O", set(pairs[i % 10]), 5) for i in range(227)]
    else:
        raise ValueError(split)
    return rows


def three_annotators_1000_150():
    """Section 5.3: 1000 instances, 3 annotators, 850 agreed, 150 split 2-1 (rotating): p 0.25."""
    rows = [("PER",) * 3] * 425 + [("O",) * 3] * 425
    rows += [_split_rows("PER" if i < 75 else "O", {i % 3}, 3) for i in range(150)]
    return rows


def tags_of(category: str) -> str:
    """One token that is its own entity (or O): "PER" -> "B-PER"."""
    return "O" if category == "O" else f"B-{category}"


def as_annotations(rows):
    """One item (a sentence of len(rows) tokens) with one tag sequence per annotator."""
    return [[[tags_of(row[j]) for row in rows] for j in range(len(rows[0]))]]
