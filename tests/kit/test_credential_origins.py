"""The kit's credential rule: a request carries the provider's credentials only to the API root's
origin (or one the plugin lists in ``credential_origins``), and a path never climbs out of the API
root. Every refusal is an ``InvalidRequestError`` before any I/O, for every plugin and both I/O
paths, with no echoed key in its message."""

from __future__ import annotations

import asyncio

import httpx
import pytest

import modelport
from modelport.errors import InvalidRequestError
from modelport.http import HttpRequest
from modelport.http.urls import credential_url, dot_segment, origin_allowed

#: A planted key, built at run time.
KEY = "sk-ant-" + "api03-origin-canary-0123456789"
ROOT = "https://api.anthropic.com"


def _anthropic(seen: list[httpx.Request]) -> modelport.Model:
    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"ok": True})

    return modelport.get_model(
        "anthropic/claude-haiku-4-5", api_key=KEY, transport=httpx.MockTransport(handler), max_retries=0
    )


CLIMBING = [
    "/v1/messages/batches/../../v1/organizations/x",
    "/../../v1/organizations/x",
    "v1/./messages",
    "/v1/%2e%2e/organizations",
    "/v1/%2E%2E/organizations",
    "/v1/.%2e/organizations",
    "/v1/%2e/messages",
    "/v1/..\\organizations",
    "/v1/..?after=query",
]
ELSEWHERE = [
    "https://evil.example/v1/messages/batches/x/results",
    "https://api.anthropic.com.evil.example/v1/x",
    "https://api.anthropic.com:8443/v1/x",
    "http://api.anthropic.com/v1/x",
    "https://api.anthropic.com@evil.example/v1/x",
    "https://evil.example\\@api.anthropic.com/v1/x",
    "https://evil.example/v1/../v1/x",
    "ftp://api.anthropic.com/v1/x",
]


@pytest.mark.parametrize("url", CLIMBING + ELSEWHERE)
@pytest.mark.parametrize("entry", ["sync", "async"])
def test_a_request_off_the_api_root_is_refused_before_any_io(url: str, entry: str) -> None:
    seen: list[httpx.Request] = []
    provider = _anthropic(seen).provider
    spec = HttpRequest(url, method="GET")
    with pytest.raises(InvalidRequestError, match="refused") as info:
        if entry == "sync":
            provider.call_json(spec)
        else:
            asyncio.run(provider.acall_json(spec))
    assert seen == []
    assert KEY not in str(info.value)


@pytest.mark.parametrize(
    ("url", "sent"),
    [
        ("/v1/messages/batches/msgbatch_1/results", f"{ROOT}/v1/messages/batches/msgbatch_1/results"),
        ("v1/models?after_id=a..b", f"{ROOT}/v1/models?after_id=a..b"),
        ("/v1/files/report.v2.jsonl", f"{ROOT}/v1/files/report.v2.jsonl"),
        (f"{ROOT}/v1/messages/batches/msgbatch_1/results", f"{ROOT}/v1/messages/batches/msgbatch_1/results"),
        ("HTTPS://API.ANTHROPIC.COM:443/v1/x", "https://api.anthropic.com:443/v1/x"),
    ],
)
def test_the_api_roots_own_origin_gets_the_request_with_the_key(url: str, sent: str) -> None:
    seen: list[httpx.Request] = []
    assert _anthropic(seen).provider.call_json(HttpRequest(url, method="GET")) == {"ok": True}
    assert [(str(r.url), r.headers["x-api-key"]) for r in seen] == [(sent, KEY)]


def test_a_host_holding_the_echoed_key_is_not_shown() -> None:
    seen: list[httpx.Request] = []
    provider = _anthropic(seen).provider
    with pytest.raises(InvalidRequestError) as info:
        provider.call_json(HttpRequest(f"https://{KEY}.evil.example/x", method="GET"))
    assert KEY not in str(info.value) and seen == []


def test_a_gateway_base_url_is_the_origin() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={})

    model = modelport.get_model(
        "anthropic/claude-haiku-4-5",
        api_key=KEY,
        base_url="https://gateway.example/anthropic",
        transport=httpx.MockTransport(handler),
    )
    model.provider.call_json(HttpRequest("https://gateway.example/anthropic/v1/x", method="GET"))
    with pytest.raises(InvalidRequestError, match="https://api.anthropic.com:443"):
        model.provider.call_json(HttpRequest(f"{ROOT}/v1/x", method="GET"))
    assert [str(r.url) for r in seen] == ["https://gateway.example/anthropic/v1/x"]


def test_vertex_lists_its_other_google_origins_as_data() -> None:
    from modelport_google.provider import GoogleProvider, VertexProvider

    assert GoogleProvider.credential_origins == ()
    base = "https://us-central1-aiplatform.googleapis.com/v1"
    allowed = VertexProvider.credential_origins
    for url in (
        "https://storage.googleapis.com/storage/v1/b/bucket/o?prefix=x",
        "https://europe-west4-aiplatform.googleapis.com/v1/projects/p/locations/europe-west4/endpoints/1",
        "https://aiplatform.googleapis.com/v1/x",
        "https://aiplatform.eu.rep.googleapis.com/v1/x",
    ):
        assert credential_url(url, base, allowed=allowed) == url
    for url in (
        "https://storage.googleapis.com.evil.example/x",
        "https://evil.example/storage.googleapis.com/x",
        "http://storage.googleapis.com/x",
        "https://a.b-aiplatform.googleapis.com/x",
        "https://aiplatform.eu.rep.googleapis.com.evil.example/x",
    ):
        with pytest.raises(InvalidRequestError, match="refused"):
            credential_url(url, base, allowed=allowed)


def test_the_rule_pieces() -> None:
    assert [dot_segment(p) for p in ("/a/b.c", "/a/..", "/a/%2e", "/a/%2E%2e/b", "/a/.b", "a\\..\\b")] == [
        False,
        True,
        True,
        True,
        False,
        True,
    ]
    assert origin_allowed(
        ("https", "x-aiplatform.googleapis.com", 443), ["https://*-aiplatform.googleapis.com"]
    )
    assert not origin_allowed(
        ("https", "x-aiplatform.googleapis.com", 8443), ["https://*-aiplatform.googleapis.com"]
    )
