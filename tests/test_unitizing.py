"""Unitizing alphas (u_alpha: Krippendorff 1995/2004; mu_alpha: Krippendorff et al. 2016 eq. 5a).

Reference values: SPEC_NOTES section 1 (the chance-F1 paper's simulation tables, Alpha and muAlpha
columns) and Krippendorff (2004, p. 254). A naive oracle written straight from the definitions
(every pair of sections, full coincidence matrix) checks the fast kernels on random data.
"""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction

import pytest

import chance_agreement
from chance_agreement.reliability.unitizing import unitizing_alpha, unitizing_alpha_from_units

KEYS = ("observed_disagreement", "expected_disagreement", "alpha")


def bio(pattern: str, type_: str = "X") -> list[str]:
    """'0011100' -> O O B-X I-X I-X O O: each run of 1 is one entity."""
    tags, previous = [], "0"
    for char in pattern:
        tags.append("O" if char == "0" else (f"I-{type_}" if previous == "1" else f"B-{type_}"))
        previous = char
    return tags


def assert_printed(value: float, printed: str) -> None:
    """``value`` rounds to the printed decimal string (to its number of digits)."""
    digits = len(printed.split(".")[1])
    assert abs(value - float(printed)) <= 0.5 * 10**-digits + 1e-12, (value, printed)


SIM1_A = ("00011000111000111100", "00111000111100111110")
SIM2_B = ("00000011111111100000", "00001111111111110000")
SIM3_A = ("00000000011100000000", "00000000111100000000")
SIM4_GOLD = "11100" * 5 + "1" * 16
SIM4_ANNOTATOR_1 = "11100" * 4 + "111" + "0" * 18
SIM4_ANNOTATOR_2 = "0" * 25 + "1" * 16

# SPEC_NOTES section 1: case -> (annotator 1, annotator 2, ObsD, ExpD, Alpha, ObsmuD, ExpmuD, muAlpha)
TABLE = {
    "Sim1 A (= Sim2 A)": (*SIM1_A, "0.0075", "0.0537", "0.8602", "0.15", "0.5313", "0.7177"),
    # Sim1 B: ExpD and Alpha are our (merged-gap) values; the paper's are tested below
    "Sim1 B": (SIM1_A[0] + "0" * 10, SIM1_A[1] + "0" * 10, "0.0033", "0.0411", "0.9189", "0.10", "0.4704", "0.7874"),
    "Sim2 B (= Sim3 B)": (*SIM2_B, "0.0125", "0.1047", "0.8806", "0.15", "0.5885", "0.7451"),
    "Sim3 A": (*SIM3_A, "0.0025", "0.0388", "0.9356", "0.05", "0.2996", "0.8331"),
    "Sim4 annotator 1 vs gold": (SIM4_ANNOTATOR_1, SIM4_GOLD, "0.1523", "0.2154", "0.2931", "0.3902", "0.5222", "0.2527"),
    "Sim4 annotator 2 vs gold": (SIM4_ANNOTATOR_2, SIM4_GOLD, "0.0268", "0.2881", "0.9071", "0.3659", "0.5365", "0.3181"),
}


@pytest.mark.parametrize("case", list(TABLE))
def test_simulation_table_alpha(case):
    first, second, obs, exp, alpha, *_ = TABLE[case]
    result = unitizing_alpha([[bio(first), bio(second)]])
    for key, printed in zip(KEYS, (obs, exp, alpha)):
        assert_printed(result[key], printed)
        assert_printed(result["per_type"]["X"][key], printed)
    assert result["warnings"] == []


@pytest.mark.parametrize("case", list(TABLE))
def test_simulation_table_mu_alpha(case):
    first, second, *_, obs, exp, alpha = TABLE[case]
    result = unitizing_alpha([[bio(first), bio(second)]], variant="mu_alpha")
    for key, printed in zip(KEYS, (obs, exp, alpha)):
        assert_printed(result[key], printed)
        assert_printed(result["per_type"]["X"][key], printed)


