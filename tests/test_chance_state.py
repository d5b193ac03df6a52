"""``ChanceF1State``: update in any batches, merge in any grouping, carry as JSON, and get exactly
``chance_f1``'s numbers; everything it reads is checked."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, strategies as st

from chance_agreement import ChanceF1State, chance_f1
from chance_agreement.chance.corrected_f1 import corpus_statistics

TAGS = ["O", "O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG"]


def _cuts(size: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    return [0, *sorted(rng.sample(range(1, size), min(size - 1, rng.randint(1, 12)))), size]


@pytest.mark.parametrize("level, model", [("token", "non_overlapping"), ("entity", "non_overlapping"),
                                          ("token", "overlapping")])
def test_batches_merges_and_json_give_chance_f1_bit_for_bit(conll_systems, level, model):
    references, systems = conll_systems
    predictions = systems["CflairWglove_lstmCrf_9303"]
    expected = chance_f1(predictions, references, level=level, model=model, zero_division=0)
    # one state updated batch by batch
    cuts = _cuts(len(references), 0)
    state = ChanceF1State(level=level, model=model)
    for a, b in zip(cuts, cuts[1:]):
        state.update(predictions[a:b], references[a:b])
    assert state.sentences == len(references)
    assert state.result(zero_division=0) == expected
    # one state per shard, sent as JSON and merged in another order
    cuts = _cuts(len(references), 1)
    shards = [ChanceF1State(level=level, model=model).update(predictions[a:b], references[a:b]).to_json()
              for a, b in zip(cuts, cuts[1:])]
    merged = ChanceF1State(level=level, model=model)
    for text in reversed(shards):
        merged = merged.merge(ChanceF1State.from_json(text))
    assert merged.result(zero_division=0) == expected
    assert merged.to_json() == ChanceF1State.from_json(merged.to_json()).to_json()


@given(st.lists(st.lists(st.sampled_from(TAGS), min_size=1, max_size=9).flatmap(
    lambda ref: st.tuples(st.just(ref), st.lists(st.sampled_from(TAGS), min_size=len(ref), max_size=len(ref)))),
    min_size=2, max_size=12), st.integers(0, 1000), st.sampled_from(["token", "entity"]))
def test_any_split_and_grouping_of_random_corpora(pairs, seed, level):
    references = [list(r) for r, _ in pairs]
    predictions = [list(p) for _, p in pairs]
    expected = chance_f1(predictions, references, level=level, zero_division=0)
    cuts = _cuts(len(references), seed)
    states = [ChanceF1State(level=level).update(predictions[a:b], references[a:b]) for a, b in zip(cuts, cuts[1:])]
    random.Random(seed).shuffle(states)
    while len(states) > 1:  # merged pairwise, in a tree
        states = [states[i].merge(states[i + 1]) if i + 1 < len(states) else states[i] for i in range(0, len(states), 2)]
    assert states[0].result(zero_division=0) == expected


def test_the_state_takes_per_sentence_statistics_as_the_sharded_rows_do():
    references = [["B-PER", "I-PER", "O"], ["O", "B-LOC"], ["B-ORG", "O", "O", "B-PER"]]
    predictions = [["B-PER", "O", "O"], ["O", "B-LOC"], ["O", "B-ORG", "O", "B-PER"]]
    total, sentences = corpus_statistics(predictions, references, levels=("token",))
    state = ChanceF1State()
    state.update(predictions, references)
    assert state.statistics.to_dict() == total.to_dict()
    assert state.result(zero_division=0) == chance_f1(predictions, references, zero_division=0)
    state.reset()
    assert state.sentences == 0 and not state.statistics.per_type


def test_options_are_checked_and_must_agree():
    with pytest.raises(ValueError, match="level must be one of"):
        ChanceF1State(level="span")
    with pytest.raises(ValueError, match="model must be one of"):
        ChanceF1State(model="uniform")
    with pytest.raises(ValueError, match="strict mode needs an explicit scheme"):
        ChanceF1State(mode="strict")
    assert ChanceF1State(mode="strict", scheme="IOB2").scheme == "IOB2"
    with pytest.raises(ValueError, match="cannot merge states of different options"):
        ChanceF1State(level="token").merge(ChanceF1State(level="entity"))
    with pytest.raises(ValueError, match="no sentences were added"):
        ChanceF1State().result()
    with pytest.raises(ValueError, match="2 predicted and 1 reference sentences"):
        ChanceF1State().update([["O"], ["O"]], [["O"]])
    state = ChanceF1State().update([["B-PER"]], [["B-PER"]])
    with pytest.raises(ValueError, match="sentence 1"):
        state.update([["O"], ["B-PER", "O"]], [["O"], ["B-PER"]])
    assert state.sentences == 1  # a refused batch leaves the state as it was


def test_json_is_strict_and_checked():
    good = json.loads(ChanceF1State(level="entity").update([["B-PER", "O"]], [["B-PER", "B-LOC"]]).to_json())
    assert good["format"] == "chance_agreement.ChanceF1State/2" and good["options"]["level"] == "entity"
    bad = [
        ("{", "state: not valid JSON"),
        (json.dumps({**good, "format": "other/1"}), "not a chance_agreement.ChanceF1State/2 state"),
        (json.dumps({k: v for k, v in good.items() if k != "sentences"}), r"state lacks \['sentences'\]"),
        (json.dumps({**good, "sentences": -1}), "sentences must be a non-negative integer"),
        (json.dumps({**good, "options": {**good["options"], "extra": 1}}), "options must name exactly"),
        (json.dumps({**good, "options": {**good["options"], "level": "token", "levels": ["token"]}}), "computed for levels"),
        (json.dumps({**good, "options": {**good["options"], "model": "overlapping"}}), "computed with model"),
        (json.dumps(good).replace('"total_tokens": 2', '"total_tokens": NaN'), "not strict JSON: NaN"),
        (json.dumps(good).replace('"total_tokens": 2', '"total_tokens": 0'), "state statistics: correct_tokens"),
    ]
    for text, message in bad:
        with pytest.raises(ValueError, match=message):
            ChanceF1State.from_json(text)


def test_a_state_of_the_first_format_still_reads():
    state = ChanceF1State(level="entity").update([["B-PER", "O"]], [["B-PER", "B-LOC"]])
    first = {**state.to_dict(), "format": "chance_agreement.ChanceF1State/1"}
    first["options"] = {name: first["options"][name] for name in ("level", "model", "scheme", "mode", "suffix")}
    del first["bootstrap"], first["contingency"]
    assert ChanceF1State.from_dict(first).to_json() == state.to_json()
    with pytest.raises(ValueError, match="options must name exactly level, model, scheme, mode, suffix, levels"):
        ChanceF1State.from_dict({**state.to_dict(), "options": first["options"]})


def _tampered(**row) -> str:
    """A real state's JSON with its PER row changed (fields by name) or renamed (``name``); ``model``
    chooses the state's random model."""
    from chance_agreement.chance.statistics import FIELDS
    state = ChanceF1State(level="token", levels=("token", "entity"), model=row.pop("model", "non_overlapping"))
    data = state.update([["B-PER", "I-PER", "O"], ["B-PER", "O"]], [["B-PER", "O", "O"], ["B-PER", "O"]]).to_dict()
    per_type = data["statistics"]["per_type"]
    values = per_type.pop("PER")
    for name, value in row.items():
        if name != "name":
            values[FIELDS.index(name)] = value
    per_type[row.get("name", "PER")] = values
    data["statistics"].pop("partials", None)
    return json.dumps(data)


