"""Real batch objects and results lines, read off the recordings in tests/corpus/batch
(crmne/ruby_llm, MIT), for the tests that damage them (tests/batches, tests/reliability).

The Gemini responses-file lines and the Vertex predictions lines are MOCK (no recording of either
exists): their shape is the documented one (``{"key", "response"}``; ``{"status",
"processed_time", "request", "response"}``), their response bodies the recorded Gemini ones.
"""

from __future__ import annotations

import copy
import functools
import json
from typing import Any

from tests.batches.replay import exchanges

_R = "crmne__ruby_llm/spec__fixtures__vcr_cassettes__batch_with_"
_CHATS = "_answers_staged_chats_and_appends_the_answers_to_their_conversations.yml"
ANTHROPIC = f"{_R}anthropic_claude-haiku-4-5{_CHATS}"
OPENAI = f"{_R}openai_gpt-5-nano{_CHATS}"
GEMINI = f"{_R}gemini_gemini-2_5-flash{_CHATS}"


@functools.cache
def _anthropic() -> tuple[dict[str, Any], tuple[dict[str, Any], ...]]:
    recorded = exchanges(ANTHROPIC)
    return recorded[-2].answer_json(), tuple(json.loads(line) for line in recorded[-1].answer.splitlines())


@functools.cache
def _openai() -> tuple[dict[str, Any], tuple[dict[str, Any], ...]]:
    recorded = exchanges(OPENAI)
    return recorded[-2].answer_json(), tuple(json.loads(line) for line in recorded[-1].answer.splitlines())


@functools.cache
def _gemini() -> dict[str, Any]:
    return dict(exchanges(GEMINI)[-1].answer_json())


def anthropic_batch() -> dict[str, Any]:
    """The ended ``message_batch`` (two requests, ``0`` and ``1``)."""
    return copy.deepcopy(_anthropic()[0])


def anthropic_lines() -> list[dict[str, Any]]:
    """Its results file, one object a line (``succeeded``: ``4`` and ``Jupiter``)."""
    return copy.deepcopy(list(_anthropic()[1]))


def openai_batch() -> dict[str, Any]:
    """The completed ``batch`` of ``/v1/responses`` requests ``0`` and ``1``."""
    return copy.deepcopy(_openai()[0])


def openai_lines() -> list[dict[str, Any]]:
    """Its output file, one object a line."""
    return copy.deepcopy(list(_openai()[1]))


def gemini_operation() -> dict[str, Any]:
    """The done ``batches/{id}`` operation, its two responses inline."""
    return copy.deepcopy(_gemini())


def gemini_inline() -> list[dict[str, Any]]:
    """Its ``inlinedResponses`` (``{"response", "metadata": {"custom_id"}}``)."""
    return copy.deepcopy(_gemini()["response"]["inlinedResponses"]["inlinedResponses"])


def gemini_file_lines() -> list[dict[str, Any]]:
    """MOCK: the same responses as lines of a responses file (``{"key", "response"}``)."""
    return [
        {"key": entry["metadata"]["custom_id"], "response": entry["response"]} for entry in gemini_inline()
    ]


def vertex_lines() -> list[dict[str, Any]]:
    """MOCK: the same responses as lines of a Vertex predictions file, the custom id in the request's
    ``modelport_custom_id`` label (as modelport submits it)."""
    return [
        {
            "status": "",
            "processed_time": "2026-12-01T18:04:11.000+00:00",
            "request": {
                "contents": [{"role": "user", "parts": [{"text": "p"}]}],
                "labels": {"modelport_custom_id": entry["metadata"]["custom_id"]},
            },
            "response": entry["response"],
        }
        for entry in gemini_inline()
    ]
