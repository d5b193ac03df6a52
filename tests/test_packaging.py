"""The wheel's configuration: every package of src/ is listed, and the evaluate module folders and
hub_cards/ (kept once, at the top of the repository) are mapped into the package.

The end-to-end proof, a plain install in a fresh venv loading each module and exporting Spaces
that install from their own requirements.txt, is .ci/check_install.sh (run by .ci/run); the
wheel's contents are checked by tests/test_hub_export.py."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from chance_agreement.ecosystem.module_paths import CARDS_FOLDER, EXAMPLES_FOLDER, METRICS

REPO = Path(__file__).resolve().parent.parent
CONFIG = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]


def test_every_package_of_src_is_in_the_wheel():
    src = REPO / "src"
    found = {".".join(path.parent.relative_to(src).parts) for path in src.glob("chance_agreement/**/__init__.py")}
    listed = set(CONFIG["packages"])
    assert found <= listed, f"add {sorted(found - listed)} to [tool.setuptools] packages"
    assert sorted(listed - found) == sorted(f"chance_agreement.metric_modules.{folder}" for folder in
                                            [CARDS_FOLDER, EXAMPLES_FOLDER, *(metric.folder for metric in METRICS)])


def test_module_folders_and_cards_are_mapped_from_the_top_of_the_repository():
    mapping = CONFIG["package-dir"]
    assert mapping[""] == "src"
    for metric in METRICS:
        package = f"chance_agreement.metric_modules.{metric.folder}"
        assert mapping[package] == metric.folder
        assert (REPO / metric.folder / metric.script).is_file()
        assert CONFIG["package-data"][package] == ["requirements.txt"]
        assert (REPO / CARDS_FOLDER / metric.card).is_file()
    assert mapping[f"chance_agreement.metric_modules.{CARDS_FOLDER}"] == CARDS_FOLDER
    assert mapping[f"chance_agreement.metric_modules.{EXAMPLES_FOLDER}"] == EXAMPLES_FOLDER
    subfolders = {path.parent.relative_to(REPO / EXAMPLES_FOLDER).as_posix()
                  for path in (REPO / EXAMPLES_FOLDER).rglob("*") if path.is_file()}
    patterns = CONFIG["package-data"][f"chance_agreement.metric_modules.{EXAMPLES_FOLDER}"]
    assert {pattern.rpartition("/")[0] or "." for pattern in patterns} == subfolders  # every sample file ships
    assert not (REPO / "src" / "chance_agreement" / "metric_modules").exists()  # one copy in git


def test_ci_runs_the_install_check():
    run = (REPO / ".ci" / "run").read_text()
    assert "\n.ci/check_install.sh\n" in run
    # the release checks run too, before the test command (which stays last)
    assert "\n.ci/release_checks.sh\n" in run
    assert run.index("\n.ci/release_checks.sh\n") < run.index("python -m pytest")
    assert run.rstrip().endswith("python -m pytest -q")
    check = (REPO / ".ci" / "check_install.sh").read_text()
    assert "unset PYTHONPATH" in check and "pip install -q -r" in check and "hub-export" in (REPO / ".ci" / "check_install.py").read_text()


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """The package's wheel, built from this clone."""
    from chance_agreement.ecosystem.wheel_file import build_wheel

    return build_wheel(tmp_path_factory.mktemp("dist"))


def test_the_version_is_written_once():
    """``chance_agreement.__version__`` is the one place: setuptools reads it (``dynamic``), the
    installed metadata says the same, and no other file git tracks writes it (CHANGELOG.md
    excepted: it names each released version). The Spaces' requirements.txt take it from the
    wheel's name (hub_export.requirements_text)."""
    import subprocess
    from importlib import metadata

    import chance_agreement

    version = chance_agreement.__version__
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert "version" not in project and "version" in project["dynamic"]
    assert CONFIG["dynamic"]["version"] == {"attr": "chance_agreement.__version__"}
    assert metadata.version("chance-agreement") == version
    written = re.compile(rb"(?<![\w.])" + re.escape(version.encode()) + rb"(?![\w.])")
    tracked = subprocess.run(["git", "-C", str(REPO), "ls-files", "-z"], check=True, capture_output=True).stdout
    found = sorted(name for name in tracked.decode("utf-8").split("\0")
                   if name and name != "CHANGELOG.md" and (REPO / name).is_file()
                   and written.search((REPO / name).read_bytes()))
    assert found == ["src/chance_agreement/__init__.py"], found


