"""Google conformance cases at the edges of the mapping's tables and ranges: a finish reason the
table maps to ``content-filter`` and one it does not list, a temperature at the top of its range,
the thinking options by their wire name and at the dynamic budget -1, a grounding chunk that names
its domain and a segment that starts before the text, a malformed option, tool arguments out of
range or of the wrong type, and time-range offsets (the call edges are google_cases_edges_calls).

The responses are recordings (body-only Firebase ones, so the request is reconstructed), a few with
one value changed (named in ``source.note``); the refused requests have no interaction.
"""

from __future__ import annotations

import json
from typing import Any

from gemini_corpus import JSON_TYPE, captured, raw_json, raw_sse, wire
from google_case_data import ADAPTED, RECONSTRUCTED, SEARCH, SEARCH_STREAM, F, P, _response
from google_cases_calls import THINKING_DOCS
from google_cases_grounding_shapes import _grounding_case
from google_cases_refused import _refused
from google_cases_refused_config import MAPS_DOCS, _time_range_case
from google_cases_tools import LEVELS

SAFETY = "googleai__unary-failure-finish-reason-safety.json"
THOUGHT_SUMMARY = "googleai__streaming-success-thinking-reply-thought-summary.txt"
EMPTY_CHUNKS = "googleai__unary-success-google-search-grounding-empty-grounding-chunks.json"
OPTIONS_DOCS = ["https://ai.google.dev/api/generate-content#ThinkingConfig"]


def _finished_with(reason: str | None) -> tuple[int, str, str]:
    """The recorded SAFETY-cut answer with its ``finishReason`` set to ``reason`` (``None``: removed)."""
    status, _, text = raw_json(F + SAFETY, 200)
    body = json.loads(text)
    assert body["candidates"][0]["finishReason"] == "SAFETY"
    if reason is None:
        del body["candidates"][0]["finishReason"]
    else:
        body["candidates"][0]["finishReason"] = reason
    return status, JSON_TYPE, json.dumps(body, ensure_ascii=False)


def _finish_case(name: str, reason: str | None, description: str) -> dict[str, Any]:
    what = f"set from SAFETY to {reason}" if reason else "removed"
    return {
        "name": name,
        "description": description,
        "method": "generate",
        "model": "gemini-2.0-flash",
        "requirements": ["G13"],
        "request": {"prompt": "Write a short story."},
        "response": _finished_with(reason),
        "source": F + SAFETY,
        "source_args": {"note": RECONSTRUCTED + f"; MOCK edit of the recorded response: finishReason {what}"},
    }


def _domain_named(metadata: dict[str, Any]) -> None:
    metadata["groundingChunks"][0]["web"]["domain"] = "accuweather.com"  # its recorded title


def _start_negative(metadata: dict[str, Any]) -> None:
    metadata["groundingSupports"][1]["segment"]["startIndex"] = -1  # recorded: 57


def _part_zero(metadata: dict[str, Any]) -> None:
    metadata["groundingSupports"][1]["segment"]["partIndex"] = 0  # the answer's one text part


def _part_missing(metadata: dict[str, Any]) -> None:
    metadata["groundingSupports"][1]["segment"]["partIndex"] = 3  # the answer has one text part


def _stream_grounding_in_two_frames() -> tuple[int, str, str]:
    """The recorded grounded stream, the frame before the last also carrying the first chunk and
    the first support of the last frame's groundingMetadata (which repeats them, then adds the rest)."""
    status, kind, body = _response(SEARCH_STREAM)
    frames = [block for block in body.split("\r\n\r\n") if block.strip()]
    before, last = (json.loads(frame.removeprefix("data: ")) for frame in frames[-2:])
    grounding = last["candidates"][0]["groundingMetadata"]
    assert before["candidates"][0]["groundingMetadata"] == {} and len(grounding["groundingSupports"]) > 1
    before["candidates"][0]["groundingMetadata"] = {
        "groundingChunks": grounding["groundingChunks"][:1],
        "groundingSupports": grounding["groundingSupports"][:1],
    }
    frames[-2] = "data: " + json.dumps(before, ensure_ascii=False)
    return status, kind, "".join(frame + "\r\n\r\n" for frame in frames)


