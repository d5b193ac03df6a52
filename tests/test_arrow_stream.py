"""ChanceF1State.from_arrow on real engines (pyarrow, polars, pandas, DuckDB): bit for bit chance_f1."""

from __future__ import annotations

import pytest

from chance_agreement import ChanceF1State, chance_f1

import duckdb  # the test extra installs duckdb and polars; pyarrow comes with datasets
import polars
import pyarrow as pa

PREDICTIONS = [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-ORG", "I-ORG", "O", "B-PER"], [], ["B-LOC", "O"],
               ["O", "O", "B-MISC", "I-MISC", "I-MISC"], ["B-PER", "B-PER", "O"]]
REFERENCES = [["B-PER", "I-PER", "O", "O"], ["O", "B-ORG", "O", "O", "B-PER"], [], ["B-LOC", "I-LOC"],
              ["O", "B-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
OPTIONS = [{}, {"level": "entity"}, {"model": "overlapping", "level": "entity"},
           {"confidence_level": 0.9, "resampling": "poisson", "random_state": 3, "n_resamples": 50}]


def _engines(predictions, references):
    """The same rows as each engine's own object, with several record batches where it allows."""
    table = pa.table({"predictions": predictions, "references": references})
    frame = polars.DataFrame({"predictions": predictions, "references": references})
    connection = duckdb.connect()
    connection.register("sentences", table)
    relation = connection.sql("select predictions, \"references\" from sentences")
    return {
        "pyarrow table": table,
        "pyarrow reader, one row per batch": table.to_reader(max_chunksize=1),
        "polars": frame,
        "polars, string views in chunks": polars.concat([frame[:2], frame[2:]], rechunk=False),
        "pandas": table.to_pandas(),
        "duckdb": relation,
    }


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_every_engine_gives_chance_f1_bit_for_bit(options):
    expected = chance_f1(PREDICTIONS, REFERENCES, **options)
    for name, source in _engines(PREDICTIONS, REFERENCES).items():
        state = ChanceF1State.from_arrow(source, **options)
        assert state.sentences == len(REFERENCES), name
        assert state.result() == expected, name
        assert "overall_corrected_f1_ci" in expected or "confidence_level" not in options


def test_one_pass_keeps_both_levels():
    state = ChanceF1State.from_arrow(_engines(PREDICTIONS, REFERENCES)["duckdb"], levels=("token", "entity"))
    for level in ("token", "entity"):
        assert state.result(level=level) == chance_f1(PREDICTIONS, REFERENCES, level=level)


def test_a_batch_of_empty_sentences_counts_them():
    """A record batch whose sentences are all empty adds nothing to score but counts its sentences
    (the state refused it as empty input)."""
    table = pa.table({"predictions": PREDICTIONS, "references": REFERENCES})
    state = ChanceF1State.from_arrow(table.to_reader(max_chunksize=1))  # row 2 is a batch of its own
    assert state.sentences == 6
    assert state.result() == chance_f1(PREDICTIONS, REFERENCES)
    with pytest.raises(ValueError, match="every sentence added has zero tokens"):
        ChanceF1State().update([[], []], [[], []]).result()


def test_conll_systems_through_duckdb_and_polars_in_batches(conll_systems):
    references, systems = conll_systems
    predictions = systems["CflairWglove_lstmCrf_9303"]
    expected = chance_f1(predictions, references, level="entity")
    table = pa.table({"system": predictions, "gold": references})
    connection = duckdb.connect()
    connection.register("conll", table)
    relation = connection.sql("select system, gold from conll")
    assert ChanceF1State.from_arrow(relation, predictions="system", references="gold", level="entity").result() == expected
    frame = polars.from_arrow(table)
    reader = frame.to_arrow().to_reader(max_chunksize=257)  # batches that cut through the corpus
    assert ChanceF1State.from_arrow(reader, predictions="system", references="gold", level="entity").result() == expected


def test_document_ids_from_a_column_choose_the_bootstrap_keys():
    options = {"confidence_level": 0.9, "resampling": "poisson", "random_state": 5, "n_resamples": 40}
    ids = ["d1", "d1", "d2", "d3", "d3", "d4"]
    table = pa.table({"predictions": PREDICTIONS, "references": REFERENCES, "doc": ids})
    expected = ChanceF1State(**options).update(PREDICTIONS, REFERENCES, document_ids=ids).result()
    got = ChanceF1State.from_arrow(table.to_reader(max_chunksize=4), document_ids="doc", **options).result()
    assert got == expected
    positional = ChanceF1State.from_arrow(table, **options).result()
    assert positional["overall_corrected_f1_ci"] != got["overall_corrected_f1_ci"]


def test_a_missing_column_names_the_columns_there_are():
    table = pa.table({"pred": PREDICTIONS, "references": REFERENCES})
    with pytest.raises(ValueError, match=r"no column 'predictions' \(predictions=\); its columns are \['pred', 'references'\]"):
        ChanceF1State.from_arrow(table)
    with pytest.raises(ValueError, match=r"no column 'doc' \(document_ids=\)"):
        ChanceF1State.from_arrow(table, predictions="pred", document_ids="doc", confidence_level=0.9, resampling="poisson")


def test_a_mistyped_column_names_its_arrow_type():
    table = pa.table({"predictions": [" ".join(s) for s in PREDICTIONS], "references": REFERENCES})
    with pytest.raises(TypeError, match=r"column 'predictions' \(predictions=\) is string; expected one list of string"):
        ChanceF1State.from_arrow(table)
    numbers = pa.table({"predictions": [[1, 2]], "references": [["O", "O"]]})
    with pytest.raises(TypeError, match=r"is list<item: int64>"):
        ChanceF1State.from_arrow(numbers)


def test_nulls_name_their_row_and_position():
    rows = PREDICTIONS[:3] + [None] + PREDICTIONS[4:]
    table = pa.table({"predictions": rows, "references": REFERENCES})
    with pytest.raises(ValueError, match=r"column 'predictions', row 3: null"):
        ChanceF1State.from_arrow(table.to_reader(max_chunksize=2))
    table = pa.table({"predictions": PREDICTIONS, "references": REFERENCES[:4] + [["O", None, "O", "O", "O"]] + REFERENCES[5:]})
    with pytest.raises(ValueError, match=r"column 'references', row 4, position 1: null tag"):
        ChanceF1State.from_arrow(table)


def test_bad_tags_name_the_batch_and_the_sentence():
    table = pa.table({"predictions": PREDICTIONS, "references": REFERENCES[:5] + [["B-PER", "O"]]})
    with pytest.raises(ValueError, match=r"the record batch from row 4 of the stream: .*") as caught:
        ChanceF1State.from_arrow(table.to_reader(max_chunksize=2))
    assert "1" in str(caught.value)  # the second sentence of that batch


def test_a_source_that_is_not_a_stream_is_refused():
    with pytest.raises(TypeError, match=r"source must be an Arrow stream .* got list"):
        ChanceF1State.from_arrow([PREDICTIONS, REFERENCES])
