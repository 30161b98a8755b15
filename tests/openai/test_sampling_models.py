"""Which OpenAI reasoning models take ``temperature`` and ``top_p`` is data the recordings correct
(issue 34, Low): ``temperature=0`` was dropped for ``gpt-5.4-nano`` on the Responses API although a
real client sent it and the API answered 200 (tidyverse/ellmer's batch recording
``tests/corpus/batch/tidyverse__ellmer/tests__testthat__batch__state-capitals.json``: four answers of
``gpt-5.4-nano-2026-03-17`` echoing ``"temperature": 0`` with reasoning effort ``none``).

``Quirks.sampling_models`` names such models; a request that asks for no reasoning sends them the
sampling settings, one that asks for reasoning does not (with a warning). The last test reads every
vendored OpenAI recording: an answer that echoes a temperature other than the default must come from
a model the data sends temperatures to, so a new recording that contradicts the data fails here.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

import modelport
from modelport.types import CallWarning
from tests.recordings import CORPUS, recording

STATE_CAPITALS = "tidyverse__ellmer/tests__testthat__batch__state-capitals.json"


def built(model_id: str, **request: Any) -> tuple[dict[str, Any], list[CallWarning]]:
    model = modelport.get_model(model_id, api_key="test-key-not-a-secret")
    wire = model.provider.prepare(model.name, model.prepare(prompt="Capital of Iowa?", **request)).wire
    return wire.body, list(wire.warnings)


def test_the_recording_echoes_a_temperature_of_0_from_gpt_5_4_nano() -> None:
    data = json.loads(recording("batch", STATE_CAPITALS).read_text(encoding="utf-8"))
    echoes = [
        (r["status_code"], r["body"]["model"], r["body"]["temperature"], r["body"]["reasoning"]["effort"])
        for r in data["results"]
    ]
    assert echoes == [(200, "gpt-5.4-nano-2026-03-17", 0, "none")] * 4


@pytest.mark.parametrize("provider", ["openai-responses", "openai"])
@pytest.mark.parametrize("name", ["gpt-5.4-nano", "gpt-5.4-nano-2026-03-17"])
@pytest.mark.parametrize("reasoning", [None, {"enabled": False}])
def test_gpt_5_4_nano_is_sent_its_sampling_settings(provider: str, name: str, reasoning: Any) -> None:
    body, warnings = built(f"{provider}/{name}", temperature=0, top_p=0.5, reasoning=reasoning)
    assert (body["temperature"], body["top_p"]) == (0.0, 0.5)
    assert [w for w in warnings if w.setting in ("temperature", "top_p")] == []


@pytest.mark.parametrize("reasoning", [{"effort": "low"}, {"enabled": True}, {"budget_tokens": 100}])
def test_gpt_5_4_nano_reasoning_takes_no_temperature(reasoning: dict[str, Any]) -> None:
    body, warnings = built("openai-responses/gpt-5.4-nano", temperature=0, reasoning=reasoning)
    assert "temperature" not in body
    temperature = [w for w in warnings if w.setting == "temperature"]
    assert temperature == [
        CallWarning(
            type="unsupported-setting",
            setting="temperature",
            details="gpt-5.4-nano takes temperature only without reasoning; temperature is not sent",
        )
    ]


def options(provider: str, **values: Any) -> dict[str, dict[str, Any]]:
    return {provider: values}


NOT_SENT = CallWarning(
    type="unsupported-setting",
    setting="temperature",
    details="gpt-5.4-nano takes temperature only without reasoning; temperature is not sent",
)


@pytest.mark.parametrize("provider", ["openai-responses", "openai"])
@pytest.mark.parametrize("effort", ["low", "high", "minimal", "xhigh"])
def test_a_reasoning_effort_option_takes_the_temperature_away_as_reasoning_does(
    provider: str, effort: str
) -> None:
    """``reasoning_effort`` given in ``provider_options`` is the effort sent: with it, the model
    reasons, and OpenAI answers 400 to a temperature beside any effort but ``none``. It used to go
    out beside ``temperature`` (only ``reasoning.effort`` was read); now the same rule holds."""
    body, warnings = built(
        f"{provider}/gpt-5.4-nano", temperature=0, provider_options=options(provider, reasoning_effort=effort)
    )
    assert "temperature" not in body
    sent = body["reasoning"]["effort"] if provider == "openai-responses" else body["reasoning_effort"]
    assert sent == effort
    assert [w for w in warnings if w.setting == "temperature"] == [NOT_SENT]


@pytest.mark.parametrize("provider", ["openai-responses", "openai"])
@pytest.mark.parametrize("reasoning", [None, {"effort": "high"}, {"enabled": True}])
def test_a_reasoning_effort_option_of_none_keeps_the_temperature(provider: str, reasoning: Any) -> None:
    """``reasoning_effort: "none"`` replaces whatever ``reasoning`` maps to: the model does not
    reason, so it takes the sampling settings (as the recording above shows it answering)."""
    body, warnings = built(
        f"{provider}/gpt-5.4-nano",
        temperature=0,
        top_p=0.5,
        reasoning=reasoning,
        provider_options=options(provider, reasoning_effort="none"),
    )
    assert (body["temperature"], body["top_p"]) == (0.0, 0.5)
    sent = body["reasoning"]["effort"] if provider == "openai-responses" else body["reasoning_effort"]
    assert sent == "none"
    assert [w for w in warnings if w.setting in ("temperature", "top_p")] == []


@pytest.mark.parametrize("name", ["gpt-5-nano", "gpt-5-nano-2025-08-07", "gpt-5.4-nano-latest", "o3-mini"])
def test_other_reasoning_models_still_take_no_temperature(name: str) -> None:
    body, warnings = built(f"openai-responses/{name}", temperature=0)
    assert "temperature" not in body
    assert warnings == [
        CallWarning(
            type="unsupported-setting",
            setting="temperature",
            details=f"{name} is a reasoning model; temperature is not sent",
        )
    ]


def _documents(path: Path) -> Iterator[Any]:
    text = path.read_text(encoding="utf-8")
    yield json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)


def _objects(value: Any) -> Iterator[dict[str, Any]]:
    """Every JSON object in ``value``, looking into strings that hold JSON or SSE ``data:`` lines."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            yield item
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and "{" in item:
            for line in item.splitlines() if "data:" in item else [item]:
                line = line.removeprefix("data:").strip()
                if line.startswith("{"):
                    try:
                        stack.append(json.loads(line))
                    except ValueError:
                        pass


def recorded_temperatures() -> set[tuple[str, float]]:
    """``(model, temperature)`` of every recorded Responses answer echoing a temperature."""
    found: set[tuple[str, float]] = set()
    for folder in ("openai", "openai-responses", "batch"):
        for path in sorted((CORPUS / folder).rglob("*")):
            if path.suffix not in (".json", ".yaml", ".yml"):
                continue
            for document in _documents(path):
                for item in _objects(document):
                    model, temperature = item.get("model"), item.get("temperature")
                    if item.get("object") == "response" and isinstance(model, str):
                        if isinstance(temperature, (int, float)) and not isinstance(temperature, bool):
                            found.add((model, float(temperature)))
    return found


def test_every_recorded_temperature_is_one_the_data_sends() -> None:
    recorded = recorded_temperatures()
    assert ("gpt-5.4-nano-2026-03-17", 0.0) in recorded  # the scan finds the batch recording
    contradicted = []
    for model, temperature in sorted(recorded):
        if temperature == 1.0:
            continue  # the default: a recording that shows it says nothing about the model
        body, _ = built(f"openai-responses/{model}", temperature=temperature)
        if body.get("temperature") != temperature:
            contradicted.append(f"{model} answered with temperature {temperature} but is sent none")
    assert contradicted == []
