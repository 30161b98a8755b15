"""``FallbackModel``: which errors move on to the next model and which surface, cool-downs, streams
(no fallback after the first event), the chain's deadline, and a history replayed to each model."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import modelport
from modelport import deadlines, testing
from modelport.errors import (
    ConfigurationError,
    DeadlineExceededError,
    InvalidRequestError,
    ModelportError,
    ProviderAuthError,
    ProviderConnectionError,
    ProviderOverloadedError,
    ProviderQuotaError,
    ProviderRateLimitError,
    ProviderRequestError,
    ProviderTimeoutError,
)
from modelport.events import TextDeltaEvent
from modelport.types import Message, Origin, ReasoningPart, Request, Result, TextPart
from modelport.wrappers import fallback as fallback_module


@pytest.fixture
def two(scripted: testing.Script) -> tuple[testing.Script, testing.Script]:
    return testing.Script(), testing.Script()


def models(scripts: tuple[testing.Script, ...], **options: Any) -> modelport.FallbackModel:
    names = "abc"
    return modelport.FallbackModel(
        [modelport.get_model(f"scripted/{names[i]}", script=s, max_retries=0) for i, s in enumerate(scripts)],
        **options,
    )


FALLS_BACK = [
    ProviderRateLimitError("slow down", provider="scripted", status_code=429, retry_after=7),
    ProviderOverloadedError("busy", provider="scripted", status_code=503),
    ProviderOverloadedError("internal", provider="scripted", status_code=500),
    ProviderConnectionError("refused", provider="scripted", host="api.example", port=443),
    ProviderTimeoutError("read timed out", provider="scripted", host="api.example", port=443),
]
SURFACES = [
    ProviderRequestError("bad request", provider="scripted", status_code=400),
    ProviderAuthError("bad key", provider="scripted", status_code=401),
    ProviderQuotaError("quota", provider="scripted", status_code=429),
    DeadlineExceededError("too late", provider="scripted"),
]


@pytest.mark.parametrize("error", FALLS_BACK, ids=lambda e: type(e).__name__ + str(e.status_code))
def test_a_retryable_error_falls_back_to_the_next_model(two: Any, error: ModelportError) -> None:
    first, second = two
    first.results.append(error)
    second.results.append(testing.text_result("from b"))
    result = models(two).generate(prompt="x")
    assert result.text == "from b"
    assert result.origin == Origin(provider="scripted", model="b")  # which model answered
    assert len(first.requests) == len(second.requests) == 1


@pytest.mark.parametrize("error", SURFACES, ids=lambda e: type(e).__name__)
def test_an_error_another_model_would_not_fix_surfaces_at_once(two: Any, error: ModelportError) -> None:
    first, second = two
    first.results.append(error)
    second.results.append(testing.text_result("never"))
    with pytest.raises(type(error)) as raised:
        models(two).generate(prompt="x")
    assert raised.value is error
    assert second.requests == []


def test_an_invalid_request_is_refused_before_any_model_is_called(two: Any) -> None:
    with pytest.raises(InvalidRequestError, match="temperature"):
        models(two).generate(prompt="x", temperature=-1)
    assert two[0].requests == two[1].requests == []


def test_when_every_model_fails_the_last_error_is_raised_linked_to_the_others(two: Any) -> None:
    first, second = two
    limited = ProviderRateLimitError("slow down", provider="scripted", status_code=429)
    busy = ProviderOverloadedError("busy", provider="scripted", status_code=503)
    first.results.append(limited)
    second.results.append(busy)
    with pytest.raises(ProviderOverloadedError) as raised:
        models(two).generate(prompt="x")
    assert raised.value is busy
    assert busy.__context__ is limited  # a traceback shows every model's error


def test_each_model_retries_first_then_the_chain_falls_back(
    scripted: testing.Script, sleeps: list[float]
) -> None:
    first, second = testing.Script(), testing.Script()
    first.results += [FALLS_BACK[1], FALLS_BACK[1]]
    second.results.append(testing.text_result("from b"))
    chain = modelport.FallbackModel(
        [
            modelport.get_model("scripted/a", script=first, max_retries=1),
            modelport.get_model("scripted/b", script=second, max_retries=0),
        ]
    )
    assert chain.generate(prompt="x").text == "from b"
    assert len(first.requests) == 2 and len(sleeps) == 1


def test_a_failed_model_is_tried_last_until_its_cooldown_passes(
    two: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = [1000.0]
    monkeypatch.setattr(fallback_module, "_now", lambda: now[0])
    first, second = two
    chain = models(two, cooldown=30)
    first.results.append(FALLS_BACK[0])
    second.results += [testing.text_result("b1"), testing.text_result("b2")]
    assert chain.generate(prompt="x").text == "b1"
    now[0] += 29.5
    assert chain.order() == [1, 0]
    assert chain.generate(prompt="x").text == "b2"  # the cooling model is not asked first
    assert len(first.requests) == 1
    now[0] += 1
    assert chain.order() == [0, 1]
    first.results.append(testing.text_result("a again"))
    assert chain.generate(prompt="x").text == "a again"


def test_a_cooling_model_is_still_tried_when_the_healthy_ones_fail(
    two: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fallback_module, "_now", lambda: 5.0)
    first, second = two
    chain = models(two, cooldown=60)
    first.results += [FALLS_BACK[0], testing.text_result("a at last")]
    second.results += [testing.text_result("b"), FALLS_BACK[1]]
    assert chain.generate(prompt="x").text == "b"
    assert chain.generate(prompt="x").text == "a at last"  # b failed: a, cooling, is the last resort
    assert chain.order() == [0, 1]  # a answered (no longer cooling); b failed: cooling
    assert fallback_module._now() == 5.0 and chain._failed_at == {1: 5.0}


def test_the_deadline_bounds_the_whole_chain(two: Any) -> None:
    first, second = two
    seen: list[float | None] = []

    class SpendsTheDeadline(modelport.Middleware):
        def wrap_generate(self, request: Request, call_next: Any, model: modelport.Model) -> Result:
            budget = deadlines.current()
            assert budget is not None
            seen.append(budget.seconds)
            budget.at = 0.0  # the time is up (the monotonic clock is long past 0)
            return call_next(request)

    first.results.append(FALLS_BACK[1])
    second.results.append(testing.text_result("never"))
    chain = modelport.FallbackModel(
        [
            modelport.wrap(
                modelport.get_model("scripted/a", script=first, max_retries=0), SpendsTheDeadline()
            ),
            modelport.get_model("scripted/b", script=second, max_retries=0),
        ],
        deadline=20,
    )
    with pytest.raises(DeadlineExceededError, match="within its deadline of 20 s") as raised:
        chain.generate(prompt="x")
    assert raised.value.__cause__ is FALLS_BACK[1]
    assert seen == [20] and second.requests == []


def test_a_stream_falls_back_before_its_first_event(two: Any) -> None:
    first, second = two
    first.streams.append([FALLS_BACK[0]])
    second.streams.append(testing.text_events("he", "llo"))
    with models(two).stream(prompt="x") as stream:
        deltas = [event.delta for event in stream if isinstance(event, TextDeltaEvent)]
        result = stream.result()
    assert deltas == ["he", "llo"]
    assert result.text == "hello"
    assert result.origin == Origin(provider="scripted", model="b")


def test_a_stream_start_alone_is_not_a_first_event(two: Any) -> None:
    first, second = two
    first.streams.append([testing.text_events("x")[0], FALLS_BACK[1]])  # stream-start, then a failure
    second.streams.append(testing.text_events("ok"))
    assert models(two).stream(prompt="x").result().text == "ok"


def test_a_stream_does_not_fall_back_after_its_first_event(two: Any) -> None:
    first, second = two
    events = testing.text_events("partial", "never")
    first.streams.append([*events[:3], FALLS_BACK[1]])  # start, text-start, one delta, then busy
    second.streams.append(testing.text_events("never"))
    stream = models(two).stream(prompt="x")
    seen = []
    with pytest.raises(ProviderOverloadedError) as raised:
        for event in stream:
            seen.append(event.type)
    assert seen == ["stream-start", "text-start", "text-delta"]
    assert raised.value.partial is not None and raised.value.partial.text == "partial"
    assert second.requests == []


def test_async_calls_fall_back(two: Any) -> None:
    first, second = two
    first.results.append(FALLS_BACK[0])
    second.results.append(testing.text_result("async b"))
    first.streams.append([FALLS_BACK[2]])
    second.streams.append(testing.text_events("s", "b"))
    chain = models(two)

    async def both() -> tuple[str, str, str | None]:
        result = await chain.agenerate(prompt="x")
        stream = chain.astream(prompt="x")
        streamed = await stream.result()
        return result.text, streamed.text, streamed.origin.model if streamed.origin else None

    assert asyncio.run(both()) == ("async b", "sb", "b")


def test_each_model_gets_the_history_under_its_own_replay_policy(two: Any) -> None:
    first, second = two
    history = [
        Message(role="user", content="think"),
        Message(
            role="assistant",
            content=[ReasoningPart(text="hmm", signature="sig-a"), TextPart(text="done")],
            origin=Origin(provider="scripted", model="a"),
        ),
        Message(role="user", content="again"),
    ]
    first.results.append(FALLS_BACK[0])
    second.results.append(testing.text_result("b"))
    chain = models(two)
    assert chain.generate(messages=history).text == "b"
    assert first.requests[0] == chain.models[0].prepare(messages=history)
    assert second.requests[0] == chain.models[1].prepare(messages=history)
    assert [p.type for p in first.requests[0].messages[1].content] == ["reasoning", "text"]
    assert [p.type for p in second.requests[0].messages[1].content] == ["text"]  # another model's


def test_a_wrapped_fallback_keeps_each_models_replay_policy(two: Any) -> None:
    first, second = two
    history = [
        Message(role="user", content="think"),
        Message(
            role="assistant",
            content=[ReasoningPart(text="hmm", signature="sig-a"), TextPart(text="done")],
            origin=Origin(provider="scripted", model="a"),
        ),
        Message(role="user", content="again"),
    ]

    class Passes(modelport.Middleware):
        def wrap_generate(self, request: Request, call_next: Any, model: modelport.Model) -> Result:
            return call_next(request)

    first.results.append(FALLS_BACK[0])
    second.results.append(testing.text_result("b"))
    assert modelport.wrap(models(two), Passes()).generate(messages=history).text == "b"
    assert [p.type for p in first.requests[0].messages[1].content] == ["reasoning", "text"]
    assert [p.type for p in second.requests[0].messages[1].content] == ["text"]


def test_a_fallback_runs_the_tool_loop_and_can_be_wrapped(two: Any) -> None:
    first, second = two
    first.results.append(FALLS_BACK[0])
    second.results.append(testing.text_result("b"))
    log: list[str] = []

    class Log(modelport.Middleware):
        def wrap_generate(self, request: Request, call_next: Any, model: modelport.Model) -> Result:
            result = call_next(request)
            log.append(result.origin.model if result.origin else "?")
            return result

    assert modelport.wrap(models(two), Log()).run(prompt="x").text == "b"
    assert log == ["b"]


def test_bad_options_are_refused(scripted: testing.Script) -> None:
    with pytest.raises(ConfigurationError, match="non-empty list of models"):
        modelport.FallbackModel([])
    with pytest.raises(ConfigurationError, match="cooldown must be a positive number of seconds, got 0"):
        models((scripted,), cooldown=0)
    chain = models((scripted, testing.Script()))
    assert chain.id == "fallback:scripted/a,scripted/b"
    with pytest.raises(InvalidRequestError, match="no batch service"):
        chain.submit_batch([{"prompt": "x"}])


def test_weights_spread_the_first_try_in_proportion(scripted: testing.Script) -> None:
    import random

    chain = models((scripted, testing.Script(), testing.Script()), weights=[6, 3, 1], rng=random.Random(40))
    firsts = [chain.order()[0] for _ in range(10_000)]
    assert [firsts.count(i) for i in range(3)] == [6047, 2937, 1016]  # seeded; 6 : 3 : 1 within 1 %
    assert sorted(chain.order()) == [0, 1, 2]  # every model is still in the order


def test_weights_are_checked(scripted: testing.Script) -> None:
    with pytest.raises(ConfigurationError, match="one positive number per model"):
        models((scripted, testing.Script()), weights=[1])
    with pytest.raises(ConfigurationError, match="one positive number per model"):
        models((scripted, testing.Script()), weights=[1, 0])


def test_embeddings_fall_back_too(two: Any) -> None:
    from modelport.types import EmbeddingResult

    first, second = two
    first.embeddings.append(FALLS_BACK[3])
    second.embeddings.append(EmbeddingResult(embeddings=[[0.5]]))
    assert models(two).embed("x").embeddings == [[0.5]]
    first.embeddings.append(SURFACES[1])
    with pytest.raises(ProviderAuthError):
        models(two).embed("x")


def test_an_async_stream_does_not_fall_back_after_its_first_event(two: Any) -> None:
    first, second = two
    first.streams.append([*testing.text_events("partial")[:3], FALLS_BACK[1]])
    second.streams.append(testing.text_events("never"))
    chain = models(two)

    async def consume() -> list[str]:
        seen = []
        async for event in chain.astream(prompt="x"):
            seen.append(event.type)
        return seen

    with pytest.raises(ProviderOverloadedError) as raised:
        asyncio.run(consume())
    assert raised.value.partial is not None and raised.value.partial.text == "partial"
    assert second.requests == []
