"""Per-sentence statistics come from the array pass (issue 33, item 4): every field of every
sentence equals, bit for bit, the plain per-sentence loop of ``sentence_pass_oracle``, and the
corpus total (with or without the sentences) is the exact sum of the same terms."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from sentence_pass_oracle import assert_matches_oracle, random_corpus

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from bench_long_documents import long_document_corpus  # noqa: E402

sys.path.pop(0)

MODELS = ("non_overlapping", "overlapping")
LEVEL_SETS = (("token",), ("entity",), ("token", "entity"))
MORE_TAGS = ("O", "O", "O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "I-ORG", "E-ORG", "S-MISC", "B-MISC", "I-MISC",
             "B-DATE", "I-DATE")


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("model", MODELS)
def test_every_sentence_equals_the_loop_on_random_corpora(seed, model):
    """Five entity types, empty sentences and sentences without entities, sparse to dense, short
    sentences and documents longer than the non-overlapping model's long unit (128 tokens)."""
    rng = np.random.default_rng(seed)
    tags = MORE_TAGS[4:] if seed % 3 == 2 else MORE_TAGS  # every token in an entity: dense signatures
    predictions, references = random_corpus(rng, 80, (12, 60, 400)[seed % 3], tags, shortest=0)
    assert sum(len(sentence) > 256 for sentence in references) > 10 or seed % 3 != 2
    predictions += [[], ["O"] * 5, ["O"] * 300]
    references += [[], ["O"] * 5, ["O"] * 300]
    for levels in LEVEL_SETS:
        result = assert_matches_oracle(predictions, references, model=model, levels=levels)
        assert result is not None
        total, sentences = result
        assert len(sentences) == 83 and sentences[-3].per_type == {} and sentences[-1].total_tokens == 300
        assert len(total.per_type) == 5


@pytest.mark.parametrize("model", MODELS)
def test_every_sentence_equals_the_loop_on_long_documents(model):
    """Generated documents of 300 to 3,000 tokens (the long units' batched bands)."""
    predictions, references = long_document_corpus(6, seed=4)
    assert min(map(len, references)) >= 256
    for levels in LEVEL_SETS:
        assert assert_matches_oracle(predictions, references, model=model, levels=levels) is not None


def test_no_entities_at_all():
    references = [["O"] * n for n in (0, 1, 7, 0, 3)]
    total, sentences = assert_matches_oracle([list(s) for s in references], references)
    assert total.per_type == {} and [s.per_type for s in sentences] == [{}] * 5
    assert [s.total_tokens for s in sentences] == [0, 1, 7, 0, 3]


@pytest.mark.parametrize("model", MODELS)
def test_every_sentence_equals_the_loop_on_conll_2003(conll_systems, model):
    """The three CoNLL-2003 test systems (3,453 sentences each), both levels; the first system
    also each level alone."""
    references, systems = conll_systems
    for index, predictions in enumerate(systems.values()):
        for levels in LEVEL_SETS if index == 0 else (("token", "entity"),):
            total, sentences = assert_matches_oracle(predictions, references, model=model, levels=levels)
            assert len(sentences) == len(references) == 3453 and len(total.per_type) == 4
