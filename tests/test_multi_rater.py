"""The several-rater family: irrCAC's published values and standard errors, the Python peers on
seeded random data, the named weights, Fleiss' kappa per category, benchmark probabilities."""

from __future__ import annotations

import csv
import importlib
import math
import os

import numpy as np
import pytest
from scipy.stats import norm

from chance_agreement import fleiss_kappa, krippendorff_alpha
from chance_agreement.reliability.benchmark_scales import SCALES, benchmark
from chance_agreement.reliability.multi_rater import (
    brennan_prediger, conger_kappa, fleiss_kappa_per_category, gwet_ac1, gwet_ac2, krippendorff_alpha_inference,
    light_kappa, multi_rater_agreement, percent_agreement, weighted_fleiss_kappa,
)
from chance_agreement.reliability.weights import WEIGHTS, agreement_weights


def read_csv(path):
    with open(path, newline="") as handle:
        rows = list(csv.reader(handle))
    return rows[0], rows[1:]


@pytest.fixture(scope="module")
def irrcac(shared_data):
    return shared_data / "agreement_reference" / "irrCAC_R_package"


@pytest.fixture(scope="module")
def raw4raters(irrcac):
    _, rows = read_csv(irrcac / "cac.raw4raters.csv")
    return [[int(v) if v else None for v in row[1:]] for row in rows]


@pytest.fixture(scope="module")
def distrib6(irrcac):
    _, rows = read_csv(irrcac / "distrib.6raters.csv")
    return np.array([[int(v) for v in row[1:]] for row in rows])


def close(value, printed):
    """Equal to the digits irrCAC prints (``printed`` as a string)."""
    digits = len(printed.split(".")[1]) if "." in printed else 0
    return abs(value - float(printed)) <= 0.5 * 10**-digits + 1e-12


def test_irrcac_raw4raters_values(raw4raters):
    result = multi_rater_agreement(raw4raters)
    assert close(result["percent_agreement"]["value"], "0.8181818")
    assert close(result["gwet_ac1"]["value"], "0.77544") and close(result["gwet_ac1"]["expected_agreement"], "0.1903212")
    assert close(result["fleiss_kappa"]["value"], "0.76117")
    assert close(result["fleiss_kappa"]["expected_agreement"], "0.2387153")
    alpha = result["krippendorff_alpha"]
    assert close(alpha["value"], "0.74342") and close(alpha["observed_agreement"], "0.805")
    assert close(alpha["expected_agreement"], "0.24")
    assert close(result["conger_kappa"]["value"], "0.76282")
    assert close(result["brennan_prediger"]["value"], "0.77273")
    assert result["n_items"] == 12 and result["n_raters"] == 4


DISTRIB_6RATERS = {  # irrCAC README: value, pa, pe, standard error, interval, p-value
    "gwet_ac1": ("0.4448007", "0.5511111", "0.1914815", "0.08418757", ("0.264", "0.625"), "0.0001155927"),
    "fleiss_kappa": ("0.4139265", "0.5511111", "0.2340741", "0.08119291", ("0.24", "0.588"), "0.0001622724"),
    "krippendorff_alpha": ("0.4204384", "0.5560988", "0.2340741", "0.08243228", ("0.244", "0.597"), "0.0001615721"),
    "brennan_prediger": ("0.4388889", None, "0.2", "0.08312142", ("0.261", "0.617"), "0.0001163"),
}


@pytest.mark.parametrize("name", sorted(DISTRIB_6RATERS))
def test_irrcac_distrib6raters_values_standard_errors_intervals_p_values(distrib6, name):
    value, pa, pe, se, (low, high), p_value = DISTRIB_6RATERS[name]
    result = multi_rater_agreement(counts=distrib6)[name]
    assert close(result["value"], value)
    if pa:
        assert close(result["observed_agreement"], pa)
    assert close(result["expected_agreement"], pe)
    assert close(result["standard_error"], se)
    assert close(result["confidence_interval"][0], low) and close(result["confidence_interval"][1], high)
    assert math.isclose(result["p_value"], float(p_value), rel_tol=5e-7 if len(p_value) > 9 else 5e-4)
    assert result["n_items"] == 15


def test_irrcac_dist4cat_ac1(irrcac):
    _, rows = read_csv(irrcac / "cac.dist4cat.csv")
    counts = [[int(v) for v in row[1:4]] for row in rows]
    assert close(gwet_ac1(counts=counts)["value"], "0.3518903")


def test_fleiss_1971_diagnoses(shared_data):
    _, rows = read_csv(shared_data / "agreement_reference" / "irr_R_package" / "diagnoses.csv")
    ratings = [row[1:] for row in rows]
    assert close(weighted_fleiss_kappa(ratings)["value"], "0.430")


