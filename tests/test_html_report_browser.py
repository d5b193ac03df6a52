"""The report as a person sees it: headless Chromium loads the page (DevTools protocol, ``browser.py``),
takes a full-page screenshot, reports console errors, and gives back the numbers in the DOM.

Chromium is the Debian package installed by ``.ci/run``; without it these tests fail under CI and
skip elsewhere, saying why.
"""

from __future__ import annotations

import io
import os

import numpy as np
import pytest
from PIL import Image

from browser import chromium_path, open_page
from chance_agreement import chance_f1, coefficients, contingency, noise_report
from chance_agreement.reports.html_report import html_report, load_annotations
from chance_agreement.reports.leaderboard import build_leaderboard

SHOTS = os.environ.get("REPORT_SCREENSHOTS")  # a folder to keep the screenshots in, to look at them


@pytest.fixture(scope="session")
def chromium():
    path = chromium_path()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("CI requires chromium (apt-get install -y chromium), not found on PATH")
        pytest.skip("chromium is not installed (apt-get install -y chromium); the browser checks need it")
    return path


@pytest.fixture(scope="session")
def conll_file(shared_data):
    return shared_data / "conll03_systems" / "derived" / "conll03_test_gold_plus_3_systems.tsv"


def look(page_path, name: str):
    page = open_page(page_path)
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        with open(os.path.join(SHOTS, f"{name}.png"), "wb") as handle:
            handle.write(page.screenshot)
    return page


def assert_not_blank(png: bytes) -> None:
    """Pixel statistics of a page with text, tables and figures: not one flat colour, ink and colour."""
    image = np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(float)
    assert image.shape[0] > 1500 and image.shape[1] >= 1200, image.shape
    grey = image.mean(axis=2)
    assert grey.std() > 20  # a blank page has std 0
    assert (grey < 128).mean() > 0.01  # dark pixels: text and heat-map cells
    saturation = image.max(axis=2) - image.min(axis=2)
    assert (saturation > 60).mean() > 0.005  # coloured pixels: bars, heat maps, highlighted spans
    rows_with_ink = (grey < 200).any(axis=1).mean()
    assert rows_with_ink > 0.3  # ink spread down the page, not one line at the top


def assert_same(page, key: str, value) -> None:
    exact, text = page.numbers[key]
    assert float(exact) == value, key
    assert text == f"{value:.4f}", key


def test_the_browser_check_catches_console_errors(chromium, tmp_path):
    """The check can fail: a script error and an invalid SVG attribute both show up."""
    broken = tmp_path / "broken.html"
    broken.write_text('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>x</title></head><body>'
                      '<svg width="10" height="10"><rect width="-5" height="5"/></svg>'
                      '<script>console.error("drawn wrong"); undefinedFunction();</script></body></html>')
    errors = open_page(broken).console_errors
    assert any("drawn wrong" in e for e in errors)
    assert any("undefinedFunction" in e for e in errors)
    assert any("negative" in e.lower() or "rect" in e.lower() for e in errors)


def test_conll_gold_against_one_system_in_the_browser(chromium, conll_file, tmp_path):
    tokens, annotations = load_annotations([f"{conll_file}:1", f"{conll_file}:2"], names=["gold", "lstm"])
    path = tmp_path / "pair.html"
    html_report(tokens, annotations, path)
    assert path.stat().st_size < 5_000_000
    page = look(path, "conll_pair")
    assert page.console_errors == []
    assert_not_blank(page.screenshot)
    assert page.facts["sections"] == ["summary", "types", "contingency", "sentences"]
    assert page.facts["scripts"] == 0 and page.facts["external"] == 0
    gold, system = annotations["gold"], annotations["lstm"]
    result = chance_f1(system, gold, zero_division=0)
    for key in ("observed_f1", "chance_f1", "corrected_f1"):
        assert_same(page, f"summary/overall_{key}", result[f"overall_{key}"])
        for name in ("LOC", "MISC", "ORG", "PER"):
            assert_same(page, f"types/{name}/{key}", result[name][key])
    table, categories = contingency(system, gold)
    kappa = coefficients(table, categories)
    assert_same(page, "summary/cohen_kappa", kappa["cohen_kappa"])
    assert_same(page, "summary/noise_bound", noise_report(system, gold)["noise_bound"])
    assert "interval: not computed" in page.facts["text"] or "summary/overall_corrected_f1_ci/low" in page.numbers
    assert any("more sentences with disagreement beyond chance left out" in note for note in page.facts["notes"])
    assert "Sentences with the most disagreement beyond chance" in page.facts["text"]


def test_conll_leaderboard_of_three_systems_in_the_browser(chromium, conll_file, tmp_path):
    names = ["gold", "lstm", "flair", "bert"]
    tokens, annotations = load_annotations([f"{conll_file}:{c}" for c in (1, 2, 3, 4)], names=names)
    path = tmp_path / "leaderboard.html"
    html_report(tokens, annotations, path, leaderboard=True)
    page = look(path, "conll_leaderboard")
    assert page.console_errors == []
    assert_not_blank(page.screenshot)
    assert page.facts["sections"][:2] == ["summary", "leaderboard"]
    board = build_leaderboard(annotations["gold"], {n: annotations[n] for n in names[1:]}, progress=False)
    for row in board["systems"]:
        for key in ("observed_f1", "chance_f1", "corrected_f1"):
            assert_same(page, f"leaderboard/{row['system']}/{key}", row[key])
        assert page.numbers[f"leaderboard/{row['system']}/corrected_rank"][0] == str(row["corrected_rank"])
    assert "Observed against corrected F1" in page.facts["text"]


def test_three_annotators_in_the_browser(chromium, conll_file, tmp_path):
    names = ["lstm", "flair", "bert"]
    tokens, annotations = load_annotations([f"{conll_file}:{c}" for c in (2, 3, 4)], names=names)
    path = tmp_path / "team.html"
    html_report(tokens, annotations, path)
    page = look(path, "conll_team")
    assert page.console_errors == []
    assert_not_blank(page.screenshot)
    assert page.facts["sections"] == ["summary", "annotators", "types", "contingency", "sentences"]
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            expected = chance_f1(annotations[second], annotations[first], zero_division=0)["overall_corrected_f1"]
            assert float(page.numbers[f"pairwise/{first}/{second}"][0]) == pytest.approx(expected, abs=1e-12)
            assert page.numbers[f"pairwise/{second}/{first}"] == page.numbers[f"pairwise/{first}/{second}"]
        assert page.numbers[f"pairwise/{first}/{first}"][0] == ""
    assert "Each annotator against the rest" in page.facts["text"]


@pytest.mark.parametrize("count", [4, 6])
def test_several_annotators_fit_a_1280_pixel_window(chromium, conll_file, tmp_path, count):
    """Issue 24, 6: with 3+ annotators the side-by-side sentences ran past a 1,280 px window (the
    last annotator cut off). Every element of the page stays within the window's width."""
    columns = [1, 2, 3, 4, 2, 3][:count]
    names = ["gold", "lstm", "flair", "bert", "lstm again", "flair again"][:count]
    tokens, annotations = load_annotations([f"{conll_file}:{c}" for c in columns], names=names)
    path = tmp_path / f"team{count}.html"
    html_report(tokens, annotations, path)
    page = look(path, f"conll_team_{count}")
    assert page.console_errors == []
    assert page.facts["viewport"] == 1280
    assert page.facts["page_width"] <= page.facts["viewport"]
    assert page.facts["beyond"] == 0
    text = page.facts["text"]
    assert all(name in text for name in names)
    assert "interval: not computed\n" not in text and "interval: not computed\t" not in text
