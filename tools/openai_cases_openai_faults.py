# ruff: noqa: E501  (a data table: long descriptions read better unwrapped)
"""The ``openai`` cases of mapping code no other case reached (``modelport conformance --mutate
--provider openai``: the mutants no case reaches, issue #35): requests refused before any I/O (an
embeddings option it does not know, an ``encoding_format`` outside the API's two, one that
contradicts ``embedding_type``; a typed option given a value of another type; a penalty past
the other end of the API's range; history shapes Chat Completions cannot carry), embeddings answers that do not fit the request (edited from the recorded ones,
MOCK), and hand-written MOCK answers: ``response_format`` JSON without a schema (``json_object``),
a legacy ``function_call`` message, tool arguments sent as an object."""

from __future__ import annotations

import json
from typing import Any

from openai_case_data import OT, PE
from openai_corpus import JSON_TYPE, Recorded, vcr

__all__ = ["fault_cases"]

CREATE = "https://platform.openai.com/docs/api-reference/chat/create"
EMBEDDINGS = "https://platform.openai.com/docs/api-reference/embeddings/create"
NO_IO = (
    "MOCK: no recording: modelport refuses this request before any I/O (the OpenAI API is never "
    "called), so the cassette is empty and a mapping that sent it fails the request check"
)
BASE64_PAIR = PE + "test_embeddings__TestOpenAI.test_documents.yaml"
FLOATS_512 = OT + "test_embeddings_with_dimensions.yaml"
WEATHER = {
    "type": "function",
    "name": "get_weather",
    "description": "Get weather for a city",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}


def _no_io(docs: str) -> dict[str, Any]:
    return {"mock": True, "docs": [docs], "note": NO_IO}


def _refused(name: str, description: str, request: dict[str, Any], docs: str, **extra: Any) -> dict[str, Any]:
    return {
        "name": name,
        "description": description + ": InvalidRequestError, nothing sent.",
        "method": extra.pop("method", "generate"),
        "model": extra.pop("model", "gpt-4o-mini"),
        **extra,
        "request": request,
        "responses": [],
        "source_dict": _no_io(docs),
    }


def _embed_refused(name: str, description: str, request: dict[str, Any]) -> dict[str, Any]:
    return _refused(
        name,
        description,
        {"values": ["hello"], **request},
        f"{EMBEDDINGS}#embeddings-create-encoding_format",
        method="embed",
        model="text-embedding-3-small",
        features=["embed"],
    )


def _edited(saved: str, edit: Any) -> Recorded:
    """A recorded embeddings answer with ``edit`` applied to its body."""
    status, content_type, text = vcr(saved)
    body = json.loads(text)
    edit(body)
    return status, content_type, json.dumps(body)


def _drop_second(body: dict[str, Any]) -> None:
    del body["data"][1:]


def _as_strings(body: dict[str, Any]) -> None:
    body["data"][0]["embedding"] = [repr(v) for v in body["data"][0]["embedding"]]


def _reversed(body: dict[str, Any]) -> None:
    body["data"].reverse()


def _cut_short(body: dict[str, Any]) -> None:
    body["data"][0]["embedding"] = body["data"][0]["embedding"][:-8]  # 6,138 bytes: not whole float32s


def _data_object(body: dict[str, Any]) -> None:
    body["data"] = body["data"][0]


def _embed_answer(
    name: str, description: str, request: dict[str, Any], saved: str, edit: Any, note: str
) -> dict[str, Any]:
    return {
        "name": name,
        "description": description,
        "method": "embed",
        "model": "text-embedding-3-small",
        "features": ["embed"],
        "request": request,
        "response": _edited(saved, edit) if edit else vcr(saved),
        "source": saved,
        "source_args": {"note": f"MOCK: the recorded answer {note}"},
    }


def _answer(message: dict[str, Any], finish: str = "stop", model: str = "gpt-4o-mini-2024-07-18") -> Recorded:
    """A hand-written ``chat.completion`` in the API reference's shape (MOCK)."""
    body = {
        "id": "chatcmpl-mock-faults",
        "object": "chat.completion",
        "created": 1780000000,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "refusal": None, "annotations": [], **message},
                "logprobs": None,
                "finish_reason": finish,
            }
        ],
        "usage": {
            "prompt_tokens": 52,
            "completion_tokens": 9,
            "total_tokens": 61,
            "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
            "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 0},
        },
        "service_tier": "default",
        "system_fingerprint": "fp_mock",
    }
    return 200, JSON_TYPE, json.dumps(body)


