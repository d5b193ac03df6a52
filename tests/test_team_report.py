"""``chance-agreement agreement``: one report on two or more annotators, equal to the API's values."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import pytest

from chance_agreement import (
    chance_f1,
    coefficients,
    contingency,
    multi_annotator_agreement,
    noise_report,
    noise_report_multi,
    by_item,
    team_chance_f1,
)
from chance_agreement.reports.cli import main
from chance_agreement.reports.team_report import (
    SECTIONS,
    Section,
    Table,
    build_report,
    load_annotations,
    render,
)
from chance_agreement.spans.annotators import read_annotators
from chance_agreement.spans.conll import write_conll
from chance_agreement.spans.validation import pair_shared
from test_leaderboard import _unescaped_cells

DATA = Path(__file__).resolve().parent / "data"

TOKENS = [["John", "lives", "in", "New", "York"], ["Acme", "hired", "Mary", "Smith"]]
A = [["B-PER", "O", "O", "B-LOC", "I-LOC"], ["B-ORG", "O", "B-PER", "I-PER"]]
B = [["B-PER", "O", "O", "B-LOC", "O"], ["B-ORG", "O", "B-PER", "O"]]
C = [["B-PER", "O", "B-LOC", "I-LOC", "I-LOC"], ["B-PER", "O", "B-PER", "I-PER"]]


@pytest.fixture
def annotator_files(tmp_path):
    paths = []
    for name, tags in (("ann_a", A), ("ann_b", B), ("ann_c", C)):
        path = tmp_path / f"{name}.conll"
        with path.open("w") as handle:
            write_conll(handle, TOKENS, tags, tags)
        paths.append(str(path))
    return paths


def _section(report, key):
    return next(section for section in report["sections"] if section.key == key)


def test_two_annotators_report_equals_the_api(annotator_files):
    report = build_report(load_annotations(annotator_files[:2]))
    assert report["annotators"] == ["ann_a", "ann_b"] and report["tokens"] == 9
    assert [s.key for s in report["sections"]] == ["chance_f1", "coefficients", "noise"]
    f1 = _section(report, "chance_f1").data
    for level in ("token", "entity"):
        assert f1[level] == chance_f1(B, A, level=level, zero_division=0)
    coefficient_data = _section(report, "coefficients").data
    table, categories = contingency(B, A)
    expected = coefficients(table, categories)
    assert coefficient_data["all"]["cohen_kappa"] == expected["cohen_kappa"]
    assert coefficient_data["all"]["contingency"] == {"categories": categories, "table": table.tolist()}
    noise = _section(report, "noise").data
    assert noise["token"] == noise_report(B, A) and noise["entity"] == noise_report(B, A, unit="entity")


def test_three_annotators_report_pairs_and_several_annotator_coefficients(annotator_files):
    report = build_report(load_annotations(annotator_files))
    assert [s.key for s in report["sections"]] == ["team_chance_f1", "several_annotators", "noise"]
    team = _section(report, "team_chance_f1").data
    tags = {"ann_a": A, "ann_b": B, "ann_c": C}
    for level in ("token", "entity"):
        assert team[level] == team_chance_f1(by_item([A, B, C]), names=list(tags), level=level, zero_division=0)
        for (i, first), (j, second) in combinations(enumerate(tags), 2):
            expected = chance_f1(tags[second], tags[first], level=level, zero_division=0)
            assert team[level]["pairwise_corrected_f1"][i][j] == expected["overall_corrected_f1"]
    items = by_item([A, B, C])
    several = _section(report, "several_annotators").data
    expected = multi_annotator_agreement(items)
    assert several["fleiss_kappa"] == expected["fleiss_kappa"]
    assert several["krippendorff_alpha"] == expected["krippendorff_alpha"]
    counts = dict(zip(several["category_counts"]["categories"], several["category_counts"]["counts"]))
    assert counts["LOC"] == [2, 1, 3] and sum(map(sum, counts.values())) == 27
    assert _section(report, "noise").data["token"] == noise_report_multi(items)


def test_every_format_carries_the_numbers(annotator_files):
    report = build_report(load_annotations(annotator_files[:2]))
    corrected = _section(report, "chance_f1").data["entity"]["overall_corrected_f1"]
    kappa = _section(report, "coefficients").data["all"]["cohen_kappa"]
    text = render(report, "text")
    assert f"{corrected:.4f}" in text and f"{kappa:.4f}" in text and "contingency table, all tokens" in text
    markdown = render(report, "markdown", digits=3)
    assert f"| overall | 4 |" in markdown and f"{corrected:.3f} |" in markdown
    parsed = json.loads(render(report, "json"))
    assert parsed["chance_f1"]["entity"]["overall_corrected_f1"] == corrected
    assert parsed["coefficients"]["all"]["cohen_kappa"] == kappa
    rows = list(csv.DictReader(io.StringIO(render(report, "csv"))))
    cell = next(r for r in rows if r["section"] == "chance_f1" and r["table"] == "entity level"
                and r["row"] == "overall" and r["column"] == "corrected F1")
    assert float(cell["value"]) == corrected
    with pytest.raises(ValueError, match="format"):
        render(report, "html")


def test_one_more_section_is_one_function(annotator_files):
    """How the lead wires in the team-level chance F1: a function appended to SECTIONS."""

    def team_section(annotations, options):
        return Section("team", "Team section", {"annotators": len(annotations.tags)},
                       [Table("size", ["what", "value"], [["annotators", len(annotations.tags)]])])

    report = build_report(load_annotations(annotator_files), sections=[*SECTIONS, team_section])
    assert report["sections"][-1].key == "team"
    assert json.loads(render(report, "json"))["team"] == {"annotators": 3}
    assert "Team section" in render(report, "text") and "## Team section" in render(report, "markdown")


def test_columns_of_one_file_and_the_command(conll_systems, shared_data, tmp_path, capsys):
    derived = shared_data / "conll03_systems" / "derived" / "conll03_test_gold_plus_3_systems.tsv"
    references, systems = conll_systems
    first = list(systems.values())[0]
    assert main(["agreement", f"{derived}:1", f"{derived}:2", "--format", "json"]) == 0
    parsed = json.loads(capsys.readouterr().out)
    expected = chance_f1(first, references, zero_division=0)
    assert parsed["chance_f1"]["token"]["overall_corrected_f1"] == expected["overall_corrected_f1"]
    assert parsed["annotators"] == [f"{derived.stem}:1", f"{derived.stem}:2"]
    whole = load_annotations([str(derived)])  # one file: every tag column is an annotator
    assert whole.names == [f"{derived.stem}:{c}" for c in (1, 2, 3, 4)]
    assert whole.tags[0] == references and whole.tags[1] == first
    out = tmp_path / "report.md"
    done = subprocess.run([sys.executable, "-m", "chance_agreement.reports.cli", "agreement", str(derived),
                           "--format", "markdown", "-o", str(out)], capture_output=True, text=True)
    assert done.returncode == 0 and done.stderr == ""
    assert "## Fleiss' kappa and Krippendorff's alpha (nominal)" in out.read_text()


def test_docs_excerpt_is_what_the_command_prints(shared_data, capsys):
    from docs_pages import page

    text = page("howto/command-line-and-reports.md")
    block = text[text.index("$ chance-agreement agreement conll03"):]
    block = block[:block.index("```")].splitlines()
    command, excerpt = block[0].split()[2:], block[1:]
    derived = shared_data / "conll03_systems" / "derived" / command[1]
    assert main(["agreement", str(derived), *command[2:]]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert len(excerpt) == 5 and all(line in printed for line in excerpt), excerpt


@pytest.mark.parametrize("count", [2, 3])
def test_no_entity_anywhere_gives_documented_values_and_notes(tmp_path, count, capsys):
    paths = []
    for index in range(count):
        path = tmp_path / f"plain{index}.conll"
        path.write_text("a O\nb O\n\nc O\n")
        paths.append(str(path))
    assert main(["agreement", *paths, "--format", "json"]) == 0
    parsed = json.loads(capsys.readouterr().out)
    assert parsed["noise"]["entity"] == {"undefined": "no instances: with unit='entity' at least one annotator "
                                                      "must mark an entity"}
    assert parsed["noise"]["token"]["disagreed"] == 0
    assert any("no instances" in note for note in parsed["notes"]["noise"])
    f1_key = "chance_f1" if count == 2 else "team_chance_f1"
    notes = parsed["notes"][f1_key]
    assert [note.split(":")[0] for note in notes] == ["token level", "entity level"]
    assert all(note.startswith(f"{note.split(':')[0]}: corrected F1 of overall") and note.endswith(
        "is undefined: no entity on either side, so observed and chance F1 are 0/0") for note in notes)
    assert parsed[f1_key]["token"]["overall_observed_f1"] is None  # 0/0, never a number
    if count == 2:
        assert parsed["coefficients"]["all"]["cohen_kappa"] is None
        assert any("cohen_kappa" in note for note in parsed["notes"]["coefficients"])
    assert main(["agreement", *paths]) == 0
    text = capsys.readouterr().out
    assert "note: entity: no instances" in text
    # undefined values read "undefined" in the tables, never "-" or a number (issue 35 item 2)
    assert "overall        0    undefined  undefined     undefined" in text or count == 3
    assert "noise_bound                      1.0000  undefined" in text
    if count == 2:
        assert "cohen_kappa          undefined      undefined" in text


def test_markdown_and_csv_are_safe_with_hostile_names(annotator_files):
    """Issue 24, 5: names with '|' broke the Markdown tables; names starting with '=', '+', '-',
    '@' were written raw into CSV (formula injection when the file is opened in a spreadsheet)."""
    names = ["a|b", "=1+1", "-x"]
    report = build_report(load_annotations(annotator_files, names=names))
    tables, current = [], []
    for line in render(report, "markdown").splitlines() + [""]:
        if line.startswith("|"):
            current.append(_unescaped_cells(line))
        elif current:
            tables, current = tables + [current], []
    assert tables
    for table in tables:
        assert all(len(cells) == len(table[0]) for cells in table)
    assert any(cells[0] == "a|b" for table in tables for cells in table[2:])
    rows = list(csv.reader(io.StringIO(render(report, "csv"))))
    assert rows and all(cell[:1] not in ("=", "+", "-", "@") or cell == "" for row in rows for cell in row
                        if not _is_number(cell))
    assert any(cell == "'=1+1" for row in rows for cell in row)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def test_a_zero_p_estimate_is_a_note_beside_the_least_favourable_bound(tmp_path, capsys):
    """Issue 24, 1f: the agreement report printed noise_bound 0.0000 with nothing said."""
    reference = [["B-PER" if i % 10 == 5 else "O" for i in range(20)] for _ in range(5)]
    other = [["O"] * 20 for _ in range(5)]
    tokens = [[f"w{i}" for i in range(20)] for _ in range(5)]
    path = tmp_path / "pair.conll"
    with path.open("w") as handle:
        write_conll(handle, tokens, reference, other)
    assert main(["agreement", str(path)]) == 0
    captured = capsys.readouterr()
    assert "note: token: footnote 3's estimate of p is 0" in captured.out
    rows = {line.split()[0]: line.split()[1:] for line in captured.out.splitlines() if line.startswith(("p", "noise"))}
    assert rows["p"][0] == "0.0000" and rows["noise_bound"][0] == "0.0000"
    assert rows["p_least_favourable"][0] == "0.5000" and float(rows["noise_bound_least_favourable"][0]) > 0.1
    assert "estimate of p is 0" not in captured.err  # a note in the report, not a stray warning


def test_agreement_shows_progress_on_a_terminal_only(annotator_files):
    """Issue 24, 7: ``agreement`` on 10^6 tokens ran 90 s in silence. On a terminal a bar on
    standard error counts the report's parts; nothing in a pipe or with --quiet; never on stdout."""
    from test_leaderboard import run_on_terminal

    code = "import sys; from chance_agreement.reports.cli import main; sys.exit(main(sys.argv[1:]))"
    command = [sys.executable, "-c", code, "agreement", *annotator_files]
    piped = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert piped.returncode == 0 and piped.stderr == "" and "noise_bound" in piped.stdout
    status, out, seen = run_on_terminal(command)
    assert status == 0 and out.decode() == piped.stdout
    assert b"agreement report" in seen and f"{len(SECTIONS)}/{len(SECTIONS)}".encode() in seen
    status, out, seen = run_on_terminal(command + ["--quiet"])
    assert status == 0 and seen == b"" and out.decode() == piped.stdout


