"""A wheel of the running chance-agreement, for folders that must install it without an index
(the Hub Spaces of ``hub-export``).

In a clone the wheel is built from the clone's sources (``pip wheel`` on a clean copy, so no build
files land in the clone); after a plain ``pip install`` it is packed again from the installed files
that the installation's RECORD lists, with a fresh RECORD.

The wheel is pure (``py3-none-any``) either way: a Space may run another Python or platform than
the machine that exports it, so the compiled kernels (``_numerics/kernels.c``, built by
``setup.py``) stay out. The copy of the clone has no ``setup.py`` and the build runs with
``CHANCE_AGREEMENT_PURE_PYTHON=1``; the packed installation leaves out its compiled files. The
Space computes with the numpy code, which gives the same bits (``_numerics.compiled``).
"""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from importlib import metadata
from pathlib import Path

from .._numerics.compiled import PURE_PYTHON
from .module_paths import CARDS_FOLDER, CHECKOUT_DIR, EXAMPLES_FOLDER, METRICS, PACKAGE_DIR

DISTRIBUTION = "chance-agreement"
# files of an installation that are not part of the wheel
_INSTALL_ONLY = {"INSTALLER", "REQUESTED", "RECORD", "direct_url.json"}
# compiled extension modules (the optional kernels): a pure wheel leaves them out
_COMPILED = (".so", ".pyd")


def in_clone() -> bool:
    """True when the running package is ``src/chance_agreement`` of a clone with its pyproject.toml."""
    return PACKAGE_DIR.parent.name == "src" and (CHECKOUT_DIR / "pyproject.toml").is_file()


def build_wheel(target_dir) -> Path:
    """Write the package's wheel into ``target_dir`` (created if needed); return its path."""
    target = Path(target_dir)
    target.mkdir(parents=True, exist_ok=True)
    return _wheel_from_clone(target) if in_clone() else _wheel_from_installation(target)


def _wheel_from_clone(target: Path) -> Path:
    with tempfile.TemporaryDirectory(prefix="chance-agreement-wheel-") as scratch:
        copy = Path(scratch) / "source"
        copy.mkdir()
        compiled = ["*" + suffix for suffix in _COMPILED]  # an in-place build's kernels
        ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build", "dist", *compiled)
        for name in ("pyproject.toml", "README.md", "LICENSE"):
            shutil.copy2(CHECKOUT_DIR / name, copy / name)
        for folder in ("src", CARDS_FOLDER, EXAMPLES_FOLDER, *(metric.folder for metric in METRICS)):
            shutil.copytree(CHECKOUT_DIR / folder, copy / folder, ignore=ignore)
        out = Path(scratch) / "wheel"
        command = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(out), str(copy)]
        # the environment's setuptools first (no download); if too old, pip's isolated build
        pure = {**os.environ, PURE_PYTHON: "1"}
        done = subprocess.run([*command[:5], "--no-build-isolation", *command[5:]], capture_output=True, text=True,
                              env=pure)
        if done.returncode != 0:
            done = subprocess.run(command, capture_output=True, text=True, env=pure)
        wheels = sorted(out.glob("*.whl"))
        if done.returncode != 0 or len(wheels) != 1:
            last = [line for line in done.stderr.splitlines() if "error" in line.lower()] or done.stderr.splitlines()
            raise ValueError(f"building the wheel of {CHECKOUT_DIR} failed: {last[-1] if last else done.returncode} "
                             f"(give a wheel with --wheel)")
        return Path(shutil.copy2(wheels[0], target / wheels[0].name))


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return f"sha256={digest}"


def _pure_wheel_file(text: str) -> str:
    """The ``.dist-info/WHEEL`` file of the pure wheel: an installation with the compiled kernels
    says ``Root-Is-Purelib: false`` and its platform's tag."""
    lines, tagged = [], False
    for line in text.split("\n"):
        if line.startswith("Root-Is-Purelib:"):
            line = "Root-Is-Purelib: true"
        elif line.startswith("Tag:"):
            if tagged:
                continue
            line, tagged = "Tag: py3-none-any", True
        lines.append(line)
    return "\n".join(lines)


def _wheel_from_installation(target: Path) -> Path:
    try:
        distribution = metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        raise ValueError(f"{DISTRIBUTION} is not installed and {PACKAGE_DIR} is not in a clone: "
                         f"give a wheel with --wheel") from None
    files = [f for f in distribution.files or () if not str(f).startswith("..")]
    names = {str(f) for f in files}
    if "chance_agreement/__init__.py" not in names:
        raise ValueError(f"the installed {DISTRIBUTION} lists no package files (an editable install whose clone "
                         f"moved?): give a wheel with --wheel")
    info = next(str(f).split("/")[0] for f in files if str(f).split("/")[0].endswith(".dist-info"))
    version = distribution.version
    path = target / f"chance_agreement-{version}-py3-none-any.whl"
    record = []
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as wheel:
        for entry in sorted(files, key=str):
            name = str(entry)
            parts = name.split("/")
            if "__pycache__" in parts or name.endswith((".pyc", *_COMPILED)):
                continue
            if parts[0] == info and parts[-1] in _INSTALL_ONLY:
                continue
            data = Path(entry.locate()).read_bytes()
            if name == f"{info}/WHEEL":
                data = _pure_wheel_file(data.decode("utf-8")).encode("utf-8")
            wheel.writestr(name, data)
            record.append(f"{name},{_record_hash(data)},{len(data)}")
        record.append(f"{info}/RECORD,,")
        wheel.writestr(f"{info}/RECORD", "\n".join(record) + "\n")
    return path


__all__ = ["DISTRIBUTION", "build_wheel", "in_clone"]
