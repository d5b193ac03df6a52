"""The optional compiled kernels; everything else about the package is in pyproject.toml.

``chance_agreement._numerics.kernels`` (``kernels.c``) gives the bits of the numpy code it replaces
(``chance_agreement._numerics.compiled``), compiled so that no compiler may fuse a multiply with an
add or reorder a sum: ``-O2 -ffp-contract=off -fno-fast-math`` (gcc, clang), ``/O2 /fp:precise``
(MSVC), and no ``-march``. The extension is optional: without a C compiler or Python's headers the
build leaves it out with a message and the package computes the same numbers with numpy.
``CHANCE_AGREEMENT_PURE_PYTHON=1`` at build time leaves it out on purpose (a pure ``py3-none-any``
wheel, as ``chance-agreement hub-export`` ships to a Space).
"""

import os

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

FLAGS = {"msvc": ["/O2", "/fp:precise"]}
DEFAULT_FLAGS = ["-O2", "-ffp-contract=off", "-fno-fast-math"]


class BuildKernels(build_ext):
    """build_ext with the flags above (after Python's own, so that they win)."""

    def build_extensions(self):
        flags = FLAGS.get(self.compiler.compiler_type, DEFAULT_FLAGS)
        for extension in self.extensions:
            extension.extra_compile_args = list(flags)
        super().build_extensions()


PURE = os.environ.get("CHANCE_AGREEMENT_PURE_PYTHON", "") not in ("", "0")
KERNELS = Extension("chance_agreement._numerics.kernels", ["src/chance_agreement/_numerics/kernels.c"], optional=True)

setup(ext_modules=[] if PURE else [KERNELS], cmdclass={"build_ext": BuildKernels})