def _mock(note: str, anchor: str) -> dict[str, Any]:
    return {"mock": True, "docs": [f"{CREATE}#chat-create-{anchor}"], "note": "MOCK: " + note}


def _weather_call(arguments: Any) -> dict[str, Any]:
    call = {
        "id": "call_mock_weather",
        "type": "function",
        "function": {"name": "get_weather", "arguments": arguments},
    }
    return {"content": None, "tool_calls": [call]}


def _history(*messages: dict[str, Any]) -> dict[str, Any]:
    return {"messages": [*messages, {"role": "user", "content": "And now?"}]}


def _embed_cases() -> list[dict[str, Any]]:
    return [
        _embed_refused(
            "embed-error-unknown-option",
            "An embeddings provider option the API does not take (input_type)",
            {"provider_options": {"openai": {"input_type": "query"}}},
        ),
        _embed_refused(
            "embed-error-encoding-format-unknown",
            "encoding_format binary (the API takes float or base64)",
            {"provider_options": {"openai": {"encoding_format": "binary"}}},
        ),
        _embed_refused(
            "embed-error-encoding-format-contradicts",
            "embedding_type base64 with provider_options encoding_format float",
            {"embedding_type": "base64", "provider_options": {"openai": {"encoding_format": "float"}}},
        ),
        _embed_refused(
            "embed-error-extra-body-input",
            "An embeddings extra_body setting input (a field the mapping owns)",
            {"provider_options": {"openai": {"extra_body": {"input": ["world"]}}}},
        ),
        _embed_answer(
            "embed-extra-body-user",
            "An embeddings extra_body field (user) sent top-level beside the mapped ones; the floats read.",
            {
                "values": "This is a test for embeddings with dimensions",
                "output_dimensionality": 512,
                "provider_options": {"openai": {"extra_body": {"user": "user-1234"}}},
            },
            FLOATS_512,
            None,
            "of this value at 512 dimensions, kept as recorded, to a request that adds the user field",
        ),
        _embed_answer(
            "embed-batch-answered-out-of-order",
            "Two values whose embeddings are answered in reverse order: put back in input order by their index.",
            {"values": ["hello", "world"], "embedding_type": "base64"},
            BASE64_PAIR,
            _reversed,
            "of two values (base64), its two items in reverse order (each keeps its index)",
        ),
        _embed_answer(
            "embed-error-answer-count-mismatch",
            "Two values, one embedding answered: a typed ProviderResponseError, not a short result.",
            {"values": ["hello", "world"], "embedding_type": "base64"},
            BASE64_PAIR,
            _drop_second,
            "of two values (base64), its second item removed",
        ),
        _embed_answer(
            "embed-error-base64-answered-floats",
            "embedding_type base64 asked for, a list of floats answered: a typed ProviderResponseError.",
            {
                "values": "This is a test for embeddings with dimensions",
                "output_dimensionality": 512,
                "embedding_type": "base64",
            },
            FLOATS_512,
            None,
            "of this value at 512 dimensions as floats, kept as recorded, to a request that asked for base64",
        ),
        _embed_answer(
            "embed-error-vector-of-strings",
            "Floats asked for, the vector's numbers answered as strings: a typed ProviderResponseError.",
            {"values": "This is a test for embeddings with dimensions", "output_dimensionality": 512},
            FLOATS_512,
            _as_strings,
            "of this request, each number of its vector written as a JSON string",
        ),
        _embed_answer(
            "embed-error-base64-cut-short",
            "embedding_type base64, the first vector's text cut short (not whole float32 values): a typed ProviderResponseError.",
            {"values": ["hello", "world"], "embedding_type": "base64"},
            BASE64_PAIR,
            _cut_short,
            "of two values (base64), the last 8 characters of its first vector's text removed",
        ),
        _embed_answer(
            "embed-error-data-not-a-list",
            "An answer whose data is one object, not a list: a typed ProviderResponseError.",
            {"values": ["hello", "world"], "embedding_type": "base64"},
            BASE64_PAIR,
            _data_object,
            "of two values (base64), its data list replaced by its first item",
        ),
    ]


