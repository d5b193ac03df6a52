"""One implementation per coefficient, one registry shape (issue 33, item 5).

Fleiss' kappa and Krippendorff's alpha each had two root functions that disagreed in the last
bits: ``fleiss_kappa(r)`` and ``weighted_fleiss_kappa(r)["value"]`` differed on 198 of 200 random
200 x 4 tables, ``krippendorff_alpha(r)`` and ``krippendorff_alpha_inference(r)["value"]`` on 199
(by up to 4.4e-16). Each coefficient of several raters is now one class (``rater_coefficients``)
whose ``value`` every function reads. The inputs are integers (portable on every CPU).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import chance_agreement
from chance_agreement import (
    fleiss_kappa, krippendorff_alpha, krippendorff_alpha_inference, multi_rater_agreement, weighted_fleiss_kappa,
)
from chance_agreement.reliability.multi_rater_tags import multi_rater_report
from chance_agreement.reliability.rater_coefficients.base import ChanceCorrected
from chance_agreement.spans.readers import detect, read_file
from chance_agreement.spans.readers.base import Annotator, Reader, Unit
from chance_agreement.spans.registry import Registry


def random_table(seed: int, items: int = 200, raters: int = 4, categories: int = 5, missing: bool = False):
    """Integer codes, half of the tables agreeing often (most raters copy the first)."""
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, categories, size=(items, raters))
    if seed % 2:
        codes = np.where(rng.random((items, raters)) < 0.85, codes[:, :1], codes)
    if missing:
        codes = np.where(rng.random((items, raters)) < 0.2, np.nan, codes.astype(float))
    return codes


@pytest.mark.parametrize("seed", range(40))
def test_the_bare_and_the_inference_functions_give_the_same_bits(seed):
    ratings = random_table(seed, missing=seed >= 30)
    kappa, alpha = fleiss_kappa(ratings), krippendorff_alpha(ratings)
    assert kappa is not None and alpha is not None
    assert weighted_fleiss_kappa(ratings)["value"] == kappa
    assert krippendorff_alpha_inference(ratings)["value"] == alpha
    family = multi_rater_agreement(ratings)
    assert family["fleiss_kappa"]["value"] == kappa and family["krippendorff_alpha"]["value"] == alpha


@pytest.mark.parametrize("seed", range(10))
def test_counts_and_weight_matrices_give_the_same_bits_too(seed):
    codes = random_table(seed, raters=3).astype(int)
    counts = np.stack([np.bincount(row, minlength=5) for row in codes])
    kappa, alpha = fleiss_kappa(codes), krippendorff_alpha(codes)
    assert fleiss_kappa(counts=counts) == kappa == weighted_fleiss_kappa(counts=counts)["value"]
    assert krippendorff_alpha_inference(counts=counts)["value"] == alpha
    assert weighted_fleiss_kappa(codes, weights=np.eye(5))["value"] == kappa  # the identity, given as a matrix
    weights = multi_rater_agreement(codes, weights="quadratic")
    quadratic = krippendorff_alpha_inference(codes, weights="quadratic")["value"]
    assert quadratic == weights["krippendorff_alpha"]["value"]
    # alpha's distance is 1 - w: the same matrix given to the bare function gives the same bits
    from chance_agreement.reliability.weights import agreement_weights

    assert krippendorff_alpha(codes, distance=1.0 - agreement_weights("quadratic", [0, 1, 2, 3, 4])) == quadratic


def test_the_tag_report_shows_one_value_per_coefficient():
    tags = [[["B-PER", "O", "B-LOC"], ["B-PER", "O", "O"], ["B-PER", "I-PER", "B-LOC"]],
            [["O", "B-ORG", "I-ORG"], ["O", "B-ORG", "O"], ["B-ORG", "I-ORG", "I-ORG"]]]
    report = multi_rater_report(chance_agreement.as_items(tags))
    assert report["fleiss_kappa"] == report["multi_rater"]["fleiss_kappa"]["value"]
    assert report["krippendorff_alpha"] == report["multi_rater"]["krippendorff_alpha"]["value"]


def test_the_value_kept_is_exact_to_rounding_where_the_other_form_was_not():
    """``(p_a - p_e) / (1 - p_e)``, the inference's old form, said 0.0 for a kappa of -5e-11 (p_e
    within 5e-11 of 1) and NaN for counts of 1e200; ``1 - D_o / D_e`` is exact to rounding, and
    the family's p_a, whose r_i (r_i - 1) overflows there, says so."""
    big = 10**10
    observed = (Fraction(big * (big - 1), (big + 1) * big) + 1) / 2
    p_b = Fraction(1, big + 1) / 2
    p_e = p_b**2 + (1 - p_b) ** 2
    exact = float((observed - p_e) / (1 - p_e))
    result = weighted_fleiss_kappa(counts=[[big, 1], [2, 0]])
    assert result["value"] == pytest.approx(exact, rel=1e-6) and result["value"] < 0
    assert result["standard_error"] is None or np.isfinite(result["standard_error"])
    huge = [[2e200, 1e200], [0, 3e200], [1e200, 2e200]]
    assert fleiss_kappa(counts=huge) == pytest.approx(1 / 3, rel=1e-12)
    with pytest.raises(ValueError, match="counts are too large: an item has 3e[+]200 ratings"):
        weighted_fleiss_kappa(counts=huge)  # Gwet's p_a (NaN before): a clear error


