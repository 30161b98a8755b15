"""A1: the first answer of a fresh process (what a CLI invocation, a serverless function or a test
run pays): import, a client, one ``generate``, on each protocol, against raw httpx doing the same
(import httpx alone, one POST on a new client, ``json.loads``, the text taken out).

Run by :mod:`bench.probe` (``python -m bench.probe first <side> <root_url> <protocol>``) in a fresh
interpreter each time; this module imports nothing but the standard library, so the baseline pays
for httpx and ``json`` only. After the timed call each side makes one async call (raw:
``httpx.AsyncClient``; modelport: ``agenerate`` on its default transport) and the peak resident
memory is read after each. The client CPU time of the timed section is kept beside its wall time
(less sensitive to a shared machine), and after it, untimed, how many pydantic model classes and
modules the process holds (what the first answer built and imported).
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

KEY = "bench-key"
PROMPT = "What is the weather in London today?"

#: protocol → (model id, base URL path under the mock's root, request path, headers, body, text)
PROTOCOLS: dict[str, dict[str, Any]] = {
    "google": {
        "model_id": "google/gemini-2.5-flash",
        "base": "/v1beta",
        "path": "/models/gemini-2.5-flash:generateContent",
        "headers": {"x-goog-api-key": KEY, "content-type": "application/json"},
        "body": {"contents": [{"role": "user", "parts": [{"text": PROMPT}]}]},
    },
    "openai": {
        "model_id": "openai/gpt-4o-mini",
        "base": "/v1",
        "path": "/chat/completions",
        "headers": {"authorization": f"Bearer {KEY}", "content-type": "application/json"},
        "body": {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": PROMPT}]},
    },
    "anthropic": {
        "model_id": "anthropic/claude-sonnet-4-5",
        "base": "",
        "path": "/v1/messages",
        "headers": {"x-api-key": KEY, "anthropic-version": "2023-06-01", "content-type": "application/json"},
        "body": {
            "model": "claude-sonnet-4-5",
            "max_tokens": 64000,
            "messages": [{"role": "user", "content": PROMPT}],
        },
    },
    "openai-responses": {
        "model_id": "openai-responses/gpt-4o-mini",
        "base": "/v1",
        "path": "/responses",
        "headers": {"authorization": f"Bearer {KEY}", "content-type": "application/json"},
        "body": {"model": "gpt-4o-mini", "input": [{"role": "user", "content": PROMPT}], "store": False},
    },
}


def _text(protocol: str, data: dict[str, Any]) -> str:
    if protocol == "google":
        return "".join(p.get("text", "") for p in data["candidates"][0]["content"].get("parts", ()))
    if protocol == "openai":
        return str(data["choices"][0]["message"]["content"] or "")
    if protocol == "anthropic":
        return "".join(b["text"] for b in data["content"] if b["type"] == "text")
    return "".join(
        c["text"]
        for item in data["output"]
        if item["type"] == "message"
        for c in item["content"]
        if c["type"] == "output_text"
    )


def _raw(protocol: str, root_url: str) -> str:
    import httpx

    spec = PROTOCOLS[protocol]
    with httpx.Client(timeout=120.0) as client:
        url, body = root_url + spec["base"] + spec["path"], json.dumps(spec["body"]).encode()
        response = client.post(url, content=body, headers=spec["headers"])
        response.raise_for_status()
        return _text(protocol, json.loads(response.content))


async def _raw_async(protocol: str, root_url: str) -> str:
    import httpx

    spec = PROTOCOLS[protocol]
    async with httpx.AsyncClient(timeout=120.0) as client:
        url, body = root_url + spec["base"] + spec["path"], json.dumps(spec["body"]).encode()
        response = await client.post(url, content=body, headers=spec["headers"])
        response.raise_for_status()
        return _text(protocol, json.loads(response.content))


def _pydantic_classes() -> int:
    """Pydantic model classes defined outside pydantic, 0 when pydantic was not imported."""
    pydantic = sys.modules.get("pydantic")
    if pydantic is None:
        return 0
    seen: set[type] = set()
    todo = list(pydantic.BaseModel.__subclasses__())
    while todo:
        cls = todo.pop()
        if cls not in seen:
            seen.add(cls)
            todo += cls.__subclasses__()
    return sum(not c.__module__.startswith("pydantic") for c in seen)


def first_answer(side: str, root_url: str, protocol: str, peak_rss: Any, reset_peak: Any) -> dict[str, Any]:
    """Seconds to the first answer, and peak RSS (MiB) after it and after one async call."""
    import asyncio  # not timed: both sides need it for the async call afterwards only

    spec = PROTOCOLS[protocol]
    start, cpu_start = time.perf_counter(), time.process_time()
    if side == "baseline":
        text = _raw(protocol, root_url)
    else:
        import modelport

        model = modelport.get_model(spec["model_id"], api_key=KEY, base_url=root_url + spec["base"])
        text = model.generate(prompt=PROMPT).text
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
    classes, modules = _pydantic_classes(), len(sys.modules)
    peak_sync = peak_rss()
    if side == "baseline":
        async_text = asyncio.run(_raw_async(protocol, root_url))
    else:

        async def one() -> str:
            return (await model.agenerate(prompt=PROMPT)).text

        async_text = asyncio.run(one())
    assert text and async_text == text, (text[:80], async_text[:80])
    return {
        "seconds": seconds,
        "cpu_seconds": cpu_seconds,
        "pydantic_classes": classes,
        "modules": modules,
        "peak_sync_mib": peak_sync / 2**20,
        "peak_async_mib": peak_rss() / 2**20,
    }
