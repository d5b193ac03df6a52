"""The Trainer hook with a real (tiny, untrained) BERT, a local tokenizer and transformers.Trainer."""

from __future__ import annotations

import math

import numpy as np
import pytest

from chance_agreement.chance.corrected_f1 import chance_f1
from conftest import require_torch
from chance_agreement.ecosystem.flat import flatten
from chance_agreement.ecosystem.trainer import compute_metrics_fn, tags_from_predictions

require_torch(module_level=True)

LABELS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG"]

# (words, word-level tags); some words split into several word pieces with the vocabulary below.
SENTENCES = [
    ("anna smithson lives in berlin", "B-PER I-PER O O B-LOC"),
    ("the bank of paris opened", "B-ORG I-ORG I-ORG I-ORG O"),
    ("john met anna in rome", "B-PER O B-PER O B-LOC"),
    ("acme hired john smithson", "B-ORG O B-PER I-PER"),
    ("berlin is far from rome", "B-LOC O O O B-LOC"),
    ("anna works at acme", "B-PER O O B-ORG"),
    ("the river flows", "O O O"),
    ("john smithson visited paris", "B-PER I-PER O B-LOC"),
    ("the bank of rome closed", "B-ORG I-ORG I-ORG I-ORG O"),
    ("anna and john", "B-PER O B-PER"),
    ("new york is big", "B-LOC I-LOC O O"),
    ("acme moved to new york", "B-ORG O O B-LOC I-LOC"),
    ("john lives in paris", "B-PER O O B-LOC"),
    ("the meeting ended", "O O O"),
    ("anna smithson met john", "B-PER I-PER O B-PER"),
    ("rome and berlin", "B-LOC O B-LOC"),
    ("the bank of berlin hired anna", "B-ORG I-ORG I-ORG I-ORG O B-PER"),
    ("john flew to new york", "B-PER O O B-LOC I-LOC"),
    ("acme is in paris", "B-ORG O O B-LOC"),
    ("anna visited rome", "B-PER O B-LOC"),
]

# "smithson" -> smith ##son, "berlin" -> ber ##lin, "acme" -> ac ##me: continuation pieces get -100.
VOCABULARY = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + sorted(
    {"anna", "smith", "##son", "lives", "in", "ber", "##lin", "the", "bank", "of", "paris", "opened", "john",
     "met", "rome", "ac", "##me", "hired", "is", "far", "from", "works", "at", "river", "flows", "visited",
     "closed", "and", "new", "york", "big", "moved", "to", "meeting", "ended", "flew"}
)


@pytest.fixture(scope="module")
def tiny_setup(tmp_path_factory):
    import torch
    from transformers import BertConfig, BertForTokenClassification, BertTokenizerFast

    folder = tmp_path_factory.mktemp("tiny_bert")
    vocab_file = folder / "vocab.txt"
    vocab_file.write_text("\n".join(VOCABULARY) + "\n", encoding="utf-8")
    # from_pretrained on the local folder reads vocab.txt (transformers 5 ignores a vocab_file= argument)
    tokenizer = BertTokenizerFast.from_pretrained(str(folder), do_lower_case=True)
    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=len(VOCABULARY), hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
        intermediate_size=64, max_position_embeddings=64, num_labels=len(LABELS),
        id2label=dict(enumerate(LABELS)), label2id={label: i for i, label in enumerate(LABELS)},
    )
    model = BertForTokenClassification(config)
    return tokenizer, model


def _encode(tokenizer):
    """Tokenised sentences with word labels on each word's first piece, -100 elsewhere."""
    from datasets import Dataset

    words = [text.split() for text, _ in SENTENCES]
    tags = [labels.split() for _, labels in SENTENCES]
    encoding = tokenizer(words, is_split_into_words=True, truncation=True)
    all_labels = []
    for index, word_tags in enumerate(tags):
        previous, row = None, []
        for word_id in encoding.word_ids(index):
            row.append(-100 if word_id is None or word_id == previous else LABELS.index(word_tags[word_id]))
            previous = word_id
        all_labels.append(row)
    assert all(tokenizer.unk_token_id not in ids for ids in encoding["input_ids"]), "vocabulary misses a piece"
    return Dataset.from_dict({**encoding, "labels": all_labels}), tags


