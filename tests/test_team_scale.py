"""Teams on large corpora (issue 24, item 3c): each annotator is chunked once for all its pairs
(its ``AnnotationSet``), and every pair is still exactly ``chance_f1``'s pass over the two
annotators; errors still name the sentence and the annotator."""

from __future__ import annotations

import random
import warnings

import pytest

from chance_agreement import chance_f1
from chance_agreement.chance.corrected_f1 import corpus_total
from chance_agreement.chance.team_f1 import by_item, team_chance_f1, team_statistics
from chance_agreement.spans.tags import OddTagWarning


def team(annotators: int, sentences: int, seed: int):
    rng = random.Random(seed)
    tags = ["O", "O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "I-ORG"]
    base = [[rng.choice(tags) for _ in range(rng.randint(1, 25))] for _ in range(sentences)]
    return [[[tag if rng.random() < 0.8 else rng.choice(tags) for tag in sentence] for sentence in base]
            for _ in range(annotators)]


@pytest.mark.parametrize("level", ["token", "entity"])
def test_each_pair_is_the_two_annotator_pass_bit_for_bit(level):
    annotators = team(4, 300, seed=1)  # about 4,000 tokens: the array chunker's size
    assert sum(map(len, annotators[0])) >= 1000
    _, pairs = team_statistics(by_item(annotators), level=level)
    for (i, j), stats in pairs.items():
        alone = corpus_total(annotators[j], annotators[i], levels=(level,))
        assert stats.per_type.keys() == alone.per_type.keys()
        for name in alone.per_type:
            assert stats.per_type[name].tobytes() == alone.per_type[name].tobytes()
            assert stats.exact_partials(name) == alone.exact_partials(name)
        assert (stats.correct_tokens, stats.total_tokens) == (alone.correct_tokens, alone.total_tokens)
    two = team_chance_f1(by_item(annotators[:2]), level=level)
    assert two["overall_corrected_f1"] == chance_f1(annotators[1], annotators[0], level=level)["overall_corrected_f1"]


def test_each_annotator_is_chunked_once(monkeypatch):
    """The team's AnnotationSet chunks each annotator's corpus once (the real chunker, counted)."""
    from chance_agreement.spans import annotation_set

    calls = []
    chunk = annotation_set.chunk_corpus
    monkeypatch.setattr(annotation_set, "chunk_corpus", lambda corpus, role, *a, **k: calls.append(role) or chunk(corpus, role, *a, **k))
    team_chance_f1(by_item(team(5, 300, seed=2)), names=list("abcde"))
    assert calls == list("abcde")


def test_a_bad_tag_in_a_large_team_names_the_sentence_and_the_annotator():
    annotators = team(3, 300, seed=3)
    annotators[2][250][0] = None
    with pytest.raises(ValueError, match=r"team_chance_f1: annotations\[250\]\[2\] \(annotator c\): position 0: the tag is None"):
        team_chance_f1(by_item(annotators), names=["a", "b", "c"])


def test_odd_tags_are_still_warned_with_their_sentence():
    annotators = team(3, 300, seed=4)
    for a, sentence in enumerate([["O", "O", "O"], ["O", "X", "O"], ["O", "O", "O"]]):
        annotators[a][10] = sentence
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        team_chance_f1(by_item(annotators))
    assert any(issubclass(w.category, OddTagWarning) and "'X' (first in annotator_2[10])" in str(w.message) for w in caught)
