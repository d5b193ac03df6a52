#!/usr/bin/env bash
# A plain (non-editable) install and the exported Hub Spaces, each in a fresh venv with nothing
# from the clone importable: issue 9 gaps 1 and 2. Dependencies come from the package index
# (pip's cache makes reruns fast); one venv serves both checks.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
unset PYTHONPATH
cd "$scratch"

# The wheel, built from a clean copy of the sources (no build/ left in the clone): with setup.py, so
# with the compiled kernels (this python's headers and gcc; the Spaces' wheel is pure, hub-export).
mkdir source
tar -C "$repo" --exclude=__pycache__ --exclude='*.egg-info' --exclude='*.so' -cf - pyproject.toml setup.py README.md LICENSE src hub_cards \
    examples chance_f1_metric coefficients_metric noise_metric | tar -C source -xf -
python3 -m venv venv
venv/bin/pip install -q "setuptools>=77"
venv/bin/pip wheel -q --no-deps --no-build-isolation -w dist ./source
cp "$repo/.ci/check_install.py" .

# Nothing may load from the Hub at run time.
export HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 HF_EVALUATE_OFFLINE=1

echo "plain install of $(ls dist)"
venv/bin/pip install -q dist/*.whl
venv/bin/python check_install.py wheel spaces

for space in spaces/*/; do
    echo "Space ${space}: pip install -r requirements.txt"
    venv/bin/pip uninstall -q -y chance-agreement
    venv/bin/pip install -q -r "${space}requirements.txt"
    venv/bin/python check_install.py space "$space"
done

# Each Space served on 127.0.0.1 by its own app.py (from the venv its requirements.txt made) and used
# in headless Chromium: paste or upload annotations, press Score, the page's score equals the library's.
# The DevTools client (tests/browser.py) runs in a small venv of its own.
python3 -m venv driver
driver/bin/pip install -q websocket-client
for space in spaces/*/; do
    driver/bin/python "$repo/.ci/check_space_page.py" "$repo" "$space" "$scratch/venv/bin/python"
done
echo "plain install and Spaces: OK"