def _trainer(tokenizer, model, output_dir, dataset, **extra_args):
    from transformers import DataCollatorForTokenClassification, Trainer, TrainingArguments

    args = TrainingArguments(
        output_dir=str(output_dir), report_to=[], use_cpu=True, per_device_eval_batch_size=8,
        per_device_train_batch_size=20, disable_tqdm=True, seed=0, **extra_args,
    )
    return Trainer(
        model=model, args=args, train_dataset=dataset, eval_dataset=dataset,
        data_collator=DataCollatorForTokenClassification(tokenizer),
        compute_metrics=compute_metrics_fn(LABELS, zero_division=0),
    )


def test_word_pieces_are_masked(tiny_setup):
    tokenizer, _ = tiny_setup
    dataset, tags = _encode(tokenizer)
    # labelled positions = words (the first piece of each); "smithson" etc. add unlabelled pieces
    assert [sum(label != -100 for label in row) for row in dataset["labels"]] == [len(t) for t in tags]
    assert sum(len(ids) for ids in dataset["input_ids"]) > sum(len(t) + 2 for t in tags)


def test_trainer_evaluate_equals_chance_f1_on_argmaxed_tags(tiny_setup, tmp_path):
    import torch
    from transformers import DataCollatorForTokenClassification

    tokenizer, model = tiny_setup
    dataset, tags = _encode(tokenizer)
    metrics = _trainer(tokenizer, model, tmp_path, dataset).evaluate()

    for key in ("eval_corrected_f1", "eval_chance_f1", "eval_observed_f1", "eval_PER_corrected_f1",
                "eval_PER_f1", "eval_PER_number", "eval_precision", "eval_recall", "eval_f1", "eval_accuracy"):
        assert key in metrics, key
        assert type(metrics[key]) is float and math.isfinite(metrics[key]), (key, metrics[key])
    assert metrics["eval_PER_number"] == sum(t.count("B-PER") for t in tags)

    # independently: run the model on the same padded batches, argmax, keep first word pieces
    model.eval()
    collator = DataCollatorForTokenClassification(tokenizer)
    predicted, references = [], []
    for start in range(0, len(dataset), 8):
        batch = collator([dataset[i] for i in range(start, min(start + 8, len(dataset)))])
        with torch.no_grad():
            ids = model(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"],
                        token_type_ids=batch["token_type_ids"]).logits.argmax(-1)
        for row_ids, row_labels in zip(ids.tolist(), batch["labels"].tolist()):
            predicted.append([LABELS[p] for p, gold in zip(row_ids, row_labels) if gold != -100])
            references.append([LABELS[gold] for gold in row_labels if gold != -100])
    assert references == tags
    expected = chance_f1(predicted, references, zero_division=0)
    expected_flat = {f"eval_{key.removeprefix('overall_')}": value for key, value in flatten(expected).items()}
    assert {key: metrics[key] for key in expected_flat} == expected_flat  # exactly, every key
    assert metrics["eval_corrected_f1"] == expected["overall_corrected_f1"]
    assert metrics["eval_chance_f1"] == expected["overall_chance_f1"]
    assert metrics["eval_PER_corrected_f1"] == expected["PER"]["corrected_f1"]


def test_train_one_step_selects_best_model_on_corrected_f1(tiny_setup, tmp_path):
    tokenizer, model = tiny_setup
    dataset, _ = _encode(tokenizer)
    trainer = _trainer(
        tokenizer, model, tmp_path, dataset, num_train_epochs=1, eval_strategy="epoch", save_strategy="epoch",
        load_best_model_at_end=True, metric_for_best_model="corrected_f1", greater_is_better=True,
        save_total_limit=1,
    )
    trainer.train()
    assert trainer.state.global_step == 1
    evaluations = [entry for entry in trainer.state.log_history if "eval_corrected_f1" in entry]
    assert len(evaluations) == 1 and math.isfinite(evaluations[0]["eval_corrected_f1"])
    assert trainer.state.best_metric == evaluations[0]["eval_corrected_f1"]
    assert trainer.state.best_model_checkpoint is not None


