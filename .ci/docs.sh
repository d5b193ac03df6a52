#!/usr/bin/env bash
# The documentation site: a fresh venv with the package and its docs extra, then a warning-free Sphinx
# build (-W: any warning fails, --keep-going: all of them are listed first). The notebook-style pages
# execute their examples during the build; a cell that raises or writes to stderr fails it. Nothing is
# loaded from a hub.
set -euo pipefail
cd "$(dirname "$0")/.."

export HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 HF_EVALUATE_OFFLINE=1 TRANSFORMERS_OFFLINE=1
venv="$(mktemp -d)/docs-venv"
trap 'rm -rf "$(dirname "$venv")"' EXIT
python3 -m venv "$venv"
"$venv/bin/pip" install -q -e ".[docs]"
rm -rf docs/_build docs/api/generated
"$venv/bin/sphinx-build" -W --keep-going -b html docs docs/_build/html
