# ruff: noqa: E501  (a data table: long descriptions and corpus file names read better unwrapped)
"""Google conformance cases for the request mapping, thinking and thought signatures.

Requests reproduce the recorded call's intent; ``note`` in ``source_args`` says where the request
is reconstructed (body-only recordings have no request at all).
"""

from __future__ import annotations

import json
from typing import Any

from gemini_corpus import chunks, raw_json, raw_sse, vcr_interaction
from google_case_data import (
    ADAPTED,
    COUNTRY_TOOL,
    DUMMY_TOOL,
    RECONSTRUCTED,
    WEATHER_TOOL,
    F,
    P,
    V,
    _response,
)

SIGNED = "tests__models__cassettes__test_google__test_google_streaming_tool_call_thought_signature.yaml"


def _signed_call_turn() -> dict[str, Any]:
    """Turn 1 of the signed-tool-call recording, as ``Result.message`` returns it for turn 2
    (with the origin it records: the model called)."""
    _, (_, _, text) = vcr_interaction(P + SIGNED, 0)
    parts: list[dict[str, Any]] = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        if block.startswith("data: "):
            frame = json.loads(block[6:])
            parts += frame["candidates"][0].get("content", {}).get("parts", [])
    calls = [p for p in parts if "functionCall" in p]
    return {
        "role": "assistant",
        "content": [
            {
                "type": "tool-call",
                "id": f"call-{parts.index(c)}",
                "name": c["functionCall"]["name"],
                "args": {},
            }
            for c in calls
        ],
        "provider_metadata": {"google": {"parts": parts}},
        "origin": {"provider": "google", "api": "generate-content", "model": "gemini-3-pro-preview"},
    }


