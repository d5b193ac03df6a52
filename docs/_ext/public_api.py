"""The API reference page, written from the package's exported names.

``render()`` lists every name of ``chance_agreement.__all__`` in an ``autosummary`` table, one section
per layer (the layer is the first part of the module that defines the name, from the package's export
table), so a new public name is in the reference as soon as it is exported. ``docs/conf.py`` writes
``docs/api/index.rst`` with it on every build, and ``tests/test_docs_api.py`` checks that the
committed file is the one ``render()`` gives (so every public name is in it).
"""

from __future__ import annotations

from pathlib import Path

import chance_agreement

API_PAGE = Path(__file__).resolve().parents[1] / "api" / "index.rst"

# layer (first part of the defining module) -> section title, in the package's order, lowest first
LAYERS = {
    "spans": "Spans, tags and annotation files",
    "chance": "Chance-corrected F1 and the random model",
    "reliability": "Agreement coefficients",
    "noise": "The noise bound",
    "ecosystem": "evaluate, the Trainer and scoring at scale",
    "reports": "Reports",
}
PACKAGE_SECTION = "The package"


def sections() -> dict[str, list[str]]:
    """Every public name, grouped by the layer that defines it (names sorted within a section)."""
    grouped: dict[str, list[str]] = {title: [] for title in LAYERS.values()}
    grouped[PACKAGE_SECTION] = []
    for name in chance_agreement.__all__:
        module = chance_agreement._EXPORTS.get(name)
        if module is None:
            grouped[PACKAGE_SECTION].append(name)
            continue
        layer = module.split(".")[0]
        if layer not in LAYERS:
            raise ValueError(f"chance_agreement.{name} is defined in {module!r}, whose layer {layer!r} has no "
                             f"section in docs/_ext/public_api.py LAYERS: add one")
        grouped[LAYERS[layer]].append(name)
    return {title: sorted(names) for title, names in grouped.items() if names}


def render() -> str:
    """The text of ``docs/api/index.rst``."""
    lines = [
        ".. This file is written by docs/_ext/public_api.py on every build: do not edit it by hand.",
        "",
        "API reference",
        "=============",
        "",
        "Every name exported by ``chance_agreement`` (its ``__all__``), grouped by the layer that defines it.",
        "Import them from the package root: ``from chance_agreement import chance_f1``.",
        "",
        ".. currentmodule:: chance_agreement",
        "",
    ]
    for title, names in sections().items():
        lines += [title, "-" * len(title), "", ".. autosummary::", "   :toctree: generated", ""]
        lines += [f"   {name}" for name in names]
        lines.append("")
    return "\n".join(lines)


def write(path: Path = API_PAGE) -> bool:
    """Write the page if its text changed; True when it did."""
    text = render()
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return False
    path.write_text(text, encoding="utf-8")
    return True


if __name__ == "__main__":
    print("wrote" if write() else "unchanged", API_PAGE)
