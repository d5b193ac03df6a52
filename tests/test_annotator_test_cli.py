"""``chance-agreement annotator-test HUMANS... --candidate FILE`` (issue 36): every format
``agreement`` reads, text, JSON and CSV, and the numbers of the Python function."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from chance_agreement import annotator_test, by_item
from chance_agreement.reports.cli import main
from chance_agreement.spans.conll import read_conll
from conftest import REPO
from docs_pages import page, run_code_cells

FORMATS = REPO / "tests" / "data" / "formats"
EXAMPLES = REPO / "examples"
# alice and bob the humans, carol the candidate, in every per-annotator format of tests/data/formats
TEAMS = {
    "conll": ([f"{FORMATS}/team.conllu:2", f"{FORMATS}/team.conllu:3"], f"{FORMATS}/team.conllu:4"),
    **{kind: ([str(FORMATS / kind / f"alice{ext}"), str(FORMATS / kind / f"bob{ext}")],
              str(FORMATS / kind / f"carol{ext}"))
       for kind, ext in (("jsonl", ".jsonl"), ("doccano", ".jsonl"), ("webanno", ".tsv"), ("cas", ".json"),
                         ("xmi", ".xmi"), ("brat", ""))},
}


def run(capsys, *argv) -> str:
    assert main(["annotator-test", *map(str, argv)]) == 0, capsys.readouterr().err
    return capsys.readouterr().out


def numbers(report: dict) -> list:
    """The candidate's result without the names (which differ by format)."""
    (result,) = report["candidates"].values()
    return [result["verdict"], result["mean_advantage"], result["mean_advantage_ci"], result["p_value"],
            sorted(result["advantage"].values()), sorted(result["human_corrected_f1"].values()),
            sorted(result["candidate_corrected_f1"].values())]


def test_every_format_gives_the_same_test(capsys):
    if "xmi" in TEAMS:
        pytest.importorskip("cassis")
    seen = {}
    for kind, (humans, candidate) in TEAMS.items():
        out = run(capsys, *humans, "--candidate", candidate, "--margin", "0.1", "--n-resamples", "50", "--format", "json")
        seen[kind] = numbers(json.loads(out))
    assert all(value == seen["conll"] for value in seen.values()), seen


def test_json_is_the_python_function_on_the_same_tags(capsys):
    humans = [EXAMPLES / "anna.conll", EXAMPLES / "ben.conll", EXAMPLES / "carl.conll"]
    out = run(capsys, *humans, "--candidate", EXAMPLES / "sysA.conll", "--candidate", EXAMPLES / "sysB.conll",
              "--margin", "0.05", "--n-resamples", "200", "--random-state", "4", "--equivalence", "--format", "json")
    report = json.loads(out)
    tags = [read_conll(path)[1] for path in humans]
    systems = {name: read_conll(EXAMPLES / f"{name}.conll", 1, (2,))[2][0] for name in ("sysA", "sysB")}
    expected = annotator_test(by_item(tags), systems, margin=0.05, n_resamples=200, random_state=4, equivalence=True,
                              names=["anna", "ben", "carl"])
    assert report["candidates"] == json.loads(json.dumps(expected))
    assert report["humans"] == ["anna", "ben", "carl"] and report["sentences"] == 8


def test_text_and_csv_show_the_verdict_and_every_human(capsys):
    args = [EXAMPLES / "anna.conll", EXAMPLES / "ben.conll", "--candidate", EXAMPLES / "carl.conll", "--margin", "0.05",
            "--n-resamples", "100"]
    text = run(capsys, *args)
    assert "candidate carl: inconclusive" in text and "90% interval" in text
    assert [line.split()[0] for line in text.splitlines() if line.startswith("  anna") or line.startswith("  ben")] \
        == ["anna", "ben"]
    assert "only 8 sentences to resample" in text
    rows = list(csv.DictReader(io.StringIO(run(capsys, *args, "--format", "csv"))))
    report = json.loads(run(capsys, *args, "--format", "json"))["candidates"]["carl"]
    cells = {(row["human"], row["key"]): row["value"] for row in rows}
    assert cells["all", "verdict"] == report["verdict"]
    assert float(cells["all", "mean_advantage_ci_low"]) == report["mean_advantage_ci"][0]
    assert float(cells["anna", "advantage"]) == report["advantage"]["anna"]


