"""The ``modelport`` logger (issue 16): a DEBUG line per HTTP request, an INFO line per retry, a WARNING
per call that dropped settings; never a credential or a body."""

from __future__ import annotations

import logging
import re

import httpx
import pytest

from modelport import ProviderOverloadedError
from modelport._runtime import retry as _retry
from tests.google import corpus as c
from tests.google import mock

GROUNDED = "mock-responses__googleai__unary-success-google-search-grounding.json"
STREAMED = "mock-responses__googleai__streaming-success-url-context.txt"
REQUEST_LINE = re.compile(
    r"request provider=google model=gemini-2\.5-flash method=POST status=(\S+) duration_ms=\d+\.\d"
)


def records(caplog: pytest.LogCaptureFixture, level: int | None = None) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "modelport" and (level is None or r.levelno == level)]


def no_credential(caplog: pytest.LogCaptureFixture) -> None:
    for record in records(caplog):
        assert mock.KEY not in record.getMessage()
        assert mock.KEY not in repr(record.__dict__)
    assert mock.KEY not in caplog.text


def overloaded() -> httpx.Response:
    error = {"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}}
    return mock.response(503, error)


def test_one_debug_line_per_request(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="modelport")
    model, _ = mock.model([mock.response(200, c.load_json(c.FIREBASE, GROUNDED))])
    model.generate(prompt="What is the weather in London?")
    (line,) = records(caplog)
    assert line.levelno == logging.DEBUG
    match = REQUEST_LINE.fullmatch(line.getMessage())
    assert match is not None, line.getMessage()
    assert match.group(1) == "200"
    assert (line.modelport_provider, line.modelport_model, line.modelport_method) == (  # type: ignore[attr-defined]
        "google",
        "gemini-2.5-flash",
        "POST",
    )
    assert line.modelport_status == 200  # type: ignore[attr-defined]
    assert line.modelport_duration_ms >= 0  # type: ignore[attr-defined]
    assert "London" not in caplog.text  # never a body
    assert "generativelanguage" not in caplog.text  # nor the URL
    no_credential(caplog)


def test_debug_lines_stay_silent_above_debug(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="modelport")
    model, _ = mock.model([mock.response(200, c.load_json(c.FIREBASE, GROUNDED))])
    model.generate(prompt="Hi")
    assert records(caplog) == []


def test_each_retry_is_an_info_line_with_delay_and_reason(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    caplog.set_level(logging.DEBUG, logger="modelport")
    mock.no_sleep(monkeypatch)
    monkeypatch.setattr(_retry.random, "random", lambda: 1.0)
    model, _ = mock.model([overloaded(), overloaded(), overloaded()])
    with pytest.raises(ProviderOverloadedError):
        model.generate(prompt="Hi")
    requests = records(caplog, logging.DEBUG)
    assert [REQUEST_LINE.fullmatch(r.getMessage()).group(1) for r in requests] == ["503"] * 3  # type: ignore[union-attr]
    retries = records(caplog, logging.INFO)
    assert [r.getMessage().split(": ", 1)[0] for r in retries] == [
        "retry 1 in 0.5 s after ProviderOverloadedError (HTTP 503)",
        "retry 2 in 1 s after ProviderOverloadedError (HTTP 503)",
    ]
    assert [(r.modelport_retry, r.modelport_delay) for r in retries] == [(1, 0.5), (2, 1.0)]  # type: ignore[attr-defined]
    assert all("The model is overloaded." in r.getMessage() for r in retries)
    no_credential(caplog)


def test_stream_retry_is_logged_too(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    caplog.set_level(logging.INFO, logger="modelport")
    mock.no_sleep(monkeypatch)
    monkeypatch.setattr(_retry.random, "random", lambda: 1.0)
    body = c.raw(c.FIREBASE, STREAMED)
    model, _ = mock.model([overloaded(), mock.response(200, body, mock.SSE)])
    model.stream(prompt="Hi").result()
    (retry,) = records(caplog)
    assert retry.getMessage().startswith("retry 1 in 0.5 s after ProviderOverloadedError (HTTP 503): ")


def test_a_transport_failure_is_logged_with_its_type(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    caplog.set_level(logging.DEBUG, logger="modelport")
    mock.no_sleep(monkeypatch)

    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    model, _ = mock.model([refuse], max_retries=0)
    with pytest.raises(ProviderOverloadedError):
        model.generate(prompt="Hi")
    (line,) = records(caplog, logging.DEBUG)
    assert REQUEST_LINE.fullmatch(line.getMessage()).group(1) == "ConnectError"  # type: ignore[union-attr]
    assert line.modelport_status is None  # type: ignore[attr-defined]


def test_dropped_settings_are_one_warning_per_call(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="modelport")
    model, _ = mock.model([mock.response(200, c.load_json(c.FIREBASE, GROUNDED))])
    result = model.generate(prompt="Hi", presence_penalty=0.5, frequency_penalty=0.1)
    assert [w.setting for w in result.warnings] == ["presence_penalty", "frequency_penalty"]
    (line,) = records(caplog)
    assert line.levelno == logging.WARNING
    assert line.getMessage() == (
        "google/gemini-2.5-flash dropped unsupported settings: "
        "presence_penalty (Gemini does not support presence_penalty; it was not sent); "
        "frequency_penalty (Gemini does not support frequency_penalty; it was not sent)"
    )
    assert line.modelport_dropped == ["presence_penalty", "frequency_penalty"]  # type: ignore[attr-defined]


def test_dropped_settings_on_a_stream_are_one_warning(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="modelport")
    model, _ = mock.model([mock.response(200, c.raw(c.FIREBASE, STREAMED), mock.SSE)])
    model.stream(prompt="Hi", presence_penalty=0.5).result()
    (line,) = records(caplog)
    assert line.getMessage() == (
        "google/gemini-2.5-flash dropped unsupported settings: "
        "presence_penalty (Gemini does not support presence_penalty; it was not sent)"
    )


def test_no_warning_without_dropped_settings(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="modelport")
    model, _ = mock.model([mock.response(200, c.load_json(c.FIREBASE, GROUNDED))])
    model.generate(prompt="Hi", temperature=0.3)
    assert records(caplog, logging.WARNING) == []


@pytest.mark.asyncio
async def test_async_requests_are_logged(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="modelport")
    model, _ = mock.model(
        [
            mock.response(200, c.load_json(c.FIREBASE, GROUNDED)),
            mock.response(200, c.raw(c.FIREBASE, STREAMED), mock.SSE),
        ],
        asynchronous=True,
    )
    await model.agenerate(prompt="Hi", presence_penalty=0.5)
    await model.astream(prompt="Hi").result()
    lines = records(caplog, logging.DEBUG)
    assert [REQUEST_LINE.fullmatch(r.getMessage()).group(1) for r in lines] == ["200", "200"]  # type: ignore[union-attr]
    assert len(records(caplog, logging.WARNING)) == 1
    no_credential(caplog)
