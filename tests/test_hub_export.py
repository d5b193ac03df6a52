"""``chance-agreement hub-export``: Space folders that evaluate loads and computes with."""

from __future__ import annotations

import ast
import math
import zipfile
from pathlib import Path

import pytest
import yaml

from chance_agreement.reports.cli import main
from chance_agreement.ecosystem.hub_export import GRADIO_VERSION, METRICS, REQUIREMENTS, available_metrics, export_all

REPO = Path(__file__).resolve().parent.parent

REFERENCES = [["O", "O", "O", "B-PER", "I-PER", "O", "O", "O", "B-LOC", "O"]]
PREDICTIONS = [["O", "O", "O", "B-PER", "I-PER", "I-PER", "O", "O", "B-LOC", "O"]]


def _check(result: dict, metric_name: str) -> None:
    """The small example's values, computed independently where the formula is simple."""
    if metric_name == "chance_f1":
        # observed token F1 = 2 * 3 / (4 + 3); entity F1 = 1 match of 2 spans each side
        assert result["overall_f1"] == 0.5
        assert math.isclose(result["overall_observed_f1"], 6 / 7)
        assert round(result["overall_chance_f1"], 4) == 0.2111
        assert round(result["overall_corrected_f1"], 4) == 0.8189
    elif metric_name == "coefficients":
        # 9 of 10 tokens carry the same category
        assert math.isclose(result["all"]["observed_agreement"], 0.9)
    elif metric_name == "noise":
        assert result["instances"] == 10
        assert result["agreed"] == 9 and result["disagreed"] == 1


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    target = tmp_path_factory.mktemp("spaces")
    before = _build_leftovers()
    assert main(["hub-export", str(target)]) == 0
    assert _build_leftovers() == before, "building the wheel left files in the clone"
    return target


def _build_leftovers() -> set:
    """What a setuptools build may leave in the clone (an editable install leaves egg-info already)."""
    return {path.name for path in [REPO / "build", *(REPO / "src").glob("*.egg-info")] if path.exists()}


def test_every_available_metric_is_exported(exported):
    names = [metric.name for metric in available_metrics()]
    assert "chance_f1" in names
    folders = sorted(path.name for path in exported.iterdir())
    assert folders == sorted(m.folder for m in METRICS if m.name in names)


@pytest.mark.parametrize("metric", METRICS, ids=[m.name for m in METRICS])
def test_space_folder_files(exported, metric):
    folder = exported / metric.folder
    if metric not in available_metrics():
        assert not folder.exists()
        return
    wheels = [p.name for p in folder.glob("*.whl")]
    assert len(wheels) == 1 and wheels[0].startswith("chance_agreement-")
    assert sorted(p.name for p in folder.iterdir()) == sorted(["README.md", "app.py", "requirements.txt", metric.script,
                                                                 wheels[0]])
    assert (folder / metric.script).read_bytes() == (REPO / metric.folder / metric.script).read_bytes()
    card = (folder / "README.md").read_text(encoding="utf-8")
    assert card == (REPO / "hub_cards" / f"{metric.name}.md").read_text(encoding="utf-8")
    meta = yaml.safe_load(card.split("---\n")[1])
    assert meta["app_file"] == "app.py" and meta["sdk"] == "gradio"
    requirements = (folder / "requirements.txt").read_text().splitlines()
    version = wheels[0].split("-")[1]
    assert requirements[:2] == ["--find-links .", f"chance-agreement=={version}"]
    assert requirements[2:] == list(REQUIREMENTS)
    assert f"gradio[mcp]=={GRADIO_VERSION}" in requirements and meta["sdk_version"] == GRADIO_VERSION
    app = (folder / "app.py").read_text()
    assert app == (REPO / metric.folder / "app.py").read_text()  # the module folder's own page
    tree = ast.parse(app)
    calls = [node.func for node in ast.walk(tree) if isinstance(node, ast.Call)]
    assert any(isinstance(f, ast.Name) and f.id == "build_demo" for f in calls)
    assert "launch_gradio_widget" not in app  # evaluate's widget does not run on current Gradio
    assert f'build_demo(gr, "{metric.name}")' in app and 'if __name__ == "__main__":\n    launch(gr, demo)' in app


@pytest.mark.parametrize("metric", METRICS, ids=[m.name for m in METRICS])
def test_assembled_folder_loads_and_computes(exported, metric):
    if metric not in available_metrics():
        pytest.fail(f"{metric.name}: module or card not available yet")
    import evaluate

    module = evaluate.load(str(exported / metric.folder))
    result = module.compute(predictions=PREDICTIONS, references=REFERENCES)
    _check(result, metric.name)


