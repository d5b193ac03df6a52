"""Distributed and large evaluation: evaluate's multi-process mode with two real processes,
sharded statistics with datasets.Dataset.map(num_proc=2), and evaluate.combine."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
import warnings

import pytest

from chance_agreement.chance.corrected_f1 import UndefinedMetricWarning, chance_f1, corpus_statistics
from chance_agreement.chance.statistics import FIELDS, ROW_FORMAT, ChanceStatistics
from chance_agreement.ecosystem.sharding import merge_statistics, scores_from_shards, sentence_statistics_batch
from conftest import REPO

# Run by each of the two processes: argv = data JSON, process id, experiment id, cache dir, output JSON.
WORKER = """
import json, sys
import evaluate

data_file, process_id, experiment_id, cache_dir, output_file = sys.argv[1:]
process_id = int(process_id)
with open(data_file) as handle:
    data = json.load(handle)
metric = evaluate.load(data["metric_path"], num_process=2, process_id=process_id,
                       experiment_id=experiment_id, cache_dir=cache_dir)
half = len(data["references"]) // 2
part = slice(0, half) if process_id == 0 else slice(half, None)
predictions, references = data["predictions"][part], data["references"][part]
for start in range(0, len(references), 500):  # several add_batch calls per process
    metric.add_batch(predictions=predictions[start:start + 500], references=references[start:start + 500])
result = metric.compute(**data["compute_kwargs"])
with open(output_file, "w") as handle:
    json.dump({"result": result, "rows": len(references)}, handle)
