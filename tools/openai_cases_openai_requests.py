# ruff: noqa: E501  (a data table: long descriptions and corpus file names read better unwrapped)
"""The ``openai`` cases that pin request-side rules: a setting not sent (with its warning), a canonical
value the model names otherwise, an inline PDF, a strict schema compiled to the strict dialect, and
requests refused before any I/O (their cassette is empty: a mapping that sent them fails replay)."""

from __future__ import annotations

from typing import Any

import yaml
from openai_case_data import ADAPTED, CREATE, P, T, no_io, refusal_request
from openai_cases_mistral import penalties_case
from openai_corpus import CORPUS, vcr

PDF = P + "test_openai__test_document_as_binary_content_input.yaml"
TEMPERATURE = P + "test_openai__test_reasoning_model_with_temperature.yaml"
THINKING = P + "test_openai__test_openai_model_thinking_part.yaml"
REFUSED = T + "test_chat_parse__test_parsed_refused_completion.yaml"
CACHE = P + "test_openai_prompt_cache__test_openai_chat_prompt_cache_e2e.yaml"
#: The key the recording's client sent as ``prompt_cache_key`` (pydantic-ai's prompt-cache test).
CACHE_KEY = "pydantic-ai-prompt-cache-e2e-chat"
CACHE_PROMPT = "Reference catalogue for the prompt cache test corpus. Reply OK."


def _no_io(field: str) -> dict[str, Any]:
    """The source of a case no recording is behind: the request never leaves the process."""
    return no_io(f"{CREATE}#chat-create-{field}")


def _recorded_pdf() -> str:
    """The base64 PDF the recording sent (its ``file_data`` data URL, less the prefix)."""
    data = yaml.safe_load((CORPUS / PDF).read_text(encoding="utf-8"))
    part = data["interactions"][0]["request"]["parsed_body"]["messages"][0]["content"][1]
    return str(part["file"]["file_data"]).split(",", 1)[1]


def _cached(
    name: str, description: str, interaction: int, cache: dict[str, Any], note: str
) -> dict[str, Any]:
    """A call of the recorded cached prompt with ``prompt_cache`` set."""
    return {
        "name": name,
        "description": description,
        "method": "generate",
        "model": "gpt-5.6-sol",
        "request": {"prompt": CACHE_PROMPT, "prompt_cache": cache},
        "response": vcr(CACHE, interaction),
        "source": CACHE,
        "source_args": {
            "interaction": interaction,
            "note": "the recorded 4020-token prompt is shortened in the request; the recording also sent "
            "prompt_cache_options (explicit mode, ttl 30m) and a prompt_cache_breakpoint on the text, "
            "which modelport does not send; " + note,
        },
    }


def _refused_file(name: str, description: str, part: dict[str, Any]) -> dict[str, Any]:
    """A user message whose file part Chat Completions cannot carry: refused before any I/O."""
    return {
        "name": name,
        "description": description,
        "method": "generate",
        "model": "gpt-4o",
        "request": {
            "messages": [
                {"role": "user", "content": [{"type": "text", "text": "What is in this file?"}, part]}
            ]
        },
        "responses": [],
        "source_dict": _no_io("messages"),
    }


