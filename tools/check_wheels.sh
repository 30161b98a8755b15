#!/usr/bin/env bash
# Build the five wheels and the worked example plugin's (docs/examples/modelport-acme), install them
# (not editable) in a clean virtual environment and run the conformance suite from there: proves the
# cassettes really ship as package data (X2, K6) and that a third-party plugin on the kit passes.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m pip wheel --quiet --no-deps -w "$work/wheels" "$root/core" "$root/plugins/google" "$root/plugins/openai" "$root/plugins/anthropic" "$root/plugins/aws" "$root/conformance" \
  "$root/docs/examples/modelport-acme"
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet "$work"/wheels/*.whl
cd "$work"
"$work/venv/bin/modelport" providers
"$work/venv/bin/modelport" conformance --strict | tee "$work/conformance.txt"
grep -q "^acme: 8 cases: 8 passed, 0 failed, 0 skipped$" "$work/conformance.txt"
# Every plugin's cases ship as package data, one suite per provider: each provider's count in the
# installed run is the number of its cases in the source tree (so a case left out of a wheel fails).
suites=0
for dir in "$root"/plugins/*/src/*/cassettes/*/; do
  provider="$(basename "$dir")"
  count="$(find "$dir" -name case.yaml | wc -l | tr -d ' ')"
  if ! grep -q "^$provider: $count cases\?: $count passed, 0 failed, 0 skipped$" "$work/conformance.txt"; then
    echo "check_wheels: $provider: the installed run does not pass the $count cases of the source tree" >&2
    exit 1
  fi
  suites=$((suites + 1))
done
if [ "$suites" -lt 18 ]; then
  echo "check_wheels: only $suites case folders found under plugins/*/src/*/cassettes" >&2
  exit 1
fi

# The command without the conformance package (issue 16): the core wheel with its "cli" extra only
# (click from the index) gives a working `modelport providers` and `modelport generate`, and pulls
# in neither pytest nor vcrpy.
python3 -m venv "$work/cli-venv"
core_wheel="$(ls "$work"/wheels/modelport-[0-9]*.whl)"
"$work/cli-venv/bin/python" -m pip install --quiet "${core_wheel}[cli]"
"$work/cli-venv/bin/modelport" providers | tee "$work/cli-providers.txt"
grep -q "^No providers registered" "$work/cli-providers.txt"
"$work/cli-venv/bin/modelport" generate --help >/dev/null
if "$work/cli-venv/bin/modelport" --help | sed -n '/^Commands:/,$p' | grep -q "^  conformance"; then
  echo "check_wheels: modelport lists 'conformance' without modelport-conformance installed" >&2
  exit 1
fi
"$work/cli-venv/bin/python" -m pip list --format=freeze >"$work/cli-pip-list.txt"
if grep -iE "^(pytest|vcrpy|modelport-conformance)==" "$work/cli-pip-list.txt"; then
  echo "check_wheels: modelport[cli] pulled in a test dependency" >&2
  exit 1
fi
grep -q "^click==" "$work/cli-pip-list.txt"
echo "check_wheels: modelport[cli] alone: providers and generate work, no pytest, no vcrpy"

# The aiohttp extra (issue 15): httpx-aiohttp and aiohttp from the index; async calls then run on
# aiohttp by default, imported only by the first async call (not by import modelport or get_model).
python3 -m venv "$work/aiohttp-venv"
google_wheel="$(ls "$work"/wheels/modelport_google-[0-9]*.whl)"
"$work/aiohttp-venv/bin/python" -m pip install --quiet "${core_wheel}[aiohttp]" "$google_wheel"
"$work/aiohttp-venv/bin/python" - <<'PY'
import asyncio
import sys

import modelport

model = modelport.get_model("google/gemini-2.5-flash", api_key="not-a-key")
assert "aiohttp" not in sys.modules, "get_model imported aiohttp"


async def client_type(m: modelport.Model) -> str:
    try:
        return type(await m.provider.http.async_client()).__name__
    finally:
        await m.aclose()


assert asyncio.run(client_type(model)) == "AiohttpClient"
httpx_model = modelport.get_model("google/gemini-2.5-flash", api_key="not-a-key", async_transport="httpx")
assert asyncio.run(client_type(httpx_model)) == "AsyncClient"
print("check_wheels: modelport[aiohttp]: async calls on aiohttp by default, async_transport='httpx' opts out")
PY
