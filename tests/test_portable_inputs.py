"""Golden values are built from portable inputs (issue 33): no code that feeds a recorded digest or
golden file calls a function whose last bits depend on the machine.

numpy's and libm's exp, log, pow, sin... are not correctly rounded: numpy's AVX-512 kernels round
``np.exp`` differently from glibc, and the golden digest of ``portable_math`` failed on AVX-512
processors because its *inputs* came from ``np.exp``. numpy's random distributions other than raw
bits and integers are compiled C around libm (``Generator.normal`` takes log1p in its tail,
``geometric`` log1p) or around a multiply-add that a compiler may fuse (``uniform``). The golden
code builds its inputs from ``Generator.random``/``integers``, exact arithmetic (+ - * / and sqrt
are correctly rounded by IEEE 754), fractions, mpmath, or this library's own ``portable_math``.

The scan starts at every function of ``tests/`` that is named for, or reads, a golden value or a
digest (``GOLDEN``, ``GOLDEN_DIGEST``, ``test_..._digest_...``) and follows what it reaches: the
module's functions, constants and fixtures it names (and the test functions that take such a
fixture), the code of a script string it runs, and every helper module of ``tests/`` it imports or
runs (``golden_chance_f1.py``, ``cpu_probe.py``), which is scanned whole.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import numpy as np

TESTS = Path(__file__).resolve().parent
GOLDEN_NAME = re.compile(r"golden|digest", re.IGNORECASE)
# not correctly rounded: the last bits depend on the library, its version and the processor
TRANSCENDENTAL = frozenset({
    "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "logaddexp", "logaddexp2", "power", "float_power",
    "pow", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2", "asin", "acos", "atan", "atan2", "sinh",
    "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "asinh", "acosh", "atanh", "cbrt", "hypot", "lgamma", "gamma",
    "erf", "erfc", "sinc", "i0", "sinpi", "cospi",
})
LIBM_MODULES = ("numpy", "math", "cmath")
APPROXIMATING_MODULES = ("scipy.special", "scipy.stats")  # every function a numerical approximation
# Generator draws whose values are exact: raw 53-bit doubles, integers, and picks among given values
EXACT_DRAWS = frozenset({"random", "integers", "choice", "permutation", "permuted", "shuffle", "bytes", "spawn"})
DRAWS = frozenset(name for name in dir(np.random.Generator) if not name.startswith("_")) - EXACT_DRAWS - {
    "bit_generator"}


def _import_aliases(tree: ast.AST) -> dict[str, str]:
    """Local name -> the dotted name it imports (``np`` -> ``numpy``, ``sc`` -> ``scipy.special``)."""
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                aliases[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else \
                    alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return aliases


def _is_fixture(node: ast.AST) -> bool:
    return isinstance(node, ast.FunctionDef) and any("fixture" in ast.unparse(d) for d in node.decorator_list)


def _arguments(node: ast.AST) -> list[str]:
    return [a.arg for a in node.args.args] if isinstance(node, ast.FunctionDef) else []


class Module:
    """One file of ``tests/``: its top-level definitions by name and its import aliases."""

    def __init__(self, path: Path):
        self.tree = ast.parse(path.read_text(encoding="utf-8"))
        self.aliases = _import_aliases(self.tree)
        self.definitions: dict[str, ast.AST] = {}
        for node in self.tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.definitions[node.name] = node
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                    if isinstance(target, ast.Name):
                        self.definitions[target.id] = node

    def roots(self) -> set[str]:
        """Functions named for or reading a golden value or digest, and the tests taking such a fixture."""
        functions = {name: node for name, node in self.definitions.items() if isinstance(node, ast.FunctionDef)}
        roots = {name for name, node in functions.items() if GOLDEN_NAME.search(name)
                 or any(isinstance(n, ast.Name) and GOLDEN_NAME.search(n.id) for n in ast.walk(node))}
        while True:
            more = {name for name, node in functions.items()
                    if any(a in roots and _is_fixture(functions[a]) for a in _arguments(node))} - roots
            if not more:
                return roots
            roots |= more


def _dotted(node: ast.AST, aliases: dict[str, str]) -> str | None:
    """``np.random.normal`` -> ``numpy.random.normal`` when its root is an imported name."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or node.id not in aliases:
        return None
    return ".".join([aliases[node.id], *reversed(parts)])


def _machine_dependent(dotted: str) -> bool:
    root, last = dotted.split(".")[0], dotted.rsplit(".", 1)[-1]
    if dotted.startswith(tuple(f"{module}." for module in APPROXIMATING_MODULES)):
        return True
    if dotted.startswith("numpy.random.") and last in DRAWS:
        return True
    return root in LIBM_MODULES and last in TRANSCENDENTAL


def _non_integer(exponent: ast.AST) -> bool:
    return any(isinstance(n, ast.Constant) and isinstance(n.value, float) or isinstance(n, ast.Div)
               for n in ast.walk(exponent))


def violations_in(code: ast.AST, aliases: dict[str, str]) -> list[tuple[int, str]]:
    """``(line, source)`` of each machine-dependent call or reference in ``code``."""
    found = []
    for node in ast.walk(code):
        if isinstance(node, (ast.Attribute, ast.Name)) and isinstance(node.ctx, ast.Load):
            dotted = _dotted(node, aliases) if isinstance(node, ast.Attribute) else aliases.get(node.id)
            bad = dotted is not None and _machine_dependent(dotted)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            bad = node.func.attr in DRAWS and _dotted(node.func, aliases) is None
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            bad = _non_integer(node.right)
        else:
            continue
        if bad:
            found.append((node.lineno, ast.unparse(node)))
    return sorted(set(found))


