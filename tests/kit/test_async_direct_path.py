"""The lean async exchange (issue 15, P4a): on the aiohttp transport modelport builds, the core sends
on the aiohttp session itself and reads aiohttp's response, with no httpx request/response
machinery around it. What the parametrized real-socket tests do not pin is pinned here, on every
mode: that the lean path is the one taken, cookies a server set, the DEBUG line, ``acall``'s
answer (headers as httpx reads them, bodies in every encoding) and the error body's headers.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import logging
import zlib
from typing import Any

import httpx
import pytest

import modelport
from modelport.errors import ProviderRequestError
from modelport.http import HttpRequest
from tests.kit.test_transport_real_sockets import (
    ANSWER,
    HAS_AIOHTTP,
    JSON,
    KEY,
    MODES,
    SSE,
    generate,
    model,
    ok,
    stream,
)
from tests.loopback import Loopback, Received, Reply


def call(m: modelport.Model, mode: str, spec: HttpRequest) -> Any:
    if mode == "sync":
        return m.provider.call(spec)  # type: ignore[attr-defined]
    return asyncio.run(m.provider.acall(spec))  # type: ignore[attr-defined]


@pytest.mark.skipif(not HAS_AIOHTTP, reason="modelport[aiohttp] absent")
def test_the_aiohttp_client_sends_on_its_session_not_through_httpx(monkeypatch: pytest.MonkeyPatch) -> None:
    from modelport.http import _aiohttp

    async def refuse(self: Any, request: httpx.Request) -> httpx.Response:
        raise AssertionError("the httpx transport path was taken")

    monkeypatch.setattr(_aiohttp._Transport, "handle_async_request", refuse)
    frames = b"".join(b"data: %s\n\n" % json.dumps(ANSWER).encode() for _ in range(3))

    def handler(r: Received) -> Reply:
        if "stream" in r.path:
            return Reply(200, {**SSE, "content-encoding": "gzip"}, gzip.compress(frames))
        return ok(r)

    with Loopback(handler) as server:
        m = model(server, "aiohttp")
        assert generate(m, "aiohttp").text == "hello"
        events = stream(m, "aiohttp")
        assert "".join(e.delta for e in events if e.type == "text-delta") == "hellohellohello"


@pytest.mark.skipif(not HAS_AIOHTTP, reason="modelport[aiohttp] absent")
def test_an_answered_aiohttp_call_builds_no_httpx_request(monkeypatch: pytest.MonkeyPatch) -> None:
    """P4a: the first hop goes from the exchange's parts to aiohttp; a redirect or an error (which
    the core judges on an :class:`httpx.Request`) still gets one, built then."""
    built: list[str] = []
    init = httpx.Request.__init__

    def counted(self: httpx.Request, method: str, url: Any, **kwargs: Any) -> None:
        built.append(str(url))
        init(self, method, url, **kwargs)

    monkeypatch.setattr(httpx.Request, "__init__", counted)

    def handler(r: Received) -> Reply:
        if "missing" in r.path:
            return Reply(404, {"content-type": "application/json"}, b'{"error": {"message": "no"}}')
        return ok(r)

    with Loopback(handler) as server:
        m = model(server, "aiohttp")
        assert generate(m, "aiohttp").text == "hello"
        assert built == []
        missing = modelport.get_model(
            "google/missing", api_key=KEY, base_url=server.url, max_retries=0, async_transport="aiohttp"
        )
        with pytest.raises(modelport.ProviderError):
            generate(missing, "aiohttp")
    assert any("missing" in url for url in built)


@pytest.mark.parametrize("mode", MODES)
def test_a_cookie_the_server_set_is_sent_back(mode: str) -> None:
    def handler(r: Received) -> Reply:
        return Reply(200, {**JSON, "set-cookie": "affinity=node-7; Path=/"}, json.dumps(ANSWER).encode())

    with Loopback(handler) as server:
        m = model(server, mode)
        if mode == "sync":
            m.generate(prompt="one")
            m.generate(prompt="two")
        else:

            async def twice() -> None:  # one loop: the cookie jar is the loop's client's
                await m.agenerate(prompt="one")
                await m.agenerate(prompt="two")

            asyncio.run(twice())
    assert "cookie" not in server.received[0].headers
    assert server.received[1].headers["cookie"] == "affinity=node-7"


@pytest.mark.parametrize("mode", MODES)
def test_every_request_sent_is_logged_at_debug(mode: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="modelport")
    with Loopback(ok) as server:
        generate(model(server, mode), mode)
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("request ")]
    assert len(lines) == 1
    assert lines[0].startswith("request provider=google model=gemini-2.5-flash method=POST status=200 ")
    assert KEY not in caplog.text


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("encoding", [None, "gzip", "deflate", "identity", "x-unknown"])
def test_acall_answers_status_scrubbed_headers_and_the_decoded_body(mode: str, encoding: str | None) -> None:
    body = json.dumps({"ok": True, "echo": "x" * 3000}).encode()
    sent = {"gzip": gzip.compress, "deflate": zlib.compress}.get(encoding or "", lambda b: b)(body)
    headers = {**JSON, "X-Request-Id": f"req-{KEY}"}
    if encoding is not None:
        headers["content-encoding"] = encoding
    with Loopback(lambda r: Reply(201, headers, sent)) as server:
        m = model(server, mode)
        answer = call(m, mode, HttpRequest(url=server.url + "/v1beta/files", body={"a": 1}))
    assert answer.status == 201
    assert answer.headers["x-request-id"] == "req-[REDACTED]"  # lowercase names, scrubbed values
    assert answer.data == {"ok": True, "echo": "x" * 3000}
    assert answer.content == body


@pytest.mark.parametrize("mode", MODES)
def test_an_error_answer_has_its_body_and_headers_scrubbed(mode: str) -> None:
    error = {"error": {"code": 404, "message": f"no such file for {KEY}", "status": "NOT_FOUND"}}
    headers = {**JSON, "content-encoding": "gzip", "x-request-id": f"req-{KEY}"}
    with Loopback(lambda r: Reply(404, headers, gzip.compress(json.dumps(error).encode()))) as server:
        m = model(server, mode)
        with pytest.raises(ProviderRequestError) as info:
            call(m, mode, HttpRequest(url=server.url + "/v1beta/files/x", method="GET"))
    assert info.value.status_code == 404
    assert info.value.request_id == "req-[REDACTED]"
    assert KEY not in str(info.value) and "[REDACTED]" in str(info.value)