def _stream_grounding_revised() -> tuple[int, str, str]:
    """The recorded grounded stream, the frame before the last carrying the last frame's first two
    chunks and supports, the first of each an earlier version (the chunk's title, the support's
    segment end): the last frame repeats them, revised, then adds the rest."""
    status, kind, body = _response(SEARCH_STREAM)
    frames = [block for block in body.split("\r\n\r\n") if block.strip()]
    before, last = (json.loads(frame.removeprefix("data: ")) for frame in frames[-2:])
    grounding = last["candidates"][0]["groundingMetadata"]
    assert before["candidates"][0]["groundingMetadata"] == {} and len(grounding["groundingSupports"]) > 2
    chunks = json.loads(json.dumps(grounding["groundingChunks"][:2]))
    supports = json.loads(json.dumps(grounding["groundingSupports"][:2]))
    chunks[0]["web"]["title"] = chunks[0]["web"]["title"] + " (draft)"  # invented earlier version
    supports[0]["segment"]["endIndex"] -= 1
    supports[0]["segment"]["text"] = supports[0]["segment"]["text"][:-1]
    before["candidates"][0]["groundingMetadata"] = {"groundingChunks": chunks, "groundingSupports": supports}
    frames[-2] = "data: " + json.dumps(before, ensure_ascii=False)
    return status, kind, "".join(frame + "\r\n\r\n" for frame in frames)


TIME_RANGE = "tests__models__cassettes__test_tool_choice_matrix__test_google_native_tool_only_web_search_completes.yaml"  # noqa: E501


