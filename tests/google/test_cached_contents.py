"""Cached-content helpers (issue 13): create, get, list, update and delete operations built and
validated before any request, run by the core's kit sync (``.run()``) or async (``await``). The cache
exchange comes from a recording (pydantic/pydantic-ai MIT; see tests/corpus/gemini/MANIFEST.md)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from modelport_google import caches

from . import corpus as c
from .mock import model, response

CACHE = "tests__models__google__cassettes__test_cache__test_google_model_cached_content.yaml"
VERTEX = {"api_key": None, "token": "tok", "project": "p"}


def test_cache_lifecycle_matches_the_recording() -> None:
    recorded = c.cassette(c.PYDANTIC, CACHE)
    create, first_use, _, remove = recorded
    sent = create.request_body
    text = sent["contents"][0]["parts"][0]["text"]
    system = sent["systemInstruction"]["parts"][0]["text"]
    m, recorder = model([response(200, create.json()), response(200, first_use.json()), response(200, b"{}")])
    cache = caches.create(m, system=system, messages=[{"role": "user", "content": text}], ttl=120).run()
    assert str(recorder.requests[0].url) == create.uri
    assert recorder.bodies()[0] == {
        "model": sent["model"],
        "contents": sent["contents"],
        "systemInstruction": {"parts": sent["systemInstruction"]["parts"]},
        "ttl": sent["ttl"],
    }
    assert cache.name == create.json()["name"] and cache.total_token_count == 3512
    result = m.generate(
        prompt="What is the capital of France?", provider_options={"google": {"cached_content": cache.name}}
    )
    assert recorder.bodies()[1]["cachedContent"] == first_use.request_body["cachedContent"]
    assert result.usage.cache_read_input_tokens == 3512
    caches.delete(m, cache.name).run()
    assert (recorder.requests[2].method, str(recorder.requests[2].url)) == (remove.method, remove.uri)


def test_vertex_caches_use_full_resource_names() -> None:
    answer = {"name": "projects/p/locations/us-central1/cachedContents/9", "model": "m"}
    m, recorder = model(
        [response(200, answer), response(200, answer), response(200, answer)]
        + [
            response(200, {"cachedContents": [answer], "nextPageToken": "n"}),
            response(200, {"cachedContents": [answer]}),
        ],
        "google-vertex/gemini-2.5-flash",
        **VERTEX,
    )
    caches.create(
        m, prompt="long context", expire_time=datetime(2030, 1, 1, tzinfo=timezone.utc), display_name="d"
    ).run()
    caches.get(m, "cachedContents/9").run()
    caches.update(m, "9", ttl=timedelta(minutes=10)).run()
    assert len(caches.list_caches(m, page_size=5).run()) == 2
    parent = "https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/us-central1"
    assert [(r.method, str(r.url)) for r in recorder.requests] == [
        ("POST", f"{parent}/cachedContents"),
        ("GET", f"{parent}/cachedContents/9"),
        ("PATCH", f"{parent}/cachedContents/9?updateMask=ttl"),
        ("GET", f"{parent}/cachedContents?pageSize=5"),
        ("GET", f"{parent}/cachedContents?pageSize=5&pageToken=n"),
    ]
    created, _, updated, *_ = [json.loads(r.content or b"null") for r in recorder.requests]
    assert created == {
        "model": "projects/p/locations/us-central1/publishers/google/models/gemini-2.5-flash",
        "contents": [{"role": "user", "parts": [{"text": "long context"}]}],
        "expireTime": "2030-01-01T00:00:00Z",
        "displayName": "d",
    }
    assert updated == {"ttl": "600s"}


@pytest.mark.asyncio
async def test_cache_operations_are_awaitable() -> None:
    m, recorder = model([response(200, {"name": "cachedContents/1"})], asynchronous=True)
    cache = await caches.update(m, "1", expire_time="2030-01-01T00:00:00Z")
    assert cache.name == "cachedContents/1"
    assert json.loads(recorder.requests[0].content) == {"expireTime": "2030-01-01T00:00:00Z"}


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda m: caches.create(m, prompt="x", ttl=10, expire_time="2030-01-01T00:00:00Z"), "not both"),
        (lambda m: caches.create(m, prompt="x", ttl=-5), "positive"),
        (lambda m: caches.create(m, prompt="x", temperature=0.2), "temperature"),
        (lambda m: caches.create(m, prompt="x", expire_time=datetime(2030, 1, 1)), "timezone"),
        (lambda m: caches.create(m, prompt="x", expire_time="tomorrow"), "RFC 3339"),
        (
            lambda m: caches.create(
                m, prompt="x", tools=[{"type": "provider", "id": "google.google_search", "args": {"x": 1}}]
            ),
            "invalid arguments",
        ),
        (lambda m: caches.update(m, "1"), "ttl or expire_time"),
        (lambda m: caches.get(m, "a?b"), "cached content name"),
    ],
)
def test_bad_cache_input_is_rejected_before_any_request(call: Any, message: str) -> None:
    m, recorder = model([])
    with pytest.raises(Exception, match=message) as info:
        call(m)
    assert type(info.value).__name__ in ("InvalidRequestError", "ProviderToolError")
    assert recorder.requests == []
