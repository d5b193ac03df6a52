"""Files close to a format the readers take, in the tools' own layouts (``tests/data/near_miss``):
each gets the closest reader's own complaint, saying what to do, through the real command line,
never "no reader takes this file" nor a leaked exception (issue 35 item 6)."""

from __future__ import annotations

import io
import json
import re
from contextlib import redirect_stderr, redirect_stdout
from fractions import Fraction
from pathlib import Path

import pytest

from chance_agreement.reports.cli import main
from chance_agreement.spans.readers import detect
from chance_agreement.spans.tokenizer import characters, tokenize

DATA = Path(__file__).resolve().parent / "data" / "near_miss"


def error_line(*args) -> str:
    """The single error line of a command that fails with status 1 (no traceback)."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main([str(arg) for arg in args])
    assert status == 1, (status, out.getvalue(), err.getvalue())
    assert "Traceback" not in err.getvalue()
    lines = err.getvalue().strip().splitlines()
    assert len(lines) == 1, err.getvalue()
    return lines[0]


NEAR_MISSES = [
    # file, what its complaint must say (the file, the problem, what to do)
    ("single_task.json", ["one Label Studio task (a JSON object)", "put the tasks into one array",
                          "closest format: label-studio"]),
    ("completions_1.json", ["a Label Studio 0.x completions file", "jq -s . completions/*.json"]),
    ("predictions.json", ["no annotations, only predictions (1", "export again"]),
    ("label_studio_tasks.jsonl", ["Label Studio tasks one per line (JSON Lines)", "jq -s . label_studio_tasks.jsonl"]),
    ("webanno_tsv2.tsv", ["line 1: a WebAnno TSV 1 or 2 file", "export it as 'WebAnno TSV 3.3'"]),
    ("inception_legacy.json", ["INCEpTION's legacy UIMA CAS JSON", "export the documents again as 'UIMA CAS JSON'"]),
    ("header_line.conll", ["line 3: expected 3 columns like the first line, found 4", "closest format: conll"]),
]


@pytest.mark.parametrize(("name", "said"), NEAR_MISSES)
def test_a_near_miss_file_gets_its_closest_readers_complaint(name, said):
    line = error_line("agreement", DATA / name)
    assert str(DATA / name) in line
    assert "no reader takes this file" not in line
    for words in said:
        assert words in line, line


def test_the_legacy_uima_json_forced_as_uima_json_says_so_without_an_attribute_error():
    pytest.importorskip("cassis")
    line = error_line("agreement", DATA / "inception_legacy.json", "--input-format", "uima-json")
    assert "AttributeError" not in line and "legacy UIMA CAS JSON" in line, line


def test_a_json_object_of_no_known_layout_forced_as_uima_json_names_its_keys(tmp_path):
    pytest.importorskip("cassis")
    other = tmp_path / "other.json"
    other.write_text('{"document": "Ada met Bob", "entities": []}\n', encoding="utf-8")
    line = error_line("agreement", other, "--input-format", "uima-json")
    assert "AttributeError" not in line and "no %FEATURE_STRUCTURES" in line and "'document'" in line, line


def test_a_file_no_reader_takes_names_the_formats_recognised_but_not_read(tmp_path):
    prose = tmp_path / "table.csv"
    prose.write_text("token,alice,bob\nAda,B-PER,B-PER\nmet,O,O\n", encoding="utf-8")
    line = error_line("agreement", prose)
    assert "no reader takes this file" in line
    assert "recognised but not read: " in line and "WebAnno TSV 1 and 2" in line
    assert "legacy UIMA CAS JSON" in line and "Label Studio 0.x completions file" in line


def test_near_misses_are_detected_by_the_reader_that_recognises_them():
    assert detect(DATA / "webanno_tsv2.tsv").name == "webanno-tsv"
    assert detect(DATA / "inception_legacy.json").name == "uima-json"
    assert detect(DATA / "completions_1.json").name == "label-studio"
    assert detect(DATA / "predictions.json").name == "label-studio"


# --- INCEpTION layers (issue 35 item 7) ---

def run(*args) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main([str(arg) for arg in args])
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("suffix", ["xmi", "json"])
def test_an_empty_named_entity_layer_beside_a_custom_layer_is_refused_naming_the_custom_layer(suffix):
    pytest.importorskip("cassis")
    folder = DATA / "inception_custom_layer"
    line = error_line("agreement", folder / f"alice.{suffix}", folder / f"bob.{suffix}")
    assert f"alice.{suffix}: the NamedEntity layer holds no annotation" in line
    assert "webanno.custom.Entity (3, features: label)" in line and "--layer" in line, line


def test_the_custom_layer_chosen_is_read():
    pytest.importorskip("cassis")
    folder = DATA / "inception_custom_layer"
    status, out, err = run("agreement", folder / "alice.xmi", folder / "bob.xmi", "--layer", "Entity",
                           "--feature", "label", "--format", "json")
    assert status == 0, err
    # alice: PER PER LOC, bob: PER LOC: two of three entities agree
    assert Fraction(json.loads(out)["chance_f1"]["entity"]["overall_f1"]).limit_denominator(1000) == Fraction(4, 5)


def test_an_xmi_without_its_type_system_says_dkpro_cores_was_used_and_what_it_lacks():
    pytest.importorskip("cassis")
    folder = DATA / "inception_no_typesystem"
    status, out, err = run("agreement", folder / "alice.xmi", folder / "bob.xmi")
    assert status == 1 and "Type with name" not in err and "Traceback" not in err
    assert "read with DKPro Core's type system (no TypeSystem.xml beside the file" in err
    assert "webanno.custom.Entity" in err and "--typesystem" in err, err


# --- texts without word separators, a CAS without tokens (issue 38 item 4) ---

def entity_f1(out: str) -> Fraction:
    return Fraction(json.loads(out)["chance_f1"]["entity"]["overall_f1"]).limit_denominator(1000)


def test_chinese_spans_are_read_per_character_and_scored_not_refused():
    # alice: 艾达 PER, 伦敦 LOC, 巴贝奇 PER; bob: 艾达 PER, 巴贝奇 PER: two of three entities agree
    status, out, err = run("agreement", DATA / "label_studio_chinese.json", "--format", "json")
    assert status == 0, err
    assert json.loads(out)["tokens"] == 11  # one per character, the full stop too
    assert entity_f1(out) == Fraction(4, 5)


def test_thai_says_the_text_has_no_word_separators_and_the_tokenizer_option_reads_it():
    files = [DATA / "thai_alice.jsonl", DATA / "thai_bob.jsonl"]
    line = error_line("agreement", *files)
    assert "thai_alice.jsonl line 1" in line and "no word separators (Thai" in line
    assert "--tokenizer characters" in line and "--widen" not in line, line
    status, out, err = run("agreement", *files, "--tokenizer", "characters", "--format", "json")
    assert status == 0, err
    assert entity_f1(out) == Fraction(2, 3)  # alice: PER, LOC; bob: PER


def test_a_cas_without_tokens_is_tokenized_and_says_so():
    pytest.importorskip("cassis")
    folder = DATA / "inception_no_tokens"
    status, out, err = run("agreement", folder / "alice.json", folder / "bob.json", "--format", "json")
    assert status == 0, err
    assert "alice.json: no Token annotations: tokens from the tokenizer (words" in err
    assert entity_f1(out) == Fraction(4, 5)


@pytest.mark.parametrize("text, expected", [
    ("東京タワーに行った", ["東", "京", "タ", "ワ", "ー", "に", "行", "っ", "た"]),
    ("か\u3099き", ["か\u3099", "き"]),  # a combining sound mark stays with its kana
    ("ｶﾞｽ", ["ｶﾞ", "ｽ"]),  # halfwidth: the voiced sound mark stays too
    ("IBM的中文", ["IBM", "的", "中", "文"]),  # Latin words stay words
])
def test_chinese_and_japanese_characters_are_tokens_of_their_own(text, expected):
    assert [text[a:b] for a, b in tokenize(text)] == expected


def test_the_characters_tokenizer_keeps_grapheme_clusters_whole():
    text = "ก\u0e49า 🇫🇷"  # a Thai tone mark, a flag
    assert [text[a:b] for a, b in characters(text)] == ["ก\u0e49", "า", "🇫🇷"]


# --- the readers' part of "the same options everywhere" (issue 35 item 11) ---

def test_a_three_paragraph_label_studio_task_is_three_sentence_units():
    status, out, err = run("agreement", DATA / "label_studio_paragraphs.json", "--format", "json")
    assert status == 0, err
    assert json.loads(out)["sentences"] == 3 and json.loads(out)["tokens"] == 49


def test_binary_prodigy_ner_teach_records_are_refused_with_what_to_do():
    line = error_line("agreement", DATA / "prodigy_ner_teach.jsonl")
    assert "prodigy_ner_teach.jsonl line 1: a binary ner.teach record" in line
    assert "ner.manual" in line and "ner.silver-to-gold" in line, line


def test_gamma_figures_keep_long_names_apart_with_the_full_name_as_tooltip(tmp_path):
    page = tmp_path / "report.html"
    status, out, err = run("report", DATA / "label_studio_long_names.json", "-o", page, "--gamma-samples", "5")
    assert status == 0, err
    gamma = page.read_text(encoding="utf-8").split('<section id="gamma">', 1)[1].split("</section>", 1)[0]
    labels = re.findall(r'<text x="4" [^>]*><title>([^<]*)</title>([^<]*)</text>', gamma)
    full = ["annotation-team-berlin-clinical-notes-annotator-01@example.org",
            "annotation-team-berlin-clinical-notes-annotator-02@example.org"]
    assert [title for title, _ in labels[:2]] == full
    shown = [text.strip("\u2068\u2069") for _, text in labels[:2]]
    assert shown[0] != shown[1] and all("\u2026" in text and len(text) <= 32 for text in shown), shown
    # the heat map of the pairs labels its rows and columns apart too (they were cut at the end)
    team = page.read_text(encoding="utf-8").split('<section id="annotators">', 1)[1].split("</section>", 1)[0]
    heat = [label for label in re.findall(r'text-anchor="end">([^<]*)</text>', team) if "\u2026" in label]
    assert len(set(heat[:2])) == 2 and all(label.endswith("le.org") for label in heat[:2]), heat
