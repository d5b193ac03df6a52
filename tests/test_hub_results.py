"""Hub results in both formats, read back with huggingface_hub: Eval Results (``.eval_results/*.yaml``,
one task id per score) and model-index (README.md); written by ``leaderboard --model-cards``. The
corrected score is never filed as plain ``f1``, neither by us nor through Trainer's own model card."""

from __future__ import annotations

import json

import pytest
import yaml
from huggingface_hub import ModelCard, parse_eval_result_entries

from chance_agreement.ecosystem.model_cards import SCORES, eval_result_entries, eval_results_yaml, task_id
from chance_agreement.reports.cli import main
from conftest import REPO, require_torch

EXAMPLES = REPO / "examples"


@pytest.mark.parametrize("level", ["token", "entity"])
def test_leaderboard_writes_both_formats_per_system(tmp_path, level):
    folder = tmp_path / "repos"
    assert main(["leaderboard", str(EXAMPLES / "gold.conll"), str(EXAMPLES / "sysA.conll"),
                 str(EXAMPLES / "sysB.conll"), "--names", "sysA,sysB", "--level", level, "--format", "json",
                 "--output", str(tmp_path / "board.json"), "--model-cards", str(folder),
                 "--dataset", "eriktks/conll2003"]) == 0
    board = json.loads((tmp_path / "board.json").read_text())
    for row in board["systems"]:
        (results,) = (folder / row["system"] / ".eval_results").iterdir()
        assert results.name == f"chance_f1_eriktks__conll2003_{level}.yaml"
        entries = parse_eval_result_entries(yaml.safe_load(results.read_text()))
        assert [entry.task_id for entry in entries] == [f"{score}_{level}" for score in SCORES]
        assert [entry.value for entry in entries] == [row[score] for score in SCORES]
        for entry in entries:
            assert entry.dataset_id == "eriktks/conll2003"
            assert entry.notes.startswith(f"{row['system']}: ") and f"{level} level" in entry.notes
            assert "scheme as seqeval's default chunker" in entry.notes and "non_overlapping" in entry.notes
            assert "test split" in entry.notes
        card = ModelCard.load(folder / row["system"] / "README.md")
        model_index = {result.metric_name: result.metric_value for result in card.data.eval_results}
        assert sorted(model_index.values()) == sorted(row[score] for score in SCORES)
        assert all(result.metric_type != "f1" for result in card.data.eval_results)


def test_entries_are_huggingface_hubs_own_and_name_the_options():
    scores = {"observed_f1": 0.9, "chance_f1": 0.25, "corrected_f1": 0.8667}
    entries = eval_result_entries("my-ner", scores, {"level": "entity", "model": "overlapping", "mode": "strict",
                                                     "scheme": "IOB2"},
                                  dataset_id="tner/wnut2017", dataset_revision="abc123", date="2026-01-02")
    text = eval_results_yaml(entries)
    data = yaml.safe_load(text)
    assert data[0] == {"dataset": {"id": "tner/wnut2017", "task_id": "observed_f1_entity", "revision": "abc123"},
                       "value": 0.9, "date": "2026-01-02", "notes": entries[0].notes}
    assert parse_eval_result_entries(data) == entries
    assert len({entry.task_id for entry in entries}) == 3  # observed, chance and corrected: separate tasks
    assert "scheme IOB2, mode strict" in entries[2].notes and "overlapping" in entries[2].notes
    assert entries[2].task_id == task_id("corrected_f1", "entity") == "corrected_f1_entity"
    with pytest.raises(ValueError, match="no value for"):
        eval_result_entries("x", {"observed_f1": 0.9, "corrected_f1": 0.8}, {}, dataset_id="d")
    # an undefined score (None: corrected F1 with chance F1 1) is left out; NaN is refused (issue 24, 1g)
    assert [entry.task_id for entry in eval_result_entries("x", {**scores, "corrected_f1": None}, {},
                                                           dataset_id="d")] == ["observed_f1_token", "chance_f1_token"]
    with pytest.raises(ValueError, match="not a finite number"):
        eval_result_entries("x", {**scores, "corrected_f1": float("nan")}, {}, dataset_id="d")
    with pytest.raises(ValueError, match="score must be one of"):
        task_id("f1", "token")


def test_trainers_own_model_card_publishes_seqeval_f1_as_f1_never_the_corrected_score(tmp_path):
    require_torch()
    from transformers import DataCollatorForTokenClassification, Trainer, TrainingArguments

    from chance_agreement import compute_metrics_fn
    from test_trainer import LABELS, _encode, tiny_setup as make_tiny  # noqa: F401

    tokenizer, model = make_tiny.__wrapped__(_TmpFactory(tmp_path))
    dataset, _ = _encode(tokenizer)
    args = TrainingArguments(output_dir=str(tmp_path / "out"), report_to=[], use_cpu=True, disable_tqdm=True,
                             per_device_eval_batch_size=4, per_device_train_batch_size=20, batch_eval_metrics=True,
                             num_train_epochs=1, eval_strategy="epoch", save_strategy="no", seed=0, logging_steps=1)
    trainer = Trainer(model=model, args=args, train_dataset=dataset, eval_dataset=dataset,
                      compute_metrics=compute_metrics_fn(LABELS, zero_division=0),
                      data_collator=DataCollatorForTokenClassification(tokenizer))
    trainer.train()  # one step, then the evaluation the model card reports
    (metrics,) = [entry for entry in trainer.state.log_history if "eval_f1" in entry]
    assert metrics["eval_f1"] != metrics["eval_corrected_f1"]
    trainer.create_model_card(model_name="tiny-ner", dataset="toy", dataset_tags="toy", tasks="token-classification")
    card = ModelCard.load(tmp_path / "out" / "README.md")
    published = {result.metric_type: result.metric_value for result in card.data.eval_results}
    assert published["f1"] == metrics["eval_f1"]  # seqeval's entity F1
    assert "corrected_f1" not in published or published["corrected_f1"] == metrics["eval_corrected_f1"]


class _TmpFactory:
    """The ``tmp_path_factory`` interface the tiny-model fixture uses, over one folder."""

    def __init__(self, root):
        self.root = root

    def mktemp(self, name):
        folder = self.root / name
        folder.mkdir()
        return folder


def test_the_docs_show_the_eval_results_the_command_writes(tmp_path):
    import re
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    from docs_pages import page

    text = page("howto/leaderboard-and-hub.md")
    section = text[text.index("### Eval Results and model-index"):]
    command = re.search(r"```bash\n(chance-agreement leaderboard [^\n]*--model-cards hub[^\n]*)\n```", section).group(1)
    shown_path, shown = re.search(r"`(hub/[^`]+\.yaml)`:\n\n```yaml\n(.*?)```", section, flags=re.S).groups()
    shutil.copytree(EXAMPLES, tmp_path / "examples")
    executable = Path(sys.executable).with_name("chance-agreement")
    subprocess.run([str(executable), *command.split()[1:]], cwd=tmp_path, check=True, capture_output=True)
    assert (tmp_path / shown_path).read_text(encoding="utf-8") == shown
