# ruff: noqa: E501  (a data table: long descriptions and response texts read better unwrapped)
"""MOCK Google cases (issue 13): token counting, streamed function-call arguments and a malformed
function call.

The corpus (tests/corpus/gemini, see its MANIFEST) has no recording of ``:countTokens`` traffic, of
streamed call arguments (``partialArgs``) or of a ``MALFORMED_FUNCTION_CALL`` finish, so these responses are written here, in the shape of
Google's REST references (``source.docs`` of each case names the pages), with invented but
realistic values: every token count below is made up. The Maps and enterprise web grounding MOCK
cases are in google_cases_mock_grounding.
"""

from __future__ import annotations

from typing import Any

from gemini_corpus import documented, mock_json, mock_sse
from google_case_data import NO_RECORDING, WEATHER_TOOL, _text_tokens

GEMINI_COUNT_DOCS = ["https://ai.google.dev/api/tokens#method:-models.counttokens"]
VERTEX_COUNT_DOCS = [
    "https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/projects.locations.publishers.models/countTokens"
]

CACHE = "cachedContents/7lf5him5ev4iemi1yjv2gwli5bhpz3yidzejwllo"

VERTEX_COUNT_SYSTEM = "You are a concise assistant."
VERTEX_COUNT_PROMPT = "Summarize the plot of Hamlet in two sentences."
#: Vertex AI bills characters without whitespace.
VERTEX_BILLABLE = sum(not c.isspace() for c in VERTEX_COUNT_SYSTEM + VERTEX_COUNT_PROMPT)


def _count_cases() -> list[dict[str, Any]]:
    return [
        {
            "name": "count-tokens-text",
            "description": "count_tokens → :countTokens with the generateContentRequest (model + contents); totalTokens → input tokens, promptTokensDetails kept as provider metadata.",
            "method": "count_tokens",
            "model": "gemini-2.5-flash",
            "requirements": ["R4", "G3"],
            "request": {"prompt": "The quick brown fox jumps over the lazy dog."},
            "response": mock_json({"totalTokens": 10, "promptTokensDetails": _text_tokens(10)}),
            "source": documented(NO_RECORDING.format(what=":countTokens traffic"), GEMINI_COUNT_DOCS),
        },
        {
            "name": "count-tokens-system-function-tool",
            "description": "count_tokens counts the whole generation request: systemInstruction, functionDeclarations, toolConfig and generationConfig go into generateContentRequest; the user_id label does not (GenerateContentRequest has no labels).",
            "method": "count_tokens",
            "model": "gemini-2.5-flash",
            "requirements": ["R4", "G3", "G12"],
            "features": ["function_tools"],
            "request": {
                "system": "You are a weather assistant. Answer in one sentence.",
                "prompt": "What is the weather in Boston on 2025-01-10?",
                "tools": [WEATHER_TOOL],
                "tool_choice": {"type": "tool", "name": "fetchWeather"},
                "temperature": 0.2,
                "user_id": "user-123",
            },
            "response": mock_json({"totalTokens": 83, "promptTokensDetails": _text_tokens(83)}),
            "source": documented(NO_RECORDING.format(what=":countTokens traffic"), GEMINI_COUNT_DOCS),
        },
        {
            "name": "count-tokens-cached-content",
            "description": "cached_content option → generateContentRequest.cachedContent; cachedContentTokenCount → cached input tokens (part of totalTokens); cacheTokensDetails kept.",
            "method": "count_tokens",
            "model": "gemini-2.5-flash",
            "requirements": ["R4", "G6"],
            "request": {
                "prompt": "What is the capital of France?",
                "provider_options": {"google": {"cached_content": CACHE}},
            },
            "response": mock_json(
                {
                    "totalTokens": 3135,
                    "cachedContentTokenCount": 3127,
                    "promptTokensDetails": _text_tokens(3135),
                    "cacheTokensDetails": _text_tokens(3127),
                }
            ),
            "source": documented(NO_RECORDING.format(what=":countTokens traffic"), GEMINI_COUNT_DOCS),
        },
    ]


def _vertex_count_cases() -> list[dict[str, Any]]:
    return [
        {
            "name": "vertex-count-tokens",
            "description": "Vertex AI :countTokens: contents, systemInstruction and generationConfig at the top level (no model wrapper, no labels); totalBillableCharacters and promptTokensDetails kept as provider metadata.",
            "method": "count_tokens",
            "model": "gemini-2.5-flash",
            "requirements": ["R4", "G2", "G3"],
            "request": {
                "system": VERTEX_COUNT_SYSTEM,
                "prompt": VERTEX_COUNT_PROMPT,
                "max_output_tokens": 128,
                "temperature": 0.3,
                "user_id": "user-123",
            },
            "response": mock_json(
                {
                    "totalTokens": 17,
                    "totalBillableCharacters": VERTEX_BILLABLE,
                    "promptTokensDetails": _text_tokens(17),
                }
            ),
            "source": documented(
                NO_RECORDING.format(what="Vertex AI :countTokens traffic"), VERTEX_COUNT_DOCS
            ),
        },
    ]


