"""OpenAI Responses API bodies for the mock server, shaped like the recorded Responses corpus.

A non-streaming answer is a ``response`` object (``status: completed``) with one ``message`` output
item holding the same ~1 KB text as the Gemini answer (:func:`bench.payloads.answer_text`) as one
``output_text`` part, the echoed settings (``store: false``, ``text``, ``reasoning``, ``tools``) and
``usage`` with its detail objects. A stream is what the API sends with ``event:`` lines:
``response.created``, ``response.in_progress``, ``response.output_item.added``,
``response.content_part.added``, N ``response.output_text.delta`` events of about 50 characters
(each with ``item_id``, ``output_index``, ``content_index``, ``sequence_number`` and ``logprobs``),
``response.output_text.done``, ``response.content_part.done``, ``response.output_item.done`` and
``response.completed`` with the whole response.
"""

from __future__ import annotations

import json
from functools import lru_cache

from .payloads import _SENTENCES, answer_text, http_chunks

MODEL_VERSION = "gpt-4o-mini-2024-07-18"
RESPONSE_ID = "resp_0bench4f1d2c3b4a5968778695a4b3c2d1e0f1a2b3c4d5e6f7"
ITEM_ID = "msg_0bench4f1d2c3b4a5968778695a4b3c2d1e0f1a2b3c4d5e6f7"
CREATED = 1_764_460_800


def _response(
    status: str, output: list[dict[str, object]], usage: dict[str, object] | None
) -> dict[str, object]:
    return {
        "id": RESPONSE_ID,
        "object": "response",
        "created_at": CREATED,
        "status": status,
        "background": False,
        "error": None,
        "incomplete_details": None,
        "instructions": None,
        "max_output_tokens": None,
        "model": MODEL_VERSION,
        "output": output,
        "parallel_tool_calls": True,
        "previous_response_id": None,
        "reasoning": {"effort": None, "summary": None},
        "service_tier": "default",
        "store": False,
        "temperature": 1.0,
        "text": {"format": {"type": "text"}, "verbosity": "medium"},
        "tool_choice": "auto",
        "tools": [],
        "top_p": 1.0,
        "truncation": "disabled",
        "usage": usage,
        "user": None,
        "metadata": {},
    }


def _usage(output: int) -> dict[str, object]:
    return {
        "input_tokens": 12,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": output,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 12 + output,
    }


def _message(text: str) -> dict[str, object]:
    content = {"type": "output_text", "annotations": [], "logprobs": [], "text": text}
    return {
        "id": ITEM_ID,
        "type": "message",
        "status": "completed",
        "content": [content],
        "role": "assistant",
    }


@lru_cache(maxsize=1)
def response_body() -> bytes:
    """The body of a non-streamed ``POST /v1/responses``."""
    return json.dumps(_response("completed", [_message(answer_text())], _usage(220))).encode()


def _event(body: dict[str, object]) -> bytes:
    return b"event: %s\ndata: %s\n\n" % (
        str(body["type"]).encode(),
        json.dumps(body, separators=(",", ":")).encode(),
    )


def frames(count: int) -> list[bytes]:
    """The SSE events of a stream with ``count`` text deltas (``count + 8`` events in all)."""
    pieces = [_SENTENCES[i % len(_SENTENCES)][:50] + " " for i in range(count)]
    text = "".join(pieces)
    empty = {"type": "output_text", "annotations": [], "logprobs": [], "text": ""}
    started = _response("in_progress", [], None)
    where = {"item_id": ITEM_ID, "output_index": 0, "content_index": 0}
    bodies: list[dict[str, object]] = [
        {"type": "response.created", "response": started},
        {"type": "response.in_progress", "response": started},
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {**_message(""), "status": "in_progress", "content": []},
        },
        {"type": "response.content_part.added", **where, "part": empty},
    ]
    bodies += [
        {"type": "response.output_text.delta", **where, "delta": piece, "logprobs": []} for piece in pieces
    ]
    bodies += [
        {"type": "response.output_text.done", **where, "text": text, "logprobs": []},
        {"type": "response.content_part.done", **where, "part": {**empty, "text": text}},
        {"type": "response.output_item.done", "output_index": 0, "item": _message(text)},
        {"type": "response.completed", "response": _response("completed", [_message(text)], _usage(count))},
    ]
    return [_event({**body, "sequence_number": number}) for number, body in enumerate(bodies)]


@lru_cache(maxsize=8)
def stream_body_chunked(count: int) -> bytes:
    """A stream with ``count`` text deltas, one HTTP/1.1 chunk per event, with the terminating chunk."""
    return http_chunks(frames(count))