@pytest.mark.parametrize("row, message", [
    ({"true_positives": 10}, r"true_positives \(10\) exceed predicted \(2\) or actual \(2\)"),
    ({"overlap": 40}, r"overlap \(40\) exceeds half of annotated_tokens \(5\)"),
    ({"expected_overlap": 40.0}, r"expected_overlap \(40.0\) exceeds half of annotated_tokens \(5\)"),
    ({"expected_matches": 3.5}, r"expected_matches \(3.5\) exceeds half of predicted \+ actual \(4\)"),
    ({"name": "overall"}, "an entity type is named 'overall', which is reserved"),
    ({"name": "O"}, "an entity type is named 'O', which is reserved"),
])
def test_from_json_refuses_inconsistent_statistics(row, message):
    """Such states gave precision 5.0, observed F1 10.6 and chance F1 10.4."""
    assert ChanceF1State.from_json(_tampered()).result()["overall_observed_f1"] <= 1.0
    with pytest.raises(ValueError, match=message):
        ChanceF1State.from_json(_tampered(**row))


def test_from_json_takes_stacked_expectations_under_the_overlapping_model():
    """Under the overlapping model random segments stack (Proposition 5): expected overlap and
    matches past half of a1 + a2 and k1 + k2 are possible there (chance F1 above 1), so only the
    non-overlapping model's statistics are held to those bounds."""
    state = ChanceF1State.from_json(_tampered(model="overlapping", expected_overlap=4.0, expected_matches=3.0))
    assert state.result()["overall_chance_f1"] == pytest.approx(8.0 / 5.0)
    with pytest.raises(ValueError, match="expected_overlap"):
        ChanceF1State.from_json(_tampered(expected_overlap=4.0))


