"""Run by .ci/check_install.sh with a fresh venv's python, from outside the clone.

    check_install.py wheel SPACES_DIR   the plain-installed package: module_path() + evaluate.load
                                        + compute for each module, then `chance-agreement hub-export`
    check_install.py space SPACE_DIR    a Space folder installed from its requirements.txt:
                                        evaluate.load(folder), compute, import app.py (builds the page,
                                        serves nothing), the card's sdk_version is the installed Gradio
    check_install.py sdist              the package installed from its sdist (.ci/release_checks.sh):
                                        evaluate.load(module_path("chance_f1")) + compute, the
                                        installed version, LICENSE and py.typed
(check_space_page.py then serves each Space and uses its page in Chromium.)
"""

import importlib.util
import math
import subprocess
import sys
from pathlib import Path

REFERENCES = [["O", "O", "O", "B-PER", "I-PER", "O", "O", "O", "B-LOC", "O"]]
PREDICTIONS = [["O", "O", "O", "B-PER", "I-PER", "I-PER", "O", "O", "B-LOC", "O"]]
FOLDERS = {"chance_f1": "chance_f1_metric", "coefficients": "coefficients_metric", "noise": "noise_metric"}


def check(name: str, result: dict) -> None:
    """Values of the small example, worked out by hand (tests/test_hub_export.py has the derivation)."""
    if name == "chance_f1":
        assert result["overall_f1"] == 0.5 and math.isclose(result["overall_observed_f1"], 6 / 7), result
        assert round(result["overall_corrected_f1"], 4) == 0.8189, result
    elif name == "coefficients":
        assert math.isclose(result["all"]["observed_agreement"], 0.9), result
    else:
        assert (result["instances"], result["agreed"], result["disagreed"]) == (10, 9, 1), result
    print(f"  {name}: computed and checked")


def not_from_a_clone(module) -> None:
    path = Path(module.__file__).resolve()
    assert "site-packages" in path.parts, f"{module.__name__} imported from {path}, not from the venv"


def compiled(expected: bool) -> None:
    """A plain install builds the compiled kernels (CI has a C compiler and Python's headers); a
    Space's wheel is pure (hub-export) and computes the same bits with numpy."""
    from chance_agreement._numerics.compiled import compiled_kernels

    assert (compiled_kernels() is not None) == expected, f"compiled kernels expected: {expected}"
    print(f"  compiled kernels: {'built' if expected else 'left out (pure wheel)'}")


def check_wheel(spaces: Path) -> None:
    import evaluate

    import chance_agreement
    from chance_agreement import module_path

    not_from_a_clone(chance_agreement)
    compiled(True)
    for name in FOLDERS:
        folder = Path(module_path(name))
        assert "site-packages" in folder.parts, folder
        check(name, evaluate.load(str(folder)).compute(predictions=PREDICTIONS, references=REFERENCES))
    script = Path(sys.executable).with_name("chance-agreement")
    subprocess.run([str(script), "hub-export", str(spaces)], check=True)
    assert sorted(p.name for p in spaces.iterdir()) == sorted(FOLDERS.values())


def check_space(space: Path) -> None:
    import evaluate

    import chance_agreement

    not_from_a_clone(chance_agreement)
    compiled(False)
    name = next(name for name, folder in FOLDERS.items() if folder == space.name)
    check(name, evaluate.load(str(space)).compute(predictions=PREDICTIONS, references=REFERENCES))
    spec = importlib.util.spec_from_file_location("app", space / "app.py")
    app = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(app)  # builds the page; it is served only under __main__
    import gradio

    assert isinstance(app.demo, gradio.Blocks), type(app.demo)
    card = (space / "README.md").read_text(encoding="utf-8").split("---")[1]
    sdk_version = next(line.split(":", 1)[1].strip() for line in card.splitlines() if line.startswith("sdk_version:"))
    assert sdk_version == gradio.__version__, f"card sdk_version {sdk_version}, installed gradio {gradio.__version__}"
    print(f"  {name}: app.py builds its page on gradio {gradio.__version__}, the card's sdk_version")


def check_sdist() -> None:
    from importlib import metadata

    import evaluate

    import chance_agreement
    from chance_agreement import module_path

    not_from_a_clone(chance_agreement)
    compiled(True)
    check("chance_f1", evaluate.load(module_path("chance_f1")).compute(predictions=PREDICTIONS, references=REFERENCES))
    distribution = metadata.distribution("chance-agreement")
    assert distribution.version == chance_agreement.__version__, (distribution.version, chance_agreement.__version__)
    assert distribution.metadata["License-Expression"] == "Apache-2.0", distribution.metadata["License-Expression"]
    installed = {str(path) for path in distribution.files}
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in installed), sorted(installed)
    assert "chance_agreement/py.typed" in installed, sorted(installed)
    print(f"  chance-agreement {distribution.version}: its LICENSE and py.typed installed")


if __name__ == "__main__":
    kind = sys.argv[1]
    if kind == "sdist":
        check_sdist()
    else:
        folder = Path(sys.argv[2])
        check_wheel(folder) if kind == "wheel" else check_space(folder)
