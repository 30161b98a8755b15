# ruff: noqa: E501  (a data table: long descriptions read better unwrapped)
"""The ``openai`` cases of request rules no other case reaches (chosen from the survivors of
``modelport conformance --mutate --provider openai --sample 100 --seed 4``): each field the mapping
owns set through ``extra_body``, ``top_logprobs`` without ``logprobs``, a ``temperature`` over the
API's range, an embeddings ``task_type``, all refused before any I/O (an empty cassette: a mapping
that sent them fails the ``request`` check), and one MOCK answer to inline WAV audio (no recording
of an ``input_audio`` request is in the corpus)."""

from __future__ import annotations

import json
from typing import Any

from openai_case_data import CREATE, EMBEDDINGS, no_io
from openai_corpus import JSON_TYPE

__all__ = ["refused_cases"]

#: A WAV file of eight silent 8-bit samples at 8 kHz (Python's ``wave`` module), base64.
WAV = "UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAACAgICAgICAgA=="


def _no_io(field: str, docs: str = CREATE) -> dict[str, Any]:
    return no_io(docs + (f"#chat-create-{field}" if docs == CREATE else ""))


def _reserved(field: str, value: Any) -> dict[str, Any]:
    return {
        "name": f"error-extra-body-reserved-{field.replace('_', '-')}",
        "description": f"extra_body setting {field} (a field the mapping owns): InvalidRequestError, nothing sent.",
        "method": "generate",
        "model": "gpt-4o-mini",
        "request": {"prompt": "Hello", "provider_options": {"openai": {"extra_body": {field: value}}}},
        "responses": [],
        "source_dict": _no_io(field),
    }


def _audio_answer() -> tuple[int, str, str]:
    """A chat.completion answering the audio question, in the API reference's shape (MOCK)."""
    body = {
        "id": "chatcmpl-mock-input-audio",
        "object": "chat.completion",
        "created": 1765100000,
        "model": "gpt-4o-audio-preview-2025-06-03",
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": "The recording is silent.",
                    "refusal": None,
                    "annotations": [],
                },
                "logprobs": None,
                "finish_reason": "stop",
            }
        ],
        "usage": {
            "prompt_tokens": 27,
            "completion_tokens": 6,
            "total_tokens": 33,
            "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 1},
            "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 0},
        },
        "service_tier": "default",
        "system_fingerprint": None,
    }
    return 200, JSON_TYPE, json.dumps(body)


def refused_cases() -> list[dict[str, Any]]:
    """The refusals, then the inline-audio MOCK answer."""
    return [
        _reserved("model", "gpt-4o"),
        _reserved("stream", True),
        _reserved("stream_options", {"include_usage": False}),
        _reserved("n", 2),
        {
            "name": "error-top-logprobs-without-logprobs",
            "description": "provider_options top_logprobs 3 without logprobs=True (the API takes top_logprobs only with logprobs): InvalidRequestError, nothing sent.",
            "method": "generate",
            "model": "gpt-4o-mini",
            "request": {
                "prompt": "What is the meaning of the universe?",
                "provider_options": {"openai": {"top_logprobs": 3}},
            },
            "responses": [],
            "source_dict": _no_io("top_logprobs"),
        },
        {
            "name": "error-temperature-out-of-range",
            "description": "temperature 2.5 (Chat Completions takes 0 to 2): InvalidRequestError, nothing sent.",
            "method": "generate",
            "model": "gpt-4o-mini",
            "request": {"prompt": "Please tell me a story", "temperature": 2.5},
            "responses": [],
            "source_dict": _no_io("temperature"),
        },
        {
            "name": "embed-error-task-type",
            "description": "An embeddings task_type (OpenAI's embeddings take none): InvalidRequestError, nothing sent.",
            "method": "embed",
            "model": "text-embedding-3-small",
            "features": ["embed"],
            "request": {"values": ["hello"], "task_type": "retrieval_query"},
            "responses": [],
            "source_dict": _no_io("task_type", EMBEDDINGS),
        },
        {
            "name": "generate-input-audio-wav",
            "description": "A WAV file part given inline (audio/wav): an input_audio content part with the base64 data and format wav.",
            "method": "generate",
            "model": "gpt-4o-audio-preview",
            "request": {
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {"type": "text", "text": "What is in this recording?"},
                            {"type": "file", "media_type": "audio/wav", "data": WAV},
                        ],
                    }
                ]
            },
            "response": _audio_answer(),
            "source_dict": {
                "mock": True,
                "docs": [f"{CREATE}#chat-create-messages", "https://platform.openai.com/docs/guides/audio"],
                "note": "MOCK: no recording of an input_audio request is in the corpus (tests/corpus/openai); the answer is written in the API reference's chat.completion shape, the WAV is eight silent samples",
            },
        },
    ]
