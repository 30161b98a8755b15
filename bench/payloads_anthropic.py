"""Anthropic Messages API response bodies for the mock server, shaped like the recorded corpus.

A non-streaming answer is a ``message`` with one text block holding the same ~1 KB text as the
Gemini answer (:func:`bench.payloads.answer_text`) and ``usage`` with the cache counts, the
``cache_creation`` split and ``service_tier``. A stream is what the API sends with ``event:``
lines: ``message_start``, ``content_block_start``, a ``ping``, N ``text_delta`` frames of about 50
characters, ``content_block_stop``, ``message_delta`` (stop reason, usage) and ``message_stop``.
"""

from __future__ import annotations

import json
from functools import lru_cache

from .payloads import _SENTENCES, answer_text, http_chunks

MODEL_VERSION = "claude-sonnet-4-5-20250929"
RESPONSE_ID = "msg_01BenchQ3vX9mF2kLp8RtYw1Z"


def _usage(output: int) -> dict[str, object]:
    return {
        "input_tokens": 12,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0},
        "output_tokens": output,
        "service_tier": "standard",
    }


def _message(content: list[dict[str, object]], stop: str | None, output: int) -> dict[str, object]:
    return {
        "model": MODEL_VERSION,
        "id": RESPONSE_ID,
        "type": "message",
        "role": "assistant",
        "content": content,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": _usage(output),
    }


@lru_cache(maxsize=1)
def message_body() -> bytes:
    """The body of a non-streamed ``POST /v1/messages``."""
    return json.dumps(_message([{"type": "text", "text": answer_text()}], "end_turn", 220)).encode()


def _event(body: dict[str, object]) -> bytes:
    return b"event: %s\ndata: %s\n\n" % (
        str(body["type"]).encode(),
        json.dumps(body, separators=(",", ":")).encode(),
    )


def frames(count: int) -> list[bytes]:
    """The SSE events of a stream with ``count`` text deltas (``count + 6`` events in all)."""
    out = [
        _event({"type": "message_start", "message": _message([], None, 1)}),
        _event({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        _event({"type": "ping"}),
    ]
    out += [
        _event(
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "text_delta", "text": _SENTENCES[i % len(_SENTENCES)][:50] + " "},
            }
        )
        for i in range(count)
    ]
    out.append(_event({"type": "content_block_stop", "index": 0}))
    out.append(
        _event(
            {
                "type": "message_delta",
                "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                "usage": {"output_tokens": count},
            }
        )
    )
    out.append(_event({"type": "message_stop"}))
    return out


@lru_cache(maxsize=8)
def stream_body_chunked(count: int) -> bytes:
    """A stream with ``count`` text deltas, one HTTP/1.1 chunk per event, with the terminating chunk."""
    return http_chunks(frames(count))
