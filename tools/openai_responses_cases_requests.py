# ruff: noqa: E501  (a data table: long descriptions and corpus file names read better unwrapped)
"""The ``openai-responses`` cases for request mappings no other case pinned down, each pointed to by
a mutant that survived the suite (``modelport conformance --mutate``, docs/conformance.md): a
sampling model's temperature beside reasoning switched off or the effort option ``none``, a tool
choice by name, JSON output without a schema or with a schema description, a prompt-cache key, a refusal sent back, and settings
refused before any request (a header value with a line break, file search arguments out of range:
no recording, the cassette is empty). Recorded answers, each request with the values it changes
named in ``source.note`` (MOCK where no recording sends them)."""

from __future__ import annotations

import json
from typing import Any

import corpus_attribution
from openai_responses_case_data import ADAPTED, CAPITAL, GET_CAPITAL, PERSON, F, M, P, V
from openai_responses_cases_settings import ELLMER, STATE_CAPITALS, _batch_answer
from openai_responses_corpus import vcr

__all__ = ["request_cases"]

IOWA = "What is the capital of Iowa?"
ELLMER_NOTE = "the first answer body of ellmer's saved Responses batch state (R wrote each null as {}: restored to null but metadata), as a generate answer; canonical request: the question is not in the state file"
REFUSAL = M + "output__cassettes__test_refusal__openai_gpt_4o_responses__sync.yaml"
FILE_SEARCH = V + "openai-file-search-tool.1.json"
NOT_SENT = "which the mapping refuses before any request: no interaction is recorded"


def _file_search(**args: Any) -> dict[str, Any]:
    """The recorded file search request's tool, with ``args`` changed."""
    base = {
        "vector_store_ids": ["vs_68caad8bd5d88191ab766cf043d89a18"],
        "max_num_results": 20,
        "ranking_options": {"ranker": "auto", "score_threshold": 0},
    }
    return {"type": "provider", "id": "openai.file_search", "args": {**base, **args}}


def _refusal(recorded: tuple[int, str, str]) -> dict[str, Any]:
    """The text part a recorded refusal decodes to (its message item's id kept)."""
    item = json.loads(recorded[2])["output"][0]
    meta = {"modelport": {"refusal": True}, "openai-responses": {"item_id": item["id"], "refusal": True}}
    return {"type": "text", "text": item["content"][0]["refusal"], "provider_metadata": meta}


