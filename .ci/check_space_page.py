"""Run by .ci/check_install.sh: serve an exported Space (``python app.py`` with the Space venv's python,
on 127.0.0.1) and use its page in headless Chromium as a person would: paste annotations or upload two
annotators' files, press Score, read the score from the page. It must equal the library's value, to
the last bit (the page's data-value is the float's repr), with no console error on the page.

    check_space_page.py REPO SPACE_DIR SPACE_PYTHON [SCREENSHOT.png]

Runs with a small driver venv holding websocket-client (the DevTools client of tests/browser.py).
"""

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

REPO, SPACE, SPACE_PYTHON = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
SHOT = Path(sys.argv[4]) if len(sys.argv) > 4 else None
sys.path.insert(0, str(REPO / "tests"))
from browser import browser_page  # noqa: E402

EXAMPLES = REPO / "examples"
# per Space: how the page is used, the score read back, and the library call giving it
SCENARIOS = {
    "chance_f1_metric": {"paste": "sysB.conll", "level": "entity", "key": "overall_corrected_f1",
                         "library": "chance_f1(p, r, level='entity', zero_division=0)['overall_corrected_f1']"},
    "coefficients_metric": {"upload": ["anna.conll", "ben.conll"], "key": "all_cohen_kappa", "api_paste": "sysA.conll",
                            "library": "agreement_report(p, r)['all']['cohen_kappa']"},
    "noise_metric": {"paste": "sysA.conll", "key": "noise_bound", "library": "noise_report(p, r)['noise_bound']"},
}
LIBRARY = """
import sys
from chance_agreement import agreement_report, chance_f1, noise_report
from chance_agreement.spans.conll import read_column_file
files = [read_column_file(path) for path in sys.argv[1:]]
r, p = (files[0].column(1), files[0].column(-1)) if len(files) == 1 else (files[0].column(-1), files[1].column(-1))
print(repr({expression}))
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serve(port: int, log) -> subprocess.Popen:
    env = {**os.environ, "GRADIO_SERVER_NAME": "127.0.0.1", "GRADIO_SERVER_PORT": str(port),
           "GRADIO_ANALYTICS_ENABLED": "False", "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    server = subprocess.Popen([SPACE_PYTHON, "app.py"], cwd=SPACE, env=env, stdout=log, stderr=subprocess.STDOUT,
                              start_new_session=True)
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"app.py exited with {server.returncode}")
        try:
            if opener.open(f"http://127.0.0.1:{port}/", timeout=5).status == 200:
                return server
        except OSError:
            time.sleep(0.5)
    raise TimeoutError("the Space did not answer within 180 s")


def use_page(page, url: str, scenario: dict) -> str:
    """Fill the form as a person would and return the data-value of the score shown."""
    page.call("Page.navigate", url=url)
    page.wait_until("!!(document.querySelector('#score') && document.querySelector('#conll-text textarea'))",
                    120, "the Score button and the text box")
    if "paste" in scenario:  # select the sample text, paste a file over it
        page.evaluate("(() => { const t = document.querySelector('#conll-text textarea'); t.focus(); t.select(); })()")
        page.call("Input.insertText", text=(EXAMPLES / scenario["paste"]).read_text(encoding="utf-8"))
    if "upload" in scenario:
        root = page.call("DOM.getDocument", depth=-1)["root"]["nodeId"]
        node = page.call("DOM.querySelector", nodeId=root, selector="#upload input[type=file]")["nodeId"]
        page.call("DOM.setFileInputFiles", nodeId=node, files=[str(EXAMPLES / f) for f in scenario["upload"]])
        stems = [Path(name).stem for name in scenario["upload"]]  # the page shows "anna", ".conll", its size
        page.wait_until(" && ".join(f"document.querySelector('#upload').innerText.includes('{stem}')" for stem in stems),
                        60, "the uploaded files")
    if "level" in scenario:
        page.evaluate(f"document.querySelector('#level input[value=\"{scenario['level']}\"]').click()")
    page.evaluate("document.querySelector('#score').click()")
    selector = f"#scores [data-key=\"{scenario['key']}\"]"
    error = page.evaluate("(document.querySelector('#scores [data-key=\"error\"]') || {}).textContent || ''")
    if error:
        raise AssertionError(f"the page shows an error: {error}")
    return page.wait_until(f"(document.querySelector('{selector}') || {{dataset: {{}}}}).dataset.value", 120,
                           scenario["key"])


CLIENT = """
import json, sys
from gradio_client import Client
client = Client(sys.argv[1], verbose=False)
out = client.predict(open(sys.argv[2], encoding="utf-8").read(), api_name="/score", **json.loads(sys.argv[3]))
print(repr(out["scores"][sys.argv[4]]))
"""


def use_api(url: str, scenario: dict) -> str:
    """Call the Space's /score endpoint with gradio_client (the Space venv's own) as a program would:
    the pasted file's text (and the level, where the page sets it); the score it returns."""
    paste = EXAMPLES / scenario.get("api_paste", scenario.get("paste"))
    options = {"level": scenario["level"]} if "level" in scenario else {}
    return subprocess.run([SPACE_PYTHON, "-c", CLIENT, url, str(paste), json.dumps(options), scenario["key"]],
                          capture_output=True, text=True, check=True).stdout.strip()


def mcp_tools(url: str) -> list:
    """The MCP tools the Space serves (Gradio's schema endpoint): name and description of each."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(f"{url}gradio_api/mcp/schema", timeout=30) as response:
        return json.loads(response.read())


def main() -> None:
    scenario = SCENARIOS[SPACE.name]
    inputs = [str(EXAMPLES / name) for name in scenario.get("upload", [scenario.get("paste")])]
    expected = subprocess.run([SPACE_PYTHON, "-c", LIBRARY.format(expression=scenario["library"]), *inputs],
                              capture_output=True, text=True, check=True).stdout.strip()
    api_input = str(EXAMPLES / scenario.get("api_paste", scenario.get("paste")))
    api_expected = subprocess.run([SPACE_PYTHON, "-c", LIBRARY.format(expression=scenario["library"]), api_input],
                                  capture_output=True, text=True, check=True).stdout.strip()
    port = free_port()
    with open(SPACE / "server.log", "w") as log:
        server = serve(port, log)
        try:
            with browser_page() as page:
                page.call("DOM.enable")
                shown = use_page(page, f"http://127.0.0.1:{port}/", scenario)
                errors = page.console_errors()
                if SHOT:
                    SHOT.write_bytes(page.screenshot())
            answered = use_api(f"http://127.0.0.1:{port}/", scenario)
            tools = mcp_tools(f"http://127.0.0.1:{port}/")
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
    assert shown == expected, f"{SPACE.name}: the page shows {scenario['key']} = {shown}, the library {expected}"
    assert answered == api_expected, f"{SPACE.name}: /score gives {answered}, the library {api_expected}"
    assert any("score" in tool["name"] and "CoNLL columns" in tool["description"] for tool in tools), tools
    assert not errors, f"{SPACE.name}: console errors on the page: {errors}"
    print(f"  {SPACE.name}: page used in Chromium, {scenario['key']} = {shown} as the library's; /score through "
          f"gradio_client gives {answered}; MCP tools: {[tool['name'] for tool in tools]}")


if __name__ == "__main__":
    main()
