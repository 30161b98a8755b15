"""Settings a Gemini body keeps or leaves out: thinking beside a ``generation_config``, a tool choice
without functions, and ``effort="max"`` on the Gemini 3 family (said, not silently lowered)."""

from __future__ import annotations

from typing import Any

import pytest

from modelport.errors import InvalidRequestError

from .mock import model, response

OK = {"candidates": [{"content": {"role": "model", "parts": [{"text": "ok"}]}, "finishReason": "STOP"}]}
FUNCTION = {"type": "function", "name": "f", "parameters": {"type": "object", "properties": {}}}


def generate(model_id: str = "google/gemini-3-pro-preview", **kwargs: Any) -> tuple[dict[str, Any], Any]:
    m, recorder = model([response(200, OK)], model_id)
    result = m.generate(prompt="hi", **kwargs)
    return recorder.body, result


def test_thinking_level_is_kept_beside_a_generation_config() -> None:
    options = {"google": {"thinking_level": "LOW", "generation_config": {"candidateCount": 1}}}
    body, _ = generate(provider_options=options)
    assert body["generationConfig"] == {"candidateCount": 1, "thinkingConfig": {"thinkingLevel": "LOW"}}


def test_reasoning_and_logprobs_are_kept_beside_a_generation_config() -> None:
    options = {
        "google": {
            "generation_config": {"temperature": 0.2, "thinkingConfig": {"includeThoughts": False}},
            "response_logprobs": True,
            "logprobs": 3,
        }
    }
    body, _ = generate("google/gemini-2.5-flash", reasoning={"effort": "low"}, provider_options=options)
    assert body["generationConfig"] == {
        "temperature": 0.2,
        "thinkingConfig": {"includeThoughts": True, "thinkingBudget": 512},
        "responseLogprobs": True,
        "logprobs": 3,
    }


def test_a_level_beside_a_budget_in_generation_config_is_refused() -> None:
    options = {
        "google": {"thinking_level": "LOW", "generation_config": {"thinkingConfig": {"thinkingBudget": 9}}}
    }
    m, _ = model([], "google/gemini-3-pro-preview")
    with pytest.raises(InvalidRequestError, match="both thinkingLevel and thinkingBudget"):
        m.generate(prompt="hi", provider_options=options)


@pytest.mark.parametrize("choice", ["none", "auto"])
def test_tool_choice_without_functions_is_not_sent(choice: str) -> None:
    body, _ = generate(tool_choice=choice)
    assert "toolConfig" not in body and "tools" not in body
    body, _ = generate(tool_choice=choice, tools=[FUNCTION])
    assert body["toolConfig"] == {"functionCallingConfig": {"mode": choice.upper()}}


def test_max_effort_on_gemini_3_is_high_with_a_warning() -> None:
    body, result = generate(reasoning={"effort": "max"})
    assert body["generationConfig"]["thinkingConfig"] == {"thinkingLevel": "HIGH", "includeThoughts": True}
    assert [(w.setting, w.details) for w in result.warnings] == [
        (
            "reasoning.effort",
            "gemini-3-pro-preview takes no effort 'max': it is lowered to thinkingLevel 'HIGH', its highest",
        )
    ]
    body, result = generate("google/gemini-2.5-pro", reasoning={"effort": "max"})
    assert body["generationConfig"]["thinkingConfig"] == {"thinkingBudget": -1, "includeThoughts": True}
    assert result.warnings == []
