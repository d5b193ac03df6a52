"""The fast chance_f1 path gives today's numbers to the last bit on every CoNLL-2003 system.

``tests/data/golden/chance_f1_conll03.json`` holds the outputs of the code before the speed work
of issue 11's last row (commit 1b847ef), as exact ``float.hex`` strings: for each of the three
systems, both levels and both models, the corpus result, a digest of the per-sentence scores and
the corpus statistics with their exact-sum partials (``tests/golden_chance_f1.py`` wrote it).
"""

from __future__ import annotations

import json

import pytest

from golden_chance_f1 import GOLDEN, LEVELS, MODELS, outputs


@pytest.fixture(scope="module")
def today(conll_systems):
    references, systems = conll_systems
    return outputs(references, systems)


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
def test_chance_f1_is_bit_identical_to_the_stored_outputs(today, stored, key):
    for system in stored:
        assert today[system][key] == stored[system][key], (system, key)


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
