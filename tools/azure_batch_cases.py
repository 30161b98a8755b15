"""Build the Azure OpenAI batch conformance cases (``method: batch``), MOCK: no recording of an Azure
batch exists, so each is OpenAI's recorded batch exchange (the cases ``tools/batch_cases.py`` builds
from crmne/ruby_llm's cassettes, tests/corpus/batch) moved onto Azure's routes.

    python tools/batch_cases.py && python tools/azure_batch_cases.py
    modelport conformance --provider azure-openai --case batch- --regenerate   # then review

What changes, per Azure's batch guide (https://learn.microsoft.com/azure/ai-foundry/openai/how-to/batch):
each URI (``/openai/v1/...``, or ``/openai/...?api-version=...`` for a dated version), the credential
header (``api-key``), the create body's ``endpoint`` (``/chat/completions``, ``/responses``), and
for a Chat Completions case each line's ``url`` and body (the API reference's body for the case's
prompts, the deployment as ``model``) and the batch objects' ``endpoint``. The answers are the
recorded ones otherwise.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
CASSETTES = ROOT / "plugins/openai/src/modelport_openai/cassettes"
ENDPOINT = "https://contoso-batch.openai.azure.com"
OPENAI_ROOT = "https://api.openai.com/v1/"
GUIDE = "https://learn.microsoft.com/azure/ai-foundry/openai/how-to/batch"
CHAT_PROMPTS = ["What is 2 + 2? Just the number.", "Name the largest planet in our solar system. One word."]


def _uri(uri: str, version: str) -> str:
    path = uri.removeprefix(OPENAI_ROOT)
    if version == "v1":
        return f"{ENDPOINT}/openai/v1/{path}"
    return f"{ENDPOINT}/openai/{path}?api-version={version}"


def _chat_upload(body: str, deployment: str, line_url: str) -> str:
    """The multipart upload with its JSON Lines file replaced by Chat Completions lines."""
    head, rest = body.split("\r\n\r\n", 1)
    _content, tail = rest.split("\r\n--", 1)
    lines = [
        {
            "custom_id": str(n),
            "method": "POST",
            "url": line_url,
            "body": {"model": deployment, "messages": [{"role": "user", "content": prompt}]},
        }
        for n, prompt in enumerate(CHAT_PROMPTS)
    ]
    content = "\n".join(json.dumps(line) for line in lines)
    head = re.sub(r"Content-Length: \d+", f"Content-Length: {len(content.encode())}", head)
    return f"{head}\r\n\r\n{content}\r\n--{tail}"


def _moved(
    interactions: list[dict[str, Any]], version: str, endpoint: str, chat: str | None
) -> list[dict[str, Any]]:
    """``interactions`` on Azure's routes (``chat``: the deployment, for a Chat Completions case)."""
    moved = copy.deepcopy(interactions)
    for interaction in moved:
        request, response = interaction["request"], interaction["response"]
        request["uri"] = _uri(request["uri"], version)
        headers = request["headers"]
        headers["api-key"] = headers.pop("authorization")
        body = request.get("body") or {}
        if request["uri"].split("?")[0].endswith("/files") and chat:
            line_url = "/v1/chat/completions" if version == "v1" else "/chat/completions"
            body["string"] = _chat_upload(body["string"], chat, line_url)
        if isinstance(body.get("json"), dict) and "input_file_id" in body["json"]:
            body["json"]["endpoint"] = endpoint
        answer = (response.get("body") or {}).get("json")
        if chat and isinstance(answer, dict) and answer.get("object") == "batch":
            answer["endpoint"] = endpoint
    return moved


CASES: list[dict[str, Any]] = [
    {
        "provider": "azure-openai-responses",
        "name": "batch-answers-v1",
        "from": "openai-responses/batch-answers",
        "version": "v1",
        "endpoint": "/responses",
        "description": "A Responses batch on the v1 routes: /openai/v1/files (lines /v1/responses), "
        "/openai/v1/batches (endpoint /responses), polled, the output file read from "
        "/openai/v1/files/{id}/content; reasoning kept.",
        "mock": "MOCK: no recording of an Azure batch exists; OpenAI's recorded Responses batch "
        "(openai-responses/batch-answers) with each URI on Azure's v1 route, the key in api-key and "
        f"the create body's endpoint /responses, as Azure's batch guide gives them ({GUIDE}); the "
        "deployment is named gpt-5-nano",
    },
    {
        "provider": "azure-openai",
        "name": "batch-cancel-deployment-route",
        "from": "openai/batch-cancel",
        "version": "2024-10-21",
        "endpoint": "/chat/completions",
        "chat": "gpt-4o-batch",
        "description": "A Chat Completions batch on a dated api-version: /openai/files?api-version=... "
        "(lines /chat/completions, the deployment as model), /openai/batches?api-version=..., "
        "cancelled (cancelling, still running), then polled: cancelled, both requests counted.",
        "mock": "MOCK: no recording of an Azure batch (nor of an OpenAI cancel) exists; openai/"
        "batch-cancel's exchange (itself MOCK past the create) with each URI on Azure's resource "
        "route with api-version=2024-10-21, the key in api-key, the file's lines the Chat Completions "
        "body of the two prompts with url /chat/completions and the deployment gpt-4o-batch as model, "
        f"and the batch objects' endpoint /chat/completions, as Azure's batch guide gives them ({GUIDE})",
    },
]


def build(spec: dict[str, Any]) -> Path:
    source_dir = CASSETTES / spec["from"]
    case = yaml.safe_load((source_dir / "case.yaml").read_text(encoding="utf-8"))
    cassette = yaml.safe_load((source_dir / "cassette.yaml").read_text(encoding="utf-8"))
    source = {**cassette["metadata"]["source"], "note": spec["mock"], "mock": True, "docs": [GUIDE]}
    interactions = _moved(cassette["interactions"], spec["version"], spec["endpoint"], spec.get("chat"))
    request = copy.deepcopy(case["request"])
    if spec.get("chat"):
        request = {
            "kind": "generate",
            "requests": [{"prompt": p} for p in CHAT_PROMPTS],
            "steps": request["steps"],
        }
    config: dict[str, Any] = {"endpoint": ENDPOINT}
    if spec["version"] != "v1":
        config["api_version"] = spec["version"]
    written = {
        "description": spec["description"],
        "method": "batch",
        "model": spec.get("chat") or case["model"],
        "request": request,
        "source": source,
        "config": config,
    }
    directory = CASSETTES / spec["provider"] / spec["name"]
    directory.mkdir(parents=True, exist_ok=True)
    dump = {"sort_keys": False, "allow_unicode": True, "width": 100}
    (directory / "case.yaml").write_text(yaml.safe_dump(written, **dump), encoding="utf-8")
    moved = {"version": cassette["version"], "metadata": {"source": source}, "interactions": interactions}
    (directory / "cassette.yaml").write_text(yaml.safe_dump(moved, **dump), encoding="utf-8")
    return directory


def main() -> None:
    for spec in CASES:
        print(build(spec).relative_to(ROOT))


if __name__ == "__main__":
    main()