def _refusals() -> list[dict[str, Any]]:
    """File parts the API cannot take as given, and an embeddings extra_body that would override
    the mapping."""
    return [
        _refused_file(
            "error-audio-by-uri",
            "A WAV file part (audio/x-wav) given by URL: input_audio takes inline data only, InvalidRequestError, nothing sent.",
            {"type": "file", "media_type": "audio/x-wav", "uri": "https://example.com/speech.wav"},
        ),
        _refused_file(
            "error-pdf-by-url",
            "A PDF given by URL (not inline, not an uploaded file id): InvalidRequestError, nothing sent.",
            {"type": "file", "media_type": "application/pdf", "uri": "https://example.com/report.pdf"},
        ),
        _refused_file(
            "error-media-type-not-sendable",
            "A text/csv file part (Chat Completions takes images, WAV/MP3 audio and PDFs): InvalidRequestError, nothing sent.",
            {"type": "file", "media_type": "text/csv", "data": "YSxiCjEsMgo="},
        ),
        _refused_file(
            "error-audio-mp3-by-uri",
            "An MP3 file part (audio/mp3) given by URL: input_audio takes inline data only, InvalidRequestError, nothing sent.",
            {"type": "file", "media_type": "audio/mp3", "uri": "https://example.com/speech.mp3"},
        ),
        {
            "name": "error-tool-result-without-call",
            "description": "A tool result right after a user message (no assistant call it answers): InvalidRequestError, nothing sent.",
            "method": "generate",
            "model": "gpt-4o",
            "request": {
                "messages": [
                    {"role": "user", "content": "What is the capital of the UK?"},
                    {
                        "role": "tool",
                        "content": [
                            {
                                "type": "tool-result",
                                "call_id": "call_1",
                                "name": "get_capital",
                                "output": "London",
                            }
                        ],
                    },
                ]
            },
            "responses": [],
            "source_dict": _no_io("messages"),
        },
        {
            "name": "error-extra-body-reserved-messages",
            "description": "extra_body setting messages (a field the mapping owns): InvalidRequestError, nothing sent.",
            "method": "generate",
            "model": "gpt-4o-mini",
            "request": {
                "prompt": "Hello",
                "provider_options": {
                    "openai": {"extra_body": {"messages": [{"role": "user", "content": "Hi"}]}}
                },
            },
            "responses": [],
            "source_dict": _no_io("messages"),
        },
        {
            "name": "embed-error-extra-body-model",
            "description": "An embeddings extra_body setting model (a field the mapping owns): InvalidRequestError, nothing sent.",
            "method": "embed",
            "model": "text-embedding-3-small",
            "features": ["embed"],
            "request": {
                "values": ["hello"],
                "provider_options": {"openai": {"extra_body": {"model": "text-embedding-3-large"}}},
            },
            "responses": [],
            "source_dict": {
                **_no_io("model"),
                "docs": ["https://platform.openai.com/docs/api-reference/embeddings/create"],
            },
        },
    ]


