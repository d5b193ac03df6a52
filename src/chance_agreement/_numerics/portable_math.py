"""Elementary and special functions that give the same bits on every machine.

numpy's ``np.exp``/``np.log``/``np.sin`` dispatch SIMD kernels (AVX2, AVX-512, NEON) chosen at run
time, glibc's ``exp``/``log`` pick FMA variants by CPU, and scipy.special inherits both: the last
bits of a reported number then depend on the processor. The functions here keep the same-bits
contract of ``chance_agreement._numerics`` (its docstring): correctly rounded IEEE operations and
exact ones only, so each result is a function of its input alone.

Every function takes a float or an array and returns the same kind (a Python float for a scalar
input, a float64 array of the input's shape otherwise); arrays are handled with whole-array
operations. Special values follow numpy/scipy: nan in, nan out; nan only where they give nan.

Approximations: ``exp``, ``log``, ``log1p`` use the argument reductions and minimax polynomials of
fdlibm (Sun Microsystems, 1993), ``ndtr`` fdlibm's erf/erfc rational functions, ``ndtri`` P. J.
Acklam's rational start refined by Halley's method (published constants, checked against their
bit patterns where the source gives them); the others are series, continued fractions and
asymptotic expansions whose coefficients are exact rationals or mathematical constants rounded to
double (tests/test_portable_math.py recomputes every such table with mpmath at 50 digits and
checks it bit for bit). Large arrays are processed in blocks of 8192 elements, which keeps the
temporaries in cache; every result depends on its own element only, so blocks change no bit.
"""

from __future__ import annotations

import functools
import math

import numpy as np

__all__ = [
    "betainc",
    "betaln",
    "exp",
    "expm1",
    "gammaln",
    "log",
    "log1p",
    "log_factorial",
    "ndtr",
    "ndtri",
    "norm_cdf",
    "sin_pi",
    "t_ppf",
    "t_sf",
]

# --------------------------------------------------------------------------- plumbing


def _prepare(x) -> tuple[np.ndarray, tuple[int, ...] | None]:
    """A 1-d float64 copy of ``x`` and the shape to give back (None for a scalar input)."""
    array = np.asarray(x, dtype=np.float64)
    shape = None if array.ndim == 0 else array.shape
    return array.reshape(-1), shape


def _finish(out: np.ndarray, shape):
    """A Python float for a scalar input, else the array in the input's shape."""
    return float(out[0]) if shape is None else out.reshape(shape)


def _quiet(function):
    """Run ``function`` with floating-point warnings off: special values are set on purpose."""

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        with np.errstate(all="ignore"):
            return function(*args, **kwargs)

    return wrapper


_CHUNK = 1 << 13  # elements per block: the temporaries stay in cache and off fresh pages


def _fill(out: np.ndarray, mask: np.ndarray, function, *arrays) -> None:
    """out[mask] = function(*(v[mask] for v in arrays)) for an elementwise ``function``, in blocks
    of _CHUNK elements (each element's result depends on its own inputs only, so the blocks do
    not change a bit); skipped when nothing is selected, without copies when everything is."""
    if mask.all():
        _blocks(out, function, arrays)
    elif mask.any():
        selected = np.empty(int(np.count_nonzero(mask)), dtype=np.float64)
        _blocks(selected, function, tuple(v[mask] for v in arrays))
        out[mask] = selected


def _blocks(out: np.ndarray, function, arrays) -> None:
    """out = function(*arrays), block by block."""
    if out.size <= _CHUNK:
        out[...] = function(*arrays)
        return
    for start in range(0, out.size, _CHUNK):
        block = slice(start, start + _CHUNK)
        out[block] = function(*(v[block] for v in arrays))


def _horner(t: np.ndarray, coefficients) -> np.ndarray:
    """sum_k c_k t^k by Horner's rule (separate multiply and add: never fused)."""
    acc = t * coefficients[-1]
    acc += coefficients[-2]
    for c in reversed(coefficients[:-2]):
        acc *= t
        acc += c
    return acc


# --------------------------------------------------------------------------- exp

_LN2_HI = 6.93147180369123816490e-01  # ln 2 rounded to 32 bits: k * _LN2_HI is exact for |k| < 2^21
_LN2_LO = 1.90821492927058770002e-10  # ln 2 - _LN2_HI
_INV_LN2 = 1.44269504088896338700e00
_EXP_P = (1.66666666666666019037e-01, -2.77777777770155933842e-03, 6.61375632143793436117e-05,
          -1.65339022054652515390e-06, 4.13813679705723846039e-08)  # fdlibm e_exp.c P1..P5
_EXP_OVERFLOW = 7.09782712893383973096e02  # above: exp(x) > the largest double
_EXP_UNDERFLOW = -7.45133219101941108420e02  # below: exp(x) < half the smallest subnormal


def _exp_core(x: np.ndarray) -> np.ndarray:
    """exp(x) for finite x in [_EXP_UNDERFLOW, _EXP_OVERFLOW]: x = k ln2 + r, |r| <= ln2/2,
    exp(r) = 1 + r + r c/(2 - c) with c = r - r^2 P(r^2) (Remez on [0, 0.347]), times 2^k."""
    # in place, operation for operation: y = 1 - ((lo - (r c)/(2 - c)) - hi)
    k = np.rint(x * _INV_LN2)
    hi = np.subtract(x, k * _LN2_HI)
    lo = k * _LN2_LO
    r = hi - lo
    t = r * r
    c = _horner(t, _EXP_P)
    c *= t
    np.subtract(r, c, out=c)
    y = r * c
    y /= 2.0 - c
    np.subtract(lo, y, out=y)
    y -= hi
    np.subtract(1.0, y, out=y)
    return np.ldexp(y, k.astype(np.int32))


@_quiet
def exp(x):
    """e^x, within 1 ulp (fdlibm's reduction x = k ln 2 + r and its Remez polynomial).

    exp(-inf) = 0, exp(inf) = inf, exp(x) = inf above 709.78 (overflow), 0 below -745.13, nan for nan.
    """
    x, shape = _prepare(x)
    inside = (x >= _EXP_UNDERFLOW) & (x <= _EXP_OVERFLOW)
    if inside.all():
        out = np.empty_like(x)
        _blocks(out, _exp_core, (x,))
        return _finish(out, shape)
    out = np.where(x > _EXP_OVERFLOW, np.inf, 0.0)
    out[np.isnan(x)] = np.nan
    _fill(out, inside, _exp_core, x)
    return _finish(out, shape)


# --------------------------------------------------------------------------- log

_LOG_LG = (6.666666666666735130e-01, 3.999999999940941908e-01, 2.857142874366239149e-01,
           2.222219843214978396e-01, 1.818357216161805012e-01, 1.531383769920937332e-01,
           1.479819860511658591e-01)  # fdlibm e_log.c Lg1..Lg7
_SQRT_HALF = 0.70710678118654752440