def random_ratings(seed, n=40, r=4, q=4, missing=0.0):
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, q + 1, size=n)
    ratings = np.where(rng.random((n, r)) < 0.6, truth[:, None], rng.integers(1, q + 1, size=(n, r))).astype(object)
    if missing:
        ratings[rng.random((n, r)) < missing] = None
        ratings[:, 0][[row.tolist().count(None) == r for row in ratings]] = 1
    return ratings.tolist()


@pytest.mark.parametrize("seed", range(5))
def test_statsmodels_fleiss_and_cohen(seed):
    from statsmodels.stats.inter_rater import aggregate_raters, cohens_kappa, fleiss_kappa as sm_fleiss

    ratings = random_ratings(seed)
    table, _ = aggregate_raters(np.array(ratings, dtype=int))
    assert weighted_fleiss_kappa(ratings)["value"] == pytest.approx(sm_fleiss(table, method="fleiss"), abs=1e-9)
    assert brennan_prediger(ratings)["value"] == pytest.approx(sm_fleiss(table, method="randolph"), abs=1e-9)
    two = [row[:2] for row in ratings]
    cohen = cohens_kappa(np.histogram2d([r[0] for r in two], [r[1] for r in two], bins=[np.arange(1, 6)] * 2)[0])
    assert conger_kappa(two)["value"] == pytest.approx(cohen.kappa, abs=1e-9)  # Conger = Cohen for two raters
    assert light_kappa(two)["value"] == pytest.approx(cohen.kappa, abs=1e-9)


@pytest.mark.parametrize("seed", range(5))
def test_nltk_annotation_task(seed):
    from nltk.metrics.agreement import AnnotationTask

    ratings = random_ratings(seed, r=3)
    task = AnnotationTask(data=[(f"c{g}", f"i{i}", str(v)) for i, row in enumerate(ratings) for g, v in enumerate(row)])
    assert light_kappa(ratings)["value"] == pytest.approx(task.kappa(), abs=1e-9)  # mean pairwise Cohen
    assert weighted_fleiss_kappa(ratings)["value"] == pytest.approx(task.pi(), abs=1e-9)
    assert krippendorff_alpha_inference(ratings)["value"] == pytest.approx(task.alpha(), abs=1e-9)


@pytest.mark.parametrize("seed", range(5))
def test_krippendorff_package_with_missing_values(seed):
    import krippendorff

    ratings = random_ratings(seed, r=5, missing=0.3)
    data = np.array([[np.nan if v is None else v for v in row] for row in ratings], dtype=float).T
    for weights, level in (("identity", "nominal"), ("quadratic", "interval"), ("ordinal", "ordinal")):
        ours = krippendorff_alpha_inference(ratings, weights=weights)["value"]
        if level == "ordinal":  # irrCAC's ordinal weights are not Krippendorff's ordinal metric
            continue
        assert ours == pytest.approx(krippendorff.alpha(reliability_data=data, level_of_measurement=level), abs=1e-9)
    assert krippendorff_alpha_inference(ratings)["value"] == pytest.approx(krippendorff_alpha(ratings), abs=1e-12)
    assert weighted_fleiss_kappa(ratings)["value"] == pytest.approx(fleiss_kappa(ratings), abs=1e-12)


def require_irrcac(module="irrCAC"):
    """The irrCAC Python port, an optional peer: .ci/run installs it (without its pins on scipy
    1.12 and pandas < 3), so under CI its absence fails; elsewhere the test skips with the reason."""
    try:
        return importlib.import_module(module)
    except ImportError:
        reason = "the irrCAC Python port is an optional peer: pip install --no-deps irrCAC==0.4.4"
        if os.environ.get("CI"):
            pytest.fail(f"CI installs it: {reason}")
        pytest.skip(reason)


def irrcac_estimates(ratings, weights="identity"):
    require_irrcac()
    import pandas as pd
    from irrCAC.raw import CAC

    frame = pd.DataFrame([[np.nan if v is None else v for v in row] for row in ratings], dtype=float)
    cac = CAC(frame, weights=weights)
    return {name: getattr(cac, method)()["est"] for name, method in
            (("gwet", "gwet"), ("fleiss_kappa", "fleiss"), ("conger_kappa", "conger"),
             ("brennan_prediger", "bp"), ("krippendorff_alpha", "krippendorff"))}


