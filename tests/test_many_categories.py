"""Many entity types (issue 24, item 3b): the per-category outputs of the coefficients computed by
whole-array operations give the same bits as the cell-by-cell oracle below, 1,000 types work, and
a table of more than ``MAX_CATEGORIES`` categories is refused at once, before anything q x q is built."""

from __future__ import annotations

import importlib.util
import time
from pathlib import Path

import numpy as np
import pytest

from chance_agreement import fleiss_kappa
from chance_agreement.reliability import contingency_table, multi_annotator
from chance_agreement.reliability.agreement_coefficients import agreement_report, coefficients
from chance_agreement.reliability.contingency_table import MAX_CATEGORIES, TooManyCategories, contingency

_SPEC = importlib.util.spec_from_file_location(
    "bench_scale", Path(__file__).resolve().parent.parent / "benchmarks" / "bench_scale.py")
_BENCH = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(_BENCH)


def probabilities_by_cell(table, categories):
    """The oracle: P(C2|C1) and Sim(C1, C2) one cell at a time (prevalence paper, Tables 7 and 8)."""
    original = np.asarray(table, dtype=float)
    used = original.sum(axis=1) + original.sum(axis=0)
    probabilities = {c1: {c2: (float((original[i, j] + original[j, i]) / used[i]) if used[i] > 0 else None)
                          for j, c2 in enumerate(categories)} for i, c1 in enumerate(categories)}
    similarity = {c1: {c2: None if probabilities[c1][c2] is None or probabilities[c2][c1] is None
                       else (probabilities[c1][c2] + probabilities[c2][c1]) / 2.0 for c2 in categories}
                  for c1 in categories}
    return probabilities, similarity


def tagged(sentences: int, types: int, seed: int):
    """Two annotators' BIO tags over ``types`` entity types (the generator of ``benchmarks/bench_scale.py``)."""
    first, second = _BENCH.annotations(sentences, types, 2, seed)
    return first, second


@pytest.mark.parametrize("seed", range(6))
def test_category_probabilities_equal_the_cell_by_cell_oracle(seed):
    rng = np.random.default_rng(seed)
    q = int(rng.integers(2, 40))
    table = rng.integers(0, 5, (q, q)) * (rng.random((q, q)) < 0.3)
    table[rng.integers(0, q, 3)] = 0  # unused categories: their P(.|C) is undefined
    table[:, rng.integers(0, q, 3)] = 0
    if seed % 2:
        table = table * 1e-300  # tiny counts are not lost
    categories = [f"c{i}" for i in range(q)]
    result = coefficients(table, categories)
    probabilities, similarity = probabilities_by_cell(table, categories)
    assert result["category_probabilities"] == probabilities  # == on floats: the same bits
    assert result["category_similarity"] == similarity
    assert [type(v) for row in result["category_similarity"].values() for v in row.values()] == \
        [type(v) for row in similarity.values() for v in row.values()]


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_a_thousand_types_give_the_oracle_numbers():
    first, second = tagged(1_500, 1_000, seed=3)
    report = agreement_report(second, first)
    table, categories = contingency(second, first)
    assert len(categories) > 900
    probabilities, similarity = probabilities_by_cell(table, categories)
    assert report["all"]["category_probabilities"] == probabilities
    assert report["all"]["category_similarity"] == similarity
    assert report["all"]["contingency"]["table"] == table.tolist()


def test_too_many_types_are_refused_at_once():
    """10,000 entity types: a 10^8-cell table and as many probabilities; refused in well under a
    second (the check runs while the tags are coded, before any q x q allocation)."""
    first, second = tagged(5_000, 10_000, seed=4)
    start = time.perf_counter()
    with pytest.raises(TooManyCategories, match=rf"categories .*more than the limit of {MAX_CATEGORIES:,} "
                                               r"categories: merge rare entity types"):
        agreement_report(second, first)
    assert time.perf_counter() - start < 1.0
    with pytest.raises(TooManyCategories, match="the table would have 2,001 categories"):
        coefficients(np.eye(MAX_CATEGORIES + 1))


def test_the_span_path_refuses_too_many_types_too(monkeypatch):
    monkeypatch.setattr(contingency_table, "MAX_CATEGORIES", 3)
    tags = [["B-A", "B-B", "B-C", "O"]]
    with pytest.raises(TooManyCategories, match="4 categories"):
        contingency(tags, tags, mode="strict", scheme="IOB2")
    with pytest.raises(TooManyCategories, match="4 categories"):
        contingency(tags, tags)
    assert contingency(tags, tags, view="entities")[1] == ["A", "B", "C"]  # 3 categories without O
    assert contingency(tags, tags, view="grouped")[1] == ["ENTITY", "O"]


@pytest.mark.parametrize("labels,missing,seed", [(2, 0.0, 0), (7, 0.2, 1), (300, 0.05, 2), (1_000, 0.0, 3)])
def test_two_annotators_counted_sparsely_give_the_count_matrix_bits(labels, missing, seed):
    """``fleiss_kappa`` of two annotators counts only the labels given (no items x categories
    matrix): the same bits as ``fleiss_from_counts`` of the dense count matrix."""
    rng = np.random.default_rng(seed)
    first = rng.integers(0, labels, 5_000)
    second = np.where(rng.random(5_000) < 0.7, first, rng.integers(0, labels, 5_000))
    ratings = np.stack([first, second], axis=1).astype(object)
    ratings[rng.random(ratings.shape) < missing] = None
    ratings = ratings.tolist()
    codes, categories = multi_annotator.rating_codes(ratings)
    dense = multi_annotator.fleiss_from_counts(multi_annotator.count_matrix(codes, len(categories)), categories, True)
    assert fleiss_kappa(ratings, details=True) == dense