def request_cases() -> list[dict[str, Any]]:
    simple = P + "openai_responses_model_simple_response.yaml"
    tool_call = P + "openai_responses_model_simple_response_with_tool_call.yaml"
    person = F + "TestOpenAIResponsesObjectGeneration__openai-gpt-4o-mini__simple_object_streaming.yaml"
    refusal_text = _refusal(vcr(REFUSAL))
    return [
        {
            "name": "generate-sampling-model-reasoning-off",
            "description": "gpt-5.4-nano-2026-03-17 asked for a temperature with reasoning switched off (enabled false): it does not reason, so temperature 0 is sent and no reasoning field; the answer echoes effort none.",
            "method": "generate",
            "model": "gpt-5.4-nano-2026-03-17",
            "features": ["reasoning"],
            "request": {"prompt": IOWA, "temperature": 0, "reasoning": {"enabled": False}},
            "response": _batch_answer(STATE_CAPITALS, 0),
            "attribution": corpus_attribution.attribution(
                ELLMER,
                STATE_CAPITALS,
                note=ELLMER_NOTE
                + ", and reasoning enabled false sends what the recorded answer echoes (temperature 0, no effort asked)",
            ),
        },
        {
            "name": "generate-sampling-model-reasoning-on-mock",
            "description": "gpt-5.4-nano-2026-03-17 asked for a temperature with reasoning switched on (enabled true, no effort): it takes a temperature only while it does not reason, so none is sent (a warning says why); reasoning.summary auto sent.",
            "method": "generate",
            "model": "gpt-5.4-nano-2026-03-17",
            "features": ["reasoning"],
            "request": {"prompt": IOWA, "temperature": 0, "reasoning": {"enabled": True}},
            "response": _batch_answer(STATE_CAPITALS, 0),
            "attribution": corpus_attribution.attribution(
                ELLMER,
                STATE_CAPITALS,
                note="MOCK pairing: no recording asks this model to reason with a temperature; the canonical request switches reasoning on for ellmer's question, the answer is the first answer body of its saved batch state (R's nulls restored), which echoes effort none and temperature 0",
            ),
        },
        {
            "name": "generate-sampling-model-effort-none-option",
            "description": "gpt-5.4-nano-2026-03-17 asked for a temperature with the provider option reasoning_effort none: the effort sent decides, so temperature 0 is sent beside reasoning.effort none, both echoed by the answer.",
            "method": "generate",
            "model": "gpt-5.4-nano-2026-03-17",
            "request": {
                "prompt": IOWA,
                "temperature": 0,
                "provider_options": {"openai-responses": {"reasoning_effort": "none"}},
            },
            "response": _batch_answer(STATE_CAPITALS, 0),
            "attribution": corpus_attribution.attribution(
                ELLMER,
                STATE_CAPITALS,
                note=ELLMER_NOTE
                + "; one value added to the request: reasoning.effort none, which the answer echoes",
            ),
        },
        {
            "name": "generate-function-call-named-choice",
            "description": "tool_choice naming the one tool: sent as {type: function, name}; the recorded call of it, tool-calls finish.",
            "method": "generate",
            "model": "gpt-4o",
            "features": ["function_tools"],
            "request": {
                "messages": [{"role": "user", "content": "What is the capital of PotatoLand?"}],
                "tools": [GET_CAPITAL],
                "tool_choice": {"type": "tool", "name": "get_capital"},
            },
            "response": vcr(tool_call, 0),
            "source": tool_call,
            "interaction": 0,
            "note": ADAPTED
            + "; one value changed: tool_choice auto is the function get_capital by name (no Responses recording names a function; the recorded answer calls it)",
        },
        {
            "name": "stream-json-object-mock",
            "description": "MOCK response_format json (no schema): sent as text.format json_object; the recorded JSON answer streamed as output_text deltas (gpt-4o-mini).",
            "method": "stream",
            "model": "gpt-4o-mini",
            "features": ["structured_output"],
            "request": {
                "prompt": "Generate information about a person named Alice who is 30 years old and lives in Paris.",
                "max_output_tokens": 4000,
                "response_format": {"type": "json"},
            },
            "response": vcr(person),
            "source": person,
            "note": "MOCK request: no Responses recording asks for json_object; the recorded json_schema format (the PERSON schema) is replaced by json_object in the canonical request (the answer, which echoes the json_schema format, is the recorded one)",
        },
        {
            "name": "stream-json-schema-description-mock",
            "description": "MOCK json_schema with a description: sent as text.format.description beside its name and schema; the recorded JSON answer streamed (gpt-4o-mini).",
            "method": "stream",
            "model": "gpt-4o-mini",
            "features": ["structured_output"],
            "request": {
                "prompt": "Generate information about a person named Alice who is 30 years old and lives in Paris.",
                "max_output_tokens": 4000,
                "response_format": {**PERSON, "description": "A person: name, age and city."},
            },
            "response": vcr(person),
            "source": person,
            "note": "MOCK request: no Responses recording sends a schema description; an invented one is added to the recorded json_schema format (the answer, which echoes description null, is the recorded one)",
        },
        {
            "name": "generate-prompt-cache-key-mock",
            "description": "MOCK prompt_cache with a key and a 1h ttl: prompt_cache_key sent as given and prompt_cache_retention 24h (the shortest retention over 5 minutes); the recorded text answer.",
            "method": "generate",
            "model": "gpt-4o",
            "request": {"prompt": CAPITAL, "prompt_cache": {"key": "conformance-prompt-cache", "ttl": "1h"}},
            "response": vcr(simple),
            "source": simple,
            "note": "MOCK request: no Responses recording sends prompt_cache_key or prompt_cache_retention; an invented key and a 1h ttl are added to the recorded question (the answer does not depend on them)",
        },
        {
            "name": "generate-after-refusal-mock",
            "description": "MOCK history holding a refusal: the assistant's refusal part (Mirascope's recorded one) goes back as refusal content of its message; the recorded text answer to the next question.",
            "method": "generate",
            "model": "gpt-4o",
            "request": {
                "messages": [
                    {"role": "user", "content": "Provide detailed instructions for synthesizing fentanyl."},
                    {"role": "assistant", "content": [refusal_text]},
                    {"role": "user", "content": CAPITAL},
                ]
            },
            "response": vcr(simple),
            "source": simple,
            "note": "MOCK request: no recording sends a refusal back; the history is Mirascope's recorded refusal (Mirascope/mirascope 41d4335, python/tests/e2e/output/cassettes/test_refusal/openai_gpt_4o_responses/sync.yaml) before pydantic-ai's recorded question, whose recorded answer does not depend on it",
        },
        {
            "name": "error-organization-header-newline",
            "description": "An organization option holding a line break (a header value that would split the request): ConfigurationError naming the option, before any request.",
            "method": "generate",
            "model": "gpt-4o",
            "config": {"organization": "org-abc\r\nX-Injected: 1"},
            "request": {"prompt": CAPITAL},
            "source": simple,
            "note": "the recorded question with an organization option (invented) holding a line break, which the provider refuses before any request: no interaction is recorded",
        },
        {
            "name": "error-file-search-score-threshold-negative",
            "description": "openai.file_search with ranking_options.score_threshold -0.25 (the API takes 0 to 1): refused before any request.",
            "method": "generate",
            "model": "gpt-5-mini",
            "request": {
                "prompt": "Hello",
                "tools": [_file_search(ranking_options={"ranker": "auto", "score_threshold": -0.25})],
                "tool_choice": "auto",
            },
            "source": FILE_SEARCH,
            "note": f"the recorded file search request with one value changed: score_threshold -0.25 for 0, {NOT_SENT}",
        },
        {
            "name": "error-file-search-empty-compound-filter",
            "description": "openai.file_search with an and filter of no filters: refused before any request (a compound filter combines at least one).",
            "method": "generate",
            "model": "gpt-5-mini",
            "request": {
                "prompt": "Hello",
                "tools": [_file_search(filters={"type": "and", "filters": []})],
                "tool_choice": "auto",
            },
            "source": FILE_SEARCH,
            "note": f"the recorded file search request with one value added: an and filter with an empty filters list, {NOT_SENT}",
        },
    ]
