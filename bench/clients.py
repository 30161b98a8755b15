"""The two sides of every figure: raw httpx (the baseline) and modelport, doing the same work.

Both build the request (a JSON body), send it on a pooled keep-alive client, parse the answer and
extract the text; for streams both read SSE lines and decode every ``data:`` frame. Google's Gemini
API (:class:`RawHttpx`, :class:`Modelport`), OpenAI Chat Completions (:class:`RawOpenAI`,
:class:`Modelport` with :data:`OPENAI_MODEL_ID`), OpenAI's Responses API (:class:`RawOpenAIResponses`,
:class:`Modelport` with :data:`OPENAI_RESPONSES_MODEL_ID`) and Anthropic's Messages API
(:class:`RawAnthropic`, :class:`Modelport` with :data:`ANTHROPIC_MODEL_ID`) each have their pair.
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
#: The same question; the mock answers it without grounding metadata (``answer=plain``).
PLAIN_PROMPT = f"{PROMPT} answer=plain"
OPENAI_MODEL = "gpt-4o-mini"
OPENAI_MODEL_ID = f"openai/{OPENAI_MODEL}"
OPENAI_RESPONSES_MODEL_ID = f"openai-responses/{OPENAI_MODEL}"
_HEADERS = {"x-goog-api-key": API_KEY, "content-type": "application/json"}
_OPENAI_HEADERS = {"authorization": f"Bearer {API_KEY}", "content-type": "application/json"}
ANTHROPIC_MODEL = "claude-sonnet-4-5"
ANTHROPIC_MODEL_ID = f"anthropic/{ANTHROPIC_MODEL}"
_ANTHROPIC_HEADERS = {
    "x-api-key": API_KEY,
    "anthropic-version": "2023-06-01",
    "content-type": "application/json",
}


def stream_prompt(frames: int, pace_us: int | None = None) -> str:
    """A prompt that tells the mock server how many frames to stream, and, with ``pace_us``, to send
    them one event a write with that many microseconds between writes."""
    paced = "" if pace_us is None else f" pace={pace_us}"
    return f"{PROMPT} frames={frames}{paced}"


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


class RawOpenAI:
    """The OpenAI baseline: httpx plus ``json``, the body modelport sends (usage asked for in streams)."""

    def __init__(self, base_url: str) -> None:
        self.client = httpx.Client(timeout=120.0)
        self.url = f"{base_url}/chat/completions"

    @staticmethod
    def _body(prompt: str, stream: bool) -> bytes:
        body: dict[str, Any] = {"model": OPENAI_MODEL, "messages": [{"role": "user", "content": prompt}]}
        if stream:
            body["stream"] = True
            body["stream_options"] = {"include_usage": True}
        return json.dumps(body).encode()

    def generate(self, prompt: str) -> str:
        response = self.client.post(self.url, content=self._body(prompt, False), headers=_OPENAI_HEADERS)
        response.raise_for_status()
        return str(json.loads(response.content)["choices"][0]["message"]["content"] or "")

    def stream(self, prompt: str) -> str:
        chunks: list[str] = []
        body = self._body(prompt, True)
        with self.client.stream("POST", self.url, content=body, headers=_OPENAI_HEADERS) as response:
            response.raise_for_status()
            for line in response.iter_lines():
                if not line.startswith("data:"):
                    continue
                data = line[5:].strip()
                if data == "[DONE]":
                    break
                for choice in json.loads(data)["choices"]:
                    if choice.get("index", 0) == 0 and choice["delta"].get("content"):
                        chunks.append(choice["delta"]["content"])
        return "".join(chunks)

    def close(self) -> None:
        self.client.close()


class RawOpenAIResponses(RawOpenAI):
    """The Responses API baseline: httpx plus ``json``, the body modelport sends (``store: false``)."""

    def __init__(self, base_url: str) -> None:
        super().__init__(base_url)
        self.url = f"{base_url}/responses"

    @staticmethod
    def _body(prompt: str, stream: bool) -> bytes:
        body: dict[str, Any] = {
            "model": OPENAI_MODEL,
            "input": [{"role": "user", "content": prompt}],
            "store": False,
        }
        if stream:
            body["stream"] = True
        return json.dumps(body).encode()

    def generate(self, prompt: str) -> str:
        response = self.client.post(self.url, content=self._body(prompt, False), headers=_OPENAI_HEADERS)
        response.raise_for_status()
        return "".join(
            c["text"]
            for item in json.loads(response.content)["output"]
            if item["type"] == "message"
            for c in item["content"]
            if c["type"] == "output_text"
        )

    def stream(self, prompt: str) -> str:
        chunks: list[str] = []
        body = self._body(prompt, True)
        with self.client.stream("POST", self.url, content=body, headers=_OPENAI_HEADERS) as response:
            response.raise_for_status()
            for line in response.iter_lines():
                if not line.startswith("data:"):
                    continue
                frame = json.loads(line[5:])
                if frame["type"] == "response.output_text.delta":
                    chunks.append(frame["delta"])
                elif frame["type"] == "response.completed":
                    break
        return "".join(chunks)


class RawAnthropic:
    """The Anthropic baseline: httpx plus ``json``, the body modelport sends (``max_tokens`` included)."""

    def __init__(self, base_url: str) -> None:
        self.client = httpx.Client(timeout=120.0)
        self.url = f"{base_url}/v1/messages"

    @staticmethod
    def _body(prompt: str, stream: bool) -> bytes:
        messages = [{"role": "user", "content": prompt}]
        body: dict[str, Any] = {"model": ANTHROPIC_MODEL, "max_tokens": 64000, "messages": messages}
        if stream:
            body["stream"] = True
        return json.dumps(body).encode()

    def generate(self, prompt: str) -> str:
        response = self.client.post(self.url, content=self._body(prompt, False), headers=_ANTHROPIC_HEADERS)
        response.raise_for_status()
        return "".join(b["text"] for b in json.loads(response.content)["content"] if b["type"] == "text")

    def stream(self, prompt: str) -> str:
        chunks: list[str] = []
        body = self._body(prompt, True)
        with self.client.stream("POST", self.url, content=body, headers=_ANTHROPIC_HEADERS) as response:
            response.raise_for_status()
            for line in response.iter_lines():
                if not line.startswith("data:"):
                    continue
                frame = json.loads(line[5:])
                if frame["type"] == "content_block_delta" and frame["delta"]["type"] == "text_delta":
                    chunks.append(frame["delta"]["text"])
                elif frame["type"] == "message_stop":
                    break
        return "".join(chunks)

    def close(self) -> None:
        self.client.close()


class Modelport:
    """modelport through ``get_model``: the Google adapter, or another provider's ``model_id``."""

    def __init__(self, base_url: str, model_id: str = MODEL_ID, **options: Any) -> None:
        import modelport

        self.model = modelport.get_model(model_id, api_key=API_KEY, base_url=base_url, **options)

    def generate(self, prompt: str) -> str:
        return self.model.generate(prompt=prompt).text

    def stream(self, prompt: str) -> str:
        return self.model.stream(prompt=prompt).result().text

    def close(self) -> None:
        self.model.close()


