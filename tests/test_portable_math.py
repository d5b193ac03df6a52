"""chance_agreement._numerics.portable_math: accuracy against mpmath at 50 digits, agreement with
numpy/scipy over wide ranges, special values, properties, and the same bits under every simulated
CPU (OpenBLAS core types and numpy's baseline kernels) in fresh subprocesses."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import warnings
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest
import scipy.special as sc
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from chance_agreement._numerics import portable_math as pm

mp.mp.dps = 50
TINY_NORMAL = 2.2250738585072014e-308


def _ulps(got: float, exact) -> float:
    """|got - exact| in units of the last place of exact rounded to double."""
    reference = float(exact)
    if math.isinf(reference):
        return 0.0 if got == reference else math.inf
    return float(abs(mp.mpf(got) - exact) / mp.mpf(math.ulp(reference)))


def _relative(got: float, exact) -> float:
    if exact == 0:
        return abs(got)
    return float(abs(mp.mpf(got) - exact) / abs(exact))


def _worst(errors, inputs) -> tuple[float, object]:
    errors = np.asarray(errors, dtype=float)
    i = int(np.argmax(errors))
    return float(errors[i]), inputs[i]


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


# --------------------------------------------------------------------------- constant tables


def test_series_tables_are_the_correctly_rounded_constants():
    """Every coefficient table that is not a published minimax set is a mathematical constant
    rounded once to double: recomputed here at 50 digits, bit for bit."""
    assert pm._ZETA_MINUS_ONE == tuple(float((-1) ** k * (mp.zeta(k) - 1) / k) for k in range(2, 32))
    sine = ((-1) ** k * mp.pi ** (2 * k + 1) / mp.factorial(2 * k + 1) for k in range(10))
    assert pm._SINPI == tuple(float(c) for c in sine)
    assert pm._COSPI == tuple(float((-1) ** k * mp.pi ** (2 * k) / mp.factorial(2 * k)) for k in range(10))
    stirling = (Fraction(*map(int, mp.bernfrac(2 * k))) / (2 * k * (2 * k - 1)) for k in range(1, 9))
    assert pm._STIRLING == tuple(float(c) for c in stirling)
    assert pm._HALF_LOG_2PI == float(mp.log(2 * mp.pi) / 2)
    assert pm._ONE_MINUS_EULER == float(1 - mp.euler)
    assert pm._LOG_PI == float(mp.log(mp.pi))
    assert pm._INV_SQRT_2PI == float(1 / mp.sqrt(2 * mp.pi))
    assert pm._SQRT_HALF_EXACT == float(1 / mp.sqrt(2)) and pm._SQRT_TWO == float(mp.sqrt(2))
    assert pm._EXPM1_TAYLOR == tuple(float(Fraction(1, math.factorial(n))) for n in range(2, 21))
    assert pm._LOG1PMX_SERIES == tuple(float(Fraction(1, 2 * k + 3)) for k in range(16))
    assert pm._LN2_HI + pm._LN2_LO == float(mp.log(2))
    assert np.float64(pm._LN2_HI).view(np.uint64) & ((1 << 21) - 1) == 0  # k * ln2_hi exact for |k| < 2^21
    assert abs(mp.mpf(pm._LN2_HI) + mp.mpf(pm._LN2_LO) - mp.log(2)) < mp.mpf(2) ** -80


def test_fdlibm_erf_coefficients_match_their_published_bit_patterns():
    """The erf/erfc rational approximations are fdlibm's; its source gives each constant's two
    32-bit words, which the decimals here must reproduce."""
    words = {
        "_ERF_PP": "3FC06EBA8214DB68 BFD4CD7D691CB913 BF9D2A51DBD7194F BF77A291236668E4 BEF8EAD6120016AC",
        "_ERF_QQ": "3FF0000000000000 3FD97779CDDADC09 3FB0A54C5536CEBA 3F74D022C4D36B0F 3F215DC9221C1A10 "
                   "BED09C4342A26120",
        "_ERF_PA": "BF6359B8BEF77538 3FDA8D00AD92B34D BFD7D240FBB8C3F1 3FD45FCA805120E4 BFBC63983D3E28EC "
                   "3FA22A36599795EB BF61BF380A96073F",
        "_ERF_QA": "3FF0000000000000 3FBB3E6618EEE323 3FE14AF092EB6F33 3FB2635CD99FE9A7 3FC02660E763351F "
                   "3F8BEDC26B51DD1C 3F888B545735151D",
        "_ERFC_RA": "BF843412600D6435 BFE63416E4BA7360 C0251E0441B0E726 C04F300AE4CBA38D C0644CB184282266 "
                    "C067135CEBCCABB2 C054526557E4D2F2 C023A0EFC69AC25C",
        "_ERFC_SA": "3FF0000000000000 4033A6B9BD707687 4061350C526AE721 407B290DD58A1A71 40842B1921EC2868 "
                    "407AD02157700314 405B28A3EE48AE2C 401A47EF8E484A93 BFAEEFF2EE749A62",
        "_ERFC_RB": "BF84341239E86F4A BFE993BA70C285DE C031C209555F995A C064145D43C5ED98 C083EC881375F228 "
                    "C09004616A2E5992 C07E384E9BDC383F",
        "_ERFC_SB": "3FF0000000000000 403E568B261D5190 40745CAE221B9F0A 409802EB189D5118 40A8FFB7688C246A "
                    "40A3F219CEDF3BE6 407DA874E79FE763 C03670E242712D62",
        "_ERX": "3FEB0AC160000000",
    }
    for name, pattern in words.items():
        values = getattr(pm, name)
        values = values if isinstance(values, tuple) else (values,)
        got = [np.float64(v).view(np.uint64).item() for v in values]
        assert got == [int(w, 16) for w in pattern.split()], name


# --------------------------------------------------------------------------- accuracy (mpmath, 50 digits)


def _edge_floats() -> list[float]:
    return [5e-324, 1e-310, TINY_NORMAL, 1e-300, 2.0**-60, 1e-17, 1e-8, 0.1, 0.5, 1.0 - 2**-53, 1.0,
            1.0 + 2**-52, 1.5, 2.0, math.e, 10.0, 100.0, 1e10, 1e100, 1e300, 1.7976931348623157e308]


def _check_ulps(function, reference, inputs, bound: float) -> None:
    got = np.asarray(function(np.array(inputs, dtype=float)), dtype=float)
    errors = [_ulps(float(g), reference(mp.mpf(float(x)))) for g, x in zip(got, inputs)]
    worst, where = _worst(errors, list(inputs))
    assert worst <= bound, f"{function.__name__}: {worst:.3f} ulp at {where!r}"


def test_exp_within_one_ulp():
    rng = _rng(101)
    x = np.concatenate([rng.uniform(-745.1, 709.78, 2500), rng.uniform(-1, 1, 1000), rng.uniform(-1e-6, 1e-6, 300),
                        [-745.13, -708.5, -708.3, 0.0, 1e-300, 709.78, 0.5 * pm.log(2.0)]])
    _check_ulps(pm.exp, mp.exp, x, 1.0)


def test_log_within_one_ulp():
    rng = _rng(102)
    x = np.concatenate([pm.exp(rng.uniform(-744, 709, 2500)), rng.uniform(0.5, 2.0, 1000),
                        1.0 + rng.uniform(-1e-7, 1e-7, 300), _edge_floats()])
    _check_ulps(pm.log, mp.log, x, 1.0)


def test_log1p_within_one_ulp_also_near_zero():
    rng = _rng(103)
    x = np.concatenate([rng.uniform(-1, 1, 1500), pm.exp(rng.uniform(-744, 709, 1500)),
                        -pm.exp(rng.uniform(-744, -1e-9, 1000)), [-0.999999999, -0.5, -0.2928932188134524]])
    x = np.concatenate([x, _edge_floats()])
    _check_ulps(pm.log1p, mp.log1p, x[x > -1], 1.0)


def test_expm1_within_two_ulp_also_near_zero():
    rng = _rng(104)
    x = np.concatenate([rng.uniform(-40, 709, 1000), rng.uniform(-2, 2, 1500), rng.uniform(-1e-9, 1e-9, 300),
                        [-1.0, 1.0, -1e-300, 5e-324]])
    _check_ulps(pm.expm1, mp.expm1, x, 2.0)


def test_sin_pi_within_two_ulp_with_exact_zeros():
    rng = _rng(105)
    x = np.concatenate([rng.uniform(0, 1, 1500), rng.uniform(-6, 6, 1000), rng.uniform(-1e-8, 1e-8, 100),
                        [0.25, 0.5, 0.75, 1 / 3, 1e-300]])
    _check_ulps(pm.sin_pi, mp.sinpi, x, 2.0)
    integers = np.array([0.0, 1.0, -1.0, 2.0, 7.0, -12.0, 2.0**52, 2.0**60])
    assert np.all(pm.sin_pi(integers) == 0.0)


def test_gammaln_relative_error_below_1e_14():
    rng = _rng(106)
    x = np.concatenate([pm.exp(rng.uniform(-40, pm.log(1e9), 2000)), rng.uniform(0, 12, 1500),
                        1.0 + rng.uniform(-1e-3, 1e-3, 200), 2.0 + rng.uniform(-1e-3, 1e-3, 200),
                        [1.4616321449683622, 0.5, 1.5, 2.5, 9.999999999999998, 10.0, 1e300], _edge_floats()[:-1]])
    got = pm.gammaln(x)
    errors = [_relative(float(g), mp.loggamma(mp.mpf(float(v)))) for g, v in zip(got, x)]
    worst, where = _worst(errors, list(x))
    assert worst <= 1e-14, f"gammaln: relative {worst:.3g} at {where!r}"
    assert pm.gammaln(1.0) == 0.0 and pm.gammaln(2.0) == 0.0


def test_gammaln_negative_arguments_absolute_accuracy():
    rng = _rng(107)
    x = -rng.uniform(0, 30, 800)
    x = x[x != np.floor(x)]
    got = pm.gammaln(x)
    errors = [abs(float(g) - float(mp.log(abs(mp.gamma(mp.mpf(float(v))))))) / max(1.0, abs(float(g)))
              for g, v in zip(got, x)]
    worst, where = _worst(errors, list(x))
    assert worst <= 1e-13, f"gammaln(negative): {worst:.3g} at {where!r}"


def test_log_factorial_exact_table_and_gamma_beyond():
    n = np.array([0, 1, 2, 3, 10, 20, 100, 170, 171, 172, 1000, 10**6, 10**9, 2**53])
    got = pm.log_factorial(n)
    for value, k in zip(got, n):
        exact = mp.log(mp.factorial(int(k))) if k <= 10**6 else mp.loggamma(mp.mpf(int(k)) + 1)
        assert _ulps(float(value), exact) <= 1.5, k
    assert pm.log_factorial(0) == 0.0 and pm.log_factorial(1) == 0.0
    assert isinstance(pm.log_factorial(5), float) and pm.log_factorial(np.int64(5)) == pm.log_factorial(5.0)
    for bad in (-1, 2.5, math.nan, math.inf, [3, -2]):
        with pytest.raises(ValueError, match="non-negative integers"):
            pm.log_factorial(bad)


def test_betaln_relative_error_also_with_one_huge_argument():
    rng = _rng(108)
    a = pm.exp(rng.uniform(pm.log(1e-3), pm.log(1e9), 2500))
    b = pm.exp(rng.uniform(pm.log(1e-3), pm.log(1e9), 2500))
    a[:500] = rng.uniform(0.01, 12, 500)
    b[:500] = rng.uniform(0.01, 12, 500)
    a = np.concatenate([a, [1.0, 1.0, 2.0, 10.0, 9.999999999999998, 1e9, 0.5]])
    b = np.concatenate([b, [1.0, 1e9, 3.0, 10.0, 10.0, 1.0, 1e-300]])
    got = pm.betaln(a, b)
    exact = [mp.log(mp.beta(mp.mpf(float(x)), mp.mpf(float(y)))) for x, y in zip(a, b)]
    # relative where |log B| >= 0.1, absolute near the curve B(a, b) = 1 where log B changes sign
    errors = [_relative(float(g), e) if abs(e) >= 0.1 else float(abs(mp.mpf(float(g)) - e)) * 10
              for g, e in zip(got, exact)]
    worst, where = _worst(errors, list(zip(a, b)))
    assert worst <= 1e-14, f"betaln: {worst:.3g} at {where!r}"
    assert pm.betaln(1.0, 1.0) == 0.0
    assert np.array_equal(pm.betaln(a, b), pm.betaln(b, a))


def test_ndtr_relative_error_in_both_tails():
    rng = _rng(109)
    x = np.concatenate([rng.uniform(-37.5, 9, 2500), rng.uniform(-3, 3, 1500), rng.uniform(-1e-4, 1e-4, 200),
                        [-37.5, -20.0, -8.0, -1.7677669529663687, -1.1932, 0.0, 1.1932, 1.19, 8.3]])
    got = pm.ndtr(x)  # down to -37.5: Phi >= 4.6e-308, still a normal double
    errors = [_relative(float(g), mp.ncdf(mp.mpf(float(v)))) for g, v in zip(got, x)]
    worst, where = _worst(errors, list(x))
    assert worst <= 1e-14, f"ndtr: relative {worst:.3g} at {where!r}"
    assert np.array_equal(pm.norm_cdf(x * 2.5 + 1.0, loc=1.0, scale=2.5), pm.ndtr((x * 2.5 + 1.0 - 1.0) / 2.5))


def _exact_ndtri(p: float, start: float):
    target = mp.mpf(p)
    return mp.findroot(lambda z: mp.ncdf(z) - target, mp.mpf(start), tol=mp.mpf(10) ** -45)


def test_ndtri_relative_error_below_1e_13():
    rng = _rng(110)
    p = np.concatenate([rng.uniform(0, 1, 500), pm.exp(rng.uniform(pm.log(5e-324), 0, 400)),
                        1.0 - pm.exp(rng.uniform(-36, -1e-6, 200)), 0.5 + rng.uniform(-1e-7, 1e-7, 100),
                        [5e-324, 1e-320, 2.2e-308, 1e-300, 9.9e-301, 1e-20, 0.025, 0.25, 0.5 - 2**-54,
                         0.5 + 2**-53, 0.75, 0.975, 1 - 2**-53]])
    got = pm.ndtri(p)
    errors = [_relative(float(g), _exact_ndtri(float(q), float(g))) for g, q in zip(got, p)]
    worst, where = _worst(errors, list(p))
    assert worst <= 1e-13, f"ndtri: relative {worst:.3g} at {where!r}"
    assert pm.ndtri(0.5) == 0.0


def _exact_betainc(a: float, b: float, x: float):
    """I_x(a, b) to ~40 digits: the plain continued fraction (DLMF 8.17.22) at 60 digits with
    the exact prefactor, on the side where it converges fast (an oracle independent of the
    even-part fraction, the lambda form and the Temme-form prefactor of the code under test)."""
    with mp.workdps(60):
        a, b, x = mp.mpf(a), mp.mpf(b), mp.mpf(x)
        swap = x * (a + b + 2) > a + 1
        if swap:
            a, b, x = b, a, 1 - x
        front = mp.exp(a * mp.log(x) + b * mp.log1p(-x) - mp.log(mp.beta(a, b))) / a
        tiny, eps = mp.mpf(10) ** -200, mp.mpf(10) ** -55
        d = 1 - (a + b) * x / (a + 1)
        d = 1 / (d if abs(d) > tiny else tiny)
        f, c = d, mp.mpf(1)
        for m in range(1, 10**7):
            for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                        -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
                d = 1 + num * d
                d = 1 / (d if abs(d) > tiny else tiny)
                c = 1 + num / c
                c = c if abs(c) > tiny else tiny
                f *= c * d
            if abs(c * d - 1) < eps:
                break
        value = front * f
        return 1 - value if swap else value


def _betainc_cases(seed: int, low: float, high: float, count: int):
    rng = _rng(seed)
    a = pm.exp(rng.uniform(pm.log(low), pm.log(high), count))
    b = pm.exp(rng.uniform(pm.log(low), pm.log(high), count))
    mean = a / (a + b)
    spread = np.sqrt(a * b / ((a + b) ** 2 * (a + b + 1)))
    x = np.clip(mean + spread * 3 * pm.ndtri(rng.random(count)), 1e-300, 1 - 2**-53)
    x[: count // 3] = rng.uniform(0, 1, count // 3)
    return a, b, x


def test_betainc_agrees_with_the_mpmath_oracle_on_known_values():
    for a, b, x in [(2.5, 3.5, 0.3), (0.01, 300.0, 0.001), (40.0, 2.0, 0.97), (1.0, 1.0, 0.25)]:
        oracle = _exact_betainc(a, b, x)
        assert abs(oracle - mp.betainc(a, b, 0, x, regularized=True)) < mp.mpf(10) ** -40
        assert _relative(pm.betainc(a, b, x), oracle) <= 1e-14


@pytest.mark.parametrize(("seed", "low", "high", "count"), [(111, 1.0, 1e4, 500), (112, 1e4, 1e7, 80)])
def test_betainc_relative_error_below_1e_13_for_parameters_from_one(seed, low, high, count):
    a, b, x = _betainc_cases(seed, low, high, count)
    got = pm.betainc(a, b, x)
    exact = [_exact_betainc(*map(float, v)) for v in zip(a, b, x)]
    errors = [_relative(float(g), e) if e > 1e-100 else 0.0 for g, e in zip(got, exact)]
    worst, where = _worst(errors, list(zip(a, b, x)))
    assert worst <= 1e-13, f"betainc: relative {worst:.3g} at {where!r}"


def test_betainc_small_parameters_absolute_error():
    """Below a, b = 1 the complement 1 - I_{1-x}(b, a) can cancel: relative 1e-13 or absolute 2e-15."""
    a, b, x = _betainc_cases(113, 1e-3, 1e4, 400)
    got = pm.betainc(a, b, x)
    exact = [_exact_betainc(*map(float, v)) for v in zip(a, b, x)]
    errors = [min(_relative(float(g), e), float(abs(mp.mpf(float(g)) - e)) * 50) for g, e in zip(got, exact)]
    worst, where = _worst(errors, list(zip(a, b, x)))
    assert worst <= 1e-13, f"betainc: {worst:.3g} at {where!r}"


# --------------------------------------------------------------------------- numpy / scipy, wide ranges


def _close_in_ulps(got: np.ndarray, expected: np.ndarray, bound: float) -> float:
    finite = np.isfinite(expected) & (expected != 0)
    assert np.array_equal(got[~finite], expected[~finite])
    spacing = np.spacing(np.abs(expected[finite]))
    worst = float(np.max(np.abs(got[finite] - expected[finite]) / spacing))
    assert worst <= bound
    return worst


def test_elementary_functions_agree_with_numpy_within_two_ulp_over_wide_ranges():
    rng = _rng(120)
    x = rng.uniform(-745, 709, 200_000)
    _close_in_ulps(pm.exp(x), np.exp(x), 2.0)
    positive = pm.exp(rng.uniform(-744, 709, 200_000))
    _close_in_ulps(pm.log(positive), np.log(positive), 2.0)
    above = np.concatenate([rng.uniform(-1, 1, 100_000), pm.exp(rng.uniform(-700, 700, 100_000))])
    _close_in_ulps(pm.log1p(above), np.log1p(above), 2.0)
    _close_in_ulps(pm.expm1(x / 10), np.expm1(x / 10), 3.0)
    unit = rng.uniform(0, 1, 100_000)
    _close_in_ulps(pm.sin_pi(unit), np.sin(np.pi * unit), 2.0**20)  # np.pi * x itself is rounded


def _check_against_scipy(got, expected, inputs, exact, *, tolerance: float, floor: float = 0.0) -> int:
    """Agreement with scipy within ``tolerance`` (relative, scale at least ``floor``); where they
    differ by more, mpmath must side with us (scipy has known inaccurate corners, e.g. betaln with
    one tiny and one huge argument). Returns how many points scipy got wrong."""
    assert np.array_equal(np.isnan(got), np.isnan(expected))
    scale = np.maximum(np.abs(expected), floor)
    with np.errstate(invalid="ignore"):
        difference = np.where(got == expected, 0.0, np.abs(got - expected) / scale)
    disagreements = np.flatnonzero(difference > tolerance)
    for i in disagreements[np.argsort(difference[disagreements])][-25:]:
        truth = exact(*(float(v[i]) for v in inputs))
        ours = float(abs(mp.mpf(float(got[i])) - truth) / max(abs(truth), floor))
        theirs = float(abs(mp.mpf(float(expected[i])) - truth) / max(abs(truth), floor))
        assert ours <= tolerance and ours < theirs, (i, [float(v[i]) for v in inputs], ours, theirs)
    return disagreements.size


def test_special_functions_agree_with_scipy_over_wide_ranges():
    rng = _rng(121)
    g = np.concatenate([pm.exp(rng.uniform(-700, 690, 100_000)), rng.uniform(0, 20, 100_000)])
    _check_against_scipy(pm.gammaln(g), sc.gammaln(g), (g,), lambda v: mp.loggamma(mp.mpf(v)),
                         tolerance=1e-14, floor=0.1)
    a = pm.exp(rng.uniform(-5, 20, 100_000))
    b = pm.exp(rng.uniform(-5, 20, 100_000))
    wrong = _check_against_scipy(pm.betaln(a, b), sc.betaln(a, b), (a, b),
                                 lambda u, v: mp.log(mp.beta(mp.mpf(u), mp.mpf(v))), tolerance=1e-14, floor=0.1)
    assert wrong > 0  # scipy's corner (a < 1 << b) is exercised: these inputs can tell the two apart
    z = rng.uniform(-37, 9, 200_000)
    _check_against_scipy(pm.ndtr(z), sc.ndtr(z), (z,), lambda v: mp.ncdf(mp.mpf(v)), tolerance=1e-14)
    p = np.concatenate([rng.uniform(0, 1, 100_000), pm.exp(rng.uniform(-744, 0, 100_000))])
    _check_against_scipy(pm.ndtri(p), sc.ndtri(p), (p,), lambda q: _exact_ndtri(q, float(sc.ndtri(q))),
                         tolerance=1e-13)
    a, b, x = _betainc_cases(122, 1.0, 1e6, 20_000)
    _check_against_scipy(pm.betainc(a, b, x), sc.betainc(a, b, x), (a, b, x), _exact_betainc,
                         tolerance=1e-13, floor=1e-100)


# --------------------------------------------------------------------------- special values


SPECIALS = np.array([-np.inf, -1e308, -745.2, -3.0, -2.5, -1.0, -0.5, -0.0, 0.0, 5e-324, 0.5, 1.0, 2.0,
                     709.8, 1e308, np.inf, np.nan])


def _same_values(got, expected, tolerance: float = 1e-14) -> bool:
    got, expected = np.asarray(got, dtype=float), np.asarray(expected, dtype=float)
    with np.errstate(invalid="ignore"):
        return bool(np.all((got == expected) | (np.isnan(got) & np.isnan(expected))
                           | (np.abs(got - expected) <= tolerance * np.abs(expected))))


@pytest.mark.parametrize(("name", "reference"), [
    ("exp", np.exp), ("log", np.log), ("log1p", np.log1p), ("expm1", np.expm1),
    ("gammaln", sc.gammaln), ("ndtr", sc.ndtr),
])
def test_special_values_as_numpy_and_scipy(name, reference):
    with np.errstate(all="ignore"):
        expected = reference(SPECIALS)
    got = getattr(pm, name)(SPECIALS)
    assert _same_values(got, expected), (name, got, expected)
    assert np.array_equal(np.isnan(got), np.isnan(expected))  # nan only where numpy/scipy give nan


def test_special_values_of_the_inverse_and_two_argument_functions():
    p = np.array([-0.1, 0.0, 1e-320, 0.5, 1.0, 1.1, np.inf, np.nan])
    assert _same_values(pm.ndtri(p), sc.ndtri(p))
    grid = np.array([-np.inf, -2.5, -2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 3.0, np.inf, np.nan])
    a, b = np.meshgrid(grid, grid)
    with np.errstate(all="ignore"):
        assert _same_values(pm.betaln(a, b), sc.betaln(a, b))
    values = [0.0, 1e-300, 0.5, 2.0, np.inf, np.nan, -1.0]
    a, b, x = np.meshgrid(values, values, [0.0, 0.3, 1.0, -0.1, 1.1, np.nan], indexing="ij")
    # a parameter of 1e-300 costs |log 1e-300| eps ~ 1e-13 of relative accuracy (see betainc)
    assert _same_values(pm.betainc(a, b, x), sc.betainc(a, b, x), 1e-13)
    tiny = np.array([1e-310, 5e-324])  # subnormal parameters: the limits (scipy returns 0 for all)
    assert np.array_equal(pm.betainc(tiny, tiny, 0.3), [0.5, 0.5])
    assert np.array_equal(pm.betainc(tiny, 0.5, 0.3), [1.0, 1.0])
    assert np.array_equal(pm.betainc(0.5, tiny, 0.3), [0.0, 0.0])
    assert np.isnan(pm.norm_cdf(1.0, scale=0.0)) and np.isnan(pm.norm_cdf(1.0, scale=-1.0))


def test_scalars_in_floats_out_and_shapes_kept():
    assert type(pm.exp(1.0)) is float and type(pm.betainc(2, 3, 0.5)) is float
    assert type(pm.ndtri(np.float64(0.3))) is float
    assert pm.log(np.ones((2, 3))).shape == (2, 3)
    assert pm.betaln(np.ones((4, 1)), np.ones(3)).shape == (4, 3)
    assert pm.gammaln(np.array([])).shape == (0,)
    assert pm.exp(np.array(2.0)) == pm.exp(2.0)


# --------------------------------------------------------------------------- properties


@given(st.floats(min_value=-700.0, max_value=700.0))
def test_log_inverts_exp(x):
    assert abs(pm.log(pm.exp(x)) - x) <= 2 * math.ulp(max(abs(x), 1.0))


@given(st.floats(min_value=-8.0, max_value=8.0))
def test_ndtr_symmetry_and_ndtri_inverts_it(x):
    assert abs(pm.ndtr(x) + pm.ndtr(-x) - 1.0) <= 4e-16
    p = pm.ndtr(x)
    if 1e-300 < p < 1.0 - 1e-12:
        slope = pm.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)
        assert abs(pm.ndtri(p) - x) <= 1e-15 * (1 + abs(x)) + 2.2e-16 * p / slope


@given(st.floats(min_value=1e-3, max_value=1e6), st.floats(min_value=1e-3, max_value=1e6),
       st.floats(min_value=0.5, max_value=1.0))
def test_betainc_reflection(a, b, x):
    # 1 - x is exact for x in [1/2, 1]
    total = pm.betainc(a, b, x) + pm.betainc(b, a, 1.0 - x)
    assert abs(total - 1.0) <= 1e-13


@given(st.floats(min_value=1e-6, max_value=1e8))
def test_gammaln_recurrence(x):
    step = pm.gammaln(x + 1.0) - pm.gammaln(x)
    assert abs(step - pm.log(x)) <= 1e-13 * max(1.0, abs(pm.gammaln(x + 1.0)), abs(pm.gammaln(x)))


@settings(max_examples=60)
@given(arrays(np.float64, st.integers(1, 40), elements=st.floats(allow_nan=True, allow_infinity=True)),
       st.floats(min_value=0.01, max_value=1e7), st.floats(min_value=0.01, max_value=1e7))
def test_each_element_is_a_function_of_its_own_input_only(values, a, b):
    """Same bits element by element and in any batch: array results equal scalar calls."""
    unit = pm.ndtr(np.nan_to_num(values))  # into [0, 1]
    for function, data in ((pm.exp, values), (pm.log, values), (pm.log1p, values), (pm.gammaln, values),
                           (pm.ndtr, values), (pm.ndtri, unit), (pm.sin_pi, values)):
        batch = function(data)
        single = np.array([function(float(v)) for v in data])
        assert np.array_equal(batch.view(np.uint64), single.view(np.uint64)), function.__name__
    batch = pm.betainc(a, b, unit)
    single = np.array([pm.betainc(a, b, float(u)) for u in unit])
    assert np.array_equal(batch.view(np.uint64), single.view(np.uint64))
    reversed_batch = pm.betainc(a, b, unit[::-1])[::-1]
    assert np.array_equal(batch.view(np.uint64), reversed_batch.view(np.uint64))


def test_scalar_continued_fraction_is_the_array_one_bit_for_bit():
    a, b, x = _betainc_cases(130, 1e-2, 1e7, 3000)
    lam = pm._beta_lambda(a, b, x)
    keep = lam >= 2 * x - 1
    a, b, x, lam = a[keep], b[keep], x[keep], lam[keep]
    array_path = pm._beta_continued_fraction(a, b, x, lam)
    assert a.size > pm._SCALAR_LOOP_UP_TO
    scalar_path = np.array([pm._beta_continued_fraction_one(*map(float, v)) for v in zip(a, b, x, lam)])
    assert np.array_equal(array_path.view(np.uint64), scalar_path.view(np.uint64))


# --------------------------------------------------------------------------- same bits on every CPU

# The digests of the fixed inputs below and of every function on them, as computed on x86-64 (AMD
# EPYC, numpy 2.4.6): the functions use only correctly rounded IEEE operations, so any machine must
# reproduce them. The inputs are portable too (issue 33): numpy's raw uniform doubles
# (``Generator.random``), arithmetic spelled out in numpy operations (``Generator.uniform`` computes
# ``low + range * u`` in compiled C, which a compiler may fuse into one multiply-add), and this
# library's own exp and ndtri, never numpy's or libm's transcendental functions (numpy's AVX-512
# kernels round np.exp differently, and Generator.normal calls libm's log1p in its tail).
GOLDEN_INPUTS = "195d925d39e3884cb1d47b4efba782b762a964cea7dbd91e4e3583e1b7aed2f7"
GOLDEN_DIGEST = "95a46adef939c557cc8854986434496a41336fe05c28b78637f4e905cf79e3f0"
DIGEST_SCRIPT = r"""
import hashlib, json, sys
import numpy as np
from chance_agreement._numerics import portable_math as pm

