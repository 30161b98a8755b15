# ruff: noqa: E501  (a data table: long descriptions and corpus file names read better unwrapped)
"""Google conformance cases for requests the adapter refuses before any I/O, and for settings the
recorded requests did not use.

A refused case (``response: None``) has a cassette with no interaction: the adapter must raise a
typed error without sending anything, so an adapter that stopped validating sends a request the
cassette does not expect and fails the ``request`` check (not only ``expected.json``). Such a case
has no recording to attribute: its ``source`` is :func:`gemini_corpus.documented`, naming the
reference page whose rule the request breaks.
"""

from __future__ import annotations

import json
from typing import Any

from gemini_corpus import documented, mock_json, mock_sse
from google_case_data import ADAPTED, CODE, DUMMY_TOOL, NO_RECORDING, SEARCH, P, _response
from google_cases_calls import THINKING_DOCS, budget_zero_case, edited_call_case, server_call_case

GENERATION_CONFIG_DOCS = ["https://ai.google.dev/api/generate-content#generationconfig"]
SEARCH_DOCS = ["https://ai.google.dev/api/caching#GoogleSearch"]
CONTENT_DOCS = ["https://ai.google.dev/api/caching#Content"]
REFUSED = "no HTTP exchange: the request is refused before any I/O (the cassette has no interaction); {what}"
THINKING_PART = "tests__models__cassettes__test_google__test_google_model_thinking_part.yaml"
#: A gemini-2.0-flash code-execution answer whose text parts stand between executableCode parts.
CODE_HISTORY = "tests__models__cassettes__test_anthropic__test_anthropic_server_tool_receive_history_from_another_provider.yaml"
IMAGE_DOCS = [
    "https://ai.google.dev/gemini-api/docs/image-understanding",
    "https://ai.google.dev/api/caching#Blob",
    "https://ai.google.dev/api/caching#FileData",
]
#: A 1x1 PNG, base64 (the bytes of a file part given inline).
PIXEL_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
LOGPROBS_DOCS = [
    "https://ai.google.dev/api/generate-content#generationconfig",
    "https://ai.google.dev/api/generate-content#LogprobsResult",
]
EDITED_TEXT = "I apologize for the error in the previous response. [edited by the user]"


def _refused(what: str, docs: list[str]) -> dict[str, Any]:
    return documented(REFUSED.format(what=what), docs)


def refused_cases() -> list[dict[str, Any]]:
    return [
        {
            "name": "refused-max-output-tokens-over-int32",
            "description": "max_output_tokens 2**31 is over the int32 field maxOutputTokens: a typed "
            "InvalidRequestError, nothing sent.",
            "method": "generate",
            "model": "gemini-2.5-flash",
            "requirements": ["G3"],
            "request": {"prompt": "Hello", "max_output_tokens": 2147483648},
            "response": None,
            "source": _refused(
                "maxOutputTokens is an int32 field of GenerationConfig", GENERATION_CONFIG_DOCS
            ),
        },
        {
            "name": "refused-documents",
            "description": "Request documents (contract 2.3): generateContent has no documents to cite "
            "(Capabilities.documents is false), so the core refuses them with a typed "
            "InvalidRequestError naming the setting, nothing sent.",
            "method": "generate",
            "model": "gemini-2.5-flash",
            "requirements": ["C2", "C6"],
            "request": {
                "prompt": "What color is the sky?",
                "documents": [{"type": "text", "text": "The sky is blue.", "title": "Sky"}],
            },
            "response": None,
            "source": _refused(
                "a GenerateContentRequest has contents, tools and config, no documents to cite",
                ["https://ai.google.dev/api/generate-content#request-body"],
            ),
        },
        {
            "name": "refused-seed-over-int32",
            "description": "seed 2**31 is over the int32 field seed: a typed InvalidRequestError, nothing sent.",
            "method": "generate",
            "model": "gemini-2.5-flash",
            "requirements": ["G3"],
            "request": {"prompt": "Hello", "seed": 2147483648},
            "response": None,
            "source": _refused("seed is an int32 field of GenerationConfig", GENERATION_CONFIG_DOCS),
        },
        {
            "name": "refused-seed-under-int32",
            "description": "seed -2**31 - 1 is under the int32 field seed: a typed InvalidRequestError, nothing sent.",
            "method": "generate",
            "model": "gemini-2.5-flash",
            "requirements": ["G3"],
            "request": {"prompt": "Hello", "seed": -2147483649},
            "response": None,
            "source": _refused("seed is an int32 field of GenerationConfig", GENERATION_CONFIG_DOCS),
        },
        {
            "name": "refused-thinking-budget-option-with-effort-gemini3",
            "description": "On Gemini 3 reasoning.effort is a thinkingLevel; a thinking_budget provider "
            "option beside it would send a level and a budget at once: refused, nothing sent.",
            "method": "generate",
            "model": "gemini-3-pro-preview",
            "requirements": ["G4"],
            "features": ["reasoning"],
            "request": {
                "prompt": "Hello",
                "reasoning": {"effort": "high"},
                "provider_options": {"google": {"thinking_budget": 1024}},
            },
            "response": None,
            "source": _refused("thinkingLevel and thinkingBudget cannot be set together", THINKING_DOCS),
        },
        {
            "name": "refused-time-range-not-ordered",
            "description": "googleSearch timeRangeFilter whose start (01:00:00.2Z) is after its end "
            "(06:00:00.123456789+05:00, i.e. 01:00:00.123456789Z): the offset and the nanoseconds decide, "
            "a typed error, nothing sent.",
            "method": "generate",
            "model": "gemini-2.5-flash",
            "requirements": ["S1"],
            "features": ["provider_tools"],
            "request": {
                "prompt": "What happened today?",
                "tools": [
                    {
                        **SEARCH,
                        "args": {
                            "timeRangeFilter": {
                                "startTime": "2025-01-01T01:00:00.2Z",
                                "endTime": "2025-01-01T06:00:00.123456789+05:00",
                            }
                        },
                    }
                ],
            },
            "response": None,
            "source": _refused(
                "timeRangeFilter is an Interval: its start must be before its end", SEARCH_DOCS
            ),
        },
        {
            "name": "refused-replay-parts-not-objects",
            "description": "An assistant turn whose provider_metadata google.parts holds a string, not "
            "Gemini parts: a typed InvalidRequestError naming the field, nothing sent.",
            "method": "generate",
            "model": "gemini-2.5-flash",
            "requirements": ["G5"],
            "request": {
                "messages": [
                    {"role": "user", "content": "Hello"},
                    {
                        "role": "assistant",
                        "content": "Hi!",
                        "provider_metadata": {"google": {"parts": ["Hi!"]}},
                    },
                    {"role": "user", "content": "How are you?"},
                ]
            },
            "response": None,
            "source": _refused("Content.parts is a list of Part objects", CONTENT_DOCS),
        },
    ]


