"""The same number on every machine: every reported value is bit-identical under every BLAS
kernel and every numpy SIMD level this processor can simulate.

``tests/cpu_probe.py`` computes the golden CoNLL-2003 outputs and a set of seeded inputs through
every other numeric path (long documents, nested spans, intervals, comparisons, coefficients with
standard errors, segmentation and unitizing alphas, the noise bound). Each variant runs it in a
fresh process with one simulated processor: OpenBLAS's kernels for older and newer x86 cores
(``OPENBLAS_CORETYPE``), numpy's baseline kernels without AVX2/FMA (``NPY_DISABLE_CPU_FEATURES``),
and the numpy code in place of the compiled kernels (``CHANCE_AGREEMENT_PURE_PYTHON``: what a
machine without a C compiler runs).
Before issue 19 the per-sentence chance values differed by a few ulps between Prescott,
Sandybridge and Haswell (BLAS in the random model's band and in the dot products); now nothing in a
reported value goes through BLAS or a processor-dispatched transcendental function.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from golden_chance_f1 import GOLDEN

PROBE = Path(__file__).resolve().parent / "cpu_probe.py"

VARIANTS = {
    "Prescott": {"OPENBLAS_CORETYPE": "Prescott"},
    "Sandybridge": {"OPENBLAS_CORETYPE": "Sandybridge"},
    "Haswell": {"OPENBLAS_CORETYPE": "Haswell"},
    "Zen": {"OPENBLAS_CORETYPE": "Zen"},
    "numpy baseline (no X86_V3)": {"NPY_DISABLE_CPU_FEATURES": "X86_V3"},
    "Prescott + numpy baseline": {"OPENBLAS_CORETYPE": "Prescott", "NPY_DISABLE_CPU_FEATURES": "X86_V3"},
    "numpy code, no compiled kernels": {"CHANCE_AGREEMENT_PURE_PYTHON": "1"},
}


def _x86_v3_dispatched() -> bool:
    """numpy refuses NPY_DISABLE_CPU_FEATURES for features it did not dispatch on this machine."""
    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__  # noqa: F401

    return bool(__cpu_features__.get("AVX2")) and bool(__cpu_features__.get("FMA3"))


def run_probe(shared_data: Path, variables: dict[str, str]) -> dict:
    env = {key: value for key, value in os.environ.items()
           if key not in ("OPENBLAS_CORETYPE", "NPY_DISABLE_CPU_FEATURES", "OPENBLAS_L2_SIZE",
                           "CHANCE_AGREEMENT_PURE_PYTHON")}
    env.update(variables, CHANCE_AGREEMENT_DATA=str(shared_data))
    done = subprocess.run([sys.executable, str(PROBE)], env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"{variables}: the probe failed:\n{done.stderr[-3000:]}"
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def reference(shared_data):
    return run_probe(shared_data, {})


def test_the_probe_covers_the_golden_file_and_every_numeric_path(reference):
    assert reference["golden"] == json.loads(GOLDEN.read_text())
    assert {"long/token", "long/entity", "coverage/band", "intervals/bca", "intervals/poisson", "compare", "team", "nested",
            "coefficients", "table_intervals", "raters", "conger", "krippendorff", "light", "fleiss",
            "segmentation", "unitizing", "noise", "gamma"} <= set(reference["extras"])


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_simulated_processor_gives_the_same_bits(shared_data, reference, name):
    variables = VARIANTS[name]
    if "NPY_DISABLE_CPU_FEATURES" in variables and not _x86_v3_dispatched():
        pytest.skip("numpy refuses to disable X86_V3 on a processor without AVX2/FMA3 (it never uses them here)")
    other = run_probe(shared_data, variables)
    for part in ("golden", "extras"):
        differing = sorted(key for key in reference[part] if other[part].get(key) != reference[part][key])
        assert not differing, f"{name}: {part} values differ from the default kernels in {differing}"