def _option_cases() -> list[dict[str, Any]]:
    def option(name: str, value: Any, what: str) -> dict[str, Any]:
        return _refused(
            f"error-option-{name.replace('_', '-')}-not-{what}",
            f"provider_options {name} {value!r} (the option takes a {what}, not coerced)",
            {"prompt": "Hello", "provider_options": {"openai": {name: value}}},
            f"{CREATE}#chat-create-{name}",
        )

    def bound(field: str, value: float) -> dict[str, Any]:
        low, high = (0, 2) if field == "temperature" else (-2, 2)
        side = "low" if value < low else "high"
        return _refused(
            f"error-{field.replace('_', '-')}-too-{side}",
            f"{field} {value} (Chat Completions takes {low} to {high})",
            {"prompt": "Please tell me a story", field: value},
            f"{CREATE}#chat-create-{field}",
        )

    return [
        option("logprobs", "yes", "boolean"),
        option("top_logprobs", "3", "integer"),
        option("parallel_tool_calls", "false", "boolean"),
        option("store", 1, "boolean"),
        _refused(
            "error-top-logprobs-over-20",
            "provider_options top_logprobs 21 (the API takes 0 to 20)",
            {"prompt": "Hello", "provider_options": {"openai": {"logprobs": True, "top_logprobs": 21}}},
            f"{CREATE}#chat-create-top_logprobs",
        ),
        bound("presence_penalty", 2.5),
        bound("presence_penalty", -2.5),
        bound("frequency_penalty", 2.5),
    ]


def _history_cases() -> list[dict[str, Any]]:
    image = {"type": "file", "media_type": "image/png", "uri": "https://example.com/cat.png"}
    call = {"type": "tool-call", "id": "call_1", "name": "get_weather", "args": {"city": "Paris"}}
    docs = f"{CREATE}#chat-create-messages"
    return [
        _refused(
            "error-history-system-image",
            "A system message holding an image (Chat Completions' system content is text only)",
            _history({"role": "system", "content": [{"type": "text", "text": "Be brief."}, image]}),
            docs,
        ),
        _refused(
            "error-history-assistant-image",
            "An assistant message holding an image (an assistant message carries text and tool calls only)",
            _history({"role": "user", "content": "Draw a cat."}, {"role": "assistant", "content": [image]}),
            docs,
        ),
        _refused(
            "error-history-user-tool-call",
            "A user message holding a tool call (only an assistant message carries one)",
            _history({"role": "user", "content": [{"type": "text", "text": "Weather?"}, call]}),
            docs,
        ),
        _refused(
            "error-history-tool-message-text",
            "A tool message holding text besides its tool result (a tool message carries a result only)",
            _history(
                {"role": "user", "content": "Weather?"},
                {"role": "assistant", "content": [call]},
                {
                    "role": "tool",
                    "content": [
                        {
                            "type": "tool-result",
                            "call_id": "call_1",
                            "name": "get_weather",
                            "output": "Sunny",
                        },
                        {"type": "text", "text": "and warm"},
                    ],
                },
            ),
            docs,
        ),
    ]