def _script(node: ast.AST) -> ast.Module | None:
    """The code of a module-level string constant that is a Python program (run in a subprocess)."""
    value = getattr(node, "value", None)
    if not (isinstance(value, ast.Constant) and isinstance(value.value, str)):
        return None
    try:
        tree = ast.parse(value.value)
    except SyntaxError:
        return None
    return tree if any(isinstance(n, (ast.Import, ast.ImportFrom)) for n in tree.body) else None


def golden_code(folder: Path, skip: str = Path(__file__).name) -> dict[str, tuple[ast.AST, dict[str, str]]]:
    """``{where: (code, import aliases)}`` of everything that feeds a golden value in ``folder``."""
    modules = {path.stem: Module(path) for path in sorted(folder.glob("*.py")) if path.name != skip}
    shared = {name for name, node in modules["conftest"].definitions.items() if _is_fixture(node)} \
        if "conftest" in modules else set()
    todo = [(stem, name) for stem, module in modules.items() for name in module.roots()]
    reached: dict[tuple[str, str], ast.AST] = {}
    whole: set[str] = set()
    while todo:
        stem, name = todo.pop()
        if (stem, name) in reached:
            continue
        module = modules[stem]
        node = reached[(stem, name)] = module.definitions[name]
        for argument in _arguments(node):
            if argument in module.definitions or argument in shared:
                todo.append((stem if argument in module.definitions else "conftest", argument))
        for used in {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}:
            if used in module.definitions:
                todo.append((stem, used))
            elif module.aliases.get(used, "").split(".")[0] in modules:
                whole.add(module.aliases[used].split(".")[0])
        whole |= {n.value[:-3] for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)
                  and n.value.endswith(".py") and n.value[:-3] in modules}
    while more := {target.split(".")[0] for stem in whole for target in modules[stem].aliases.values()
                   if target.split(".")[0] in modules} - whole:
        whole |= more  # the helpers of a helper
    code = {f"{stem}.py:{name}": (node, modules[stem].aliases) for (stem, name), node in reached.items()}
    code |= {f"{stem}.py": (modules[stem].tree, modules[stem].aliases) for stem in whole}
    scripts = {where: _script(node) for where, (node, _) in code.items()}
    code |= {f"{where} (script)": (tree, _import_aliases(tree)) for where, tree in scripts.items() if tree}
    return code


def golden_violations(folder: Path, skip: str = Path(__file__).name) -> list[str]:
    return [f"{where}, line {line}: {source}" for where, (code, aliases) in sorted(golden_code(folder, skip).items())
            for line, source in violations_in(code, aliases)]


def test_no_golden_value_is_built_with_a_machine_dependent_function():
    found = golden_violations(TESTS)
    assert found == [], (
        "code feeding a golden value or digest calls a function whose last bits depend on the machine; build the "
        "inputs from Generator.random/integers, exact arithmetic, fractions, mpmath or chance_agreement's "
        "portable_math instead:\n" + "\n".join(found))


def test_the_scan_reaches_every_golden_producer():
    """The known producers are inside the scan (a renamed constant cannot empty it silently)."""
    reached = set(golden_code(TESTS))
    assert {"test_portable_math.py:DIGEST_SCRIPT (script)", "cpu_probe.py", "golden_chance_f1.py",
            "test_portable_math.py:test_digest_is_the_same_under_every_simulated_cpu",
            "test_chance_f1_speed_identity.py:test_chance_f1_is_bit_identical_to_the_stored_outputs",
            "test_same_bits_everywhere.py:test_the_probe_covers_the_golden_file_and_every_numeric_path"} <= reached


FAKE_HELPER = """
import numpy as np


def draw(rng):
    return rng.normal(size=3) + rng.random(3)
"""

FAKE_TESTS = '''
import math
import numpy as np
import pytest
import scipy.special as sc
from math import lgamma
from fake_helper import draw
from chance_agreement._numerics import portable_math as pm

GOLDEN = "0123"
SCRIPT = r"""
import numpy as np
x = np.random.default_rng(1).uniform(0, 1, 3)
"""
TABLE = np.log(np.arange(1, 4))


def _inputs(rng):
    return np.exp(rng.random(4)) + rng.integers(0, 3, 4) ** (-1 / 1.3) + sc.gammaln(2.0) + TABLE


def _portable(rng):
    return pm.exp(rng.random(4)) + np.sqrt(rng.random(4)) + rng.integers(0, 3, 4) ** 2


@pytest.fixture
def stored():
    return GOLDEN


def test_matches(stored):
    rng = np.random.default_rng(0)
    assert (_inputs(rng), _portable(rng), draw(rng), SCRIPT, lgamma(3.0)) != stored


def test_a_tolerance_elsewhere():
    assert abs(np.exp(1.0) - math.e) < 1e-15
'''


def test_the_scan_catches_what_it_checks(tmp_path):
    """Every kind of machine-dependent call in golden code is found, and nothing outside it."""
    (tmp_path / "fake_helper.py").write_text(FAKE_HELPER)
    (tmp_path / "test_fake.py").write_text(FAKE_TESTS)
    assert golden_violations(tmp_path) == [
        "fake_helper.py, line 6: rng.normal(size=3)",
        "test_fake.py:SCRIPT (script), line 3: np.random.default_rng(1).uniform(0, 1, 3)",
        "test_fake.py:TABLE, line 15: np.log",
        "test_fake.py:_inputs, line 19: np.exp",
        "test_fake.py:_inputs, line 19: rng.integers(0, 3, 4) ** (-1 / 1.3)",
        "test_fake.py:_inputs, line 19: sc.gammaln",
        "test_fake.py:test_matches, line 33: lgamma",
    ]
