"""Each step of the tool loop validates its request once, and that request is what the step records
(``Step.request``) and what is sent. Recorded OpenAI traffic (simonw/llm's
``test_tool_use_chain_of_two_calls``, see tests/corpus/openai/MANIFEST.md) on ``httpx.MockTransport``."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from modelport import _model

from .test_tool_loop_approval import CHAIN, Dragons, recorded

PROMPT = "Can the country of Crumpet have dragons?"


@pytest.fixture
def validations(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of messages of every validation into a ``Request``."""
    seen: list[int] = []
    build = _model.build_request

    def counting(kwargs: Any) -> Any:
        request = build(kwargs)
        seen.append(len(request.messages))
        return request

    monkeypatch.setattr(_model, "build_request", counting)
    return seen


def test_each_step_validates_once_and_records_what_it_sent(validations: list[int]) -> None:
    model, recorder = recorded(CHAIN)
    run = model.run(prompt=PROMPT, tools=Dragons().tools)
    assert (run.text, run.stop_reason, len(run.steps)) == ("YES", "answer", 3)
    assert validations == [1, 3, 5]  # before: each step twice, for Step.request and for the call
    sent = recorder.bodies()
    assert [len(step.request.messages) for step in run.steps] == [len(b["messages"]) for b in sent]
    assert [t.name for t in run.steps[0].request.tools or []] == ["lookup_population", "can_have_dragons"]


def test_each_async_step_validates_once(validations: list[int]) -> None:
    model, _ = recorded(CHAIN)
    run = asyncio.run(model.arun(prompt=PROMPT, tools=Dragons().tools))
    assert (run.text, len(run.steps)) == ("YES", 3)
    assert validations == [1, 3, 5]
