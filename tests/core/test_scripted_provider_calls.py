"""Calls through the scripted provider (same path as real plugins): C9 retries, stream bookkeeping,
embedding validation and the module-level functions."""

from __future__ import annotations

import pytest

import modelport
from modelport import testing
from modelport.errors import (
    ProviderOverloadedError,
    ProviderQuotaError,
    ProviderRateLimitError,
    StreamInterruptedError,
)
from modelport.events import FinishEvent, StreamStartEvent, TextDeltaEvent, TextStartEvent
from modelport.types import TextPart, Usage

pytestmark = pytest.mark.usefixtures("fresh_registry")


def overloaded() -> ProviderOverloadedError:
    return ProviderOverloadedError("busy", provider="scripted", status_code=503)


def rate_limited(seconds: float) -> ProviderRateLimitError:
    return ProviderRateLimitError("slow down", provider="scripted", status_code=429, retry_after=seconds)


def test_retry_honours_the_server_delay(scripted: testing.Script, sleeps: list[float]) -> None:
    scripted.results += [rate_limited(17.30897372), rate_limited(42), testing.text_result("ok")]
    model = modelport.get_model("scripted/m", script=scripted)
    assert model.generate(prompt="x").text == "ok"
    assert sleeps == [17.30897372, 42.0]
    assert len(scripted.requests) == 3


def test_retries_are_capped_by_max_retries(scripted: testing.Script, sleeps: list[float]) -> None:
    scripted.results += [overloaded(), overloaded(), testing.text_result("never")]
    model = modelport.get_model("scripted/m", script=scripted, max_retries=1)
    with pytest.raises(ProviderOverloadedError):
        model.generate(prompt="x")
    assert len(sleeps) == 1
    assert 0.25 <= sleeps[0] <= 0.5
    assert len(scripted.requests) == 2


def test_a_delay_beyond_the_cap_is_not_slept(scripted: testing.Script, sleeps: list[float]) -> None:
    year = 365 * 24 * 3600.0
    scripted.results += [rate_limited(year), testing.text_result("never")]
    model = modelport.get_model("scripted/m", script=scripted)
    with pytest.raises(ProviderRateLimitError) as info:
        model.generate(prompt="x")
    assert info.value.retry_after == year
    assert sleeps == []


def test_non_retryable_errors_are_raised_at_once(scripted: testing.Script, sleeps: list[float]) -> None:
    scripted.results += [ProviderQuotaError("quota", provider="scripted", status_code=429)]
    with pytest.raises(ProviderQuotaError):
        modelport.get_model("scripted/m", script=scripted).generate(prompt="x")
    assert sleeps == []


def test_zero_retries(scripted: testing.Script, sleeps: list[float]) -> None:
    scripted.results += [overloaded()]
    with pytest.raises(ProviderOverloadedError):
        modelport.get_model("scripted/m", script=scripted, max_retries=0).generate(prompt="x")
    assert sleeps == []


def test_stream_accumulates_the_same_result(scripted: testing.Script) -> None:
    scripted.streams.append(testing.text_events("Hel", "lo", usage=Usage(input_tokens=3, output_tokens=2)))
    stream = modelport.get_model("scripted/m", script=scripted).stream(prompt="x")
    types = [event.type for event in stream]
    assert types == ["stream-start", "text-start", "text-delta", "text-delta", "text-end", "finish"]
    result = stream.result()
    assert result.content == [TextPart(text="Hello")]
    assert result.usage == Usage(input_tokens=3, output_tokens=2)
    assert result.finish_reason == "stop"


def test_stream_is_retried_before_its_first_event(scripted: testing.Script, sleeps: list[float]) -> None:
    # The provider's stream-start is held back, so a failure right after it is still retryable.
    scripted.streams += [[StreamStartEvent(), overloaded()], testing.text_events("ok")]
    result = modelport.get_model("scripted/m", script=scripted).stream(prompt="x").result()
    assert result.text == "ok"
    assert len(sleeps) == 1
    assert len(scripted.requests) == 2


def test_stream_is_never_retried_after_yielding(scripted: testing.Script, sleeps: list[float]) -> None:
    broken = [
        StreamStartEvent(),
        TextStartEvent(id="0"),
        TextDeltaEvent(id="0", delta="partial "),
        overloaded(),
    ]
    scripted.streams += [broken, testing.text_events("duplicate")]
    stream = modelport.get_model("scripted/m", script=scripted).stream(prompt="x")
    seen = []
    with pytest.raises(ProviderOverloadedError) as info:
        for event in stream:
            seen.append(event.type)
    assert seen == ["stream-start", "text-start", "text-delta"]
    assert sleeps == []
    assert len(scripted.requests) == 1
    partial = info.value.partial
    assert partial is not None
    assert partial.content == [TextPart(text="partial ")]
    assert partial.finish_reason == "error"


def test_a_stream_without_finish_is_interrupted(scripted: testing.Script) -> None:
    scripted.streams.append([StreamStartEvent(), TextStartEvent(id="0"), TextDeltaEvent(id="0", delta="cut")])
    with pytest.raises(StreamInterruptedError) as info:
        modelport.get_model("scripted/m", script=scripted).stream(prompt="x").result()
    assert info.value.partial is not None
    assert info.value.partial.text == "cut"
    assert str(info.value) == "scripted: the stream ended without a finish event"


