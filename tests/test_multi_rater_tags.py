"""The several-rater family from m annotators' BIO tags (token and entity items) and from
items-by-annotators arrays, in Python and through coefficients_metric's "multi" configuration."""

from __future__ import annotations

import json

import numpy as np
import pytest

from chance_agreement import agreement_report, multi_annotator_agreement
from chance_agreement.reliability.multi_annotator import token_ratings
from chance_agreement.reliability.multi_rater import multi_rater_agreement
from chance_agreement.reliability.multi_rater_tags import multi_rater_report, tag_ratings
from chance_agreement.noise.annotation_instances import instance_labels
from chance_agreement.spans.tags import spans_from_tags

ANNOTATIONS = [
    [["B-PER", "I-PER", "O", "B-LOC", "O"], ["B-PER", "I-PER", "O", "O", "O"], ["B-PER", "O", "O", "B-LOC", "O"]],
    [["O", "B-ORG", "I-ORG", "O"], ["O", "B-ORG", "I-ORG", "O"], None],
    [["B-LOC", "O", "B-PER"], ["B-ORG", "O", "B-PER"], ["B-LOC", "O", "O"]],
]


def random_annotations(seed, sentences=30, m=4, missing=0.0):
    rng = np.random.default_rng(seed)
    types = np.array(["O", "O", "O", "B-PER", "I-PER", "B-LOC", "B-ORG", "I-ORG"])
    out = []
    for _ in range(sentences):
        truth = rng.choice(types, size=int(rng.integers(3, 12)))
        item = [[t if rng.random() < 0.8 else str(rng.choice(types)) for t in truth] for _ in range(m)]
        for a in range(1, m):
            if rng.random() < missing:
                item[a] = None
        out.append(item)
    return out


def test_token_items_are_token_ratings():
    assert tag_ratings(ANNOTATIONS) == token_ratings(ANNOTATIONS)


def test_entity_items_are_every_proposed_span_and_missing_stays_missing():
    ratings, m = tag_ratings(ANNOTATIONS, unit="entity")
    assert m == 3
    assert ratings == [
        ["O", "O", "PER"], ["PER", "PER", "O"], ["LOC", "O", "LOC"],  # spans (0, 1), (0, 2), (3, 4)
        ["ORG", "ORG", None],                                         # annotator 3 missing
        ["LOC", "ORG", "LOC"], ["PER", "PER", "O"],
    ]
    complete = [item for item in ANNOTATIONS if all(seq is not None for seq in item)]
    spans = [[spans_from_tags(seq) for seq in item] for item in complete]
    expected = [list(row) for row in instance_labels(spans, [len(item[0]) for item in complete], "entity")]
    ours, _ = tag_ratings(complete, unit="entity")
    assert ours == expected


def test_two_annotators_reproduce_the_two_annotator_coefficients():
    annotations = random_annotations(3, m=2)
    first, second = [item[0] for item in annotations], [item[1] for item in annotations]
    table = agreement_report(second, first)["all"]
    family = multi_rater_report(annotations)["multi_rater"]
    assert family["percent_agreement"]["value"] == pytest.approx(table["observed_agreement"], abs=1e-12)
    assert family["brennan_prediger"]["value"] == pytest.approx(table["bennett_s"], abs=1e-12)
    assert family["fleiss_kappa"]["value"] == pytest.approx(table["scott_pi"], abs=1e-12)
    assert family["conger_kappa"]["value"] == pytest.approx(table["cohen_kappa"], abs=1e-12)
    assert family["light_kappa"]["value"] == pytest.approx(table["cohen_kappa"], abs=1e-12)


def test_report_keeps_the_multi_annotator_keys():
    annotations = random_annotations(5, missing=0.3)
    report = multi_rater_report(annotations)
    legacy = multi_annotator_agreement(annotations)
    for key, value in legacy.items():
        assert report[key] == value, key
    assert report["multi_rater"]["fleiss_kappa"]["value"] == pytest.approx(legacy["fleiss_kappa"], abs=1e-12)
    assert report["multi_rater"]["krippendorff_alpha"]["value"] == pytest.approx(legacy["krippendorff_alpha"], abs=1e-12)
    entity = multi_rater_report(annotations, unit="entity", benchmark_scale="altman")
    assert entity["unit"] == "entity" and "n_tokens" not in entity
    assert entity["multi_rater"]["gwet_ac1"]["benchmark"]["scale"] == "altman"


def test_items_by_annotators_arrays(shared_data):
    import csv

    with open(shared_data / "agreement_reference" / "irrCAC_R_package" / "cac.raw4raters.csv") as handle:
        rows = [[int(v) if v else None for v in row[1:]] for row in list(csv.reader(handle))[1:]]
    report = multi_rater_report(rows)
    assert round(report["multi_rater"]["gwet_ac1"]["value"], 5) == 0.77544
    assert report["multi_rater"] == multi_rater_agreement(rows)
    with pytest.raises(ValueError, match="apply to tag sequences"):
        multi_rater_report(rows, unit="entity")


@pytest.fixture(scope="module")
def multi(load_metric):
    return load_metric("coefficients_metric", "multi")


def test_multi_configuration_from_tags(multi):
    annotations = random_annotations(11, missing=0.2)
    for unit in ("token", "entity"):
        out = multi.compute(annotations=annotations, unit=unit, weights="identity")
        expected = json.loads(json.dumps(multi_rater_report(annotations, unit=unit), default=float))
        assert out["multi_rater"]["gwet_ac1"]["value"] == pytest.approx(expected["multi_rater"]["gwet_ac1"]["value"], abs=1e-15)
        assert out["multi_rater"]["conger_kappa"]["standard_error"] == pytest.approx(
            expected["multi_rater"]["conger_kappa"]["standard_error"], abs=1e-15)
        json.dumps(out, allow_nan=False)


def test_multi_configuration_from_rating_arrays(multi, shared_data):
    import csv

    with open(shared_data / "agreement_reference" / "irrCAC_R_package" / "cac.raw4raters.csv") as handle:
        rows = [[int(v) if v else None for v in row[1:]] for row in list(csv.reader(handle))[1:]]
    out = multi.compute(annotations=rows)
    assert round(out["multi_rater"]["gwet_ac1"]["value"], 5) == 0.77544
    assert round(out["multi_rater"]["conger_kappa"]["value"], 5) == 0.76282
    labels = [["a", "a", None], ["b", "a", "b"], ["c", "c", "c"], ["a", None, "a"]]
    out = multi.compute(annotations=labels, weights="identity")
    assert out["categories"] == ["a", "b", "c"]
    assert out["multi_rater"]["fleiss_kappa"]["value"] == pytest.approx(
        multi_rater_agreement(labels)["fleiss_kappa"]["value"], abs=1e-15)
    quadratic = multi.compute(annotations=rows, weights="quadratic")
    assert "gwet_ac2" in quadratic["multi_rater"]


def test_bad_input(multi):
    with pytest.raises(ValueError, match="unit must be one of"):
        multi_rater_report(ANNOTATIONS, unit="sentence")
    with pytest.raises(ValueError, match="no annotator proposed any entity span"):
        multi_rater_report([[["O"], ["O"]]], unit="entity")
    with pytest.raises(ValueError, match="weights must be one of"):
        multi.compute(annotations=ANNOTATIONS, weights="cubic")
