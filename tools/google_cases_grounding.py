# ruff: noqa: E501  (a data table: long descriptions and corpus file names read better unwrapped)
"""Google conformance cases for grounding (S) and the Vertex backend; shared names live in google_case_data."""

from __future__ import annotations

from typing import Any

from gemini_corpus import chunks, raw_json, raw_sse
from google_case_data import (
    ADAPTED,
    RECONSTRUCTED,
    SEARCH,
    SEARCH_FILE,
    SEARCH_STREAM,
    F,
    P,
    V,
    _response,
)


def _grounding_cases() -> list[dict[str, Any]]:
    return [
        # ---------------------------------------------------------------- grounding
        {
            "name": "grounding-search-generate",
            "description": "google_search → googleSearch; full groundingMetadata, '°F' before the supports "
            "(UTF-8 byte offsets), toolUsePromptTokenCount.",
            "method": "generate",
            "model": "gemini-2.5-pro",
            "requirements": ["S1", "S4", "S8", "S11", "S12"],
            "features": ["provider_tools"],
            "request": {
                "system": "You are a helpful chatbot.",
                "prompt": "What is the weather in San Francisco today?",
                "tools": [SEARCH],
            },
            "response": _response(SEARCH_FILE),
            "source": P + SEARCH_FILE,
            "source_args": {"interaction": 0, "note": ADAPTED},
        },
        {
            "name": "grounding-search-stream",
            "description": "Streamed grounding: empty groundingMetadata on every frame, all grounding on the final "
            "frame; offsets index the concatenated text in bytes.",
            "method": "stream",
            "model": "gemini-2.5-pro",
            "requirements": ["S1", "S4", "S7", "S8"],
            "features": ["provider_tools"],
            "request": {
                "system": "You are a helpful chatbot.",
                "prompt": "What is the weather in San Francisco today?",
                "tools": [SEARCH],
            },
            "response": _response(SEARCH_STREAM),
            "source": P + SEARCH_STREAM,
            "source_args": {"interaction": 0, "note": ADAPTED},
        },
        {
            "name": "grounding-search-time-range-filter",
            "description": "googleSearch with timeRangeFilter (S1); two webSearchQueries; serviceTier in usage.",
            "method": "generate",
            "model": "gemini-2.5-flash",
            "requirements": ["S1", "S4", "S8", "S11"],
            "features": ["provider_tools"],
            "request": {
                "prompt": "What is the weather in San Francisco right now?",
                "tools": [
                    {
                        **SEARCH,
                        "args": {
                            "timeRangeFilter": {
                                "startTime": "2025-01-01T00:00:00Z",
                                "endTime": "2025-12-31T23:59:59Z",
                            }
                        },
                    }
                ],
            },
            "response": _response(
                "tests__models__cassettes__test_tool_choice_matrix__test_google_native_tool_only_web_search_completes.yaml"
            ),
            "source": P
            + "tests__models__cassettes__test_tool_choice_matrix__test_google_native_tool_only_web_search_completes.yaml",
            "source_args": {"interaction": 0, "note": ADAPTED + "; timeRangeFilter added to the request"},
        },
        {
            "name": "grounding-search-neutral",
            "description": "The neutral web_search (modelport.tools) → googleSearch: the same body as google_search.",
            "method": "generate",
            "model": "gemini-2.5-pro",
            "requirements": ["S1", "S4"],
            "features": ["web_search"],
            "request": {
                "system": "You are a helpful chatbot.",
                "prompt": "What is the weather in San Francisco today?",
                "tools": [{"type": "neutral", "name": "web_search", "options": {}}],
            },
            "response": _response(SEARCH_FILE),
            "source": P + SEARCH_FILE,
            "source_args": {"interaction": 0, "note": ADAPTED},
        },
        {
            "name": "grounding-search-time-range-neutral",
            "description": "The neutral web_search with a time range → googleSearch.timeRangeFilter.",
            "method": "generate",
            "model": "gemini-2.5-flash",
            "requirements": ["S1", "S4"],
            "features": ["web_search"],
            "request": {
                "prompt": "What is the weather in San Francisco right now?",
                "tools": [
                    {
                        "type": "neutral",
                        "name": "web_search",
                        "options": {
                            "time_range": {"start": "2025-01-01T00:00:00Z", "end": "2025-12-31T23:59:59Z"}
                        },
                    }
                ],
            },
            "response": _response(
                "tests__models__cassettes__test_tool_choice_matrix__test_google_native_tool_only_web_search_completes.yaml"
            ),
            "source": P
            + "tests__models__cassettes__test_tool_choice_matrix__test_google_native_tool_only_web_search_completes.yaml",
            "source_args": {"interaction": 0, "note": ADAPTED + "; timeRangeFilter added to the request"},
        },
        {
            "name": "grounding-first-segment-without-start-index",
            "description": "The first support segment omits startIndex (0); '°F/°C' in the text; confidenceScores.",
            "method": "generate",
            "model": "gemini-2.0-flash",
            "requirements": ["S4", "S8", "S11"],
            "features": ["provider_tools"],
            "request": {"prompt": "What is the current weather in Tokyo?", "tools": [SEARCH]},
            "response": raw_json(F + "googleai__unary-success-google-search-grounding.json"),
            "source": F + "googleai__unary-success-google-search-grounding.json",
            "source_args": {"note": RECONSTRUCTED},
        },
        {
            "name": "grounding-empty-chunks",
            "description": "groundingChunks are empty objects while supports point at them: sources without titles.",
            "method": "generate",
            "model": "gemini-2.0-flash",
            "requirements": ["S5", "S8"],
            "features": ["provider_tools"],
            "request": {"prompt": "What is the current weather in Tokyo?", "tools": [SEARCH]},
            "response": raw_json(
                F + "googleai__unary-success-google-search-grounding-empty-grounding-chunks.json"
            ),
            "source": F + "googleai__unary-success-google-search-grounding-empty-grounding-chunks.json",
            "source_args": {"note": RECONSTRUCTED + "; REAL* (likely edited)"},
        },
        {
            "name": "grounding-gemini3-thinking-server-tools",
            "description": "Thinking + search on Gemini 3: toolCall/toolResponse parts with signatures; the last "
            "supports are off by 2 bytes and end beyond the text (skipped and reported).",
            "method": "generate",
            "model": "gemini-3-flash-preview",
            "requirements": ["S4", "S8", "G4", "G5"],
            "features": ["provider_tools", "reasoning"],
            "request": {
                "prompt": "What is the top news story today? Use web search.",
                "reasoning": {"effort": "high"},
                "tools": [SEARCH],
            },
            "response": _response(
                "tests__cassettes__test_thinking_native_tools__test_thinking_with_native_tool_wire_contract[google].yaml"
            ),
            "source": P
            + "tests__cassettes__test_thinking_native_tools__test_thinking_with_native_tool_wire_contract[google].yaml",
            "source_args": {"interaction": 0, "note": ADAPTED},
        },
        {
            "name": "grounding-search-not-used",
            "description": "The search tool was offered but the model answered without grounding (S3): the "
            "result keeps the ungrounded shape.",
            "method": "stream",
            "model": "gemini-3-pro-preview",
            "requirements": ["S3", "S1"],
            "features": ["provider_tools"],
            "request": {"prompt": "Explain your reasoning briefly.", "tools": [SEARCH]},
            "response": chunks(V + "google-reasoning-gemini3.chunks.txt"),
            "source": V + "google-reasoning-gemini3.chunks.txt",
            "source_args": {"note": RECONSTRUCTED},
        },
    ]


