"""The two sides of every figure: raw httpx (the baseline) and modelport, doing the same work.

Both build the request (a JSON body), send it on a pooled keep-alive client, parse the answer and
extract the text; for streams both read SSE lines and decode every ``data:`` frame.
"""

from __future__ import annotations

import asyncio
import json
import time
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


async def _gather_raw_httpx(base_url: str, calls: int, rounds: int) -> list[float]:
    url = f"{base_url}/models/{MODEL}:generateContent"
    async with httpx.AsyncClient(timeout=120.0) as client:

        async def one() -> str:
            response = await client.post(url, content=_body(PROMPT), headers=_HEADERS)
            response.raise_for_status()
            return _text(json.loads(response.content))

        return [await _timed_gather(one, calls) for _ in range(rounds)]


async def _gather_raw_aiohttp(base_url: str, calls: int, rounds: int) -> list[float]:
    import aiohttp

    url = f"{base_url}/models/{MODEL}:generateContent"
    async with aiohttp.ClientSession() as session:

        async def one() -> str:
            async with session.post(url, data=_body(PROMPT), headers=_HEADERS) as response:
                response.raise_for_status()
                return _text(json.loads(await response.read()))

        return [await _timed_gather(one, calls) for _ in range(rounds)]


async def _gather_modelport(base_url: str, calls: int, rounds: int, aiohttp: bool) -> list[float]:
    import modelport

    options: dict[str, Any] = {}
    if aiohttp:
        from httpx_aiohttp import AiohttpTransport

        options["transport"] = AiohttpTransport()
    model = modelport.get_model(MODEL_ID, api_key=API_KEY, base_url=base_url, **options)
    try:

        async def one() -> str:
            return (await model.agenerate(prompt=PROMPT)).text

        return [await _timed_gather(one, calls) for _ in range(rounds)]
    finally:
        await model.aclose()


async def _timed_gather(one: Any, calls: int) -> float:
    start = time.perf_counter()
    texts = await asyncio.gather(*(one() for _ in range(calls)))
    elapsed = time.perf_counter() - start
    if len(texts) != calls or not all(texts):
        raise RuntimeError("a concurrent call returned no text")
    return elapsed


def concurrent_times(kind: str, base_url: str, calls: int, rounds: int) -> list[float]:
    """Seconds for ``rounds`` batches of ``calls`` concurrent calls, after one warm-up batch.

    The warm-up fills the connection pool, so the timed batches measure calls, not connects.
    """
    if kind == "raw-httpx":
        coro = _gather_raw_httpx(base_url, calls, rounds + 1)
    elif kind == "raw-aiohttp":
        coro = _gather_raw_aiohttp(base_url, calls, rounds + 1)
    elif kind in ("modelport-httpx", "modelport-aiohttp"):
        coro = _gather_modelport(base_url, calls, rounds + 1, aiohttp=kind.endswith("aiohttp"))
    else:
        raise ValueError(f"unknown kind {kind!r}")
    return asyncio.run(coro)[1:]
