# ruff: noqa: E501  (a data table: long descriptions read better unwrapped)
"""The ``anthropic`` cases of the mapping's edges (issue 35): requests the mapping refuses before any
I/O, and MOCK cases for what the corpus has no recording of.

A **refused** case has no recording and needs none: its request is one the adapter must refuse with
a typed ``InvalidRequestError`` before sending anything, so its cassette holds no interaction (a
request that is sent anyway fails replay: nothing matches it) and ``expected.json`` holds the error
with its message. Each pins a rule of the request mapping that no recorded request reaches: a
reserved body field, the thinking budget a bare ``enabled=True`` stands for, and each model
family's default ``max_tokens`` (the limit a budget must stay under when ``max_output_tokens`` is
unset; its table is the API's models overview).

A **MOCK** case has a response written for it (``source.mock``), in the shape of the API reference
pages it names, because the corpus (tests/corpus/anthropic, see its MANIFEST) has no recording of it.
"""

from __future__ import annotations

import json
from typing import Any

from anthropic_case_kit import user_turn
from anthropic_corpus import JSON_TYPE, Exchange

__all__ = ["edge_cases"]

REFUSED = "no recording: the request is refused before any I/O (InvalidRequestError), so the cassette has no interaction"
MODELS_DOCS = "https://docs.anthropic.com/en/docs/about-claude/models"
THINKING_DOCS = "https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking"
JSON_OUTPUTS_DOCS = "https://platform.claude.com/docs/en/build-with-claude/structured-outputs"
MESSAGES_DOCS = "https://docs.anthropic.com/en/api/messages"

#: The question and schema of pydantic-ai's native-output test (the same test recorded on Bedrock's
#: Converse API: tests/models/bedrock/cassettes/test_native_output/test_bedrock_native_output_supported_model.yaml).
CITY_QUESTION = "What is the capital of France? Give me the city name, country, and population."
CITY_SCHEMA = {
    "type": "object",
    "properties": {
        "city": {"type": "string"},
        "country": {"type": "string"},
        "population": {"type": "integer"},
    },
    "required": ["city", "country", "population"],
    "additionalProperties": False,
}


def _refused(name: str, description: str, model: str, request: dict[str, Any], docs: str) -> dict[str, Any]:
    return {
        "name": name,
        "description": description,
        "method": "generate",
        "model": model,
        "request": request,
        "exchange": None,
        "source": {"docs": [docs], "note": REFUSED},
    }


def _budget_at_default(model: str, limit: int) -> dict[str, Any]:
    """``max_output_tokens`` unset on ``model``: a budget of its family's default ``max_tokens``
    (``limit``) is refused, naming that limit; one below it would be sent with ``max_tokens: limit``."""
    return _refused(
        f"error-budget-at-default-max-tokens-{model}",
        f"max_output_tokens unset: max_tokens is the family default ({limit} for {model}), and a thinking budget of {limit} is not below it: refused, naming the limit.",
        model,
        {"messages": user_turn("Hello"), "reasoning": {"budget_tokens": limit}},
        MODELS_DOCS,
    )


#: The thinking budget each ``reasoning.effort`` stands for on a budget model (the extended-thinking
#: guide's ranges: a budget is below ``max_tokens``, at least 1024).
EFFORT_BUDGETS = {"low": 2048, "medium": 8192, "high": 16384, "max": 32000}
#: The models that take adaptive thinking only (no budget, no ``disabled``: a 400 from the API).
ADAPTIVE_ONLY = (
    "claude-opus-4-7",
    "claude-opus-4-8",
    "claude-opus-5-5",
    "claude-sonnet-5-5",
    "claude-haiku-5-5",
    "claude-mythos",
    "claude-fable",
)
CACHING_DOCS = "https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching"
CITATIONS_DOCS = "https://docs.anthropic.com/en/docs/build-with-claude/citations"


def _effort_at_its_budget(effort: str, budget: int) -> dict[str, Any]:
    """``reasoning.effort`` alone on a budget model, ``max_output_tokens`` equal to the budget the
    effort stands for: the budget is not below ``max_tokens``, refused naming both."""
    return _refused(
        f"error-effort-{effort}-budget-at-max-tokens",
        f"reasoning effort {effort} on a budget model is a thinking budget of {budget}, and max_output_tokens {budget} is not above it: refused, naming both.",
        "claude-sonnet-4-5",
        {"messages": user_turn("Hello"), "max_output_tokens": budget, "reasoning": {"effort": effort}},
        THINKING_DOCS,
    )