@pytest.mark.parametrize("argv, status, message", [
    (["examples/anna.conll", "--candidate", "examples/sysA.conll", "--margin", "0.05"], 2, "two or more human"),
    (["examples/anna.conll", "examples/ben.conll", "--candidate", "examples/sysA.conll", "--margin", "1"], 2,
     "--margin 1.0 is not below 1"),
    (["examples/anna.conll", "examples/ben.conll", "--margin", "0.05"], 2, "--candidate"),
    (["examples/anna.conll", "examples/ben.conll", "--candidate", "examples/sysA.conll", "--margin", "0.05",
      "--names", "a"], 2, "1 human names for 2 humans"),
    (["tests/data/formats/jsonl/alice.jsonl", "tests/data/formats/jsonl/bob.jsonl", "--candidate",
      "tests/data/formats/label_studio.json", "--margin", "0.05"], 2, "holds 3 annotators"),
])
def test_errors_are_one_line(argv, status, message, capsys, monkeypatch):
    monkeypatch.chdir(REPO)
    assert main(["annotator-test", *argv]) == status
    err = capsys.readouterr().err
    errors = [line for line in err.splitlines() if "error:" in line]
    assert len(errors) == 1 and message in errors[0] and "Traceback" not in err


def test_the_layers_of_a_unit_are_resampled_together(tmp_path, capsys):
    """Spans of two types that share tokens put the unit in two layers (as ``agreement`` does):
    the test resamples the file's units, not the layers."""
    texts = ["Bank of England staff met in London today", "Ada met Bob", "IBM hired Grace Hopper in New York"]
    spans = {"h1": [[[0, 15, "ORG"], [8, 15, "LOC"]], [[0, 3, "PER"]], [[0, 3, "ORG"], [10, 22, "PER"]]],
             "h2": [[[0, 15, "ORG"], [8, 15, "LOC"]], [[0, 3, "PER"], [8, 11, "PER"]], [[0, 3, "ORG"]]],
             "llm": [[[0, 15, "ORG"]], [[0, 3, "PER"], [8, 11, "PER"]], [[0, 3, "ORG"], [26, 34, "LOC"]]]}
    for name, rows in spans.items():
        lines = [json.dumps({"id": str(i), "text": text, "spans": row}) for i, (text, row) in enumerate(zip(texts, rows))]
        (tmp_path / f"{name}.jsonl").write_text("\n".join(lines) + "\n")
    report = json.loads(run(capsys, tmp_path / "h1.jsonl", tmp_path / "h2.jsonl", "--candidate", tmp_path / "llm.jsonl",
                            "--margin", "0.1", "--n-resamples", "50", "--format", "json"))
    result = report["candidates"]["llm"]
    assert report["sentences"] == 4 and result["resampled"] == "documents" and result["units"] == 3


SECTION = page("howto/annotator-test.md")


def conll_documents(shared_data) -> list[int]:
    """The document of each sentence of the CoNLL-2003 test set (its ``-DOCSTART-`` lines)."""
    documents, document, inside = [], -1, False
    text = (shared_data / "conll03_systems" / "gold" / "eng.testb.conll03_test_original.txt").read_text()
    for line in text.splitlines():
        if line.startswith("-DOCSTART-"):
            document += 1
        elif line.strip() and not inside:
            documents.append(document)
        inside = bool(line.strip()) and not line.startswith("-DOCSTART-")
    return documents


def test_the_docs_example_gives_the_verdict_its_page_explains():
    assert run_code_cells(SECTION) == ["('inconclusive', -0.1162, 1)\n"]
    assert "the answer is, rightly, `inconclusive`" in SECTION


