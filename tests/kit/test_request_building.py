"""The core builds each request itself on the clients it owns, with the client's merged headers and
timeout cached (P2): what goes out must be exactly what ``httpx.Client.build_request`` would send,
and anything a cache could get wrong (cookies a server set, an injected client's own headers) must
still be sent.
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

import modelport

OK = {"candidates": [{"content": {"role": "model", "parts": [{"text": "Hi."}]}, "finishReason": "STOP"}]}
URL = "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent"


class Recorder:
    def __init__(self, set_cookie: str | None = None) -> None:
        self.requests: list[httpx.Request] = []
        self.set_cookie = set_cookie

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        headers = {"set-cookie": self.set_cookie} if self.set_cookie else {}
        return httpx.Response(200, json=OK, headers=headers)


def test_a_request_equals_what_build_request_makes_on_the_same_client() -> None:
    recorder = Recorder()
    model = modelport.get_model(
        "google/gemini-2.5-flash", api_key="k-123", transport=httpx.MockTransport(recorder), timeout=7.5
    )
    for prompt in ("Hello", "Again, longer"):
        assert model.generate(prompt=prompt).text == "Hi."
    body = b'{"contents":[{"role":"user","parts":[{"text":"Again, longer"}]}]}'
    client = httpx.Client(timeout=7.5)
    expected = client.build_request(
        "POST", URL, content=body, headers={"content-type": "application/json", "x-goog-api-key": "k-123"}
    )
    sent = recorder.requests[-1]
    assert (sent.method, sent.url, sent.content) == ("POST", expected.url, expected.content)
    assert sent.headers.multi_items() == expected.headers.multi_items()
    assert (
        sent.extensions
        == expected.extensions
        == {"timeout": {"connect": 7.5, "read": 7.5, "write": 7.5, "pool": 7.5}}
    )


def test_a_cookie_the_server_set_is_sent_back_on_the_next_call() -> None:
    recorder = Recorder(set_cookie="affinity=node-7; Path=/")
    model = modelport.get_model(
        "google/gemini-2.5-flash", api_key="k-123", transport=httpx.MockTransport(recorder)
    )
    model.generate(prompt="one")
    model.generate(prompt="two")
    assert "cookie" not in recorder.requests[0].headers
    assert recorder.requests[1].headers["cookie"] == "affinity=node-7"


def test_an_injected_client_keeps_its_own_headers_and_timeout() -> None:
    recorder = Recorder()
    client = httpx.Client(transport=httpx.MockTransport(recorder), headers={"x-team": "search"}, timeout=3.0)
    model = modelport.get_model("google/gemini-2.5-flash", api_key="k-123", http_client=client)
    model.generate(prompt="one")
    client.headers["x-team"] = "ranking"  # changed after the first call: the next call sees it
    model.generate(prompt="two")
    assert [r.headers["x-team"] for r in recorder.requests] == ["search", "ranking"]
    assert recorder.requests[1].extensions["timeout"]["read"] == 3.0


def test_async_requests_equal_the_sync_ones() -> None:
    sync, async_ = Recorder(), Recorder()
    modelport.get_model(
        "google/gemini-2.5-flash", api_key="k-123", transport=httpx.MockTransport(sync)
    ).generate(prompt="Hello")

    async def call() -> None:
        model = modelport.get_model(
            "google/gemini-2.5-flash", api_key="k-123", transport=httpx.MockTransport(async_)
        )
        await model.agenerate(prompt="Hello")
        await model.aclose()

    asyncio.run(call())
    a, b = sync.requests[0], async_.requests[0]
    assert (a.url, a.content, a.extensions) == (b.url, b.content, b.extensions)
    assert a.headers.multi_items() == b.headers.multi_items()


class CountingSend:
    """Counts ``httpx.Client.send`` calls (the path a request takes when it cannot go direct)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        send = httpx.Client.send

        def counted(client: httpx.Client, *args: Any, **kwargs: Any) -> httpx.Response:
            self.calls += 1
            return send(client, *args, **kwargs)

        monkeypatch.setattr(httpx.Client, "send", counted)


def test_an_owned_client_sends_straight_to_its_transport(monkeypatch: pytest.MonkeyPatch) -> None:
    sends, recorder = CountingSend(monkeypatch), Recorder()
    model = modelport.get_model(
        "google/gemini-2.5-flash", api_key="k-123", transport=httpx.MockTransport(recorder)
    )
    model.generate(prompt="one")
    assert (sends.calls, len(recorder.requests)) == (0, 1)


