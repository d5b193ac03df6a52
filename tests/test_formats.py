"""The annotators' own files: every reader of the registry on fixtures written in each tool's
documented export layout (``tests/data/formats``), scored exactly as the same annotation given as
CoNLL columns; each bad file one line naming the file and line or document, through the real
command line; a new reader or sub-command is one file plus one registration line."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
import textwrap
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from chance_agreement import read_annotators
from chance_agreement.reports import commands as command_registry
from chance_agreement.reports.cli import main
from chance_agreement.spans import readers as reader_registry
from chance_agreement.spans.readers import detect, readers
from chance_agreement.spans.readers.base import SkippedRecordsWarning

DATA = Path(__file__).resolve().parent / "data" / "formats"
NAMES = "alice,bob,carol"

# format -> the files holding alice, bob and carol (the annotation of team.conll's three columns)
FIXTURES = {
    "conll": ["team.conll"],
    "conll-u": ["team.conllu"],
    "jsonl": ["jsonl/alice.jsonl", "jsonl/bob.jsonl", "jsonl/carol.jsonl"],
    "brat": ["brat/alice", "brat/bob", "brat/carol"],
    "label-studio": ["label_studio.json"],
    "label-studio-min": ["label_studio_min.json"],
    "doccano": ["doccano/alice.jsonl", "doccano/bob.jsonl", "doccano/carol.jsonl"],
    "prodigy": ["prodigy.jsonl"],
    "webanno-tsv": ["webanno/alice.tsv", "webanno/bob.tsv", "webanno/carol.tsv"],
    "uima-json": ["cas/alice.json", "cas/bob.json", "cas/carol.json"],
    "uima-xmi": ["xmi/alice.xmi", "xmi/bob.xmi", "xmi/carol.xmi"],
}


def files(fmt: str) -> list[str]:
    return [str(DATA / name) for name in FIXTURES[fmt]]


def run_main(*args) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main([str(arg) for arg in args])
    return status, out.getvalue(), err.getvalue()


def run_cli(*args, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "chance_agreement.reports.cli", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd)


def one_line(done: subprocess.CompletedProcess, status: int = 1) -> str:
    assert done.returncode == status, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


def report_json(*paths) -> dict:
    status, out, err = run_main("agreement", *paths, "--format", "json", "--names", NAMES)
    assert status == 0, err
    report = json.loads(out)
    report.pop("sources")
    documents = report.pop("documents", None)  # per document: one per record here, a CoNLL file is one document
    if documents is not None:
        assert len(documents["token"]) >= 2 and set(documents) == {"token", "entity"}
    return report


def spans_json(*paths) -> dict:
    status, out, err = run_main("spans", *paths, "--json", "--names", NAMES)
    assert status == 0, err
    return json.loads(out)


@pytest.mark.parametrize("fmt", sorted(FIXTURES))
def test_detected_by_content_not_by_name(fmt, tmp_path):
    expected = "conll" if fmt == "conll-u" else fmt
    for path in files(fmt):
        assert detect(path).name == expected
    first = Path(files(fmt)[0])
    if first.is_file():  # the same content under a name that says nothing
        renamed = tmp_path / "export.dat"
        shutil.copy(first, renamed)
        if fmt == "uima-xmi":
            shutil.copy(DATA / "xmi" / "TypeSystem.xml", tmp_path / "TypeSystem.xml")
        assert detect(renamed).name == expected


@pytest.mark.parametrize("fmt", sorted(set(FIXTURES) - {"conll"}))
def test_scores_equal_those_of_the_same_annotation_as_conll(fmt):
    """``agreement`` (every section: F1, kappa family, Fleiss/Krippendorff, noise) and ``spans``
    give the CoNLL file's numbers, bit for bit."""
    conll = [str(DATA / "team.conll")]
    assert report_json(*files(fmt)) == report_json(*conll)
    assert spans_json(*files(fmt)) == spans_json(*conll)


