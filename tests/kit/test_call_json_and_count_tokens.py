"""The kit's generic JSON call (``HttpProvider.call_json`` / ``acall_json``) and the optional
``count_tokens`` capability (``Model.count_tokens`` / ``acount_tokens``), through a counting transport."""

from __future__ import annotations

import json
import math
from typing import Any, ClassVar

import httpx
import pytest

from modelport._model import Model
from modelport.errors import InvalidRequestError, ProviderOverloadedError, ProviderRequestError
from modelport.http import HttpProvider, HttpRequest, Wait
from modelport.provider import Capabilities, ProviderConfig, Secret, TokenCount
from modelport.types import Request

KEY = "counter-key-0123456789"


class Counter(HttpProvider):
    id: ClassVar[str] = "counter"
    default_base_url: ClassVar[str | None] = "https://api.counter.test/v1"
    capabilities: ClassVar[Capabilities] = Capabilities(count_tokens=True)

    def count_tokens_request(self, model_name: str, request: Request) -> HttpRequest:
        if request.max_output_tokens == 13:
            raise InvalidRequestError("unlucky")
        return HttpRequest(f"/models/{model_name}:count", {"messages": len(request.messages)})

    def decode_token_count(self, data: Any, spec: HttpRequest) -> TokenCount:
        return TokenCount(input_tokens=data["tokens"])


class NoCount(Counter):
    capabilities: ClassVar[Capabilities] = Capabilities()


class Transport(httpx.MockTransport):
    def __init__(self, *replies: httpx.Response) -> None:
        self.replies = list(replies)
        self.requests: list[httpx.Request] = []
        super().__init__(self._handle)

    def _handle(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return self.replies.pop(0)


class ATransport(httpx.AsyncBaseTransport):
    def __init__(self, sync: Transport) -> None:
        self.sync = sync

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        await request.aread()
        return self.sync._handle(request)


def provider(
    cls: type[Counter], transport: Transport, *, asynchronous: bool = False, **config: Any
) -> Counter:
    if asynchronous:
        client: Any = {"async_http_client": httpx.AsyncClient(transport=ATransport(transport))}
    else:
        client = {"http_client": httpx.Client(transport=transport)}
    return cls(ProviderConfig(provider_id=cls.id, api_key=Secret(KEY), **client, **config))


def ok(data: Any) -> httpx.Response:
    return httpx.Response(200, json=data)


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


def test_count_tokens_through_the_model() -> None:
    transport = Transport(ok({"tokens": 7}))
    model = Model(provider(Counter, transport), "tiny")
    assert model.count_tokens(prompt="hi", system="be brief") == TokenCount(input_tokens=7)
    assert str(transport.requests[0].url) == "https://api.counter.test/v1/models/tiny:count"
    assert json.loads(transport.requests[0].content) == {"messages": 2}


@pytest.mark.asyncio
async def test_acount_tokens_through_the_model() -> None:
    transport = Transport(ok({"tokens": 3}))
    model = Model(provider(Counter, transport, asynchronous=True), "tiny")
    assert (await model.acount_tokens(prompt="hi")).input_tokens == 3


@pytest.mark.asyncio
async def test_count_tokens_rejects_before_any_request() -> None:
    transport = Transport()
    counting = Model(provider(Counter, transport), "tiny")
    without = Model(provider(NoCount, transport), "tiny")
    for call in (
        lambda: counting.count_tokens(prompt="hi", max_output_tokens=13),  # the provider's own rule
        lambda: counting.count_tokens(prompt="hi", temperature=-1),  # the core's validation
        lambda: without.count_tokens(prompt="hi"),  # no capability
    ):
        with pytest.raises(InvalidRequestError):
            call()
    with pytest.raises(InvalidRequestError, match="does not support count_tokens"):
        await without.acount_tokens(prompt="hi")
    assert transport.requests == []
    assert Capabilities().count_tokens is False and "count_tokens" in Capabilities().as_dict()


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