def test_sim1_b_paper_value_is_a_separate_ten_token_gap():
    """The paper's 0.0366 / 0.9090 = the ten appended zeros kept as their own gap: De = 319/8705."""
    a, b = SIM1_A
    as_two_texts = unitizing_alpha([[bio(a), bio(b)], [bio("0" * 10), bio("0" * 10)]])
    units = [[(s, e) for _, s, e in chance_agreement.spans_from_tags(bio(x))] for x in (a, b)]
    with_break = unitizing_alpha_from_units(30, units, gap_breaks=[20])
    merged = unitizing_alpha_from_units(30, units)
    for result in (as_two_texts, with_break):
        assert result["expected_disagreement"] == float(Fraction(319, 8705))
        assert_printed(result["expected_disagreement"], "0.0366")
        assert_printed(result["alpha"], "0.9090")
        assert_printed(result["observed_disagreement"], "0.0033")
    assert_printed(merged["expected_disagreement"], "0.0411")
    assert_printed(merged["alpha"], "0.9189")
    # the gap break changes only u_alpha's expected disagreement
    assert merged["observed_disagreement"] == with_break["observed_disagreement"]
    mu_merged = unitizing_alpha_from_units(30, units, variant="mu_alpha")
    mu_break = unitizing_alpha_from_units(30, units, variant="mu_alpha", gap_breaks=[20])
    assert mu_merged == mu_break


# Krippendorff (2004), Content Analysis, p. 254: category c on the continuum [150, 450)
KRIPPENDORFF_2004_I = [(225, 295), (370, 400)]
KRIPPENDORFF_2004_J = [(220, 300), (355, 375), (400, 420)]


def test_krippendorff_2004_worked_example_from_units():
    units = [[(s - 150, e - 150) for s, e in coder] for coder in (KRIPPENDORFF_2004_I, KRIPPENDORFF_2004_J)]
    result = unitizing_alpha_from_units(300, units)
    for key, printed in zip(KEYS, (".0144", ".0532", ".7286")):
        assert_printed(result[key], "0" + printed)


def test_krippendorff_2004_worked_example_from_tags():
    coders = []
    for coder in (KRIPPENDORFF_2004_I, KRIPPENDORFF_2004_J):
        pattern = ["0"] * 300
        for s, e in coder:
            pattern[s - 150:e - 150] = ["1"] * (e - s)
        coders.append(bio("".join(pattern), "c"))
    result = unitizing_alpha([coders])
    assert list(result["per_type"]) == ["c"]
    for key, printed in zip(KEYS, ("0.0144", "0.0532", "0.7286")):
        assert_printed(result[key], printed)


# ---------------------------------------------------------------------------------------------
# naive oracle: the SPEC_NOTES definitions, every pair of sections, exact fractions


def _naive_sections(texts, annotator, type_):
    """Sections (start, end, is_unit) on the concatenated continuum; gaps cut at text ends."""
    out, offset = [], 0
    for text in texts:
        tags = text[annotator]
        spans = [(s, e) for t, s, e in chance_agreement.spans_from_tags(tags) if t == type_]
        position = 0
        for s, e in spans + [(len(tags), len(tags))]:
            if s > position:
                out.append((offset + position, offset + s, False))
            if e > s:
                out.append((offset + s, offset + e, True))
            position = e
        offset += len(tags)
    return out, offset


def _naive_u_alpha(texts, type_):
    m = len(texts[0])
    sections = [_naive_sections(texts, i, type_)[0] for i in range(m)]
    L = _naive_sections(texts, 0, type_)[1]
    squared = 0
    for i, j in itertools.permutations(range(m), 2):
        for s1, e1, u1 in sections[i]:
            for s2, e2, u2 in sections[j]:
                if u1 and u2 and s1 < e2 and s2 < e1:
                    squared += (s1 - s2) ** 2 + (e1 - e2) ** 2
                elif u1 and not u2 and s2 <= s1 and e1 <= e2:
                    squared += (e1 - s1) ** 2
                elif u2 and not u1 and s1 <= s2 and e2 <= e1:
                    squared += (e2 - s2) ** 2
    do = Fraction(squared, m * (m - 1) * L * L)
    units = [e - s for annotator in sections for s, e, u in annotator if u]
    gaps = [e - s for annotator in sections for s, e, u in annotator if not u]
    n = len(units)
    numerator = sum(
        Fraction((n - 1) * (2 * l**3 - 3 * l**2 + l), 3) + l * l * sum(g - l + 1 for g in gaps if g >= l)
        for l in units
    )
    de = Fraction(2, L) * numerator / (m * L * (m * L - 1) - sum(l * (l - 1) for l in units))
    return do, de


