#!/usr/bin/env bash
# Build the three wheels and the worked example plugin's (docs/examples/modelport-acme), install them
# (not editable) in a clean virtual environment and run the conformance suite from there: proves the
# cassettes really ship as package data (X2, K6) and that a third-party plugin on the kit passes.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m pip wheel --quiet --no-deps -w "$work/wheels" "$root/core" "$root/plugins/google" "$root/conformance" \
  "$root/docs/examples/modelport-acme"
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet "$work"/wheels/*.whl
cd "$work"
"$work/venv/bin/modelport" providers
"$work/venv/bin/modelport" conformance --strict | tee "$work/conformance.txt"
grep -q "^acme: 8 passed, 0 failed, 0 skipped$" "$work/conformance.txt"