def test_annotators_are_named_by_the_ids_in_the_file():
    assert read_annotators(files("label-studio")).names == ["1", "2", "3"]
    assert read_annotators(files("prodigy")).names == ["ner_news-alice", "ner_news-bob", "ner_news-carol"]
    assert read_annotators(files("doccano")).names == ["alice", "bob", "carol"]
    assert read_annotators(files("brat")).names == ["alice", "bob", "carol"]
    assert read_annotators(files("conll")).names == ["team:1", "team:2", "team:3"]
    two = read_annotators([str(DATA / "brat/alice/doc.ann"), str(DATA / "brat/bob/doc.ann")])
    assert two.names == ["alice/doc", "bob/doc"]


def test_any_mix_of_files_in_the_python_api():
    """One Label Studio file with three annotators, a doccano user file and a CoNLL column: five
    annotators, aligned, with the tags each file says."""
    team = read_annotators([*files("label-studio"), str(DATA / "doccano/bob.jsonl"), f"{DATA / 'team.conll'}:3"])
    assert team.names == ["1", "2", "3", "bob", "team:3"]
    tokens, tags = team.flat()
    conll = read_annotators(files("conll"))
    assert tokens == conll.tokens
    reference = conll.flat()[1]
    assert tags == [reference[0], reference[1], reference[2], reference[1], reference[2]]


def test_skipped_records_are_counted_in_a_warning():
    with pytest.warns(SkippedRecordsWarning, match=r"label_studio.json: 1 cancelled \(skipped\) annotations left out"):
        read_annotators(files("label-studio"))
    with pytest.warns(SkippedRecordsWarning, match=r"prodigy.jsonl: 2 records answered 'reject' or 'ignore' left out"):
        read_annotators(files("prodigy"))
    done = run_cli("agreement", *files("prodigy"))
    assert done.returncode == 0
    assert done.stderr.count("2 records answered 'reject' or 'ignore' left out") == 1


def test_tokens_come_from_the_file(tmp_path):
    """Prodigy's own tokens are used even where the built-in tokenizer would split otherwise."""
    record = {"text": "e-mail Ann", "tokens": [{"text": "e-mail", "start": 0, "end": 6, "id": 0, "ws": True},
                                               {"text": "Ann", "start": 7, "end": 10, "id": 1, "ws": False}],
              "spans": [{"start": 0, "end": 6, "token_start": 0, "token_end": 0, "label": "X"}], "answer": "accept",
              "_input_hash": 1, "_annotator_id": "a"}
    path = tmp_path / "db.jsonl"
    path.write_text(json.dumps(record) + "\n" + json.dumps({**record, "_annotator_id": "b"}) + "\n")
    team = read_annotators([path])
    assert team.tokens == [["e-mail", "Ann"]] and team.nested()[0] == [[[(0, 1, "X")]], [[(0, 1, "X")]]]


def test_doccano_offsets_utf16_by_default_and_the_hint(tmp_path):
    """A character outside the BMP: doccano's UTF-16 offsets place 'today' right; read as code
    points the span misses its token and the error says the offsets look like UTF-16."""
    team = read_annotators(files("doccano"))
    assert (8, 9, "DATE") in team.units[0][1].spans and team.units[0][1].tokens[8] == "today"
    done = run_cli("agreement", *files("doccano"), "--offsets", "codepoint")
    line = one_line(done)
    assert "alice.jsonl line 2" in line and "look like utf16 units" in line and "--offsets utf16" in line


