"""Q6: the registry and shared clients under concurrent first use, from threads and asyncio tasks.

The mock server echoes each request's prompt, so a result that reached the wrong caller (a shared
decoder, a crossed stream) shows up as a wrong answer, not just as an exception.
"""

from __future__ import annotations

import asyncio
import gc
import http.server
import json
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

import modelport
from modelport._registry import plugin_errors, registry, reset_registry
from modelport.provider_tools import get_provider_tool

from .conftest import CANARY, MODEL_ID, frame, google, is_stream, json_response, sse_response, text_frame

THREADS = 16


def echo(request: httpx.Request) -> httpx.Response:
    """Answer with the prompt: whole for ``generateContent``, in two frames for streams."""
    prompt = json.loads(request.content)["contents"][0]["parts"][0]["text"]
    if is_stream(request):
        half = len(prompt) // 2
        return sse_response(
            [frame(text_frame(prompt[:half])), frame(text_frame(prompt[half:], finish="STOP"))]
        )
    return json_response({"candidates": [{"content": {"parts": [{"text": prompt}]}, "finishReason": "STOP"}]})


@pytest.fixture
def fresh_registry() -> Iterator[None]:
    reset_registry()
    yield
    reset_registry()


def all_at_once(count: int, work: Callable[[int], Any]) -> list[Any]:
    """Run ``work(i)`` in ``count`` threads released together by a barrier; re-raise any failure."""
    barrier = threading.Barrier(count)

    def start(i: int) -> Any:
        barrier.wait(timeout=10)
        return work(i)

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(start, range(count)))


@pytest.mark.parametrize("round_", range(5))
def test_first_use_of_the_registry_from_many_threads(fresh_registry: None, round_: int) -> None:
    def work(i: int) -> str:
        if i % 4 == 3:  # provider-tool lookups race the provider lookups
            return get_provider_tool("google.google_search").id
        model = modelport.get_model(
            MODEL_ID, api_key=CANARY, transport=httpx.MockTransport(echo), max_retries=0
        )
        return model.generate(prompt=f"thread {i}").text

    results = all_at_once(THREADS, work)
    assert results == [("google.google_search" if i % 4 == 3 else f"thread {i}") for i in range(THREADS)]
    assert plugin_errors() == {}
    providers = registry().providers()
    assert sorted(p for p in providers if p.startswith("google")) == ["google", "google-vertex"]


def test_concurrent_first_use_with_aliases_and_tools(fresh_registry: None) -> None:
    ids = [
        "google/gemini-2.5-flash",
        "gemini/gemini-2.5-flash",
        "google-vertex/gemini-2.5-pro",
        "vertex/gemini-2.5-pro",
    ]

    def work(i: int) -> str:
        model_id = ids[i % len(ids)]
        vertex = {"project": "p"} if "vertex" in model_id else {}  # google takes no project option
        model = modelport.get_model(model_id, api_key=CANARY, transport=httpx.MockTransport(echo), **vertex)
        model.prepare(prompt="x", tools=[{"type": "provider", "id": "google.code_execution"}])
        return model.provider.id

    assert all_at_once(THREADS, work) == [
        ("google" if i % 4 < 2 else "google-vertex") for i in range(THREADS)
    ]
    assert plugin_errors() == {}


def test_a_shared_model_from_many_threads() -> None:
    model = google(echo)

    def work(i: int) -> list[str]:
        texts = []
        for j in range(8):
            prompt = f"thread {i} call {j} " + "é" * (i + j)
            if j % 2:
                stream = model.stream(prompt=prompt)
                deltas = "".join(e.delta for e in stream if e.type == "text-delta")
                result = stream.result()
                assert deltas == result.text
            else:
                result = model.generate(prompt=prompt)
            assert result.finish_reason == "stop"
            texts.append(result.text == prompt)
        return texts

    assert all_at_once(THREADS, work) == [[True] * 8] * THREADS
    owned = getattr(model.provider.http, "_owned", None)
    if owned is not None:
        assert len(owned) == 1  # one pooled sync client, created once under concurrent first use


def test_a_shared_model_from_many_asyncio_tasks() -> None:
    model = google(echo)

    async def one(i: int) -> bool:
        prompt = f"task {i} " + "字" * (i % 7)
        if i % 2:
            stream = model.astream(prompt=prompt)
            deltas = "".join([e.delta async for e in stream if e.type == "text-delta"])
            result = stream.accumulator.result()
            return deltas == prompt and result.text == prompt and result.finish_reason == "stop"
        result = await model.agenerate(prompt=prompt)
        return result.text == prompt

    async def main() -> list[bool]:
        try:
            return await asyncio.gather(*(one(i) for i in range(200)))
        finally:
            await model.aclose()

    assert asyncio.run(main()) == [True] * 200
    owned = getattr(model.provider.http, "_owned", None)
    if owned is not None:
        assert len(owned) == 1


