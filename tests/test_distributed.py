"""Distributed and large evaluation: evaluate's multi-process mode with two real processes,
sharded statistics with datasets.Dataset.map(num_proc=2), and evaluate.combine."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
import warnings

import pytest

from chance_agreement.chance.corrected_f1 import ChanceStatistics, UndefinedMetricWarning, chance_f1, corpus_statistics
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
