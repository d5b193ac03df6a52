"""Headless Chromium driven over the DevTools protocol, for tests that look at a page as a person does.

``open_page(path)`` starts Chromium (a fresh empty profile, no network services), loads the file,
and returns what a person and the console would see: the console errors and uncaught exceptions,
the ``data-key`` numbers of the DOM, a few DOM facts and a full-page PNG screenshot.
``browser_page()`` gives the DevTools connection of a fresh page to drive step by step (a served
page: type, click, wait for what appears), stopping Chromium afterwards.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", "--hide-scrollbars")
MAX_HEIGHT = 14000  # screenshot height cap in CSS pixels
WIDTH = 1280


def chromium_path() -> str | None:
    return next((found for name in ("chromium", "chromium-browser") if (found := shutil.which(name))), None)


@dataclass
class Page:
    console_errors: list[str] = field(default_factory=list)
    numbers: dict[str, tuple[str, str]] = field(default_factory=dict)  # data-key -> (data-value, text)
    facts: dict = field(default_factory=dict)
    screenshot: bytes = b""


class _DevTools:
    def __init__(self, url: str):
        import websocket

        self.socket = websocket.create_connection(url, timeout=60, suppress_origin=True,
                                                  http_no_proxy=["127.0.0.1", "localhost"])
        self.next_id = 0
        self.events: list[dict] = []

    def call(self, method: str, **params):
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]
            self.events.append(message)

    def evaluate(self, expression: str):
        """The value of a JavaScript expression in the page (awaited if it is a promise)."""
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def wait_until(self, expression: str, timeout: float = 60.0, what: str = ""):
        """Poll ``expression`` until it is truthy; its value."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"{what or expression} not there within {timeout} s")
            time.sleep(0.2)

    def console_errors(self) -> list[str]:
        self.call("Runtime.evaluate", expression="0")  # drain late console events
        return _errors(self.events)

    def screenshot(self, width: int = WIDTH) -> bytes:
        size = self.call("Page.getLayoutMetrics")["cssContentSize"]
        height = min(int(size["height"]) + 1, MAX_HEIGHT)
        shot = self.call("Page.captureScreenshot", format="png", captureBeyondViewport=True,
                         clip={"x": 0, "y": 0, "width": width, "height": height, "scale": 1})
        return base64.b64decode(shot["data"])

    def wait_for(self, event: str, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while not any(message.get("method") == event for message in self.events):
            if time.monotonic() > deadline:
                raise TimeoutError(f"no {event} within {timeout} s")
            self.events.append(json.loads(self.socket.recv()))


def _port(profile: Path, process, timeout: float = 30.0) -> int:
    marker = profile / "DevToolsActivePort"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if marker.exists() and marker.read_text().strip():
            return int(marker.read_text().split()[0])
        if process.poll() is not None:
            raise RuntimeError(f"chromium exited with {process.returncode}")
        time.sleep(0.05)
    raise TimeoutError("chromium did not open its DevTools port")


def _errors(events: list[dict]) -> list[str]:
    found = []
    for message in events:
        method, params = message.get("method"), message.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            found.append("console: " + " ".join(str(a.get("value", a.get("description"))) for a in params["args"]))
        elif method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            found.append("exception: " + details.get("exception", {}).get("description", details.get("text", "")))
        elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
            found.append(f"log ({params['entry']['source']}): {params['entry']['text']}")
    return found


_COLLECT = """JSON.stringify({
  numbers: Array.from(document.querySelectorAll('[data-key]')).map(e => [e.dataset.key, e.dataset.value, e.textContent]),
  sections: Array.from(document.querySelectorAll('section')).map(e => e.id),
  scripts: document.querySelectorAll('script').length,
  svgs: document.querySelectorAll('svg').length,
  external: Array.from(document.querySelectorAll('[src],link[href]')).length,
  notes: Array.from(document.querySelectorAll('.note')).map(e => e.textContent),
  title: document.title,
  text: document.body.innerText,
  viewport: document.documentElement.clientWidth,
  page_width: document.documentElement.scrollWidth,
  beyond: Array.from(document.querySelectorAll('main *')).filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5).length
})"""


def _stop(process: subprocess.Popen) -> None:
    """End Chromium and every process of its group, and wait for the browser itself."""
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            break
        try:
            process.wait(timeout=wait)
            break
        except subprocess.TimeoutExpired:
            continue


def _remove(profile: str) -> None:
    """Remove the profile folder; a helper still closing may write into it for a moment."""
    for _ in range(20):
        try:
            shutil.rmtree(profile)
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.1)
    shutil.rmtree(profile, ignore_errors=True)


@contextmanager
def browser_page(width: int = WIDTH):
    """A fresh headless Chromium page: yields its ``_DevTools`` (Page, Runtime and Log enabled);
    Chromium and its profile are gone afterwards."""
    executable = chromium_path()
    if executable is None:
        raise FileNotFoundError("chromium is not installed")
    profile = tempfile.mkdtemp(prefix="chromium-profile-")
    # its own process group: the helpers it starts (renderer, zygote, crashpad) end with it
    process = subprocess.Popen([executable, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        port = _port(Path(profile), process)
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        targets = json.load(opener.open(f"http://127.0.0.1:{port}/json/list", timeout=30))
        target = next(t for t in targets if t["type"] == "page")
        tools = _DevTools(target["webSocketDebuggerUrl"])
        try:
            for domain in ("Page", "Runtime", "Log"):
                tools.call(f"{domain}.enable")
            tools.call("Emulation.setDeviceMetricsOverride", width=width, height=900, deviceScaleFactor=1,
                       mobile=False)
            yield tools
        finally:
            tools.socket.close()
    finally:
        _stop(process)
        _remove(profile)


def open_page(path, width: int = WIDTH) -> Page:
    """Load ``path`` in headless Chromium; console errors, DOM numbers and a full-page screenshot."""
    with browser_page(width) as tools:
        tools.call("Page.navigate", url=Path(path).resolve().as_uri())
        tools.wait_for("Page.loadEventFired")
        collected = json.loads(tools.call("Runtime.evaluate", expression=_COLLECT, returnByValue=True)["result"]["value"])
        size = tools.call("Page.getLayoutMetrics")["cssContentSize"]
        height = min(int(size["height"]) + 1, MAX_HEIGHT)
        shot = tools.call("Page.captureScreenshot", format="png", captureBeyondViewport=True, optimizeForSpeed=True,
                          clip={"x": 0, "y": 0, "width": width, "height": height, "scale": 1})
        tools.call("Runtime.evaluate", expression="0")  # drain late console events
    page = Page(console_errors=_errors(tools.events), screenshot=base64.b64decode(shot["data"]))
    page.numbers = {key: (value, text) for key, value, text in collected.pop("numbers")}
    page.facts = collected
    return page


if __name__ == "__main__":  # python tests/browser.py page.html shot.png: look at a page yourself
    import sys

    result = open_page(sys.argv[1])
    Path(sys.argv[2]).write_bytes(result.screenshot)
    print(json.dumps({"errors": result.console_errors, "numbers": len(result.numbers),
                      "sections": result.facts["sections"], "notes": result.facts["notes"]}, indent=1))
    sys.exit(0)