@pytest.mark.parametrize("weights", ["identity", "quadratic", "linear"])
@pytest.mark.parametrize("seed", range(3))
def test_irrcac_python_port_on_complete_data(seed, weights):
    """irrCAC (PyPI) rounds to 5 decimals: agreement to that precision."""
    ratings = random_ratings(seed)
    theirs = irrcac_estimates(ratings, weights)
    ours = multi_rater_agreement(ratings, weights=weights)
    ours["gwet"] = ours.pop("gwet_ac1" if weights == "identity" else "gwet_ac2")
    for name, est in theirs.items():
        assert ours[name]["value"] == pytest.approx(est["coefficient_value"], abs=5.1e-6), name
        assert ours[name]["standard_error"] == pytest.approx(est["se"], abs=5.1e-6), name


def test_irrcac_python_port_with_missing_values_and_where_it_is_wrong(raw4raters):
    """With missing ratings the port's Fleiss and Conger agree; it counts NaN as a category
    (pandas >= 2), so its AC1 (0.78553) and Brennan-Prediger (0.78182) are off the R package's
    published 0.77544 and 0.77273, which we reproduce."""
    theirs = irrcac_estimates(raw4raters)
    ours = multi_rater_agreement(raw4raters)
    for name in ("fleiss_kappa", "conger_kappa"):
        assert ours[name]["value"] == pytest.approx(theirs[name]["coefficient_value"], abs=5.1e-6)
        assert ours[name]["standard_error"] == pytest.approx(theirs[name]["se"], abs=5.1e-6)
    # the port's AC1 and BP are ours with one unused extra category (its NaN "category")
    with_nan = [1, 2, 3, 4, 5, "missing"]
    assert round(gwet_ac1(raw4raters, categories=with_nan)["value"], 5) == theirs["gwet"]["coefficient_value"] == 0.78553
    assert round(gwet_ac1(raw4raters, categories=with_nan)["standard_error"], 5) == theirs["gwet"]["se"]
    assert round(brennan_prediger(raw4raters, categories=with_nan)["value"], 5) == theirs["brennan_prediger"]["coefficient_value"]
    assert round(ours["gwet_ac1"]["value"], 5) == 0.77544 and round(ours["brennan_prediger"]["value"], 5) == 0.77273


@pytest.mark.parametrize("name", WEIGHTS)
def test_named_weights_match_irrcac_and_are_agreement_weights(name):
    Weights = require_irrcac("irrCAC.weights").Weights

    for categories in ([1, 2, 3, 4, 5], [1.0, 2.5, 4.0, 7.0]):
        ours = agreement_weights(name, categories)
        assert np.allclose(ours, Weights(list(categories))[name], atol=1e-12)
        assert np.all(np.diag(ours) == 1) and np.allclose(ours, ours.T) and ours.min() >= -1e-12


@pytest.mark.parametrize("name", WEIGHTS)
def test_named_weights_as_a_distance_for_the_distance_taking_functions(name):
    from chance_agreement import distance_from_weights

    ratings = random_ratings(4, r=3, missing=0.2)
    categories = [1, 2, 3, 4]
    distance = distance_from_weights(agreement_weights(name, categories))
    assert krippendorff_alpha(ratings, distance=distance, categories=categories) == pytest.approx(
        krippendorff_alpha_inference(ratings, weights=name, categories=categories)["value"], abs=1e-12)


def test_weights_bad_input():
    with pytest.raises(ValueError, match="weights must be one of"):
        agreement_weights("cubic", [1, 2])
    with pytest.raises(ValueError, match="positive category values"):
        agreement_weights("ratio", [0, 1, 2])
    with pytest.raises(ValueError, match="1 on the diagonal"):
        agreement_weights([[0.5, 0], [0, 1]], [1, 2])


def test_fleiss_per_category_is_fleiss_1971(shared_data):
    _, rows = read_csv(shared_data / "agreement_reference" / "irr_R_package" / "diagnoses.csv")
    ratings = [row[1:] for row in rows]
    per_category = fleiss_kappa_per_category(ratings)
    labels = sorted({v for row in ratings for v in row})
    counts = np.array([[row.count(c) for c in labels] for row in ratings], dtype=float)
    n, m = counts.shape[0], 6
    p = counts.sum(axis=0) / (n * m)
    for j, label in enumerate(labels):  # Fleiss (1971), eq. 11
        expected = 1 - (counts[:, j] * (m - counts[:, j])).sum() / (n * m * (m - 1) * p[j] * (1 - p[j]))
        assert per_category[label]["value"] == pytest.approx(expected, abs=1e-12)
        assert per_category[label]["standard_error"] > 0