def _bootstrapped() -> dict:
    state = ChanceF1State(level="token", confidence_level=0.9, resampling="poisson", n_resamples=3, random_state=1,
                          contingency_views=("all",))
    return state.update([["B-PER", "O"]], [["B-PER", "B-LOC"]]).to_dict()


def _with(data: dict, path: tuple, value) -> str:
    data = json.loads(json.dumps(data))
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return json.dumps(data)


@pytest.mark.parametrize("text, message", [
    ("[" * 100_000 + "]" * 100_000, "state: JSON nested too deeply"),
    (_with(_bootstrapped(), ("bootstrap", "sums", "token", "PER", "expected"), {"10000000000": [1, 1, 1]}),
     "limb index '10000000000' is outside -45 to 42"),
    (_with(_bootstrapped(), ("bootstrap", "sums", "token", "PER", "expected"), {"-46": [1, 1, 1]}),
     "limb index '-46' is outside -45 to 42"),
    (_with(_bootstrapped(), ("options", "contingency_views"), [["all"]]), "not a valid chance_agreement.ChanceF1State/2"),
    (_with(_bootstrapped(), ("statistics", "fields"), 7), "not a valid chance_agreement.ChanceF1State/2"),
], ids=["deep", "huge-limb", "negative-limb", "views-of-lists", "fields-number"])
def test_from_json_errors_are_value_errors(text, message):
    """RecursionError, a limb index that blew up (OverflowError, or memory) and TypeErrors."""
    with pytest.raises(ValueError, match=message):
        ChanceF1State.from_json(text)


# --- an AnnotationSet added as it is, with its tags' bits --------------------------------------


def _corpus(rng: random.Random, sentences: int, tags=TAGS) -> tuple[list, list]:
    lengths = [rng.randint(0 if s % 7 == 3 else 1, 12) for s in range(sentences)]
    return ([[rng.choice(tags) for _ in range(n)] for n in lengths],
            [[rng.choice(tags) for _ in range(n)] for n in lengths])


@pytest.mark.parametrize("options", [{}, {"level": "entity", "model": "overlapping"},
                                     {"mode": "strict", "scheme": "IOB2", "levels": ("token", "entity")},
                                     {"confidence_level": 0.9, "resampling": "poisson", "random_state": 5,
                                      "n_resamples": 50, "contingency_views": ("all", "entities", "grouped")}])
@pytest.mark.parametrize("sentences", [40, 400])  # the loop chunker and the array chunker
def test_a_set_updates_the_state_to_the_bits_of_its_tags(options, sentences):
    from chance_agreement import AnnotationSet

    rng = random.Random(sentences)
    by_tags, by_set = ChanceF1State(**options), ChanceF1State(**options)
    chunker = {key: options[key] for key in ("mode", "scheme") if key in options}
    for cut in range(3):  # batches, the second with document ids
        predictions, references = _corpus(rng, sentences // 3)
        ids = [f"doc{cut}-{s % 5}" for s in range(len(references))] if "confidence_level" in options and cut else None
        by_tags.update(predictions, references, document_ids=ids)
        by_set.update(AnnotationSet.from_tags({"gold": references, "system": predictions}, **chunker),
                      document_ids=ids)
    assert by_set.sentences == by_tags.sentences == 3 * (sentences // 3)
    assert by_set.to_json() == by_tags.to_json()  # statistics, bootstrap sums and tables, bit for bit
    assert by_set.result(zero_division=0) == by_tags.result(zero_division=0)


def test_a_set_of_sentences_without_tokens_counts_them():
    from chance_agreement import AnnotationSet

    state = ChanceF1State(confidence_level=0.9, resampling="poisson", random_state=1)
    state.update(AnnotationSet.from_tags([[[], []], [[], []]]))
    assert state.sentences == 2
    assert state.to_json() == ChanceF1State(confidence_level=0.9, resampling="poisson", random_state=1).update(
        [[], []], [[], []]).to_json()


def test_a_set_chunked_otherwise_than_the_state_is_refused():
    from chance_agreement import AnnotationSet

    references, predictions = [["B-PER", "I-PER", "O"]], [["B-PER", "O", "O"]]
    strict = AnnotationSet.from_tags([references, predictions], mode="strict", scheme="IOB2")
    with pytest.raises(ValueError, match=r"ChanceF1State\.update: the annotation set was chunked with mode='strict'"):
        ChanceF1State().update(strict)
    with pytest.raises(ValueError, match="chunked with scheme"):
        ChanceF1State(mode="strict", scheme="IOBES").update(strict)
    with pytest.raises(TypeError, match="give it alone"):
        ChanceF1State().update(strict, references)
    assert ChanceF1State(mode="strict", scheme="IOB2").update(strict).sentences == 1
