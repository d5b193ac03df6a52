"""The Spaces' page logic without Gradio (the page itself is served and used in Chromium by
.ci/check_space_page.py): pasted text, one file or two annotators' files in; every number of the
library's result out, exactly, or one line naming the problem."""

from __future__ import annotations

import re

import pytest

from chance_agreement import agreement_report, chance_f1, flatten, noise_report
from chance_agreement.ecosystem.space_app import TITLES, build_demo, read_annotations, score
from chance_agreement.spans.conll import read_conll
from conftest import REPO

EXAMPLES = REPO / "examples"


def shown(page: str) -> dict[str, str]:
    return dict(re.findall(r'data-key="([^"]+)" data-value="([^"]+)"', page))


@pytest.mark.parametrize("level, model", [("token", "non_overlapping"), ("entity", "overlapping")])
def test_pasted_columns_show_every_number_of_chance_f1(level, model):
    text = (EXAMPLES / "sysB.conll").read_text(encoding="utf-8")
    _, references, (predictions,) = read_conll(EXAMPLES / "sysB.conll")
    page = shown(score("chance_f1", text, None, level, model))
    expected = flatten(chance_f1(predictions, references, level=level, model=model, zero_division=0))
    assert {key: page[key] for key in expected} == {key: repr(value) for key, value in expected.items()}
    assert page["sentences"] == "8"


def test_two_annotators_files_and_one_file():
    files = [EXAMPLES / "anna.conll", EXAMPLES / "ben.conll"]
    anna, ben = (read_conll(path, 1, (1,))[1] for path in files)
    page = shown(score("coefficients", "", files))
    assert page["all_cohen_kappa"] == repr(agreement_report(ben, anna)["all"]["cohen_kappa"])
    assert not any("category_probabilities" in key for key in page)  # matrices stay out of the table
    one = shown(score("noise", "", [EXAMPLES / "sysA.conll"]))
    _, references, (predictions,) = read_conll(EXAMPLES / "sysA.conll")
    assert one["noise_bound"] == repr(noise_report(predictions, references)["noise_bound"])
    # an upload wins over the text box
    assert shown(score("noise", "x O O\n", [EXAMPLES / "sysA.conll"])) == one


@pytest.mark.parametrize("text, files, message", [
    ("", None, "nothing to score"),
    ("Paris B-LOC B-LOC\nis O\n", None, "pasted text: line 2: expected 3 columns like the first line, found 2"),
    ("Paris B-LOC\n", None, "pasted text: 2 columns: give token, reference and prediction columns"),
    ("", ["anna.conll", "missing.conll"], "No such file or directory"),
    ("", ["anna.conll", "ben.conll", "carl.conll"], "3 files: upload one file"),
])
def test_bad_input_is_one_line_on_the_page(text, files, message):
    page = score("chance_f1", text, [EXAMPLES / name for name in files or []])
    (error,) = re.findall(r'<p class="error" data-key="error">(.*?)</p>', page)
    assert message in error.replace("&#x27;", "'"), error
    assert "Traceback" not in page and "\n" not in error


def test_the_librarys_warnings_show_as_notes():
    page = score("chance_f1", "Paris LOC B-LOC\nis O O\n")
    notes = re.findall(r'<p class="note" data-key="warning">(.*?)</p>', page)
    assert notes and any("LOC" in note and "neither" in note for note in notes), page[:500]


def test_two_files_must_hold_the_same_tokens(tmp_path):
    other = tmp_path / "other.conll"
    other.write_text((EXAMPLES / "ben.conll").read_text().replace("Brussels", "Bruxelles", 1))
    with pytest.raises(ValueError, match="not token-aligned.*other.conll line 8 has 'Bruxelles'"):
        read_annotations("", [EXAMPLES / "anna.conll", other])


def test_every_module_folder_has_its_page_and_unknown_names_are_refused():
    for name, folder in (("chance_f1", "chance_f1_metric"), ("coefficients", "coefficients_metric"),
                         ("noise", "noise_metric")):
        assert name in TITLES
        assert f'build_demo(gr, "{name}")' in (REPO / folder / "app.py").read_text()
    with pytest.raises(ValueError, match="unknown metric 'bleu'"):
        build_demo(None, "bleu")
    assert "unknown metric" in score("bleu", (EXAMPLES / "sysA.conll").read_text())


def test_the_score_endpoint_returns_the_tables_numbers_as_json():
    """The function each Space serves as ``/score`` (and as an MCP tool): typed, documented, the text
    alone a valid call, the same floats as the page's table and the library."""
    import inspect
    import json

    from chance_agreement.ecosystem.space_app import api_function

    text = (EXAMPLES / "sysB.conll").read_text(encoding="utf-8")
    _, references, (predictions,) = read_conll(EXAMPLES / "sysB.conll")
    endpoint = api_function("chance_f1")
    assert endpoint.__name__ == "score_chance_f1" and "Args:" in endpoint.__doc__ and "level:" in endpoint.__doc__
    signature = inspect.signature(endpoint)
    assert [(p.name, p.annotation, p.default) for p in signature.parameters.values()] == [
        ("text", "str", inspect.Parameter.empty), ("level", "str", "token"), ("model", "str", "non_overlapping")]
    out = json.loads(json.dumps(endpoint(text, "entity")))  # JSON all the way
    expected = flatten(chance_f1(predictions, references, level="entity", zero_division=0))
    assert out["scores"] == expected and out["sentences"] == 8 and out["metric"] == "chance_f1"
    assert {key: repr(value) for key, value in out["scores"].items()} == \
        {key: value for key, value in shown(score("chance_f1", text, None, "entity")).items() if key in expected}
    noise = api_function("noise")
    assert list(inspect.signature(noise).parameters) == ["text"]
    assert noise(text)["scores"]["noise_bound"] == noise_report(predictions, references)["noise_bound"]


def test_the_score_endpoint_raises_the_pages_message():
    from chance_agreement.ecosystem.space_app import api_function

    class ClientError(Exception):
        """Stands for gradio.Error: the exception a Space raises so that the client gets the message."""

    with pytest.raises(ClientError, match="pasted text: line 2: expected 3 columns like the first line, found 2"):
        api_function("coefficients", ClientError)("Paris B-LOC B-LOC\nis O\n")
    with pytest.raises(ValueError, match="unknown metric 'bleu'"):
        api_function("bleu")


def test_input_above_the_documented_size_is_refused_before_it_is_read(tmp_path):
    # issue 38 item 3e: any paste was read (0.5 GB of server memory per 10^6 tokens)
    from chance_agreement.ecosystem.space_app import MAX_INPUT

    line = "Paris B-LOC B-LOC\n"
    text = line * (MAX_INPUT // len(line) + 1)
    page = score("chance_f1", text)
    (error,) = re.findall(r'<p class="error" data-key="error">(.*?)</p>', page)
    assert error.startswith(f"pasted text: {len(text):,} characters is more than this Space takes (2,000,000")
    assert "the installed package: chance-agreement f1 FILE" in error
    big = tmp_path / "big.conll"
    big.write_text(text, encoding="utf-8")
    (error,) = re.findall(r'<p class="error" data-key="error">(.*?)</p>', score("noise", "", [big]))
    assert error.startswith(f"big.conll: {len(text):,} bytes is more than this Space takes")
    # just below the limit is scored
    fits = (line + "\n") * (MAX_INPUT // (len(line) + 1))
    assert f'data-value="{MAX_INPUT // (len(line) + 1)}">' in score("chance_f1", fits)
