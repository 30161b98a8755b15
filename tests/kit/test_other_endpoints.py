"""The kit's calls to a provider's other endpoints (files, caches, uploads...): ``HttpProvider.call_json``
/ ``acall_json``, ``call`` and multi-request ``Operation``s, against a recording transport."""

from __future__ import annotations

import json
import math
from typing import Any

import httpx
import pytest

from modelport.errors import InvalidRequestError, ProviderOverloadedError, ProviderRequestError
from modelport.http import HttpRequest, Wait

from .counter import KEY, Counter, Transport, ok, provider


def test_call_json_sends_through_the_kit_and_parses_json() -> None:
    transport = Transport(ok({"name": "files/1"}), httpx.Response(200, content=b""))
    p = provider(Counter, transport)
    assert p.call_json(HttpRequest("/files/1", method="GET")) == {"name": "files/1"}
    assert p.call_json(HttpRequest("/files/1", method="DELETE")) is None  # an empty body
    first, second = transport.requests
    assert (first.method, str(first.url)) == ("GET", "https://api.counter.test/v1/files/1")
    assert first.headers["authorization"] == f"Bearer {KEY}"
    assert second.method == "DELETE"


def test_call_json_errors_are_typed_and_scrubbed() -> None:
    body = {"error": {"message": f"bad key {KEY}", "type": "invalid"}}
    transport = Transport(httpx.Response(400, json=body))
    with pytest.raises(ProviderRequestError) as info:
        provider(Counter, transport).call_json(HttpRequest("/x", {"a": 1}))
    assert KEY not in str(info.value) and KEY not in (info.value.body_excerpt or "")


def test_call_json_rejects_a_non_json_body_before_any_request() -> None:
    transport = Transport()
    with pytest.raises(InvalidRequestError):
        provider(Counter, transport).call_json(HttpRequest("/x", {"a": math.nan}))
    assert transport.requests == []


def test_call_json_retries_only_when_asked(sleeps: list[float]) -> None:
    transport = Transport(httpx.Response(503, json={}), ok({"a": 1}), httpx.Response(503, json={}))
    p = provider(Counter, transport, max_retries=2)
    assert p.call_json(HttpRequest("/x", {}), retry=True) == {"a": 1}
    assert len(transport.requests) == 2 and len(sleeps) == 1
    with pytest.raises(ProviderOverloadedError):
        p.call_json(HttpRequest("/x", {}))
    assert len(transport.requests) == 3


@pytest.mark.asyncio
async def test_acall_json() -> None:
    transport = Transport(ok({"a": 1}), httpx.Response(200, content=b"  "))
    p = provider(Counter, transport, asynchronous=True)
    assert await p.acall_json(HttpRequest("/x", {"q": "é"})) == {"a": 1}
    assert await p.acall_json(HttpRequest("/y", method="DELETE")) is None
    assert json.loads(transport.requests[0].content) == {"q": "é"}


# --------------------------------------------------------------------------- call() and Operation


def test_call_returns_status_headers_and_json() -> None:
    transport = Transport(
        httpx.Response(200, headers={"x-session": "https://api.counter.test/up?id=1"}, content=b""),
        httpx.Response(201, json={"done": True}),
        httpx.Response(200, headers={"content-type": "text/plain"}, content=b"plain"),
    )
    p = provider(Counter, transport)
    first = p.call(HttpRequest("/start", {"a": 1}, headers={"x-goog-upload-command": "start"}))
    assert (first.status, first.data, first.headers["x-session"]) == (
        200,
        None,
        "https://api.counter.test/up?id=1",
    )
    second = p.call(
        HttpRequest(first.headers["x-session"], b"\x00bytes", headers={"content-type": "image/png"})
    )
    assert (second.status, second.data) == (201, {"done": True})
    assert p.call(HttpRequest("/t", method="GET")).content == b"plain"
    sent = transport.requests
    assert sent[0].headers["x-goog-upload-command"] == "start"
    assert (sent[1].content, sent[1].headers["content-type"]) == (b"\x00bytes", "image/png")
    assert str(sent[1].url) == "https://api.counter.test/up?id=1"


def test_call_retries_idempotent_methods_only_by_default(sleeps: list[float]) -> None:
    busy = httpx.Response(503, json={})
    transport = Transport(busy, ok({"a": 1}), busy)
    p = provider(Counter, transport, max_retries=2)
    assert p.call(HttpRequest("/x", method="GET")).data == {"a": 1}
    with pytest.raises(ProviderOverloadedError):
        p.call(HttpRequest("/x", {}))  # a POST is not sent twice unless asked
    assert len(transport.requests) == 3 and len(sleeps) == 1


def test_call_rejects_malformed_json() -> None:
    from modelport.errors import ProviderResponseError

    transport = Transport(httpx.Response(200, headers={"content-type": "application/json"}, content=b"{nope"))
    with pytest.raises(ProviderResponseError, match="not valid JSON"):
        provider(Counter, transport).call(HttpRequest("/x", method="GET"))


def _poll(p: Counter) -> Any:
    def steps() -> Any:
        start = yield HttpRequest("/jobs", {"go": True})
        name = start.data["name"]
        while True:
            state = yield HttpRequest(f"/{name}", method="GET")
            if state.data["done"]:
                return state.data["value"]
            yield Wait(0.25)

    return p.operation(steps)


def test_an_operation_runs_its_steps_sync(sleeps: list[float]) -> None:
    from modelport.http import Operation

    transport = Transport(ok({"name": "jobs/1"}), ok({"done": False}), ok({"done": True, "value": 42}))
    op = _poll(provider(Counter, transport))
    assert isinstance(op, Operation) and transport.requests == []  # nothing is sent until it runs
    assert op.run() == 42
    assert [(r.method, r.url.path) for r in transport.requests] == [
        ("POST", "/v1/jobs"),
        ("GET", "/v1/jobs/1"),
        ("GET", "/v1/jobs/1"),
    ]
    assert sleeps == [0.25]


@pytest.mark.asyncio
async def test_an_operation_is_awaitable(sleeps: list[float]) -> None:
    transport = Transport(ok({"name": "jobs/2"}), ok({"done": True, "value": "x"}))
    assert await _poll(provider(Counter, transport, asynchronous=True)) == "x"
    assert len(transport.requests) == 2 and sleeps == []


def test_an_operation_stops_at_a_typed_error() -> None:
    transport = Transport(httpx.Response(404, json={"error": {"message": "no such job"}}))
    with pytest.raises(ProviderRequestError, match="no such job"):
        _poll(provider(Counter, transport)).run()
