"""Gemini 3 thinking levels (issue 13): effort → ``thinkingLevel`` on Gemini 3, ``thinkingBudget`` on
2.5; explicit levels and budgets are checked against the model family before any request.

Expected values come from vercel/ai's live capture of gemini-3.7-flash at each thinking level
(Apache-2.0, tests/corpus/gemini/vercel__ai/...google-gemini-3.7-flash-thinking-levels.json).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from modelport.errors import InvalidRequestError, ProviderRequestError
from modelport.types import TextPart
from tests import recordings

from .mock import model, response

LEVELS = "vercel__ai/packages__google__src____fixtures____google-gemini-3.7-flash-thinking-levels.json"
OK = {"candidates": [{"content": {"role": "model", "parts": [{"text": "ok"}]}, "finishReason": "STOP"}]}


def captures() -> dict[str, Any]:
    return json.loads(recordings.gemini(LEVELS).read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def thinking(model_id: str, **kwargs: Any) -> dict[str, Any]:
    m, recorder = model([response(200, OK)], model_id)
    m.generate(prompt="hi", **kwargs)
    return recorder.body["generationConfig"]["thinkingConfig"]  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("effort", "level"), [("low", "LOW"), ("medium", "MEDIUM"), ("high", "HIGH"), ("max", "HIGH")]
)
def test_effort_is_a_level_on_gemini_3(effort: str, level: str) -> None:
    for model_id in (
        "google/gemini-3-pro-preview",
        "google/gemini-3.7-flash",
        "google-vertex/gemini-3-flash",
    ):
        options = (
            {"token": "t", "project": "p", "api_key": None} if model_id.startswith("google-vertex") else {}
        )
        m, recorder = model([response(200, OK)], model_id, **options)
        m.generate(prompt="hi", reasoning={"effort": effort})
        assert recorder.body["generationConfig"]["thinkingConfig"] == {
            "thinkingLevel": level,
            "includeThoughts": True,
        }


def test_effort_stays_a_budget_on_gemini_25() -> None:
    assert thinking("google/gemini-2.5-flash", reasoning={"effort": "low"}) == {
        "thinkingBudget": 512,
        "includeThoughts": True,
    }
    # An explicit budget is a budget everywhere (Gemini 3 still accepts one).
    assert thinking("google/gemini-3-pro-preview", reasoning={"budget_tokens": 1000}) == {
        "thinkingBudget": 1000,
        "includeThoughts": True,
    }


def test_recorded_low_level_response_decodes_as_before() -> None:
    low = captures()["low"]
    m, recorder = model([response(low["status"], low["body"])], "google/gemini-3.7-flash")
    result = m.generate(prompt="Hello", reasoning={"effort": "low"})
    assert recorder.body["generationConfig"]["thinkingConfig"]["thinkingLevel"] == "LOW"
    part = low["body"]["candidates"][0]["content"]["parts"][0]
    assert result.content == [
        TextPart(
            text=part["text"], provider_metadata={"google": {"thoughtSignature": part["thoughtSignature"]}}
        )
    ]
    assert result.finish_reason == "stop" and result.model_version == "gemini-3.7-flash"
    assert result.usage.output_tokens == low["body"]["usageMetadata"]["candidatesTokenCount"]


def test_explicit_level_option_is_sent_and_its_recorded_rejection_is_typed() -> None:
    minimal = captures()["minimal"]
    m, recorder = model([response(minimal["status"], minimal["body"])], "google/gemini-3.7-flash")
    with pytest.raises(ProviderRequestError, match="Thinking level MINIMAL is not supported"):
        m.generate(prompt="Hello", provider_options={"google": {"thinking_level": "MINIMAL"}})
    assert recorder.body["generationConfig"] == {"thinkingConfig": {"thinkingLevel": "MINIMAL"}}
    assert "thinking_level" not in recorder.body and "thinkingLevel" not in recorder.body


def test_explicit_budget_option() -> None:
    assert thinking("google/gemini-2.5-pro", provider_options={"google": {"thinking_budget": 300}}) == {
        "thinkingBudget": 300
    }
    assert thinking(
        "google/gemini-2.5-pro",
        reasoning={"effort": "low"},
        provider_options={"google": {"thinking_budget": 300}},
    ) == {"thinkingBudget": 300, "includeThoughts": True}


@pytest.mark.parametrize(
    ("model_id", "kwargs", "message"),
    [
        (
            "google/gemini-3-flash",
            {"provider_options": {"google": {"thinking_level": "LOW", "thinking_budget": 10}}},
            "not both",
        ),
        ("google/gemini-2.5-flash", {"provider_options": {"google": {"thinking_level": "LOW"}}}, "Gemini 3"),
        (
            "google/gemini-3-flash",
            {"reasoning": {"budget_tokens": 10}, "provider_options": {"google": {"thinking_level": "LOW"}}},
            "a level and a budget",
        ),
        (
            "google/gemini-3-flash",
            {"reasoning": {"effort": "low"}, "provider_options": {"google": {"thinking_budget": 10}}},
            "a level and a budget",
        ),
        (
            "google/gemini-3-flash",
            {
                "provider_options": {
                    "google": {
                        "generation_config": {"thinkingConfig": {"thinkingLevel": "LOW", "thinkingBudget": 1}}
                    }
                }
            },
            "both thinkingLevel and thinkingBudget",
        ),
        (
            "google/gemini-2.5-flash",
            {
                "provider_options": {
                    "google": {"generation_config": {"thinkingConfig": {"thinkingLevel": "LOW"}}}
                }
            },
            "Gemini 3",
        ),
        ("google/gemini-3-pro-preview", {"reasoning": {"enabled": False}}, "cannot turn thinking off"),
        (
            "google/gemini-3-flash",
            {"provider_options": {"google": {"thinking_level": "low"}}},
            "thinking_level",
        ),
    ],
)
def test_invalid_thinking_is_rejected_before_any_request(
    model_id: str, kwargs: dict[str, Any], message: str
) -> None:
    m, recorder = model([], model_id)
    with pytest.raises(InvalidRequestError, match=message):
        m.generate(prompt="hi", **kwargs)
    with pytest.raises(InvalidRequestError, match=message):
        m.stream(prompt="hi", **kwargs).result()
    assert recorder.requests == []