def request_cases() -> list[dict[str, Any]]:
    """The request-side cases (see the module)."""
    return [
        _cached(
            "generate-prompt-cache-key",
            "prompt_cache with a key: prompt_cache_key sent as given (caching is automatic; the 5m ttl adds nothing); cache_write_tokens 4012.",
            0,
            {"key": CACHE_KEY},
            "the key is the recorded one",
        ),
        _cached(
            "generate-prompt-cache-retention",
            "prompt_cache with a key and a 1h ttl: prompt_cache_key and prompt_cache_retention 24h (the shortest retention over 5 minutes); cached_tokens 4012.",
            1,
            {"key": CACHE_KEY, "ttl": "1h"},
            "the key is the recorded one; prompt_cache_retention 24h is modelport's for a 1h ttl (the recording asked 30m through prompt_cache_options)",
        ),
        *_refusals(),
        {
            "name": "generate-temperature-reasoning-model",
            "description": "temperature on a reasoning model (o3-mini): not sent, an unsupported-setting warning.",
            "method": "generate",
            "model": "o3-mini",
            "features": ["reasoning"],
            "request": {"prompt": "What is the capital of Mexico?", "temperature": 0.5},
            "response": vcr(TEMPERATURE),
            "source": TEMPERATURE,
            "source_args": {
                "note": "the recording's test asked temperature 0.5, which its client left out of the body; stream: false left out"
            },
        },
        {
            "name": "generate-reasoning-effort-max-lowered",
            "description": "reasoning.effort max on o3-mini, whose highest level is high: reasoning_effort high and a warning.",
            "method": "generate",
            "model": "o3-mini",
            "features": ["reasoning"],
            "request": {
                "prompt": "Considering the way to cross the street, analogously, how do I cross the river?",
                "reasoning": {"effort": "max"},
            },
            "response": vcr(THINKING, 1),
            "source": THINKING,
            "source_args": {
                "interaction": 1,
                "note": "the recorded body sent reasoning_effort high, which is what the canonical max is on o3-mini; "
                "the earlier turns of the recorded conversation are left out of the request",
            },
        },
        {
            "name": "generate-pdf-inline",
            "description": "An inline PDF after the text: a file part with a data URL; text answer.",
            "method": "generate",
            "model": "gpt-4o",
            "request": {
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {"type": "text", "text": "What is the main content on this document?"},
                            {"type": "file", "media_type": "application/pdf", "data": _recorded_pdf()},
                        ],
                    }
                ]
            },
            "response": vcr(PDF),
            "source": PDF,
            "source_args": {
                "note": ADAPTED
                + "; the recorded file part is named filename.pdf, modelport names an inline PDF document.pdf"
            },
        },
        {
            "name": "generate-strict-schema-compiled",
            "description": "A strict json_schema given without additionalProperties: sent in the strict dialect (closed objects); a refusal.",
            "method": "generate",
            "model": "gpt-4o",
            "request": refusal_request(closed=False),
            "response": vcr(REFUSED, 2),
            "source": REFUSED,
            "source_args": {
                "interaction": 2,
                "note": "gzip body decompressed; the canonical schema is the pydantic model's, which the recording's "
                "client (the openai SDK's parse helper) sent closed, as the strict mode requires",
            },
        },
        {
            "name": "generate-pdf-file-id",
            "description": "A PDF given as an uploaded file id (file-…): a file part with file_id; text answer.",
            "method": "generate",
            "model": "gpt-4o",
            "request": {
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {"type": "text", "text": "What is the main content on this document?"},
                            {
                                "type": "file",
                                "media_type": "application/pdf",
                                "uri": "file-6F2ksmvXxt4VdoqmHRw6kL",
                            },
                        ],
                    }
                ]
            },
            "response": vcr(PDF),
            "source_dict": {
                "mock": True,
                "docs": [f"{CREATE}#chat-create-messages"],
                "note": "MOCK: no vendored recording sends a PDF by file id (the file id is invented); the "
                "answer is that of the same question with the PDF inline (pydantic/pydantic-ai@"
                "4fda38988f2939fa6ea9cdefcf120693e10ef491, MIT, tests/models/cassettes/test_openai/"
                "test_document_as_binary_content_input.yaml)",
            },
        },
        penalties_case(
            name="generate-penalties-compatible-endpoint",
            description="The openai provider pointed at another Chat Completions server (Mistral's, base_url): presence_penalty 0.5 and frequency_penalty 0.25 sent as given.",
            config={"base_url": "https://api.mistral.ai/v1"},
            source_args={
                "note": "a Mistral recording: no recording of OpenAI's own endpoint with the penalties is vendored; "
                "n: 1 and stream: false left out"
            },
        ),
        {
            "name": "error-top-logprobs-out-of-range",
            "description": "provider_options top_logprobs -1 (the API takes 0 to 20): InvalidRequestError, nothing sent.",
            "method": "generate",
            "model": "gpt-4o-mini",
            "request": {
                "prompt": "What is the meaning of the universe?",
                "provider_options": {"openai": {"logprobs": True, "top_logprobs": -1}},
            },
            "responses": [],
            "source_dict": _no_io("top_logprobs"),
        },
        {
            "name": "error-frequency-penalty-out-of-range",
            "description": "frequency_penalty -2.5 (the API takes -2 to 2): InvalidRequestError, nothing sent.",
            "method": "generate",
            "model": "gpt-4o-mini",
            "request": {"prompt": "Please tell me a story", "frequency_penalty": -2.5},
            "responses": [],
            "source_dict": _no_io("frequency_penalty"),
        },
    ]