def test_grapheme_offsets(tmp_path):
    text = "Cafe\u0301 Ann"  # 'Café' with a combining accent: 5 code points, 4 graphemes
    path = tmp_path / "g.jsonl"
    path.write_text(json.dumps({"id": 1, "text": text, "label": [[5, 8, "PER"]]}) + "\n", encoding="utf-8")
    team = read_annotators([path, path], offsets="grapheme")
    assert team.units[0][0].spans == [(1, 2, "PER")] and team.tokens == [["Cafe\u0301", "Ann"]]


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def _bad_files(tmp: Path) -> list[tuple[list, str]]:
    ls = json.loads((DATA / "label_studio.json").read_text(encoding="utf-8"))
    ls[1]["data"] = {"content": ls[1]["data"]["text"]}
    min_items = json.loads((DATA / "label_studio_min.json").read_text(encoding="utf-8"))
    min_items[1]["annotator"] = 1
    (tmp / "ls.json").write_text(json.dumps(ls))
    (tmp / "min.json").write_text(json.dumps(min_items))
    doccano = (DATA / "doccano/bob.jsonl").read_text(encoding="utf-8").replace("[0, 3, \"PER\"]", "[0, 2, \"PER\"]")
    (tmp / "doccano").mkdir()
    (tmp / "doccano/bob.jsonl").write_text(doccano.replace("[0, 12, \"PER\"]", "[0, 10, \"PER\"]"), encoding="utf-8")
    prodigy = (DATA / "prodigy.jsonl").read_text(encoding="utf-8").replace('"token_end": 1', '"token_end": 40', 1)
    (tmp / "prodigy.jsonl").write_text(prodigy, encoding="utf-8")
    tsv = (DATA / "webanno/bob.tsv").read_text(encoding="utf-8").split("\n")
    tsv[6] = "1-2\t4-12\tLovelace"
    (tmp / "bob.tsv").write_text("\n".join(tsv), encoding="utf-8")
    (tmp / "layer.tsv").write_text("\n".join(tsv[:1] + ["#T_SP=webanno.custom.Topic|value"] + tsv[2:6]), encoding="utf-8")
    (tmp / "broken.xmi").write_text("<?xml version='1.0'?><xmi:XMI xmlns:xmi=\"http://www.omg.org/XMI\"><cas:Sofa", "utf-8")
    _write(tmp / "brat/doc.txt", "Ada met Bob\n")
    _write(tmp / "brat/doc.ann", "T1\tPER 0 3\tAda\nT2\tPER 8 12\tBob\n")
    _write(tmp / "table.csv", "token,alice,bob\nAda,B-PER,O\n")
    _write(tmp / "other.jsonl", '{"id": "s1", "text": "Ada Lovelace met Charles Babbage in London.", "spans": []}\n'
                                '{"id": "s9", "text": "IBM hired Grace Hopper.", "spans": []}\n')
    _write(tmp / "tokens.conll", (DATA / "team.conll").read_text(encoding="utf-8").replace("Lovelace", "Byron"))
    _write(tmp / "cross.jsonl", '{"id": 1, "text": "New York City", "spans": [[0, 8, "LOC"], [4, 13, "LOC"]]}\n')
    return [
        ([tmp / "ls.json"], f"{tmp / 'ls.json'} task 2: no 'text' field in the task data"),
        ([tmp / "min.json"], "annotator 1 annotated task 1 twice"),
        ([DATA / "doccano/alice.jsonl", tmp / "doccano/bob.jsonl"], f"{tmp / 'doccano/bob.jsonl'} line 1: span (0, 10, 'PER')"),
        ([tmp / "prodigy.jsonl"], f"{tmp / 'prodigy.jsonl'} line 1: span"),
        ([DATA / "webanno/alice.tsv", tmp / "bob.tsv"], f"{tmp / 'bob.tsv'} line 7: expected 5 tab-separated columns"),
        ([tmp / "layer.tsv", tmp / "layer.tsv"], "no layer 'de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity'"),
        ([tmp / "broken.xmi", tmp / "broken.xmi"], f"{tmp / 'broken.xmi'}: not a readable UIMA CAS XMI file"),
        ([tmp / "brat/doc.ann", tmp / "brat/doc.ann"], f"{tmp / 'brat/doc.ann'} line 2: the annotation says 'Bob' but "
                                                       f"the text at 8-12 is"),
        ([tmp / "table.csv", tmp / "table.csv"], "no reader takes this file: it looks like text whose first line is "
                                                 "'token,alice,bob'; the formats are uima-json, uima-xmi"),
        ([DATA / "jsonl/alice.jsonl", tmp / "other.jsonl"], f"hold different documents: the document s2 "
                                                           f"({DATA / 'jsonl/alice.jsonl'} line 2) is not in"),
        ([*files("label-studio-min"), tmp / "tokens.conll"], "different tokens for the same document"),
        ([tmp / "cross.jsonl", tmp / "cross.jsonl"], f"{tmp / 'cross.jsonl'} line 1: spans (0, 2, 'LOC') and (1, 3, 'LOC') "
                                                     f"of type 'LOC' cross"),
    ]