rng = np.random.default_rng(20260419)


def uniform(low, high, size):
    return low + (high - low) * rng.random(size)


def normal(scale, size):
    return scale * pm.ndtri(rng.random(size))


def digest(arrays):
    sha = hashlib.sha256()
    for name in sorted(arrays):
        sha.update(name.encode())
        sha.update("".join(float(v).hex() for v in np.ravel(arrays[name])).encode())
    return sha.hexdigest()


x = np.concatenate([uniform(-745.2, 709.8, 4000), normal(3.0, 2000), uniform(-1, 1, 2000),
                    pm.exp(uniform(-744, 709, 2000)), [0.0, -0.0, 1.0, 2.0, 0.5, np.inf, -np.inf, np.nan]])
positive = np.abs(x)
unit = uniform(0, 1, 3000)
a = pm.exp(uniform(-3, 15, 3000))
b = pm.exp(uniform(-3, 15, 3000))
mean = a / (a + b)
near = np.clip(mean + normal(0.01, 3000), 0, 1)
inputs = {"x": x, "unit": unit, "a": a, "b": b, "near": near}
results = {
    "exp": pm.exp(x), "log": pm.log(positive), "log1p": pm.log1p(x), "expm1": pm.expm1(x / 50),
    "sin_pi": pm.sin_pi(x), "gammaln": pm.gammaln(x), "betaln": pm.betaln(a, b),
    "log_factorial": pm.log_factorial(np.arange(0, 5000, 7)), "ndtr": pm.ndtr(x / 10),
    "ndtri": pm.ndtri(unit), "norm_cdf": pm.norm_cdf(x, loc=0.5, scale=3.0),
    "betainc": pm.betainc(a, b, near), "betainc_uniform": pm.betainc(a, b, unit),
    "scalar": np.array([pm.betainc(3e6, 1e6 + 1, 0.75), pm.ndtri(1e-300), pm.gammaln(1e9)]),
}
print(json.dumps({"inputs": digest(inputs), "digest": digest(results)}))
"""

CORETYPES = ("Prescott", "Sandybridge", "Haswell", "Zen")
BASELINE_KERNELS = {"NPY_DISABLE_CPU_FEATURES": "X86_V3"}


def _variants() -> list[dict[str, str]]:
    variants = [{}]
    variants += [{"OPENBLAS_CORETYPE": core} for core in CORETYPES]
    variants.append(dict(BASELINE_KERNELS))
    variants += [{"OPENBLAS_CORETYPE": core, **BASELINE_KERNELS} for core in CORETYPES]
    return variants


def _run_digest(extra_env: dict[str, str]) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_CORETYPE", "NPY_DISABLE_CPU_FEATURES")}
    env.update(extra_env)
    return subprocess.run([sys.executable, "-c", DIGEST_SCRIPT], env=env, capture_output=True, text=True,
                          timeout=600)


def _unsupported_feature_refusal(extra_env: dict[str, str], stderr: str) -> bool:
    """numpy refuses NPY_DISABLE_CPU_FEATURES naming a feature this CPU or build does not have."""
    return "NPY_DISABLE_CPU_FEATURES" in extra_env and "NPY_DISABLE_CPU_FEATURES" in stderr


def test_digest_is_the_same_under_every_simulated_cpu():
    digests, dropped = {}, {}
    for extra_env in _variants():
        label = json.dumps(extra_env, sort_keys=True)
        done = _run_digest(extra_env)
        if done.returncode != 0:
            assert _unsupported_feature_refusal(extra_env, done.stderr), (
                f"variant {label} failed for another reason than an unsupported CPU feature:\n{done.stderr}")
            dropped[label] = done.stderr.strip().splitlines()[-1]
            continue
        digests[label] = json.loads(done.stdout.strip().splitlines()[-1])
    if dropped:
        warnings.warn(f"variants numpy refused on this CPU (not compared): {dropped}", stacklevel=1)
    assert len(digests) >= 1 + len(CORETYPES), f"too few variants ran: {sorted(digests)}; refused: {dropped}"
    inputs = {label: both["inputs"] for label, both in digests.items()}
    assert set(inputs.values()) == {GOLDEN_INPUTS}, (
        "the inputs differ from the ones recorded on x86-64, before any function ran on them (numpy's "
        f"Generator.random, or this library's exp and ndtri that build them, changed): {inputs}")
    digests = {label: both["digest"] for label, both in digests.items()}
    assert len(set(digests.values())) == 1, f"different bits under different CPU settings: {digests}"
    assert set(digests.values()) == {GOLDEN_DIGEST}, (
        "the bits differ from the ones recorded on x86-64; if the functions changed on purpose, "
        f"update GOLDEN_DIGEST: {digests}")


def test_blocks_and_order_change_no_bit():
    """Arrays longer than one block (and permuted) give each element the bits of a lone call."""
    rng = _rng(150)
    x = np.concatenate([rng.uniform(-800, 800, 3 * pm._CHUNK + 17), [np.nan, np.inf, -np.inf, 0.0]])
    order = rng.permutation(x.size)
    probe = rng.choice(x.size, 50, replace=False)
    for function, data in ((pm.exp, x), (pm.log, np.abs(x)), (pm.gammaln, x), (pm.ndtr, x / 20),
                           (pm.ndtri, pm.ndtr(x / 20))):
        whole = function(data)
        assert np.array_equal(function(data[order]).view(np.uint64), whole[order].view(np.uint64))
        assert [float(function(float(data[i]))).hex() for i in probe] == [float(whole[i]).hex() for i in probe]
