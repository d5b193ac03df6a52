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


@settings(max_examples=60, deadline=None, derandomize=True)
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


# -- the coded fast path against the span path (issue 11) ------------------------------------------


def _span_path(predictions, references, view="all", markables=None, suffix=False):
    """The former implementation: spans, a category per token, one table increment per token."""
    from chance_agreement.reliability.contingency_table import token_categories
    from chance_agreement.spans.tags import paired_spans

    pred_spans, ref_spans = paired_spans(predictions, references, suffix=suffix)
    pairs = []
    for index, (ref, p_spans, r_spans) in enumerate(zip(references, pred_spans, ref_spans)):
        for position, (r, p) in enumerate(zip(token_categories(r_spans, len(ref)), token_categories(p_spans, len(ref)))):
            if r == "O" and p == "O" and (view == "entities" or (markables is not None and not markables[index][position])):
                continue
            if view == "entities" and "O" in (r, p):
                continue
            pairs.append((r, p))
    types = sorted({t for spans in (pred_spans, ref_spans) for sent in spans for t, _, _ in sent})
    if view == "grouped":
        categories = ["ENTITY", "O"]
        pairs = [("ENTITY" if r != "O" else r, "ENTITY" if p != "O" else p) for r, p in pairs]
    else:
        categories = types if view == "entities" else types + ["O"]
    table = np.zeros((len(categories), len(categories)), dtype=np.int64)
    for r, p in pairs:
        table[categories.index(r), categories.index(p)] += 1
    return table.tolist(), categories


_ANY_TAG = st.sampled_from(["O", "O", "O", "B-A", "I-A", "E-A", "S-B", "B-B", "I-B", "I-C", "B-PER", "I-PER", "B", "I"])


@settings(max_examples=80, deadline=None, derandomize=True)
@given(st.lists(st.lists(st.tuples(_ANY_TAG, _ANY_TAG, st.booleans()), min_size=0, max_size=15), min_size=1, max_size=8),
       st.sampled_from(["all", "entities", "grouped"]), st.booleans())
def test_coded_path_matches_the_span_path(sentences, view, with_masks):
    if not any(sentences):
        sentences = [[("O", "O", True)]]
    references = [[t[0] for t in s] for s in sentences]
    predictions = [[t[1] for t in s] for s in sentences]
    masks = [[t[2] for t in s] for s in sentences] if with_masks and view != "entities" else None
    table, categories = contingency(predictions, references, view=view, markables=masks)
    assert (table.tolist(), categories) == _span_path(predictions, references, view, masks)
    assert table.dtype == np.int64


def test_coded_path_across_chunks_and_suffix_tags(monkeypatch):
    import importlib

    module = importlib.import_module("chance_agreement.reliability.contingency_table")

    rng = random.Random(3)
    tags = ["O", "B-A", "I-A", "B-B", "I-B", "B-C"]
    references = [[rng.choice(tags) for _ in range(rng.randint(1, 30))] for _ in range(200)]
    predictions = [[rng.choice(tags) for _ in ref] for ref in references]
    expected = _span_path(predictions, references)
    monkeypatch.setattr(module, "CHUNK_TOKENS", 64)  # many chunks; types first seen in later chunks
    table, categories = contingency(predictions, references)
    assert (table.tolist(), categories) == expected
    suffixed = [[t if t == "O" else t[2:] + "-" + t[0] for t in s] for s in references]
    table, categories = contingency(suffixed, suffixed, suffix=True)
    assert (table.tolist(), categories) == _span_path(suffixed, suffixed, suffix=True)


def test_coded_path_errors_still_name_the_sentence():
    with pytest.raises(ValueError, match=r"predictions\[0\], position 1: the tag is None"):
        contingency([["O", None]], [["O", "O"]])
    with pytest.raises(ValueError, match="an entity type is named 'O'"):
        contingency([["O"], ["I-O"]], [["O"], ["O"]])
    with pytest.raises(ValueError, match="sentence 1: the markables mask has shape"):
        contingency([["O"], ["O"]], [["O"], ["O"]], markables=[[True], [True, False]])


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.lists(st.lists(st.tuples(_TAG, _TAG, st.booleans()), min_size=1, max_size=12), min_size=1, max_size=5),
       st.sampled_from(["all", "entities", "grouped"]))
def test_strict_mode_on_valid_iob2_matches_the_default_chunker(sentences, view):
    """On IOB2-valid tags (I- only after B-/I- of its type) both chunkers find the same spans."""
    def valid(tags):
        out = []
        for tag in tags:
            previous = out[-1] if out else "O"
            out.append(tag if not tag.startswith("I-") or previous[2:] == tag[2:] else "B-" + tag[2:])
        return out

    references = [valid([t[0] for t in s]) for s in sentences]
    predictions = [valid([t[1] for t in s]) for s in sentences]
    masks = [[t[2] for t in s] for s in sentences] if view == "all" else None
    strict = contingency(predictions, references, mode="strict", scheme="IOB2", view=view, markables=masks)
    default = contingency(predictions, references, view=view, markables=masks)
    assert (strict[0].tolist(), strict[1]) == (default[0].tolist(), default[1])


ODD_REFERENCES = [["B-PER", "O", "X", "B-LOC", "I-LOC"], ["PER", "I-PER", "O"], ["B-ORG", "O", "O"]]
ODD_PREDICTIONS = [["B-PER", "I-PER", "O", "O", "B-LOC"], ["B-PER", "I-PER", "O"], ["b-org", "O", "O"]]


def _categories_from_spans(sequences):
    from chance_agreement.reliability.contingency_table import token_categories
    from chance_agreement.spans.tags import spans_from_tags

    return [label for sequence in sequences for label in token_categories(spans_from_tags(sequence), len(sequence))]


def test_odd_tags_take_the_span_path_in_the_fast_token_coding():
    """Around tags seqeval takes with a warning (X, a bare PER, b-org), a token's category is no
    longer its tag's own type: the fast per-tag coding must fall back to seqeval's spans."""
    from collections import Counter

    from chance_agreement import multi_annotator_agreement
    from chance_agreement.reliability.multi_annotator import token_ratings

    with pytest.warns(UserWarning):
        table, categories = contingency(ODD_PREDICTIONS, ODD_REFERENCES)
    pairs = Counter(zip(_categories_from_spans(ODD_REFERENCES), _categories_from_spans(ODD_PREDICTIONS)))
    expected = [[pairs[(row, column)] for column in categories] for row in categories]
    assert table.tolist() == expected
    assert "_" in categories  # the X-joined chunk of seqeval's default mode
    with pytest.warns(UserWarning):
        ratings, _ = token_ratings([list(item) for item in zip(ODD_REFERENCES, ODD_PREDICTIONS)])
    assert [row[0] for row in ratings] == _categories_from_spans(ODD_REFERENCES)
    assert [row[1] for row in ratings] == _categories_from_spans(ODD_PREDICTIONS)
    with pytest.warns(UserWarning):
        assert multi_annotator_agreement([list(item) for item in zip(ODD_REFERENCES, ODD_PREDICTIONS)])["n_tokens"] == 11
