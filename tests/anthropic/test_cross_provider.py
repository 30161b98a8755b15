"""The same canonical requests against ``google`` and ``anthropic`` fakes give results of the same
shape: a text answer, a tool-call round trip and a streamed answer (the requests, the Google fakes
and the comparison are the ones of ``tests/openai/test_cross_provider.py``, which holds Google
against OpenAI). The Anthropic fakes answer in the Messages API's shapes as recorded in the corpus
(``message`` bodies; ``message_start`` … ``message_stop`` frames with ``event:`` lines)."""

from __future__ import annotations

import json
from typing import Any

import httpx

from tests.openai.test_cross_provider import GOOGLE, USAGE, _run, _shape


def _message(content: list[dict[str, Any]], stop: str) -> dict[str, Any]:
    return {
        "id": "msg_01",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5-20250929",
        "content": content,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {"input_tokens": USAGE[0], "output_tokens": USAGE[1]},
    }


def _sse(frames: list[dict[str, Any]]) -> httpx.Response:
    body = "".join(f"event: {f['type']}\ndata: {json.dumps(f)}\n\n" for f in frames)
    return httpx.Response(200, content=body.encode(), headers={"content-type": "text/event-stream"})


START = {"type": "message_start", "message": {**_message([], "end_turn"), "stop_reason": None}}
START["message"]["usage"] = {"input_tokens": USAGE[0], "output_tokens": 1}
ANTHROPIC = {
    "text": [httpx.Response(200, json=_message([{"type": "text", "text": "Paris is sunny."}], "end_turn"))],
    "call": [
        httpx.Response(
            200,
            json=_message(
                [{"type": "tool_use", "id": "toolu_01", "name": "weather", "input": {"city": "Paris"}}],
                "tool_use",
            ),
        )
    ],
    "after": [
        httpx.Response(
            200, json=_message([{"type": "text", "text": "It is 21 degrees in Paris."}], "end_turn")
        )
    ],
    "stream": [
        _sse(
            [
                START,
                {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
                {"type": "ping"},
                {
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "text_delta", "text": "Paris "},
                },
                {
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "text_delta", "text": "is sunny."},
                },
                {"type": "content_block_stop", "index": 0},
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                    "usage": {"output_tokens": USAGE[1]},
                },
                {"type": "message_stop"},
            ]
        )
    ],
}


def test_google_and_anthropic_results_have_the_same_shape() -> None:
    google, _ = _run("google/gemini-2.5-flash", {k: list(v) for k, v in GOOGLE.items()})
    anthropic, sent = _run("anthropic/claude-sonnet-4-5", {k: list(v) for k, v in ANTHROPIC.items()})
    for key in ("text", "call", "after", "stream"):
        g, a = _shape(google[key]), _shape(anthropic[key])
        assert set(g) == set(a), key
        for field in g:
            if field == "raw_finish_reason":
                continue  # the provider's own word for it ("STOP" / "end_turn")
            assert g[field] == a[field], (key, field)
    assert anthropic["stream"].text == anthropic["text"].text == "Paris is sunny."
    assert (anthropic["call"].finish_reason, anthropic["call"].raw_finish_reason) == (
        "tool-calls",
        "tool_use",
    )
    # The round trip went back in Anthropic's form: the call as tool_use, the result in a user turn.
    assert sent[2]["messages"][1:] == [
        {
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": "toolu_01", "name": "weather", "input": {"city": "Paris"}}
            ],
        },
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "toolu_01", "content": '{"celsius":21}'}],
        },
    ]