# --------------------------------------------------------------------------- streamed call arguments

PARTIAL_ARGS_DOCS = [
    "https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/Content#FunctionCall",
    "https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/Content#PartialArg",
    "https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/ToolConfig#FunctionCallingConfig",
]


def _call_piece(entries: list[dict[str, Any]], *, more: bool, **call: Any) -> dict[str, Any]:
    body: dict[str, Any] = {**call, "partialArgs": entries}
    if more:
        body["willContinue"] = True
    return {"functionCall": body}


def _partial_args_frames() -> list[dict[str, Any]]:
    """A Gemini 3 call whose arguments stream: name and signature first, a string in two pieces,
    a nested object, then the end of the call and the finish."""

    def frame(part: dict[str, Any], **extra: Any) -> dict[str, Any]:
        candidate = {"content": {"role": "model", "parts": [part]}, "index": 0, **extra}
        return {"candidates": [candidate], "modelVersion": "gemini-3-pro-preview", "responseId": "pArGs-9xQ"}

    sig = "CiQBjz1rX2Zv6mVv0QmKx4r0dQ1c3m1pZ1cpR0tQb2NrZXQ="
    return [
        frame({**_call_piece([], more=True, name="fetchWeather"), "thoughtSignature": sig}),
        frame(
            _call_piece(
                [{"jsonPath": "$.location.city", "stringValue": "San ", "willContinue": True}], more=True
            )
        ),
        frame(_call_piece([{"jsonPath": "$.location.city", "stringValue": "Francisco"}], more=True)),
        frame(_call_piece([{"jsonPath": "$.location.country", "stringValue": "US"}], more=True)),
        frame(_call_piece([{"jsonPath": "$.date", "stringValue": "2025-06-01"}], more=False)),
        {
            **frame({"text": ""}, finishReason="STOP"),
            "usageMetadata": {"promptTokenCount": 61, "candidatesTokenCount": 24, "totalTokenCount": 85},
        },
    ]


def _partial_args_case() -> dict[str, Any]:
    return {
        "name": "stream-partial-args-gemini3",
        "description": "Gemini 3 with streamFunctionCallArguments (Vertex AI): one call arrives as functionCall pieces with partialArgs (jsonPath + stringValue, a string continued by willContinue) → tool-call-start, one JSON-text delta per piece, tool-call-end with the whole call; merged into one functionCall part for replay.",
        "method": "stream",
        "model": "gemini-3-pro-preview",
        "requirements": ["C4", "G12"],
        "features": ["tools"],
        "request": {
            "prompt": "What will the weather be in San Francisco on June 1st 2025?",
            "tools": [WEATHER_TOOL],
            "provider_options": {
                "google": {"tool_config": {"functionCallingConfig": {"streamFunctionCallArguments": True}}}
            },
        },
        "response": mock_sse(_partial_args_frames()),
        "source": documented(
            NO_RECORDING.format(what="streamed function-call arguments (partialArgs)"), PARTIAL_ARGS_DOCS
        ),
    }


FINISH_DOCS = [
    "https://ai.google.dev/api/generate-content#FinishReason",
    "https://ai.google.dev/api/generate-content#candidate",
]


def _malformed_call_case() -> dict[str, Any]:
    return {
        "name": "generate-malformed-function-call",
        "description": "A candidate ending with finishReason MALFORMED_FUNCTION_CALL and no content (the model produced a call that did not parse): finish_reason error, the raw reason kept.",
        "method": "generate",
        "model": "gemini-2.5-flash",
        "requirements": ["G13"],
        "features": ["tools"],
        "request": {"prompt": "What is the weather in Paris tomorrow?", "tools": [WEATHER_TOOL]},
        "response": mock_json(
            {
                "candidates": [{"finishReason": "MALFORMED_FUNCTION_CALL", "index": 0}],
                "usageMetadata": {
                    "promptTokenCount": 41,
                    "totalTokenCount": 41,
                    "promptTokensDetails": _text_tokens(41),
                },
                "modelVersion": "gemini-2.5-flash",
                "responseId": "mock-malformed-call-1",
            }
        ),
        "source": documented(NO_RECORDING.format(what="a MALFORMED_FUNCTION_CALL finish"), FINISH_DOCS),
    }


COUNT_CASES = _count_cases()
FINISH_CASES = [_malformed_call_case()]
VERTEX_COUNT_CASES = _vertex_count_cases()
PARTIAL_ARGS_CASE = _partial_args_case()