def test_a_shared_model_from_threads_each_running_its_own_event_loop() -> None:
    """The sync client and the async path of one model, used at once from threads with their own loops."""
    model = google(echo)

    def work(i: int) -> list[bool]:
        async def one(j: int) -> bool:
            prompt = f"thread {i} task {j}"
            return (await model.agenerate(prompt=prompt)).text == prompt

        async def main() -> list[bool]:
            return await asyncio.gather(*(one(j) for j in range(10)))

        sync_ok = model.generate(prompt=f"thread {i} sync").text == f"thread {i} sync"
        return [sync_ok, *asyncio.run(main())]

    assert all_at_once(8, work) == [[True] * 11] * 8


class KeepAliveServer:
    """A loopback HTTP/1.1 server with keep-alive that answers every POST with a short result."""

    def __init__(self) -> None:
        body = json.dumps(
            {"candidates": [{"content": {"parts": [{"text": "ok"}]}, "finishReason": "STOP"}]}
        ).encode()

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers["content-length"]))
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1beta"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)


def test_a_shared_model_across_successive_event_loops() -> None:
    """``asyncio.run(model.agenerate(...))`` twice in a script (or via ``modelport.agenerate``)."""
    server = KeepAliveServer()
    try:
        model = modelport.get_model(MODEL_ID, api_key=CANARY, base_url=server.url, timeout=5.0, max_retries=0)
        texts = [asyncio.run(model.agenerate(prompt="hi")).text for _ in range(3)]
    finally:
        server.close()
    assert texts == ["ok", "ok", "ok"]


def live_async_clients() -> int:
    gc.collect()
    return sum(isinstance(o, httpx.AsyncClient) for o in gc.get_objects())


async def slow_echo(request: httpx.Request) -> httpx.Response:
    await asyncio.sleep(0.002)  # let threads interleave mid-request
    return echo(request)


CLIENT_CHURN = (
    "bug: the model keeps one AsyncClient and rebuilds it whenever a call runs on another event loop, "
    "appending every replaced client to its owned list unclosed: successive asyncio.run() calls leak one "
    "client each, and threads with their own loops rebuild (and leak) a client on nearly every call"
)


def test_async_clients_stay_bounded_across_successive_event_loops() -> None:
    model = google(httpx.MockTransport(slow_echo))
    before = live_async_clients()
    for i in range(30):
        assert asyncio.run(model.agenerate(prompt=f"run {i}")).text == f"run {i}"
    assert live_async_clients() - before <= 2


def test_threads_with_their_own_loops_do_not_rebuild_the_client_per_call() -> None:
    model = google(httpx.MockTransport(slow_echo))
    before = live_async_clients()

    def work(i: int) -> list[bool]:
        async def main() -> list[bool]:
            return [(await model.agenerate(prompt=f"{i}/{j}")).text == f"{i}/{j}" for j in range(20)]

        return asyncio.run(main())

    assert all_at_once(4, work) == [[True] * 20] * 4
    assert live_async_clients() - before <= 4


def test_module_level_functions_share_one_model_under_concurrent_first_use(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``modelport.generate("google/...")`` from many threads, then tasks on two successive loops."""
    from modelport import _api

    created: list[str] = []
    real_get_model = _api.get_model

    def get_model(model_id: str, **kwargs: Any) -> modelport.Model:
        created.append(model_id)
        return real_get_model(model_id, transport=httpx.MockTransport(echo), max_retries=0, **kwargs)

    monkeypatch.setenv("GOOGLE_API_KEY", CANARY)
    monkeypatch.setattr(_api, "_DEFAULT_MODELS", {})
    monkeypatch.setattr(_api, "get_model", get_model)

    def work(i: int) -> bool:
        return modelport.generate(MODEL_ID, prompt=f"thread {i}").text == f"thread {i}"

    assert all_at_once(THREADS, work) == [True] * THREADS

    async def tasks(tag: str) -> list[bool]:
        async def one(i: int) -> bool:
            return (await modelport.agenerate(MODEL_ID, prompt=f"{tag} {i}")).text == f"{tag} {i}"

        return await asyncio.gather(*(one(i) for i in range(50)))

    assert asyncio.run(tasks("first loop")) == [True] * 50
    assert asyncio.run(tasks("second loop")) == [True] * 50
    assert created == [MODEL_ID]
