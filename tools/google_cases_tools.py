# ruff: noqa: E501  (a data table: long descriptions and corpus file names read better unwrapped)
"""Google conformance cases for issue 13: Gemini 3 thinking levels, URL context and File Search."""

from __future__ import annotations

import json
from typing import Any

from gemini_corpus import CORPUS, captured, raw_sse
from google_case_data import ADAPTED, RECONSTRUCTED, F, P, V, _response

LEVELS = V + "google-gemini-3.7-flash-thinking-levels.json"
WEB_FETCH = "tests__models__cassettes__test_google__test_google_model_web_fetch_tool_stream.yaml"
FILE_SEARCH = (
    "tests__models__cassettes__test_google__test_google_model_file_search_grounding_gemini_3[True].yaml"
)
STORE = "fileSearchStores/testfilesearchgroundingstre-p2hcv3cs2i69"
URL_CONTEXT = {"type": "provider", "id": "google.url_context", "name": "url_context", "args": {}}
FILE_SEARCH_TOOL = {
    "type": "provider",
    "id": "google.file_search",
    "name": "file_search",
    "args": {"fileSearchStoreNames": [STORE]},
}


def _file_search_turn() -> dict[str, Any]:
    """Turn 1 of the File Search recording as the recording's second request replayed it."""
    import yaml

    saved = yaml.safe_load((CORPUS / (P + FILE_SEARCH)).read_text(encoding="utf-8"))
    parts = saved["interactions"][4]["request"]["parsed_body"]["contents"][1]["parts"]
    text = "".join(p["text"] for p in parts if "text" in p)
    return {
        "role": "assistant",
        "content": [{"type": "text", "text": text}],
        "provider_metadata": {"google": {"parts": json.loads(json.dumps(parts))}},
    }


def _tool_cases() -> list[dict[str, Any]]:
    return [
        {
            "name": "generate-thinking-level-gemini3",
            "description": "Gemini 3: reasoning.effort low → thinkingLevel LOW (not a budget); the live answer is a signed text part.",
            "method": "generate",
            "model": "gemini-3.7-flash",
            "requirements": ["G4", "G5"],
            "features": ["reasoning"],
            "request": {"prompt": "Hello", "reasoning": {"effort": "low"}},
            "response": captured(LEVELS, "low"),
            "source": LEVELS,
            "source_args": {
                "commit": "82d3bb76e77f9a0a283c1e61badc3c5b0509b3e2",
                "note": RECONSTRUCTED + "; the 'low' capture of the map",
            },
        },
        {
            "name": "error-thinking-level-minimal",
            "description": "An explicit thinking_level option is sent in thinkingConfig; the model's 400 for MINIMAL is a typed request error.",
            "method": "generate",
            "model": "gemini-3.7-flash",
            "requirements": ["G4", "G18"],
            "features": ["reasoning"],
            "request": {"prompt": "Hello", "provider_options": {"google": {"thinking_level": "MINIMAL"}}},
            "response": captured(LEVELS, "minimal"),
            "source": LEVELS,
            "source_args": {
                "commit": "82d3bb76e77f9a0a283c1e61badc3c5b0509b3e2",
                "note": RECONSTRUCTED + "; the 'minimal' capture of the map",
            },
        },
        {
            "name": "stream-url-context",
            "description": "google.url_context → urlContext; urlContextMetadata on the first frame, grounding chunks and supports on the last.",
            "method": "stream",
            "model": "gemini-2.5-flash",
            "requirements": ["S4", "S7", "S8"],
            "features": ["provider_tools"],
            "request": {
                "system": "You are a helpful chatbot.",
                "prompt": "What is the first sentence on the page https://ai.pydantic.dev? Reply with only the sentence.",
                "tools": [URL_CONTEXT],
            },
            "response": _response(WEB_FETCH),
            "source": P + WEB_FETCH,
            "source_args": {"interaction": 0, "note": ADAPTED},
        },
        {
            "name": "stream-url-context-firebase",
            "description": "URL context over SSE: empty groundingMetadata placeholders, urlContextMetadata first, grounding in the final frame.",
            "method": "stream",
            "model": "gemini-2.5-flash",
            "requirements": ["S4", "S7", "S8"],
            "features": ["provider_tools"],
            "request": {
                "prompt": "Describe the page https://google.com in three sentences.",
                "tools": [URL_CONTEXT],
            },
            "response": raw_sse(F + "googleai__streaming-success-url-context.txt"),
            "source": F + "googleai__streaming-success-url-context.txt",
            "source_args": {"note": RECONSTRUCTED},
        },
        {
            "name": "stream-file-search-gemini3",
            "description": "google.file_search → fileSearch with the store names; server-run toolCall/toolResponse parts (provider-executed), retrievedContext chunks.",
            "method": "stream",
            "model": "gemini-3-flash-preview",
            "requirements": ["S4", "S7", "G5"],
            "features": ["provider_tools"],
            "request": {"prompt": "What is the capital of France?", "tools": [FILE_SEARCH_TOOL]},
            "response": _response(FILE_SEARCH, 3),
            "source": P + FILE_SEARCH,
            "source_args": {"interaction": 3, "note": ADAPTED},
        },
        {
            "name": "generate-file-search-follow-up",
            "description": "The File Search turn replayed verbatim (server tool parts and signatures), then a grounded answer from the store.",
            "method": "generate",
            "model": "gemini-3-flash-preview",
            "requirements": ["S4", "G5"],
            "features": ["provider_tools"],
            "request": {
                "messages": [
                    {"role": "user", "content": "What is the capital of France?"},
                    _file_search_turn(),
                    {"role": "user", "content": "What famous landmark is it known for?"},
                ],
                "tools": [FILE_SEARCH_TOOL],
            },
            "response": _response(FILE_SEARCH, 4),
            "source": P + FILE_SEARCH,
            "source_args": {"interaction": 4, "note": ADAPTED},
        },
    ]


TOOL_CASES = _tool_cases()