def _budget_on_adaptive_only(model: str) -> dict[str, Any]:
    """A thinking budget on a model that thinks adaptively only: refused, naming the model."""
    return _refused(
        f"error-budget-adaptive-only-{model}",
        f"{model} takes adaptive thinking only: a reasoning budget_tokens is refused before the request is sent.",
        model,
        {"messages": user_turn("Hello"), "max_output_tokens": 4096, "reasoning": {"budget_tokens": 2048}},
        THINKING_DOCS,
    )


def _thinking_refusals() -> list[dict[str, Any]]:
    """The reasoning settings a model cannot take: each effort's budget at the limit, a budget under
    the minimum, thinking off on an adaptive-only model or beside an effort, a budget where only
    adaptive thinking is taken."""
    return [
        *(_effort_at_its_budget(effort, budget) for effort, budget in EFFORT_BUDGETS.items()),
        _refused(
            "error-budget-below-minimum",
            "reasoning budget_tokens 1023, one under the API's minimum of 1024: refused, naming the minimum.",
            "claude-sonnet-4-5",
            {"messages": user_turn("Hello"), "max_output_tokens": 4096, "reasoning": {"budget_tokens": 1023}},
            THINKING_DOCS,
        ),
        _refused(
            "error-reasoning-disabled-with-effort",
            "reasoning enabled=False beside an effort: the two contradict each other, refused.",
            "claude-sonnet-4-5",
            {
                "messages": user_turn("Hello"),
                "max_output_tokens": 4096,
                "reasoning": {"enabled": False, "effort": "low"},
            },
            THINKING_DOCS,
        ),
        _refused(
            "error-reasoning-disabled-adaptive-only",
            "reasoning enabled=False on claude-opus-4-7, which cannot turn thinking off (adaptive only): refused.",
            "claude-opus-4-7",
            {"messages": user_turn("Hello"), "max_output_tokens": 4096, "reasoning": {"enabled": False}},
            THINKING_DOCS,
        ),
        *(_budget_on_adaptive_only(model) for model in ADAPTIVE_ONLY),
        _refused(
            "error-structured-output-native-without-json-outputs",
            "structured_output='native' on claude-3-7-sonnet-20250219, which has no JSON outputs: refused (not sent as the answer tool).",
            "claude-3-7-sonnet-20250219",
            {
                "messages": user_turn(CITY_QUESTION),
                "max_output_tokens": 1024,
                "response_format": {"type": "json_schema", "name": "CityInfo", "schema": CITY_SCHEMA},
                "provider_options": {"anthropic": {"structured_output": "native"}},
            },
            JSON_OUTPUTS_DOCS,
        ),
        _refused(
            "error-structured-output-native-without-schema",
            "structured_output='native' with response_format json (no schema): output_config.format needs one, refused.",
            "claude-sonnet-4-5",
            {
                "messages": user_turn(CITY_QUESTION),
                "max_output_tokens": 1024,
                "response_format": {"type": "json"},
                "provider_options": {"anthropic": {"structured_output": "native"}},
            },
            JSON_OUTPUTS_DOCS,
        ),
        *(
            _refused(
                f"error-document-{name}",
                description,
                "claude-sonnet-4-5",
                {
                    "messages": user_turn("Summarize the document."),
                    "max_output_tokens": 1024,
                    "documents": [document],
                },
                CITATIONS_DOCS,
            )
            for name, description, document in (
                (
                    "text-by-url",
                    "A text/plain document by URL: Anthropic fetches only PDFs by URL, refused.",
                    {"type": "file", "media_type": "text/plain", "uri": "https://example.com/notes.txt"},
                ),
                (
                    "media-type",
                    "A text/csv document: a document is a PDF or plain text, refused.",
                    {"type": "file", "media_type": "text/csv", "data": "YSxiCjEsMgo="},
                ),
                (
                    "text-not-utf8",
                    "A text/plain document whose bytes are not UTF-8 (FF FE): refused, not sent garbled.",
                    {"type": "file", "media_type": "text/plain", "data": "//4="},
                ),
            )
        ),
        _refused(
            "error-file-part-media-type",
            "A text/csv file part in a user turn: a message carries images and PDFs, refused before the request is sent.",
            "claude-sonnet-4-5",
            {
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {"type": "text", "text": "Summarize the file."},
                            {"type": "file", "media_type": "text/csv", "data": "YSxiCjEsMgo="},
                        ],
                    }
                ],
                "max_output_tokens": 1024,
            },
            MESSAGES_DOCS,
        ),
        _refused(
            "error-web-fetch-max-content-tokens-zero",
            "anthropic.web_fetch with max_content_tokens 0 (a limit of at least 1 token): refused before the request is sent.",
            "claude-sonnet-4-5",
            {
                "messages": user_turn("What is the first sentence on the page https://ai.pydantic.dev?"),
                "max_output_tokens": 1024,
                "tools": [
                    {
                        "type": "provider",
                        "id": "anthropic.web_fetch",
                        "args": {"version": "web_fetch_20250910", "max_content_tokens": 0},
                    }
                ],
            },
            "https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-fetch-tool",
        ),
        _refused(
            "error-prompt-cache-ttl-24h",
            "prompt_cache ttl 24h: Anthropic caches for 5 minutes or 1 hour, so the request is refused before it is sent.",
            "claude-sonnet-4-5",
            {"messages": user_turn("Hello"), "max_output_tokens": 1024, "prompt_cache": {"ttl": "24h"}},
            CACHING_DOCS,
        ),
    ]


