"""The speed tables of the documentation are the benchmark script's output: ``bench_speed.py --write``
writes them (checked here with stand-in rows, no timing), each under the line that says when, where
and on which code path it was measured, and docs/benchmarks.md includes each one; the README's
figures are read from them."""

from __future__ import annotations

import re
import sys
from itertools import chain
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
TABLES = REPO / "docs" / "_tables"
NAMES = ("chance_core", "coefficients", "long_documents")

sys.path.insert(0, str(REPO / "benchmarks"))
import bench_chance_f1  # noqa: E402
import bench_coefficients  # noqa: E402
import bench_long_documents  # noqa: E402
import bench_speed  # noqa: E402

sys.path.pop(0)


@pytest.mark.parametrize("name", NAMES)
def test_each_table_is_committed_under_its_provenance_and_included(name):
    lines = (TABLES / f"{name}.md").read_text(encoding="utf-8").splitlines()
    assert re.match(r"Measured \d{4}-\d\d-\d\d \d\d:\d\d UTC by `python benchmarks/bench_speed.py --write`: .+, "
                    r"\d+ cores, load average [\d.]+ before and [\d.]+ after; Python [\d.]+, numpy [\d.]+, "
                    r"(compiled kernels|numpy code \(no compiled kernels\))\.$", lines[0]), lines[0]
    assert any(line.startswith("| path |") for line in lines)
    page = (REPO / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    assert f"```{{include}} _tables/{name}.md\n```" in page


def test_the_script_writes_the_tables_the_page_includes(tmp_path, monkeypatch):
    """``main(["--write", DIR])`` with stand-in rows: one file per table, each under its provenance
    line, with the committed tables' column headers."""
    core = [{"path": "chance_f1, token level", "ours_s": 0.01, "peer": "seqeval", "peer_s": 0.1, "goal": 0.1}]
    coefficients = [{"row": "Fleiss' kappa", "ours": 0.01, "peer": 0.1, "peer_name": "statsmodels", "note": ""}]
    long_rows = [{"path": "chance_f1, entity level", "ours_s": 0.5, "peer_s": 1.0, "goal": 0.2}]
    monkeypatch.setattr(bench_chance_f1, "rows", lambda: core)
    monkeypatch.setattr(bench_coefficients, "rows", lambda: coefficients)
    monkeypatch.setattr(bench_long_documents, "rows", lambda repeats, numpy_too=False: long_rows)
    assert bench_speed.main(["--write", str(tmp_path)]) == 0
    for name in NAMES:
        written = (tmp_path / f"{name}.md").read_text(encoding="utf-8").splitlines()
        committed = (TABLES / f"{name}.md").read_text(encoding="utf-8").splitlines()
        assert written[0].startswith("Measured ") and written[1:3] == committed[1:3]
        header = next(line for line in committed if line.startswith("| path |"))
        assert header in written


def test_the_readme_figures_are_the_tables():
    """Every ratio the README's Speed section quotes (``0.123x``) is a ratio of the committed tables."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Speed"):]
    section = section[:section.index("\n## ")]
    quoted = re.findall(r"\b(\d+\.\d+)x\b", section)
    assert quoted
    tables = "\n".join((TABLES / f"{name}.md").read_text(encoding="utf-8") for name in NAMES)
    ratios = set(re.findall(r"\| (\d+\.\d+)x? \|", tables))
    assert set(quoted) <= ratios, set(quoted) - ratios


def test_the_real_documents_row_reads_the_conll_documents(shared_data, conll_systems):
    """``conll_documents``: the CoNLL-2003 test set as its 231 ``-DOCSTART-`` documents, each the
    gold and the first system's tags of its sentences joined in order (the same tokens as the
    sentences), with the figures its docstring gives. The benchmark finds the data as the tests do."""
    assert bench_long_documents.DATA.resolve() == shared_data.resolve()
    predictions, references = bench_long_documents.conll_documents()
    gold, systems = conll_systems
    first = next(iter(systems.values()))
    assert len(references) == len(predictions) == 231
    assert list(map(len, references)) == list(map(len, predictions))
    assert list(chain(*references)) == list(chain(*gold)) and list(chain(*predictions)) == list(chain(*first))
    assert (max(map(len, references)), sum(len(document) >= 256 for document in references)) == (797, 57)
