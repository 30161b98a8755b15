# ruff: noqa: E501  (a data table: long descriptions and corpus file names read better unwrapped)
"""Vertex AI cases of streamed function-call arguments (``streamFunctionCallArguments``) from real
recordings (tests/corpus/gemini/vercel__ai, see its MANIFEST): each call arrives as a
``functionCall`` piece with its name, ``partialArgs`` pieces, and an empty ``{"functionCall": {}}``
part that ends it. The recordings are bodies only: the requests are rebuilt with the tools the
calls name."""

from __future__ import annotations

from typing import Any

from gemini_corpus import chunks
from google_case_data import RECONSTRUCTED, V

__all__ = ["STREAMED_ARGS_CASES"]

_STREAMED = {"google": {"tool_config": {"functionCallingConfig": {"streamFunctionCallArguments": True}}}}


def _tool(name: str, description: str, properties: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "function",
        "name": name,
        "description": description,
        "parameters": {"type": "object", "properties": properties, "required": list(properties)},
    }


WEATHER = _tool("getWeather", "Get the weather in a location.", {"location": {"type": "string"}})
THEME = _tool("read_theme", "Read the app's theme.", {})
SCREEN = _tool("read_screen", "Read one screen of the app.", {"id": {"type": "string"}})


def _case(
    name: str, saved: str, model: str, prompt: str, tools: list[dict[str, Any]], description: str
) -> dict[str, Any]:
    return {
        "name": name,
        "description": description,
        "method": "stream",
        "model": model,
        "requirements": ["C4", "G12"],
        "features": ["function_tools"],
        "request": {"prompt": prompt, "tools": tools, "provider_options": _STREAMED},
        "response": chunks(V + saved),
        "source": V + saved,
        "source_args": {"note": RECONSTRUCTED},
    }


STREAMED_ARGS_CASES = [
    _case(
        "stream-streamed-args-two-calls",
        "google-stream-tool-call-arguments.chunks.txt",
        "gemini-3.1-pro-preview",
        "What is the weather in Boston and in San Francisco?",
        [WEATHER],
        "Two getWeather calls streamed in pieces: the name (the first with a signature), a partialArgs string, an empty closing string, then an empty functionCall part that ends the call; STOP with thoughts tokens on the last frame.",
    ),
    _case(
        "stream-streamed-args-after-whole-call",
        "google-stream-no-args-tool-call.chunks.txt",
        "gemini-3-flash-preview",
        "Read the theme, then screens A, B and C.",
        [THEME, SCREEN],
        "A thought, a whole read_theme call with no arguments, then three read_screen calls whose $.id streams in pieces, each ended by an empty functionCall part; a final empty text with STOP.",
    ),
]
