"""The Hub metric cards: front matter, sections, executed examples, documented output keys."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parent.parent
CARDS = REPO / "hub_cards"

SECTIONS = (
    "Metric description",
    "How to use",
    "Inputs",
    "Output values",
    "Examples",
    "Limitations and bias",
    "Citation",
    "Further references",
)

TAGS = [["O", "B-PER", "I-PER", "O", "B-LOC", "O"], ["B-ORG", "I-ORG", "O", "O"]]
TAGS_2 = [["O", "B-PER", "I-PER", "I-PER", "B-LOC", "O"], ["B-ORG", "O", "O", "B-ORG"]]

MARKABLES = [[True, True, True, False, True, False], [True, True, False, True]]
DISTANCE = {"LOC": {"ORG": 0.5, "PER": 1, "O": 1}, "ORG": {"PER": 1, "O": 1}, "PER": {"O": 1}}
ANNOTATIONS = [[TAGS[0], TAGS_2[0], TAGS[0]], [TAGS[1], TAGS_2[1], TAGS_2[1]]]

# card name -> module folder, and representative calls: (configuration or None, keyword arguments)
FOLDERS = {"chance_f1": "chance_f1_metric", "coefficients": "coefficients_metric", "noise": "noise_metric"}
CALLS = {
    "chance_f1": [(None, dict(predictions=TAGS_2, references=TAGS, return_sentence_scores=True)),
                  (None, dict(predictions=TAGS_2, references=TAGS, confidence_level=0.9, n_resamples=50, random_state=0)),
                  ("multi", dict(annotations=ANNOTATIONS))],
    "coefficients": [
        (None, dict(predictions=TAGS_2, references=TAGS, views=["all", "markables", "entities", "grouped"],
                    markables=MARKABLES, distance=DISTANCE)),
        ("multi", dict(annotations=ANNOTATIONS, benchmark_scale="altman")),
        ("multi", dict(annotations=[[1, 2, None], [2, 2, 3], [3, 3, 3]])),
        (None, dict(predictions=TAGS_2, references=TAGS, confidence_level=0.95)),
        ("segmentation", dict(items=[[[1, 0, 0, 1], [1, 0, 1, 0]], [[0, 1], [0, 1], [1, 0]]])),
    ],
    "noise": [
        (None, dict(predictions=TAGS_2, references=TAGS)),
        (None, dict(predictions=TAGS_2, references=TAGS, unit="entity")),
        ("multi", dict(annotations=ANNOTATIONS)),
    ],
}
METRICS = sorted(FOLDERS)


def front_matter(text: str) -> dict:
    match = re.match(r"---\n(.*?)\n---\n", text, re.DOTALL)
    assert match, "the card must start with a YAML block between --- lines"
    return yaml.safe_load(match.group(1))


def sections(text: str) -> dict[str, str]:
    """``## Heading`` -> body (up to the next ``## `` heading), in order of appearance."""
    parts = re.split(r"^## (.+?)\s*$", text, flags=re.MULTILINE)
    return {heading: body for heading, body in zip(parts[1::2], parts[2::2])}


def python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, re.DOTALL)


def doctest_examples(text: str) -> list[tuple[str, str]]:
    parser = doctest.DocTestParser()
    return [(example.source.strip(), example.want.strip()) for example in parser.get_examples(text)]


def run_card_examples(text: str, name: str) -> tuple[doctest.TestResults, str]:
    """Run every ``python`` block of a card as one doctest (blocks share their names, in order)."""
    source = "\n".join(python_blocks(text))
    test = doctest.DocTestParser().get_doctest(source, {}, name, name, 0)
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=report.append)
    return runner.summarize(verbose=False), "".join(report)