def _answer_cases() -> list[dict[str, Any]]:
    return [
        {
            "name": "generate-json-object",
            "description": "response_format JSON without a schema: response_format json_object sent; the JSON text answered.",
            "method": "generate",
            "model": "gpt-4o-mini",
            "features": ["structured_output"],
            "request": {"prompt": "List two colours as JSON.", "response_format": {"type": "json"}},
            "response": _answer({"content": '{"colours": ["red", "blue"]}'}),
            "source_dict": _mock(
                "no recorded Chat Completions call with response_format json_object is vendored; the request is the API reference's, the answer hand-written",
                "response_format",
            ),
        },
        {
            "name": "generate-strict-schema-format-dropped",
            "description": "A strict json_schema with a string format strict mode does not take (uri): the format not sent, an unsupported-setting warning names it; the JSON answered.",
            "method": "generate",
            "model": "gpt-4o-mini",
            "features": ["structured_output"],
            "request": {
                "prompt": "Give me the address of the Python website as JSON.",
                "response_format": {
                    "type": "json_schema",
                    "name": "site",
                    "schema": {
                        "type": "object",
                        "properties": {"url": {"type": "string", "format": "uri"}},
                        "required": ["url"],
                    },
                    "strict": True,
                },
            },
            "response": _answer({"content": '{"url": "https://www.python.org"}'}),
            "source_dict": _mock(
                "no recording of a strict schema with a format strict mode does not take is vendored; the request is the API reference's (the Structured Outputs guide's supported formats), the answer hand-written",
                "response_format",
            ),
        },
        {
            "name": "generate-user-reasoning-dropped",
            "description": "A user message holding a reasoning part beside its text: the reasoning is left out, the text sent as a text content part.",
            "method": "generate",
            "model": "gpt-4o-mini",
            "request": {
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {"type": "reasoning", "text": "They want a greeting."},
                            {"type": "text", "text": "Hello"},
                        ],
                    }
                ]
            },
            "response": _answer({"content": "Hello! How can I help?"}),
            "source_dict": _mock(
                "no recording of a reasoning part in a user message is vendored; the request is the API reference's, the answer hand-written",
                "messages",
            ),
        },
        {
            "name": "generate-legacy-function-call",
            "description": "An answer in the deprecated function_call shape (finish_reason function_call): one tool call, id function_call, with the function's name and arguments.",
            "method": "generate",
            "model": "gpt-4o-mini",
            "features": ["function_tools"],
            "request": {"prompt": "What's the weather in Paris?", "tools": [WEATHER]},
            "response": _answer(
                {"content": None, "function_call": {"name": "get_weather", "arguments": '{"city": "Paris"}'}},
                "function_call",
            ),
            "source_dict": _mock(
                "no recording of a legacy function_call answer is vendored; the message is the reference's deprecated function_call shape, hand-written",
                "function_call",
            ),
        },
        {
            "name": "generate-sampling-model-snapshot",
            "description": "temperature on gpt-5.4-nano-2026-03-17, a dated snapshot of a model that takes it while it does not reason: temperature sent, no warning.",
            "method": "generate",
            "model": "gpt-5.4-nano-2026-03-17",
            "request": {"prompt": "What is the capital of France?", "temperature": 0.2},
            "response": _answer({"content": "Paris."}, model="gpt-5.4-nano-2026-03-17"),
            "source_dict": _mock(
                "no recorded Chat Completions call of gpt-5.4-nano is vendored (its Responses recordings are openai-responses' cases); the answer is hand-written",
                "temperature",
            ),
        },
        {
            "name": "generate-reasoning-effort-max-gpt-5-4",
            "description": "reasoning.effort max on gpt-5.4-mini (a gpt-5.4 model, whose highest level is xhigh): reasoning_effort xhigh, no warning.",
            "method": "generate",
            "model": "gpt-5.4-mini",
            "features": ["reasoning"],
            "request": {"prompt": "What is the capital of France?", "reasoning": {"effort": "max"}},
            "response": _answer({"content": "Paris."}, model="gpt-5.4-mini-2026-03-17"),
            "source_dict": _mock(
                "no recorded Chat Completions call of a gpt-5.4 model is vendored; the request is the API reference's, the answer hand-written",
                "reasoning_effort",
            ),
        },
        {
            "name": "generate-tool-arguments-object",
            "description": "Tool-call arguments answered as a JSON object, not its text (as some OpenAI-compatible servers do): the same call args.",
            "method": "generate",
            "model": "gpt-4o-mini",
            "features": ["function_tools"],
            "request": {"prompt": "What's the weather in München?", "tools": [WEATHER]},
            "response": _answer(_weather_call({"city": "München"}), "tool_calls"),
            "source_dict": _mock(
                "no recording of tool arguments sent as an object is vendored; the answer is hand-written in the reference's shape, its arguments an object",
                "tools",
            ),
        },
    ]


def fault_cases() -> list[dict[str, Any]]:
    """Every case (see the module)."""
    return _embed_cases() + _option_cases() + _history_cases() + _answer_cases()
