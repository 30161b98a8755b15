"""The first answer of a fresh process (the benchmark's A1) imports only what a plain text answer uses.

Each protocol's case runs what ``bench.first_answer`` times in a new interpreter — ``import
modelport``, ``get_model`` and one ``generate`` against the benchmark's loopback mock — and checks
the answer's text (against the text raw JSON gives) and which modules were imported. The modules
listed here are those the call does not need (stream events, tools, structured output, embeddings,
grounding's evidence and merge helpers, citations' rendering, batches, the loop, the wrappers);
deferring them took the pydantic classes built on this call from 51 to 28 (Gemini), 48 to 29
(OpenAI Chat), 59 to 28 (Anthropic) and 66 to 47 (Responses). A top-level import that brings one
back fails here, so the gain cannot regress unnoticed.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench import payloads, payloads_anthropic, payloads_openai, payloads_openai_responses  # noqa: E402
from bench.first_answer import _text  # noqa: E402
from bench.server import MockServer  # noqa: E402

#: Not needed by a plain text ``generate`` on any protocol.
DEFERRED = [
    "modelport._contract.embeddings",
    "modelport.batches",
    "modelport.citations",
    "modelport.loop",
    "modelport.outputs",
    "modelport.outputs.schemas",
    "modelport.provider_tools",
    "modelport.tools",
    "modelport.tools.args",
    "modelport.wrappers",
    "modelport_anthropic.tools",
    "modelport_google.grounding._evidence",
    "modelport_google.grounding._merge",
    "modelport_google.grounding.envelope",
    "modelport_google.tools",
    "modelport_openai.tools",
]
#: The stream's event types: a Responses answer is decoded through the stream's decoder (one
#: mapping path), so only that protocol imports them.
EVENTS = ["modelport._contract.event_types", "modelport.events"]

ANSWERS = {
    "google": payloads.generate_body(grounded=True),
    "openai": payloads_openai.completion_body(),
    "anthropic": payloads_anthropic.message_body(),
    "openai-responses": payloads_openai_responses.response_body(),
}

PROBE = """
import json, sys
sys.path.insert(0, {root!r})
from bench.first_answer import KEY, PROMPT, PROTOCOLS
spec = PROTOCOLS[{protocol!r}]
import modelport
model = modelport.get_model(spec["model_id"], api_key=KEY, base_url={url!r} + spec["base"])
text = model.generate(prompt=PROMPT).text
print(json.dumps([text, sorted(m for m in sys.modules if m.startswith("modelport"))]))
"""


@pytest.fixture(scope="module")
def root_url() -> Iterator[str]:
    with MockServer(max_requests=20, max_seconds=120.0) as server:
        yield server.root_url


@pytest.mark.parametrize("protocol", sorted(ANSWERS))
def test_a_plain_text_answer_imports_no_deferred_module(protocol: str, root_url: str) -> None:
    code = textwrap.dedent(PROBE.format(root=str(ROOT), protocol=protocol, url=root_url))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    text, modules = json.loads(out.stdout.strip().splitlines()[-1])
    assert text == _text(protocol, json.loads(ANSWERS[protocol]))
    deferred = DEFERRED + (EVENTS if protocol != "openai-responses" else [])
    assert [m for m in deferred if m in modules] == []
    # The list names real modules: each one is there once a call needs it (guards against a typo).
    assert "modelport.reasoning" in modules and f"modelport_{protocol.split('-')[0]}" in modules


def test_the_deferred_modules_exist() -> None:
    import importlib.util

    assert [m for m in DEFERRED + EVENTS if importlib.util.find_spec(m) is None] == []
