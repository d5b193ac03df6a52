"""The package's layers show in its tree, and imports only run downward.

``src/chance_agreement/`` holds one folder per layer, lowest first in ``LAYERS``. A module may
import modules of its own layer and of the layers below it, never of a layer above it nor the
package root (which re-exports every layer), and no group of modules may import each other in a
cycle. Imports inside functions count as much as those at the top of a file.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import chance_agreement

PACKAGE = "chance_agreement"
ROOT = Path(chance_agreement.__file__).resolve().parent

# lowest first: generic numerics with the same bits on every machine (private), spans from tags and files,
# the chance model, classical reliability coefficients, noise of the agreed subset, hooks into the
# ecosystem, what people read
LAYERS = ("_numerics", "spans", "chance", "reliability", "noise", "ecosystem", "reports")


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join([PACKAGE, *parts])


def imported_modules(name: str, source: str, is_package: bool, known: set[str]) -> set[str]:
    """Absolute names of the package's modules that ``source`` (module ``name``) imports."""
    package = name if is_package else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            # "from pkg import name" imports the submodule pkg.name when there is one
            targets = [f"{stem}.{alias.name}" if f"{stem}.{alias.name}" in known else stem for alias in node.names]
        else:
            continue
        found.update(target for target in targets if target == PACKAGE or target.startswith(PACKAGE + "."))
    return found


def layer_of(module: str) -> int | None:
    parts = module.split(".")
    return LAYERS.index(parts[1]) if len(parts) > 1 and parts[1] in LAYERS else None


def import_graph(sources: dict[str, tuple[str, bool]]) -> dict[str, set[str]]:
    known = set(sources)
    return {name: imported_modules(name, source, is_package, known) - {name}
            for name, (source, is_package) in sources.items()}


def layer_violations(sources: dict[str, tuple[str, bool]]) -> list[str]:
    """Every import that runs upward (to a higher layer or the root) or closes a cycle."""
    graph = import_graph(sources)
    problems = []
    for name, targets in sorted(graph.items()):
        own = layer_of(name)
        if own is None:
            continue
        for target in sorted(targets):
            other = layer_of(target)
            if other is None:
                problems.append(f"{name} imports the package root {target}, which sits above every layer")
            elif other > own:
                problems.append(f"{name} ({LAYERS[own]}) imports {target} from the higher layer {LAYERS[other]}")
    problems += [f"import cycle: {' -> '.join(cycle)}" for cycle in cycles(graph)]
    return problems


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each group of mutually importing modules (Tarjan's components)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component) + [sorted(component)[0]])

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def package_sources(root: Path = ROOT) -> dict[str, tuple[str, bool]]:
    return {module_name(path, root): (path.read_text(encoding="utf-8"), path.name == "__init__.py")
            for path in sorted(root.rglob("*.py"))}


# entry points that, like the package root, sit above every layer: ``python -m chance_agreement`` runs
# the command line (reports.cli)
ENTRY_POINTS = (f"{PACKAGE}.__main__",)


def test_every_module_sits_in_a_layer_folder():
    loose = [name for name in package_sources() if name not in (PACKAGE, *ENTRY_POINTS) and layer_of(name) is None]
    assert not loose, f"modules outside the layer folders {LAYERS}: {loose}"
    folders = sorted(p.name for p in ROOT.iterdir() if p.is_dir() and (p / "__init__.py").exists())
    assert folders == sorted(LAYERS)


def test_no_layer_folder_shadows_a_public_name():
    """Importing a subpackage sets it as an attribute of the package: ``chance_agreement.coefficients``
    must stay the function, so no layer folder (or module) may carry a public name."""
    modules = {name.split(".")[1] for name in package_sources() if name != PACKAGE}
    assert not modules & set(chance_agreement.__all__)


def test_imports_run_downward_only():
    assert layer_violations(package_sources()) == []


@pytest.mark.parametrize("source, expected", [
    ("from ..reports.cli import main\n", "chance_agreement.spans.tags (spans) imports chance_agreement.reports.cli"
                                          " from the higher layer reports"),
    ("def f():\n    from .. import chance_f1\n", "imports the package root chance_agreement,"),
    ("import chance_agreement.noise.noise_model\n", "from the higher layer noise"),
    ("from .conll import read_conll\n", "import cycle: chance_agreement.spans.conll -> chance_agreement.spans.tags"),
])
def test_a_wrong_import_is_caught(source, expected):
    """The check fails on an upward import, an import of the root, and a cycle."""
    sources = package_sources()
    tags_source, is_package = sources["chance_agreement.spans.tags"]
    sources["chance_agreement.spans.tags"] = (tags_source + source, is_package)
    if "cycle" in expected:
        conll_source, _ = sources["chance_agreement.spans.conll"]
        sources["chance_agreement.spans.conll"] = (conll_source + "from .tags import spans_from_tags\n", False)
    problems = layer_violations(sources)
    assert any(expected in problem for problem in problems), problems


@pytest.mark.parametrize("old", ["trainer", "conll", "cli", "random_model"])
def test_module_paths_of_before_the_layout_are_gone(old):
    """The flat module paths from before the layer folders were never released: no alias is left
    (``chance_agreement.trainer`` fails; the names import from ``chance_agreement`` or their layer)."""
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(f"chance_agreement.{old}")


def test_type_checkers_see_the_names_the_root_exports():
    """The root imports its public names lazily (``__getattr__``), which type checkers cannot follow;
    its ``if TYPE_CHECKING:`` block imports the same names from the same modules for them (so a
    user's editor and mypy know ``chance_f1``'s parameters). The two lists must not drift apart."""
    tree = ast.parse((ROOT / "__init__.py").read_text(encoding="utf-8"))
    blocks = [node for node in tree.body
              if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING"]
    assert len(blocks) == 1
    seen = {}
    for node in blocks[0].body:
        assert isinstance(node, ast.ImportFrom) and node.level == 1, ast.dump(node)
        for alias in node.names:
            assert alias.asname == alias.name, f"{alias.name}: import it 'as' itself (an explicit re-export)"
            seen[alias.name] = node.module
    assert seen == chance_agreement._EXPORTS