def team_of_two(types: int, seed: int):
    from chance_agreement.reports.team_report import Annotations
    first, second = tagged(200, types, seed)
    return Annotations(["a", "b"], [[f"w{i}" for i in range(len(s))] for s in first], [first, second])


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_the_agreement_report_shows_the_most_used_categories_and_keeps_all_in_json():
    from chance_agreement.reports.team_report import SHOWN_CATEGORIES, coefficients_section
    section = coefficients_section(team_of_two(60, seed=5), {"span": {"scheme": None, "mode": None, "suffix": False}})
    table = section.tables[1]
    assert len(table.columns) == SHOWN_CATEGORIES + 1 and table.columns[-1] == "O"
    assert len(section.data["all"]["contingency"]["table"]) == 61
    assert any("most used of its 61 categories; JSON has all" in note for note in section.notes)
    full = section.data["all"]["contingency"]["table"]
    index = section.data["all"]["contingency"]["categories"].index
    assert [row[1:] for row in table.rows] == [[full[index(r)][index(c)] for c in table.columns[1:]]
                                               for r in table.columns[1:]]


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_the_agreement_report_notes_a_table_of_too_many_categories(monkeypatch):
    from chance_agreement.reports.team_report import build_report, to_json
    monkeypatch.setattr(contingency_table, "MAX_CATEGORIES", 10)
    report = build_report(team_of_two(20, seed=6))
    sections = {section.key: section for section in report["sections"]}
    assert "more than the limit of 10 categories" in sections["coefficients"].data["undefined"]
    assert sections["coefficients"].notes[0].startswith("not computed: the contingency table would have 21")
    assert sections["chance_f1"].data["token"]["overall_corrected_f1"] > 0.5  # the other sections stand
    assert '"undefined": "the contingency table would have 21' in to_json(report)


def test_the_html_report_refuses_too_many_types_before_the_work():
    """Before: the chance model, 1,000 bootstrap resamples over a sentences x types x fields array
    and the noise model ran (six minutes, 4.7 GB) before the contingency table ran out of memory."""
    from chance_agreement.reports.html_report import report_data
    first, second = tagged(5_000, 10_000, seed=7)
    tokens = [[f"w{i}" for i in range(len(sentence))] for sentence in first]
    start = time.perf_counter()
    with pytest.raises(TooManyCategories, match="more than the limit of 2,000 categories"):
        report_data(tokens, {"a": first, "b": second})
    assert time.perf_counter() - start < 1.0


def test_the_html_report_of_a_set_refuses_too_many_types_before_the_work():
    """The ``report`` command's path: the files' ``AnnotationSet``, its shown annotators' types counted."""
    from chance_agreement import AnnotationSet
    from chance_agreement.reports.html_report import report_data
    first, second = tagged(5_000, 10_000, seed=7)
    tokens = [[f"w{i}" for i in range(len(sentence))] for sentence in first]
    annotations = AnnotationSet.from_tags({"a": first, "b": second})
    start = time.perf_counter()
    with pytest.raises(TooManyCategories, match="more than the limit of 2,000 categories"):
        report_data(tokens, annotations)
    assert time.perf_counter() - start < 1.0


def dense_sentence_arrays(sentences, level, fields):
    """The oracle: the former sentences x types x fields array, then the three columns."""
    fields = tuple(fields)
    types = sorted({name for stats in sentences for name in stats.per_type})
    index = {name: i for i, name in enumerate(types)}
    raw = np.zeros((len(sentences), len(types), len(fields)))
    for s, stats in enumerate(sentences):
        for name, vector in stats.per_type.items():
            raw[s, index[name]] = vector
    arrays = np.empty((len(sentences), len(types), 3))
    if level == "token":
        arrays[..., :2] = 2.0 * raw[..., [fields.index("overlap"), fields.index("expected_overlap")]]
        arrays[..., 2] = raw[..., fields.index("annotated_tokens")]
    else:
        arrays[..., :2] = 2.0 * raw[..., [fields.index("true_positives"), fields.index("expected_matches")]]
        arrays[..., 2] = raw[..., fields.index("predicted")] + raw[..., fields.index("actual")]
    return types, arrays


@pytest.mark.parametrize("level", ["token", "entity"])
def test_sentence_arrays_hold_the_dense_arrays_bytes(level):
    from chance_agreement.chance.bootstrap_intervals import sentence_arrays
    from chance_agreement.chance.corrected_f1 import corpus_statistics
    from chance_agreement.chance.statistics import FIELDS
    first, second = tagged(400, 30, seed=8)
    _, sentences = corpus_statistics(second, first)
    types, arrays = sentence_arrays(sentences, level)
    oracle_types, oracle = dense_sentence_arrays(sentences, level, FIELDS)
    assert types == oracle_types and arrays.tobytes() == oracle.tobytes()


def test_intervals_too_large_to_resample_are_refused_saying_what_to_change(monkeypatch):
    from chance_agreement import chance_f1
    from chance_agreement.chance import bootstrap_intervals
    first, second = tagged(200, 10, seed=9)
    monkeypatch.setattr(bootstrap_intervals, "MAX_RESAMPLE_WORK", 1_000_000)
    with pytest.raises(ValueError, match=r"200 sentences x 10 entity types x 1,000 resamples need 6,000,000 "
                                         r"multiply-adds, more than the limit of 1,000,000: turn intervals off"):
        chance_f1(second, first, confidence_level=0.95, zero_division=0)
    assert chance_f1(second, first, confidence_level=0.95, n_resamples=100, zero_division=0)["overall_corrected_f1_ci"]
