"""Generic numerics below every layer: functions whose result is the same bits on every machine.

The same-bits contract: every function of this package returns a value that depends on its
arguments' values (and shapes) alone, never on the processor, numpy's SIMD level, the BLAS kernel,
the number of threads, or the order in which the caller's terms arrive. Its arithmetic is only

- operations IEEE 754 rounds correctly on every conforming machine: ``+ - * /`` and ``sqrt``, each
  its own numpy ufunc call or Python float operation (never fused into one multiply-add);
- exact operations: ``np.frexp``, ``np.ldexp``, ``np.rint``, ``np.floor``, comparisons, integer
  arithmetic, and ``math.fsum`` (the correctly rounded sum);
- sums in an order fixed by the shapes alone;

never BLAS (``@``, ``dot``, ``einsum``, ``convolve``), numpy's SIMD-dispatched ``exp``/``log``/
``sin``, libm's transcendental functions (glibc picks FMA variants by processor) or scipy.special.

``portable_math`` holds the elementary and special functions (exp, log, log-gamma, the normal and
Student-t distributions, the incomplete beta function), ``exact_sum`` exactly rounded and exactly
mergeable sums and the products that replace BLAS. ``tests/test_portable_math.py`` checks the
contract by a digest under simulated processors, ``tests/test_same_bits_everywhere.py`` for every
reported number. The package is private: its functions serve the layers above (``spans`` and up),
which import it directly, and none is part of the public API.
"""

__all__: list[str] = []
