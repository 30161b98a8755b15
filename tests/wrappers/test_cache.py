"""``ResponseCache``: hits and misses, stream replay, what is never stored, the bound, key stability
across processes, and no credential in a key or the store."""

from __future__ import annotations

import asyncio
import pickle
import subprocess
import sys
from typing import Any

import httpx
import pytest

import modelport
from modelport import testing
from modelport.errors import ConfigurationError, ProviderOverloadedError
from modelport.events import FinishEvent
from modelport.types import Result, TextPart, Usage
from modelport.wrappers import ResponseCache


def cached(script: testing.Script, cache: ResponseCache, name: str = "m") -> modelport.Model:
    return modelport.wrap(modelport.get_model(f"scripted/{name}", script=script, max_retries=0), cache)


def test_an_equal_request_is_answered_from_the_cache(scripted: testing.Script) -> None:
    cache = ResponseCache()
    scripted.results += [testing.text_result("one"), testing.text_result("two")]
    model = cached(scripted, cache)
    first = model.generate(prompt="hi", temperature=0)
    assert model.generate(prompt="hi", temperature=0) is first
    assert model.generate(prompt="hi", temperature=0.5).text == "two"  # another request: a miss
    assert (cache.hits, cache.misses, len(cache), len(scripted.requests)) == (1, 2, 2, 2)


def test_the_model_is_part_of_the_key(scripted: testing.Script) -> None:
    cache = ResponseCache()
    scripted.results += [testing.text_result("from a"), testing.text_result("from b")]
    assert cached(scripted, cache, "a").generate(prompt="hi").text == "from a"
    assert cached(scripted, cache, "b").generate(prompt="hi").text == "from b"
    assert cache.hits == 0


def test_a_stream_is_replayed_event_by_event(scripted: testing.Script) -> None:
    cache = ResponseCache()
    scripted.streams.append(testing.text_events("he", "llo"))
    model = cached(scripted, cache)
    first = list(model.stream(prompt="hi"))
    replay = model.stream(prompt="hi")
    assert list(replay) == first
    assert replay.result().text == "hello"
    assert [e.type for e in first] == [
        "stream-start",
        "text-start",
        "text-delta",
        "text-delta",
        "text-end",
        "finish",
    ]
    assert (cache.hits, len(scripted.requests)) == (1, 1)


def test_generate_and_stream_have_their_own_keys(scripted: testing.Script) -> None:
    cache = ResponseCache()
    scripted.results.append(testing.text_result("generated"))
    scripted.streams.append(testing.text_events("streamed"))
    model = cached(scripted, cache)
    assert model.generate(prompt="hi").text == "generated"
    assert model.stream(prompt="hi").result().text == "streamed"
    assert cache.hits == 0 and len(cache) == 2


def test_async_calls_share_the_store(scripted: testing.Script) -> None:
    cache = ResponseCache()
    scripted.results.append(testing.text_result("once"))
    scripted.streams.append(testing.text_events("s"))
    model = cached(scripted, cache)

    async def calls() -> list[str]:
        texts = [(await model.agenerate(prompt="hi")).text]
        texts.append(model.generate(prompt="hi").text)  # the sync call hits what the async one stored
        texts.append((await model.astream(prompt="hi").result()).text)
        texts.append((await model.astream(prompt="hi").result()).text)
        return texts

    assert asyncio.run(calls()) == ["once", "once", "s", "s"]
    assert (cache.hits, cache.misses, len(scripted.requests)) == (2, 2, 2)