def test_each_bad_file_is_one_line_naming_file_and_place(tmp_path):
    for paths, message in _bad_files(tmp_path):
        # agreement scores annotators holding different documents on the ones they share (issue 35)
        commands = ("spans",) if "hold different documents" in message else ("agreement", "spans")
        for command in commands:
            line = one_line(run_cli(command, *paths))
            assert line.startswith("chance-agreement: error: ") and message in line, (command, line)


def test_cas_without_cassis_says_how_to_install(tmp_path):
    code = ("import sys; sys.modules['cassis'] = None; from chance_agreement.reports.cli import main; "
            f"sys.exit(main(['agreement', {str(DATA / 'cas/alice.json')!r}, {str(DATA / 'cas/bob.json')!r}]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "needs dkpro-cassis (the package's 'inception' extra): pip install dkpro-cassis" in one_line(done)


def test_layer_and_feature_are_selectable():
    """The TSV and CAS files' ``identifier`` feature holds no label: choosing it is an error naming
    the file; the layer may be named by its last part."""
    team = read_annotators(files("uima-json"), layer="NamedEntity", feature="value")
    assert team.names == ["alice", "bob", "carol"]
    line = one_line(run_cli("agreement", *files("uima-json"), "--feature", "identifier"))
    assert "cas/alice.json characters 0-12: the annotation has no 'identifier' label" in line
    line = one_line(run_cli("agreement", *files("webanno-tsv"), "--layer", "Lemma"))
    assert "no layer 'Lemma' in the header" in line


def test_crossing_spans_skipped_with_a_count_and_listed(tmp_path):
    path = _write(tmp_path / "cross.jsonl", '{"id": 1, "text": "New York City", "spans": [[0, 8, "LOC"], [4, 13, "LOC"]]}\n'
                                            '{"id": 2, "text": "Ada met Bob", "spans": [[0, 3, "PER"]]}\n')
    other = _write(tmp_path / "plain.jsonl", '{"id": 1, "text": "New York City", "spans": [[0, 13, "LOC"]]}\n'
                                             '{"id": 2, "text": "Ada met Bob", "spans": [[8, 11, "PER"]]}\n')
    done = run_cli("agreement", path, other, "--crossing", "skip")
    assert done.returncode == 0, done.stderr
    assert "note: 1 crossing span(s) left out (--crossing skip):" in done.stdout
    assert f"{path} line 1: span (1, 3, 'LOC') 'York City' left out: it and (0, 2, 'LOC') cross" in done.stdout
    page = tmp_path / "report.html"
    done = run_cli("report", path, other, "--crossing", "skip", "-o", page, "--no-intervals")
    assert done.returncode == 0, done.stderr
    assert "span (1, 3, &#x27;LOC&#x27;) &#x27;York City&#x27; left out" in page.read_text(encoding="utf-8")
    done = run_cli("spans", path, other, "--crossing", "skip", "--json")
    assert json.loads(done.stdout)["skipped_spans"] == [f"{path} line 1: span (1, 3, 'LOC') 'York City' left out: "
                                                        f"it and (0, 2, 'LOC') cross"]


def test_overlapping_types_are_scored_per_type(tmp_path):
    """A PER span crossing an ORG span: the unit is scored with each type in its own layer, which
    gives the per-type numbers of scoring each type alone."""
    both = _write(tmp_path / "a.jsonl", '{"id": 1, "text": "Bank of Ada Smith", "spans": [[0, 11, "ORG"], [8, 17, "PER"]]}\n')
    other = _write(tmp_path / "b.jsonl", '{"id": 1, "text": "Bank of Ada Smith", "spans": [[0, 4, "ORG"], [8, 17, "PER"]]}\n')
    team = read_annotators([both, other])
    tokens, tags = team.flat()
    assert team.layered == 1 and tokens == [["Bank", "of", "Ada", "Smith"]] * 2
    assert tags[0] == [["B-ORG", "I-ORG", "I-ORG", "O"], ["O", "O", "B-PER", "I-PER"]]
    from chance_agreement import chance_f1

    result = json.loads(run_cli("agreement", both, other, "--format", "json").stdout)
    per_type = {name: chance_f1([tags[1][i]], [tags[0][i]])[name] for i, name in enumerate(["ORG", "PER"])}
    for name in ("ORG", "PER"):
        assert result["chance_f1"]["token"][name]["corrected_f1"] == per_type[name]["corrected_f1"]
    assert "1 sentence unit(s) hold overlapping spans of different types" in result["reading_notes"][0]
    nested = json.loads(run_cli("spans", both, other, "--json").stdout)
    assert nested["layered_units"] == 1 and nested["PER"]["observed_f1"] == 1.0


def test_cas_fixtures_are_what_cassis_writes():
    sys.path.insert(0, str(DATA))
    try:
        import make_cas
    finally:
        sys.path.remove(str(DATA))
    for path, text in make_cas.files().items():
        assert path.read_text(encoding="utf-8") == text, path


def test_every_reader_is_listed_and_described():
    names = list(readers())
    assert names == ["uima-json", "uima-xmi", "webanno-tsv", "label-studio", "label-studio-min", "prodigy", "doccano",
                     "jsonl", "brat", "conll"]
    done = run_cli("agreement", "--help")
    assert "--input-format" in done.stdout and "label-studio-min" in done.stdout


def test_input_format_forces_a_reader(tmp_path):
    path = _write(tmp_path / "a.jsonl", '{"id": 1, "text": "Ada met Bob", "label": [[0, 3, "PER"]]}\n')
    assert detect(path).name == "doccano"
    assert read_annotators([path, path], input_format="jsonl").names == ["a#1", "a#2"]
    line = one_line(run_cli("agreement", path, path, "--input-format", "webanno-tsv"))
    assert "no layer 'de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity' in the header" in line


# --- a new reader, a new sub-command: one file each plus one registration line ----------------------


TOY_READER = '''
"""A toy format: lines 'token<TAB>label' after a '%TOY' line."""
from chance_agreement.spans.readers.base import Annotator, Reader, Unit


def sniff(head, path):
    return head.startswith(b"%TOY")


def read(path, options):
    rows = [line.split("\\t") for line in path.read_text().split("\\n")[1:] if line]
    spans = [(i, i + 1, label) for i, (_, label) in enumerate(rows) if label != "-"]
    return [Annotator(path.stem, str(path), [Unit([t for t, _ in rows], f"{path} line 2", spans=spans)],
                      named_by_file=True)]


READERS = (Reader("toy", "the toy format", sniff, read),)
'''

TOY_COMMAND = '''
"""chance-agreement count FILE ...: how many annotators the files hold."""
from chance_agreement.reports.command_io import Command, add_input_options, read_options
from chance_agreement.spans.annotators import read_annotators


def arguments(parser):
    parser.add_argument("files", nargs="+")
    add_input_options(parser)


def run(args):
    print(len(read_annotators(args.files, **read_options(args)).names))
    return 0


COMMAND = Command("count", "count the annotators", arguments, run)
'''


def test_a_new_reader_and_a_new_command_are_one_file_and_one_line_each(tmp_path, monkeypatch):
    package = tmp_path / "toy_plugins"
    _write(package / "__init__.py", "")
    _write(package / "toy_reader.py", TOY_READER)  # the one new file of the reader
    _write(package / "count_command.py", TOY_COMMAND)  # the one new file of the command
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(reader_registry, "READER_MODULES", ("toy_plugins.toy_reader", *reader_registry.READER_MODULES))
    monkeypatch.setattr(command_registry, "COMMAND_MODULES", (*command_registry.COMMAND_MODULES,
                                                              "toy_plugins.count_command"))
    toy = _write(tmp_path / "a.toy", "%TOY\nAda\tPER\nmet\t-\n")
    assert detect(toy).name == "toy"
    assert run_main("count", toy, toy) == (0, "2\n", "")
    assert run_main("count", *files("label-studio"))[:2] == (0, "3\n")
    status, out, _ = run_main("agreement", toy, toy, "--format", "json")
    assert status == 0 and json.loads(out)["chance_f1"]["token"]["overall_observed_f1"] == 1.0
