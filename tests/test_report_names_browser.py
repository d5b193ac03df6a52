"""Annotators' names as the report shows them, in headless Chromium at 1,280 px (``browser.py``):
a right-to-left override in a name stays inside the name, and long names wrap instead of pushing
the number columns off the window (issue 38 item 6). The names come from a Label Studio export
(``completed_by`` e-mails) in the tool's own layout."""

from __future__ import annotations

import io
import json
import os
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from browser import browser_page, chromium_path
from chance_agreement.reports.cli import main

EXPORT = Path(__file__).resolve().parent / "data" / "near_miss" / "label_studio_long_names.json"

# the left edges of the first and last letters of a word in an element's text (-1 when not found)
_EDGES = """(() => {
  const element = document.querySelector(%s);
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.data.indexOf(%s);
    if (at < 0) continue;
    const edge = i => { const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1);
                        return r.getBoundingClientRect().left; };
    return [edge(at), edge(at + %d - 1)];
  }
  return [-1, -1];
})()"""

_FACTS = """JSON.stringify({
  viewport: document.documentElement.clientWidth,
  page_width: document.documentElement.scrollWidth,
  beyond: Array.from(document.querySelectorAll('main *')).filter(
    e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5).length,
  numbers_right: Math.max(...Array.from(document.querySelectorAll('td.num')).map(e => e.getBoundingClientRect().right))
})"""


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    if chromium_path() is None:
        if os.environ.get("CI"):
            pytest.fail("CI requires chromium (apt-get install -y chromium), not found on PATH")
        pytest.skip("chromium is not installed (apt-get install -y chromium); the browser checks need it")
    page = tmp_path_factory.mktemp("names") / "report.html"
    with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
        assert main(["report", str(EXPORT), "-o", str(page)]) == 0
    return page


def _edges(tools, selector: str, word: str) -> list:
    return tools.evaluate(_EDGES % (json.dumps(selector), json.dumps(word), len(word)))


def test_a_right_to_left_override_in_a_name_does_not_reverse_the_header(report):
    with browser_page() as tools:
        tools.call("Page.navigate", url=report.resolve().as_uri())
        tools.wait_for("Page.loadEventFired")
        # the meta line goes on after the names: "... evil@example.org. Compared: every pair ..."
        first, last = _edges(tools, "p.meta", "Compared")
        assert 0 <= first < last, (first, last)  # read left to right, not reversed
        first, last = _edges(tools, "h1", "Agreement")
        assert 0 <= first < last, (first, last)
        assert "evil@example.org" in tools.evaluate("document.querySelector('p.meta').innerText")


def test_long_names_wrap_and_keep_the_numbers_in_a_1280_pixel_window(report):
    with browser_page() as tools:
        tools.call("Page.navigate", url=report.resolve().as_uri())
        tools.wait_for("Page.loadEventFired")
        facts = json.loads(tools.evaluate(_FACTS))
        titles = tools.evaluate("Array.from(document.querySelectorAll('bdi.name')).map(e => e.title)")
    assert facts["viewport"] == 1280
    assert facts["page_width"] <= facts["viewport"] and facts["beyond"] == 0, facts
    assert facts["numbers_right"] <= facts["viewport"], facts
    assert "annotation-team-berlin-clinical-notes-annotator-02@example.org" in titles
