"""The compiled kernels (``chance_agreement._numerics.kernels``, issue 32 item 2) give the bits of the
numpy code they replace, which stays the fallback and the oracle: the document bands (count table,
exclusions, power-of-two carry, factors and weights) and ``ordered_matmul`` on random families,
both ways in one process (``CHANCE_AGREEMENT_PURE_PYTHON`` switches the path at each call).
``tests/test_same_bits_everywhere.py`` runs every reported number of ``cpu_probe.py`` both ways.
Inputs are integers and exact fractions (``random.Random``), the same on every machine."""

from __future__ import annotations

import ast
import importlib.util
import os
import random
import subprocess
import sysconfig
from pathlib import Path

import numpy as np
import pytest

from chance_agreement._numerics import compiled, exact_sum
from chance_agreement.chance.random_models import document_bands, non_overlapping_bands


@pytest.fixture(autouse=True)
def kernels():
    """The compiled module; CI builds it (a missing compiler fails there), elsewhere the tests skip."""
    module = compiled.compiled_kernels()
    if module is None:
        if os.environ.get("CI"):
            pytest.fail("CI builds the compiled kernels (pip install -e . with a C compiler and Python's headers)")
        pytest.skip("the compiled kernels are not built here (no C compiler at install time)")
    return module


def both_ways(monkeypatch, function, *args):
    """``function(*args)`` on the compiled path, then on the numpy path."""
    monkeypatch.delenv(compiled.PURE_PYTHON, raising=False)
    fast = function(*args)
    monkeypatch.setenv(compiled.PURE_PYTHON, "1")
    slow = function(*args)
    monkeypatch.delenv(compiled.PURE_PYTHON)
    return fast, slow


def same_bits(first: np.ndarray, second: np.ndarray) -> bool:
    first, second = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    return first.shape == second.shape and np.array_equal(first.view(np.int64), second.view(np.int64))


def heavy_lengths(rng: random.Random, count: int, cap: int) -> tuple[int, ...]:
    """``count`` sorted lengths, ``P(length >= l)`` about ``l^-1.5`` (capped), from integers only."""
    out = []
    for _ in range(count):
        u, length = rng.randint(1, 10**6), 1
        while (length + 1) ** 3 * u * u <= 10**12 and length < cap:
            length += 1
        out.append(length)
    return tuple(sorted(out))


def band_jobs(seed: int, count: int, n_range, k_range, cap) -> list:
    """``(n, lengths, exclusions)`` of long units that take the document band: every distinct
    excess of the side and the free token."""
    rng = random.Random(seed)
    jobs = []
    while len(jobs) < count:
        n = rng.randint(*n_range)
        lengths = heavy_lengths(rng, rng.randint(*k_range), cap)
        excesses = tuple(sorted({0} | {a - 1 for a in lengths}))
        kept = tuple(e for e in excesses if non_overlapping_bands._long_side(n, lengths, e))
        if kept:
            jobs.append((n, lengths, kept))
    return jobs


def compare_bands(monkeypatch, jobs) -> int:
    """Asserts that every band of ``jobs`` is the same bits both ways; returns the bands compared."""
    fast, slow = both_ways(monkeypatch, document_bands.side_bands_many, jobs)
    compared = 0
    for job, bands, again in zip(jobs, fast, slow, strict=True):
        for excess, band, other in zip(job[2], bands, again, strict=True):
            assert (band is None) == (other is None), (job[0], job[1], excess)
            if band is not None:
                assert same_bits(band[0], other[0]) and same_bits(band[1], other[1]), (job[0], job[1], excess)
                compared += 1
    return compared


@pytest.mark.parametrize("seed, count, n_range, k_range, cap", [
    (1, 40, (256, 800), (2, 20), 40),  # sentences of a few hundred tokens, one long segment at most
    (2, 25, (800, 3000), (10, 80), 120),  # the benchmark's documents
    (3, 6, (2500, 4000), (200, 400), 25),  # dense: lambda E near 40, S near 100
])
def test_document_bands_are_the_same_bits_both_ways(monkeypatch, seed, count, n_range, k_range, cap):
    assert compare_bands(monkeypatch, band_jobs(seed, count, n_range, k_range, cap)) >= 2 * count


