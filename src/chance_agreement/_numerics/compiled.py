"""The compiled kernels (``kernels.c``, a C extension built by ``setup.py`` where a C compiler is
there), or ``None``: the numpy code then computes the same bits, more slowly.

``kernels.c`` repeats numpy loops of this package operation by operation (``+ - * /`` in the
same order, compiled without fused multiply-adds or reassociation; no libm, no BLAS), so each
compiled function returns the bits of its numpy version, which stays the fallback and the tests'
oracle. The environment variable ``CHANCE_AGREEMENT_PURE_PYTHON`` (set, not empty and not ``0``)
chooses the numpy code at run time; at build time it leaves the extension out (a pure wheel).
"""

from __future__ import annotations

import os
from types import ModuleType

PURE_PYTHON = "CHANCE_AGREEMENT_PURE_PYTHON"

_built: ModuleType | None
try:
    from . import kernels

    _built = kernels
except ImportError:  # no compiler at install time, or a pure build: the numpy code
    _built = None


def compiled_kernels() -> ModuleType | None:
    """The compiled kernels module, or ``None`` when it was not built or ``CHANCE_AGREEMENT_PURE_PYTHON``
    asks for the numpy code (read at each call, so a test can switch it)."""
    if os.environ.get(PURE_PYTHON, "") not in ("", "0"):
        return None
    return _built


__all__ = ["PURE_PYTHON", "compiled_kernels"]