def test_the_docs_conll_rows_come_out_of_the_code(conll_systems, shared_data):
    references, systems = conll_systems
    documents = conll_documents(shared_data)
    assert len(documents) == len(references) and len(set(documents)) == 231
    candidates = {name: systems[name] for name in ("CbertWnon_snonMlp_9109", "CnonWrand_lstmCrf_7849")}
    results = annotator_test(by_item([references, systems["CflairWglove_lstmCrf_9303"]]), candidates, margin=0.02,
                             equivalence=True, random_state=0, document_ids=documents, names=["gold", "flair"])
    rows = [line.strip("|").split("|") for line in SECTION.splitlines() if line.startswith("| C")]
    assert [row[0].strip() for row in rows] == list(candidates)
    for name, verdict, mean, interval, rate in ([cell.strip() for cell in row] for row in rows):
        result = results[name]
        low, high = result["mean_advantage_ci"]
        assert [result["verdict"], f"{result['mean_advantage']:.4f}", f"({low:.4f}, {high:.4f})",
                str(result["winning_rate"])] == [verdict, mean, interval, rate]


def test_the_docs_command_prints_what_the_page_shows(capsys, monkeypatch):
    monkeypatch.chdir(REPO)
    (command,) = [line for line in re.findall(r"```bash\n(.*?)```", SECTION, re.S)[0].splitlines() if line]
    shown = re.findall(r"```text\n(.*?)```", SECTION, re.S)[0].splitlines()
    out = run(capsys, *command.split()[2:]).splitlines()
    assert all(line in out for line in shown), (shown, out)


def test_the_html_report_has_the_annotator_test_section(tmp_path, capsys):
    humans = [EXAMPLES / "anna.conll", EXAMPLES / "ben.conll", EXAMPLES / "carl.conll"]
    page = tmp_path / "report.html"
    assert main(["report", *map(str, humans), "--candidate", str(EXAMPLES / "sysB.conll"), "--margin", "0.05",
                 "-o", str(page)]) == 0
    assert capsys.readouterr().out.strip() == str(page)
    report = json.loads(run(capsys, *humans, "--candidate", EXAMPLES / "sysB.conll", "--margin", "0.05",
                            "--format", "json"))["candidates"]["sysB"]
    text = page.read_text(encoding="utf-8")
    section = text[text.index('<section id="annotator-test">'):]
    assert f"<h3><bdi class=\"name\" title=\"sysB\">sysB</bdi>: {report['verdict']}</h3>" in section  # the name isolated
    assert f"Mean advantage {report['mean_advantage']:.4f}" in section
    ben = report["human_corrected_f1"]["ben"]
    assert f'<th><bdi class="name" title="ben">ben</bdi></th><td class="num">{ben:.4f}</td>' in section
    assert main(["report", *map(str, humans), "--candidate", str(EXAMPLES / "sysB.conll"), "-o", str(page)]) == 2
    assert "--candidate needs --margin" in capsys.readouterr().err


# sha256 (first 16 hex digits) of the outputs on main before the humans and candidates were read as
# one AnnotationSet (commit 7bed475): reading them once keeps every output's bits
GOLDEN = {"json": "fe6eba6d9281f44b", "text": "b894392d8c4a4d11", "csv": "c8c405a3830100c7",
          "html": "71f711effe9d7b96"}


def test_the_outputs_keep_the_bits_they_had_before_the_set(tmp_path, capsys):
    import hashlib

    def digest(value) -> str:
        return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:16]

    humans = [EXAMPLES / "anna.conll", EXAMPLES / "ben.conll", EXAMPLES / "carl.conll"]
    out = run(capsys, *humans, "--candidate", EXAMPLES / "sysA.conll", "--candidate", EXAMPLES / "sysB.conll",
              "--margin", "0.05", "--n-resamples", "200", "--random-state", "4", "--equivalence", "--format", "json")
    assert digest(json.loads(out)["candidates"]) == GOLDEN["json"]
    for fmt in ("text", "csv"):
        out = run(capsys, *humans, "--candidate", EXAMPLES / "sysA.conll", "--margin", "0.05", "--format", fmt)
        assert digest(out) == GOLDEN[fmt], fmt
    page = tmp_path / "report.html"
    assert main(["report", *map(str, humans), "--candidate", str(EXAMPLES / "sysB.conll"), "--margin", "0.05",
                 "--no-intervals", "-o", str(page)]) == 0
    text = page.read_text(encoding="utf-8")
    assert digest(text[text.index('<section id="annotator-test">'):]) == GOLDEN["html"]
