"""The send shortcuts (:mod:`modelport.http._fast`: a lean request assembled from cached client
defaults, sent straight to the transport, or on aiohttp's session without an ``httpx.Request``) are
held equal to their reference, the general path (``client.build_request`` and ``client.send``, which
a client the caller passes always takes): for the same recorded exchange, both give the same
``Result`` (``generate``) and the same events (``stream``), on Gemini, OpenAI and Anthropic answers,
sync and async, on each async transport modelport builds, against a real loopback server. The server
also sees the same request from both (method, path, body; every header on httpx's transports).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import modelport
from modelport.http import _exchange, _fast
from tests import recordings
from tests.kit.test_transport_real_sockets import MODES
from tests.loopback import Loopback, Received, Reply

KEY = "mp-shortcut-test-key-51b7"
_FIREBASE = "FirebaseExtended__vertexai-sdk-test-data"
_PRISM = "prism-php__prism"


def _yaml_body(path: Path) -> bytes:
    """The response body of a vcrpy cassette's first interaction."""
    import yaml

    response = yaml.safe_load(path.read_text(encoding="utf-8"))["interactions"][0]["response"]
    if "parsed_body" in response:
        return json.dumps(response["parsed_body"]).encode()
    return recordings.vcr_body(response.get("body"))


#: Per provider: the model id, its base URL under the server's root, and the recorded answers
#: (a whole one and a stream) the server replays.
PROVIDERS: dict[str, tuple[str, str, Callable[[], bytes], Callable[[], bytes]]] = {
    "google": (
        "google/gemini-2.5-flash",
        "/v1beta",
        lambda: recordings.gemini(
            f"{_FIREBASE}/mock-responses__googleai__unary-success-google-search-grounding.json"
        ).read_bytes(),
        lambda: recordings.gemini(
            f"{_FIREBASE}/mock-responses__vertexai__streaming-success-utf8.txt"
        ).read_bytes(),
    ),
    "openai": (
        "openai/gpt-4o-mini",
        "/v1",
        lambda: _yaml_body(
            recordings.openai(
                "pydantic__pydantic-ai/tests__models__cassettes__test_openai__test_openai_instructions.yaml"
            )
        ),
        lambda: _yaml_body(
            recordings.openai("simonw__llm/tests__cassettes__test_tools__test_tool_use_basic.yaml")
        ),
    ),
    "anthropic": (
        "anthropic/claude-sonnet-4-5",
        "",
        lambda: recordings.anthropic(
            f"{_PRISM}/tests__Fixtures__anthropic__generate-text-with-pdf-citations-1.json"
        ).read_bytes(),
        lambda: recordings.anthropic(
            f"{_PRISM}/tests__Fixtures__anthropic__stream-with-citations-1.sse"
        ).read_bytes(),
    ),
}


def _replay(whole: bytes, streamed: bytes) -> Callable[[Received], Reply]:
    def handler(request: Received) -> Reply:
        if "streamGenerateContent" in request.path or b'"stream": true' in request.body.replace(
            b'":true', b'": true'
        ):
            return Reply(200, {"content-type": "text/event-stream"}, streamed)
        return Reply(200, {"content-type": "application/json"}, whole)

    return handler


@pytest.fixture
def plans(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[_fast.Plan]]:
    """Every send plan the exchanges made, in order."""
    made: list[_fast.Plan] = []

    def spy(*args: Any) -> _fast.Plan:
        plan = _fast.prepare(*args)
        made.append(plan)
        return plan

    monkeypatch.setattr(_exchange, "prepare", spy)
    yield made


def _model(provider: str, server: Loopback, mode: str, client: Any) -> modelport.Model:
    """The model; with ``client`` (the caller's own), every request takes the general path."""
    model_id, path, _, _ = PROVIDERS[provider]
    config: dict[str, Any] = {"api_key": KEY, "max_retries": 0, "base_url": server.url + path}
    if client is not None:
        config["http_client" if mode == "sync" else "async_http_client"] = client
    elif mode != "sync":
        config["async_transport"] = mode
    return modelport.get_model(model_id, **config)


def _outcome(provider: str, server: Loopback, mode: str, stream: bool, general: bool) -> Any:
    """The ``Result`` of ``generate`` or the events of ``stream``, in ``mode``."""
    if mode == "sync":
        client = httpx.Client() if general else None
        model = _model(provider, server, mode, client)
        try:
            return list(model.stream(prompt="Hi")) if stream else model.generate(prompt="Hi")
        finally:
            model.close()
            if client is not None:
                client.close()

    async def go() -> Any:
        client = httpx.AsyncClient() if general else None
        model = _model(provider, server, mode, client)
        try:
            if stream:
                return [event async for event in model.astream(prompt="Hi")]
            return await model.agenerate(prompt="Hi")
        finally:
            await model.aclose()
            if client is not None:
                await client.aclose()

    return asyncio.run(go())


def _sent(request: Received, mode: str) -> tuple[Any, ...]:
    headers = {k.lower(): v for k, v in request.headers.items()}
    if mode == "aiohttp":  # aiohttp writes its own transport headers; modelport's must match
        headers = {k: v for k, v in headers.items() if k not in {"user-agent", "accept", "accept-encoding"}}
    return request.method, request.path, request.body, headers


@pytest.mark.parametrize("stream", [False, True], ids=["generate", "stream"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("provider", sorted(PROVIDERS))
def test_the_shortcuts_give_what_the_general_path_gives(
    provider: str, mode: str, stream: bool, plans: list[_fast.Plan]
) -> None:
    _, _, whole, streamed = PROVIDERS[provider]
    with Loopback(_replay(whole(), streamed())) as server:
        fast = _outcome(provider, server, mode, stream, general=False)
        reference = _outcome(provider, server, mode, stream, general=True)
        assert [plan.lean is not None for plan in plans] == [True, False]  # each side took its path
        assert [plan.request is not None for plan in plans] == [False, True]
        assert _sent(server.received[0], mode) == _sent(server.received[1], mode)
    assert len(server.received) == 2
    assert fast == reference
    if stream:
        assert len(fast) > 3 and fast[-1].type == "finish"
    else:
        assert fast.text and fast.usage == reference.usage