def request_cases() -> list[dict[str, Any]]:
    return [
        # ---------------------------------------------------------------- request mapping, basics
        {
            "name": "generate-max-tokens-empty-candidate",
            "description": "System instruction + maxOutputTokens; thinking model stops with MAX_TOKENS and no parts.",
            "method": "generate",
            "model": "gemini-2.5-pro",
            "requirements": ["G3", "G13", "G14", "G15"],
            "request": {
                "system": "You are a helpful chatbot.",
                "prompt": "What is the capital of France?",
                "max_output_tokens": 5,
            },
            "response": _response(
                "tests__models__cassettes__test_google__test_google_model_max_tokens_thinking_model_empty_response.yaml"
            ),
            "source": P
            + "tests__models__cassettes__test_google__test_google_model_max_tokens_thinking_model_empty_response.yaml",
            "source_args": {"interaction": 0, "note": ADAPTED},
        },
        {
            "name": "generate-all-sampling-settings-safety-finish",
            "description": "Every generationConfig knob (G3) plus penalties dropped with warnings (G11); "
            "the answer is cut by SAFETY with partial text.",
            "method": "generate",
            "model": "gemini-2.0-flash",
            "requirements": ["G3", "G11", "G13"],
            "request": {
                "prompt": "Write a short story.",
                "max_output_tokens": 256,
                "temperature": 0.4,
                "top_p": 0.9,
                "top_k": 20,
                "stop_sequences": ["THE END"],
                "seed": 42,
                "presence_penalty": 0.5,
                "frequency_penalty": 0.25,
            },
            "response": raw_json(F + "googleai__unary-failure-finish-reason-safety.json", 200),
            "source": F + "googleai__unary-failure-finish-reason-safety.json",
            "source_args": {"note": RECONSTRUCTED},
        },
        {
            "name": "generate-safety-settings-blocked",
            "description": "safety_settings provider option → safetySettings; content {} with finishReason SAFETY.",
            "method": "generate",
            "model": "gemini-1.5-flash",
            "requirements": ["G7", "G13", "G14"],
            "request": {
                "system": "You hate the world!",
                "prompt": "Tell me a joke about a Brazilians.",
                "provider_options": {
                    "google": {
                        "safety_settings": [
                            {"category": "HARM_CATEGORY_HATE_SPEECH", "threshold": "BLOCK_LOW_AND_ABOVE"}
                        ]
                    }
                },
            },
            "response": _response(
                "tests__models__cassettes__test_google__test_google_model_safety_settings.yaml"
            ),
            "source": P + "tests__models__cassettes__test_google__test_google_model_safety_settings.yaml",
            "source_args": {"interaction": 0, "note": ADAPTED},
        },
        {
            "name": "generate-cached-content",
            "description": "cached_content provider option → cachedContent; cachedContentTokenCount → cache reads.",
            "method": "generate",
            "model": "gemini-2.5-flash",
            "requirements": ["G6", "G15"],
            "request": {
                "prompt": "What is the capital of France?",
                "provider_options": {
                    "google": {"cached_content": "cachedContents/7lf5him5ev4iemi1yjv2gwli5bhpz3yidzejwllo"}
                },
            },
            "response": _response(
                "tests__models__google__cassettes__test_cache__test_google_model_cached_content.yaml", 1
            ),
            "source": P
            + "tests__models__google__cassettes__test_cache__test_google_model_cached_content.yaml",
            "source_args": {"interaction": 1, "note": ADAPTED},
        },
        {
            "name": "stream-json-schema-labels-options",
            "description": "json_schema → responseMimeType + responseJsonSchema (G8), user_id → labels (G10), "
            "generation_config option replaces generationConfig but keeps the schema keys (G8, G9); the answer '4' is valid JSON; empty signed text part.",
            "method": "stream",
            "model": "gemini-3-flash-preview",
            "requirements": ["G8", "G9", "G10", "G5", "G14"],
            "features": ["structured_output"],
            "request": {
                "prompt": "What is 2 + 2? Answer with a number.",
                "response_format": {"type": "json_schema", "schema": {"type": "integer"}, "name": "answer"},
                "user_id": "user-123",
                "provider_options": {
                    "google": {"generation_config": {"temperature": 0.1, "responseMimeType": "text/plain"}}
                },
            },
            "response": chunks(V + "issue-18073-empty-text-thought-signature.chunks.txt"),
            "source": V + "issue-18073-empty-text-thought-signature.chunks.txt",
            "source_args": {"commit": "a922c69ba24a1672c2e507bbabd1031f01e16c98", "note": RECONSTRUCTED},
        },
        {
            "name": "stream-text-gemini3-request-labels",
            "description": "Plain text stream; request_labels win over user_id (G10); signature on the final "
            "empty text part (G5).",
            "method": "stream",
            "model": "gemini-3-pro-preview",
            "requirements": ["G3", "G5", "G10", "G15"],
            "request": {
                "prompt": "Tell me a short fact.",
                "user_id": "user-123",
                "request_labels": {"team": "docs"},
            },
            "response": chunks(V + "google-text.chunks.txt"),
            "source": V + "google-text.chunks.txt",
            "source_args": {"note": RECONSTRUCTED},
        },
        # ---------------------------------------------------------------- thinking and signatures
        {
            "name": "stream-thinking-effort-high",
            "description": "reasoning.effort high → thinkingBudget 8192 + includeThoughts; 4 thought frames "
            "then text whose first frame carries a signature.",
            "method": "stream",
            "model": "gemini-2.5-pro",
            "requirements": ["G4", "G5", "G3"],
            "features": ["reasoning", "function_tools"],
            "request": {
                "system": "You are a helpful assistant.",
                "prompt": "How do I cross the street?",
                "reasoning": {"effort": "high"},
                "tools": [DUMMY_TOOL],
            },
            "response": _response(
                "tests__models__cassettes__test_google__test_google_model_thinking_part_iter.yaml"
            ),
            "source": P + "tests__models__cassettes__test_google__test_google_model_thinking_part_iter.yaml",
            "source_args": {"interaction": 0, "note": ADAPTED},
        },
        {
            "name": "stream-thinking-reply-summary",
            "description": "Thought-summary frames without candidatesTokenCount, then the answer.",
            "method": "stream",
            "model": "gemini-2.5-flash",
            "requirements": ["G4", "G14", "G15"],
            "features": ["reasoning"],
            "request": {"prompt": "Why is the sky blue?", "reasoning": {"effort": "medium"}},
            "response": raw_sse(F + "googleai__streaming-success-thinking-reply-thought-summary.txt"),
            "source": F + "googleai__streaming-success-thinking-reply-thought-summary.txt",
            "source_args": {"note": RECONSTRUCTED},
        },
        {
            "name": "generate-thinking-budget-one-tool",
            "description": "budget_tokens → thinkingBudget; tool_choice one tool → ANY + allowedFunctionNames; "
            "thought part then a signed functionCall (finish tool-calls).",
            "method": "generate",
            "model": "gemini-2.5-pro",
            "requirements": ["G4", "G5", "G12", "G13"],
            "features": ["reasoning", "function_tools"],
            "request": {
                "prompt": "What is the weather in Boston on 2025-01-10?",
                "reasoning": {"budget_tokens": 1024},
                "tools": [WEATHER_TOOL],
                "tool_choice": {"type": "tool", "name": "fetchWeather"},
            },
            "response": raw_json(
                F + "googleai__unary-success-thinking-function-call-thought-summary-signature.json"
            ),
            "source": F + "googleai__unary-success-thinking-function-call-thought-summary-signature.json",
            "source_args": {"note": RECONSTRUCTED},
        },
        {
            "name": "stream-thinking-function-call-required",
            "description": "tool_choice required → ANY; thought frames then a signed functionCall with finishReason "
            "in the same frame.",
            "method": "stream",
            "model": "gemini-2.5-flash",
            "requirements": ["G4", "G5", "G12", "G13"],
            "features": ["reasoning", "function_tools"],
            "request": {
                "prompt": "What is the weather in Boston on 2025-01-10?",
                "reasoning": {"effort": "low"},
                "tools": [WEATHER_TOOL],
                "tool_choice": "required",
            },
            "response": raw_sse(
                F + "googleai__streaming-success-thinking-function-call-thought-summary-signature.txt"
            ),
            "source": F + "googleai__streaming-success-thinking-function-call-thought-summary-signature.txt",
            "source_args": {"note": RECONSTRUCTED},
        },
        {
            "name": "stream-tool-call-gemini3-auto",
            "description": "tool_choice auto → AUTO; Gemini 3 streamed functionCall with a signature.",
            "method": "stream",
            "model": "gemini-3-pro-preview",
            "requirements": ["G5", "G12", "G13"],
            "features": ["function_tools"],
            "request": {
                "prompt": "What is the weather in Boston?",
                "tools": [WEATHER_TOOL],
                "tool_choice": "auto",
            },
            "response": chunks(V + "google-tool-call-gemini3.chunks.txt"),
            "source": V + "google-tool-call-gemini3.chunks.txt",
            "source_args": {"note": RECONSTRUCTED},
        },
        {
            "name": "stream-text-then-call-with-id",
            "description": "Unsigned text frame, then a functionCall with an id and a signature, then an empty "
            "final frame (Gemini 3.1 sends call ids).",
            "method": "stream",
            "model": "gemini-3.1-pro-preview",
            "requirements": ["G5", "G13", "G14"],
            "features": ["function_tools"],
            "request": {
                "prompt": "What is the weather in Boston?",
                "tools": [WEATHER_TOOL],
                "tool_choice": "none",
            },
            "response": chunks(V + "issue-10781.1.chunks.txt"),
            "source": V + "issue-10781.1.chunks.txt",
            "source_args": {"commit": "1eb691e138c6bfef8955eb653db4e473ec803c98", "note": RECONSTRUCTED},
        },
        {
            "name": "generate-parallel-calls-subset",
            "description": "A named subset tool choice → ANY + allowedFunctionNames; three parallel calls in one "
            "Content, no usage.",
            "method": "generate",
            "model": "gemini-2.0-flash",
            "requirements": ["G3", "G12", "G13", "G14"],
            "features": ["function_tools"],
            "request": {
                "prompt": "What is the weather in Boston, Seattle and Austin today?",
                "tools": [WEATHER_TOOL, DUMMY_TOOL],
                "tool_choice": {"type": "tools", "names": ["fetchWeather"]},
            },
            "response": raw_json(F + "vertexai__unary-success-function-call-parallel-calls.json"),
            "source": F + "vertexai__unary-success-function-call-parallel-calls.json",
            "source_args": {
                "note": RECONSTRUCTED + "; MOCK response (Vertex-shaped, shared by the Gemini API)"
            },
        },
        {
            "name": "stream-signature-replay-function-response",
            "description": "Turn 2 replays the signed functionCall exactly as received (standard base64) and "
            "sends the functionResponse (G3, G5); the turn's origin is the model called, so reasoning_replay "
            "strict sends it unchanged.",
            "method": "stream",
            "model": "gemini-3-pro-preview",
            "requirements": ["G3", "G5"],
            "features": ["function_tools"],
            "request": {
                "messages": [
                    {"role": "user", "content": "What is the capital of the user country? Call the tool"},
                    _signed_call_turn(),
                    {
                        "role": "tool",
                        "content": [
                            {
                                "type": "tool-result",
                                "call_id": "call-0",
                                "name": "get_country",
                                "output": {"return_value": "Mexico"},
                            }
                        ],
                    },
                ],
                "reasoning_replay": "strict",
                "tools": [COUNTRY_TOOL],
            },
            "response": _response(SIGNED, 1),
            "source": P + SIGNED,
            "source_args": {
                "interaction": 1,
                "note": ADAPTED + "; the signature is replayed as the API sent it",
            },
        },
    ]
