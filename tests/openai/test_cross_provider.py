"""The same canonical request against ``google``, ``openai`` and ``openai-responses`` fakes gives
results of the same shape.

A text answer, a tool-call round trip (call, then the answer after the tool result), the same
round trip with reasoning (``google`` and ``openai-responses``: the thought summary and the call,
the opaque state sent back in each provider's own form) and a streamed answer: each provider's fake answers in its own wire format (Gemini ``generateContent`` /
``streamGenerateContent``, Chat Completions and the Responses API, shapes as in the recorded
corpora) with the same
content, and the two results are compared field by field. Only what is provider-specific by
definition differs: the response id, the model version, ``provider_metadata`` and the origin.
"""

from __future__ import annotations

import json
from typing import Any

import httpx

import modelport
from modelport.types import Result

WEATHER = {
    "type": "function",
    "name": "weather",
    "description": "The weather in a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}
USAGE = (11, 3, 14)  # input, output, total


def _gemini(parts: list[dict[str, Any]], finish: str | None = "STOP", usage: bool = True) -> dict[str, Any]:
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": parts}, "index": 0}
    if finish:
        candidate["finishReason"] = finish
    body: dict[str, Any] = {
        "candidates": [candidate],
        "modelVersion": "gemini-2.5-flash",
        "responseId": "g-1",
    }
    if usage:
        body["usageMetadata"] = {
            "promptTokenCount": USAGE[0],
            "candidatesTokenCount": USAGE[1],
            "totalTokenCount": USAGE[2],
        }
    return body


def _chat(message: dict[str, Any], finish: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": "gpt-4o-mini",
        "choices": [{"index": 0, "message": {"role": "assistant", **message}, "finish_reason": finish}],
        "usage": {"prompt_tokens": USAGE[0], "completion_tokens": USAGE[1], "total_tokens": USAGE[2]},
    }


def _chunk(delta: dict[str, Any], finish: str | None = None, usage: bool = False) -> dict[str, Any]:
    chunk: dict[str, Any] = {
        "id": "chatcmpl-2",
        "object": "chat.completion.chunk",
        "model": "gpt-4o-mini",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    if usage:
        chunk["choices"] = []
        chunk["usage"] = {"prompt_tokens": USAGE[0], "completion_tokens": USAGE[1], "total_tokens": USAGE[2]}
    return chunk


def _sse(frames: list[dict[str, Any]], done: bool) -> httpx.Response:
    body = "".join(f"data: {json.dumps(f)}\r\n\r\n" for f in frames) + ("data: [DONE]\n\n" if done else "")
    return httpx.Response(200, content=body.encode(), headers={"content-type": "text/event-stream"})


def _json(body: dict[str, Any]) -> httpx.Response:
    return httpx.Response(200, json=body)


GOOGLE = {
    "text": [_json(_gemini([{"text": "Paris is sunny."}]))],
    "call": [_json(_gemini([{"functionCall": {"name": "weather", "args": {"city": "Paris"}}}]))],
    "after": [_json(_gemini([{"text": "It is 21 degrees in Paris."}]))],
    "stream": [
        _sse(
            [
                _gemini([{"text": "Paris "}], finish=None, usage=False),
                _gemini([{"text": "is sunny."}]),
            ],
            done=False,
        )
    ],
}
OPENAI = {
    "text": [_json(_chat({"content": "Paris is sunny."}, "stop"))],
    "call": [
        _json(
            _chat(
                {
                    "content": None,
                    "tool_calls": [
                        {
                            "id": "call_1",
                            "type": "function",
                            "function": {"name": "weather", "arguments": '{"city":"Paris"}'},
                        }
                    ],
                },
                "tool_calls",
            )
        )
    ],
    "after": [_json(_chat({"content": "It is 21 degrees in Paris."}, "stop"))],
    "stream": [
        _sse(
            [
                _chunk({"role": "assistant", "content": ""}),
                _chunk({"content": "Paris "}),
                _chunk({"content": "is sunny."}),
                _chunk({}, "stop"),
                _chunk({}, usage=True),
            ],
            done=True,
        )
    ],
}


def _response(*output: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "resp_1",
        "object": "response",
        "status": "completed",
        "model": "gpt-4o-mini",
        "output": list(output),
        "usage": {"input_tokens": USAGE[0], "output_tokens": USAGE[1], "total_tokens": USAGE[2]},
    }


def _message(text: str) -> dict[str, Any]:
    content = [{"type": "output_text", "text": text, "annotations": []}]
    return {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed", "content": content}


def _events(frames: list[dict[str, Any]]) -> httpx.Response:
    body = "".join(f"event: {f['type']}\ndata: {json.dumps(f)}\n\n" for f in frames)
    return httpx.Response(200, content=body.encode(), headers={"content-type": "text/event-stream"})


_STREAMED = _message("Paris is sunny.")
RESPONSES = {
    "text": [_json(_response(_message("Paris is sunny.")))],
    "call": [
        _json(
            _response(
                {
                    "type": "function_call",
                    "id": "fc_1",
                    "call_id": "call_1",
                    "name": "weather",
                    "arguments": '{"city":"Paris"}',
                    "status": "completed",
                }
            )
        )
    ],
    "after": [_json(_response(_message("It is 21 degrees in Paris.")))],
    "stream": [
        _events(
            [
                {
                    "type": "response.created",
                    "response": {**_response(), "status": "in_progress", "usage": None},
                },
                {
                    "type": "response.output_item.added",
                    "output_index": 0,
                    "item": {**_STREAMED, "content": []},
                },
                {
                    "type": "response.output_text.delta",
                    "item_id": "msg_1",
                    "content_index": 0,
                    "delta": "Paris ",
                },
                {
                    "type": "response.output_text.delta",
                    "item_id": "msg_1",
                    "content_index": 0,
                    "delta": "is sunny.",
                },
                {"type": "response.output_item.done", "output_index": 0, "item": _STREAMED},
                {"type": "response.completed", "response": _response(_STREAMED)},
            ]
        )
    ],
}


def _model(model_id: str, replies: list[httpx.Response]) -> tuple[modelport.Model, list[httpx.Request]]:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return replies.pop(0)

    transport = httpx.MockTransport(handler)
    return modelport.get_model(
        model_id, api_key="test-key-0123456789", transport=transport, max_retries=0
    ), seen


def _shape(result: Result) -> dict[str, Any]:
    """Every field of a result except what is provider-specific by definition."""
    data = result.model_dump(
        mode="json", exclude={"response_id", "model_version", "provider_metadata", "replay", "origin"}
    )
    for part in data["content"]:
        part.pop("provider_metadata", None)
        if part["type"] == "tool-call":
            assert part.pop("id")  # an id is always there; its form is the provider's
    return data


def _run(model_id: str, fakes: dict[str, list[httpx.Response]]) -> tuple[dict[str, Result], list[Any]]:
    replies = [r for key in ("text", "call", "after", "stream") for r in fakes[key]]
    model, seen = _model(model_id, replies)
    results = {"text": model.generate(prompt="Weather in Paris?")}
    call = model.generate(prompt="Weather in Paris?", tools=[WEATHER])
    results["call"] = call
    history = [
        {"role": "user", "content": "Weather in Paris?"},
        call.message,
        {
            "role": "tool",
            "content": [
                {
                    "type": "tool-result",
                    "call_id": call.tool_calls[0].id,
                    "name": "weather",
                    "output": {"celsius": 21},
                }
            ],
        },
    ]
    results["after"] = model.generate(messages=history, tools=[WEATHER])
    with model.stream(prompt="Weather in Paris?") as stream:
        types = [event.type for event in stream]
        results["stream"] = stream.result()
    assert types[0] == "stream-start" and types[-1] == "finish"
    return results, [json.loads(request.content) for request in seen]


def test_google_and_openai_results_have_the_same_shape() -> None:
    google, _ = _run("google/gemini-2.5-flash", {k: list(v) for k, v in GOOGLE.items()})
    openai, sent = _run("openai/gpt-4o-mini", {k: list(v) for k, v in OPENAI.items()})
    for key in ("text", "call", "after", "stream"):
        g, o = _shape(google[key]), _shape(openai[key])
        assert set(g) == set(o), key
        for field in g:
            if field == "raw_finish_reason":
                continue  # the provider's own word for it ("STOP" / "stop")
            assert g[field] == o[field], (key, field)
    assert openai["call"].tool_calls[0].args == google["call"].tool_calls[0].args == {"city": "Paris"}
    assert [
        (r.origin.provider, r.origin.model) for r in (google["stream"], openai["stream"]) if r.origin
    ] == [
        ("google", "gemini-2.5-flash"),
        ("openai", "gpt-4o-mini"),
    ]
    assert openai["stream"].text == openai["text"].text == "Paris is sunny."
    assert (openai["call"].finish_reason, openai["call"].raw_finish_reason) == ("tool-calls", "tool_calls")
    responses, sent_responses = _run(
        "openai-responses/gpt-4o-mini", {k: list(v) for k, v in RESPONSES.items()}
    )
    for key in ("text", "call", "after", "stream"):
        assert _shape(responses[key]) == {**_shape(openai[key]), "raw_finish_reason": "completed"}, key
    assert sent_responses[2]["input"][1:] == [
        {
            "type": "function_call",
            "call_id": "call_1",
            "name": "weather",
            "arguments": '{"city":"Paris"}',
        },  # no fc_ id: nothing is stored (store: false), and OpenAI refuses ids it did not store
        {"type": "function_call_output", "call_id": "call_1", "output": '{"celsius":21}'},
    ]
    # The round trip went back in the provider's own form: the call by its id, the result as a tool message.
    assert sent[2]["messages"][1:] == [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "weather", "arguments": '{"city":"Paris"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": '{"celsius":21}'},
    ]


THOUGHT = "The user wants the weather in Paris; call the weather tool."
THINKING_USAGE = (11, 5, 2, 16)  # input, output (reasoning included), reasoning, total
GOOGLE_THINKING = [
    _json(
        {
            "candidates": [
                {
                    "content": {
                        "role": "model",
                        "parts": [
                            {"text": THOUGHT, "thought": True},
                            {
                                "functionCall": {"name": "weather", "args": {"city": "Paris"}},
                                "thoughtSignature": "c2ln",
                            },
                        ],
                    },
                    "finishReason": "STOP",
                    "index": 0,
                }
            ],
            "modelVersion": "gemini-2.5-flash",
            "responseId": "g-2",
            "usageMetadata": {
                "promptTokenCount": THINKING_USAGE[0],
                "candidatesTokenCount": THINKING_USAGE[1] - THINKING_USAGE[2],
                "thoughtsTokenCount": THINKING_USAGE[2],
                "totalTokenCount": THINKING_USAGE[3],
            },
        }
    ),
    _json(_gemini([{"text": "It is 21 degrees in Paris."}])),
]
RESPONSES_THINKING = [
    _json(
        {
            **_response(
                {
                    "type": "reasoning",
                    "id": "rs_1",
                    "summary": [{"type": "summary_text", "text": THOUGHT}],
                    "encrypted_content": "gAAAAB-opaque",
                },
                {
                    "type": "function_call",
                    "id": "fc_1",
                    "call_id": "call_1",
                    "name": "weather",
                    "arguments": '{"city":"Paris"}',
                    "status": "completed",
                },
            ),
            "usage": {
                "input_tokens": THINKING_USAGE[0],
                "output_tokens": THINKING_USAGE[1],
                "output_tokens_details": {"reasoning_tokens": THINKING_USAGE[2]},
                "total_tokens": THINKING_USAGE[3],
            },
        }
    ),
    _json(_response(_message("It is 21 degrees in Paris."))),
]


def _thinking_round_trip(model_id: str, replies: list[httpx.Response]) -> tuple[list[Result], list[Any]]:
    model, seen = _model(model_id, list(replies))
    call = model.generate(prompt="Weather in Paris?", tools=[WEATHER], reasoning={"effort": "low"})
    result = {
        "type": "tool-result",
        "call_id": call.tool_calls[0].id,
        "name": "weather",
        "output": {"celsius": 21},
    }
    history = [
        {"role": "user", "content": "Weather in Paris?"},
        call.message,
        {"role": "tool", "content": [result]},
    ]
    after = model.generate(messages=history, tools=[WEATHER], reasoning={"effort": "low"})
    return [call, after], [json.loads(request.content) for request in seen]


def _without_state(result: Result) -> dict[str, Any]:
    """The shape, less the reasoning's opaque state (the provider's own: a signature, or none)."""
    data = _shape(result)
    for part in data["content"]:
        if part["type"] == "reasoning":
            part.pop("signature")
    return data


def test_a_tool_round_trip_with_reasoning_has_the_same_shape() -> None:
    google, google_sent = _thinking_round_trip("google/gemini-2.5-flash", GOOGLE_THINKING)
    responses, sent = _thinking_round_trip("openai-responses/gpt-5", RESPONSES_THINKING)
    for g, r in zip(google, responses):
        g_shape, r_shape = _without_state(g), _without_state(r)
        assert {**r_shape, "raw_finish_reason": None} == {**g_shape, "raw_finish_reason": None}
    call = responses[0]
    assert [p.type for p in call.content] == ["reasoning", "tool-call"]
    assert call.content[0].text == THOUGHT
    assert (call.usage.output_tokens, call.usage.reasoning_tokens) == THINKING_USAGE[1:3]
    # Each sends the reasoning back in its own form: the Responses reasoning item, whole, ahead of
    # its call; Gemini's thought signature on the functionCall part.
    assert sent[1]["input"][1:] == [
        {
            "type": "reasoning",
            "id": "rs_1",
            "summary": [{"type": "summary_text", "text": THOUGHT}],
            "encrypted_content": "gAAAAB-opaque",
        },
        {"type": "function_call", "call_id": "call_1", "name": "weather", "arguments": '{"city":"Paris"}'},
        {"type": "function_call_output", "call_id": "call_1", "output": '{"celsius":21}'},
    ]
    assert sent[1]["include"] == ["reasoning.encrypted_content"]
    (model_turn,) = [c for c in google_sent[1]["contents"] if c["role"] == "model"]
    assert {
        "functionCall": {"name": "weather", "args": {"city": "Paris"}},
        "thoughtSignature": "c2ln",
    } in model_turn["parts"]
