"""The two sides of every figure: raw httpx (the baseline) and modelport, doing the same work.

Both build the request (a JSON body), send it on a pooled keep-alive client, parse the answer and
extract the text; for streams both read SSE lines and decode every ``data:`` frame.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any, Protocol

import httpx

API_KEY = "bench-key"
MODEL = "gemini-2.5-flash"
MODEL_ID = f"google/{MODEL}"
PROMPT = "What is the weather in London today?"
_HEADERS = {"x-goog-api-key": API_KEY, "content-type": "application/json"}


def stream_prompt(frames: int) -> str:
    """A prompt that tells the mock server how many frames to stream."""
    return f"{PROMPT} frames={frames}"


def _body(prompt: str) -> bytes:
    return json.dumps({"contents": [{"role": "user", "parts": [{"text": prompt}]}]}).encode()


def _text(data: dict[str, Any]) -> str:
    parts = data["candidates"][0]["content"].get("parts", ())
    return "".join(p.get("text", "") for p in parts)


class Side(Protocol):
    """One side of a comparison."""

    def generate(self, prompt: str) -> str: ...
    def stream(self, prompt: str) -> str: ...
    def close(self) -> None: ...


class RawHttpx:
    """The baseline: httpx plus ``json``, nothing else."""

    def __init__(self, base_url: str) -> None:
        self.client = httpx.Client(timeout=120.0)
        self.generate_url = f"{base_url}/models/{MODEL}:generateContent"
        self.stream_url = f"{base_url}/models/{MODEL}:streamGenerateContent?alt=sse"

    def generate(self, prompt: str) -> str:
        response = self.client.post(self.generate_url, content=_body(prompt), headers=_HEADERS)
        response.raise_for_status()
        return _text(json.loads(response.content))

    def stream(self, prompt: str) -> str:
        chunks: list[str] = []
        with self.client.stream("POST", self.stream_url, content=_body(prompt), headers=_HEADERS) as response:
            response.raise_for_status()
            for line in response.iter_lines():
                if line.startswith("data:"):
                    chunks.append(_text(json.loads(line[5:])))
        return "".join(chunks)

    def close(self) -> None:
        self.client.close()


class Modelport:
    """modelport through ``get_model`` and the Google adapter."""

    def __init__(self, base_url: str, **options: Any) -> None:
        import modelport

        self.model = modelport.get_model(MODEL_ID, api_key=API_KEY, base_url=base_url, **options)

    def generate(self, prompt: str) -> str:
        return self.model.generate(prompt=prompt).text

    def stream(self, prompt: str) -> str:
        return self.model.stream(prompt=prompt).result().text

    def close(self) -> None:
        self.model.close()


# --------------------------------------------------------------------------- async (P4)

ASYNC_KINDS = ("raw-httpx", "modelport-httpx", "raw-aiohttp", "modelport-aiohttp")
OneCall = Callable[[], Awaitable[str]]


@asynccontextmanager
async def _raw_httpx(base_url: str) -> AsyncIterator[OneCall]:
    url = f"{base_url}/models/{MODEL}:generateContent"
    async with httpx.AsyncClient(timeout=120.0) as client:

        async def one() -> str:
            response = await client.post(url, content=_body(PROMPT), headers=_HEADERS)
            response.raise_for_status()
            return _text(json.loads(response.content))

        yield one


@asynccontextmanager
async def _raw_aiohttp(base_url: str) -> AsyncIterator[OneCall]:
    import aiohttp

    url = f"{base_url}/models/{MODEL}:generateContent"
    async with aiohttp.ClientSession() as session:

        async def one() -> str:
            async with session.post(url, data=_body(PROMPT), headers=_HEADERS) as response:
                response.raise_for_status()
                return _text(json.loads(await response.read()))

        yield one


@asynccontextmanager
async def _modelport(base_url: str, aiohttp: bool) -> AsyncIterator[OneCall]:
    import modelport

    options: dict[str, Any] = {}
    if aiohttp:
        from httpx_aiohttp import AiohttpTransport

        options["transport"] = AiohttpTransport()
    model = modelport.get_model(MODEL_ID, api_key=API_KEY, base_url=base_url, **options)
    try:

        async def one() -> str:
            return (await model.agenerate(prompt=PROMPT)).text

        yield one
    finally:
        await model.aclose()


async def _timed_gather(one: OneCall, calls: int) -> float:
    start = time.perf_counter()
    texts = await asyncio.gather(*(one() for _ in range(calls)))
    elapsed = time.perf_counter() - start
    if len(texts) != calls or not all(texts):
        raise RuntimeError("a concurrent call returned no text")
    return elapsed


def aiohttp_available() -> bool:
    """Whether the optional aiohttp sides can run (``pip install httpx-aiohttp``)."""
    import importlib.util

    try:
        return all(importlib.util.find_spec(name) is not None for name in ("aiohttp", "httpx_aiohttp"))
    except (ImportError, ValueError):
        return False


async def _concurrent(base_url: str, calls: int, rounds: int) -> dict[str, list[float]]:
    kinds = ASYNC_KINDS if aiohttp_available() else ASYNC_KINDS[:2]
    async with AsyncExitStack() as stack:
        factories = {
            "raw-httpx": lambda: _raw_httpx(base_url),
            "modelport-httpx": lambda: _modelport(base_url, aiohttp=False),
            "raw-aiohttp": lambda: _raw_aiohttp(base_url),
            "modelport-aiohttp": lambda: _modelport(base_url, aiohttp=True),
        }
        sides = {kind: await stack.enter_async_context(factories[kind]()) for kind in kinds}
        for one in sides.values():  # fill every connection pool first
            await _timed_gather(one, calls)
        times: dict[str, list[float]] = {kind: [] for kind in kinds}
        for r in range(rounds):
            for kind in kinds[r % len(kinds) :] + kinds[: r % len(kinds)]:
                times[kind].append(await _timed_gather(sides[kind], calls))
        return times


def concurrent_times(base_url: str, calls: int, rounds: int) -> dict[str, list[float]]:
    """Seconds for ``rounds`` batches of ``calls`` concurrent calls on each side, after a warm-up.

    All sides share one event loop and take turns batch by batch (the order rotates each round),
    so they see the same machine load; the warm-up fills the connection pools. The aiohttp sides
    run only when ``httpx-aiohttp`` is installed.
    """
    return asyncio.run(_concurrent(base_url, calls, rounds))
