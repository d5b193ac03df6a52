"""The Ray Data adapter on a real local cluster (``ray.init(num_cpus=2)``): per-block states merged by
``Dataset.aggregate`` give ``chance_f1``'s numbers bit for bit (both levels, per type, Poisson
intervals) and ``agreement_report``'s contingency tables, whatever the blocks and workers."""

from __future__ import annotations

import os
import random
import re

import pytest

from chance_agreement import agreement_report, chance_f1
from chance_agreement.chance.span_f1 import span_chance_f1
from chance_agreement.spans.tags import spans_from_tags

try:
    import ray
except ImportError:  # the test extra installs it, so under CI its absence fails; elsewhere the tests say how
    if os.environ.get("CI"):
        pytest.fail('CI installs Ray with the test extra ("ray[data]")', pytrace=False)
    pytest.skip('the Ray adapter tests need the extra: pip install ".[ray]" in a clone', allow_module_level=True)

from chance_agreement.ecosystem.ray_data import ray_chance_f1, ray_chance_state  # noqa: E402

VIEWS = ("all", "entities", "grouped")
INTERVALS = dict(confidence_level=0.95, n_resamples=200, random_state=23, resampling="poisson")


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=2, _node_ip_address="127.0.0.1", include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    context = ray.data.DataContext.get_current()
    context.enable_progress_bars = False
    yield context
    ray.shutdown()


def _with_workers(context, workers: int) -> None:
    """At most ``workers`` tasks at once (Ray Data's CPU budget for the dataset's operators)."""
    context.execution_options.resource_limits = ray.data.ExecutionResources(cpu=workers)


def _rows(predictions, references) -> list[dict]:
    return [{"predictions": p, "references": r, "doc_id": i} for i, (p, r) in enumerate(zip(predictions, references))]


def test_any_blocks_and_workers_give_chance_f1_and_agreement_reports_tables(cluster, conll_systems):
    references, systems = conll_systems
    predictions = systems["CbertWnon_snonMlp_9109"]
    expected = {level: chance_f1(predictions, references, level=level, zero_division=0, **INTERVALS)
                for level in ("token", "entity")}
    report = agreement_report(predictions, references, views=VIEWS)
    rows = _rows(predictions, references)
    for blocks, workers in ((1, 1), (4, 2), (17, 1), (17, 2)):
        _with_workers(cluster, workers)
        dataset = ray.data.from_items(rows, override_num_blocks=blocks)
        state = ray_chance_state(dataset, id_column="doc_id", levels=("token", "entity"), contingency_views=VIEWS,
                                 **INTERVALS)
        assert state.sentences == len(references)
        for level in ("token", "entity"):
            assert state.result(level=level, zero_division=0) == expected[level], (blocks, workers, level)
        assert state.contingency_report() == {view: report[view] for view in VIEWS}
    _with_workers(cluster, 2)
    assert ray_chance_f1(ray.data.from_items(rows, override_num_blocks=3), level="entity", model="overlapping") \
        == chance_f1(predictions, references, level="entity", model="overlapping")


def test_span_columns_give_span_chance_f1(cluster):
    rng = random.Random(3)
    tags = ["O", "O", "B-PER", "I-PER", "B-LOC"]
    references = [[rng.choice(tags) for _ in range(rng.randint(1, 10))] for _ in range(120)]
    predictions = [[tag if rng.random() < 0.7 else rng.choice(tags) for tag in sentence] for sentence in references]

    def spans(sentence):
        return [{"start": start, "end": end, "label": label} for label, start, end in spans_from_tags(sentence)]

    rows = [{"first": spans(p), "second": spans(r), "tokens": len(r), "doc": f"d{i}"}
            for i, (p, r) in enumerate(zip(predictions, references))]
    dataset = ray.data.from_items(rows, override_num_blocks=5)
    expected = span_chance_f1([row["first"] for row in rows], [row["second"] for row in rows],
                              [row["tokens"] for row in rows], zero_division=0, document_ids=[row["doc"] for row in rows],
                              **INTERVALS)
    assert ray_chance_f1(dataset, predictions_column="first", references_column="second", lengths_column="tokens",
                         id_column="doc", zero_division=0, **INTERVALS) == expected


def test_bad_input_is_named(cluster):
    dataset = ray.data.from_items(_rows([["B-PER", "O"], ["O"]], [["B-PER", "O"], ["O", "O"]]), override_num_blocks=2)
    with pytest.raises(ValueError, match="the dataset has no column 'tags'"):
        ray_chance_f1(dataset, predictions_column="tags")
    with pytest.raises(ValueError, match="Poisson intervals need id_column"):
        ray_chance_state(dataset, **INTERVALS)
    whole = ray.data.from_items(_rows([["B-PER", "O"], ["O"]], [["B-PER", "O"], ["O", "O"]]), override_num_blocks=1)
    with pytest.raises(Exception, match=r"a block of 2 rows \(ids 0 .. 1\): sentence 1: the prediction has 1 tags "
                                        "but the reference has 2"):
        ray_chance_f1(whole, id_column="doc_id", **INTERVALS)


def test_an_empty_dataset_and_bad_retries_are_refused(cluster):
    # issue 38 item 3d: from_items([]) gave an AttributeError
    with pytest.raises(ValueError, match="the dataset has no rows: nothing to score"):
        ray_chance_f1(ray.data.from_items([]))
    dataset = ray.data.from_items(_rows([["B-PER", "O"]], [["B-PER", "O"]]))
    for bad in (-2, 1.5, True):
        with pytest.raises(ValueError, match="max_retries must be a whole number"):
            ray_chance_f1(dataset, max_retries=bad)
    with pytest.raises(ValueError, match="give max_retries as its own argument"):
        ray_chance_f1(dataset, ray_remote_args={"max_retries": 2})
    assert ray_chance_f1(dataset, zero_division=0, ray_remote_args={"num_cpus": 0.5})["overall_f1"] == 1.0


def test_a_batch_whose_worker_always_dies_fails_after_max_retries(cluster, tmp_path):
    # issue 38 item 3d: Ray Data's default (max_retries=-1) ran such a batch again forever
    shadow = tmp_path / "chance_agreement"
    shadow.mkdir()
    (shadow / "__init__.py").write_text("import os\nos._exit(1)\n")  # the worker dies loading the scoring code
    dataset = ray.data.from_items(_rows([["B-PER", "O"]], [["B-PER", "O"]]))
    dying = {"runtime_env": {"env_vars": {"PYTHONPATH": str(tmp_path)}}}
    with pytest.raises(Exception, match="worker died unexpectedly"):
        ray_chance_f1(dataset, max_retries=1, ray_remote_args=dying)


def _docs_block(heading: str, index: int = 0) -> str:
    """A ``python`` block of docs/howto/scale.md (not executed by the docs build: it needs a cluster)."""
    from docs_pages import page, section

    return re.findall(r"```python\n(.*?)```", section(page("howto/scale.md"), heading), flags=re.S)[index]


def test_the_docs_recipe_runs_as_written(cluster, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    exec(compile(_docs_block("### Ray Data: score a Dataset where it lives"), "docs/howto/scale.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == 2 and printed[0].startswith("0.") and "[" in printed[0]
    assert (tmp_path / "annotations.parquet").is_file()
