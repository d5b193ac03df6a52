"""Token-level contingency tables from BIO tags, the four views of the prevalence paper (4.1).

``gene_renaming_corpus`` builds BIO annotations whose tables are exactly the paper's Tables 1, 3,
4 and 5 (also used by test_coefficients_metric.py)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chance_agreement import contingency

# Table 1 (rows A2 = references, columns A1 = predictions; Nothing = "O")
TABLE_1 = [[71, 13, 23], [8, 69, 15], [7, 8, 18840]]
TABLE_3 = [[71, 13, 23], [8, 69, 15], [7, 8, 951]]  # 951 = markable (gene name) O/O tokens
TABLE_4 = [[71, 13], [8, 69]]
TABLE_5 = [[161, 38], [15, 18840]]
CATEGORIES = ["Former", "New", "O"]


def _tags(categories: list[str], rng: random.Random) -> list[str]:
    """Tags giving these token categories; a repeated type continues (I-) or restarts (B-)."""
    out = []
    for i, category in enumerate(categories):
        if category == "O":
            out.append("O")
        elif i and categories[i - 1] == category and rng.random() < 0.5:
            out.append("I-" + category)
        else:
            out.append("B-" + category)
    return out


def gene_renaming_corpus(seed: int = 2011):
    """(predictions, references, markables) with the token tables of the paper's Tables 1/3/4/5.

    Token pairs (reference category, prediction category) are laid out per Table 1, shuffled and cut
    into sentences of 5-35 tokens; 951 of the O/O tokens and every annotated token are markable.
    """
    rng = random.Random(seed)
    tokens = []
    for i, ref in enumerate(CATEGORIES):
        for j, pred in enumerate(CATEGORIES):
            for k in range(TABLE_1[i][j]):
                markable = not (ref == pred == "O") or k < TABLE_3[2][2]
                tokens.append((ref, pred, markable))
    rng.shuffle(tokens)
    predictions, references, markables = [], [], []
    start = 0
    while start < len(tokens):
        chunk = tokens[start : start + rng.randint(5, 35)]
        start += len(chunk)
        references.append(_tags([t[0] for t in chunk], rng))
        predictions.append(_tags([t[1] for t in chunk], rng))
        markables.append([t[2] for t in chunk])
    return predictions, references, markables


@pytest.fixture(scope="module")
def corpus():
    return gene_renaming_corpus()


def test_corpus_has_multi_token_entities_and_19054_tokens(corpus):
    predictions, references, _ = corpus
    assert sum(map(len, references)) == 19054
    assert any(tag.startswith("I-") for sentence in references for tag in sentence)


def test_case_1_all_tokens_gives_table_1(corpus):
    predictions, references, _ = corpus
    table, categories = contingency(predictions, references)
    assert categories == CATEGORIES
    assert table.dtype.kind == "i"
    assert table.tolist() == TABLE_1


def test_case_2_markables_gives_table_3(corpus):
    predictions, references, markables = corpus
    table, categories = contingency(predictions, references, markables=markables)
    assert categories == CATEGORIES
    assert table.tolist() == TABLE_3
    assert table.sum() == 1165  # the paper's number of gene-name occurrences


def test_case_3_entities_gives_table_4(corpus):
    predictions, references, _ = corpus
    table, categories = contingency(predictions, references, view="entities")
    assert categories == ["Former", "New"]
    assert table.tolist() == TABLE_4


def test_case_4_grouped_gives_table_5(corpus):
    predictions, references, _ = corpus
    table, categories = contingency(predictions, references, view="grouped")
    assert categories == ["ENTITY", "O"]
    assert table.tolist() == TABLE_5


def test_strict_iob2_gives_the_same_table(corpus):
    predictions, references, _ = corpus
    table, _ = contingency(predictions, references, mode="strict", scheme="IOB2")
    assert table.tolist() == TABLE_1
    detected, _ = contingency(predictions, references, mode="strict")  # scheme from references
    assert detected.tolist() == TABLE_1


def test_token_category_is_the_covering_span_type():
    # lenient (conlleval) chunking: I-LOC after O starts an entity, as in seqeval
    references = [["B-PER", "I-PER", "O", "I-LOC", "O"]]
    predictions = [["B-PER", "O", "O", "B-PER", "B-LOC"]]
    table, categories = contingency(predictions, references)
    assert categories == ["LOC", "PER", "O"]
    # rows references: PER,PER,O,LOC,O ; columns predictions: PER,O,O,PER,LOC
    assert table.tolist() == [[0, 1, 0], [0, 1, 1], [1, 0, 1]]


def test_strict_mode_drops_invalid_entities():
    references = [["I-PER", "O"]]  # not an IOB2 entity in strict mode
    predictions = [["B-PER", "O"]]
    lenient, _ = contingency(predictions, references)
    strict, categories = contingency(predictions, references, mode="strict", scheme="IOB2")
    assert lenient.tolist() == [[1, 0], [0, 1]]
    assert categories == ["PER", "O"]
    assert strict.tolist() == [[0, 0], [1, 1]]


def test_suffix_tags():
    table, categories = contingency([["PER-B", "O"]], [["PER-B", "PER-I"]], suffix=True)
    assert categories == ["PER", "O"]
    assert table.tolist() == [[1, 1], [0, 0]]


def test_markables_never_drop_annotated_tokens():
    references = [["B-X", "O", "O", "O"]]
    predictions = [["O", "B-X", "O", "O"]]
    mask = [[False, False, True, False]]
    table, _ = contingency(predictions, references, markables=mask)
    # X/O and O/X count although not markable; only one of the two O/O tokens is markable
    assert table.tolist() == [[0, 1], [1, 1]]
    full, _ = contingency(predictions, references)
    assert full.tolist() == [[0, 1], [1, 2]]
    as_ints, _ = contingency(predictions, references, markables=[np.array([0, 0, 1, 0])])
    assert as_ints.tolist() == table.tolist()


def test_grouped_merges_every_type():
    table, categories = contingency([["B-A", "B-B", "O"]], [["B-B", "B-B", "B-C"]], view="grouped")
    assert categories == ["ENTITY", "O"]
    assert table.tolist() == [[2, 1], [0, 0]]


def test_entities_view_without_entities_is_empty():
    table, categories = contingency([["O", "O"]], [["O", "O"]], view="entities")
    assert categories == []
    assert table.shape == (0, 0)


def test_bad_view():
    with pytest.raises(ValueError, match="view must be one of"):
        contingency([["O"]], [["O"]], view="tokens")


def test_mask_shape_mismatch_names_the_sentence():
    with pytest.raises(ValueError, match=r"sentence 1: the markables mask has shape \(2,\) but the sentence has 3 tokens"):
        contingency([["O"], ["O", "O", "O"]], [["O"], ["O", "O", "O"]], markables=[[True], [True, False]])


def test_mask_count_mismatch():
    with pytest.raises(ValueError, match="one boolean mask per sentence: got 1 masks for 2 sentences"):
        contingency([["O"], ["O"]], [["O"], ["O"]], markables=[[True]])


def test_mask_must_be_boolean():
    with pytest.raises(ValueError, match="sentence 0: the markables mask must hold booleans"):
        contingency([["O", "O"]], [["O", "O"]], markables=[[2, 0]])


def test_length_mismatch_names_the_sentence():
    with pytest.raises(ValueError, match="sentence 0: the prediction has 1 tags but the reference has 2"):
        contingency([["O"]], [["O", "O"]])


def test_invalid_tag_names_the_sentence():
    with pytest.raises(ValueError, match=r"references\[1\], position 0: the tag is None"):
        contingency([["O"], ["O"]], [["O"], [None]])


def test_entity_type_named_o_is_rejected():
    with pytest.raises(ValueError, match="an entity type is named 'O'"):
        contingency([["B-O"]], [["O"]])


def test_bad_mode():
    with pytest.raises(ValueError, match="mode should be None"):
        contingency([["O"]], [["O"]], mode="lenient")


_TAG = st.sampled_from(["O", "O", "B-A", "I-A", "B-B", "I-B", "I-C"])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.tuples(_TAG, _TAG, st.booleans()), min_size=1, max_size=12), min_size=1, max_size=5))
def test_views_are_consistent(sentences):
    references = [[t[0] for t in s] for s in sentences]
    predictions = [[t[1] for t in s] for s in sentences]
    masks = [[t[2] for t in s] for s in sentences]
    full, categories = contingency(predictions, references)
    assert full.sum() == sum(map(len, references))
    assert categories[-1] == "O" and categories[:-1] == sorted(categories[:-1])
    # markables only shrink the O/O cell
    marked, _ = contingency(predictions, references, markables=masks)
    difference = full - marked
    assert difference[:-1, :].sum() == 0 and difference[:, :-1].sum() == 0
    assert 0 <= difference[-1, -1] <= sum(not m for mask in masks for m in mask)
    every, _ = contingency(predictions, references, markables=[[True] * len(m) for m in masks])
    assert every.tolist() == full.tolist()
    # entities: the block of types; grouped: types summed into one
    entities, types = contingency(predictions, references, view="entities")
    assert types == categories[:-1]
    assert entities.tolist() == full[:-1, :-1].tolist()
    grouped, _ = contingency(predictions, references, view="grouped")
    assert grouped.tolist() == [
        [int(full[:-1, :-1].sum()), int(full[:-1, -1].sum())],
        [int(full[-1, :-1].sum()), int(full[-1, -1])],
    ]
