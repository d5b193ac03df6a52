"""The coefficients_metric evaluate module, loaded by local path, on BIO tags built to give the
prevalence paper's Tables 1, 3, 4 and 5: Table 6 through the metric, plus its other two configs."""

from __future__ import annotations

import json
from pathlib import Path

import evaluate
import numpy as np
import pytest
from test_coefficients import TABLE_7, TABLE_8, assert_printed
from test_contingency import TABLE_1, TABLE_3, TABLE_4, TABLE_5, gene_renaming_corpus

from chance_agreement import as_items, chance_f1, fleiss_kappa, unitizing_alpha
from chance_agreement.reliability.multi_annotator import token_ratings

METRIC = str(Path(__file__).resolve().parent.parent / "coefficients_metric")
VIEWS = ("all", "markables", "entities", "grouped")
DISTANCE = {"Former": {"New": 0.5, "O": 1}, "New": {"O": 1}}  # Table 2, Nothing = "O"

# Table 6, columns as printed; view -> (contingency table, categories, printed values)
TABLE_6 = {
    "all": (TABLE_1, ["Former", "New", "O"], dict(
        observed_agreement="0.99611", bennett_s="0.99417", finn_r="0.99437", scott_pi="0.8012",
        cohen_kappa="0.80121", f_measure="0.74667", slot_error_rate="0.33867")),
    "markables": (TABLE_3, ["Former", "New", "O"], dict(
        observed_agreement="0.93648", bennett_s="0.90472", scott_pi="0.77557", cohen_kappa="0.77571",
        f_measure="0.74667", slot_error_rate="0.33867")),
    "entities": (TABLE_4, ["Former", "New"], dict(
        observed_agreement="0.86956", bennett_s="0.73913", finn_r="0.73913", scott_pi="0.73909",
        cohen_kappa="0.73934", f_measure="0.86957")),
    "grouped": (TABLE_5, ["ENTITY", "O"], dict(
        observed_agreement="0.99722", bennett_s="0.99444", finn_r="0.99444", scott_pi="0.85726",
        cohen_kappa="0.85727", f_measure="0.85867")),
}


@pytest.fixture(scope="module")
def corpus():
    return gene_renaming_corpus()


@pytest.fixture(scope="module")
def report(corpus):
    predictions, references, markables = corpus
    metric = evaluate.load(METRIC)
    return metric.compute(
        predictions=predictions,
        references=references,
        views=VIEWS,
        markables=markables,
        distance=DISTANCE,
        finn_order=["New", "Former", "O"],
    )


@pytest.mark.parametrize("view", VIEWS)
def test_table_6_from_bio_tags_through_the_metric(report, view):
    table, categories, printed = TABLE_6[view]
    result = report[view]
    assert result["contingency"] == {"categories": categories, "table": table}
    for column, value in printed.items():
        assert_printed(result[column], value)


def test_weighted_f_prime_and_ser_through_the_metric(report):
    result = report["all"]
    assert result["weighted_kappa"] == pytest.approx(0.8292, abs=1e-4)
    assert result["krippendorff_alpha"] == pytest.approx(0.8292, abs=1e-4)
    assert_printed(result["f_prime"], "0.80267")
    assert_printed(result["slot_error_rate_full"], "0.395")
    assert_printed(result["finn_r"], "0.9943713")


def test_tables_7_and_8_through_the_metric(report):
    names = {"Former": "Former", "New": "New", "Nothing": "O"}
    probabilities = report["all"]["category_probabilities"]
    for c1, row in TABLE_7.items():
        for c2, printed in row.items():
            assert_printed(probabilities[names[c1]][names[c2]], printed)
    similarity = report["all"]["category_similarity"]
    for (c1, c2), printed in TABLE_8.items():
        assert_printed(similarity[names[c1]][names[c2]], printed)


def test_grouped_view_has_no_distance(report):
    assert report["grouped"]["weighted_kappa"] is None
    assert "does not cover the 'grouped' view" in report["grouped"]["warnings"][0]
    # entities view: the Former-New distance alone is a scaled nominal distance, so kappa_w = kappa
    assert report["entities"]["weighted_kappa"] == pytest.approx(report["entities"]["cohen_kappa"])


def test_unitizing_alphas_and_chance_f1_are_the_core_values(report, corpus):
    predictions, references, _ = corpus
    annotations = [[ref, pred] for ref, pred in zip(references, predictions)]
    for variant in ("u_alpha", "mu_alpha"):
        expected = unitizing_alpha(annotations, variant=variant)
        assert report["unitizing_alpha"][variant]["alpha"] == pytest.approx(expected["alpha"])
        assert set(report["unitizing_alpha"][variant]["per_type"]) == {"Former", "New"}
    core = chance_f1(predictions, references)
    for key in ("overall_observed_f1", "overall_chance_f1", "overall_corrected_f1", "overall_f1"):
        assert report["chance_f1"][key] == pytest.approx(core[key])
    # token-level observed F1 (micro over types) is the paper's F-measure, 2C / (2C + 2S + D + I)
    assert report["chance_f1"]["overall_observed_f1"] == pytest.approx(report["all"]["f_measure"])
    assert 0 < report["chance_f1"]["overall_corrected_f1"] < report["chance_f1"]["overall_observed_f1"]