def test_every_card_names_the_gradio_the_spaces_pin_and_ci_drives():
    for metric in METRICS:
        meta = yaml.safe_load((REPO / "hub_cards" / f"{metric.name}.md").read_text(encoding="utf-8").split("---\n")[1])
        assert meta["sdk_version"] == GRADIO_VERSION, metric.name
    check = (REPO / ".ci" / "check_install.sh").read_text()
    assert "check_space_page.py" in check and "check_install.py space" in check


def test_every_space_carries_the_same_wheel_with_the_modules_and_cards(exported):
    wheels = sorted(exported.glob("*/*.whl"))
    assert len(wheels) == len(available_metrics())
    assert len({wheel.read_bytes() for wheel in wheels}) == 1
    with zipfile.ZipFile(wheels[0]) as wheel:
        names = set(wheel.namelist())
        assert "chance_agreement/ecosystem/module_paths.py" in names
        for metric in METRICS:
            script = f"chance_agreement/metric_modules/{metric.folder}/{metric.script}"
            assert wheel.read(script) == (REPO / metric.folder / metric.script).read_bytes()
            card = f"chance_agreement/metric_modules/hub_cards/{metric.name}.md"
            assert wheel.read(card) == (REPO / "hub_cards" / f"{metric.name}.md").read_bytes()
        metadata = next(name for name in names if name.endswith(".dist-info/METADATA"))
        assert "Requires-Dist: evaluate" in wheel.read(metadata).decode()


def test_existing_folder_needs_force(exported, capsys):
    wheel = next(exported.glob("chance_f1_metric/*.whl"))
    assert main(["hub-export", str(exported), "--metric", "chance_f1", "--wheel", str(wheel)]) == 1
    assert "already exists" in capsys.readouterr().err
    marker = exported / "chance_f1_metric" / "stale.txt"
    marker.write_text("old")
    copy = exported.parent / wheel.name
    copy.write_bytes(wheel.read_bytes())
    assert main(["hub-export", str(exported), "--metric", "chance_f1", "--force", "--wheel", str(copy)]) == 0
    assert (exported / "chance_f1_metric" / wheel.name).read_bytes() == wheel.read_bytes()
    assert marker.read_text() == "old"  # not ours: left alone (issue 24, 2c)
    marker.unlink()


def test_force_replaces_only_what_it_writes(exported, tmp_path):
    """Issue 24, 2c: --force deleted the whole folder, a Space clone's .git and the user's files too."""
    wheel = next(exported.glob("chance_f1_metric/*.whl"))
    space = tmp_path / "spaces" / "chance_f1_metric"
    (space / ".git" / "objects").mkdir(parents=True)
    (space / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (space / "notes.txt").write_text("mine")
    (space / "README.md").write_text("old card")
    stale = space / "chance_agreement-0.0.1-py3-none-any.whl"
    stale.write_bytes(b"an older wheel of ours")
    assert main(["hub-export", str(space.parent), "--metric", "chance_f1", "--force", "--wheel", str(wheel)]) == 0
    assert (space / ".git" / "HEAD").read_text() == "ref: refs/heads/main\n" and (space / ".git" / "objects").is_dir()
    assert (space / "notes.txt").read_text() == "mine"
    assert (space / "README.md").read_text() != "old card" and (space / "chance_f1_metric.py").is_file()
    assert not stale.exists() and (space / wheel.name).read_bytes() == wheel.read_bytes()
    (space / "app.py").unlink()
    (space / "app.py").mkdir()  # something of the user's where a file of ours goes: refused, nothing changed
    before = (space / "README.md").read_text()
    (space / "README.md").write_text("edited")
    assert main(["hub-export", str(space.parent), "--metric", "chance_f1", "--force", "--wheel", str(wheel)]) == 1
    assert (space / "README.md").read_text() == "edited" and before


def test_bad_source_and_unknown_metric(tmp_path):
    with pytest.raises(ValueError, match="no hub_cards"):
        export_all(tmp_path / "out", source=tmp_path)
    with pytest.raises(ValueError, match="unknown metric"):
        export_all(tmp_path / "out", names=["bleu"])
    with pytest.raises(ValueError, match="not a wheel file"):
        export_all(tmp_path / "out", wheel=tmp_path / "missing.whl")
    with pytest.raises(ValueError, match="does not exist"):
        export_all(tmp_path / "no" / "out")


def test_module_path_is_a_folder_evaluate_loads():
    import evaluate

    from chance_agreement import module_path

    for metric in METRICS:
        folder = Path(module_path(metric.name))
        assert (folder / metric.script).is_file()
        assert module_path(metric.folder) == str(folder)
    result = evaluate.load(module_path("chance_f1")).compute(predictions=PREDICTIONS, references=REFERENCES)
    _check(result, "chance_f1")
    with pytest.raises(ValueError, match="unknown metric 'bleu'"):
        module_path("bleu")