def output_keys(value) -> set[str]:
    """Every dict key in a result, nested dicts and lists of dicts included."""
    keys: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            keys.add(str(key))
            keys |= output_keys(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            keys |= output_keys(item)
    return keys


def card_text(name: str) -> str:
    path = CARDS / f"{name}.md"
    assert path.is_file(), f"missing card {path}"
    return path.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def modules():
    """``get(name, config)``: the card's module loaded by local path (cached)."""
    import evaluate

    loaded = {}

    def get(name, config=None):
        if (name, config) not in loaded:
            path = str(REPO / FOLDERS[name])
            loaded[name, config] = evaluate.load(path, config) if config else evaluate.load(path)
        return loaded[name, config]

    return get


@pytest.mark.parametrize("name", METRICS)
def test_front_matter_as_evaluate_cards_have_it(name):
    meta = front_matter(card_text(name))
    for key in ("title", "emoji", "colorFrom", "colorTo", "sdk_version"):
        assert isinstance(meta.get(key), str) and meta[key].strip(), f"{name}: {key} missing"
    assert meta["sdk"] == "gradio"
    assert meta["app_file"] == "app.py"
    assert meta["pinned"] is False
    assert {"evaluate", "metric"} <= set(meta["tags"])
    assert isinstance(meta["description"], str) and len(meta["description"]) > 80


@pytest.mark.parametrize("name", METRICS)
def test_sections_in_order(name):
    headings = list(sections(card_text(name)))
    positions = [headings.index(section) for section in SECTIONS if section in headings]
    missing = [section for section in SECTIONS if section not in headings]
    assert not missing, f"{name}: missing sections {missing}"
    assert positions == sorted(positions), f"{name}: sections out of order: {headings}"
    for section, body in sections(card_text(name)).items():
        if section in SECTIONS:
            assert body.strip(), f"{name}: empty section {section}"


@pytest.mark.parametrize("name", METRICS)
def test_examples_run_and_show_the_values_they_print(name, monkeypatch):
    monkeypatch.chdir(REPO)  # the cards load the module folders by local path
    text = card_text(name)
    results, report = run_card_examples(text, name)
    assert results.attempted >= 5, f"{name}: too few checked examples"
    assert results.failed == 0, report
    examples_section = sections(text)["Examples"]
    shown = [want for _, want in doctest_examples("\n".join(python_blocks(examples_section))) if want]
    assert len(shown) >= 2, f"{name}: the Examples section must show printed values"


def test_the_example_runner_catches_a_wrong_value(monkeypatch):
    monkeypatch.chdir(REPO)
    text = card_text("chance_f1").replace("(0.2111, 0.8189)", "(0.2111, 0.8190)")
    results, report = run_card_examples(text, "tampered")
    assert results.failed == 1
    assert "0.8190" in report


@pytest.mark.parametrize("name", METRICS)
def test_card_examples_are_in_the_module_docstring(name, modules):
    module_examples = doctest_examples(modules(name).info.inputs_description)
    card_examples = doctest_examples("\n".join(python_blocks(card_text(name))))
    assert card_examples
    missing = [source for source, want in card_examples if (source, want) not in module_examples]
    assert not missing, (f"{name}: {len(missing)} card examples missing from the module's inputs_description "
                         f"(chance_agreement.ecosystem.metric_docs holds them), first: {missing[0]!r}")


@pytest.mark.parametrize("name", METRICS)
def test_every_output_key_is_documented(name, modules):
    keys = set()
    for config, kwargs in CALLS[name]:
        keys |= output_keys(modules(name, config).compute(**kwargs))
    assert keys
    documented = sections(card_text(name))["Output values"]
    undocumented = sorted(key for key in keys if f"`{key}`" not in documented)
    assert not undocumented, f"{name}: output keys not in Output values: {undocumented}"


@pytest.mark.parametrize("name", METRICS)
def test_the_committed_cards_are_the_generated_ones(name):
    """hub_cards/ is written from chance_agreement.ecosystem.metric_docs (``python -m
    chance_agreement.ecosystem.metric_docs hub_cards``): a card edited by hand, or a text changed
    without writing the cards again, fails here."""
    from chance_agreement.ecosystem.metric_docs import metric_card

    assert card_text(name) == metric_card(name), (
        f"hub_cards/{name}.md is not what metric_docs generates: run python -m chance_agreement.ecosystem.metric_docs "
        "hub_cards")


@pytest.mark.parametrize("name", METRICS)
def test_the_module_says_what_its_card_says(name, modules):
    """The module's description, citation and inputs description are its card's text: the summary of the
    front matter, the BibTeX entries, and the How to use, Inputs, Output values and Examples sections."""
    info = modules(name).info
    text = card_text(name)
    assert " ".join(info.description.split()) == " ".join(front_matter(text)["description"].split())
    entries = "".join(re.findall(r"```bibtex\n(.*?)```", sections(text)["Citation"], re.DOTALL))
    assert entries and info.citation == entries
    for section in ("Inputs", "Output values"):
        assert sections(text)[section].strip() in info.inputs_description, section
