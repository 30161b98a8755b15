"""The invariants for whole tool calls and stream errors catch a planted bug, and run on every
provider's cases through the runner (a third-party plugin's included: they are in ``_invariants``).

Each planted bug is one a plugin or the core could really have: a ``tool-call-end`` without its call
(a stream that skipped the core's completion), a part that disagrees with its deltas (a decoder
filling it wrongly), an invented status 500, the wrong class, ``StreamInterruptedError`` for a
provider's error object, a lost ``partial``.
"""

from __future__ import annotations

from typing import Any

import pytest

import modelport.events as events_module
from modelport.errors import (
    ProviderError,
    ProviderOverloadedError,
    ProviderQuotaError,
    ProviderRateLimitError,
    ProviderRequestError,
    StreamInterruptedError,
)
from modelport.events import (
    FinishEvent,
    StreamStartEvent,
    TextDeltaEvent,
    TextStartEvent,
    ToolCallDeltaEvent,
    ToolCallEndEvent,
    ToolCallStartEvent,
)
from modelport.types import Result, ToolCallPart
from modelport_conformance.cases import discover_suites
from modelport_conformance.invariants import check_stream_error, check_whole_tool_calls, stream_error_object
from modelport_conformance.runner import run_case

CALL = ToolCallPart(id="c1", name="get_weather", args={"city": "Paris"})


def tool_stream(end: ToolCallEndEvent) -> list[Any]:
    return [
        StreamStartEvent(),
        ToolCallStartEvent(id="0", call_id="c1", name="get_weather"),
        ToolCallDeltaEvent(id="0", delta='{"city": '),
        ToolCallDeltaEvent(id="0", delta='"Paris"}'),
        end,
        FinishEvent(finish_reason="tool-calls"),
    ]


def test_whole_tool_calls_hold_for_a_completed_stream() -> None:
    assert check_whole_tool_calls(tool_stream(ToolCallEndEvent(id="0", part=CALL))) == []


def test_an_end_without_its_call_is_caught() -> None:
    assert check_whole_tool_calls(tool_stream(ToolCallEndEvent(id="0"))) == [
        "event 4: tool-call-end '0' carries no part (the whole call)"
    ]


def test_a_part_that_disagrees_with_its_deltas_is_caught() -> None:
    wrong = CALL.model_copy(update={"args": {"city": "Rome"}})
    [problem] = check_whole_tool_calls(tool_stream(ToolCallEndEvent(id="0", part=wrong)))
    assert problem.startswith("event 4: tool-call-end '0' carries ")
    assert '"Rome"' in problem and problem.endswith(
        'but its start and deltas give {"id":"c1","name":"get_weather","args":{"city":"Paris"}}'
    )


ARRIVED = [StreamStartEvent(), TextStartEvent(id="0"), TextDeltaEvent(id="0", delta="Hel")]
PARTIAL = Result(finish_reason="error")
NO_STATUS = {"code": "server_error", "message": "Provider disconnected"}


def error(
    cls: type[ProviderError], status: int | None = None, partial: Result | None = PARTIAL
) -> ProviderError:
    return cls("boom", provider="p", status_code=status, partial=partial)


def test_the_table_holds_for_a_mapped_error() -> None:
    assert check_stream_error(error(ProviderOverloadedError), NO_STATUS, ARRIVED) == []
    own = {"code": 429, "message": "quota", "status": "RESOURCE_EXHAUSTED"}
    assert check_stream_error(error(ProviderQuotaError, 429), own, ARRIVED) == []
    assert check_stream_error(error(ProviderRateLimitError, 429), own, ARRIVED) == []
    assert check_stream_error(error(StreamInterruptedError), None, ARRIVED) == []