def test_errors_and_incomplete_answers_are_never_stored(scripted: testing.Script) -> None:
    cache = ResponseCache()
    broken = testing.text_events("partial", "more")
    scripted.results += [
        ProviderOverloadedError("busy", provider="scripted", status_code=503),
        Result(content=[TextPart(text="cut")], finish_reason="error"),
        testing.text_result("good"),
    ]
    scripted.streams += [
        [*broken[:3], ProviderOverloadedError("busy", provider="scripted")],
        testing.text_events("x", "y"),
    ]
    model = cached(scripted, cache)
    with pytest.raises(ProviderOverloadedError):
        model.generate(prompt="hi")
    assert model.generate(prompt="hi").finish_reason == "error"
    assert model.generate(prompt="hi").text == "good"
    with pytest.raises(ProviderOverloadedError):
        list(model.stream(prompt="hi"))
    closed = model.stream(prompt="hi")
    next(iter(closed))
    closed.close()  # closed before its end: not stored either
    assert len(cache) == 1 and cache.hits == 0


def test_the_bound_drops_the_least_recently_used(scripted: testing.Script) -> None:
    cache = ResponseCache(max_entries=2)
    scripted.results += [testing.text_result(t) for t in ("a", "b", "c", "a again")]
    model = cached(scripted, cache)
    model.generate(prompt="a")
    model.generate(prompt="b")
    model.generate(prompt="a")  # a hit: "a" is now the most recently used
    model.generate(prompt="c")  # "b" goes
    assert model.generate(prompt="a").text == "a"
    assert model.generate(prompt="b").text == "a again"  # asked again: "b" was dropped
    assert (len(cache), cache.hits) == (2, 2)


def test_the_key_is_stable_across_processes(scripted: testing.Script) -> None:
    model = modelport.get_model("scripted/m", script=scripted)
    request = model.prepare(prompt="héllo", temperature=0.25, stop_sequences=["\n"])
    code = (
        "import modelport; from modelport import testing; from modelport.wrappers import ResponseCache\n"
        "testing.install(); m = modelport.get_model('scripted/m', script=testing.Script())\n"
        "print(ResponseCache.key(m, m.prepare(prompt='héllo', temperature=0.25, stop_sequences=['\\n'])))"
    )
    other = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONHASHSEED": "7", "PATH": ""},
    )
    key = ResponseCache.key(model, request)
    assert other.stdout.strip() == key
    assert len(key) == 64


def test_no_credential_reaches_a_key_or_the_store() -> None:
    canary = "sk-ant-" + "canary" * 6
    body = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [{"type": "text", "text": "ok"}],
        "stop_reason": "end_turn",
        "usage": {"input_tokens": 3, "output_tokens": 1},
    }  # fmt: skip  (MOCK: a minimal Messages answer; the key and store are under test)

    def answer(request: httpx.Request) -> httpx.Response:
        assert request.headers["x-api-key"] == canary
        return httpx.Response(200, json=body)

    cache = ResponseCache()
    model = modelport.get_model(
        "anthropic/claude-sonnet-4-5", api_key=canary, transport=httpx.MockTransport(answer)
    )
    wrapped = modelport.wrap(model, cache)
    assert wrapped.generate(prompt="hi").text == "ok"
    assert wrapped.generate(prompt="hi").text == "ok"
    assert cache.hits == 1
    stored = pickle.dumps(dict(cache._store._entries)) + repr(cache._store._entries).encode()  # type: ignore[union-attr]
    assert b"canary" not in stored


def test_a_bad_bound_is_refused() -> None:
    with pytest.raises(ConfigurationError, match="max_entries must be a positive integer or None, got 0"):
        ResponseCache(max_entries=0)


def test_the_finish_event_ends_what_is_stored(scripted: testing.Script) -> None:
    cache = ResponseCache()
    scripted.streams.append(testing.text_events("x"))
    list(cached(scripted, cache).stream(prompt="q"))
    (events,) = cache._store._entries.values()  # type: ignore[union-attr]
    assert isinstance(events[-1], FinishEvent)