# --- issue 35 item 2: an undefined score is shown as undefined, with the true reason ---------------

HEADLINES = DATA / "undefined" / "headlines.conll"  # both annotators tag each whole short sentence
NO_ROOM = "chance F1 is 1, so 1 - chance is 0 (both annotators cover every token): no room for agreement beyond chance"


def test_an_undefined_corrected_f1_is_undefined_in_every_format(capsys, tmp_path):
    assert main(["agreement", str(HEADLINES), "--format", "json"]) == 0
    parsed = json.loads(capsys.readouterr().out)
    token = parsed["chance_f1"]["token"]
    assert token["overall_observed_f1"] == 1.0 and token["overall_chance_f1"] == 1.0
    assert token["overall_corrected_f1"] is None and token["PER"]["corrected_f1"] is None  # null, not 0.0
    assert parsed["notes"]["chance_f1"] == [f"{level} level: corrected F1 of LOC, PER, overall is undefined: {NO_ROOM}"
                                            for level in ("token", "entity")]
    assert main(["agreement", str(HEADLINES)]) == 0
    text = capsys.readouterr().out
    assert "overall        2       1.0000     1.0000     undefined" in text
    assert f"note: token level: corrected F1 of LOC, PER, overall is undefined: {NO_ROOM}" in text
    assert "reported as 0" not in text
    assert main(["agreement", str(HEADLINES), "--format", "markdown"]) == 0
    assert "| overall | 2 | 1.0000 | 1.0000 | undefined |" in capsys.readouterr().out
    assert main(["agreement", str(HEADLINES), "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert {row["value"] for row in rows if row["row"] == "overall" and row["column"] == "corrected F1"} == {"undefined"}
    page = tmp_path / "report.html"
    assert main(["report", f"{HEADLINES}:1", f"{HEADLINES}:2", "-o", str(page)]) == 0
    html = page.read_text()
    assert 'data-key="summary/overall_corrected_f1" data-value="">undefined</span>' in html
    assert f"undefined: {NO_ROOM}" in html


# --- issue 35 item 1: annotators who did not all annotate every document -----------------------------

PARTIAL = DATA / "partial"


def test_label_studio_with_a_cancelled_annotation_and_a_task_one_annotator_never_got(capsys):
    """Task 2: annotator 3 cancelled; task 3: annotator 2 never got it; task 4: annotator 1 alone."""
    export = PARTIAL / "label_studio.json"
    assert main(["agreement", str(export), "--format", "json"]) == 0
    parsed = json.loads(capsys.readouterr().out)
    notes = parsed["reading_notes"]
    assert notes[0].endswith("Documents per annotator: 1 4, 2 2, 3 2; shared by each pair: 1 and 2 2, 1 and 3 2, "
                             "2 and 3 1")
    assert notes[1:] == ["1 document(s) left out: only one annotator holds them:",
                         f"  {export} task 4 annotation 401 (1 only)"]
    assert parsed["sentences"] == 3
    # each pair is scored on the documents both hold, exactly as the two-annotator chance_f1 there
    team = read_annotators([export], partial=True)
    _, tags = team.flat()
    for level in ("token", "entity"):
        matrix = parsed["team_chance_f1"][level]["pairwise_corrected_f1"]
        for i, j in combinations(range(3), 2):
            first, second = pair_shared(tags[i], tags[j])
            assert matrix[i][j] == chance_f1(second, first, level=level, zero_division=0)["overall_corrected_f1"]
    assert parsed["notes"]["noise"][0] == ("computed on the 1 of 3 sentence units every annotator holds (it needs "
                                           "every annotator on every unit)")
    assert main(["agreement", str(export)]) == 0
    assert "note: partial coverage: not every annotator holds all 4 documents" in capsys.readouterr().out


def test_prodigy_db_out_where_one_annotator_pressed_ignore(capsys):
    assert main(["agreement", str(PARTIAL / "prodigy.jsonl"), "--format", "json"]) == 0
    parsed = json.loads(capsys.readouterr().out)
    assert "Documents per annotator: ner_news-alice 2, ner_news-bob 1, ner_news-carol 2" in parsed["reading_notes"][0]
    assert parsed["coverage"]["per_annotator"] == {"ner_news-alice": 2, "ner_news-bob": 1, "ner_news-carol": 2}
    assert [pair["documents"] for pair in parsed["coverage"]["pairs"]] == [1, 2, 1]
    assert parsed["team_chance_f1"]["token"]["per_annotator"]["ner_news-bob"]["corrected_f1"] is not None


def test_doccano_files_covering_different_documents(capsys):
    alice, bob = PARTIAL / "doccano" / "alice.jsonl", PARTIAL / "doccano" / "bob.jsonl"
    assert main(["agreement", str(alice), str(bob), "--format", "json"]) == 0
    parsed = json.loads(capsys.readouterr().out)
    assert parsed["reading_notes"] == [
        "partial coverage: not every annotator holds all 4 documents (sentence units); each pair is scored on the "
        "documents both hold. Documents per annotator: alice 3, bob 3; shared by each pair: alice and bob 2",
        "2 document(s) left out: only one annotator holds them:", f"  {alice} line 1 (alice only)",
        f"  {bob} line 3 (bob only)"]
    shared = read_annotators([alice, bob], partial=True)
    assert [" ".join(tokens[:2]) for tokens in shared.tokens] == ["IBM hired", "Marie Curie"]  # documents 2 and 3
    _, (first, second) = shared.flat()
    assert parsed["chance_f1"]["token"]["overall_corrected_f1"] == chance_f1(second, first, zero_division=0)[
        "overall_corrected_f1"]


def test_the_html_report_of_a_partial_team_and_a_leaderboard_that_stays_complete(tmp_path, capsys):
    page = tmp_path / "team.html"
    assert main(["report", str(PARTIAL / "label_studio.json"), "-o", str(page), "--gamma-samples", "5"]) == 0
    text = page.read_text()
    assert "partial coverage: not every annotator holds all 4 documents" in text
    assert "on the 1 of 3 sentences every annotator annotated" in text
    capsys.readouterr()
    alice, bob = PARTIAL / "doccano" / "alice.jsonl", PARTIAL / "doccano" / "bob.jsonl"
    assert main(["report", str(alice), str(bob), "--leaderboard", "-o", str(tmp_path / "board.html")]) == 1
    assert "hold different documents" in capsys.readouterr().err  # a system must cover every gold document


def test_f1_shows_an_undefined_corrected_f1_as_undefined(capsys):
    assert main(["f1", str(HEADLINES)]) == 0
    captured = capsys.readouterr()
    assert "overall    1.0000    1.0000    1.0000         2    1.0000    1.0000 undefined" in captured.out
    assert f"note: overall: corrected F1 is undefined: {NO_ROOM}" in captured.out and "set to 0.0" not in captured.err
    assert main(["f1", str(HEADLINES), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["overall_corrected_f1"] is None
    assert main(["f1", str(HEADLINES), "--confidence-level", "0.9", "--n-resamples", "20", "--random-state", "0"]) == 0
    assert "overall observed [1.0000, 1.0000]  chance [1.0000, 1.0000]  corrected undefined" in capsys.readouterr().out


def test_spans_shows_an_undefined_corrected_f1_as_undefined(capsys):
    spans = DATA / "undefined" / "headlines.jsonl"  # the same headlines as span files
    assert main(["spans", str(spans), str(spans)]) == 0
    captured = capsys.readouterr()
    assert "pooled   overall       1.0000    1.0000    1.0000         2    1.0000    1.0000 undefined" in captured.out
    assert f"note: pooled, overall: corrected F1 is undefined: {NO_ROOM}" in captured.out
    assert "set to 0.0" not in captured.err
    assert main(["spans", str(spans), str(spans), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["overall_corrected_f1"] is None