# --------------------------------------------------------------------------- async (P4)

ASYNC_KINDS = ("raw-httpx", "modelport-httpx", "raw-aiohttp", "modelport-aiohttp", "google-genai")
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

    # The aiohttp side is modelport's default when modelport[aiohttp] is installed (no transport
    # argument); the httpx side asks for httpx's own transport explicitly.
    options: dict[str, Any] = {} if aiohttp else {"async_transport": "httpx"}
    model = modelport.get_model(MODEL_ID, api_key=API_KEY, base_url=base_url, **options)
    try:

        async def one() -> str:
            return (await model.agenerate(prompt=PROMPT)).text

        yield one
    finally:
        await model.aclose()


def _genai_client(base_url: str) -> Any:
    from google import genai
    from google.genai import types

    root, _, version = base_url.rstrip("/").rpartition("/")
    return genai.Client(api_key=API_KEY, http_options=types.HttpOptions(base_url=root, api_version=version))


def genai_transport(base_url: str) -> str:
    """Which HTTP client google-genai's default async path uses here (``aiohttp`` or ``httpx``)."""
    client = _genai_client(base_url)
    try:
        return "aiohttp" if client._api_client._use_aiohttp() else "httpx"
    except AttributeError:  # a version without the private helper
        return "unknown"
    finally:
        client.close()