def _code_turn() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The recorded gemini-2.0-flash answer's raw parts, and the assistant message a caller sends
    back for it with its first text edited (code execution parts as ``Result.message`` holds them)."""
    _, text = _response(CODE_HISTORY)[1:]
    parts = json.loads(text)["candidates"][0]["content"]["parts"]
    content: list[dict[str, Any]] = []
    edited = False
    for position, raw in enumerate(parts):
        if "executableCode" in raw:
            code = raw["executableCode"]
            content.append(
                {
                    "type": "tool-call",
                    "id": f"code-{position}",
                    "name": "code_execution",
                    "args": {"language": code["language"], "code": code["code"]},
                    "provider_executed": True,
                }
            )
        elif "codeExecutionResult" in raw:
            result = raw["codeExecutionResult"]
            content.append(
                {
                    "type": "tool-result",
                    "call_id": f"code-{position - 1}",
                    "name": "code_execution",
                    "output": {"outcome": result["outcome"], "output": result["output"]},
                    "provider_executed": True,
                }
            )
        else:
            content.append({"type": "text", "text": raw["text"] if edited else EDITED_TEXT})
            edited = True
    message = {
        "role": "assistant",
        "content": content,
        "provider_metadata": {"google": {"parts": parts}},
        "origin": {"provider": "google", "api": "generate-content", "model": "gemini-2.0-flash"},
    }
    return parts, message


def _edited_code_case() -> dict[str, Any]:
    parts, message = _code_turn()
    texts = [p for p in message["content"] if p["type"] == "text"]
    # The SPEC's rule for an edited turn: the message's text of a segment (between function calls;
    # server-executed code does not end one) is sent, unsigned, where the segment's first raw text
    # part stood; the other raw parts are sent as they are.
    sent: list[dict[str, Any]] = []
    for raw in parts:
        if "text" not in raw:
            sent.append(raw)
        elif texts:
            sent.extend({"text": t["text"]} for t in texts)
            texts = []
    prompt, follow_up = "How much is 3 * 12390?", "Please answer without the tool."
    return {
        "name": "generate-edited-code-execution-history",
        "description": "An assistant turn with code execution, its first text edited by the caller: the "
        "edited text goes where the first raw text part stood (before the later executableCode parts), "
        "the code parts are sent as recorded, and a warning names the message.",
        "method": "generate",
        "model": "gemini-2.0-flash",
        "requirements": ["G5", "G16"],
        "features": ["provider_tools"],
        "request": {
            "messages": [
                {"role": "user", "content": prompt},
                message,
                {"role": "user", "content": follow_up},
            ],
            "tools": [CODE],
        },
        "wire": {
            "contents": [
                {"role": "user", "parts": [{"text": prompt}]},
                {"role": "model", "parts": sent},
                {"role": "user", "parts": [{"text": follow_up}]},
            ],
            "tools": [{"codeExecution": {}}],
        },
        "response": _response(CODE_HISTORY),
        "source": P + CODE_HISTORY,
        "source_args": {
            "interaction": 0,
            "note": "the history is the recording's Gemini answer (its first text edited for this case) and "
            "the response is that same recorded answer: the recording has no second Gemini turn",
        },
    }


def _top(*pairs: tuple[str, float]) -> dict[str, Any]:
    return {"candidates": [{"token": t, "logProbability": p} for t, p in pairs]}


def _logprobs_frames() -> list[dict[str, Any]]:
    """A two-frame stream with ``logprobsResult`` on each frame (the chosen tokens and two top
    candidates per position), the last with ``avgLogprobs`` and the finish reason."""
    common = {"modelVersion": "gemini-2.0-flash", "responseId": "mock-logprobs-1"}
    return [
        {
            "candidates": [
                {
                    "content": {"role": "model", "parts": [{"text": "Hello"}]},
                    "index": 0,
                    "logprobsResult": {
                        "topCandidates": [_top(("Hello", -0.01), ("Hi", -4.7))],
                        "chosenCandidates": [{"token": "Hello", "logProbability": -0.01}],
                    },
                }
            ],
            "usageMetadata": {"promptTokenCount": 4, "totalTokenCount": 4},
            **common,
        },
        {
            "candidates": [
                {
                    "content": {"role": "model", "parts": [{"text": " there!"}]},
                    "finishReason": "STOP",
                    "index": 0,
                    "avgLogprobs": -0.05,
                    "logprobsResult": {
                        "topCandidates": [
                            _top((" there", -0.1), (" world", -2.5)),
                            _top(("!", -0.04), (".", -3.3)),
                        ],
                        "chosenCandidates": [
                            {"token": " there", "logProbability": -0.1},
                            {"token": "!", "logProbability": -0.04},
                        ],
                    },
                }
            ],
            "usageMetadata": {"promptTokenCount": 4, "candidatesTokenCount": 3, "totalTokenCount": 7},
            **common,
        },
    ]


def setting_cases() -> list[dict[str, Any]]:
    return [
        budget_zero_case(),
        edited_call_case(),
        server_call_case(),
        {
            "name": "stream-logprobs",
            "description": "response_logprobs + logprobs options → generationConfig responseLogprobs and "
            "logprobs; each frame's logprobsResult is accumulated into the result's per-token logprobs "
            "(and the merged answer's logprobsResult).",
            "method": "stream",
            "model": "gemini-2.0-flash",
            "requirements": ["G3", "G9"],
            "request": {
                "prompt": "Say hello.",
                "provider_options": {"google": {"response_logprobs": True, "logprobs": 2}},
            },
            "response": mock_sse(_logprobs_frames()),
            "source": documented(NO_RECORDING.format(what="a call with responseLogprobs"), LOGPROBS_DOCS),
        },
        _edited_code_case(),
        {
            "name": "generate-inline-image-and-file-uri",
            "description": "A user turn with text, an inline PNG (inlineData: mimeType + base64 data) and "
            "a file by URI (fileData: mimeType + fileUri), in order.",
            "method": "generate",
            "model": "gemini-2.5-flash",
            "requirements": ["G3"],
            "request": {
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {"type": "text", "text": "Describe the image, then summarise the PDF."},
                            {"type": "file", "media_type": "image/png", "data": PIXEL_PNG},
                            {
                                "type": "file",
                                "media_type": "application/pdf",
                                "uri": "https://generativelanguage.googleapis.com/v1beta/files/mock-pdf-1",
                            },
                        ],
                    }
                ]
            },
            "response": mock_json(
                {
                    "candidates": [
                        {
                            "content": {
                                "role": "model",
                                "parts": [
                                    {"text": "The image is a single pixel. The PDF is a one-page letter."}
                                ],
                            },
                            "finishReason": "STOP",
                            "index": 0,
                        }
                    ],
                    "usageMetadata": {
                        "promptTokenCount": 529,
                        "candidatesTokenCount": 14,
                        "totalTokenCount": 543,
                        "promptTokensDetails": [
                            {"modality": "TEXT", "tokenCount": 13},
                            {"modality": "IMAGE", "tokenCount": 258},
                            {"modality": "DOCUMENT", "tokenCount": 258},
                        ],
                    },
                    "modelVersion": "gemini-2.5-flash",
                    "responseId": "mock-inline-image-1",
                }
            ),
            "source": documented(
                NO_RECORDING.format(what="a request with an image or a file part"), IMAGE_DOCS
            ),
        },
        {
            "name": "generate-thinking-effort-max-gemini3",
            "description": "reasoning.effort max on Gemini 3 → thinkingLevel HIGH (its highest level) + "
            "includeThoughts; a thought summary then the answer.",
            "method": "generate",
            "model": "gemini-3-pro-preview",
            "requirements": ["G4", "G5"],
            "features": ["reasoning", "function_tools"],
            "request": {
                "system": "You are a helpful assistant.",
                "prompt": "How do I cross the street?",
                "reasoning": {"effort": "max"},
                "tools": [DUMMY_TOOL],
            },
            "response": _response(THINKING_PART),
            "source": P + THINKING_PART,
            "source_args": {
                "interaction": 0,
                "note": ADAPTED + "; the recording asked for thoughts at the default level, which is "
                "HIGH on gemini-3-pro-preview: effort max is that level",
            },
        },
    ]