@pytest.mark.parametrize(
    ("raised", "error_object", "problems"),
    [
        (
            error(ProviderOverloadedError, 500),
            NO_STATUS,
            ["status_code is 500, but the error object carries None"],
        ),
        (
            error(StreamInterruptedError),
            NO_STATUS,
            [
                "the stream's error object maps to ProviderOverloadedError, but StreamInterruptedError was raised"
            ],
        ),
        (
            error(ProviderRequestError, 400),
            {"code": 503, "message": "busy", "status": "UNAVAILABLE"},
            [
                "the stream's error object maps to ProviderOverloadedError, but ProviderRequestError was raised",
                "status_code is 400, but the error object carries 503",
            ],
        ),
        (
            error(ProviderOverloadedError, partial=None),
            NO_STATUS,
            ["ProviderOverloadedError has no partial, though 3 events had arrived"],
        ),
        (
            error(ProviderOverloadedError, 500),
            None,
            [
                "ProviderOverloadedError says the provider reported an error, but the stream carried no error object"
            ],
        ),
        (
            error(StreamInterruptedError, 500),
            None,
            ["StreamInterruptedError with status 500: a broken stream has none"],
        ),
    ],
    ids=[
        "invented-500",
        "interrupted-for-an-error-object",
        "wrong-class",
        "lost-partial",
        "no-object",
        "status-on-a-break",
    ],
)
def test_a_planted_stream_error_bug_is_caught(
    raised: ProviderError, error_object: dict[str, Any] | None, problems: list[str]
) -> None:
    assert check_stream_error(raised, error_object, ARRIVED) == problems


def test_the_error_object_is_found_in_every_recorded_form() -> None:
    bare = {"raw": '{"error": {"code": 499, "status": "CANCELLED", "message": "x"}}'}
    event = {
        "event": "error",
        "data": {"type": "error", "error": {"type": "overloaded_error", "message": "o"}},
    }
    frame = {"data": {"id": "gen-1", "error": {"code": 400, "message": "Token limit reached"}}}
    text = {"data": {"choices": []}}
    failed = {  # a Responses stream's last frame: the error inside the response envelope
        "event": "response.failed",
        "data": {
            "type": "response.failed",
            "response": {
                "id": "resp_1",
                "status": "failed",
                "error": {"code": "server_error", "message": "m"},
            },
        },
    }
    completed = {"data": {"type": "response.completed", "response": {"status": "completed", "error": None}}}
    assert stream_error_object([text, completed, failed]) == {"code": "server_error", "message": "m"}
    assert stream_error_object([completed]) is None
    assert stream_error_object([text, bare]) == {"code": 499, "status": "CANCELLED", "message": "x"}
    assert stream_error_object([text, event]) == {"type": "overloaded_error", "message": "o"}
    assert stream_error_object([frame]) == {"code": 400, "message": "Token limit reached"}
    assert stream_error_object([text]) is None


def test_the_runner_applies_both_to_every_providers_stream_cases(monkeypatch: pytest.MonkeyPatch) -> None:
    # A core that stopped completing tool-call-end events fails the invariants check of every case
    # with a streamed call, on both plugins' suites.
    monkeypatch.setattr(events_module.StreamAccumulator, "_end_call", _end_call_without_part)
    suites, errors = discover_suites(["openai", "google"])
    assert errors == {}
    failed = set()
    for provider, suite in suites.items():
        for case in suite.cases:
            if case.is_stream and "tool" in case.name and "call" in case.name:
                outcome = run_case(suite, case)
                if "[invariants]" in outcome.message and "carries no part" in outcome.message:
                    failed.add((provider, case.name))
    assert {("openai", "stream-tool-call-fragments"), ("google", "stream-tool-call-gemini3-auto")} <= failed


_original_end_call = events_module.StreamAccumulator._end_call


def _end_call_without_part(self: Any, event: ToolCallEndEvent) -> ToolCallEndEvent:
    _original_end_call(self, event)
    return event  # the planted bug: the caller gets the end without its call


def test_the_runner_catches_an_in_stream_error_typed_with_an_invented_status(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import modelport.http._errors as http_errors

    monkeypatch.setattr(http_errors, "own_status", lambda error: 500)  # the planted bug: always 500
    suites, _ = discover_suites(["openrouter"])
    suite = suites["openrouter"]
    [case] = [c for c in suite.cases if c.name == "stream-error-in-chunk"]
    outcome = run_case(suite, case)
    assert "[invariants] the stream's error object maps to ProviderRequestError" in outcome.message
    assert "status_code is 500, but the error object carries 400" in outcome.message