def test_the_carried_rows_and_the_own_tables_are_the_same_bits_both_ways(monkeypatch, request):
    """With the floor raised so that almost every row is carried times a power of two, and with
    every table built from its segment's own others (the path of inexact counts)."""
    jobs = band_jobs(4, 12, (300, 1500), (5, 40), 60)
    monkeypatch.setattr(document_bands, "_FACTOR_FLOOR", -3)
    slots, positive = 1000, 30
    assert document_bands._factor_shifts(positive / slots, positive, 6).max() > 0
    assert compare_bands(monkeypatch, jobs) >= 24
    request.getfixturevalue("own_count_tables")
    assert compare_bands(monkeypatch, jobs) >= 24


@pytest.mark.parametrize("seed", range(6))
def test_count_tables_are_the_same_bits_both_ways(monkeypatch, seed):
    """Many jobs in one call (some carried times powers of two, some with no segment), their tables
    and their rows' largest counts, against the numpy code one table at a time."""
    rng = random.Random(seed)
    jobs = []
    for index in range(rng.randint(1, 12)):
        excesses = sorted(a - 1 for a in heavy_lengths(rng, rng.randint(0, 300), 80) if a > 1)
        rows, columns = rng.randint(1, 60), rng.randint(1, 2000)
        shifts = None if index % 2 else np.array(sorted(rng.randint(0, 40) for _ in range(rows)), dtype=np.int64)
        jobs.append((excesses, rows, columns, shifts))
    (fast, fast_peaks), (slow, slow_peaks) = both_ways(monkeypatch, document_bands._count_tables, jobs)
    assert len(fast) == len(slow) == len(jobs) and all(map(same_bits, fast, slow))
    assert same_bits(fast_peaks, slow_peaks) and same_bits(fast_peaks, np.concatenate([t.max(axis=1) for t in slow]))


def random_matrix(rng: random.Random, shape, density: float) -> np.ndarray:
    """Exact fractions ``p / q`` (rounded once each) at ``density`` of the entries, zeros elsewhere."""
    values = [rng.randint(-10**6, 10**6) / rng.randint(1, 997) if rng.random() < density else 0.0
              for _ in range(shape[0] * shape[1])]
    return np.array(values, dtype=float).reshape(shape)


@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")  # numpy's inf * 0
@pytest.mark.parametrize("seed", range(8))
def test_ordered_matmul_is_the_same_bits_both_ways(monkeypatch, seed):
    """Short and long inner dimensions (increasing ``k``; numpy's pairwise sum, past 128 terms too),
    dense and sparse right sides, a left side with infinities (no zero product may be skipped)."""
    rng = random.Random(seed)
    for _ in range(12):
        m, inner, columns = rng.randint(0, 40), rng.randint(0, 400), rng.randint(1, 300)
        left = random_matrix(rng, (m, inner), 1.0)
        right = random_matrix(rng, (inner, columns), rng.choice([1.0, 0.3, 0.01]))
        if seed == 7 and left.size:
            left.flat[rng.randrange(left.size)] = np.inf
        fast, slow = both_ways(monkeypatch, exact_sum.ordered_matmul, left, right)
        assert same_bits(fast, slow), (m, inner, columns)
        fast, slow = both_ways(monkeypatch, exact_sum.ordered_matmul, left, right[:, 0])
        assert same_bits(fast, slow), (m, inner)


def test_the_variable_chooses_the_numpy_code(monkeypatch, kernels):
    monkeypatch.setenv(compiled.PURE_PYTHON, "1")
    assert compiled.compiled_kernels() is None
    monkeypatch.setenv(compiled.PURE_PYTHON, "0")
    assert compiled.compiled_kernels() is kernels


def test_the_kernels_refuse_buffers_of_the_wrong_size_or_type(kernels):
    """A wrong call is a clear error, never a read past an array's end."""
    out = np.empty((2, 2))
    with pytest.raises(ValueError, match="right: expected 6 C-contiguous float64 items"):
        kernels.ordered_matmul(2, 3, 2, np.ones((2, 3)), np.ones((3, 1)), out)
    with pytest.raises(ValueError, match="left: expected 6 C-contiguous float64 items"):
        kernels.ordered_matmul(2, 3, 2, np.ones((2, 3), dtype=np.float32), np.ones((3, 2)), out)
    shapes, starts = np.array([[2, 4]], dtype=np.int64), np.array([0, 2], dtype=np.int64)
    with pytest.raises(ValueError, match="excesses: expected 2 C-contiguous int64 items"):
        kernels.count_tables(1, 2, 1, 8, 2, shapes, starts, np.ones(2), np.ones(1), np.empty(8), np.empty(2))
    with pytest.raises(ValueError, match="peaks: expected 2 C-contiguous float64 items"):
        kernels.count_tables(1, 2, 1, 8, 2, shapes, starts, np.ones(2, dtype=np.int64), np.ones(1), np.empty(8),
                             np.empty(1))
    with pytest.raises(ValueError, match="a job's shape or segments out of range"):
        kernels.count_tables(1, 2, 1, 6, 2, shapes, starts, np.ones(2, dtype=np.int64), np.ones(1), np.empty(6),
                             np.empty(2))
    with pytest.raises(ValueError, match="an excess below 1"):
        kernels.count_tables(1, 2, 1, 8, 2, shapes, starts, np.zeros(2, dtype=np.int64), np.ones(1), np.empty(8),
                             np.empty(2))