@pytest.mark.parametrize("seed", range(3))
def test_light_kappa_jackknife_is_delete_one_recomputation(seed):
    ratings = random_ratings(seed, n=15, r=4, missing=0.2)
    result = light_kappa(ratings, weights="linear")
    again = np.array([light_kappa(ratings[:i] + ratings[i + 1:], weights="linear", categories=[1, 2, 3, 4])["value"]
                      for i in range(len(ratings))])
    n = len(ratings)
    assert result["standard_error"] == pytest.approx(math.sqrt((n - 1) / n * ((again - again.mean()) ** 2).sum()), rel=1e-12)
    assert result["confidence_interval"][0] < result["value"] < result["confidence_interval"][1] or result["value"] == 1


def test_interval_and_p_value_follow_the_t_distribution(distrib6):
    from scipy import stats

    result = gwet_ac2(counts=distrib6, weights="linear", confidence_level=0.9)
    value, se = result["value"], result["standard_error"]
    half = stats.t.ppf(0.95, 14) * se
    assert result["confidence_interval"] == pytest.approx([value - half, min(1.0, value + half)], abs=1e-15)
    assert result["p_value"] == pytest.approx(2 * stats.t.sf(value / se, 14), rel=1e-12)
    finite = gwet_ac1(counts=distrib6, population_size=30)
    assert finite["standard_error"] == pytest.approx(gwet_ac1(counts=distrib6)["standard_error"] * math.sqrt(0.5), rel=1e-12)


def test_degenerate_inputs_give_none_with_a_reason():
    same = [["a", "a"], ["a", "a"]]
    result = weighted_fleiss_kappa(same)
    assert result["value"] is None and "single category" in result["warnings"][0]
    assert percent_agreement(same)["value"] == 1.0
    lonely = [["a", None], [None, "b"]]
    assert gwet_ac1(lonely)["value"] is None and "two or more ratings" in gwet_ac1(lonely)["warnings"][0]
    with pytest.raises(ValueError, match="exactly one of ratings"):
        gwet_ac1()
    with pytest.raises(ValueError, match="exactly one of ratings"):
        conger_kappa(None)
    idle = conger_kappa([[1, 2, None], [2, 2, None], [1, 1, None], [3, 3, None]])
    assert idle["value"] == pytest.approx(conger_kappa([[1, 2], [2, 2], [1, 1], [3, 3]])["value"], abs=1e-15)
    assert "gave no rating" in idle["warnings"][0]
    with pytest.raises(ValueError, match="confidence_level"):
        gwet_ac1([[1, 2]], confidence_level=95)


def test_benchmark_against_normal_probabilities():
    # Altman scale, kappa 0.67, se 0.15: the truncated normal mass of each level, by hand
    result = benchmark(0.67, 0.15, scale="altman")
    total = norm.cdf((1 + 0.67) / 0.15) - norm.cdf((0.67 - 1) / 0.15)
    good = (norm.cdf((0.8 - 0.67) / 0.15) - norm.cdf((0.6 - 0.67) / 0.15)) / total
    assert result["levels"][1]["label"] == "Good"
    assert result["levels"][1]["membership_probability"] == pytest.approx(good, abs=1e-12)
    assert [round(level["cumulative_probability"], 5) for level in result["levels"]] == [0.18168, 0.67511, 0.96356, 0.99912, 1.0]
    assert result["most_likely"]["label"] == "Good"
    assert result["retained"]["label"] == "Moderate"
    # on a boundary with a tiny standard error: half and half
    edge = benchmark(0.6, 1e-6, scale="landis_koch")
    assert [round(level["membership_probability"], 9) for level in edge["levels"][1:3]] == [0.5, 0.5]
    assert benchmark(0.7, 0.0)["most_likely"] == {"label": "Substantial", "probability": 1.0}
    assert sum(level["membership_probability"] for level in benchmark(0.1, 0.4, scale="fleiss")["levels"]) == pytest.approx(1.0)


def test_benchmark_scales_are_irrcacs_files(irrcac):
    for name, file in (("landis_koch", "landis.koch.csv"), ("fleiss", "fleiss.csv"), ("altman", "altman.csv")):
        _, rows = read_csv(irrcac / file)
        assert [(float(lo), float(hi), label) for lo, hi, label in rows] == list(SCALES[name])


def test_report_gets_a_benchmark(distrib6):
    result = multi_rater_agreement(counts=distrib6, benchmark_scale="landis_koch")
    assert result["fleiss_kappa"]["benchmark"]["most_likely"]["label"] == "Moderate"
    with pytest.raises(ValueError, match="scale must be one of"):
        benchmark(0.5, 0.1, scale="cohen")
