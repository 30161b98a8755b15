"""Pricing real recorded answers of each first-party provider with the genai-prices catalog, each
figure checked by hand against the catalog's rates (USD per million tokens), and the cases that have
no price (``None``, never zero)."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import httpx
import pytest
import yaml

import modelport
from modelport import testing
from modelport.types import Origin, Result, Usage
from modelport.wrappers import Cost, CostTracker, cost, priced_quantities
from tests import recordings

pytest.importorskip("genai_prices")
import genai_prices  # noqa: E402

CATALOG = f"genai-prices {genai_prices.__version__}"


def _cassette_body(path: Any, index: int) -> bytes:
    interaction = yaml.safe_load(path.read_text(encoding="utf-8"))["interactions"][index]
    return json.dumps(interaction["response"]["parsed_body"]).encode()


def test_anthropic_cache_read_and_write() -> None:
    # The second call of pydantic-ai's real cache test: 3 fresh input tokens, 418 written to the
    # 5-minute cache, 1,111 read from it, 33 output tokens (claude-sonnet-4-5-20250929).
    path = recordings.anthropic(
        "pydantic__pydantic-ai/tests__models__cassettes__test_anthropic__test_anthropic_cache_real_api.yaml"
    )
    result = recordings.answered("anthropic/claude-sonnet-4-5", _cassette_body(path, 1))
    assert result.usage.input_tokens == 1532
    assert priced_quantities(result.usage, result.provider_metadata) == {
        "input_tokens": 1532,
        "output_tokens": 33,
        "cache_read_tokens": 1111,
        "cache_write_tokens": 418,
        "cache_write_5m_tokens": 418,
        "cache_write_1h_tokens": 0,
    }
    # $3 input, $0.30 cache read, $3.75 5-minute cache write, $15 output (per MTok):
    # 3 × 3 + 1111 × 0.3 + 418 × 3.75 = 1909.8 µ$; 33 × 15 = 495 µ$.
    assert cost(result) == Cost(
        input=Decimal("0.0019098"),
        output=Decimal("0.000495"),
        total=Decimal("0.0024048"),
        currency="USD",
        provider="anthropic",
        model="claude-sonnet-4-5",
        catalog=CATALOG,
    )


def test_anthropic_one_hour_cache_writes_are_priced_at_their_rate() -> None:
    usage = Usage(
        input_tokens=1532, output_tokens=33, cache_read_input_tokens=1111, cache_write_input_tokens=418
    )
    split = {
        "anthropic": {"cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 418}}
    }
    result = Result(
        usage=usage, provider_metadata=split, origin=Origin(provider="anthropic", model="claude-sonnet-4-5")
    )
    price = cost(result)  # MOCK split of the recorded counts: 418 × $6 (1-hour write) instead of × $3.75
    assert price is not None and price.input == Decimal("0.0028503")  # 9 + 333.3 + 2508 µ$


def test_openai_reasoning_tokens() -> None:
    # pydantic-ai's real gpt-5 call: 124 input tokens, 1,926 output of which 1,792 reasoning.
    path = recordings.openai_responses(
        "pydantic__pydantic-ai/tests__models__cassettes__test_openai_responses__test_openai_responses_thinking_with_tool_calls.yaml"
    )
    result = recordings.answered("openai-responses/gpt-5", _cassette_body(path, 0))
    assert (result.usage.output_tokens, result.usage.reasoning_tokens) == (1926, 1792)
    price = cost(result)
    # $1.25 input, $10 output (reasoning at the output rate, counted once): 155 µ$ + 19,260 µ$.
    assert price is not None
    assert (price.input, price.output, price.total) == (
        Decimal("0.000155"),
        Decimal("0.01926"),
        Decimal("0.019415"),
    )
    assert (price.provider, price.model) == ("openai", "gpt-5")


def test_openai_cache_read() -> None:
    # The second call of the same recording: 2,087 input tokens of which 2,048 cached, 124 output.
    path = recordings.openai_responses(
        "pydantic__pydantic-ai/tests__models__cassettes__test_openai_responses__test_openai_responses_thinking_with_tool_calls.yaml"
    )
    result = recordings.answered("openai-responses/gpt-5", _cassette_body(path, 1))
    assert result.usage.cache_read_input_tokens == 2048
    price = cost(result)
    # 39 × 1.25 + 2048 × 0.125 = 304.75 µ$; 124 × 10 = 1,240 µ$.
    assert price is not None
    assert (price.input, price.output, price.total) == (
        Decimal("0.00030475"),
        Decimal("0.00124"),
        Decimal("0.00154475"),
    )


def test_gemini_implicit_cache_read_and_thoughts() -> None:
    # Firebase's Vertex AI test data: 12,013 prompt tokens of which 11,243 cached, 15 candidates and
    # 73 thoughts tokens (gemini-2.5-flash).
    body = recordings.gemini(
        "FirebaseExtended__vertexai-sdk-test-data/mock-responses__vertexai__unary-success-implicit-caching.json"
    ).read_bytes()
    result = recordings.answered("google/gemini-2.5-flash", body)
    assert (result.usage.input_tokens, result.usage.output_tokens, result.usage.reasoning_tokens) == (
        12013,
        88,
        73,
    )
    price = cost(result)
    # $0.30 input, $0.03 cache read, $2.50 output: 770 × 0.3 + 11243 × 0.03 = 568.29 µ$; 88 × 2.5 = 220 µ$.
    assert price is not None
    assert (price.input, price.output, price.total) == (
        Decimal("0.00056829"),
        Decimal("0.00022"),
        Decimal("0.00078829"),
    )
    assert (price.provider, price.model) == ("google", "gemini-2.5-flash")


@pytest.mark.parametrize(
    "result",
    [
        Result(
            usage=Usage(input_tokens=10, output_tokens=5),
            origin=Origin(provider="openai", model="no-such-model"),
        ),
        Result(
            usage=Usage(input_tokens=10, output_tokens=5),
            origin=Origin(provider="no-such-provider", model="gpt-5"),
        ),
        Result(usage=Usage(input_tokens=10), origin=Origin(provider="openai", model="gpt-5")),
        Result(usage=Usage(input_tokens=10, output_tokens=5)),
    ],
    ids=["unknown model", "unknown provider", "no output count", "no origin"],
)
def test_an_unknown_price_is_none_never_zero(result: Result) -> None:
    assert cost(result) is None


def test_the_model_that_answered_is_priced_first_then_the_one_asked_for() -> None:
    usage = Usage(input_tokens=1_000_000, output_tokens=0)
    asked = Origin(provider="openai", model="gpt-5")
    assert cost(Result(usage=usage, origin=asked, model_version="gpt-5-2025-08-07")).total == Decimal("1.25")  # type: ignore[union-attr]
    assert cost(Result(usage=usage, origin=asked, model_version="not-in-the-catalog")).total == Decimal(
        "1.25"
    )  # type: ignore[union-attr]
    assert cost(Result(usage=usage), provider="openai", model="gpt-4o").total == Decimal("2.5")  # type: ignore[union-attr]


def test_the_cost_tracker_sums_generate_and_stream_calls(scripted: testing.Script) -> None:
    usage = Usage(input_tokens=1_000_000, output_tokens=100_000)
    scripted.results += [testing.text_result("a", usage=usage), testing.text_result("b", usage=Usage())]
    scripted.streams.append(testing.text_events("c", usage=usage))
    tracker = CostTracker()
    model = modelport.wrap(modelport.get_model("scripted/gpt-5", script=scripted), tracker)
    model.generate(prompt="x")
    model.generate(prompt="x")
    assert model.stream(prompt="x").result().text == "c"
    # The scripted provider is not in the catalog: nothing priced, nothing guessed.
    assert (tracker.calls, tracker.unpriced, tracker.total, tracker.costs) == (
        3,
        3,
        Decimal(0),
        [None, None, None],
    )


def test_the_cost_tracker_prices_a_catalogued_provider() -> None:
    body = recordings.gemini(
        "FirebaseExtended__vertexai-sdk-test-data/mock-responses__vertexai__unary-success-implicit-caching.json"
    ).read_bytes()

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=body, headers={"content-type": "application/json"})

    tracker = CostTracker()
    model = modelport.get_model("google/gemini-2.5-flash", api_key="k", transport=httpx.MockTransport(answer))
    wrapped = modelport.wrap(model, tracker)
    wrapped.generate(prompt="Hi")
    wrapped.generate(prompt="Hi")
    assert (tracker.calls, tracker.unpriced, tracker.total) == (2, 0, Decimal("0.00157658"))


def test_a_recorded_gemini_stream_with_thoughts_is_priced() -> None:
    # Firebase's recorded stream: 38 prompt tokens, 6 candidates and 168 thoughts tokens (gemini-2.5-flash).
    from tests.google import corpus as c
    from tests.google import mock

    name = "mock-responses__googleai__streaming-success-thinking-function-call-thought-summary-signature.txt"
    sse = mock.response(200, c.raw(c.FIREBASE, name), headers={"content-type": "text/event-stream"})
    plain, _ = mock.model([sse])
    tracker = CostTracker()
    result = modelport.wrap(plain, tracker).stream(prompt="Hi").result()
    assert (result.usage.input_tokens, result.usage.output_tokens, result.usage.reasoning_tokens) == (
        38,
        174,
        168,
    )
    # 38 × $0.30 = 11.4 µ$; 174 × $2.50 = 435 µ$ (the thoughts at the output rate, counted once).
    expected = Cost(
        input=Decimal("0.0000114"),
        output=Decimal("0.000435"),
        total=Decimal("0.0004464"),
        currency="USD",
        provider="google",
        model="gemini-2.5-flash",
        catalog=CATALOG,
    )
    assert tracker.costs == [expected]
    assert cost(result) == expected  # a stream's result prices the same
