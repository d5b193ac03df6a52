#!/usr/bin/env bash
# Lint and types as gates (issue 34 item 2): ruff and mypy, configured in pyproject.toml, on src/.
# A fresh venv outside the clone with the pinned tools and numpy alone: mypy takes the other
# third-party packages as Any (pyproject.toml says why), so the result does not depend on what
# else is installed. The package itself is not installed: mypy reads src/ (files = ["src"]).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
unset PYTHONPATH

python3 -m venv "$scratch/venv"
"$scratch/venv/bin/pip" install -q "ruff==0.17.6" "mypy==2.4.1" "numpy==2.4.6"

cd "$repo"
echo "ruff $("$scratch/venv/bin/ruff" --version | cut -d' ' -f2): ruff check src"
"$scratch/venv/bin/ruff" check --no-cache src
echo "mypy $("$scratch/venv/bin/mypy" --version | cut -d' ' -f2): mypy (files = src)"
"$scratch/venv/bin/mypy" --cache-dir "$scratch/mypy_cache"
