"""The fast chance_f1 path gives today's numbers to the last bit on every CoNLL-2003 system.

``tests/data/golden/chance_f1_conll03.json`` holds the outputs of the code before the speed work
of issue 11's last row (commit 1b847ef), as exact ``float.hex`` strings: for each of the three
systems, both levels and both models, the corpus result, a digest of the per-sentence scores and
the corpus statistics with their exact-sum partials (``tests/golden_chance_f1.py`` wrote it).
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

from golden_chance_f1 import GOLDEN, LEVELS, MODELS, exact, outputs
from sentence_pass_oracle import TAGS, assert_matches_oracle, random_corpus


@pytest.fixture(scope="module")
def today(conll_systems):
    references, systems = conll_systems
    return outputs(references, systems)


@pytest.fixture(scope="module")
def per_sentence_path(conll_systems):
    references, systems = conll_systems
    return outputs(references, systems, fast=False)


@pytest.fixture(scope="module")
def stored():
    return json.loads(GOLDEN.read_text())


def test_golden_file_covers_three_systems_both_levels_both_models(stored):
    assert len(stored) == 3
    for per_system in stored.values():
        assert set(per_system) == {f"{level}/{model}" for level in LEVELS for model in MODELS} | {
            f"statistics/{model}" for model in MODELS}


@pytest.mark.parametrize("key", [f"{level}/{model}" for level in LEVELS for model in MODELS]
                         + [f"statistics/{model}" for model in MODELS])
def test_chance_f1_is_bit_identical_to_the_stored_outputs(today, per_sentence_path, stored, key):
    """Both ways through the array pass: the total alone and with every sentence kept."""
    for system in stored:
        assert today[system][key] == stored[system][key], (system, key)
        assert per_sentence_path[system][key] == stored[system][key], (system, key)


def test_a_cold_first_call_is_bit_identical_too(conll_systems, stored):
    """The caches of the random model cleared first: a first call takes the same path as the
    stored run did (the module fixture above may run with warm caches)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    try:
        from bench_chance_f1 import clear_caches
    finally:
        sys.path.pop(0)
    references, systems = conll_systems
    name = next(iter(systems))
    clear_caches()
    assert outputs(references, {name: systems[name]})[name] == stored[name]


# --- the array pass against the per-sentence loop (sentence_pass_oracle) on random corpora -------

@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("model", MODELS)
def test_the_array_pass_equals_the_per_sentence_loop_on_random_corpora(seed, model):
    """Bit for bit, type order and exact sums included, on corpora of 1,000+ tokens (the array
    chunker's range) with sparse to dense sentences of up to 80 tokens, for each level alone and
    both together."""
    rng = np.random.default_rng(seed)
    tags = TAGS[2:] if seed % 4 == 3 else TAGS  # every other token an entity: long, dense signatures
    predictions, references = random_corpus(rng, 60 if seed % 2 else 150, 80 if seed % 2 else 20, tags)
    assert sum(map(len, references)) >= 1000
    for levels in (("token",), ("entity",), ("token", "entity")):
        assert assert_matches_oracle(predictions, references, model=model, levels=levels) is not None


def test_the_array_pass_equals_the_loop_with_no_entities_and_one_sided_types():
    rng = np.random.default_rng(7)
    references = [["O"] * int(n) for n in rng.integers(1, 30, size=80)]
    predictions = [list(sentence) for sentence in references]
    total, _ = assert_matches_oracle(predictions, references, levels=("token", "entity"))
    assert total.per_type == {}
    predictions[3][0] = "B-PER"  # a type only one side has
    references[5][-1] = "S-LOC"
    total, sentences = assert_matches_oracle(predictions, references, levels=("token", "entity"))
    assert set(total.per_type) == {"PER", "LOC"} and list(sentences[3].per_type) == ["PER"]


def test_the_array_pass_raises_the_loops_error_for_a_too_dense_sentence():
    """A sentence the exact model refuses: the same ValueError naming the same sentence."""
    from chance_agreement.chance.corrected_f1 import corpus_total

    references = [["O"] * 10 for _ in range(100)] + [["B-PER", "I-PER", "I-PER", "O"] * 3000]
    predictions = [list(sentence) for sentence in references]
    assert assert_matches_oracle(predictions, references, levels=("token",)) is None
    with pytest.raises(ValueError, match=r"^sentence 100: "):
        corpus_total(predictions, references, levels=("token",))


def test_one_segment_each_above_the_vector_limit_uses_the_exact_integers():
    """A sentence longer than ``_VECTOR_N`` with one span each: the scalar closed form."""
    from chance_agreement.chance.corrected_f1 import _VECTOR_N

    n = _VECTOR_N + 7
    reference, prediction = ["O"] * n, ["O"] * n
    reference[10:13] = ["B-PER", "I-PER", "I-PER"]
    prediction[11:15] = ["B-PER", "I-PER", "I-PER", "I-PER"]
    assert assert_matches_oracle([prediction], [reference], levels=("token", "entity")) is not None


def test_vectorised_single_pair_overlaps_equal_the_scalar_closed_form_bit_for_bit():
    """Every (n, a, b) with n <= 70, and random triples up to the vector limit."""
    from chance_agreement.chance.corrected_f1 import _VECTOR_N, _single_pair_overlaps
    from chance_agreement.chance.random_models.exact_expectations import single_pair_overlap as _single_pair_overlap

    triples = [(n, a, b) for n in range(1, 71) for a in range(1, n + 1) for b in range(1, n + 1)]
    rng = np.random.default_rng(11)
    for _ in range(5000):
        n = int(rng.integers(1, _VECTOR_N + 1))
        triples.append((n, int(rng.integers(1, n + 1)), int(rng.integers(1, n + 1))))
    triples += [(_VECTOR_N, 1, 1), (_VECTOR_N, _VECTOR_N // 2, _VECTOR_N // 2 + 1), (_VECTOR_N, _VECTOR_N, 3)]
    n, a, b = (np.array(column, dtype=np.int64) for column in zip(*triples))
    vector = _single_pair_overlaps(n, a, b)
    assert [float.hex(v) for v in vector.tolist()] == [float.hex(_single_pair_overlap(*t)) for t in triples]


def test_the_array_pass_warns_about_odd_tags_as_the_loop_does():
    """Odd tags on both sides of a 1,000+ token corpus: the same OddTagWarnings, in the same order,
    naming the same first sentences, and the same statistics (equal tags counted on shared codes)."""
    from chance_agreement.chance.corrected_f1 import _corpus
    from chance_agreement.spans.tags import OddTagWarning

    rng = np.random.default_rng(3)
    predictions, references = random_corpus(rng, 150, 20)
    long_enough = [i for i, sentence in enumerate(references) if len(sentence) >= 3]
    for corpus, index, tag in ((predictions, 40, "X"), (predictions, 7, "PER"), (references, 90, "X"), (references, 12, "b-loc")):
        sentence = long_enough[index]  # "O odd O": a one-token entity inside its sentence
        corpus[sentence][:] = ["O", tag] + ["O"] * (len(corpus[sentence]) - 2)
    caught = []
    for keep in (False, True):
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            stats = _corpus(predictions, references, None, None, False, "non_overlapping", ("token",), keep_sentences=keep)[0]
        caught.append(([str(w.message) for w in record if w.category is OddTagWarning], exact(stats.to_dict())))
    assert caught[0] == caught[1]
    assert len(caught[0][0]) == 3 and "'PER' (first in predictions[" in caught[0][0][-1]