def _json_outputs_answer() -> Exchange:
    """MOCK: a Messages answer to :data:`CITY_QUESTION` under JSON outputs. Its text and token counts
    are Claude's answer to the same request recorded on Bedrock's Converse API (pydantic-ai, MIT,
    named in the case's note); the id is invented."""
    body = {
        "id": "msg_01JsonOutputsMockCityInfo01",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5-20250929",
        "content": [{"type": "text", "text": '{"city":"Paris","country":"France","population":2161000}'}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {
            "input_tokens": 211,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
            "output_tokens": 18,
            "service_tier": "standard",
        },
    }
    return Exchange(None, 200, JSON_TYPE, json.dumps(body))


def edge_cases() -> list[dict[str, Any]]:
    """The refused cases, then the MOCK ones."""
    return [
        _refused(
            "error-extra-body-reserved-stream",
            "extra_body may not set a field the mapping owns (stream): refused before the request is sent.",
            "claude-sonnet-4-5",
            {
                "messages": user_turn("Hello"),
                "max_output_tokens": 1024,
                "provider_options": {"anthropic": {"extra_body": {"stream": True}}},
            },
            MESSAGES_DOCS,
        ),
        _refused(
            "error-reasoning-enabled-budget-above-max-tokens",
            "reasoning enabled=True alone on a budget model is the medium budget (8192), which must be below max_tokens (4096 here): refused, naming both.",
            "claude-sonnet-4-5",
            {"messages": user_turn("Hello"), "max_output_tokens": 4096, "reasoning": {"enabled": True}},
            THINKING_DOCS,
        ),
        _budget_at_default("claude-3-haiku-20240307", 4096),
        _budget_at_default("claude-opus-4-0", 32000),
        _budget_at_default("claude-opus-4-1-20250805", 32000),
        _budget_at_default("claude-opus-4-20250514", 32000),
        _budget_at_default("claude-3-opus-20240229", 4096),
        _budget_at_default("claude-3-5-haiku-20241022", 8192),
        _budget_at_default("claude-3-7-sonnet-20250219", 64000),
        _budget_at_default("claude-opus-4-5", 64000),
        _budget_at_default("claude-sonnet-4-5", 64000),
        _budget_at_default("claude-haiku-4-5", 64000),
        _budget_at_default("claude-2.1", 4096),
        *_thinking_refusals(),
        {
            "name": "generate-json-outputs-native",
            "description": "response_format json_schema on a model with JSON outputs: output_config.format with the schema (no forced tool); the answer is the text.",
            "method": "generate",
            "model": "claude-sonnet-4-5",
            "request": {
                "messages": user_turn(CITY_QUESTION),
                "max_output_tokens": 1024,
                "response_format": {
                    "type": "json_schema",
                    "name": "CityInfo",
                    "description": "Information about a city.",
                    "schema": CITY_SCHEMA,
                },
            },
            "features": ["structured_output"],
            "exchange": _json_outputs_answer(),
            "source": {
                "mock": True,
                "docs": [JSON_OUTPUTS_DOCS],
                "note": "MOCK: the corpus has no first-party recording of output_config.format; the response is written in the Messages shape, its text and token counts are those of the same request answered on Bedrock's Converse API (pydantic/pydantic-ai@4fda38988f2939fa6ea9cdefcf120693e10ef491, MIT, tests/models/bedrock/cassettes/test_native_output/test_bedrock_native_output_supported_model.yaml), its id invented",
            },
        },
    ]
