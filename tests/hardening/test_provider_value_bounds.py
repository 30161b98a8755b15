"""Request values outside the range a provider's API takes (issue 34, Low): ``temperature=7`` was sent
to Anthropic (whose range is 0 to 1) and ``top_k=2**70`` to Gemini (an int32 on the wire). Each
provider declares its ranges as data (``Provider.request_bounds``); the core checks them once, before
any I/O, for generate, stream, their async twins, count_tokens and a batch alike.
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

import modelport
from modelport.errors import InvalidRequestError
from modelport.provider import Provider
from modelport.types import Request

MODELS = {
    "anthropic": "anthropic/claude-sonnet-4-5",
    "google": "google/gemini-2.5-flash",
    "google-vertex": "google-vertex/gemini-2.5-flash",
    "openai": "openai/gpt-4.1",
    "openai-responses": "openai-responses/gpt-4.1",
    "groq": "groq/llama-3.3-70b-versatile",
    "deepseek": "deepseek/deepseek-chat",
    "openrouter": "openrouter/openai/gpt-4.1",
    "xai": "xai/grok-4",
    "mistral": "mistral/mistral-large-latest",
    "together": "together/meta-llama/Llama-3-8b",
    "ollama": "ollama/llama3",
    "openai-compatible": "openai-compatible/x",
}
OPTIONS: dict[str, dict[str, Any]] = {
    "google-vertex": {"project": "p", "location": "us-central1"},
    "openai-compatible": {"base_url": "http://127.0.0.1:9/v1"},
}


class Counting(httpx.MockTransport):
    def __init__(self) -> None:
        self.requests: list[httpx.Request] = []
        super().__init__(lambda request: self.requests.append(request) or httpx.Response(500))


def refused(provider: str, call: str, **kwargs: Any) -> str:
    transport = Counting()
    model = modelport.get_model(
        MODELS[provider], api_key="test-key-not-a-secret", transport=transport, max_retries=0,
        **OPTIONS.get(provider, {}),
    )  # fmt: skip
    with pytest.raises(InvalidRequestError) as info:
        if call == "agenerate":
            asyncio.run(model.agenerate(prompt="x", **kwargs))
        elif call == "stream":
            model.stream(prompt="x", **kwargs).result()
        elif call == "prepare":
            model.prepare(prompt="x", **kwargs)
        else:
            getattr(model, call)(prompt="x", **kwargs)
    assert type(info.value) is InvalidRequestError
    assert transport.requests == []
    return str(info.value)


CALLS = ["generate", "stream", "agenerate", "count_tokens", "prepare"]


@pytest.mark.parametrize("call", CALLS)
@pytest.mark.parametrize(
    ("temperature", "shown"), [(7, "7"), (1.5, "1.5"), (1.0000001, "1.0000001"), (float("inf"), "inf")]
)
def test_anthropic_takes_a_temperature_of_0_to_1(call: str, temperature: float, shown: str) -> None:
    assert refused("anthropic", call, temperature=temperature) == (
        f"invalid request: temperature: provider 'anthropic' takes 0 to 1, got {shown}"
    )


@pytest.mark.parametrize("provider", ["google", "google-vertex"])
@pytest.mark.parametrize("call", CALLS)
@pytest.mark.parametrize(
    ("top_k", "shown"), [(2**70, "1180591620717411303424"), (2**31, "2147483648"), (10**400, str(10**400))]
)
def test_gemini_takes_a_top_k_that_fits_an_int32(provider: str, call: str, top_k: int, shown: str) -> None:
    assert refused(provider, call, top_k=top_k) == (
        f"invalid request: top_k: provider '{provider}' takes 1 to 2147483647, got {shown}"
    )


@pytest.mark.parametrize("provider", ["google", "google-vertex"])
@pytest.mark.parametrize("call", CALLS)
@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"seed": 2**31}, "seed: provider '{}' takes -2147483648 to 2147483647, got 2147483648"),
        ({"seed": -(2**31) - 1}, "seed: provider '{}' takes -2147483648 to 2147483647, got -2147483649"),
        ({"seed": 2**53 - 1}, "seed: provider '{}' takes -2147483648 to 2147483647, got 9007199254740991"),
        (
            {"max_output_tokens": 2**31},
            "max_output_tokens: provider '{}' takes 1 to 2147483647, got 2147483648",
        ),
        (
            {"max_output_tokens": 2**50},
            "max_output_tokens: provider '{}' takes 1 to 2147483647, got 1125899906842624",
        ),
    ],
)
def test_gemini_takes_a_seed_and_max_output_tokens_that_fit_an_int32(
    provider: str, call: str, values: dict[str, Any], message: str
) -> None:
    """``seed`` and ``maxOutputTokens`` are int32 fields of Gemini's ``GenerationConfig``: a value
    the request model allows (up to 2**53) but an int32 cannot hold was sent, and Google answered
    400; it is refused before any I/O, for every call."""
    assert refused(provider, call, **values) == "invalid request: " + message.format(provider)


@pytest.mark.parametrize("provider", ["google", "google-vertex"])
@pytest.mark.parametrize("call", CALLS)
@pytest.mark.parametrize(("budget", "shown"), [(2**31, "2147483648"), (2**53 - 1, "9007199254740991")])
def test_gemini_takes_a_thinking_budget_that_fits_an_int32(
    provider: str, call: str, budget: int, shown: str
) -> None:
    assert refused(provider, call, reasoning={"budget_tokens": budget}) == (
        f"reasoning.budget_tokens must be between 0 and 2147483647, got {shown}"
    )


@pytest.mark.parametrize("provider", ["google", "google-vertex"])
def test_gemini_takes_a_thinking_budget_option_that_fits_an_int32(provider: str) -> None:
    options = {"google": {"thinking_budget": 2**31}}
    message = refused(provider, "generate", provider_options=options)
    assert message == (
        "invalid provider_options for Google: thinking_budget: "
        "Input should be less than or equal to 2147483647"
    )


@pytest.mark.parametrize("provider", ["google", "google-vertex"])
def test_gemini_takes_a_temperature_of_0_to_2(provider: str) -> None:
    assert refused(provider, "generate", temperature=2.5) == (
        f"invalid request: temperature: provider '{provider}' takes 0 to 2, got 2.5"
    )


def test_a_batch_entry_out_of_range_is_refused_before_any_upload() -> None:
    transport = Counting()
    model = modelport.get_model(MODELS["anthropic"], api_key="k", transport=transport, max_retries=0)
    with pytest.raises(InvalidRequestError) as info:
        model.submit_batch([{"prompt": "x"}, {"prompt": "y", "temperature": 7}])
    assert str(info.value) == "invalid request: temperature: provider 'anthropic' takes 0 to 1, got 7"
    assert transport.requests == []


@pytest.mark.parametrize(
    ("provider", "values", "sent"),
    [
        ("anthropic", {"temperature": 1}, ("temperature", 1.0)),
        ("anthropic", {"temperature": 0}, ("temperature", 0.0)),
        ("google", {"top_k": 2**31 - 1}, ("topK", 2**31 - 1)),
        ("google", {"temperature": 2}, ("temperature", 2.0)),
        ("google", {"seed": 2**31 - 1}, ("seed", 2**31 - 1)),
        ("google", {"seed": -(2**31)}, ("seed", -(2**31))),
        ("google", {"max_output_tokens": 2**31 - 1}, ("maxOutputTokens", 2**31 - 1)),
        ("google-vertex", {"max_output_tokens": 1}, ("maxOutputTokens", 1)),
    ],
)
def test_the_edges_of_each_range_are_sent(
    provider: str, values: dict[str, Any], sent: tuple[str, Any]
) -> None:
    model = modelport.get_model(MODELS[provider], api_key="k", **OPTIONS.get(provider, {}))
    assert isinstance(model.prepare(prompt="x", **values), Request)
    wire = model.provider.prepare(model.name, model.prepare(prompt="x", **values)).wire.body
    config = wire.get("generationConfig", wire)
    assert config[sent[0]] == sent[1]


#: The Chat Completions servers whose API references give OpenAI's ranges (temperature 0 to 2,
#: presence and frequency penalties -2 to 2).
OPENAI_RANGES = ["openai", "groq", "deepseek", "openrouter"]


@pytest.mark.parametrize("provider", OPENAI_RANGES)
@pytest.mark.parametrize("call", CALLS[:3] + ["prepare"])
@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"temperature": 2.5}, "temperature: provider '{}' takes 0 to 2, got 2.5"),
        ({"temperature": 7}, "temperature: provider '{}' takes 0 to 2, got 7"),
        ({"presence_penalty": 2.01}, "presence_penalty: provider '{}' takes -2 to 2, got 2.01"),
        ({"presence_penalty": -3}, "presence_penalty: provider '{}' takes -2 to 2, got -3"),
        ({"frequency_penalty": -2.5}, "frequency_penalty: provider '{}' takes -2 to 2, got -2.5"),
        ({"frequency_penalty": float("inf")}, "frequency_penalty: provider '{}' takes -2 to 2, got inf"),
    ],
)
def test_chat_completions_takes_openais_documented_ranges(
    provider: str, call: str, values: dict[str, Any], message: str
) -> None:
    assert refused(provider, call, **values) == "invalid request: " + message.format(provider)


@pytest.mark.parametrize("call", CALLS)
def test_the_responses_api_takes_a_temperature_of_0_to_2(call: str) -> None:
    assert refused("openai-responses", call, temperature=2.5) == (
        "invalid request: temperature: provider 'openai-responses' takes 0 to 2, got 2.5"
    )


def test_the_openai_batch_entry_out_of_range_is_refused_before_any_upload() -> None:
    transport = Counting()
    model = modelport.get_model(MODELS["openai"], api_key="k", transport=transport, max_retries=0)
    with pytest.raises(InvalidRequestError) as info:
        model.submit_batch([{"prompt": "x"}, {"prompt": "y", "presence_penalty": -2.5}])
    assert str(info.value) == "invalid request: presence_penalty: provider 'openai' takes -2 to 2, got -2.5"
    assert transport.requests == []


@pytest.mark.parametrize(
    ("provider", "values", "message"),
    [
        ("xai", {"temperature": 2.5}, "temperature: provider 'xai' takes 0 to 2, got 2.5"),
        ("mistral", {"presence_penalty": 2.5}, "presence_penalty: provider 'mistral' takes -2 to 2, got 2.5"),
        ("mistral", {"frequency_penalty": -9}, "frequency_penalty: provider 'mistral' takes -2 to 2, got -9"),
    ],
)
def test_a_preset_takes_the_ranges_its_server_documents(
    provider: str, values: dict[str, Any], message: str
) -> None:
    assert refused(provider, "generate", **values) == "invalid request: " + message


@pytest.mark.parametrize(
    ("provider", "values", "sent"),
    [
        ("openai", {"temperature": 2}, ("temperature", 2.0)),
        ("openai", {"temperature": 0}, ("temperature", 0.0)),
        ("openai", {"presence_penalty": -2}, ("presence_penalty", -2.0)),
        ("openai", {"frequency_penalty": 2}, ("frequency_penalty", 2.0)),
        ("openai-responses", {"temperature": 2}, ("temperature", 2.0)),
        ("groq", {"presence_penalty": 2}, ("presence_penalty", 2.0)),
        ("mistral", {"temperature": 3}, ("temperature", 3.0)),
        ("xai", {"presence_penalty": 3}, ("presence_penalty", 3.0)),
        ("together", {"temperature": 5, "presence_penalty": -4}, ("temperature", 5.0)),
        ("ollama", {"temperature": 5}, ("temperature", 5.0)),
        ("openai-compatible", {"temperature": 9}, ("temperature", 9.0)),
    ],
)
def test_the_edges_and_undocumented_ranges_are_sent(
    provider: str, values: dict[str, Any], sent: tuple[str, Any]
) -> None:
    model = modelport.get_model(MODELS[provider], api_key="k", **OPTIONS.get(provider, {}))
    wire = model.provider.prepare(model.name, model.prepare(prompt="x", **values)).wire.body
    assert wire[sent[0]] == sent[1]


def test_a_provider_without_bounds_declares_none() -> None:
    assert Provider.request_bounds == {}
    for provider in ("together", "ollama", "openai-compatible"):
        model = modelport.get_model(MODELS[provider], api_key="k", **OPTIONS.get(provider, {}))
        assert model.provider.request_bounds == {}, provider
