"""Reasoning settings per model family on Chat Completions servers, and tool_choice without tools.

Each family's rules are plain data in the quirks: OpenAI's models from ``gpt-5.1-codex-max`` on take
``xhigh`` (sent for ``effort="max"``), DeepSeek V4 takes ``thinking`` and ``high``/``max``, the
older DeepSeek models set reasoning by model. A level sent as another rank is a warning.
"""

from __future__ import annotations

import pytest

from modelport.errors import InvalidRequestError

from .test_request_body import TOOL, sent


def _warnings(result: object) -> list[tuple[str | None, str | None]]:
    return [(w.setting, w.details) for w in result.warnings]  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", ["gpt-5.2", "gpt-5.1-codex-max", "gpt-5.4-mini", "gpt-5.5"])
def test_max_is_xhigh_on_openai_models_that_take_it(name: str) -> None:
    body, result = sent(f"openai/{name}", prompt="Hi", reasoning={"effort": "max"})
    assert body["reasoning_effort"] == "xhigh"
    assert result.warnings == []


def test_max_on_an_older_openai_model_is_lowered_with_a_warning() -> None:
    body, result = sent("openai/gpt-5.1", prompt="Hi", reasoning={"effort": "max"})
    assert body["reasoning_effort"] == "high"
    assert _warnings(result) == [
        ("reasoning.effort", "gpt-5.1 takes no effort 'max': it is lowered to 'high'")
    ]
    body, result = sent("openai/gpt-5.2", prompt="Hi", reasoning={"effort": "medium"})
    assert body["reasoning_effort"] == "medium" and result.warnings == []


def test_openrouter_passes_max_as_xhigh() -> None:
    body, result = sent("openrouter/openai/gpt-5.2", prompt="Hi", reasoning={"effort": "max"})
    assert body["reasoning"] == {"effort": "xhigh"}
    assert result.warnings == []


def test_deepseek_v4_takes_thinking_and_max_effort() -> None:
    body, result = sent("deepseek/deepseek-v4-pro", prompt="Hi", reasoning={"enabled": True, "effort": "max"})
    assert body["thinking"] == {"type": "enabled"}
    assert body["reasoning_effort"] == "max"
    assert result.warnings == []
    body, result = sent("deepseek/deepseek-v4-flash", prompt="Hi", reasoning={"enabled": False})
    assert body["thinking"] == {"type": "disabled"} and "reasoning_effort" not in body
    assert result.warnings == []


def test_deepseek_v4_raises_low_to_high_with_a_warning() -> None:
    body, result = sent("deepseek/deepseek-v4-flash", prompt="Hi", reasoning={"effort": "low"})
    assert body["reasoning_effort"] == "high" and "thinking" not in body
    assert _warnings(result) == [
        ("reasoning.effort", "deepseek-v4-flash takes no effort 'low': it is raised to 'high'")
    ]


def test_deepseek_v4_refuses_thinking_off_with_an_effort() -> None:
    with pytest.raises(InvalidRequestError, match="enabled=False cannot be combined"):
        sent("deepseek/deepseek-v4-pro", prompt="Hi", reasoning={"enabled": False, "effort": "high"})


@pytest.mark.parametrize("name", ["deepseek-chat", "deepseek-reasoner"])
def test_older_deepseek_models_set_reasoning_by_model(name: str) -> None:
    body, result = sent(f"deepseek/{name}", prompt="Hi", reasoning={"enabled": True, "effort": "max"})
    assert "thinking" not in body and "reasoning_effort" not in body
    assert _warnings(result) == [("reasoning", "deepseek sets reasoning by model; the setting is not sent")]


@pytest.mark.parametrize("choice", ["none", "auto"])
def test_tool_choice_without_tools_is_not_sent(choice: str) -> None:
    body, result = sent(prompt="Hi", tool_choice=choice)
    assert "tool_choice" not in body and "tools" not in body
    assert result.warnings == []
    body, _ = sent(prompt="Hi", tools=[TOOL], tool_choice=choice)
    assert body["tool_choice"] == choice