def test_events_after_finish_are_not_read(scripted: testing.Script) -> None:
    scripted.streams.append([StreamStartEvent(), FinishEvent(finish_reason="stop"), overloaded()])
    assert (
        modelport.get_model("scripted/m", script=scripted).stream(prompt="x").result().finish_reason == "stop"
    )


@pytest.mark.asyncio
async def test_async_twins(scripted: testing.Script, sleeps: list[float]) -> None:
    scripted.results += [overloaded(), testing.text_result("async ok")]
    scripted.streams += [[StreamStartEvent(), overloaded()], testing.text_events("a", "b")]
    model = modelport.get_model("scripted/m", script=scripted)
    assert (await model.agenerate(prompt="x")).text == "async ok"
    stream = model.astream(prompt="y")
    assert [e.type async for e in stream][-1] == "finish"
    assert (await stream.result()).text == "ab"
    assert len(sleeps) == 2


@pytest.mark.asyncio
async def test_async_generate_retries_are_capped_and_raise_the_last_error(
    scripted: testing.Script, sleeps: list[float]
) -> None:
    # agenerate makes its first attempt itself and hands a failure to the retry loop (P4): the
    # attempts, the waits and the error raised are those of the sync path.
    last = rate_limited(3.5)
    scripted.results += [overloaded(), rate_limited(2.0), last, testing.text_result("never")]
    model = modelport.get_model("scripted/m", script=scripted, max_retries=2)
    with pytest.raises(ProviderRateLimitError) as info:
        await model.agenerate(prompt="x")
    assert info.value is last
    assert len(scripted.requests) == 3
    assert len(sleeps) == 2 and 0.25 <= sleeps[0] <= 0.5 and sleeps[1] == 2.0


@pytest.mark.asyncio
async def test_async_generate_raises_a_non_retryable_error_at_once(
    scripted: testing.Script, sleeps: list[float]
) -> None:
    quota = ProviderQuotaError("quota", provider="scripted", status_code=429)
    scripted.results += [quota, testing.text_result("never")]
    with pytest.raises(ProviderQuotaError) as info:
        await modelport.get_model("scripted/m", script=scripted).agenerate(prompt="x")
    assert info.value is quota
    assert (len(scripted.requests), sleeps) == (1, [])


@pytest.mark.asyncio
async def test_async_stream_error_carries_partial(scripted: testing.Script, sleeps: list[float]) -> None:
    scripted.streams.append(
        [StreamStartEvent(), TextStartEvent(id="0"), TextDeltaEvent(id="0", delta="half"), overloaded()]
    )
    with pytest.raises(ProviderOverloadedError) as info:
        await modelport.get_model("scripted/m", script=scripted).astream(prompt="x").result()
    assert info.value.partial is not None
    assert info.value.partial.text == "half"
    assert sleeps == []


def test_embed_validation_and_order(scripted: testing.Script) -> None:
    scripted.embeddings.append(modelport.EmbeddingResult(embeddings=[[0.1], [0.2]]))
    model = modelport.get_model("scripted/m", script=scripted)
    assert model.embed(["a", "b"], output_dimensionality=8).embeddings == [[0.1], [0.2]]
    request = scripted.embed_requests[0]
    assert (request.values, request.single, request.output_dimensionality) == (("a", "b"), False, 8)
    with pytest.raises(modelport.InvalidRequestError, match="at least one value"):
        model.embed([])
    with pytest.raises(modelport.InvalidRequestError, match="positive integer"):
        model.embed("a", output_dimensionality=0)
    assert len(scripted.embed_requests) == 1


def test_module_level_functions_share_a_model(
    scripted: testing.Script, monkeypatch: pytest.MonkeyPatch
) -> None:
    from modelport import _api

    monkeypatch.setattr(_api, "_DEFAULT_MODELS", {})
    shared = modelport.get_model("scripted/m", script=scripted)
    _api._DEFAULT_MODELS[("scripted/m", None, None)] = shared
    scripted.results.append(testing.text_result("module"))
    assert modelport.generate("scripted/m", prompt="x").text == "module"


def test_an_error_event_from_a_provider_ends_the_stream(scripted: testing.Script) -> None:
    from modelport.events import ErrorEvent

    scripted.streams.append(
        [
            StreamStartEvent(),
            TextStartEvent(id="0"),
            TextDeltaEvent(id="0", delta="so far"),
            ErrorEvent(error={"message": "backend hiccup", "status_code": 500}),
            FinishEvent(finish_reason="stop"),
        ]
    )
    # The provider's own status types it (a 500 is an overload); a broken transport it is not.
    with pytest.raises(ProviderOverloadedError) as info:
        modelport.get_model("scripted/m", script=scripted).stream(prompt="x").result()
    assert str(info.value) == "scripted: backend hiccup (HTTP 500)"
    assert info.value.partial is not None and info.value.partial.text == "so far"
