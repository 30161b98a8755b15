"""Real recorded Gemini responses from tests/corpus/gemini/ (vendored), unwrapped into bodies and SSE bytes.

``unary_bodies()`` gives parsed ``generateContent`` response bodies (HTTP 200); ``stream_bodies()`` gives
raw ``streamGenerateContent?alt=sse`` bodies as bytes. Both are loaded once and cached.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import yaml

from tests import recordings

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


_FIREBASE = "FirebaseExtended__vertexai-sdk-test-data"
_VERCEL = "vercel__ai"
_PYDANTIC = "pydantic__pydantic-ai"

_UNARY_JSON = [
    f"{_FIREBASE}/mock-responses__googleai__unary-success-code-execution.json",
    f"{_FIREBASE}/mock-responses__googleai__unary-success-google-search-grounding.json",
    f"{_FIREBASE}/mock-responses__googleai__unary-success-google-search-grounding-empty-grounding-chunks.json",
    f"{_FIREBASE}/mock-responses__googleai__unary-success-thinking-function-call-thought-summary-signature.json",
    f"{_FIREBASE}/mock-responses__googleai__unary-failure-finish-reason-safety.json",
    f"{_FIREBASE}/mock-responses__vertexai__unary-success-function-call-parallel-calls.json",
    f"{_FIREBASE}/mock-responses__vertexai__unary-success-implicit-caching.json",
    f"{_VERCEL}/packages__google__src____fixtures____google-code-execution-multiple-results.json",
    f"{_VERCEL}/packages__google__src____fixtures____google-code-execution-single-combined-result-live-2026-07-16.json",
    f"{_VERCEL}/packages__google__src____fixtures____google-reasoning-gemini3.json",
    f"{_VERCEL}/packages__google__src____fixtures____google-tool-call-gemini3.json",
]
_STREAM_SSE = [
    f"{_FIREBASE}/mock-responses__googleai__streaming-failure-prompt-blocked-safety.txt",
    f"{_FIREBASE}/mock-responses__googleai__streaming-failure-recitation-no-content.txt",
    f"{_FIREBASE}/mock-responses__googleai__streaming-success-code-execution.txt",
    f"{_FIREBASE}/mock-responses__googleai__streaming-success-thinking-function-call-thought-summary-signature.txt",
    f"{_FIREBASE}/mock-responses__googleai__streaming-success-thinking-reply-thought-summary.txt",
    f"{_FIREBASE}/mock-responses__googleai__streaming-success-url-context.txt",
    f"{_FIREBASE}/mock-responses__vertexai__streaming-success-utf8.txt",
]
_STREAM_CHUNKS = [
    f"{_VERCEL}/packages__google__src____fixtures____google-reasoning-gemini3.chunks.txt",
    f"{_VERCEL}/packages__google__src____fixtures____google-text.chunks.txt",
    f"{_VERCEL}/packages__google__src____fixtures____google-tool-call-gemini3.chunks.txt",
    f"{_VERCEL}/packages__google__src____fixtures____issue-10781.1.chunks.txt",
    f"{_VERCEL}/packages__google__src____fixtures____issue-18073-empty-text-thought-signature.chunks.txt",
    f"{_VERCEL}/packages__google__src____fixtures____google-stream-tool-call-arguments.chunks.txt",
    f"{_VERCEL}/packages__google__src____fixtures____google-stream-no-args-tool-call.chunks.txt",
]
_CASSETTES = [
    "tests__models__cassettes__test_google__test_google_model_web_search_tool.yaml",
    "tests__models__cassettes__test_google__test_google_model_web_search_tool_stream.yaml",
    "tests__models__cassettes__test_tool_choice_matrix__test_google_native_tool_only_web_search_completes.yaml",
    "tests__cassettes__test_thinking_native_tools__test_thinking_with_native_tool_wire_contract[google].yaml",
    "tests__models__cassettes__test_google__test_google_model_file_search_grounding_gemini_3[True].yaml",
    "tests__models__cassettes__test_google__test_google_model_web_fetch_tool_stream.yaml",
    "tests__models__google__cassettes__test_code_execution__test_code_execution.yaml",
    "tests__models__google__cassettes__test_code_execution__test_code_execution_stream.yaml",
    "tests__models__cassettes__test_google__test_google_model_thinking_part.yaml",
    "tests__models__cassettes__test_google__test_google_model_thinking_part_iter.yaml",
    "tests__models__cassettes__test_google__test_google_streaming_tool_call_thought_signature.yaml",
    "tests__models__google__cassettes__test_cache__test_google_model_cached_content.yaml",
    "tests__models__cassettes__test_google__test_google_model_safety_settings.yaml",
    "tests__models__cassettes__test_google__test_google_model_max_tokens_thinking_model_empty_response.yaml",
]


@functools.cache
def _cassette_interactions() -> list[tuple[str, str, Any]]:
    found: list[tuple[str, str, Any]] = []
    for name in _CASSETTES:
        data = yaml.load(recordings.gemini(f"{_PYDANTIC}/{name}").read_text(encoding="utf-8"), Loader=_Loader)
        for i, item in enumerate(data["interactions"]):
            uri, response = item["request"]["uri"], item["response"]
            if response["status"]["code"] != 200:
                continue
            label = f"{name.removesuffix('.yaml')}#{i}"
            if ":generateContent" in uri and "parsed_body" in response:
                found.append(("unary", label, response["parsed_body"]))
            elif ":streamGenerateContent" in uri and isinstance(response.get("body"), dict):
                found.append(("stream", label, response["body"]["string"].encode("utf-8")))
    return found


@functools.cache
def unary_bodies() -> tuple[tuple[str, dict[str, Any]], ...]:
    """``(label, parsed body)`` of every recorded 200 ``generateContent`` response we use."""
    bodies = [(Path(p).name, json.loads(recordings.gemini(p).read_bytes())) for p in _UNARY_JSON]
    bodies += [(label, body) for kind, label, body in _cassette_interactions() if kind == "unary"]
    return tuple(bodies)


@functools.cache
def stream_bodies() -> tuple[tuple[str, bytes], ...]:
    """``(label, raw SSE bytes)`` of every recorded 200 stream we use."""
    bodies = [(Path(p).name, recordings.gemini(p).read_bytes()) for p in _STREAM_SSE]
    for p in _STREAM_CHUNKS:
        lines = [
            line for line in recordings.gemini(p).read_text(encoding="utf-8").splitlines() if line.strip()
        ]
        bodies.append((Path(p).name, "".join(f"data: {line}\n\n" for line in lines).encode("utf-8")))
    bodies += [(label, body) for kind, label, body in _cassette_interactions() if kind == "stream"]
    return tuple(bodies)


def sse_frames(body: bytes) -> list[dict[str, Any]]:
    """The JSON frames of a well-formed SSE body (``data:`` lines)."""
    frames = []
    for line in body.decode("utf-8").splitlines():
        if line.startswith("data:"):
            frames.append(json.loads(line[5:].strip()))
    return frames


def sse_body(frames: list[Any]) -> bytes:
    """An SSE body with one ``data:`` event per frame, as Google sends it (CRLF-free)."""
    return b"".join(
        b"data: " + json.dumps(f, ensure_ascii=False).encode("utf-8") + b"\r\n\r\n" for f in frames
    )


@functools.cache
def embedding_body() -> dict[str, Any]:
    """A real ``batchEmbedContents`` response (two 3,072-value embeddings)."""
    name = "tests__cassettes__test_embeddings__TestGoogle.test_documents.yaml"
    data = yaml.load(recordings.gemini(f"{_PYDANTIC}/{name}").read_text(encoding="utf-8"), Loader=_Loader)
    return dict(data["interactions"][0]["response"]["parsed_body"])


# --------------------------------------------------------------------------- the other protocols
# Real recorded 200 responses of the other wire protocols, from their vendored corpora
# (tests/corpus/openai, tests/corpus/openai-responses, tests/corpus/anthropic), read through each
# provider's own test loader. Loaded on first use: reading every recording takes seconds.

#: The protocols :func:`protocol_streams` and :func:`protocol_bodies` know.
PROTOCOLS = ("chat", "responses", "anthropic")
#: Recordings larger than these are left out of the fuzz corpus: mutating a document costs a walk
#: over all of it, and the shapes of the large ones are in the smaller ones too.
MAX_FRAMES = 150
MAX_BODY_CHARS = 24_000


def _chat_frame(frame: Any) -> bool:
    return isinstance(frame, dict) and "choices" in frame


def _responses_frame(frame: Any) -> bool:
    return isinstance(frame, dict) and str(frame.get("type", "")).startswith("response.")


def _anthropic_frame(frame: Any) -> bool:
    return isinstance(frame, dict) and frame.get("type") in ("message_start", "content_block_start")


def _exchanges(protocol: str) -> list[tuple[str, Any]]:
    if protocol == "anthropic":
        from tests.anthropic import corpus as anthropic

        return [(n, i) for n in anthropic.all_files() for i in anthropic.interactions(n)]
    if protocol == "responses":
        from tests.openai import responses_corpus as responses

        return [(n, e) for n in responses.all_files() for e in responses.exchanges(n)]
    from tests.openai import corpus as chat

    return [(n, i) for n in chat.all_files() for i in chat.interactions(n)]


@functools.cache
def protocol_streams(protocol: str) -> tuple[tuple[str, list[Any], bool], ...]:
    """``(label, frames, done)`` of every recorded 200 stream of ``protocol``: its JSON frames, and
    whether its body ended with ``data: [DONE]``."""
    wanted = {"chat": _chat_frame, "responses": _responses_frame, "anthropic": _anthropic_frame}[protocol]
    found = []
    for name, exchange in _exchanges(protocol):
        if exchange.status != 200 or not exchange.is_sse:
            continue
        frames = exchange.frames()
        if frames and len(frames) <= MAX_FRAMES and any(wanted(f) for f in frames):
            found.append((Path(name).name, frames, b"[DONE]" in exchange.body))
    return tuple(found)


@functools.cache
def protocol_bodies(protocol: str) -> tuple[tuple[str, Any], ...]:
    """``(label, parsed body)`` of every recorded 200 non-streamed answer of ``protocol``."""
    kinds = {
        "chat": ("object", "chat.completion"),
        "responses": ("object", "response"),
        "anthropic": ("type", "message"),
    }
    key, value = kinds[protocol]
    found = []
    for name, exchange in _exchanges(protocol):
        if exchange.status != 200 or exchange.is_sse:
            continue
        try:
            body = json.loads(exchange.body)
        except ValueError:
            continue
        if isinstance(body, dict) and body.get(key) == value and len(exchange.body) <= MAX_BODY_CHARS:
            found.append((Path(name).name, body))
    return tuple(found)
