# ruff: noqa: E501  (a data table: long descriptions read better unwrapped)
"""The ``openai`` cases of mapping code no other case reached (``modelport conformance --mutate
--provider openai``: the mutants no case reaches, issue #35): requests refused before any I/O (an
embeddings option it does not know, an ``encoding_format`` outside the API's two, one that
contradicts ``embedding_type``; a typed option given a value of another type; a penalty past
the other end of the API's range; history shapes Chat Completions cannot carry), embeddings answers that do not fit the request
(edited from the recorded ones, MOCK), and the hand-written MOCK answers of :mod:`openai_cases_openai_answers`."""

from __future__ import annotations

import json
from typing import Any

from openai_case_data import CREATE, EMBEDDINGS, OT, PE, no_io
from openai_cases_openai_answers import answer_cases
from openai_corpus import Recorded, vcr

__all__ = ["fault_cases"]

BASE64_PAIR = PE + "test_embeddings__TestOpenAI.test_documents.yaml"
FLOATS_512 = OT + "test_embeddings_with_dimensions.yaml"


def _refused(name: str, description: str, request: dict[str, Any], docs: str, **extra: Any) -> dict[str, Any]:
    return {
        "name": name,
        "description": description + ": InvalidRequestError, nothing sent.",
        "method": extra.pop("method", "generate"),
        "model": extra.pop("model", "gpt-4o-mini"),
        **extra,
        "request": request,
        "responses": [],
        "source_dict": no_io(docs),
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


def fault_cases() -> list[dict[str, Any]]:
    """Every case (see the module)."""
    return _embed_cases() + _option_cases() + _history_cases() + answer_cases()
