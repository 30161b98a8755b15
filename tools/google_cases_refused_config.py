"""Google conformance cases refused before any I/O that only the raw ``generation_config`` option, or
the order of a history, reaches: what the typed request fields cannot express (a thinkingLevel on a
Gemini 2.5 model, several candidates) and a tool result with no call before it.

Like the other refused cases (:mod:`google_cases_refused`), each cassette has no interaction and the
``source`` names the reference page whose rule the request breaks.
"""

from __future__ import annotations

import json
from typing import Any

from gemini_corpus import raw_json
from google_case_data import SEARCH, F
from google_cases_calls import FUNCTION_DOCS, PARALLEL, SUM_TOOL, THINKING_DOCS
from google_cases_refused import GENERATION_CONFIG_DOCS, SEARCH_DOCS, _refused

FUNCTION_CALLING_DOCS = ["https://ai.google.dev/gemini-api/docs/function-calling"]


def _swapped_results_case() -> dict[str, Any]:
    """The three recorded parallel calls sent back unchanged, their results in reverse order."""
    _, _, text = raw_json(F + PARALLEL)
    parts = json.loads(text)["candidates"][0]["content"]["parts"]
    calls = [
        {"type": "tool-call", "id": f"call-{i}", "name": "sum", "args": dict(p["functionCall"]["args"])}
        for i, p in enumerate(parts)
    ]
    results = [
        {
            "type": "tool-result",
            "call_id": c["id"],
            "name": "sum",
            "output": {"result": c["args"]["x"] + c["args"]["y"]},
        }
        for c in reversed(calls)
    ]
    return {
        "name": "refused-replayed-results-out-of-order",
        "description": "The three recorded parallel calls replayed as received, then their results in "
        "reverse order: Gemini pairs responses with calls by position, so a typed InvalidRequestError, "
        "nothing sent.",
        "method": "generate",
        "model": "gemini-2.0-flash",
        "requirements": ["G3", "G5"],
        "features": ["function_tools"],
        "request": {
            "messages": [
                {"role": "user", "content": "Add 2 and 1, 4 and 3, 6 and 5 with the sum tool."},
                {
                    "role": "assistant",
                    "content": calls,
                    "provider_metadata": {"google": {"parts": parts}},
                    "origin": {"provider": "google", "api": "generate-content", "model": "gemini-2.0-flash"},
                },
                {"role": "tool", "content": results},
            ],
            "tools": [SUM_TOOL],
        },
        "response": None,
        "source": _refused(
            "the function responses of a turn answer its function calls one each, in order; the calls "
            f"are the recorded ones of {PARALLEL}",
            FUNCTION_DOCS,
        ),
    }


def _time_range_case(name: str, description: str, start: str, end: str, what: str) -> dict[str, Any]:
    return {
        "name": name,
        "description": description,
        "method": "generate",
        "model": "gemini-2.5-flash",
        "requirements": ["S1"],
        "features": ["provider_tools"],
        "request": {
            "prompt": "What happened today?",
            "tools": [{**SEARCH, "args": {"timeRangeFilter": {"startTime": start, "endTime": end}}}],
        },
        "response": None,
        "source": _refused(what, SEARCH_DOCS),
    }


MAPS_DOCS = [
    "https://ai.google.dev/gemini-api/docs/maps-grounding",
    "https://ai.google.dev/api/caching#LatLng",
]