def _log_kernel(k: np.ndarray, f: np.ndarray, c: np.ndarray | float) -> np.ndarray:
    """k ln2 + log(1 + f) + c for |f| < 0.4143 and a small correction c: with s = f/(2 + f),
    log(1 + f) = 2 artanh(s) = f - f^2/2 + s (f^2/2 + R(s^2)), R a Remez polynomial."""
    # in place, operation for operation:
    # k ln2_hi - ((hfsq - (s (hfsq + r) + (k ln2_lo + c))) - f), r = t2 + t1, hfsq = f^2/2
    s = 2.0 + f
    np.divide(f, s, out=s)
    z = s * s
    w = z * z
    t1 = w * _LOG_LG[5]
    for coefficient in (_LOG_LG[3], _LOG_LG[1]):
        t1 += coefficient
        t1 *= w
    r = w * _LOG_LG[6]
    for coefficient in (_LOG_LG[4], _LOG_LG[2]):
        r += coefficient
        r *= w
    r += _LOG_LG[0]
    r *= z
    r += t1
    hfsq = 0.5 * f
    hfsq *= f
    r += hfsq
    r *= s
    low = k * _LN2_LO
    low += c
    r += low
    np.subtract(hfsq, r, out=hfsq)
    hfsq -= f
    out = k * _LN2_HI
    out -= hfsq
    return out


