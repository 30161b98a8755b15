"""The core builds each request itself on the clients it owns, with the client's merged headers and
timeout cached (P2): what goes out must be exactly what ``httpx.Client.build_request`` would send,
and anything a cache could get wrong (cookies a server set, an injected client's own headers) must
still be sent.
"""

from __future__ import annotations

import asyncio

import httpx

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
