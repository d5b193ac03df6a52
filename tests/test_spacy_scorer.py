"""The spaCy scorer with a real spaCy pipeline (a blank English model and an entity ruler; a small
NER trained by ``spacy train``), found by name through the ``spacy_scorers`` entry point, run by
``nlp.evaluate``, ``spacy evaluate`` on a saved pipeline and a DocBin, and chosen in a training
config's ``[training.score_weights]``. No model is downloaded."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from chance_agreement import chance_f1
from chance_agreement.ecosystem.spacy_scorer import SCORER_NAME
from conftest import REPO

spacy = pytest.importorskip("spacy", reason="the spaCy scorer's tests need spaCy (in the test extra)")
from spacy.tokens import Doc, DocBin  # noqa: E402
from spacy.training import Example  # noqa: E402

PATTERNS = [  # right, partly right and wrong rules, so the scores are neither 0 nor 1
    {"label": "PER", "pattern": "Peter Blackburn"}, {"label": "ORG", "pattern": "European Commission"},
    {"label": "LOC", "pattern": "Brussels"}, {"label": "LOC", "pattern": "Germany"},
    {"label": "ORG", "pattern": "Bank of England"}, {"label": "LOC", "pattern": "York"},
    {"label": "LOC", "pattern": "Paris"}, {"label": "LOC", "pattern": "United Nations"},
    {"label": "PER", "pattern": "Sony"}, {"label": "ORG", "pattern": "Manchester United"},
    {"label": "PER", "pattern": "Maria"}, {"label": "ORG", "pattern": "Reuters"},
]


def _sentences():
    """(tokens, gold IOB2 tags) of examples/gold.conll."""
    blocks = (REPO / "examples" / "gold.conll").read_text(encoding="utf-8").strip().split("\n\n")
    rows = [[line.split() for line in block.splitlines()] for block in blocks]
    return [([r[0] for r in block], [r[1] for r in block]) for block in rows]


def _pipeline(scorer: dict | None = None):
    nlp = spacy.blank("en")
    config = {"scorer": scorer} if scorer else {}
    nlp.add_pipe("entity_ruler", config=config).add_patterns(PATTERNS)
    return nlp


def _references(nlp) -> list:
    return [Doc(nlp.vocab, words=words, ents=tags) for words, tags in _sentences()]


def _expected(nlp, level: str) -> dict:
    """chance_f1 of the ruler's entities on the gold tokens, as IOB2 tags, against the gold tags (spaCy's
    tokenizer splits "2-1" in three: the scorer aligns its entities back to the gold tokens)."""
    predictions, references = [], []
    for words, tags in _sentences():
        doc = nlp(Doc(nlp.vocab, words=words))
        predictions.append([f"{t.ent_iob_}-{t.ent_type_}" if t.ent_iob_ in "BI" and t.ent_iob_ else "O" for t in doc])
        references.append(tags)
    return chance_f1(predictions, references, level=level, zero_division=0)


def test_the_entry_point_puts_the_scorer_in_spacys_registry():
    code = ("import sys, spacy\n"
            "assert not any(m.startswith('chance_agreement') for m in sys.modules)\n"
            f"make = spacy.registry.scorers.get({SCORER_NAME!r})\n"
            "print(make.__module__)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "chance_agreement.ecosystem.spacy_scorer"


@pytest.mark.parametrize("level", ["token", "entity"])
def test_nlp_evaluate_gives_chance_f1_and_keeps_spacys_own_scores(level):
    nlp = _pipeline({"@scorers": SCORER_NAME, "level": level})
    scores = nlp.evaluate([Example(nlp.make_doc(doc.text), doc) for doc in _references(nlp)])
    expected = _expected(nlp, level)
    assert scores["ents_corrected_f1"] == expected["overall_corrected_f1"]
    assert scores["ents_chance_f1"] == expected["overall_chance_f1"]
    assert scores["ents_observed_f1"] == expected["overall_observed_f1"]
    assert 0 < scores["ents_corrected_f1"] < scores["ents_observed_f1"] < 1
    assert scores["ents_chance_per_type"] == {name: {key: expected[name][key] for key in
                                                     ("observed_f1", "chance_f1", "corrected_f1")}
                                              for name in ("LOC", "ORG", "PER")}
    plain = _pipeline()  # spaCy's own entity_ruler scorer
    own = plain.evaluate([Example(plain.make_doc(doc.text), doc) for doc in _references(plain)])
    assert {key: scores[key] for key in ("ents_p", "ents_r", "ents_f", "ents_per_type")} == \
        {key: own[key] for key in ("ents_p", "ents_r", "ents_f", "ents_per_type")}
    assert scores["ents_f"] != scores["ents_corrected_f1"]


def test_documents_without_entity_annotation_are_skipped_with_a_warning():
    nlp = _pipeline({"@scorers": SCORER_NAME})
    references = _references(nlp)
    unannotated = Doc(nlp.vocab, words=["Paris", "is", "big"])  # no ENT_IOB annotation at all
    examples = [Example(nlp.make_doc(doc.text), doc) for doc in [*references, unannotated]]
    with pytest.warns(UserWarning, match="1 unannotated documents"):
        scores = nlp.evaluate(examples)
    assert scores["ents_corrected_f1"] == _expected(nlp, "token")["overall_corrected_f1"]
    with pytest.raises(ValueError, match="level must be one of"):
        _pipeline({"@scorers": SCORER_NAME, "level": "span"})


def test_spacy_evaluate_on_a_saved_pipeline_and_a_docbin(tmp_path):
    nlp = _pipeline({"@scorers": SCORER_NAME, "level": "entity"})
    nlp.to_disk(tmp_path / "pipeline")
    DocBin(docs=_references(nlp)).to_disk(tmp_path / "dev.spacy")
    expected = _expected(nlp, "entity")
    command = [sys.executable, "-m", "spacy", "evaluate", str(tmp_path / "pipeline"), str(tmp_path / "dev.spacy")]
    done = subprocess.run([*command, "--output", str(tmp_path / "all.json"), "--per-component"],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    scores = json.loads((tmp_path / "all.json").read_text())["entity_ruler"]
    # spaCy writes its JSON with 10 decimals (srsly), hence approx to 1e-10
    assert scores["ents_corrected_f1"] == pytest.approx(expected["overall_corrected_f1"], abs=1e-10)
    assert scores["ents_chance_f1"] == pytest.approx(expected["overall_chance_f1"], abs=1e-10)
    assert scores["ents_chance_per_type"]["LOC"]["corrected_f1"] == pytest.approx(expected["LOC"]["corrected_f1"],
                                                                                  abs=1e-10)
    done = subprocess.run([*command, "--output", str(tmp_path / "plain.json")], capture_output=True, text=True)
    assert done.returncode == 0 and "NER F" in done.stdout, done.stdout + done.stderr
    assert json.loads((tmp_path / "plain.json").read_text())["ents_f"] == scores["ents_f"]


def test_a_training_config_picks_the_best_model_on_the_corrected_f1(tmp_path):
    from spacy.cli.init_config import init_config

    config = init_config(lang="en", pipeline=["ner"], optimize="efficiency")
    config["components"]["ner"]["scorer"] = {"@scorers": SCORER_NAME, "level": "token"}
    config["components"]["tok2vec"]["model"]["embed"]["width"] = 32
    config["components"]["tok2vec"]["model"]["encode"]["width"] = 32
    config["training"]["score_weights"] = {"ents_corrected_f1": 1.0, "ents_f": 0.0, "ents_p": 0.0, "ents_r": 0.0}
    config["training"].update({"max_steps": 40, "eval_frequency": 10, "patience": 0, "seed": 0})
    config.to_disk(tmp_path / "config.cfg")
    nlp = spacy.blank("en")
    DocBin(docs=_references(nlp)).to_disk(tmp_path / "train.spacy")
    done = subprocess.run([sys.executable, "-m", "spacy", "train", str(tmp_path / "config.cfg"), "--output",
                           str(tmp_path / "out"), "--paths.train", str(tmp_path / "train.spacy"), "--paths.dev",
                           str(tmp_path / "train.spacy")], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    table = [line.split() for line in done.stdout.splitlines() if line.strip()[:1].isdigit()]
    assert "ENTS_CORRE" in done.stdout and len(table) == 5  # evaluated at steps 0, 10, ..., 40
    best = tmp_path / "out" / "model-best"
    performance = json.loads((best / "meta.json").read_text())["performance"]
    trained = spacy.load(best)
    scores = trained.evaluate([Example(trained.make_doc(doc.text), doc) for doc in _references(trained)])
    # the weighted score is the corrected F1 alone (spaCy's meta.json keeps 10 decimals)
    assert performance["ents_corrected_f1"] == pytest.approx(scores["ents_corrected_f1"], abs=1e-10)
    best_row = max(table, key=lambda row: float(row[-1]))
    assert float(best_row[-1]) == round(scores["ents_corrected_f1"], 2) > 0
    assert float(best_row[-2]) == round(100 * scores["ents_corrected_f1"], 2)


def test_the_docs_config_names_the_scorer_and_the_weights_the_training_test_uses():
    from thinc.api import Config

    from docs_pages import page

    text = page("howto/evaluate-and-trainer.md")
    section = text[text.index("### spaCy"):]
    text = section[section.index("```ini\n") + 7:section.index("```", section.index("```ini\n") + 7)]
    parents = "[components]\n\n[components.ner]\n\n[training]\n\n"  # the rest of a full config
    config = Config().from_str(parents + text, interpolate=False)
    assert config["components"]["ner"]["scorer"] == {"@scorers": SCORER_NAME, "level": "token",
                                                     "model": "non_overlapping"}
    assert config["training"]["score_weights"] == {"ents_corrected_f1": 1.0, "ents_f": 0.0, "ents_p": 0.0,
                                                   "ents_r": 0.0}