def _naive_mu_alpha(texts, types):
    """Eq. 5a with the full coincidence matrix o_ck and e_ck over values types + gap."""
    m = len(texts[0])
    values = [None, *types]
    sections = []  # per annotator: (start, end, value)
    for i in range(m):
        out, offset = [], 0
        for text in texts:
            tags = text[i]
            position = 0
            for t, s, e in chance_agreement.spans_from_tags(tags) + [(None, len(tags), len(tags))]:
                if t is not None and t not in types:
                    continue
                if s > position:
                    out.append((offset + position, offset + s, None))
                if e > s:
                    out.append((offset + s, offset + e, t))
                position = e
            offset += len(tags)
        sections.append(out)
    L = offset
    n = m * L
    o = {(c, k): Fraction(0) for c in values for k in values}
    for i, j in itertools.permutations(range(m), 2):
        for s1, e1, v1 in sections[i]:
            for s2, e2, v2 in sections[j]:
                overlap = min(e1, e2) - max(s1, s2)
                if overlap > 0:
                    o[v1, v2] += Fraction(overlap, m - 1)
    n_c = {c: sum(o[c, k] for k in values) for c in values}
    w = {c: sum((e - s) ** 2 if c is not None else e - s
                for annotator in sections for s, e, v in annotator if v == c) for c in values}
    total_w = sum(w.values())
    e_cc = {c: n * (n_c[c] * n_c[c] - w[c]) / (n * n - total_w) for c in values}
    assert sum(n_c.values()) == n
    return 1 - sum(o[c, c] for c in values) / n, 1 - sum(e_cc.values()) / n


def _random_texts(rng, n_texts, n_annotators, types=("PER", "LOC", "ORG")):
    texts = []
    for _ in range(n_texts):
        length = rng.randint(1, 25)
        text = []
        for _ in range(n_annotators):
            tags, position = [], 0
            while position < length:
                if rng.random() < 0.3:
                    size = min(rng.randint(1, 5), length - position)
                    t = rng.choice(types)
                    tags += [f"B-{t}"] + [f"I-{t}"] * (size - 1)
                    position += size
                else:
                    tags.append("O")
                    position += 1
            text.append(tags)
        texts.append(text)
    return texts


@pytest.mark.parametrize("seed", range(12))
def test_matches_naive_oracle_on_random_multi_type_data(seed):
    rng = random.Random(seed)
    texts = _random_texts(rng, n_texts=rng.randint(1, 4), n_annotators=rng.choice([2, 3, 4]))
    types = sorted({t for text in texts for tags in text for t, _, _ in chance_agreement.spans_from_tags(tags)})
    u = unitizing_alpha(texts)
    mu = unitizing_alpha(texts, variant="mu_alpha")
    assert sorted(u["per_type"]) == types == sorted(mu["per_type"])
    do_sum = de_sum = Fraction(0)
    for type_ in types:
        do, de = _naive_u_alpha(texts, type_)
        do_sum, de_sum = do_sum + do, de_sum + de
        assert u["per_type"][type_]["observed_disagreement"] == float(do)
        assert u["per_type"][type_]["expected_disagreement"] == float(de)
        mu_do, mu_de = _naive_mu_alpha(texts, [type_])
        assert mu["per_type"][type_]["observed_disagreement"] == float(mu_do)
        assert mu["per_type"][type_]["expected_disagreement"] == float(mu_de)
    # pooled u_alpha: sums over types (Krippendorff's all-category coefficient)
    assert u["observed_disagreement"] == float(do_sum)
    assert u["expected_disagreement"] == float(de_sum)
    if de_sum:
        assert u["alpha"] == float(1 - do_sum / de_sum)
    # pooled mu_alpha: eq. 5a with every type a value
    mu_do, mu_de = _naive_mu_alpha(texts, types)
    assert mu["observed_disagreement"] == float(mu_do)
    assert mu["expected_disagreement"] == float(mu_de)


# ---------------------------------------------------------------------------------------------
# invariants on three annotators and several types


THREE = [
    [bio("0011100011000", "PER")[:5] + bio("00011000", "LOC"),
     bio("0111000011000", "PER")[:5] + bio("00111000", "LOC"),
     bio("0011100001100", "PER")[:5] + bio("00011100", "LOC")],
    [bio("1100011", "ORG"), bio("1100111", "ORG"), bio("1000011", "ORG")],
]


@pytest.mark.parametrize("variant", ["u_alpha", "mu_alpha"])
def test_identical_annotators_give_alpha_one(variant):
    texts = [[text[0]] * 3 for text in THREE]
    result = unitizing_alpha(texts, variant=variant)
    assert result["alpha"] == 1.0
    assert result["observed_disagreement"] == 0.0
    assert result["expected_disagreement"] > 0
    assert set(result["per_type"]) == {"PER", "LOC", "ORG"}
    assert all(value["alpha"] == 1.0 for value in result["per_type"].values())