def test_output_is_plain_json(report):
    text = json.dumps(report, allow_nan=False)
    assert json.loads(text) == report
    assert type(report["all"]["cohen_kappa"]) is float
    assert type(report["all"]["contingency"]["table"][0][0]) is int


def test_default_views_and_small_input():
    metric = evaluate.load(METRIC)
    out = metric.compute(predictions=[["B-PER", "I-PER", "O"]], references=[["B-PER", "O", "O"]])
    assert set(out) == {"all", "unitizing_alpha", "chance_f1"}
    assert out["all"]["contingency"] == {"categories": ["PER", "O"], "table": [[1, 0], [1, 1]]}
    assert out["all"]["observed_agreement"] == pytest.approx(2 / 3)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(views=("all", "tokens")), "unknown views \\['tokens'\\]"),
        (dict(views=("markables",)), "the 'markables' view needs markables="),
        (dict(markables=[[True]]), "markables= is only used by the 'markables' view"),
        (dict(distance={"PER": {"LOC": 1}}), "unknown category 'LOC'"),
        (dict(distance=[[0, 1], [2, 0]]), "not symmetric"),
    ],
)
def test_metric_bad_arguments(kwargs, message):
    metric = evaluate.load(METRIC)
    with pytest.raises(ValueError, match=message):
        metric.compute(predictions=[["B-PER"]], references=[["O"]], **kwargs)


def test_metric_length_mismatch_names_the_sentence():
    metric = evaluate.load(METRIC)
    with pytest.raises(ValueError, match="sentence 1: the prediction has 1 tags but the reference has 2"):
        metric.compute(predictions=[["O"], ["O"]], references=[["O"], ["O", "O"]])


def test_unknown_config():
    with pytest.raises(ValueError, match="unknown configuration 'triples'"):
        evaluate.load(METRIC, "triples")


# -- config "multi" --------------------------------------------------------------------------------


def test_multi_config():
    rng = np.random.default_rng(7)
    types = np.array(["O", "O", "O", "B-PER", "B-LOC"])
    annotations = []
    for _ in range(25):
        truth = rng.choice(types, size=8)
        item = [[t if rng.random() < 0.8 else str(rng.choice(types)) for t in truth] for _ in range(3)]
        annotations.append(item)
    annotations[3][1] = None  # a missing annotator
    metric = evaluate.load(METRIC, "multi")
    out = metric.compute(annotations=annotations)
    ratings, k = token_ratings(as_items(annotations))  # the module took them per sentence
    assert k == 3 and out["n_annotators"] == 3 and out["n_tokens"] == 200
    assert out["fleiss_kappa"] == pytest.approx(fleiss_kappa(ratings))
    assert 0.3 < out["fleiss_kappa"] < 0.95 and 0.3 < out["krippendorff_alpha"] < 0.95
    json.dumps(out, allow_nan=False)


def test_multi_config_against_statsmodels_without_missing():
    from statsmodels.stats.inter_rater import aggregate_raters
    from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss

    annotations = [
        [["B-PER", "I-PER", "O"], ["B-PER", "O", "O"], ["B-LOC", "I-LOC", "O"]],
        [["O", "B-ORG"], ["O", "B-ORG"], ["B-ORG", "I-ORG"]],
    ]
    out = evaluate.load(METRIC, "multi").compute(annotations=annotations)
    ratings = [["PER", "PER", "LOC"], ["PER", "O", "LOC"], ["O", "O", "O"], ["O", "O", "ORG"], ["ORG", "ORG", "ORG"]]
    counts, _ = aggregate_raters(np.array(ratings))
    assert out["fleiss_kappa"] == pytest.approx(sm_fleiss(counts, method="fleiss"), abs=1e-12)


def test_multi_config_bad_item():
    metric = evaluate.load(METRIC, "multi")
    with pytest.raises(ValueError, match=r"multi_rater_report: annotations\[0\]: the annotators' tag sequences have different lengths"):
        metric.compute(annotations=[[["O", "O"], ["O"]]])


# -- config "segmentation" -------------------------------------------------------------------------


def test_segmentation_config_worked_example():
    metric = evaluate.load(METRIC, "segmentation")
    items = [[[1, 0, 2, 0], [0, 1, 0, 2], [2, 0, 1, 0]], [[0, 1, 0, 2, 0], [0, 2, 0, 1, 0]]]
    out = metric.compute(items=items)
    assert_printed(out["alpha"], "0.0353")
    assert_printed(out["within_variance"], "0.841667")
    assert_printed(out["between_variance"], "0.8725")
    d1 = evaluate.load(METRIC, "segmentation").compute(items=items, distance="d1")
    assert d1["alpha"] != out["alpha"]


def test_segmentation_config_inconsistent_lengths():
    metric = evaluate.load(METRIC, "segmentation")
    with pytest.raises(ValueError, match="item 0: inconsistent boundary vector lengths"):
        metric.compute(items=[[[1, 0, 2], [0, 1]]])
