# ruff: noqa: E501  (a data table: long descriptions and corpus file names read better unwrapped)
"""What the Google case tables share: corpus folder prefixes, notes, the tools the recordings used,
and the helpers of the MOCK cases (the tables are google_cases_*; google_cases gathers them).
"""

from __future__ import annotations

from typing import Any

from gemini_corpus import vcr_interaction

P = "pydantic__pydantic-ai/"
V = "vercel__ai/packages__google__src____fixtures____"
F = "FirebaseExtended__vertexai-sdk-test-data/mock-responses__"
L = "simonw__llm-gemini/tests__cassettes__test_gemini__"

RECONSTRUCTED = "body-only recording: the request is reconstructed for this case"
ADAPTED = "request adapted to modelport's canonical mapping (the recording tool sent SDK-specific extras)"

DUMMY_TOOL = {"type": "function", "name": "dummy", "parameters": {"type": "object", "properties": {}}}
COUNTRY_TOOL = {
    "type": "function",
    "name": "get_country",
    "description": "The user's country.",
    "parameters": {"type": "object", "properties": {}},
}
WEATHER_TOOL = {
    "type": "function",
    "name": "fetchWeather",
    "description": "Get the weather conditions for a city on a date.",
    "parameters": {
        "type": "object",
        "properties": {"location": {"type": "object"}, "date": {"type": "string"}},
        "required": ["location", "date"],
    },
}
SEARCH = {"type": "provider", "id": "google.google_search", "name": "google_search", "args": {}}
CODE = {"type": "provider", "id": "google.code_execution", "name": "code_execution", "args": {}}

SEARCH_FILE = "tests__models__cassettes__test_google__test_google_model_web_search_tool.yaml"
SEARCH_STREAM = "tests__models__cassettes__test_google__test_google_model_web_search_tool_stream.yaml"


def _response(saved: str, index: int = 0) -> tuple[int, str, str]:
    return vcr_interaction(P + saved, index)[1]


NO_RECORDING = "the corpus has no recording of {what}; the response is written for this case in the documented REST shape, its values are invented"


def _text_tokens(count: int) -> list[dict[str, Any]]:
    return [{"modality": "TEXT", "tokenCount": count}]
