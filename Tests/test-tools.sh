#!/usr/bin/env bash
# Makes the test-only Python tools' own environment, .venv-tests/ beside Package.swift (ignored by
# git): a virtual environment with Tests/LiquidLensTests/Python/requirements.txt installed. Debian
# refuses `pip install` into its own python3 (PEP 668) and ships no pip there, so the tests never
# use the python3 on PATH: they run this environment's interpreter (or the one
# LIQUIDLENS_TEST_PYTHON names). An environment whose requirements are unchanged and whose
# interpreter still starts is reused as it is.
# Usage: Tests/test-tools.sh   (needs python3 with venv: Debian's python3-venv)
set -euo pipefail
cd "$(dirname "$0")/.."
requirements=Tests/LiquidLensTests/Python/requirements.txt
venv=.venv-tests

if [[ -x "$venv/bin/python3" ]] && "$venv/bin/python3" -c '' 2>/dev/null \
    && cmp -s "$requirements" "$venv/requirements.txt"; then
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
# Written last, so an install that failed halfway is done again next time.
cp "$requirements" "$venv/requirements.txt"
echo "test-tools: made $venv ($("$venv/bin/python3" --version), $(grep -c '==' "$requirements") packages)"
