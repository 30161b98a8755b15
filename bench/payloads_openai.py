"""OpenAI Chat Completions response bodies for the mock server, shaped like OpenAI's own traffic.

A non-streaming answer is a ``chat.completion`` object with the same ~1 KB text as the Gemini answer
(:func:`bench.payloads.answer_text`), ``usage`` with its detail objects, ``service_tier`` and
``system_fingerprint``. A stream is what OpenAI sends with ``stream_options: {"include_usage": true}``:
a ``chat.completion.chunk`` with the role and empty content, N content chunks of about 50 characters,
a chunk with the ``finish_reason`` and an empty delta, a chunk with ``choices: []`` and the usage,
then ``data: [DONE]``.
"""

from __future__ import annotations

import json
from functools import lru_cache

from .payloads import _SENTENCES, answer_text, http_chunks

MODEL_VERSION = "gpt-4o-mini-2024-07-18"
RESPONSE_ID = "chatcmpl-BenchQ3vX9mF2kLp8RtYw1ZnHc4Ua"
CREATED = 1_764_460_800
FINGERPRINT = "fp_560af6e559"


def _usage(prompt: int, completion: int) -> dict[str, object]:
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
        "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
        "completion_tokens_details": {
            "reasoning_tokens": 0,
            "audio_tokens": 0,
            "accepted_prediction_tokens": 0,
            "rejected_prediction_tokens": 0,
        },
    }


@lru_cache(maxsize=1)
def completion_body() -> bytes:
    """The body of a non-streamed ``POST /chat/completions``."""
    body = {
        "id": RESPONSE_ID,
        "object": "chat.completion",
        "created": CREATED,
        "model": MODEL_VERSION,
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": answer_text(),
                    "refusal": None,
                    "annotations": [],
                },
                "logprobs": None,
                "finish_reason": "stop",
            }
        ],
        "usage": _usage(12, 220),
        "service_tier": "default",
        "system_fingerprint": FINGERPRINT,
    }
    return json.dumps(body, indent=2).encode()  # OpenAI pretty-prints non-streamed bodies


def _chunk(delta: dict[str, object] | None, finish: str | None = None, usage: object = None) -> bytes:
    body: dict[str, object] = {
        "id": RESPONSE_ID,
        "object": "chat.completion.chunk",
        "created": CREATED,
        "model": MODEL_VERSION,
        "service_tier": "default",
        "system_fingerprint": FINGERPRINT,
        "choices": []
        if delta is None
        else [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
        "usage": usage,
    }
    return b"data: " + json.dumps(body, separators=(",", ":")).encode() + b"\n\n"


def frames(count: int) -> list[bytes]:
    """The SSE events of a stream with ``count`` content chunks (``count + 4`` events in all)."""
    out = [_chunk({"role": "assistant", "content": "", "refusal": None})]
    out += [_chunk({"content": _SENTENCES[i % len(_SENTENCES)][:50] + " "}) for i in range(count)]
    out.append(_chunk({}, finish="stop"))
    out.append(_chunk(None, usage=_usage(12, count)))
    out.append(b"data: [DONE]\n\n")
    return out


@lru_cache(maxsize=8)
def stream_body_chunked(count: int) -> bytes:
    """A stream with ``count`` content chunks, one HTTP/1.1 chunk per event, with the terminating chunk."""
    return http_chunks(frames(count))