def edge_cases() -> list[dict[str, Any]]:
    return [
        _finish_case(
            "generate-finish-reason-spii",
            "SPII",
            "finishReason SPII (sensitive personal information): content-filter, the partial text kept.",
        ),
        _finish_case(
            "generate-finish-reason-unlisted",
            "LANGUAGE",
            "finishReason LANGUAGE, a documented reason the mapping does not list: other, the partial "
            "text kept.",
        ),
        _finish_case(
            "generate-finish-reason-blocklist",
            "BLOCKLIST",
            "finishReason BLOCKLIST (a term of the blocklist): content-filter, the partial text kept.",
        ),
        _finish_case(
            "generate-finish-reason-prohibited-content",
            "PROHIBITED_CONTENT",
            "finishReason PROHIBITED_CONTENT: content-filter, the partial text kept.",
        ),
        _finish_case(
            "generate-finish-reason-image-safety",
            "IMAGE_SAFETY",
            "finishReason IMAGE_SAFETY (a generated image blocked): content-filter, the partial text kept.",
        ),
        _finish_case(
            "generate-finish-reason-missing",
            None,
            "A candidate with no finishReason (the recorded answer with it left out): other, the "
            "partial text kept.",
        ),
        {
            "name": "generate-temperature-two",
            "description": "temperature 2, the top of Gemini's range, is sent as given.",
            "method": "generate",
            "model": "gemini-2.0-flash",
            "requirements": ["G3"],
            "features": ["provider_tools"],
            "request": {
                "prompt": "What is the current weather in Tokyo?",
                "temperature": 2.0,
                "tools": [SEARCH],
            },
            "response": raw_json(F + EMPTY_CHUNKS, 200),
            "source": F + EMPTY_CHUNKS,
            "source_args": {"note": RECONSTRUCTED},
        },
        {
            "name": "generate-thinking-level-wire-name-option",
            "description": "Gemini 3: the thinking level given by its wire name (thinkingLevel LOW) in "
            "provider_options → thinkingConfig.thinkingLevel LOW.",
            "method": "generate",
            "model": "gemini-3.7-flash",
            "requirements": ["G4", "G18"],
            "features": ["reasoning"],
            "request": {"prompt": "Hello", "provider_options": {"google": {"thinkingLevel": "LOW"}}},
            "wire": wire({"prompt": "Hello", "provider_options": {"google": {"thinking_level": "LOW"}}}),
            "response": captured(LEVELS, "low"),
            "source": LEVELS,
            "source_args": {
                "commit": "82d3bb76e77f9a0a283c1e61badc3c5b0509b3e2",
                "note": RECONSTRUCTED + "; the 'low' capture of the map",
            },
        },
        {
            "name": "stream-thinking-budget-dynamic",
            "description": "thinking_budget -1 (dynamic thinking) in provider_options → "
            "thinkingConfig.thinkingBudget -1; thought-summary frames, then the answer.",
            "method": "stream",
            "model": "gemini-2.5-flash",
            "requirements": ["G4", "G18"],
            "request": {
                "prompt": "Why is the sky blue?",
                "provider_options": {"google": {"thinking_budget": -1}},
            },
            "response": raw_sse(F + THOUGHT_SUMMARY),
            "source": F + THOUGHT_SUMMARY,
            "source_args": {"note": RECONSTRUCTED},
        },
        _grounding_case(
            "grounding-chunk-domain-named",
            "A groundingChunks web chunk naming its domain (accuweather.com): the source's domain, "
            "not its file id.",
            _domain_named,
            "groundingChunks[0].web.domain set to its title, accuweather.com",
        ),
        _grounding_case(
            "grounding-segment-start-negative",
            "A groundingSupports segment starting at byte -1: a typed ProviderMetadataError, not a "
            "citation re-anchored on its text.",
            _start_negative,
            "groundingSupports[1].segment.startIndex set from 57 to -1",
        ),
        _grounding_case(
            "grounding-segment-part-index-zero",
            "A groundingSupports segment naming partIndex 0, the answer's one text part: its offsets "
            "are read in that part, the citation as recorded.",
            _part_zero,
            "groundingSupports[1].segment.partIndex set to 0 (recorded: omitted)",
        ),
        _grounding_case(
            "grounding-segment-part-index-missing",
            "A groundingSupports segment naming partIndex 3 of a one-part answer: re-anchored on its "
            "segment text, with a warning.",
            _part_missing,
            "groundingSupports[1].segment.partIndex set to 3 (recorded: omitted)",
        ),
        {
            "name": "refused-thinking-budget-option-not-integer",
            "description": "provider_options thinking_budget '1024' (a string of digits, not an integer: "
            "the option is strict): a typed InvalidRequestError naming thinking_budget, nothing sent.",
            "method": "generate",
            "model": "gemini-2.5-flash",
            "requirements": ["G18"],
            "request": {"prompt": "Hello", "provider_options": {"google": {"thinking_budget": "1024"}}},
            "response": None,
            "source": _refused(
                "thinkingBudget is an integer field of ThinkingConfig", OPTIONS_DOCS + THINKING_DOCS
            ),
        },
        _time_range_case(
            "refused-time-range-offset-over-23-hours",
            "googleSearch timeRangeFilter starting at offset +24:00 (an RFC 3339 offset has at most 23 "
            "hours): a typed error, nothing sent.",
            "2025-01-01T00:00:00+24:00",
            "2025-01-02T00:00:00Z",
            "a timeRangeFilter bound is an RFC 3339 timestamp (its offset hours are 00 to 23)",
        ),
        {
            "name": "refused-maps-latitude-string",
            "description": "google.google_maps with a latLng latitude given as the string '34.05' (the "
            "tool arguments are strict: no coercion): a typed ProviderToolError, nothing sent.",
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
                        "args": {"latLng": {"latitude": "34.05", "longitude": -118.25}},
                    }
                ],
            },
            "response": None,
            "source": _refused("a LatLng latitude is a double, not a string", MAPS_DOCS),
        },
        {
            "name": "grounding-search-types-web",
            "description": "google.google_search with searchTypes webSearch (the web vertical named, "
            "not left to the default) → googleSearch.searchTypes.webSearch {}; a grounded answer.",
            "method": "generate",
            "model": "gemini-2.0-flash",
            "requirements": ["S1", "S4"],
            "features": ["provider_tools"],
            "request": {
                "prompt": "What is the current weather in Tokyo?",
                "tools": [{**SEARCH, "args": {"searchTypes": {"webSearch": {}}}}],
            },
            "response": raw_json(F + EMPTY_CHUNKS, 200),
            "source": F + EMPTY_CHUNKS,
            "source_args": {"note": RECONSTRUCTED},
        },
        _time_range_case(
            "refused-time-range-offset-minute-60",
            "googleSearch timeRangeFilter starting at offset +05:60 (offset minutes are 00 to 59): a "
            "typed error, nothing sent.",
            "2025-01-01T00:00:00+05:60",
            "2025-01-02T00:00:00Z",
            "a timeRangeFilter bound is an RFC 3339 timestamp (its offset minutes are 00 to 59)",
        ),
        {
            "name": "grounding-search-time-range-offset",
            "description": "googleSearch timeRangeFilter from 09:30 at offset +05:30 (04:00Z) to 04:20Z, "
            "a twenty-minute range whose start is before its end only with the offset's minutes: sent "
            "as given; a grounded answer.",
            "method": "generate",
            "model": "gemini-2.5-flash",
            "requirements": ["S1", "S4"],
            "features": ["provider_tools"],
            "request": {
                "prompt": "What is the weather in San Francisco right now?",
                "tools": [
                    {
                        **SEARCH,
                        "args": {
                            "timeRangeFilter": {
                                "startTime": "2025-06-01T09:30:00+05:30",
                                "endTime": "2025-06-01T04:20:00Z",
                            }
                        },
                    }
                ],
            },
            "response": _response(TIME_RANGE),
            "source": P + TIME_RANGE,
            "source_args": {
                "interaction": 0,
                "note": ADAPTED + "; timeRangeFilter added to the request (the recording sent none), "
                "as in grounding-search-time-range-filter, with another range",
            },
        },
        {
            "name": "refused-maps-latitude-under-minus-90",
            "description": "google.google_maps with a latLng whose latitude is -90.5 degrees (past the "
            "south pole): a typed ProviderToolError, nothing sent.",
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
                        "args": {"latLng": {"latitude": -90.5, "longitude": 0.0}},
                    }
                ],
            },
            "response": None,
            "source": _refused("a LatLng latitude is in the range [-90.0, +90.0]", MAPS_DOCS),
        },
        {
            "name": "refused-thinking-budget-option-under-minus-one",
            "description": "provider_options thinking_budget -2 (-1 is dynamic, 0 and up a budget): a "
            "typed InvalidRequestError, nothing sent.",
            "method": "generate",
            "model": "gemini-2.5-flash",
            "requirements": ["G18"],
            "request": {"prompt": "Hello", "provider_options": {"google": {"thinking_budget": -2}}},
            "response": None,
            "source": _refused(
                "thinkingBudget is -1 (dynamic) or a budget of 0 or more", OPTIONS_DOCS + THINKING_DOCS
            ),
        },
        {
            "name": "stream-thinking-effort-max-gemini25",
            "description": "Gemini 2.5: reasoning.effort max → thinkingBudget -1 (dynamic) + "
            "includeThoughts; thought-summary frames, then the answer.",
            "method": "stream",
            "model": "gemini-2.5-flash",
            "requirements": ["G4"],
            "features": ["reasoning"],
            "request": {"prompt": "Why is the sky blue?", "reasoning": {"effort": "max"}},
            "response": raw_sse(F + THOUGHT_SUMMARY),
            "source": F + THOUGHT_SUMMARY,
            "source_args": {"note": RECONSTRUCTED},
        },
        {
            "name": "grounding-stream-in-two-frames",
            "description": "The recorded grounded stream, its first chunk and support sent a frame "
            "early and repeated on the last frame with the rest: read once, the citations as recorded.",
            "method": "stream",
            "model": "gemini-2.5-pro",
            "requirements": ["S7", "S8"],
            "features": ["provider_tools"],
            "request": {
                "system": "You are a helpful chatbot.",
                "prompt": "What is the weather in San Francisco today?",
                "tools": [SEARCH],
            },
            "response": _stream_grounding_in_two_frames(),
            "source": P + SEARCH_STREAM,
            "source_args": {
                "interaction": 0,
                "note": ADAPTED + "; MOCK edit of the recorded response: the empty groundingMetadata of "
                "the frame before the last set to the first groundingChunks and groundingSupports item "
                "of the last frame",
            },
        },
        {
            "name": "grounding-stream-revised-in-last-frame",
            "description": "The recorded grounded stream, its first two chunks and supports sent a frame "
            "early, the first of each in an earlier version, and repeated revised on the last frame: "
            "the revision replaces them (no duplicates), the citations as recorded.",
            "method": "stream",
            "model": "gemini-2.5-pro",
            "requirements": ["S7", "S8"],
            "features": ["provider_tools"],
            "request": {
                "system": "You are a helpful chatbot.",
                "prompt": "What is the weather in San Francisco today?",
                "tools": [SEARCH],
            },
            "response": _stream_grounding_revised(),
            "source": P + SEARCH_STREAM,
            "source_args": {
                "interaction": 0,
                "note": ADAPTED + "; MOCK edit of the recorded response: the empty groundingMetadata of "
                "the frame before the last set to the first two groundingChunks and groundingSupports "
                "of the last frame, the first chunk's title and the first support's segment one "
                "character shorter (an earlier version, invented)",
            },
        },
    ]