def test_an_auth_flow_goes_through_the_client(monkeypatch: pytest.MonkeyPatch) -> None:
    class Token(httpx.Auth):
        def auth_flow(self, request: httpx.Request) -> Any:
            request.headers["authorization"] = "Bearer fetched-token"
            yield request

    sends, recorder = CountingSend(monkeypatch), Recorder()
    model = modelport.get_model(
        "google/gemini-2.5-flash", api_key="k-123", transport=httpx.MockTransport(recorder)
    )
    monkeypatch.setattr(type(model.provider), "auth", lambda self: Token())
    model.generate(prompt="one")
    assert sends.calls == 1
    assert recorder.requests[0].headers["authorization"] == "Bearer fetched-token"


def test_a_proxy_in_the_environment_keeps_the_client_path(monkeypatch: pytest.MonkeyPatch) -> None:
    # Only https:// goes through the (unreachable) proxy; the model's http:// URL reaches the mock.
    monkeypatch.setenv("HTTPS_PROXY", "http://127.0.0.1:9")
    sends, recorder = CountingSend(monkeypatch), Recorder()
    model = modelport.get_model(
        "google/gemini-2.5-flash",
        api_key="k-123",
        base_url="http://models.invalid/v1beta",
        transport=httpx.MockTransport(recorder),
    )
    assert model.generate(prompt="one").text == "Hi."
    assert sends.calls == 1
    assert model.provider.http.direct(model.provider.http.sync()) is None


@pytest.mark.parametrize("method", ["POST", "GET", "PUT", "PATCH", "DELETE"])
@pytest.mark.parametrize("body", [None, b"", b"{}", b'{"contents":[]}' * 40])
@pytest.mark.parametrize(
    "extra", [{}, {"Host": "elsewhere.example"}, {"content-length": "5"}, {"Transfer-Encoding": "chunked"}]
)
def test_the_core_assembles_the_request_httpx_would(
    method: str, body: bytes | None, extra: dict[str, str]
) -> None:
    from modelport.http._fast import assembled, client_defaults

    url = httpx.URL(URL)
    with httpx.Client() as client:  # its default headers, merged with the call's as the core caches them
        merged, _, _ = client_defaults(
            client, {"content-type": "application/json", "x-goog-api-key": "k", **extra}
        )
    expected = httpx.Request(
        method, url, content=body, headers=merged.headers, extensions={"timeout": {"read": 2.0}}
    )
    made = assembled(method, url, merged, body, {"read": 2.0})
    assert made.headers.raw == expected.headers.raw  # names as written, in the same order
    assert (made.method, made.url, made.content, made.extensions) == (
        expected.method,
        expected.url,
        expected.content,
        expected.extensions,
    )
    assert type(made.stream) is type(expected.stream) and list(made.stream) == list(expected.stream)  # type: ignore[call-overload]


@pytest.mark.parametrize("kind", [httpx.Client, httpx.AsyncClient])
@pytest.mark.parametrize("method", ["POST", "GET"])
@pytest.mark.parametrize("body", [None, b'{"contents":[]}'])
@pytest.mark.parametrize("extra", [{}, {"accept": "text/event-stream", "x-goog-user-project": "p"}])
def test_the_fast_plan_gives_the_request_of_the_general_path(
    kind: type[httpx.Client | httpx.AsyncClient], method: str, body: bytes | None, extra: dict[str, str]
) -> None:
    from modelport.http import HttpClients
    from modelport.http._fast import assembled, general, parsed, prepare
    from modelport.provider import ProviderConfig

    clients = HttpClients(ProviderConfig(provider_id="google"))
    client = kind(timeout=httpx.Timeout(3.0, read=9.0))
    headers = {"content-type": "application/json", "x-goog-api-key": "k", **extra}
    plan = prepare(clients, client, method, parsed(URL), dict(headers), body, None, False)
    assert plan.request is None and plan.lean is not None  # the shortcut was taken
    lean = plan.lean
    made = assembled(lean.method, lean.url, lean.merged, lean.body, lean.timeout)
    expected = general(client, method, parsed(URL), dict(headers), body)
    assert made.headers.raw == expected.headers.raw
    # What a transport sending parts sends (it adds host and content-length itself, as httpx does).
    own = {"host", "content-length"}
    assert dict(lean.headers) == {k: v for k, v in expected.headers.items() if k not in own}
    assert (made.method, made.url, made.content, made.extensions) == (
        expected.method,
        expected.url,
        expected.content,
        expected.extensions,
    )
    # With cookies in the client the general path itself is taken.
    client.cookies.set("affinity", "node-7", domain="generativelanguage.googleapis.com")
    plan = prepare(clients, client, method, parsed(URL), dict(headers), body, None, False)
    assert plan.lean is None and plan.request is not None
    assert plan.request.headers["cookie"] == "affinity=node-7"