def _vertex_cases() -> list[dict[str, Any]]:
    return [
        {
            "name": "vertex-implicit-caching",
            "description": "Vertex AI URL and bearer auth (G2); implicit caching usage (G6).",
            "method": "generate",
            "model": "gemini-2.0-flash",
            "requirements": ["G2", "G6", "G15"],
            "request": {"prompt": "Summarize the document."},
            "response": raw_json(F + "vertexai__unary-success-implicit-caching.json"),
            "source": F + "vertexai__unary-success-implicit-caching.json",
            "source_args": {"note": RECONSTRUCTED},
        },
        {
            "name": "vertex-stream-utf8-cjk",
            "description": "CJK text split across frames, every frame with finishReason STOP (old server "
            "behaviour); must survive 1- and 7-byte chunks.",
            "method": "stream",
            "model": "gemini-1.5-flash",
            "requirements": ["G2", "G14", "G13"],
            "request": {"prompt": "用中文写一首短诗。"},
            "response": raw_sse(F + "vertexai__streaming-success-utf8.txt"),
            "source": F + "vertexai__streaming-success-utf8.txt",
            "source_args": {"note": RECONSTRUCTED + "; REAL* (old)"},
        },
    ]


GROUNDING_CASES = _grounding_cases()
VERTEX_CASES = _vertex_cases()
