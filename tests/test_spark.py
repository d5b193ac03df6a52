"""spark_chance_f1 on a real local SparkSession (Java 17 and pyspark): bit for bit chance_f1."""

from __future__ import annotations

import os
import shutil
import sys

import pytest

from chance_agreement import chance_f1, spark_chance_f1, spark_chance_state

REASON = "the Spark tests need pyspark (test extra) and Java (java on PATH)"
if os.environ.get("CI"):  # under CI a missing Spark is a failure, never a skip
    import pyspark  # noqa: F401
    assert shutil.which("java"), REASON
pyspark = pytest.importorskip("pyspark", reason=REASON)
if not shutil.which("java"):
    pytest.skip(REASON, allow_module_level=True)

PREDICTIONS = [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-ORG", "I-ORG", "O", "B-PER"], [], ["B-LOC", "O"],
               ["O", "O", "B-MISC", "I-MISC", "I-MISC"], ["B-PER", "B-PER", "O"]]
REFERENCES = [["B-PER", "I-PER", "O", "O"], ["O", "B-ORG", "O", "O", "B-PER"], [], ["B-LOC", "I-LOC"],
              ["O", "B-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
SCHEMA = "doc string, predictions array<string>, references array<string>"


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession

    os.environ["PYSPARK_PYTHON"] = sys.executable  # the workers run this interpreter, with the package
    session = (SparkSession.builder.master("local[2]").appName("chance-agreement-tests")
               .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "4")
               .config("spark.sql.execution.arrow.maxRecordsPerBatch", "2").getOrCreate())
    yield session
    session.stop()


def _frame(spark, predictions, references, partitions: int):
    rows = [(f"d{index // 2}", p, r) for index, (p, r) in enumerate(zip(predictions, references, strict=True))]
    return spark.createDataFrame(rows, SCHEMA).repartition(partitions)


@pytest.mark.parametrize("options", [{}, {"level": "entity"}, {"model": "overlapping"}], ids=str)
def test_every_partitioning_gives_chance_f1_bit_for_bit(spark, options):
    expected = chance_f1(PREDICTIONS, REFERENCES, **options)
    for partitions in (1, 3, 8):  # 8 partitions of 6 rows: some are empty
        assert spark_chance_f1(_frame(spark, PREDICTIONS, REFERENCES, partitions), **options) == expected


def test_poisson_intervals_keyed_by_document_ids(spark):
    options = {"confidence_level": 0.9, "resampling": "poisson", "random_state": 7, "n_resamples": 60}
    ids = [f"d{index // 2}" for index in range(len(REFERENCES))]
    from chance_agreement import ChanceF1State

    expected = ChanceF1State(**options).update(PREDICTIONS, REFERENCES, document_ids=ids).result()
    for partitions in (1, 4):
        state = spark_chance_state(_frame(spark, PREDICTIONS, REFERENCES, partitions), document_ids="doc", **options)
        assert state.result() == expected
    with pytest.raises(ValueError, match="Poisson intervals need document_ids"):
        spark_chance_state(_frame(spark, PREDICTIONS, REFERENCES, 1), **options)


def test_conll_system_on_spark(spark, conll_systems):
    references, systems = conll_systems
    predictions = systems["CbertWnon_snonMlp_9109"]
    frame = spark.createDataFrame(list(zip(predictions, references, strict=True)),
                                  "system array<string>, gold array<string>").repartition(3)
    got = spark_chance_state(frame, predictions="system", references="gold", levels=("token", "entity"))
    for level in ("token", "entity"):
        assert got.result(level=level) == chance_f1(predictions, references, level=level)


def test_bad_columns_and_tags_are_named(spark):
    frame = _frame(spark, PREDICTIONS, REFERENCES, 2)
    with pytest.raises(ValueError, match=r"no column 'system' \(predictions=\); its columns are \['doc', 'predictions', 'references'\]"):
        spark_chance_f1(frame, predictions="system")
    with pytest.raises(ValueError, match="has no rows"):
        spark_chance_f1(spark.createDataFrame([], SCHEMA))
    bad = _frame(spark, PREDICTIONS, REFERENCES[:5] + [["B-PER", "O"]], 1)
    with pytest.raises(ValueError, match=r"^a Spark task: the record batch from row \d+ of the stream: sentence \d+: "
                                         r"the prediction has 3 tags but the reference has 2$"):
        spark_chance_f1(bad)
    numbers = spark.createDataFrame([([1, 2], ["O", "O"])], "predictions array<int>, references array<string>")
    with pytest.raises(TypeError, match=r"column 'predictions' \(predictions=\) is list<element: int32>"):
        spark_chance_f1(numbers)


def test_the_docs_block_scores_a_dataframe(spark, conll_systems):
    """docs/howto/scale.md's Spark block, run as written on a DataFrame of a CoNLL-2003 system."""
    import re

    from docs_pages import page, section

    block = re.findall(r"```python\n(.*?)```", section(page("howto/scale.md"), "### Spark: `spark_chance_f1`"),
                       flags=re.S)[0]
    references, systems = conll_systems
    predictions = systems["CflairWglove_lstmCrf_9303"]
    rows = [(index, p, r) for index, (p, r) in enumerate(zip(predictions, references, strict=True))]
    namespace = {"annotations": spark.createDataFrame(rows, "doc_id long, predictions array<string>, "
                                                            "references array<string>").repartition(2)}
    exec(compile(block, "docs/howto/scale.md", "exec"), namespace)
    for level in ("token", "entity"):
        assert namespace["state"].result(level=level) == chance_f1(
            predictions, references, level=level, confidence_level=0.95, resampling="poisson", random_state=0)