def test_hook_accepts_a_tuple_and_drops_ignored_positions():
    labels = np.array([[-100, 1, 2, 0, 3, -100], [-100, 0, 1, -100, -100, -100], [-100] * 6])
    logits = np.full((3, 6, len(LABELS)), -1.0)
    for row, ids in enumerate([[0, 1, 2, 2, 3, 0], [0, 0, 1, 0, 0, 0], [0] * 6]):
        logits[row, np.arange(6), ids] = 1.0
    metrics = compute_metrics_fn(LABELS, zero_division=0)((logits, labels))
    predicted = [["B-PER", "I-PER", "I-PER", "B-LOC"], ["O", "B-PER"]]
    references = [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-PER"]]
    assert tags_from_predictions(logits, labels, LABELS) == (predicted, references)
    expected = {key.removeprefix("overall_"): value for key, value in flatten(chance_f1(predicted, references)).items()}
    assert metrics == expected
    assert all(type(value) is float for value in metrics.values())
    # ids instead of logits (preprocess_logits_for_metrics) give the same
    assert compute_metrics_fn(LABELS, zero_division=0)((logits.argmax(-1), labels)) == metrics


def test_hook_passes_compute_kwargs():
    labels = np.array([[0, 1, 2, 0]])
    ids = np.array([[0, 1, 0, 0]])
    token = compute_metrics_fn(LABELS, zero_division=0)((ids, labels))
    entity = compute_metrics_fn(LABELS, level="entity", zero_division=0)((ids, labels))
    assert token["observed_f1"] == pytest.approx(2 / 3)
    assert entity["observed_f1"] == 0.0


@pytest.mark.parametrize(
    "predictions, labels, message",
    [
        (np.zeros((2, 5, len(LABELS))), np.zeros((2, 4), dtype=int), "do not match"),
        (np.zeros((2, 4, 3)), np.zeros((2, 4), dtype=int), "3 classes but label_list has 7"),
        (np.zeros((1, 3), dtype=int), np.array([[0, 7, -100]]), "id 7 at sequence 0, position 1"),
        (np.array([[0, -5, 0]]), np.array([[0, 1, 0]]), "predicted ids: id -5"),
        (np.zeros((1, 3), dtype=int), np.full((1, 3), -100), "nothing to evaluate"),
        (np.zeros((1, 3), dtype=int), np.zeros(3, dtype=int), "shape (batch, length)"),
    ],
)
def test_hook_rejects_bad_input(predictions, labels, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        compute_metrics_fn(LABELS)((predictions, labels))


def test_hook_rejects_bad_configuration():
    with pytest.raises(ValueError, match="unknown metric 'bleu'"):
        compute_metrics_fn(LABELS, metric="bleu")
    with pytest.raises(ValueError, match="non-empty sequence of tag strings"):
        compute_metrics_fn([0, 1])


@pytest.mark.parametrize("metric", ["coefficients", "noise"])
def test_hook_refuses_options_the_metric_does_not_take_when_built(metric):
    # the docs' own arguments (zero_division=0) with another metric: refused when the function is built,
    # not with a TypeError after the first evaluation loop
    with pytest.raises(ValueError, match=f"the '{metric}' metric takes no option 'zero_division' .*left out of the "
                                         "flat result.*; its options: .*scheme, mode, suffix"):
        compute_metrics_fn(LABELS, zero_division=0, metric=metric)
    with pytest.raises(ValueError, match="takes no option 'references' \\(the hook passes the tags itself\\)"):
        compute_metrics_fn(LABELS, metric=metric, references=[["O"]])


def test_hook_refuses_a_misspelt_option_when_built():
    with pytest.raises(ValueError, match="the 'chance_f1' metric takes no option 'levle' \\(a misspelt option\\?\\); "
                                         "its options: suffix, scheme, mode, .*level"):
        compute_metrics_fn(LABELS, levle="entity")
    ids = np.array([[0, 1, 2, 0, 3]])
    # the options each metric does take still go to it
    assert compute_metrics_fn(LABELS, metric="noise", confidence_level=0.9)((ids, ids))["confidence_level"] == 0.9
    assert compute_metrics_fn(LABELS, zero_division=0, level="entity")((ids, ids))["corrected_f1"] == 1.0


@pytest.mark.parametrize("metric, report", [("coefficients", "agreement_report"), ("noise", "noise_report")])
def test_hook_other_registered_metrics(metric, report):
    import chance_agreement

    labels = np.array([[0, 1, 2, 0, 3], [0, 0, 5, 6, 0]])
    ids = np.array([[0, 1, 0, 0, 3], [0, 0, 5, 6, 6]])
    predicted = [[LABELS[i] for i in row] for row in ids]
    references = [[LABELS[i] for i in row] for row in labels]
    metrics = compute_metrics_fn(LABELS, metric=metric)((ids, labels))
    assert metrics == flatten(getattr(chance_agreement, report)(predicted, references))
    assert metrics and all(type(value) is float for value in metrics.values())
