#!/usr/bin/env bash
# Makes the test-only Python tools' own environment, .venv-tests/ beside Package.swift (ignored by
# git): a virtual environment with Tests/LiquidLensTests/Python/requirements.txt installed, and the
# package's own Python package (python/) installed as the README's "From Python" says. Debian
# refuses `pip install` into its own python3 (PEP 668) and ships no pip there, so the tests never
# use the python3 on PATH: they run this environment's interpreter (or the one
# LIQUIDLENS_TEST_PYTHON names). An environment whose requirements are unchanged and whose
# interpreter still starts is reused as it is (python/pyproject.toml counts as a requirement).
# Usage: Tests/test-tools.sh   (needs python3 with venv: Debian's python3-venv)
set -euo pipefail
cd "$(dirname "$0")/.."
requirements=Tests/LiquidLensTests/Python/requirements.txt
venv=.venv-tests
stamp="$(cat "$requirements" python/pyproject.toml)"

if [[ -x "$venv/bin/python3" ]] && "$venv/bin/python3" -c '' 2>/dev/null \
    && [[ "$(cat "$venv/requirements.txt" 2>/dev/null)" == "$stamp" ]]; then
    echo "test-tools: $venv is up to date"
    exit 0
fi
rm -rf "$venv"
if ! python3 -m venv "$venv"; then
    rm -rf "$venv"
    echo "test-tools: python3 cannot make a virtual environment; install it with: apt-get install python3-venv" >&2
    exit 1
fi
"$venv/bin/python3" -m pip install --quiet --disable-pip-version-check -r "$requirements"
# Editable, as the README installs it: the package finds the library this checkout builds.
"$venv/bin/python3" -m pip install --quiet --disable-pip-version-check --no-deps -e python
# Written last, so an install that failed halfway is done again next time.
printf '%s\n' "$stamp" >"$venv/requirements.txt"
echo "test-tools: made $venv ($("$venv/bin/python3" --version), $(grep -c '==' "$requirements") packages)"
