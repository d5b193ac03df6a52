"""The statistics of ``chance_f1`` by a plain loop over sentences: the test oracle of the array pass
(``corrected_f1._group_rows``, summed per type for the total and split by sentence).

Per sentence and entity type, from the definitions (Proposition 1): the spans matched exactly, the
spans of each side, the tokens covered by both sides (sets of token positions), the tokens each
side annotated, and the two expectations asked of the random model itself for the sorted length
tuples of the two sides (none when a side has no span of the type, or its level is not asked
for). Nothing is vectorised, batched, prefetched or taken in closed form here. The corpus total
is per type the integer sum of the counts and the exact (``Fraction``) sum of the expectations.
"""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pytest

from chance_agreement.chance.random_models import get_model
from chance_agreement.chance.statistics import (
    EXPECTATIONS,
    EXPECTED_MATCHES,
    EXPECTED_OVERLAP,
    FIELDS,
    LEVELS,
    ChanceStatistics,
)
from chance_agreement.spans.annotation_set import as_pair


TAGS = ("O", "O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "I-ORG", "E-ORG", "S-MISC", "B-MISC", "I-MISC")


def random_corpus(rng, sentences: int, longest: int, tags=TAGS, shortest: int = 1):
    """Two annotations (predictions, references) of ``sentences`` sentences of ``shortest`` to
    ``longest`` tokens, each tag drawn from ``tags`` (integers only: portable)."""
    lengths = rng.integers(shortest, longest + 1, size=sentences)
    draw = [[tags[i] for i in rng.integers(0, len(tags), size=n)] for n in lengths]
    return draw, [[tags[i] for i in rng.integers(0, len(tags), size=n)] for n in lengths]


def sentence_rows(n: int, pred, true, model, levels) -> dict[str, list]:
    """``{type: [tp, predicted, actual, overlap, E[overlap], a1 + a2, E[matches]]}`` of one sentence of
    ``n`` tokens, ``pred``/``true`` its spans ``(type, start, end)``; types in the order of their first
    span, predictions first."""
    sides: dict[str, tuple[list, list]] = {}
    for side, spans in enumerate((pred, true)):
        for name, start, end in spans:
            sides.setdefault(name, ([], []))[side].append((start, end))
    rows = {}
    for name, (first, second) in sides.items():
        lengths_first = tuple(sorted(end - start for start, end in first))
        lengths_second = tuple(sorted(end - start for start, end in second))
        covered_first = {token for start, end in first for token in range(start, end)}
        covered_second = {token for start, end in second for token in range(start, end)}
        expected_overlap = expected_matches = 0.0
        if first and second and "token" in levels:
            expected_overlap = model.expected_overlap(n, lengths_first, lengths_second)
        if first and second and "entity" in levels:
            expected_matches = model.expected_matches(n, lengths_first, lengths_second)
        rows[name] = [len(set(first) & set(second)), len(first), len(second), len(covered_first & covered_second),
                      expected_overlap, sum(lengths_first) + sum(lengths_second), expected_matches]
    return rows


def oracle_sentences(predictions, references, *, model="non_overlapping", levels=LEVELS) -> list[ChanceStatistics]:
    """Every sentence's statistics, one sentence at a time (the spans from the library's chunker;
    a ValueError of the model names its sentence, as the library's does)."""
    model = get_model(model)
    pair = as_pair(predictions, references, function="sentence_pass_oracle")
    out = []
    for index, (prediction, reference, pred, true) in enumerate(zip(predictions, references, pair.sentence_spans(1),
                                                                     pair.sentence_spans(0), strict=True)):
        try:
            rows = sentence_rows(len(reference), pred, true, model, levels)
        except ValueError as error:
            raise ValueError(f"sentence {index}: {error}") from None
        correct = sum(p == r for p, r in zip(prediction, reference, strict=True))
        out.append(ChanceStatistics({name: np.array(row, dtype=float) for name, row in rows.items()}, correct,
                                    len(reference), model.name, tuple(level for level in LEVELS if level in levels)))
    return out


def oracle_totals(sentences) -> dict[str, list]:
    """Per type (in the order of first appearance over the sentences) the sum of the sentences'
    vectors: the counts as ints, the two expectations as exact ``Fraction`` sums."""
    totals: dict[str, list] = {}
    for stats in sentences:
        for name, vector in stats.per_type.items():
            total = totals.setdefault(name, [0 if i not in EXPECTATIONS else Fraction(0) for i in range(len(FIELDS))])
            for i, value in enumerate(vector.tolist()):
                total[i] += Fraction(value) if i in EXPECTATIONS else int(value)
    return totals


def assert_matches_oracle(predictions, references, *, model="non_overlapping", levels=LEVELS):
    """The library's per-sentence statistics (``corpus_statistics``) equal the oracle's, every field
    of every sentence bit for bit with the types in the same order; its two corpus totals (with and
    without the sentences) are equal to the last bit and are the exact sums of the oracle's terms
    (counts, each expectation correctly rounded, the exact-sum partials adding up to it exactly).
    The model's caches are cleared before each pass, so neither reads what the other computed.
    Returns the library's ``(total, sentences)``, or None where both refuse a sentence with the same
    ValueError."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # odd tags (an I- after O): both passes chunk them as seqeval
        return _compared(predictions, references, model, levels)


def _compared(predictions, references, model, levels):
    from chance_agreement.chance.corrected_f1 import corpus_statistics, corpus_total
    from chance_agreement.chance.random_models import clear_caches

    clear_caches()
    try:
        expected = oracle_sentences(predictions, references, model=model, levels=levels)
    except ValueError as error:  # a sentence the exact model refuses: the library names the same one
        for function in (corpus_statistics, corpus_total):
            clear_caches()
            with pytest.raises(ValueError) as caught:
                function(predictions, references, model=model, levels=levels)
            assert str(caught.value) == str(error)
        return None
    clear_caches()
    total, sentences = corpus_statistics(predictions, references, model=model, levels=levels)
    clear_caches()
    alone = corpus_total(predictions, references, model=model, levels=levels)
    assert len(sentences) == len(expected)
    for index, (mine, theirs) in enumerate(zip(sentences, expected, strict=True)):
        assert list(mine.per_type) == list(theirs.per_type), index
        assert {name: [float.hex(v) for v in vector.tolist()] for name, vector in mine.per_type.items()} == {
            name: [float.hex(v) for v in vector.tolist()] for name, vector in theirs.per_type.items()}, index
        assert all(vector.dtype == np.float64 and vector.shape == (len(FIELDS),) for vector in mine.per_type.values())
        assert (mine.correct_tokens, mine.total_tokens, mine.model, mine.levels, mine.partials) == (
            theirs.correct_tokens, theirs.total_tokens, theirs.model, theirs.levels, {}), index
    assert total.to_dict() == alone.to_dict()
    assert [float.hex(v) for vector in total.per_type.values() for v in vector.tolist()] == [
        float.hex(v) for vector in alone.per_type.values() for v in vector.tolist()]
    sums = oracle_totals(expected)
    assert list(total.per_type) == list(sums)
    for name, exact in sums.items():
        vector = total.per_type[name].tolist()
        assert [int(v) for i, v in enumerate(vector) if i not in EXPECTATIONS] == [
            v for i, v in enumerate(exact) if i not in EXPECTATIONS], name
        for field, partials in zip((EXPECTED_OVERLAP, EXPECTED_MATCHES), total.exact_partials(name), strict=True):
            assert vector[field] == float(exact[field]), (name, FIELDS[field])  # correctly rounded
            assert sum(map(Fraction, partials)) == exact[field], (name, FIELDS[field])
    assert (total.correct_tokens, total.total_tokens) == (sum(s.correct_tokens for s in expected),
                                                         sum(s.total_tokens for s in expected))
    return total, sentences