def test_a_sqlite_cache_outlives_the_cache_object(scripted: testing.Script, tmp_path: Any) -> None:
    path = tmp_path / "responses.sqlite"
    scripted.results.append(testing.text_result("stored", usage=Usage(input_tokens=4, output_tokens=1)))
    scripted.streams.append(testing.text_events("on ", "disk"))
    first = ResponseCache(path=path)
    model = cached(scripted, first)
    answer = model.generate(prompt="hi")
    events = list(model.stream(prompt="hi"))
    assert len(first) == 2

    again = ResponseCache(path=path)  # a new cache on the same file: a new process would see the same
    model = cached(scripted, again)
    assert model.generate(prompt="hi") == answer  # read back from JSON, equal
    replay = model.stream(prompt="hi")
    assert list(replay) == events and replay.result().text == "on disk"
    assert (again.hits, again.misses, len(scripted.requests)) == (2, 0, 2)
    first.close()
    again.close()


def test_a_sqlite_cache_keeps_its_bound(scripted: testing.Script, tmp_path: Any) -> None:
    cache = ResponseCache(path=tmp_path / "c.sqlite", max_entries=2)
    scripted.results += [testing.text_result(t) for t in ("a", "b", "c", "b again")]
    model = cached(scripted, cache)
    for prompt in ("a", "b", "a", "c"):  # "a" used again: "b" is the least recently used
        model.generate(prompt=prompt)
    assert len(cache) == 2
    assert model.generate(prompt="a").text == "a"
    assert model.generate(prompt="b").text == "b again"
    cache.close()


def test_no_credential_reaches_the_cache_file(tmp_path: Any) -> None:
    canary = "sk-ant-" + "canary" * 6
    body = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [{"type": "text", "text": "ok"}],
        "stop_reason": "end_turn",
        "usage": {"input_tokens": 3, "output_tokens": 1},
    }  # fmt: skip  (MOCK: a minimal Messages answer; the file is under test)
    path = tmp_path / "c.sqlite"
    cache = ResponseCache(path=path)
    model = modelport.get_model(
        "anthropic/claude-sonnet-4-5",
        api_key=canary,
        transport=httpx.MockTransport(lambda r: httpx.Response(200, json=body)),
    )
    assert modelport.wrap(model, cache).generate(prompt="hi").text == "ok"
    cache.close()
    data = b"".join(p.read_bytes() for p in tmp_path.iterdir())  # the database and any journal
    assert b"msg_1" in data and b"canary" not in data


def test_two_servers_of_one_provider_never_share_an_entry() -> None:
    """The endpoint is part of the key: a local server and a gateway of ``openai-compatible`` with
    the same model name and request get their own answers."""
    seen: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        body = {
            "id": "c1",
            "object": "chat.completion",
            "model": "x",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": request.url.host},
                    "finish_reason": "stop",
                }
            ],
        }  # MOCK: a minimal Chat Completions answer naming the host; the key is under test
        return httpx.Response(200, json=body)

    cache = ResponseCache()

    def model(base_url: str) -> modelport.Model:
        plain = modelport.get_model(
            "openai-compatible/x", base_url=base_url, transport=httpx.MockTransport(answer)
        )
        return modelport.wrap(plain, cache)

    assert model("http://127.0.0.1:8000/v1").generate(prompt="hi").text == "127.0.0.1"
    assert model("http://gateway.example/v1").generate(prompt="hi").text == "gateway.example"
    assert model("http://127.0.0.1:8000/v1/").generate(prompt="hi").text == "127.0.0.1"  # the same server
    assert (cache.hits, len(seen)) == (1, 2)
    a = modelport.get_model("openai-compatible/x", base_url="http://me:pw@127.0.0.1:8000/v1")
    b = modelport.get_model("openai-compatible/x", base_url="http://127.0.0.1:8000/v1")
    assert ResponseCache.key(a, a.prepare(prompt="hi")) == ResponseCache.key(b, b.prepare(prompt="hi"))


def test_provider_options_are_part_of_the_key(scripted: testing.Script) -> None:
    one = modelport.get_model("scripted/m", script=scripted, region="eu")
    two = modelport.get_model("scripted/m", script=scripted, region="us")
    request = one.prepare(prompt="hi")
    assert ResponseCache.key(one, request) != ResponseCache.key(two, request)