@asynccontextmanager
async def _google_genai(base_url: str) -> AsyncIterator[OneCall]:
    client = _genai_client(base_url)
    try:

        async def one() -> str:
            response = await client.aio.models.generate_content(model=MODEL, contents=PROMPT)
            return response.text or ""

        yield one
    finally:
        await client.aio.aclose()
        client.close()


async def _timed_gather(one: OneCall, calls: int) -> tuple[float, float]:
    """Wall-clock and client CPU seconds of ``calls`` concurrent calls."""
    start, cpu = time.perf_counter(), time.process_time()
    texts = await asyncio.gather(*(one() for _ in range(calls)))
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    if len(texts) != calls or not all(texts):
        raise RuntimeError("a concurrent call returned no text")
    return elapsed, cpu


def _installed(*names: str) -> bool:
    import importlib.util

    try:
        return all(importlib.util.find_spec(name) is not None for name in names)
    except (ImportError, ValueError):
        return False


def aiohttp_available() -> bool:
    """Whether the optional aiohttp sides can run (``pip install httpx-aiohttp``)."""
    return _installed("aiohttp", "httpx_aiohttp")


def genai_available() -> bool:
    """Whether the google-genai reference side can run (``pip install google-genai``; not required)."""
    return _installed("google.genai")


async def _concurrent(base_url: str, calls: int, rounds: int) -> dict[str, list[tuple[float, float]]]:
    kinds = [
        kind
        for kind in ASYNC_KINDS
        if (kind.endswith("aiohttp") and aiohttp_available())
        or (kind == "google-genai" and genai_available())
        or kind.endswith("-httpx")
    ]
    async with AsyncExitStack() as stack:
        factories = {
            "raw-httpx": lambda: _raw_httpx(base_url),
            "modelport-httpx": lambda: _modelport(base_url, aiohttp=False),
            "raw-aiohttp": lambda: _raw_aiohttp(base_url),
            "modelport-aiohttp": lambda: _modelport(base_url, aiohttp=True),
            "google-genai": lambda: _google_genai(base_url),
        }
        sides = {kind: await stack.enter_async_context(factories[kind]()) for kind in kinds}
        for one in sides.values():  # fill every connection pool first
            await _timed_gather(one, calls)
        times: dict[str, list[tuple[float, float]]] = {kind: [] for kind in kinds}
        for r in range(rounds):
            for kind in kinds[r % len(kinds) :] + kinds[: r % len(kinds)]:
                times[kind].append(await _timed_gather(sides[kind], calls))
        return times


def concurrent_times(base_url: str, calls: int, rounds: int) -> dict[str, list[tuple[float, float]]]:
    """``(wall-clock, client CPU)`` seconds of ``rounds`` batches of ``calls`` concurrent calls on each
    side, after a warm-up.

    All sides share one event loop and take turns batch by batch (the order rotates each round),
    so they see the same machine load; the warm-up fills the connection pools. The aiohttp sides
    run only when ``httpx-aiohttp`` is installed, google-genai's default async client (a reference,
    not modelport) only when ``google-genai`` is.
    """
    return asyncio.run(_concurrent(base_url, calls, rounds))
