#!/usr/bin/env bash
# The release artifacts (issue 34): the sdist and the wheel as `python -m build` makes them (the wheel
# from the sdist, which proves the sdist complete), built without a single warning, checked by
# `twine check --strict` and check-wheel-contents (its configuration is in pyproject.toml), then the
# sdist installed in a fresh venv that scores a sentence through evaluate.load(module_path("chance_f1")).
# Tools and dependencies come from the package index; run by .ci/run before the tests.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
unset PYTHONPATH
# Under PYTHONDONTWRITEBYTECODE (set on some machines) setuptools warns "byte-compiling is disabled"
# while it builds the wheel: a property of the machine, not of the package, so the build runs without it.
unset PYTHONDONTWRITEBYTECODE
cd "$scratch"

# The clone's files as a fresh clone has them (what git tracks or would track: no .venv, build/ or
# *.egg-info), so the build leaves nothing in the clone.
mkdir source
git -C "$repo" ls-files -z --cached --others --exclude-standard \
    | tar -C "$repo" --null --files-from=- -cf - | tar -C source -xf -

python3 -m venv tools
tools/bin/pip install -q "build>=1.2" "twine>=6.1" "check-wheel-contents>=0.6"

echo "python -m build: the sdist, and the wheel from it"
if ! tools/bin/python -m build --outdir dist source >build.log 2>&1; then
    cat build.log >&2
    echo "python -m build failed (its output above)" >&2
    exit 1
fi
if grep -i "warn" build.log >&2; then
    echo "python -m build warned (the lines above; the whole output is its log); a release builds without a warning" >&2
    exit 1
fi
ls dist
tar -tzf dist/*.tar.gz >sdist.txt
grep -qx "chance_agreement-[^/]*/LICENSE" sdist.txt || { echo "the sdist has no LICENSE" >&2; exit 1; }

tools/bin/twine check --strict dist/*
tools/bin/check-wheel-contents --config source/pyproject.toml dist/*.whl

# Nothing may load from the Hub at run time.
export HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 HF_EVALUATE_OFFLINE=1
echo "install of $(cd dist && ls *.tar.gz) in a fresh venv"
python3 -m venv venv
venv/bin/pip install -q dist/*.tar.gz
cp "$repo/.ci/check_install.py" .
venv/bin/python check_install.py sdist
echo "release checks: OK"
