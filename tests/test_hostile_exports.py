"""Issue 38's readers on exports that used to give silent wrong numbers: long first records that
format detection cut short, Label Studio results of other span types and controls, malformed
JSON-MIN regions, region texts that disagree with their offsets, brat texts with a BOM and
doccano offsets in the other unit. Every file is in its tool's real layout, built in ``tmp_path``;
command lines run in a real subprocess."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from chance_agreement import read_annotators
from chance_agreement.spans.readers import detect
from chance_agreement.spans.readers.base import HEAD_BYTES, file_head
from test_errors_and_files import cli, one_error

# a text whose first record is longer than what detection used to look at
LONG = "Ada met Bob . " + " ".join(f"w{i}" for i in range(HEAD_BYTES // 5))


def _write_jsonl(path: Path, *records) -> Path:
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


def _studio_task(task_id: int, text: str, *annotations) -> dict:
    """A Label Studio JSON task in the export's own key order (annotations before data)."""
    return {"id": task_id, "annotations": list(annotations), "file_upload": "t.txt", "drafts": [], "predictions": [],
            "data": {"text": text}, "meta": {}, "created_at": "2024-05-02T10:00:00.000000Z", "inner_id": task_id}


def _region(start: int, end: int, text: str, label: str, *, kind: str = "labels", control: str = "label") -> dict:
    return {"value": {"start": start, "end": end, "text": text, kind: [label]}, "id": f"r{start}",
            "from_name": control, "to_name": "text", "type": kind, "origin": "manual"}


def _annotation(annotation_id: int, person: int, *results) -> dict:
    return {"id": annotation_id, "completed_by": person, "result": list(results), "was_cancelled": False,
            "ground_truth": False, "lead_time": 1.0}


# -- 1a: detection sees the first complete record -------------------------------------------------

@pytest.mark.parametrize("name, records, expected", [
    ("jsonl", [{"text": LONG, "spans": [{"start": 0, "end": 3, "label": "PER"}]}], "jsonl"),
    ("doccano", [{"id": 1, "text": LONG, "label": [[0, 3, "PER"]]}], "doccano"),
    ("prodigy", [{"text": LONG, "spans": [{"start": 0, "end": 3, "label": "PER"}], "answer": "accept",
                  "_input_hash": 1, "_task_hash": 2, "_annotator_id": "ner-alice"}], "prodigy"),
])
def test_a_jsonl_first_record_past_the_head_is_detected_by_its_format(tmp_path, name, records, expected):
    path = _write_jsonl(tmp_path / f"{name}.jsonl", *records)
    assert path.stat().st_size > HEAD_BYTES
    assert detect(path).name == expected


def test_label_studio_exports_with_a_long_first_task_are_detected(tmp_path):
    task = _studio_task(1, LONG, _annotation(11, 1, *[_region(0, 3, "Ada", "PER")] * 3000))
    full = tmp_path / "project.json"
    full.write_text(json.dumps([task], indent=2), encoding="utf-8")
    assert full.read_text(encoding="utf-8").index('"data"') > HEAD_BYTES
    assert detect(full).name == "label-studio"
    minimal = tmp_path / "project-min.json"
    minimal.write_text(json.dumps([{"text": LONG, "id": 1, "label": [{"start": 0, "end": 3, "text": "Ada",
                                                                     "labels": ["PER"]}],
                                    "annotator": 1, "annotation_id": 11}], indent=2), encoding="utf-8")
    assert detect(minimal).name == "label-studio-min"


def test_a_conllu_file_with_a_long_text_comment_is_detected(tmp_path):
    path = tmp_path / "long.conllu"
    path.write_text(f"# sent_id = 1\n# text = {LONG}\nAda B-PER B-PER\nmet O O\nBob B-PER O\n\n", encoding="utf-8")
    assert detect(path).name == "conll"


def test_json_is_never_read_as_columns(tmp_path):
    """A JSON text no JSON reader takes is refused, not scored as whitespace-separated columns."""
    path = tmp_path / "other.jsonl"
    path.write_text(json.dumps({"title": "Ada met Bob", "body": "x y"}) + "\n", encoding="utf-8")
    assert "looks like JSON" in one_error(cli("agreement", path, path))
    bracket = tmp_path / "bracket.conll"  # a bracket token is still a column file
    bracket.write_text("[ O O\nAda B-PER B-PER\n] O O\n\n", encoding="utf-8")
    assert detect(bracket).name == "conll"