def _split_power_of_two(u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(k, m) with u = 2^k m exactly and sqrt(1/2) <= m < sqrt(2), for finite u > 0."""
    m, e = np.frexp(u)
    low = m < _SQRT_HALF
    m *= low + 1.0  # times 2 where low, exact (arithmetic beats masked selection on random masks)
    e -= low
    return e.astype(np.float64), m


def _log_core(x: np.ndarray) -> np.ndarray:
    """log x for finite x > 0."""
    k, m = _split_power_of_two(x)
    return _log_kernel(k, m - 1.0, 0.0)


@_quiet
def log(x):
    """Natural logarithm, within 1 ulp: x = 2^k (1 + f), log x = k ln 2 + log(1 + f) (fdlibm).

    log(0) = -inf, log(inf) = inf, nan for x < 0 and for nan (as numpy).
    """
    x, shape = _prepare(x)
    inside = (x > 0.0) & (x < np.inf)
    if inside.all():
        out = np.empty_like(x)
        _blocks(out, _log_core, (x,))
        return _finish(out, shape)
    out = np.where(x == 0.0, -np.inf, np.where(x == np.inf, np.inf, np.nan))
    _fill(out, inside, _log_core, x)
    return _finish(out, shape)


@_quiet
def log1p(x):
    """log(1 + x), within 1 ulp, accurate for tiny x (fdlibm's s_log1p.c scheme).

    u = 1 + x rounded = 2^k (1 + f); the rounding error of u enters as c = (x - (u - 1))/u
    (exact numerator), so log1p(x) = k ln 2 + log(1 + f) + c.
    log1p(-1) = -inf, log1p(inf) = inf, nan for x < -1 and for nan (as numpy).
    """
    x, shape = _prepare(x)
    out = np.where(x == -1.0, -np.inf, np.where(x == np.inf, np.inf, np.nan))
    inside = (x > -1.0) & (x < np.inf)
    _fill(out, inside, _log1p_core, x)
    return _finish(out, shape)


def _log1p_core(x: np.ndarray) -> np.ndarray:
    """log(1 + x) for finite x > -1."""
    u = 1.0 + x
    k, m = _split_power_of_two(u)
    # 1 - (u - x) is exact when u >= 2 (k > 0), x - (u - 1) when u < 2; from k = 54 on (and at
    # k = 0, where f = x exactly) there is no correction. Selections by exact 0/1 weights.
    above = k > 0
    c = (1.0 - (u - x)) * above + (x - (u - 1.0)) * ~above
    c /= u
    c *= (k < 54) & (k != 0)
    zero = k == 0
    f = x * zero + (m - 1.0) * ~zero  # k == 0: 1 + x = 1 + f with f = x exactly
    return _log_kernel(k, f, c)


# --------------------------------------------------------------------------- expm1

_EXPM1_TAYLOR = tuple(1.0 / math.factorial(n) for n in range(2, 21))  # 1/2!, ..., 1/20!


@_quiet
def expm1(x):
    """e^x - 1, accurate for tiny x: for |x| <= 1 the Taylor series x (1 + x/2! + x^2/3! + ...)
    (19 terms, truncation below 1e-19), else exp(x) - 1 (no cancellation beyond 1 bit there).

    expm1(-inf) = -1, expm1(inf) = inf, overflow to inf above 709.78, nan for nan.
    """
    x, shape = _prepare(x)
    out = np.asarray(exp(x), dtype=np.float64).reshape(-1) - 1.0
    small = np.abs(x) <= 1.0
    _fill(out, small, lambda v: v + v * (v * _horner(v, _EXPM1_TAYLOR)), x)
    return _finish(out, shape)


# --------------------------------------------------------------------------- sin(pi x)

# (-1)^k pi^(2k+1)/(2k+1)! and (-1)^k pi^(2k)/(2k)!, k = 0..9, rounded to double
_SINPI = (3.141592653589793, -5.16771278004997, 2.5501640398773455, -0.5992645293207921,
          0.08214588661112823, -0.0073704309457143504, 0.00046630280576761255,
          -2.1915353447830217e-05, 7.952054001475513e-07, -2.2948428997269873e-08)
_COSPI = (1.0, -4.934802200544679, 4.0587121264167685, -1.3352627688545895, 0.2353306303588932,
          -0.02580689139001406, 0.0019295743094039231, -0.0001046381049248457,
          4.303069587032947e-06, -1.3878952462213771e-07)


@_quiet
def sin_pi(x):
    """sin(pi x) for any real x, within 2 ulp, exact zeros at the integers.

    x is reduced exactly to r = x - 2 round(x/2) in [-1, 1], then to t in [-1/4, 1/4] by
    sin(pi r) = sin(pi (1 - r)) and sin(pi (1/2 - t)) = cos(pi t); the Taylor series of
    sin(pi t) and cos(pi t) in t (10 terms each, |pi t| <= pi/4) finish it.
    sin_pi(+-inf) = nan (as np.sin), nan for nan.
    """
    x, shape = _prepare(x)
    out = np.full_like(x, np.nan)
    _fill(out, np.isfinite(x), _sin_pi_core, x)
    return _finish(out, shape)


def _sin_pi_core(x: np.ndarray) -> np.ndarray:
    """sin(pi x) for finite x (see ``sin_pi``)."""
    r = x - 2.0 * np.rint(0.5 * x)  # exact, in [-1, 1]
    sign = np.where(r < 0.0, -1.0, 1.0)
    r = np.abs(r)
    r = np.where(r > 0.5, 1.0 - r, r)  # exact (Sterbenz), now in [0, 1/2]
    use_cos = r > 0.25
    t = np.where(use_cos, 0.5 - r, r)  # exact
    t2 = t * t
    return sign * np.where(use_cos, _horner(t2, _COSPI), t * _horner(t2, _SINPI))


# --------------------------------------------------------------------------- log-gamma

_HALF_LOG_2PI = 0.9189385332046728  # log(2 pi)/2
_ONE_MINUS_EULER = 0.42278433509846713  # 1 - Euler's gamma
# (-1)^k (zeta(k) - 1)/k, k = 2..31: log Gamma(1 + z) = -log1p(z) + (1 - gamma) z + z^2 sum_k c_k z^(k-2)
_ZETA_MINUS_ONE = (
    0.3224670334241132, -0.0673523010531981, 0.020580808427784546, -0.007385551028673986,
    0.0028905103307415234, -0.001192753911703261, 0.0005096695247430425, -0.00022315475845357939,
    9.945751278180853e-05, -4.492623673813314e-05, 2.050721277567069e-05, -9.439488275268397e-06,
    4.374866789907488e-06, -2.039215753801366e-06, 9.55141213040742e-07, -4.492469198764566e-07,
    2.1207184805554665e-07, -1.0043224823968099e-07, 4.7698101693639804e-08,
    -2.2711094608943164e-08, 1.0838659214896955e-08, -5.183475041970047e-09,
    2.4836745438024785e-09, -1.1921401405860912e-09, 5.731367241678862e-10,
    -2.7595228851242334e-10, 1.330476437424449e-10, -6.4229645638381e-11,
    3.1044247747322276e-11, -1.5021384080754142e-11,
)
# B_2k / (2k (2k - 1)), k = 1..8: Stirling's series log Gamma(x) - Stirling = sum_k c_k / x^(2k-1)
_STIRLING = (1.0 / 12.0, -1.0 / 360.0, 1.0 / 1260.0, -1.0 / 1680.0, 1.0 / 1188.0,
             -691.0 / 360360.0, 1.0 / 156.0, -3617.0 / 122400.0)
_STIRLING_FROM = 10.0  # the series' truncation error is below 2e-18 from here on


def _stirling_correction(x: np.ndarray) -> np.ndarray:
    """log Gamma(x) - ((x - 1/2) log x - x + log(2 pi)/2) = sum_k B_2k / (2k (2k-1) x^(2k-1)),
    x >= 10 (8 terms)."""
    inverse = 1.0 / x
    return inverse * _horner(inverse * inverse, _STIRLING)


def _gammaln_large(x: np.ndarray) -> np.ndarray:
    """log Gamma(x) for x >= 10 by Stirling's series (DLMF 5.11.1)."""
    return (x - 0.5) * _log_array(x) - x + _HALF_LOG_2PI + _stirling_correction(x)


def _gammaln_near_one(z: np.ndarray) -> np.ndarray:
    """log Gamma(1 + z) for |z| <= 1/2: -log1p(z) + (1 - gamma) z + z^2 P(z),
    P(z) = sum_{k>=2} (-1)^k (zeta(k) - 1)/k z^(k-2) (DLMF 5.7.3 with log(1 + z) split off)."""
    return -_log1p_array(z) + (_ONE_MINUS_EULER * z + z * z * _horner(z, _ZETA_MINUS_ONE))


def _gammaln_near_two(w: np.ndarray) -> np.ndarray:
    """log Gamma(2 + w) = log Gamma(1 + w) + log1p(w) = (1 - gamma) w + w^2 P(w), |w| <= 1/2:
    no logarithm, so exact zero and full relative accuracy at x = 2."""
    return _ONE_MINUS_EULER * w + w * w * _horner(w, _ZETA_MINUS_ONE)


def _gammaln_positive(x: np.ndarray) -> np.ndarray:
    """log Gamma(x) for finite x > 0 (1-d)."""
    out = np.empty_like(x)
    # x < 1/2: log Gamma(x) = log Gamma(1 + x) - log x, with z = x exactly
    _fill(out, x < 0.5, lambda v: _gammaln_near_one(v) - _log_core(v), x)
    _fill(out, (x >= 0.5) & (x < 1.5), lambda v: _gammaln_near_one(v - 1.0), x)
    _fill(out, (x >= 1.5) & (x < _STIRLING_FROM), _gammaln_middle, x)
    _fill(out, x >= _STIRLING_FROM, _gammaln_large, x)
    return out


def _gammaln_middle(x: np.ndarray) -> np.ndarray:
    """log Gamma(x) for 1.5 <= x < 10: log Gamma(x - n) + log((x-1)...(x-n)), x - n in [1.5, 2.5)."""
    steps = np.floor(x - 1.5)
    product = np.ones_like(x)
    for i in range(1, int(_STIRLING_FROM) - 1):
        use = steps >= i  # factor x - i (exact) where used, else exactly 1
        product *= (x - i) * use + ~use
    return _gammaln_near_two(x - steps - 2.0) + _log_core(product)


@_quiet
def gammaln(x):
    """log |Gamma(x)| (as scipy.special.gammaln), relative error below 1e-14 for x > 0.

    x >= 10: Stirling's series (x - 1/2) log x - x + log(2 pi)/2 + sum_k B_2k/(2k(2k-1)x^(2k-1));
    1.5 <= x < 10: log Gamma(x - n) + log((x-1)...(x-n)) down to [1.5, 2.5);
    near 1 and 2: the zeta series of log Gamma(1 + z) (DLMF 5.7.3), exact zeros at 1 and 2;
    x < 1/2: log Gamma(1 + x) - log x; x < 0: reflection log pi - log|sin(pi x)| - log Gamma(1 - x)
    (absolute accuracy only near the negative zeros).
    gammaln(0) = inf, inf at the negative integers, gammaln(inf) = inf, gammaln(-inf) = -inf, nan
    for nan (scipy's values).
    """
    x, shape = _prepare(x)
    out = np.where(x == -np.inf, -np.inf, np.inf)
    out[np.isnan(x)] = np.nan
    positive = (x > 0.0) & (x < np.inf)
    _fill(out, positive, _gammaln_positive, x)
    negative = (x < 0.0) & (x > -np.inf) & (x != np.floor(x))
    _fill(out, negative, _gammaln_reflected, x)
    return _finish(out, shape)


def _gammaln_reflected(x: np.ndarray) -> np.ndarray:
    """log |Gamma(x)| for negative non-integers: log pi - log |sin(pi x)| - log Gamma(1 - x)."""
    sine = np.abs(np.asarray(sin_pi(x), dtype=np.float64)).reshape(-1)
    return (_LOG_PI - _log_core(sine)) - _gammaln_positive(1.0 - x)


_LOG_PI = 1.1447298858494002  # log(pi)


def _gammaln_array(x: np.ndarray) -> np.ndarray:
    return np.asarray(gammaln(x), dtype=np.float64).reshape(np.shape(x))


def _log_array(x: np.ndarray) -> np.ndarray:
    return np.asarray(log(x), dtype=np.float64).reshape(np.shape(x))


def _log1p_array(x: np.ndarray) -> np.ndarray:
    return np.asarray(log1p(x), dtype=np.float64).reshape(np.shape(x))


def _exp_array(x: np.ndarray) -> np.ndarray:
    return np.asarray(exp(x), dtype=np.float64).reshape(np.shape(x))


# --------------------------------------------------------------------------- log n!

_EXACT_FACTORIALS = 171  # n! is a finite double up to 170!


def _log_factorial_table() -> np.ndarray:
    """log(n!) for n < 171: the correctly rounded double of the exact integer n!, then ``log``."""
    return _log_array(np.array([float(math.factorial(n)) for n in range(_EXACT_FACTORIALS)]))


_LOG_FACTORIALS = _log_factorial_table()


@_quiet
def log_factorial(n):
    """log(n!) for non-negative integers n (ints, integral floats or integer arrays).

    n <= 170: log of the exact n! rounded once to double (error below 1.5 ulp of the result);
    larger n: ``gammaln(n + 1)``. Raises ValueError for negative or non-integral n (gammaln would
    return inf or a value that is no factorial).
    """
    array = np.asarray(n)
    values = array.astype(np.float64).reshape(-1)
    if values.size and (not np.all(np.isfinite(values)) or np.any(values != np.floor(values))
                        or np.any(values < 0)):
        raise ValueError(f"log_factorial needs non-negative integers, got {n!r}")
    small = values < _EXACT_FACTORIALS
    out = np.empty_like(values)
    out[small] = _LOG_FACTORIALS[values[small].astype(np.int64)]
    if not small.all():
        out[~small] = np.asarray(gammaln(values[~small] + 1.0), dtype=np.float64).reshape(-1)
    return float(out[0]) if array.ndim == 0 else out.reshape(array.shape)


# --------------------------------------------------------------------------- log-beta


def _betaln_both_large(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """log B(a, b) for 10 <= a <= b (DiDonato & Morris 1992, TOMS 708, BETALN): with h = a/b,
    log B = log(2 pi)/2 - log(b)/2 - (a - 1/2) log(h/(1 + h)) - b log1p(h) + D,
    D = corr(a) + corr(b) - corr(a + b) (Stirling corrections); every term but D has one sign."""
    h = a / b
    u = -(a - 0.5) * (_log_array(h) - _log1p_array(h))
    v = b * _log1p_array(h)
    d = _stirling_correction(a) + (_stirling_correction(b) - _stirling_correction(a + b))
    return ((_HALF_LOG_2PI - 0.5 * _log_array(b)) + d) - u - v


def _betaln_one_large(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """log B(a, b) for a < 10 <= b: log Gamma(a) + log Gamma(b) - log Gamma(a + b), the last
    difference by Stirling without forming a + b in a logarithm:
    log Gamma(b) - log Gamma(a + b) = -a log b - (a + b - 1/2) log1p(a/b) + a + corr(b) - corr(a+b)."""
    h = a / b
    difference = (a - (a + b - 0.5) * _log1p_array(h)) - a * _log_array(b)
    difference = difference + (_stirling_correction(b) - _stirling_correction(a + b))
    return _gammaln_positive(a) + difference


def _betaln_outside(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """scipy.special.betaln's values (log |B(a, b)|, its limits and poles) where an argument is
    not a positive finite number; lo <= hi elementwise, nan sorted by the caller into ``hi``."""
    out = np.full_like(lo, np.nan)
    pole = lambda v: (v <= 0.0) & (v == np.floor(v))  # noqa: E731  (0, -1, -2, ..., -inf)
    either_pole = pole(lo) | pole(hi)
    out[either_pole] = np.inf
    # B(a, b) for an integer a <= 0 < b with a + b <= 0 is the limit (b-1)! (-a-b)! / (-a)!
    both_int = pole(lo) & (lo > -np.inf) & (hi > 0.0) & (hi == np.floor(hi)) & (lo + hi <= 0.0) & (hi < np.inf)
    if np.any(both_int):
        a, b = lo[both_int], hi[both_int]
        out[both_int] = (log_factorial(b - 1.0) + log_factorial(-a - b)) - log_factorial(-a)
    rest = ~either_pole & ~np.isnan(lo) & ~np.isnan(hi)
    out[rest & (hi == np.inf) & (lo > 0.0) & (lo < np.inf)] = -np.inf
    out[rest & (hi == np.inf) & (lo < 0.0)] = np.inf
    finite = rest & (hi < np.inf)
    a, b = lo[finite], hi[finite]
    out[finite] = (_gammaln_array(a) + _gammaln_array(b)) - _gammaln_array(a + b)
    return out


def _betaln_small(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """log B(a, b) for 0 < a, b < 10: the three log-gammas."""
    return (_gammaln_positive(a) + _gammaln_positive(b)) - _gammaln_positive(a + b)


@_quiet
def betaln(a, b):
    """log |B(a, b)| = log Gamma(a) + log Gamma(b) - log Gamma(a + b), for a, b > 0 with relative
    error below 1e-14 (absolute 1e-15 near the curve B(a, b) = 1), also when one argument is huge.

    Both >= 10: DiDonato & Morris's form (no cancellation); one >= 10: Stirling for the ratio
    Gamma(b)/Gamma(a + b); both < 10: the three log-gammas directly. Outside a, b > 0 the values
    of scipy.special.betaln: log|Gamma(a) Gamma(b)/Gamma(a+b)| for negative non-integers (absolute
    accuracy), inf at a pole (a or b in 0, -1, -2, ..., -inf), the finite limit
    (b-1)! (-a-b)!/(-a)! for integers a <= 0 < b <= -a, -inf for B = 0 (a + b a pole, or
    b = inf with a > 0), nan for nan and for betaln(inf, inf).
    """
    a_arr = np.asarray(a, dtype=np.float64)
    b_arr = np.asarray(b, dtype=np.float64)
    scalar = a_arr.ndim == 0 and b_arr.ndim == 0
    a_arr, b_arr = np.broadcast_arrays(a_arr, b_arr)
    shape = a_arr.shape
    a_arr, b_arr = a_arr.reshape(-1), b_arr.reshape(-1)
    swap = (a_arr > b_arr) | np.isnan(a_arr)
    lo, hi = np.where(swap, b_arr, a_arr), np.where(swap, a_arr, b_arr)  # nan goes to hi
    ok = (lo > 0.0) & (hi < np.inf)
    out = np.empty_like(lo)
    _fill(out, ~ok, _betaln_outside, lo, hi)
    _fill(out, ok & (lo >= _STIRLING_FROM), _betaln_both_large, lo, hi)
    _fill(out, ok & (lo < _STIRLING_FROM) & (hi >= _STIRLING_FROM), _betaln_one_large, lo, hi)
    _fill(out, ok & (hi < _STIRLING_FROM), _betaln_small, lo, hi)
    return float(out[0]) if scalar else out.reshape(shape)


# --------------------------------------------------------------------------- normal distribution

# fdlibm s_erf.c (published minimax rational approximations; erx is erf(1) rounded to float)
_ERX = 8.45062911510467529297e-01
_ERF_PP = (1.28379167095512558561e-01, -3.25042107247001499370e-01, -2.84817495755985104766e-02,
           -5.77027029648944159157e-03, -2.37630166566501626084e-05)
_ERF_QQ = (1.0, 3.97917223959155352819e-01, 6.50222499887672944485e-02, 5.08130628187576562776e-03,
           1.32494738004321644526e-04, -3.96022827877536812320e-06)
_ERF_PA = (-2.36211856075265944077e-03, 4.14856118683748331666e-01, -3.72207876035701323847e-01,
           3.18346619901161753674e-01, -1.10894694282396677476e-01, 3.54783043256182359371e-02,
           -2.16637559486879084300e-03)
_ERF_QA = (1.0, 1.06420880400844228286e-01, 5.40397917702171048937e-01, 7.18286544141962662868e-02,
           1.26171219808761642112e-01, 1.36370839120290507362e-02, 1.19844998467991074170e-02)
_ERFC_RA = (-9.86494403484714822705e-03, -6.93858572707181764372e-01, -1.05586262253232909814e01,
            -6.23753324503260060396e01, -1.62396669462573470355e02, -1.84605092906711035994e02,
            -8.12874355063065934246e01, -9.81432934416914548592e00)
_ERFC_SA = (1.0, 1.96512716674392571292e01, 1.37657754143519042600e02, 4.34565877475229228821e02,
            6.45387271733267880336e02, 4.29008140027567833386e02, 1.08635005541779435134e02,
            6.57024977031928170135e00, -6.04244152148580987438e-02)
_ERFC_RB = (-9.86494292470009928597e-03, -7.99283237680523006574e-01, -1.77579549177547519889e01,
            -1.60636384855821916062e02, -6.37566443368389627722e02, -1.02509513161107724954e03,
            -4.83519191608651397019e02)
_ERFC_SB = (1.0, 3.03380607434824582924e01, 3.25792512996573918826e02, 1.53672958608443695994e03,
            3.19985821950859553908e03, 2.55305040643316442583e03, 4.74528541206955367215e02,
            -2.24409524465858183362e01)
_SQRT_HALF_EXACT = 0.7071067811865476  # 1/sqrt(2) rounded
_SQRT_TWO = 1.4142135623730951
_INV_SQRT_2PI = 0.3989422804014327  # 1/sqrt(2 pi)
_VELTKAMP = 134217729.0  # 2^27 + 1: splits a double into two 26-bit halves


def _half_erf_small(x: np.ndarray) -> np.ndarray:
    """Phi(x) - 1/2 = erf(t)/2, t = x/sqrt(2), for |t| < 0.84375: erf(t) = t + t P(t^2)/Q(t^2)."""
    t = x * _SQRT_HALF_EXACT
    z = t * t
    y = _horner(z, _ERF_PP) / _horner(z, _ERF_QQ)
    return 0.5 * (t + t * y)


def _exp_minus_half_square(x: np.ndarray, shift: np.ndarray | float = 0.0) -> np.ndarray:
    """exp(-x^2/2 + shift) with x^2/2 split exactly: x = h + l (Veltkamp), h^2/2 exact,
    x^2/2 = h^2/2 + l (x + h)/2, so no error grows with x^2 (the relative error stays ~2 ulp)."""
    c = _VELTKAMP * x
    h = c - (c - x)
    low = x - h
    return _exp_array(-0.5 * (h * h)) * _exp_array(shift - 0.5 * (low * (x + h)))


def _lower_tail(x: np.ndarray) -> np.ndarray:
    """Phi(-x) = erfc(t)/2, t = x/sqrt 2, for 1.1932 <= x <= 40 (t >= 0.84375): fdlibm's erfc
    pieces in t; for t >= 1.25 erfc(t) = exp(-t^2 - 0.5625 + R(1/t^2)/S(1/t^2))/t, written with
    exp(-x^2/2) from an exact split of x and 1/t = sqrt(2)/x."""
    t = x * _SQRT_HALF_EXACT
    out = np.empty_like(x)
    near = t < 1.25
    _fill(out, near, _erfc_near, t)
    _fill(out, ~near, _erfc_far, x, t)
    return out


def _erfc_near(t: np.ndarray) -> np.ndarray:
    """erfc(t)/2 for 0.84375 <= t < 1.25: (1 - erx - P(s)/Q(s))/2, s = t - 1."""
    s = t - 1.0
    return 0.5 * ((1.0 - _ERX) - _horner(s, _ERF_PA) / _horner(s, _ERF_QA))


def _erfc_far(x: np.ndarray, t: np.ndarray) -> np.ndarray:
    """erfc(t)/2 for t = x/sqrt 2 >= 1.25: exp(-x^2/2 - 0.5625 + R(w)/S(w))/(sqrt(2) x), w = 1/t^2."""
    return _exp_minus_half_square(x, _erfc_ratio(t) - 0.5625) / (_SQRT_TWO * x)


def _erfc_ratio(t: np.ndarray) -> np.ndarray:
    """fdlibm's R(w)/S(w), w = 1/t^2, on [1.25, 1/0.35) and [1/0.35, 28]."""
    w = 1.0 / (t * t)
    out = np.empty_like(t)
    near = t < 1.0 / 0.35
    _fill(out, near, lambda v: _horner(v, _ERFC_RA) / _horner(v, _ERFC_SA), w)
    _fill(out, ~near, lambda v: _horner(v, _ERFC_RB) / _horner(v, _ERFC_SB), w)
    return out


_NDTR_ZERO_BELOW = 40.0


def _ndtr_array(x: np.ndarray) -> np.ndarray:
    """Phi on a 1-d array: the central erf, the lower tail, and 1 minus the lower tail."""
    out = np.where(x < 0.0, 0.0, 1.0)  # beyond |x| = 40: Phi(-40) < 2^-1074
    out[np.isnan(x)] = np.nan
    _fill(out, np.abs(x) < 0.84375 * _SQRT_TWO, lambda v: 0.5 + _half_erf_small(v), x)
    _fill(out, (x <= -0.84375 * _SQRT_TWO) & (x >= -_NDTR_ZERO_BELOW), lambda v: _lower_tail(-v), x)
    _fill(out, (x >= 0.84375 * _SQRT_TWO) & (x <= _NDTR_ZERO_BELOW), lambda v: 1.0 - _lower_tail(v), x)
    return out


@_quiet
def ndtr(x):
    """Standard normal CDF Phi(x) = erfc(-x/sqrt(2))/2, relative error below 1e-14 (lower tail
    included, down to the subnormal range near x = -37.5; Phi(x) < 2^-1074 below x = -38.5 is 0).

    |x| < 1.19: 1/2 + erf(x/sqrt 2)/2; else erfc by fdlibm's rational approximations in
    t = |x|/sqrt 2, with exp(-x^2/2) formed from an exact split of x^2 (the rounding of t only
    enters the slowly varying rational factor). ndtr(-inf) = 0, ndtr(inf) = 1, nan for nan.
    """
    x, shape = _prepare(x)
    return _finish(_ndtr_array(x), shape)


@_quiet
def norm_cdf(x, *, loc=0.0, scale=1.0):
    """Normal CDF with mean ``loc`` and standard deviation ``scale`` (scipy.stats.norm.cdf):
    ndtr((x - loc)/scale); nan for scale <= 0 (as scipy) and for nan."""
    x_arr = np.asarray(x, dtype=np.float64)
    loc_arr = np.asarray(loc, dtype=np.float64)
    scale_arr = np.asarray(scale, dtype=np.float64)
    scalar = x_arr.ndim == 0 and loc_arr.ndim == 0 and scale_arr.ndim == 0
    x_arr, loc_arr, scale_arr = np.broadcast_arrays(x_arr, loc_arr, scale_arr)
    shape = x_arr.shape
    z = ((x_arr - loc_arr) / scale_arr).reshape(-1)
    out = _ndtr_array(z)
    out[~(scale_arr.reshape(-1) > 0.0)] = np.nan
    return float(out[0]) if scalar else out.reshape(shape)


# P. J. Acklam's rational approximations of the normal quantile (relative error below 1.15e-9),
# lowest degree first: central x = q A(r)/B(r), q = p - 1/2, r = q^2; tail x = C(t)/D(t),
# t = sqrt(-2 log p), for p < 0.02425
_ACKLAM_A = (2.506628277459239e00, -3.066479806614716e01, 1.383577518672690e02, -2.759285104469687e02,
             2.209460984245205e02, -3.969683028665376e01)
_ACKLAM_B = (1.0, -1.328068155288572e01, 6.680131188771972e01, -1.556989798598866e02, 1.615858368580409e02,
             -5.447609879822406e01)
_ACKLAM_C = (2.938163982698783e00, 4.374664141464968e00, -2.549732539343734e00, -2.400758277161838e00,
             -3.223964580411365e-01, -7.784894002430293e-03)
_ACKLAM_D = (1.0, 3.754408661907416e00, 2.445134137142996e00, 3.224671290700398e-01, 7.784695709041462e-03)
_ACKLAM_SPLIT = 0.02425
_HALLEY_STEPS = 1  # cubic convergence: 1.2e-9 -> rounding level (3e-16 measured)
_NEWTON_STEPS = 3  # quadratic, on log Phi in the deep tail: 1.2e-9 -> 1e-18 -> rounding level


def _ndtri_start(q: np.ndarray) -> np.ndarray:
    """Acklam's approximation of x < 0 with Phi(x) = q, 0 < q <= 1/2 (relative error < 1.15e-9)."""
    out = np.empty_like(q)
    central = q >= _ACKLAM_SPLIT
    _fill(out, central, _acklam_central, q)
    _fill(out, ~central, _acklam_tail, q)
    return out


def _acklam_central(q: np.ndarray) -> np.ndarray:
    d = q - 0.5  # exact for q in [1/4, 1/2]; rounded, as Acklam's formula has it, below
    r = d * d
    return d * _horner(r, _ACKLAM_A) / _horner(r, _ACKLAM_B)


def _acklam_tail(q: np.ndarray) -> np.ndarray:
    t = np.sqrt(-2.0 * _log_core(q))
    return _horner(t, _ACKLAM_C) / _horner(t, _ACKLAM_D)


def _halley(x: np.ndarray, residual: np.ndarray) -> np.ndarray:
    """One Halley step for Phi(x) = q given residual = Phi(x) - q: x - u/(1 + x u/2), u = residual/phi(x)."""
    u = residual / (_INV_SQRT_2PI * _exp_minus_half_square(x))
    return x - u / (1.0 + 0.5 * x * u)


def _ndtri_central(q: np.ndarray) -> np.ndarray:
    """ndtri for 1/4 <= q <= 1/2 with the residual (Phi(x) - 1/2) - (q - 1/2): both terms exact or
    relative-accurate, so x near 0 keeps its digits (q - 1/2 is exact here, Sterbenz)."""
    x = _ndtri_start(q)
    offset = q - 0.5
    for _ in range(_HALLEY_STEPS):
        x = _halley(x, _half_erf_small(x) - offset)
    return np.where(offset == 0.0, 0.0, x)


def _ndtri_tail(q: np.ndarray) -> np.ndarray:
    """ndtri for 1e-300 <= q < 1/4 with the residual Phi(x) - q."""
    x = _ndtri_start(q)
    for _ in range(_HALLEY_STEPS):
        x = _halley(x, _ndtr_array(x) - q)
    return x


def _log_lower_tail(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(log Phi(-x), phi(x)/Phi(-x)) for x >= 2, without underflow: with the far form of
    ``_erfc_far``, log Phi(-x) = -x^2/2 + rho - log(sqrt(2) x) (x^2/2 split exactly) and
    phi(x)/Phi(-x) = x/(sqrt(pi) exp(rho)), rho = R(w)/S(w) - 0.5625."""
    rho = _erfc_ratio(x * _SQRT_HALF_EXACT) - 0.5625
    c = _VELTKAMP * x
    h = c - (c - x)
    low = x - h
    log_tail = ((-0.5 * (h * h)) - 0.5 * (low * (x + h))) + (rho - _log_core(_SQRT_TWO * x))
    return log_tail, x / (_SQRT_PI * _exp_core(rho))


_SQRT_PI = 1.7724538509055159
_DEEP_TAIL = 1e-300  # below: Newton on log Phi (Phi itself would pass through subnormals)


def _ndtri_deep(q: np.ndarray) -> np.ndarray:
    """x < 0 with Phi(x) = q for q < 1e-300: Acklam's start, then Newton steps on
    log Phi(x) - log q (derivative phi(x)/Phi(x)), which stays in the normal range."""
    y = -_acklam_tail(q)  # y = -x > 37
    log_q = _log_core(q)
    for _ in range(_NEWTON_STEPS):
        log_tail, hazard = _log_lower_tail(y)
        y = y + (log_tail - log_q) / hazard  # d/dy log Phi(-y) = -hazard
    return -y


@_quiet
def ndtri(p):
    """Inverse of the standard normal CDF: x with Phi(x) = p, relative error below 1e-13.

    Works on the lower half q = min(p, 1 - p) (1 - p is exact for p >= 1/2) and returns -x for
    p > 1/2: Acklam's rational approximation (relative error 1.15e-9), then one Halley step on
    ``ndtr`` (below q = 1e-300 three Newton steps on log Phi, which never leaves the normal range).
    ndtri(0) = -inf, ndtri(1) = inf, nan outside [0, 1] and for nan (as scipy).
    """
    p, shape = _prepare(p)
    out = np.where(p == 0.0, -np.inf, np.where(p == 1.0, np.inf, np.nan))
    inside = (p > 0.0) & (p < 1.0)
    pi = p[inside]
    upper = pi > 0.5
    q = np.where(upper, 1.0 - pi, pi)
    x = np.empty_like(q)
    _fill(x, q >= 0.25, _ndtri_central, q)
    _fill(x, (q < 0.25) & (q >= _DEEP_TAIL), _ndtri_tail, q)
    _fill(x, q < _DEEP_TAIL, _ndtri_deep, q)
    out[inside] = np.where(upper, -x, x)
    return _finish(out, shape)


# --------------------------------------------------------------------------- incomplete beta

_LOG1PMX_SERIES = tuple(1.0 / (2 * k + 3) for k in range(16))  # 1/3, 1/5, ..., 1/33
_CF_TOLERANCE = 2.220446049250313e-16  # 2^-52: a continued-fraction factor this close to 1 ends it
_CF_MAX_TERMS = 1_000_000
_TINY = 2.2250738585072014e-308  # smallest normal double: guards divisions by zero only
_SCALAR_LOOP_UP_TO = 8  # arrays this small run the continued fraction on Python floats


def _log1pmx(u: np.ndarray) -> np.ndarray:
    """log(1 + u) - u without cancellation: with s = u/(2 + u), log(1 + u) = 2 artanh(s), so
    log(1 + u) - u = -u s + 2 s^3 (1/3 + s^2/5 + s^4/7 + ...) for -0.4 < u < 0.6 (|s| < 1/4);
    outside, log1p(u) - u directly (at most a factor 5 of cancellation)."""
    out = np.empty_like(u)
    near = (u > -0.4) & (u < 0.6)
    _fill(out, ~near, lambda v: _log1p_array(v) - v, u)
    _fill(out, near, _log1pmx_series, u)
    return out


def _log1pmx_series(u: np.ndarray) -> np.ndarray:
    """log(1 + u) - u = -u s + 2 s^3 sum_k s^(2k)/(2k + 3), s = u/(2 + u), for |s| < 1/4."""
    s = u / (2.0 + u)
    s2 = s * s
    return 2.0 * (s * s2) * _horner(s2, _LOG1PMX_SERIES) - u * s


def _two_product(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(p, e) with p = fl(x y) and p + e = x y exactly (Dekker's product, no FMA needed)."""
    p = x * y
    cx = _VELTKAMP * x
    xh = cx - (cx - x)
    xl = x - xh
    cy = _VELTKAMP * y
    yh = cy - (cy - y)
    yl = y - yh
    e = ((xh * yh - p) + xh * yl + xl * yh) + xl * yl
    return p, e


def _beta_lambda(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> np.ndarray:
    """lambda = a - (a + b) x with a few ulp of error even when the two terms nearly cancel:
    a + b by an exact two-sum, x (a + b) by an exact two-product."""
    total = a + b
    b_rounded = total - a
    total_low = (a - (total - b_rounded)) + (b - b_rounded)  # a + b = total + total_low exactly
    p, e = _two_product(x, total)
    return (a - p) - (e + x * total_low)


def _beta_power_terms(a: np.ndarray, b: np.ndarray, x: np.ndarray, lam: np.ndarray) -> np.ndarray:
    """x^a (1 - x)^b / B(a, b) for 0 < x < 1, a, b > 0 finite, from x alone (1 - x is never
    rounded). Both a, b >= 10 (DiDonato & Morris 1992, BRCOMP, in Temme's deviation form):
    sqrt(a b / (2 pi (a + b))) exp(a L(-lambda/a) + b L(lambda/b) - D), L(u) = log(1 + u) - u,
    lambda = a - (a + b) x, D = corr(a) + corr(b) - corr(a + b) (Stirling corrections);
    otherwise exp(a log x + b log1p(-x) - log B(a, b))."""
    out = np.empty_like(x)
    large = (a >= _STIRLING_FROM) & (b >= _STIRLING_FROM)
    _fill(out, large, _beta_power_terms_large, a, b, x, lam)
    _fill(out, ~large, _beta_power_terms_direct, a, b, x)
    return out


def _deviation_term(u: np.ndarray, ratio: np.ndarray) -> np.ndarray:
    """L(u) = log(1 + u) - u where 1 + u = ``ratio`` (formed directly from x): log(ratio) - u once
    ratio < 1/2, since there the rounding of u would be magnified by 1/(1 + u) in log1p."""
    out = np.empty_like(u)
    far = ratio < 0.5
    _fill(out, far, lambda v, r: _log_core(r) - v, u, ratio)
    _fill(out, ~far, _log1pmx, u)
    return out


def _beta_power_terms_large(a: np.ndarray, b: np.ndarray, x: np.ndarray, lam: np.ndarray) -> np.ndarray:
    """x^a (1-x)^b / B(a, b) for a, b >= 10 in the deviation form (see ``_beta_power_terms``);
    1 + u for the a-term is x (a+b)/a, for the b-term (1-x)(a+b)/b (1 - x exact where it is used)."""
    total = a + b
    exponent = (a * _deviation_term(-lam / a, x * total / a)
                + b * _deviation_term(lam / b, (1.0 - x) * total / b))
    d = _stirling_correction(a) + (_stirling_correction(b) - _stirling_correction(total))
    scale = np.sqrt(a * (b / total) * (1.0 / (2.0 * math.pi)))
    return scale * _exp_array(exponent - d)


def _beta_power_terms_direct(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> np.ndarray:
    """x^a (1-x)^b / B(a, b) = exp(a log x + b log1p(-x) - log B(a, b))."""
    log_beta = np.asarray(betaln(a, b), dtype=np.float64).reshape(-1)
    return _exp_array((a * _log_core(x) + b * _log1p_core(-x)) - log_beta)


def _beta_continued_fraction(a: np.ndarray, b: np.ndarray, x: np.ndarray, lam: np.ndarray) -> np.ndarray:
    """f with I_x(a, b) = x^a (1-x)^b / (B(a, b) f): the even part of DLMF 8.17.22 (DiDonato &
    Morris 1992, BFRAC), f = b_0 + a_1/(b_1 + a_2/(b_2 + ...)), for lambda = a - (a+b)x >= -1:
    a_m = (a+m-1)(a+b+m-1) m (b-m) x^2 / (a+2m-1)^2,
    b_m = m + m (b-m) x/(a+2m-1) + (a+m)(lambda + 1 + m (2-x))/(a+2m+1) (no cancellation),
    by the modified Lentz method. Each element stops at its own convergence and is never
    updated again, so it does not depend on its neighbours in the array."""
    if x.size <= _SCALAR_LOOP_UP_TO:  # the same operations on Python floats: same bits, faster
        return np.array([_beta_continued_fraction_one(*map(float, v)) for v in zip(a, b, x, lam, strict=True)],
                        dtype=np.float64)
    result = np.empty_like(x)
    f = a * (lam + 1.0) / (a + 1.0)
    f = np.where(np.abs(f) < _TINY, _TINY, f)
    c = f.copy()
    d = np.zeros_like(x)
    active = np.arange(x.size)
    for m in range(1, _CF_MAX_TERMS):
        if active.size == 0:
            return result
        denominator = a + (2.0 * m - 1.0)
        numerator = (a + (m - 1.0)) * (a + b + (m - 1.0)) * (m * (b - m)) * (x * x) / (denominator * denominator)
        partial = (m + m * (b - m) * x / denominator) + (a + m) * (lam + 1.0 + m * (2.0 - x)) / (a + (2.0 * m + 1.0))
        d = partial + numerator * d
        d = 1.0 / np.where(np.abs(d) < _TINY, _TINY, d)
        c = partial + numerator / c
        c = np.where(np.abs(c) < _TINY, _TINY, c)
        step = c * d
        f = f * step
        done = np.abs(step - 1.0) <= _CF_TOLERANCE
        if done.any():
            result[active[done]] = f[done]
            keep = ~done
            active, a, b, x, lam, c, d, f = (v[keep] for v in (active, a, b, x, lam, c, d, f))  # type: ignore[assignment]
    raise ArithmeticError(f"betainc: continued fraction did not converge in {_CF_MAX_TERMS} terms")


def _beta_continued_fraction_one(a: float, b: float, x: float, lam: float) -> float:
    """``_beta_continued_fraction`` for one element, operation for operation on Python floats
    (IEEE doubles, so bit-identical; tests/test_portable_math.py checks it)."""
    f = a * (lam + 1.0) / (a + 1.0)
    f = _TINY if abs(f) < _TINY else f
    c, d = f, 0.0
    for m in range(1, _CF_MAX_TERMS):
        denominator = a + (2.0 * m - 1.0)
        numerator = (a + (m - 1.0)) * (a + b + (m - 1.0)) * (m * (b - m)) * (x * x) / (denominator * denominator)
        partial = (m + m * (b - m) * x / denominator) + (a + m) * (lam + 1.0 + m * (2.0 - x)) / (a + (2.0 * m + 1.0))
        d = partial + numerator * d
        d = 1.0 / (_TINY if abs(d) < _TINY else d)
        c = partial + numerator / c
        c = _TINY if abs(c) < _TINY else c
        step = c * d
        f = f * step
        if abs(step - 1.0) <= _CF_TOLERANCE:
            return f
    raise ArithmeticError(f"betainc: continued fraction did not converge in {_CF_MAX_TERMS} terms")


def _betainc_subnormal(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """I_x(a, b) when a or b is below the smallest normal double: b/(a + b) if both are, else 1
    (a tiny) or 0 (b tiny); the neglected terms are O(max(a, b)), below 2.3e-308."""
    both = (a < _TINY) & (b < _TINY)
    return np.where(both, b / np.where(both, a + b, 1.0), np.where(a < _TINY, 1.0, 0.0))


def _betainc_inside(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> np.ndarray:
    """I_x(a, b) for finite a, b > 0 and 0 < x < 1: the continued fraction for lambda >= 2x - 1
    (x <= (a+1)/(a+b+2)), else 1 - I_{1-x}(b, a) (DLMF 8.17.4), whose lambda is -lambda exactly;
    the power terms are symmetric and are formed once, from x."""
    lam = _beta_lambda(a, b, x)
    terms = _beta_power_terms(a, b, x, lam)
    swap = x * (a + b + 2.0) > a + 1.0
    out = np.empty_like(x)
    _fill(out, ~swap, lambda t, a, b, x, lam: t / _beta_continued_fraction(a, b, x, lam),
          terms, a, b, x, lam)
    _fill(out, swap, lambda t, a, b, x, lam: 1.0 - t / _beta_continued_fraction(b, a, 1.0 - x, -lam),
          terms, a, b, x, lam)
    return out


@_quiet
def betainc(a, b, x):
    """Regularised incomplete beta I_x(a, b) = B(x; a, b)/B(a, b) (DLMF 8.17.2), relative error
    below 1e-13 over a, b in [1e-3, 1e7] (where I_x is not below 1e-100).

    Continued fraction (DLMF 8.17.22) with the prefactor x^a (1-x)^b/B(a, b) in a cancellation-free
    form for large a, b (see ``_beta_power_terms``); the symmetry I_x(a, b) = 1 - I_{1-x}(b, a) for
    x > (a+1)/(a+b+2). The number of terms grows like sqrt(min(a, b)) near the mean.
    Relative accuracy degrades like |log a| eps for a or b below ~1e-10 (the prefactor's exponent
    holds log B(a, b) ~ log(1/a)), and for b < 1 with x near 1 the complement 1 - I_{1-x}(b, a) can
    cancel (absolute error 2e-15 there); results are clipped to [0, 1].
    Edge values as scipy.special.betainc: 0 at x = 0, 1 at x = 1; 1 for a = 0 < b, 0 for
    b = 0 < a; 0 for a = inf > b, 1 for b = inf > a; nan for x outside [0, 1], a or b negative,
    a = b = 0, a = b = inf, and nan. For subnormal a or b the limits b/(a + b) (both), 1 (a), 0 (b)
    (scipy returns 0 for a = b = 1e-300, where the limit is 1/2).
    """
    arrays = [np.asarray(v, dtype=np.float64) for v in (a, b, x)]
    scalar = all(v.ndim == 0 for v in arrays)
    a_arr, b_arr, x_arr = (v.reshape(-1) for v in np.broadcast_arrays(*arrays))
    shape = np.broadcast_shapes(*(v.shape for v in arrays))
    out = np.full_like(x_arr, np.nan)
    valid = (x_arr >= 0.0) & (x_arr <= 1.0) & (a_arr >= 0.0) & (b_arr >= 0.0)
    valid &= ~((a_arr == 0.0) & (b_arr == 0.0)) & ~((a_arr == np.inf) & (b_arr == np.inf))
    for condition, value in (((b_arr == np.inf) | (a_arr == 0.0), 1.0),
                             ((a_arr == np.inf) | (b_arr == 0.0), 0.0),
                             (x_arr == 1.0, 1.0), (x_arr == 0.0, 0.0)):
        out[valid & condition] = value  # later rules win: x = 0 or 1 decide first (as scipy)
    inside = valid & (x_arr > 0.0) & (x_arr < 1.0) & (a_arr > 0.0) & (b_arr > 0.0)
    inside &= (a_arr < np.inf) & (b_arr < np.inf)
    # subnormal parameters: the limits I -> b/(a + b) (both -> 0), 1 (a -> 0), 0 (b -> 0), whose
    # errors are O(max(a, b)) < 2.3e-308
    tiny_a, tiny_b = a_arr < _TINY, b_arr < _TINY
    _fill(out, inside & (tiny_a | tiny_b), _betainc_subnormal, a_arr, b_arr)
    _fill(out, inside & ~tiny_a & ~tiny_b, lambda *v: np.clip(_betainc_inside(*v), 0.0, 1.0), a_arr, b_arr, x_arr)
    return float(out[0]) if scalar else out.reshape(shape)


# --------------------------------------------------------------------------- Student's t


def _t_halves(t: float, df: float) -> tuple[float, float]:
    """``(P(0 < T < |t|), P(T > |t|))`` for Student's t with ``df`` degrees of freedom, each without
    cancellation: with ``r = t^2 / df``, ``x = 1 / (1 + r)`` and ``y = r / (1 + r)`` (``x + y = 1``),
    the tail is ``I_x(df/2, 1/2) / 2`` and the central part ``I_y(1/2, df/2) / 2`` (Abramowitz and
    Stegun 26.7.1 with DLMF 8.17.2); exactly one of the two lies where the continued fraction
    needs no complement (``x <= (a + 1)/(a + b + 2)``), and the other is ``1/2`` minus it."""
    magnitude = abs(t)
    ratio = magnitude / df * magnitude
    x, y = 1.0 / (1.0 + ratio), ratio / (1.0 + ratio)
    half_df = 0.5 * df
    if x * (half_df + 2.5) <= half_df + 1.0:
        tail = 0.5 * float(betainc(half_df, 0.5, x))
        return 0.5 - tail, tail
    central = 0.5 * float(betainc(0.5, half_df, y))
    return central, 0.5 - central


def t_sf(t, df):
    """Survival function ``P(T > t)`` of Student's t (as scipy.stats.t.sf), relative error about
    1e-13: the tail of ``_t_halves`` for ``t >= 0``, ``1/2 +`` the central part below 0."""
    t, df = float(t), float(df)
    if not df > 0 or math.isnan(t):
        return math.nan
    if math.isinf(t):
        return 0.0 if t > 0 else 1.0
    central, tail = _t_halves(t, df)
    return tail if t >= 0 else 0.5 + central


def _t_log_pdf(t: float, df: float) -> float:
    """log of Student's t density: log Gamma((df+1)/2) - log Gamma(df/2) - log(df pi)/2
    - (df+1)/2 log(1 + t^2/df)."""
    g = gammaln(np.array([0.5 * (df + 1.0), 0.5 * df]))
    return float(g[0] - g[1]) - 0.5 * (float(log(df)) + _LOG_PI) - 0.5 * (df + 1.0) * float(log1p(t / df * t))


def t_ppf(q, df):
    """Quantile of Student's t (as scipy.stats.t.ppf) for ``0 < q < 1``, relative error about 1e-13.

    Solves for ``t >= 0`` either ``tail(t) = p`` (``p = min(q, 1 - q) < 1/4``) or
    ``central(t) = |q - 1/2|`` (exact for ``1/4 <= q <= 3/4``), whichever has no cancellation, by
    Newton's method (derivative: the density) from the normal quantile, inside a bracket that is
    bisected whenever a step leaves it; stops at a fixed point or a bracket of two ulps. The result
    is ``-t`` below the median. ``ppf(1/2) = 0``, ``ppf(0) = -inf``, ``ppf(1) = inf``."""
    q, df = float(q), float(df)
    if not df > 0 or not 0.0 <= q <= 1.0:
        return math.nan
    if q in (0.0, 1.0):
        return math.copysign(math.inf, q - 0.5)
    if q == 0.5:
        return 0.0
    p = min(q, 1.0 - q)
    use_tail = p < 0.25
    goal = p if use_tail else abs(q - 0.5)
    low, high = 0.0, math.inf
    t = max(-float(ndtri(p)), 1e-300)
    for _ in range(400):
        central, tail = _t_halves(t, df)
        excess = (p - tail) if use_tail else (central - goal)  # increasing in t
        if excess < 0:
            low = t
        else:
            high = t
        if excess == 0 or high - low <= 2.0 * math.ulp(t):
            break
        proposal = t - excess / float(exp(_t_log_pdf(t, df)))
        if not low < proposal < high:
            proposal = 0.5 * (low + high) if high < math.inf else 2.0 * t
        if proposal == t:
            break
        t = proposal
    return t if q > 0.5 else -t