def test_the_band_kernel_refuses_tables_it_cannot_read(kernels):
    """A group's count tables are 2-d float64 arrays at least as wide as each item's band."""
    rows, columns, count = 2, 3, 1
    arguments = [np.zeros(count, dtype=np.int64), np.full(count, columns, dtype=np.int64),
                 np.full(count, columns, dtype=np.int64), np.ones((rows, count)), np.ones((rows, count)),
                 np.ones((rows - 1, count)), np.full(count, 0.5), np.full(count, 9.0), np.ones(count)]
    values = np.empty((count, columns))
    kernels.group_values(rows, columns, count, [np.ones((rows, columns))], *arguments, values)
    assert np.isfinite(values).all() and values[0, 0] == 1.0  # V(0): the empty prefix, weight 1
    with pytest.raises(ValueError, match="a width or table index out of range"):
        kernels.group_values(rows, columns, count, [np.ones((rows, columns - 1))], *arguments, values)
    with pytest.raises(ValueError, match="not a C-contiguous 2-d float64 array"):
        kernels.group_values(rows, columns, count, [np.ones(rows * columns)], *arguments, values)
    with pytest.raises(ValueError, match="not a C-contiguous 2-d float64 array"):
        kernels.group_values(rows, columns, count, [np.ones((rows, columns), dtype=np.float32)], *arguments, values)
    with pytest.raises(TypeError, match="tables must be a sequence of arrays"):
        kernels.group_values(rows, columns, count, None, *arguments, values)


@pytest.fixture(scope="module")
def scalar_kernels(tmp_path_factory):
    """``kernels.c`` built again with ``-DCHANCE_AGREEMENT_SCALAR``: the scalar loops that MSVC and any
    compiler without vector types take, with setup.py's flags for gcc and clang (``DEFAULT_FLAGS``),
    by the compiler that built Python (CI built the kernels with it)."""
    root = Path(__file__).resolve().parent.parent
    assignments = [node for node in ast.parse((root / "setup.py").read_text()).body if isinstance(node, ast.Assign)]
    flags = next(ast.literal_eval(node.value) for node in assignments
                 if any(getattr(target, "id", None) == "DEFAULT_FLAGS" for target in node.targets))
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    out = tmp_path_factory.mktemp("scalar") / ("kernels" + sysconfig.get_config_var("EXT_SUFFIX"))
    built = subprocess.run([compiler, "-shared", "-fPIC", *flags, "-DCHANCE_AGREEMENT_SCALAR",
                            "-I" + sysconfig.get_paths()["include"], str(root / "src/chance_agreement/_numerics/kernels.c"),
                            "-o", str(out)], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    spec = importlib.util.spec_from_file_location("chance_agreement._numerics.kernels", out)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_scalar_build_gives_the_bits_of_the_paired_one(monkeypatch, kernels, scalar_kernels):
    """The band and count-table kernels with their loops two entries at a time (gcc, clang) and one
    at a time (MSVC, ``-DCHANCE_AGREEMENT_SCALAR``): the same bits on the benchmark's shapes and a dense side."""
    jobs = band_jobs(2, 25, (800, 3000), (10, 80), 120) + band_jobs(3, 4, (2500, 4000), (200, 400), 25)
    paired = document_bands.side_bands_many(jobs)
    monkeypatch.setattr(document_bands, "compiled_kernels", lambda: scalar_kernels)
    scalar = document_bands.side_bands_many(jobs)
    compared = 0
    for bands, again in zip(paired, scalar, strict=True):
        for band, other in zip(bands, again, strict=True):
            assert (band is None) == (other is None)
            if band is not None:
                assert same_bits(band[0], other[0]) and same_bits(band[1], other[1])
                compared += 1
    assert compared >= 60