def test_the_wheel_carries_the_licence_and_py_typed(wheel):
    """PEP 639 metadata (an SPDX expression, the licence file in ``.dist-info/licenses/``, no licence
    classifier) and the PEP 561 marker; .ci/release_checks.sh checks the sdist's LICENSE."""
    import zipfile

    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        info = next(name.split("/")[0] for name in names if name.endswith(".dist-info/METADATA"))
        assert archive.read(f"{info}/licenses/LICENSE") == (REPO / "LICENSE").read_bytes()
        assert "chance_agreement/py.typed" in names
        fields = archive.read(f"{info}/METADATA").decode("utf-8").split("\n\n", 1)[0].splitlines()
    assert "License-Expression: Apache-2.0" in fields and "License-File: LICENSE" in fields
    assert not [line for line in fields if line.startswith(("License:", "Classifier: License ::"))]
    assert (REPO / "LICENSE").read_text(encoding="utf-8").split()[:4] == ["Apache", "License", "Version", "2.0,"]


@pytest.fixture(scope="module")
def compiled_wheel(tmp_path_factory):
    """The wheel ``pip install`` builds from a copy of the clone with its setup.py: with the compiled
    kernels where a C compiler is there (under CI), else pure like ``wheel``."""
    import shutil
    import subprocess
    import sys

    source, out = tmp_path_factory.mktemp("source"), tmp_path_factory.mktemp("compiled")
    for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE"):
        shutil.copy2(REPO / name, source / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "*.so", "*.pyd")
    for folder in ("src", CARDS_FOLDER, EXAMPLES_FOLDER, *(metric.folder for metric in METRICS)):
        shutil.copytree(REPO / folder, source / folder, ignore=ignore)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "--wheel-dir", str(out), str(source)], check=True, capture_output=True)
    (built,) = out.glob("*.whl")
    return built


def test_the_space_wheel_is_pure_and_the_compiled_one_carries_the_kernels(wheel, compiled_wheel):
    """hub-export's wheel installs on any Python 3 (a Space's may differ from this machine's) and
    computes with the numpy code; a plain install carries the compiled kernels (CI has a compiler)."""
    import os
    import zipfile

    assert wheel.name.endswith("-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as pure, zipfile.ZipFile(compiled_wheel) as built:
        assert "chance_agreement/_numerics/kernels.pyi" in pure.namelist()
        assert not [name for name in pure.namelist() if name.endswith((".so", ".pyd", ".c"))]
        extensions = [name for name in built.namelist() if name.endswith((".so", ".pyd"))]
    if os.environ.get("CI") or extensions:
        assert [name.split(".")[0] for name in extensions] == ["chance_agreement/_numerics/kernels"]
        assert "-py3-none-any" not in compiled_wheel.name


def test_plain_install_loads_the_modules_and_exports_spaces(tmp_path, wheel, compiled_wheel):
    """Gap 1 in the suite (offline): the wheel with the compiled kernels installed with ``pip
    install --target`` (no clone on the path, the shared venv's dependencies) loads each module
    through ``module_path`` and runs ``hub-export``, whose Spaces then carry a wheel packed from the
    installed files: the pure wheel's files, the compiled module left out."""
    import os
    import subprocess
    import sys
    import zipfile

    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
                    "--target", str(tmp_path / "site"), str(compiled_wheel)], check=True, capture_output=True)
    script = f"""
import sys, evaluate, chance_agreement
from chance_agreement import module_path
from chance_agreement.reports.cli import main
assert chance_agreement.__file__.startswith({str(tmp_path / "site")!r}), chance_agreement.__file__
references = [["B-PER", "I-PER", "O", "B-LOC"]]
for name in ("chance_f1", "coefficients", "noise"):
    assert module_path(name).startswith({str(tmp_path / "site")!r})
    print(name, sorted(evaluate.load(module_path(name)).compute(predictions=references, references=references))[:2])
sys.exit(main(["hub-export", {str(tmp_path / "spaces")!r}]))
"""
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "site")}
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("\n") == 3 + 3  # three modules computed, three Space folders printed
    for metric in METRICS:
        (packed,) = (tmp_path / "spaces" / metric.folder).glob("*.whl")
        with zipfile.ZipFile(packed) as repacked, zipfile.ZipFile(wheel) as original:
            assert sorted(repacked.namelist()) == sorted(original.namelist())
            for name in original.namelist():
                if not name.endswith("RECORD"):
                    assert repacked.read(name) == original.read(name), name


def test_the_test_extra_installs_no_gpu_toolchain_and_ci_adds_the_cpu_torch():
    """torch (and accelerate, which requires it) stay out of the test extra: on an ordinary machine
    they pull the CUDA build and its nvidia wheels. .ci/run installs the CPU build before the README's
    test command, and the Trainer tests fail under CI without it (conftest.require_torch)."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    names = {re.split(r"[<>=!~\[ ;]", requirement, maxsplit=1)[0].lower()
             for requirement in project["optional-dependencies"]["test"] + project["dependencies"]}
    assert not names & {"torch", "accelerate", "torchvision", "triton"}, names
    assert not any(name.startswith("nvidia") for name in names)
    run = (REPO / ".ci" / "run").read_text()
    readme_command = 'pip install -q -e ".[test]" && python -m pytest -q'
    assert run.index('pip install -q "torch==2.13.0" "accelerate>=0.26"') < run.index(readme_command)