class HolleyGuilfordG(ChanceCorrected):
    """Holley and Guilford's (1964) G for several raters: chance agreement 1/2, G = 2 p_a - 1."""

    name = "holley_guilford_g"
    title = "Holley-Guilford G"

    def chance(self, ratings):
        return 0.5, None


@pytest.fixture
def registered():
    coefficient = chance_agreement.several_rater_coefficients.register(HolleyGuilfordG())
    yield coefficient
    chance_agreement.several_rater_coefficients.unregister(coefficient.name)


def test_a_several_rater_coefficient_defined_in_a_test_is_reported(registered):
    ratings = random_table(1, items=50, raters=3)
    family = multi_rater_agreement(ratings)
    entry = family["holley_guilford_g"]
    assert entry["value"] == pytest.approx(2 * family["percent_agreement"]["value"] - 1)
    assert entry["standard_error"] > 0
    assert "holley_guilford_g" in chance_agreement.several_rater_coefficients.names()


def toy_read(path, options):
    rows = [line.split("\t") for line in path.read_text().split("\n")[1:] if line]
    spans = [(i, i + 1, label) for i, (_, label) in enumerate(rows) if label != "-"]
    return [Annotator(path.stem, str(path), [Unit([t for t, _ in rows], f"{path} line 2", spans=spans)],
                      named_by_file=True)]


def test_a_reader_registered_at_the_root_is_detected_and_forced(tmp_path):
    readers = chance_agreement.file_readers
    toy = Reader("toy-registered", "a toy format", lambda head, path: head.startswith(b"%TOY"), toy_read)
    path = tmp_path / "a.toy"
    path.write_text("%TOY\nAda\tPER\nmet\t-\n", encoding="utf-8")
    readers.register(toy)
    try:
        assert readers.names()[-1] == "toy-registered" and readers.get("toy-registered") is toy
        assert detect(path) is toy
        assert read_file(path, "toy-registered")[0].units[0].spans == [(0, 1, "PER")]
    finally:
        readers.unregister("toy-registered")
    assert "toy-registered" not in readers.names()


@pytest.mark.parametrize("root_name,built_in", [("two_rater_coefficients", "cohen_kappa"),
                                                ("several_rater_coefficients", "fleiss_kappa"),
                                                ("file_readers", "conll")])
def test_every_registry_has_one_shape_at_the_root(root_name, built_in):
    registry = getattr(chance_agreement, root_name)
    assert isinstance(registry, Registry) and root_name in chance_agreement.__all__
    assert built_in in registry.names() and registry.get(built_in).name == built_in
    with pytest.raises(ValueError, match="must be one of"):
        registry.get("no-such-entry")
    with pytest.raises(ValueError, match="cannot be unregistered"):
        registry.unregister(built_in)
    with pytest.raises(TypeError, match="register takes a"):
        registry.register(object())


def test_a_different_entry_under_a_taken_name_is_refused():
    readers = chance_agreement.file_readers
    conll = readers.get("conll")
    with pytest.raises(ValueError, match="already registered as 'conll'"):
        readers.register(Reader("conll", "another", conll.sniff, conll.read))

    class Other(HolleyGuilfordG):
        name = "fleiss_kappa"

    with pytest.raises(ValueError, match="already registered as 'fleiss_kappa'"):
        chance_agreement.several_rater_coefficients.register(Other())