def test_two_long_one_record_jsonl_files_are_scored_as_jsonl(tmp_path):
    """The audit's case: two one-record files of 69 kB were scored as CoNLL columns (F1 1.0, exit 0)."""
    a = _write_jsonl(tmp_path / "a.jsonl", {"text": LONG, "spans": [[0, 3, "PER"], [8, 11, "PER"]]})
    b = _write_jsonl(tmp_path / "b.jsonl", {"text": LONG, "spans": [[0, 3, "PER"]]})
    done = cli("agreement", a, b, "--format", "json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["chance_f1"]["entity"]["overall_f1"] == pytest.approx(2 / 3)


# -- 1b: Label Studio regions of other span types and controls ----------------------------------

TEXT = "Ada met Bob in Rome ."


def _studio_file(path: Path, *annotations) -> Path:
    path.write_text(json.dumps([_studio_task(1, TEXT, *annotations)], indent=2), encoding="utf-8")
    return path


def test_label_studio_regions_of_other_span_types_are_counted(tmp_path):
    path = _studio_file(tmp_path / "project.json",
                        _annotation(11, 1, _region(0, 3, "Ada", "PER"), _region(8, 11, "Bob", "PER")),
                        _annotation(12, 2, _region(0, 3, "Ada", "PER"),
                                    _region(8, 11, "Bob", "PER", kind="paragraphlabels", control="para")))
    with pytest.warns(UserWarning, match=r"1 span regions of other types or controls \(paragraphlabels \(1\)\) left out"):
        team = read_annotators([path])
    assert [len(unit.spans) for annotator in team.annotators for unit in annotator.units] == [2, 1]


def test_label_studio_with_no_text_span_is_refused(tmp_path):
    path = _studio_file(tmp_path / "project.json",
                        _annotation(11, 1, _region(0, 3, "Ada", "PER", kind="hypertextlabels")),
                        _annotation(12, 2, _region(0, 3, "Ada", "PER", kind="hypertextlabels")))
    line = one_error(cli("agreement", path))
    assert "project.json: no text span to read" in line and "hypertextlabels (2)" in line


def test_a_second_labels_control_is_chosen_by_its_name(tmp_path):
    """Two labels controls were mixed into one set of types; now --layer chooses one."""
    path = _studio_file(tmp_path / "project.json",
                        _annotation(11, 1, _region(0, 3, "Ada", "PER"), _region(0, 3, "Ada", "POS", control="tone")),
                        _annotation(12, 2, _region(0, 3, "Ada", "PER"), _region(0, 3, "Ada", "NEG", control="tone")))
    line = one_error(cli("agreement", path))
    assert "2 labels controls, label (2), tone (2) regions: choose one with --layer NAME" in line
    with pytest.warns(UserWarning, match=r"2 span regions of other types or controls \(labels control tone \(2\)\)"):
        team = read_annotators([path], layer="label")
    assert {span[2] for annotator in team.annotators for unit in annotator.units for span in unit.spans} == {"PER"}
    done = cli("agreement", path, "--layer", "tone", "--format", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["chance_f1"]["entity"]["overall_f1"] == 0.0
    minimal = tmp_path / "project-min.json"
    minimal.write_text(json.dumps([
        {"text": TEXT, "id": 1, "annotator": person, "annotation_id": 10 + person,
         "label": [{"start": 0, "end": 3, "text": "Ada", "labels": ["PER"]}],
         "tone": [{"start": 0, "end": 3, "text": "Ada", "labels": [tone]}]} for person, tone in ((1, "POS"), (2, "NEG"))]),
        encoding="utf-8")
    assert "choose one with --layer NAME" in one_error(cli("agreement", minimal))
    with pytest.warns(UserWarning, match=r"labels control label \(2\)"):
        team = read_annotators([minimal], layer="tone")
    assert {span[2] for annotator in team.annotators for unit in annotator.units for span in unit.spans} == {"POS", "NEG"}


# -- 1c: a malformed JSON-MIN region is an error, not a reason to drop the annotation's spans ------

@pytest.mark.parametrize("bad", [{"start": 8, "end": 11, "text": "Bob", "label": "PER"},
                                 {"start": 8, "end": None, "text": "Bob", "labels": ["PER"]},
                                 {"end": 11, "text": "Bob", "labels": ["PER"]},
                                 "Bob"])
def test_a_malformed_json_min_region_is_an_error_naming_the_item(tmp_path, bad):
    path = tmp_path / "project-min.json"
    good = {"start": 0, "end": 3, "text": "Ada", "labels": ["PER"]}
    path.write_text(json.dumps([{"text": TEXT, "id": 1, "annotator": 1, "annotation_id": 11, "label": [good, good]},
                                {"text": TEXT, "id": 1, "annotator": 2, "annotation_id": 12, "label": [good, bad]}]),
                    encoding="utf-8")
    line = one_error(cli("agreement", path))
    assert "project-min.json item 2 (task 1, annotation 12): span" in line


# -- 1d: a region's text is checked against the text at its offsets ------------------------------

def test_label_studio_regions_whose_text_is_not_at_their_offsets_are_refused(tmp_path):
    """Shifted offsets were scored on the wrong tokens (corrected F1 -0.25 instead of 1.0)."""
    text = "Ada met Bob in Rome ."
    shifted = _studio_file(tmp_path / "project.json",
                           _annotation(11, 1, _region(0, 3, "Ada", "PER"), _region(8, 11, "Bob", "PER")),
                           _annotation(12, 2, _region(4, 7, "Ada", "PER"), _region(8, 11, "Bob", "PER")))
    line = one_error(cli("agreement", shifted))
    assert "project.json task 1 annotation 12: the annotation says 'Ada' but the text at 4-7 is 'met'" in line
    minimal = tmp_path / "project-min.json"
    minimal.write_text(json.dumps([{"text": text, "id": 1, "annotator": 1, "annotation_id": 11,
                                    "label": [{"start": 15, "end": 19, "text": "Rome", "labels": ["LOC"]}]},
                                   {"text": text, "id": 1, "annotator": 2, "annotation_id": 12,
                                    "label": [{"start": 14, "end": 18, "text": "Rome", "labels": ["LOC"]}]}]),
                       encoding="utf-8")
    assert "the annotation says 'Rome' but the text at 14-18 is ' Rom'" in one_error(cli("agreement", minimal))


def test_a_region_text_that_fits_in_utf16_units_says_so(tmp_path):
    """Two emoji shift UTF-16 offsets by two code points: on token boundaries, on the wrong token."""
    text = "\U0001F600\U0001F600 a b c d"
    path = _studio_file(tmp_path / "project.json", _annotation(11, 1, _region(7, 8, "b", "PER")),
                        _annotation(12, 2, _region(7, 8, "b", "PER")))
    path.write_text(path.read_text(encoding="utf-8").replace(TEXT, text), encoding="utf-8")
    line = one_error(cli("agreement", path))
    assert "the annotation says 'b' but the text at 7-8 is 'c'" in line and "give --offsets utf16" in line
    team = read_annotators([path], offsets="utf16")
    assert [unit.spans for annotator in team.annotators for unit in annotator.units] == [[(3, 4, "PER")]] * 2  # the two emoji are tokens 0 and 1


# -- 1f: a brat text with a byte order mark ------------------------------------------------------

def _brat(folder: Path, text: str, ann: str) -> Path:
    folder.mkdir()
    (folder / "doc.txt").write_text(text, encoding="utf-8")
    (folder / "doc.ann").write_text(ann, encoding="utf-8")
    return folder


def test_a_brat_text_with_a_byte_order_mark_has_no_phantom_token(tmp_path):
    """brat counts the BOM in its offsets; it is no token (it was a phantom first token)."""
    plain = read_annotators([_brat(tmp_path / "plain", "Ada met Bob\nin Rome .\n", "T1\tPER 0 3\tAda\n")])
    marked = read_annotators([_brat(tmp_path / "marked", "\ufeffAda met Bob\nin Rome .\n", "T1\tPER 1 4\tAda\n")])
    assert marked.tokens == plain.tokens == [["Ada", "met", "Bob"], ["in", "Rome", "."]]
    assert [unit.spans for unit in marked.annotators[0].units] == [[(0, 1, "PER")], []]
    covering = _brat(tmp_path / "covering", "\ufeffAda met Bob\n", "T1\tPER 0 4\t\ufeffAda\n")
    assert "covers the byte order mark that starts doc.txt" in one_error(cli("spans", covering, covering))


# -- 1h: doccano offsets where UTF-16 units and code points differ -------------------------------

def test_doccano_warns_once_per_file_when_offsets_could_count_either_unit(tmp_path):
    """Two emoji shift UTF-16 offsets by two code points: both counts land on token boundaries."""
    text = "\U0001F600\U0001F600 a b c d"
    path = _write_jsonl(tmp_path / "admin.jsonl", {"id": 1, "text": text, "label": [[7, 8, "PER"]]},
                        {"id": 2, "text": text, "label": [[9, 10, "PER"]]}, {"id": 3, "text": "a b", "label": []})
    with pytest.warns(UserWarning, match=r"admin.jsonl line 1: the text has characters outside the Basic") as caught:
        read_annotators([path])
    assert len([w for w in caught if "Basic Multilingual Plane" in str(w.message)]) == 1
    clear = _write_jsonl(tmp_path / "clear.jsonl", {"id": 1, "text": "a b", "label": [[0, 1, "PER"]]},
                         {"id": 2, "text": "\U0001F600 ab cd", "label": [[6, 8, "PER"]]},  # code points: 'cd'[1:]
                         {"id": 3, "text": "ab \U0001F600 cd", "label": [[0, 2, "PER"]]})  # before the emoji
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        read_annotators([path], offsets="utf16")
        read_annotators([clear])


# -- 5: clear errors, never an internal error --------------------------------------------------------

def _task_with(**changes) -> dict:
    task = _studio_task(1, TEXT, _annotation(11, 1, _region(0, 3, "Ada", "PER")))
    task.update(changes)
    return task


@pytest.mark.parametrize("task, message", [
    (_task_with(annotations=[5]), "project.json task 1: annotations must be a list of objects, got [5]"),
    (_task_with(annotations=[{"id": 11, "completed_by": 1, "result": ["x"]}]),
     "project.json task 1 annotation 11: the result must be a list of objects, got ['x']"),
    (_task_with(annotations=[{"id": 11, "completed_by": 1, "result": 3}]),
     "project.json task 1 annotation 11: the result must be a list of objects, got 3"),
    (_task_with(id=[1]), "project.json task [1]: the task id [1] is not a number or a string"),
    (_task_with(id={"a": 1}), "project.json task {'a': 1}: the task id {'a': 1} is not a number or a string"),
    (_task_with(data=["Ada"]), "project.json task 1: the task data must be an object with a 'text' field"),
], ids=["annotation-number", "result-item-string", "result-number", "id-list", "id-dict", "data-list"])
def test_malformed_label_studio_tasks_are_clear_errors(tmp_path, task, message):
    path = tmp_path / "project.json"
    path.write_text(json.dumps([task]), encoding="utf-8")
    line = one_error(cli("agreement", path, path))
    assert message in line and "internal error" not in line


def test_null_annotations_and_results_are_none(tmp_path):
    path = tmp_path / "project.json"
    path.write_text(json.dumps([_task_with(annotations=[{"id": 11, "completed_by": 1, "result": None},
                                                        {"id": 12, "completed_by": 2, "result": []}]),
                                {**_task_with(annotations=None), "id": 2}]), encoding="utf-8")
    team = read_annotators([path])
    assert [[unit.spans for unit in annotator.units] for annotator in team.annotators] == [[[]], [[]]]


@pytest.mark.parametrize("name, content", [
    ("project.json", json.dumps([_task_with(annotations=[_annotation(11, 1, _region(0, 3, "Ada", "\ud800"))])],
                                indent=1)),
    ("spans.jsonl", json.dumps({"text": TEXT, "spans": [[0, 3, "PER"]]}) + "\n"
     + json.dumps({"text": TEXT, "spans": [[0, 3, "\udc00X"]]}) + "\n"),
], ids=["label-studio", "jsonl"])
def test_a_label_holding_a_lone_surrogate_names_file_and_line(tmp_path, name, content):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    line = one_error(cli("agreement", path, path))
    number = content.count("\n", 0, content.index("\\ud")) + 1  # the line of the escape
    assert f"{name} line {number}: a string holds \\ud" in line and "half of a UTF-16 surrogate pair" in line


def _cas_text(broken: str) -> str:
    cas = json.loads((Path(__file__).parent / "data" / "formats" / "cas" / "alice.json").read_text(encoding="utf-8"))
    if broken == "type":
        cas["%FEATURE_STRUCTURES"][1]["%TYPE"] = "no.such.Type"
        return json.dumps(cas)
    return json.dumps(cas)[:-1] + ', "deep": ' + "[" * 30000 + "]" * 30000 + "}"


@pytest.mark.parametrize("broken, message", [("type", "TypeNotFoundError"), ("deep", "nested too deeply")])
def test_broken_cas_json_files_are_clear_errors(tmp_path, broken, message):
    pytest.importorskip("cassis")
    path = tmp_path / "alice.json"
    path.write_text(_cas_text(broken), encoding="utf-8")
    line = one_error(cli("agreement", path, path))
    assert "alice.json: not a readable UIMA CAS JSON file" in line and message in line


def test_detection_reads_no_further_into_a_binary_file(tmp_path):
    path = tmp_path / "archive.bin"
    path.write_bytes(b"PK\x03\x04\x00" + b"x" * (4 * HEAD_BYTES))
    assert len(file_head(path)) == HEAD_BYTES
    assert "looks like a binary file" in one_error(cli("agreement", path, path))