@pytest.mark.parametrize("variant", ["u_alpha", "mu_alpha"])
def test_symmetric_in_annotator_order(variant):
    reference = unitizing_alpha(THREE, variant=variant)
    assert reference["alpha"] < 1
    for order in itertools.permutations(range(3)):
        permuted = [[text[i] for i in order] for text in THREE]
        assert unitizing_alpha(permuted, variant=variant) == reference  # exact arithmetic: equal floats


@pytest.mark.parametrize("variant", ["u_alpha", "mu_alpha"])
def test_invariant_to_text_order(variant):
    assert unitizing_alpha(THREE[::-1], variant=variant) == unitizing_alpha(THREE, variant=variant)


def test_text_boundaries_change_only_u_alpha_expected_disagreement():
    two_texts = [[bio("0110"), bio("0100")], [bio("0001100"), bio("0011100")]]
    one_text = [[bio("0110" + "0001100"), bio("0100" + "0011100")]]
    u_two, u_one = unitizing_alpha(two_texts), unitizing_alpha(one_text)
    assert u_two["observed_disagreement"] == u_one["observed_disagreement"]
    assert u_two["expected_disagreement"] != u_one["expected_disagreement"]  # the 0 + 000 gap is cut
    assert unitizing_alpha(two_texts, variant="mu_alpha") == unitizing_alpha(one_text, variant="mu_alpha")


def test_mu_alpha_observed_disagreement_is_token_disagreement():
    """sum_c o_cc counts agreeing (pair, position)s: Do is the share of differing positions."""
    a = bio("0011100", "PER") + bio("0110", "LOC")
    b = bio("0001100", "PER") + bio("0110", "PER")
    result = unitizing_alpha([[a, b]], variant="mu_alpha")
    differing = sum(x.split("-")[-1] != y.split("-")[-1] for x, y in zip(a, b))
    assert result["observed_disagreement"] == pytest.approx(differing / len(a))


def test_strict_mode_iobes_equals_bio():
    bio_texts = [[["B-X", "I-X", "O", "B-Y"], ["B-X", "O", "O", "B-Y"]]]
    iobes_texts = [[["B-X", "E-X", "O", "S-Y"], ["S-X", "O", "O", "S-Y"]]]
    for variant in ("u_alpha", "mu_alpha"):
        assert unitizing_alpha(iobes_texts, variant=variant, mode="strict") == unitizing_alpha(bio_texts, variant=variant)
        assert unitizing_alpha(iobes_texts, variant=variant, mode="strict", scheme="IOBES") == unitizing_alpha(
            bio_texts, variant=variant
        )


def test_numpy_arrays_of_tags_are_accepted():
    import numpy as np

    a, b = SIM1_A
    as_arrays = [np.array([bio(a), bio(b)])]
    assert unitizing_alpha(as_arrays) == unitizing_alpha([[bio(a), bio(b)]])


def test_exported_from_package():
    assert chance_agreement.unitizing_alpha is unitizing_alpha
    assert chance_agreement.unitizing_alpha_from_units is unitizing_alpha_from_units


# ---------------------------------------------------------------------------------------------
# degenerate input: documented values, JSON-serialisable, never NaN


@pytest.mark.parametrize("variant", ["u_alpha", "mu_alpha"])
def test_no_units_at_all(variant):
    result = unitizing_alpha([[["O"] * 5, ["O"] * 5], [["O"], ["O"]]], variant=variant)
    assert result["alpha"] is None
    assert result["observed_disagreement"] == 0.0 and result["expected_disagreement"] == 0.0
    assert result["per_type"] == {}
    assert "expected disagreement is 0" in result["warnings"][0]
    json.dumps(result, allow_nan=False)


@pytest.mark.parametrize("variant", ["u_alpha", "mu_alpha"])
def test_one_annotator(variant):
    result = unitizing_alpha([[bio("0110")]], variant=variant)
    assert result["alpha"] is None and result["observed_disagreement"] is None
    assert result["per_type"] == {"X": {key: None for key in KEYS}}
    assert "two or more annotators" in result["warnings"][0]
    json.dumps(result, allow_nan=False)


def test_zero_expected_disagreement_for_one_type_only():
    """L = 1 and every position a unit: De = 0 for u_alpha -> alpha None, reason given."""
    result = unitizing_alpha([[["B-X"], ["B-X"]]])
    assert result["alpha"] is None and result["per_type"]["X"]["alpha"] is None
    assert any("type 'X'" in warning for warning in result["warnings"])


def test_empty_text_among_others_is_allowed():
    a, b = SIM1_A
    assert unitizing_alpha([[[], []], [bio(a), bio(b)], [[], []]]) == unitizing_alpha([[bio(a), bio(b)]])


