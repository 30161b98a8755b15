"""Canonical ``reasoning`` → ``thinking`` and ``output_config.effort`` by model family: adaptive
thinking with an effort on the models that take it, budgets elsewhere, and what a model cannot
take refused before any I/O (MOCK answers: the request side is under test)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from modelport.errors import InvalidRequestError

from .fakes import message, model


def sent(name: str, **request: Any) -> tuple[dict[str, Any], Any]:
    m, answers = model([httpx.Response(200, json=message())], name=name)
    result = m.generate(prompt="Why is the sky blue?", **request)
    return answers.body(), result


@pytest.mark.parametrize(
    ("name", "reasoning", "thinking", "output_config"),
    [
        ("claude-opus-4-6", {"effort": "high"}, {"type": "adaptive"}, {"effort": "high"}),
        ("claude-sonnet-4-6", {"effort": "max"}, {"type": "adaptive"}, {"effort": "max"}),
        ("claude-opus-4-7", {"effort": "low"}, {"type": "adaptive"}, {"effort": "low"}),
        ("claude-opus-4-6", {"enabled": True}, {"type": "adaptive"}, None),
        ("claude-opus-4-6", {"budget_tokens": 2048}, {"type": "enabled", "budget_tokens": 2048}, None),
        ("claude-opus-4-6", {"enabled": False}, {"type": "disabled"}, None),
        (
            "claude-opus-4-5-20251101",
            {"effort": "medium"},
            {"type": "enabled", "budget_tokens": 8192},
            {"effort": "medium"},
        ),
        ("claude-sonnet-4-5", {"effort": "low"}, {"type": "enabled", "budget_tokens": 2048}, None),
        ("claude-sonnet-4-5", {"enabled": True}, {"type": "enabled", "budget_tokens": 8192}, None),
    ],
)
def test_reasoning_by_model_family(
    name: str, reasoning: dict[str, Any], thinking: dict[str, Any], output_config: dict[str, Any] | None
) -> None:
    body, result = sent(name, reasoning=reasoning, max_output_tokens=20000)
    assert body["thinking"] == thinking
    assert body.get("output_config") == output_config
    assert result.warnings == []


def test_adaptive_thinking_takes_no_temperature() -> None:
    body, result = sent("claude-opus-4-6", reasoning={"effort": "medium"}, temperature=0.2)
    assert "temperature" not in body
    assert [(w.type, w.setting) for w in result.warnings] == [("unsupported-setting", "temperature")]


def test_max_effort_on_a_model_that_stops_at_high_is_sent_as_high() -> None:
    body, result = sent("claude-opus-4-5", reasoning={"effort": "max"}, max_output_tokens=64000)
    assert (body["thinking"], body["output_config"]) == (
        {"type": "enabled", "budget_tokens": 32000},
        {"effort": "high"},
    )
    assert [(w.setting, w.details) for w in result.warnings] == [
        ("reasoning.effort", "claude-opus-4-5 has no effort above high; max is sent as high")
    ]


@pytest.mark.parametrize(
    ("reasoning", "problem"),
    [
        ({"budget_tokens": 4096}, "claude-opus-4-7 takes no thinking budget"),
        ({"enabled": False}, "claude-opus-4-7 cannot turn thinking off"),
    ],
)
def test_adaptive_only_models_refuse_budgets_and_off_before_any_io(
    reasoning: dict[str, Any], problem: str
) -> None:
    m, answers = model([], name="claude-opus-4-7")
    with pytest.raises(InvalidRequestError, match=problem):
        m.generate(prompt="Hi", reasoning=reasoning)
    assert answers.requests == []


def test_the_thinking_option_replaces_what_reasoning_maps_to() -> None:
    body, _ = sent(
        "claude-opus-4-6",
        reasoning={"budget_tokens": 2048},
        provider_options={"anthropic": {"thinking": {"type": "adaptive", "display": "summarized"}}},
    )
    assert body["thinking"] == {"type": "adaptive", "display": "summarized"}
    assert "output_config" not in body