"""


def _system(conll_systems, index=0):
    references, systems = conll_systems
    return list(systems.values())[index], references


def test_two_processes_each_add_half_and_process_0_equals_single_process(conll_systems, load_metric, tmp_path):
    predictions, references = _system(conll_systems)
    compute_kwargs = {"zero_division": 0}
    data_file = tmp_path / "data.json"  # the research data go to a temp file only, never the repository
    data_file.write_text(json.dumps({
        "metric_path": str(REPO / "chance_f1_metric"), "predictions": predictions, "references": references,
        "compute_kwargs": compute_kwargs,
    }))
    script = tmp_path / "worker.py"
    script.write_text(WORKER)
    cache_dir, experiment_id = tmp_path / "cache", f"chance-f1-{uuid.uuid4().hex}"
    workers = [
        subprocess.Popen(
            [sys.executable, str(script), str(data_file), str(i), experiment_id, str(cache_dir), str(tmp_path / f"out{i}.json")],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
        )
        for i in (0, 1)
    ]
    for worker in workers:
        _, stderr = worker.communicate(timeout=180)
        assert worker.returncode == 0, stderr[-3000:]
    outputs = [json.loads((tmp_path / f"out{i}.json").read_text()) for i in (0, 1)]

    assert outputs[1]["result"] is None  # only process 0 computes
    assert outputs[0]["rows"] + outputs[1]["rows"] == len(references) and outputs[1]["rows"] > 0
    single = load_metric("chance_f1_metric").compute(predictions=predictions, references=references, **compute_kwargs)
    assert outputs[0]["result"] == single  # exactly, every key and value
    assert single == chance_f1(predictions, references, **compute_kwargs)
    assert 0 < single["overall_corrected_f1"] < single["overall_observed_f1"] < 1


@pytest.mark.parametrize("level", ["token", "entity"])
def test_sharded_statistics_with_dataset_map_num_proc_merge_exactly(conll_systems, level):
    from datasets import Dataset

    predictions, references = _system(conll_systems, index=1)
    dataset = Dataset.from_dict({"predictions": predictions, "references": references})
    statistics = dataset.map(
        sentence_statistics_batch, batched=True, batch_size=300, num_proc=2,
        remove_columns=dataset.column_names, fn_kwargs={"level": level},
    )
    assert statistics.column_names == ["statistics"] and len(statistics) == len(references)
    assert isinstance(statistics[0]["statistics"], str)
    merged = scores_from_shards(statistics["statistics"], level=level, zero_division=0)
    assert merged == chance_f1(predictions, references, level=level, zero_division=0)  # exactly


def test_merge_statistics_accepts_objects_dicts_and_json_and_adds_up():
    predictions = [["B-PER", "I-PER", "O"], ["O", "B-LOC"], ["B-ORG", "O", "O"]]
    references = [["B-PER", "O", "O"], ["O", "B-LOC"], ["O", "O", "B-ORG"]]
    total, sentences = corpus_statistics(predictions, references)
    items = [sentences[0], sentences[1].to_dict(), json.dumps(sentences[2].to_dict())]
    merged = merge_statistics(items)
    assert isinstance(merged, ChanceStatistics)
    assert merged.to_dict() == total.to_dict()
    assert (merged.correct_tokens, merged.total_tokens) == (5, 8)
    # uneven shards (one sentence, then two) give the same scores as the whole corpus
    shard_a = corpus_statistics(predictions[:1], references[:1])[0]
    shard_b = corpus_statistics(predictions[1:], references[1:])[0]
    assert scores_from_shards([shard_a, shard_b], zero_division=0) == chance_f1(predictions, references, zero_division=0)


def test_sharding_rejects_bad_input():
    with pytest.raises(ValueError, match="no statistics to merge"):
        merge_statistics([])
    with pytest.raises(ValueError, match="item 1: not valid JSON"):
        merge_statistics([ChanceStatistics(), "{oops"])
    with pytest.raises(ValueError, match=r"item 0: statistics dict lacks \['total_tokens'\]"):
        merge_statistics([{"per_type": {}, "correct_tokens": 0}])
    with pytest.raises(ValueError, match="item 0: expected ChanceStatistics"):
        merge_statistics([3])
    batch = {"predictions": [["O"]], "references": [["O"]]}
    with pytest.raises(ValueError, match="strict mode needs an explicit scheme"):
        sentence_statistics_batch(batch, mode="strict")
    with pytest.raises(ValueError, match="no column 'tags'"):
        sentence_statistics_batch(batch, references_column="tags")
    with pytest.raises(ValueError, match="level must be one of"):
        sentence_statistics_batch(batch, level="sentence")


def test_combine_default_and_flat_forms(load_metric, conll_systems):
    import evaluate

    predictions, references = _system(conll_systems, index=2)
    predictions, references = predictions[:400], references[:400]
    default = load_metric("chance_f1_metric")
    flat = load_metric("chance_f1_metric", "flat")
    combined = evaluate.combine([default, flat])
    result = combined.compute(predictions=predictions, references=references, zero_division=0)
    nested = chance_f1(predictions, references, zero_division=0)
    # keys both modules return get "{module name}_{index}_" (both modules are named chance_f1)
    assert result["chance_f1_0_overall_corrected_f1"] == nested["overall_corrected_f1"]
    assert result["chance_f1_1_overall_corrected_f1"] == nested["overall_corrected_f1"]
    assert result["PER"] == nested["PER"]  # only the default form has the nested dict
    assert result["PER_corrected_f1"] == nested["PER"]["corrected_f1"]  # only the flat form has this key

    # the caveat: every compute kwarg goes to every module (here both switch to entity level)
    entity = evaluate.combine({"nested": default, "flat": flat}, force_prefix=True).compute(
        predictions=predictions, references=references, level="entity", zero_division=0
    )
    expected = chance_f1(predictions, references, level="entity", zero_division=0)
    assert entity["nested_overall_corrected_f1"] == expected["overall_corrected_f1"]
    assert entity["flat_overall_corrected_f1"] == expected["overall_corrected_f1"]
    assert entity["flat_overall_observed_f1"] == expected["overall_f1"] != nested["overall_observed_f1"]

    # add_batch through the combination, then compute
    for start in range(0, len(references), 150):
        combined.add_batch(predictions=predictions[start:start + 150], references=references[start:start + 150])
    with warnings.catch_warnings():
        warnings.simplefilter("error", UndefinedMetricWarning)  # zero_division=0 reaches the modules
        batched = combined.compute(zero_division=0)
    assert batched == result


def _rows(level="token", model="non_overlapping"):
    batch = {"predictions": [["B-PER", "I-PER", "O"], ["O", "B-LOC"]], "references": [["B-PER", "O", "O"], ["O", "B-LOC"]]}
    return sentence_statistics_batch(batch, level=level, model=model)["statistics"]


def _reject(name):
    raise ValueError(f"non-strict constant {name}")


@pytest.mark.parametrize("level", ["token", "entity"])
def test_rows_are_strict_json_and_record_model_and_level(level):
    """Issue 10, item 8: no NaN (strict parsers accept every row), and each row says how it was made."""
    for row in _rows(level):
        data = json.loads(row, parse_constant=_reject)
        assert data["model"] == "non_overlapping" and data["levels"] == [level]
        assert data["fields"] == list(FIELDS) and data["format"] == ROW_FORMAT
        assert all(len(vector) == len(FIELDS) for vector in data["per_type"].values())


def test_merging_checks_rows():
    token_rows, entity_rows = _rows("token"), _rows("entity")
    overlapping_rows = _rows("token", model="overlapping")
    with pytest.raises(ValueError, match="item 2: cannot add statistics computed with different model"):
        merge_statistics(token_rows + overlapping_rows)
    with pytest.raises(ValueError, match="item 2: cannot add statistics computed with different levels"):
        merge_statistics(token_rows + entity_rows)
    with pytest.raises(ValueError, match="without entity-level expectations"):
        scores_from_shards(token_rows, level="entity")
    good = json.loads(token_rows[0])
    bad_rows = [
        ({**good, "per_type": {"PER": [1, 1, 1]}}, r"item 0: per_type\['PER'\] must be a list of 7 numbers"),
        ({**good, "per_type": [["PER", [0] * 7]]}, "item 0: per_type must be a dict"),
        ({**good, "per_type": {"PER": [0, 1, 1, 1, float("nan"), 3, 0]}}, "expected_overlap must be a finite"),
        ({**good, "per_type": {"PER": [0.5, 1, 1, 1, 0.5, 3, 0]}}, "true_positives must be a non-negative integer"),
        ({**good, "model": "uniform"}, "item 0: model must be one of"),
        ({**good, "levels": ["span"]}, "item 0: levels must be a non-empty subset"),
        ({**good, "fields": list(FIELDS)[::-1]}, "item 0: fields must be"),
        ({**good, "format": "something else"}, "item 0: unknown statistics format"),
        ({**good, "correct_tokens": 9}, r"item 0: correct_tokens \(9\) exceeds total_tokens"),
    ]
    for row, message in bad_rows:
        with pytest.raises(ValueError, match=message):
            merge_statistics([row])
    with pytest.raises(ValueError, match="item 0: not strict JSON: NaN"):
        merge_statistics(['{"per_type": {"PER": [0, 1, 1, 1, NaN, 3, NaN]}, "correct_tokens": 2, "total_tokens": 3}'])


def test_pre_summed_shard_rows_keep_their_exact_partials_and_merge_bit_identically(conll_systems):
    """Shard totals written as rows carry the exact partials of their expectations, so any
    grouping of the corpus into shards gives exactly the one-shot scores."""
    predictions, references = _system(conll_systems, index=2)
    predictions, references = predictions[:900], references[:900]
    expected = chance_f1(predictions, references, level="entity", zero_division=0)
    for cuts in ([300, 600], [1, 2, 450, 899], [77]):
        bounds = [0, *cuts, len(references)]
        rows = [json.dumps(corpus_statistics(predictions[a:b], references[a:b], levels=("entity",))[0].to_dict(), allow_nan=False)
                for a, b in zip(bounds, bounds[1:])]
        assert scores_from_shards(rows[::-1], level="entity", zero_division=0) == expected


def test_statistics_compare_by_their_exact_values():
    """``==`` compares the exact statistics: any grouping of a sum is equal to any other (the
    expectations' partials may differ, their exact sums do not); one ulp more in an expectation,
    another count, model or type is unequal; ``==`` never raises on the numpy vectors and the
    mutable statistics are unhashable."""
    from fractions import Fraction

    import numpy as np

    tags = [(["B-PER", "I-PER", "O", "O"], ["B-PER", "O", "O", "O"]), (["O", "B-LOC", "O"], ["O", "B-LOC", "O"]),
            (["B-PER", "O", "B-PER", "I-PER", "O"], ["O", "B-PER", "I-PER", "O", "B-PER"])]
    total, parts = corpus_statistics(*map(list, zip(*tags, strict=True)))
    left, right = (parts[0] + parts[1]) + parts[2], parts[0] + (parts[1] + parts[2])
    assert left == right == total == (parts[2] + parts[0]) + parts[1]
    assert ChanceStatistics.from_dict(left.to_dict()) == left
    nudged = ChanceStatistics.from_dict(left.to_dict())
    vector = nudged.per_type["PER"]
    vector[FIELDS.index("expected_overlap")] = np.nextafter(vector[FIELDS.index("expected_overlap")], np.inf)
    nudged.partials.pop("PER", None)
    exact = sum(map(Fraction, left.exact_partials("PER")[0]))
    assert Fraction(vector[FIELDS.index("expected_overlap")]) != exact and nudged != left
    assert left != parts[0] and left != ChanceStatistics.from_dict({**left.to_dict(), "model": "overlapping"})
    assert (left == "statistics") is False
    with pytest.raises(TypeError):
        hash(left)
