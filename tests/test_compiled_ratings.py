"""The compiled rating kernels (issue 32 item 2, the Fleiss and Krippendorff rows of the speed table)
give the bits of the numpy code they replace, which stays the fallback: the label coding
(``float_range``, ``offset_codes``, ``remap_codes``), the count table's nonzero cells
(``code_cells``), the coincidence pairs per unit size (``pair_tables``, and the numpy code's units
grouped by their category counts) and ``exact_sum._fold``;
and every reported value of Fleiss' kappa, Krippendorff's alpha (four distances, a matrix) and the
several-rater family is the same bits both ways, and the label codes and count cells are those of
their definitions (``oracle_numeric_codes`` and ``oracle_cells_of_codes``, plain Python cell by cell). Inputs are integers and exact
quarters (``random.Random``), with missing values, the same on every machine."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from test_compiled_kernels import both_ways, kernels  # noqa: F401 (the autouse fixture: skips without the kernels)

from chance_agreement import fleiss_kappa, krippendorff_alpha, multi_rater_agreement
from chance_agreement._numerics import compiled, exact_sum
from chance_agreement.reliability.multi_rater import fleiss_kappa_per_category, krippendorff_alpha_inference
from chance_agreement.reliability.rater_coefficients import krippendorff_alpha as alpha_module
from chance_agreement.reliability.rater_coefficients import ratings as ratings_module


def same(first, second, where="") -> None:
    """``first`` and ``second`` hold the same bits: floats by their bit patterns, arrays by dtype,
    shape and bits, containers item by item (a failure names the path)."""
    if isinstance(first, np.ndarray) or isinstance(second, np.ndarray):
        first, second = np.asarray(first), np.asarray(second)
        assert first.dtype == second.dtype and first.shape == second.shape, where
        assert first.tobytes() == second.tobytes(), where
    elif isinstance(first, dict):
        assert isinstance(second, dict) and list(first) == list(second), where
        for key in first:
            same(first[key], second[key], f"{where}/{key}")
    elif isinstance(first, (list, tuple)):
        assert type(first) is type(second) and len(first) == len(second), where
        for k, (a, b) in enumerate(zip(first, second, strict=True)):
            same(a, b, f"{where}[{k}]")
    elif isinstance(first, float):
        assert isinstance(second, float) and math.isnan(first) == math.isnan(second), where
        assert first.hex() == second.hex() or (math.isnan(first) and math.isnan(second)), (where, first, second)
    else:
        assert type(first) is type(second) and first == second, (where, first, second)


def oracle_numeric_codes(ratings: np.ndarray, categories) -> tuple[np.ndarray, list]:
    """The label codes from their definition, cell by cell in Python: a cell's code is its label's
    index among the labels (the distinct present values, sorted, as the array's dtype gives them, or
    ``categories`` in their order); a missing cell (NaN) is -1."""
    cells = ratings.tolist()
    present = [v for row in cells for v in row if not (isinstance(v, float) and math.isnan(v))]
    seen = np.array(sorted(set(present)), dtype=ratings.dtype).tolist()
    labels = ratings_module._ordered_categories(seen, categories)
    index = {label: j for j, label in enumerate(labels)}
    codes = [[-1 if isinstance(v, float) and math.isnan(v) else index[v] for v in row] for row in cells]
    return np.array(codes, dtype=np.int64).reshape(ratings.shape), labels


def oracle_cells_of_codes(raw: np.ndarray, q: int):
    """The count table's nonzero cells from their definition: for each item in order, each code
    it holds (ascending, -1 missing left out) and how many of its raters gave it."""
    items, codes, counts = [], [], []
    for item, row in enumerate(raw.tolist()):
        for code in sorted(set(row) - {-1}):
            items.append(item)
            codes.append(code)
            counts.append(float(row.count(code)))
    return np.array(items, dtype=np.int64), np.array(codes, dtype=np.int64), np.array(counts)


def random_ratings(rng: random.Random, form: str):
    """An items x raters table of labels with missing ones, of ``form``: "float" (whole numbers,
    NaN missing), "quarter" (multiples of 1/4: the sorting path), "int" and "bool" (none missing),
    "huge" (whole numbers near 1e15) or "list" (Python ints and None)."""
    n, r = rng.randint(1, 40), rng.choice([2, 3, 5, 10, 40])
    q = rng.choice([1, 2, 3, 5, 30, 200])
    base = rng.choice([0, 1, -7, 50])
    missing = rng.choice([0.0, 0.1, 0.5])
    cells = [[None if rng.random() < missing else base + rng.randrange(q) for _ in range(r)] for _ in range(n)]
    if form == "int":
        return np.array([[base + rng.randrange(q) for _ in range(r)] for _ in range(n)], dtype=np.int64)
    if form == "bool":
        return np.array([[rng.random() < 0.3 for _ in range(r)] for _ in range(n)])
    if form == "list":
        return cells
    scale = {"float": 1.0, "quarter": 0.25, "huge": 1.0}[form]
    shift = 10**15 if form == "huge" else 0
    return np.array([[np.nan if v is None else (v + shift) * scale for v in row] for row in cells])


FORMS = ("float", "quarter", "int", "bool", "huge", "list")


@pytest.mark.parametrize("seed", range(40))
def test_label_codes_are_mains_both_ways(monkeypatch, seed):
    rng = random.Random(seed)
    for form in FORMS[:-1]:
        ratings = random_ratings(rng, form)
        labels = [v for v in dict.fromkeys(ratings.ravel().tolist()) if not (isinstance(v, float) and v != v)]
        orders = [None]
        if labels:
            given = sorted(labels, key=ratings_module._sort_key) + ([] if form == "bool" else [-1000])
            rng.shuffle(given)
            orders.append(given)
        for categories in orders:
            expected = oracle_numeric_codes(ratings, categories)
            fast, slow = both_ways(monkeypatch, ratings_module._numeric_codes, ratings, categories)
            same(fast, expected, f"{form} compiled")
            same(slow, expected, f"{form} numpy")


@pytest.mark.parametrize("seed", range(40))
def test_count_cells_and_coincidences_are_mains_both_ways(monkeypatch, seed):
    rng = random.Random(seed)
    for form in ("float", "list"):
        codes, cats = ratings_module.rating_codes(random_ratings(rng, form))
        q = len(cats)
        fast, slow = both_ways(monkeypatch, ratings_module.cells_of_codes, codes, q)
        same(fast, oracle_cells_of_codes(codes, q), "cells compiled")
        same(slow, oracle_cells_of_codes(codes, q), "cells numpy")
        from_counts = alpha_module.coincidence_matrix(ratings_module.count_matrix(codes, q))  # main's way
        ways = {"pairs of annotators": alpha_module._annotator_pair_tables(codes, q),
                "compiled pairs": alpha_module._compiled_pair_tables(codes, q),
                "patterns": alpha_module._coincidences_by_pattern(codes, q)}
        assert ways["compiled pairs"] is not None
        assert (ways["patterns"] is not None) == alpha_module.patterns_fit(codes.shape[1], q)
        for name, matrix in ways.items():
            if matrix is not None:
                same(matrix, from_counts, name)
        fast, slow = both_ways(monkeypatch, alpha_module.coincidences_from_codes, codes, q)
        same(fast, slow, "coincidences both ways")


@pytest.mark.parametrize("seed", range(30))
def test_fold_is_the_same_bits_both_ways(monkeypatch, seed):
    rng = random.Random(seed)
    size = rng.randint(1, 50)
    keys = np.array(sorted(rng.randrange(size) for _ in range(rng.randint(0, 400))), dtype=np.int64)
    values = np.array([rng.randint(-10**6, 10**6) / rng.choice([1, 3, 7, 1024]) for _ in keys])
    start = np.array([rng.randint(-100, 100) / 9 for _ in range(size)])
    fast, slow = both_ways(monkeypatch, exact_sum._fold, keys, values, size)
    same(fast, slow, "fold from zeros")
    fast, slow = both_ways(monkeypatch, lambda: exact_sum._fold(keys, values, size, start.copy()))
    same(fast, slow, "fold onto values")


def reported(ratings, distances, matrix) -> dict:
    """Every value the Fleiss and Krippendorff functions report for ``ratings``."""
    out = {"fleiss": fleiss_kappa(ratings, details=True)}
    for distance in distances:
        out[f"alpha {distance}"] = krippendorff_alpha(ratings, distance=distance, details=True)
    out["alpha matrix"] = krippendorff_alpha(ratings, distance=matrix, details=True)
    if out["fleiss"]["n_items"]:
        out["family"] = multi_rater_agreement(ratings)
        out["per category"] = fleiss_kappa_per_category(ratings)
        out["alpha inference"] = krippendorff_alpha_inference(ratings, weights="quadratic")
    return out


@pytest.mark.parametrize("seed", range(25))
def test_fleiss_and_alpha_report_the_same_bits_both_ways(monkeypatch, seed):
    rng = random.Random(seed)
    for form in FORMS:
        ratings = random_ratings(rng, form)
        labels = {v for row in (ratings.tolist() if isinstance(ratings, np.ndarray) else ratings) for v in row
                  if v is not None and v == v}
        if len(labels) < 1:
            continue
        distances = ["nominal", "ordinal", "interval"] + (["ratio"] if min(labels) >= 0 else [])
        q = len(labels)
        matrix = [[abs(i - j) / (1 + (i * j) % 5) for j in range(q)] for i in range(q)]
        fast, slow = both_ways(monkeypatch, reported, ratings, distances, matrix)
        same(fast, slow, form)


def test_the_rows_of_the_speed_table_are_the_same_bits_both_ways(monkeypatch):
    """The benchmark's shapes (100,000 x 10 in the table; 20,000 x 10 here): 5 categories, 10%
    missing for alpha, from integers."""
    rng = random.Random(11)
    codes = [[rng.randrange(5) for _ in range(10)] for _ in range(20_000)]
    ratings = np.array(codes, dtype=np.int64)
    scores = np.array([[np.nan if rng.random() < 0.1 else 1.0 + c for c in row] for row in codes])
    fast, slow = both_ways(monkeypatch, lambda: (
        fleiss_kappa(ratings, details=True),
        [krippendorff_alpha(scores, distance=d, details=True) for d in ("nominal", "ordinal", "interval", "ratio")]))
    same(fast, slow, "speed table")


def test_the_kernels_refuse_codes_out_of_range():
    module = compiled.compiled_kernels()
    codes = np.array([[0, 1], [2, 5]], dtype=np.int64)
    out = [np.empty(4, dtype=np.int64), np.empty(4, dtype=np.int64), np.empty(4)]
    with pytest.raises(ValueError, match="code_cells"):
        module.code_cells(2, 2, 3, codes, *out)
    with pytest.raises(ValueError, match="pair_tables"):
        module.pair_tables(2, 2, 3, codes, np.zeros(27, dtype=np.int64))
    with pytest.raises(ValueError, match="remap_codes"):
        module.remap_codes(4, 3, np.arange(3, dtype=np.int64), codes.ravel().copy())
    with pytest.raises(ValueError, match="fold"):
        module.fold(2, 3, np.array([0, 3], dtype=np.int64), np.ones(2), np.zeros(3))
    with pytest.raises(ValueError, match="offset_codes"):
        module.offset_codes(2, 2, 0.0, 0, False, np.array([0.0, 2.0]), np.empty(2, dtype=np.int64),
                             np.zeros(2, dtype=np.int64))