def config_refused_cases() -> list[dict[str, Any]]:
    return [
        _swapped_results_case(),
        {
            "name": "refused-maps-latitude-over-90",
            "description": "google.google_maps with a latLng whose latitude is 90.5 degrees (past the "
            "pole): a typed ProviderToolError, nothing sent.",
            "method": "generate",
            "model": "gemini-2.5-flash",
            "requirements": ["S1"],
            "features": ["provider_tools"],
            "request": {
                "prompt": "Where can I get coffee near here?",
                "tools": [
                    {
                        "type": "provider",
                        "id": "google.google_maps",
                        "name": "google_maps",
                        "args": {"latLng": {"latitude": 90.5, "longitude": 0.0}},
                    }
                ],
            },
            "response": None,
            "source": _refused("a LatLng latitude is in the range [-90.0, +90.0]", MAPS_DOCS),
        },
        {
            "name": "refused-thinking-level-option-with-budget-gemini3",
            "description": "On Gemini 3 a thinking_level provider option beside reasoning.budget_tokens "
            "would send a level and a budget at once: refused, nothing sent.",
            "method": "generate",
            "model": "gemini-3-pro-preview",
            "requirements": ["G4"],
            "features": ["reasoning"],
            "request": {
                "prompt": "Hello",
                "reasoning": {"budget_tokens": 1024},
                "provider_options": {"google": {"thinking_level": "LOW"}},
            },
            "response": None,
            "source": _refused("thinkingLevel and thinkingBudget cannot be set together", THINKING_DOCS),
        },
        _time_range_case(
            "refused-time-range-no-such-date",
            "googleSearch timeRangeFilter starting on 30 February: not a date, a typed error, nothing sent.",
            "2025-02-30T00:00:00Z",
            "2025-03-02T00:00:00Z",
            "a timeRangeFilter bound is an RFC 3339 timestamp (a real date)",
        ),
        _time_range_case(
            "refused-time-range-leap-second-after-end",
            "googleSearch timeRangeFilter starting on the leap second 2016-12-31T23:59:60Z and ending "
            "half a second before it (23:59:59.5Z): the leap second is after its end; a typed error, "
            "nothing sent.",
            "2016-12-31T23:59:60Z",
            "2016-12-31T23:59:59.5Z",
            "timeRangeFilter is an Interval: its start must be before its end (RFC 3339 allows second 60)",
        ),
        {
            "name": "refused-thinking-level-and-budget-generation-config",
            "description": "A generation_config option whose thinkingConfig sets both a thinkingLevel "
            "and a thinkingBudget, on Gemini 3: Google accepts one of them; a typed "
            "InvalidRequestError, nothing sent.",
            "method": "generate",
            "model": "gemini-3-pro-preview",
            "requirements": ["G4", "G9"],
            "features": ["reasoning"],
            "request": {
                "prompt": "Hello",
                "provider_options": {
                    "google": {
                        "generation_config": {
                            "thinkingConfig": {"thinkingLevel": "high", "thinkingBudget": 1024}
                        }
                    }
                },
            },
            "response": None,
            "source": _refused("thinkingLevel and thinkingBudget cannot be set together", THINKING_DOCS),
        },
        {
            "name": "refused-thinking-level-gemini25-generation-config",
            "description": "A generation_config option whose thinkingConfig sets a thinkingLevel, sent "
            "to gemini-2.5-flash (which takes a thinkingBudget): a typed InvalidRequestError, nothing sent.",
            "method": "generate",
            "model": "gemini-2.5-flash",
            "requirements": ["G4", "G9"],
            "features": ["reasoning"],
            "request": {
                "prompt": "Hello",
                "provider_options": {
                    "google": {"generation_config": {"thinkingConfig": {"thinkingLevel": "high"}}}
                },
            },
            "response": None,
            "source": _refused(
                "thinkingLevel is for Gemini 3 models; Gemini 2.5 takes thinkingBudget", THINKING_DOCS
            ),
        },
        {
            "name": "refused-candidate-count-two",
            "description": "A generation_config option asking for candidateCount 2: a result holds one "
            "candidate, so the others would be dropped: a typed InvalidRequestError, nothing sent.",
            "method": "generate",
            "model": "gemini-2.5-flash",
            "requirements": ["G9"],
            "request": {
                "prompt": "Hello",
                "provider_options": {"google": {"generation_config": {"candidateCount": 2}}},
            },
            "response": None,
            "source": _refused("candidateCount asks for several candidates", GENERATION_CONFIG_DOCS),
        },
        {
            "name": "refused-tool-result-first",
            "description": "A history that starts with a tool message (a function response no model "
            "turn asked for): Gemini answers it with HTTP 400; a typed InvalidRequestError, nothing sent.",
            "method": "generate",
            "model": "gemini-2.5-flash",
            "requirements": ["G3"],
            "features": ["function_tools"],
            "request": {
                "messages": [
                    {
                        "role": "tool",
                        "content": [
                            {
                                "type": "tool-result",
                                "call_id": "call-0",
                                "name": "get_city",
                                "output": {"city": "Paris"},
                            }
                        ],
                    },
                    {"role": "user", "content": "And the weather there?"},
                ]
            },
            "response": None,
            "source": _refused(
                "a function response turn must come immediately after a function call turn",
                FUNCTION_CALLING_DOCS,
            ),
        },
    ]