def test_results_are_plain_floats():
    result = unitizing_alpha(THREE, variant="mu_alpha")
    values = [result[k] for k in KEYS] + [v for entry in result["per_type"].values() for v in entry.values()]
    assert all(type(value) is float for value in values)
    json.dumps(result, allow_nan=False)


# ---------------------------------------------------------------------------------------------
# bad input


@pytest.mark.parametrize(
    ("annotations", "message"),
    [
        ([], "empty input: no texts"),
        ("O O", "annotations must be a list"),
        ([[["O"], ["O"]], [["O"], ["O"], ["O"]]], "text 1 has 3 annotators but text 0 has 2"),
        ([[["O", "O"], ["O"]]], "text 0: annotator 1 has 1 tags but annotator 0 has 2"),
        ([[["O"], ["O"]], [["O"], [None]]], "text 1, annotator 1: position 0: the tag is None"),
        ([[["O"], None]], "text 0, annotator 1: missing annotation"),
        ([[["O"], "O"]], "text 0, annotator 1: expected a list of tags, got a string"),
        ([[[], []]], "empty input: every text has zero tokens"),
        (["O"], "text 0: expected a list over annotators"),
    ],
)
def test_bad_annotations(annotations, message):
    with pytest.raises(ValueError, match=message):
        unitizing_alpha(annotations)


def test_unknown_variant():
    with pytest.raises(ValueError, match="variant must be one of .*'u_alpha'.*got 'kappa'"):
        unitizing_alpha([[["O"], ["O"]]], variant="kappa")


@pytest.mark.parametrize(
    ("length", "units", "kwargs", "message"),
    [
        (0, [[], []], {}, "length must be a positive integer, got 0"),
        (10, [[(3, 12)], []], {}, r"annotator 0, unit 0 \(3, 12\): needs 0 <= start < end <= 10"),
        (10, [[], [(4, 4)]], {}, r"annotator 1, unit 0 \(4, 4\): needs"),
        (10, [[(0, 4), (3, 6)], []], {}, "annotator 0: units .* of one type overlap"),
        (10, [[(2, 6)], []], {"gap_breaks": [5]}, r"annotator 0, unit 0 \(2, 6\) runs across the gap break 5"),
        (10, [[], []], {"gap_breaks": [10]}, r"gap breaks must lie strictly inside \(0, 10\)"),
        (10, [[(1.5, 3)], []], {}, "unit start must be an integer, got 1.5"),
        (10, [[(0, 2)], None], {}, "annotator 1: expected a list of units, got None"),
        (10, [[(1, 2, 3, 4)], []], {}, r"annotator 0, unit 0: expected \(start, end\) or \(type, start, end\)"),
        (10, [[("A", 0, 4), ("B", 2, 6)], []], {"variant": "mu_alpha"},
         r"annotator 0: units overlap at \[2, 6\); mu_alpha needs one value per position"),
    ],
)
def test_bad_units(length, units, kwargs, message):
    with pytest.raises(ValueError, match=message):
        unitizing_alpha_from_units(length, units, **kwargs)


def test_overlapping_units_of_different_types_are_fine_for_u_alpha():
    result = unitizing_alpha_from_units(10, [[("A", 0, 4), ("B", 2, 6)], [("A", 0, 4), ("B", 2, 6)]])
    assert result["alpha"] == 1.0 and set(result["per_type"]) == {"A", "B"}


def test_mu_alpha_on_a_continuum_of_a_billion_positions():
    """Issue 10 item 5: no per-position array (7.45 GiB before); eq. 5a by hand in fractions."""
    L = 10**9
    result = unitizing_alpha_from_units(L, [[(0, 10)], [(5, 10)]], variant="mu_alpha")
    n = 2 * L
    observed = 1 - Fraction(2 * (L - 5), n)  # the two annotators differ on positions 0..4
    n_1, w_1 = 15, 10**2 + 5**2
    n_0 = w_0 = n - n_1
    expected = 1 - Fraction(n_0 * n_0 - w_0 + n_1 * n_1 - w_1, n * n - w_0 - w_1)
    assert result["observed_disagreement"] == float(observed)
    assert result["expected_disagreement"] == pytest.approx(float(expected), rel=1e-12)
    assert result["alpha"] == pytest.approx(float(1 - observed / expected), rel=1e-12)


def test_mu_alpha_still_refuses_overlapping_units():
    with pytest.raises(ValueError, match=r"annotator 1: units overlap at \[3, 8\); mu_alpha needs one value"):
        unitizing_alpha_from_units(20, [[(0, 4)], [("A", 0, 5), ("B", 3, 8)]], variant="mu_alpha")
