"""One provider contract (2.3): the model prepares a request once and sends what was prepared; the
four sends are the only generation hooks, and ``generate``/``stream`` call them.

- A provider overriding ``generate``, ``stream`` or an async twin without its send (the pre-2.3
  hook) is refused at registration, naming what to rename: nothing would call the override.
- An override of a send is what the model runs; ``Provider.generate`` and friends go through
  ``prepare`` and the sends, so a caller holding the provider gets the same answer.
- No flag tells the model how a provider behaves: ``embed`` is not retried by the model (the kit
  retries each request alone, so none that succeeded is sent again).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest

import modelport
from modelport import events as ev
from modelport.contracts import GENERATION_HOOKS, old_generation_hooks
from modelport.errors import ConfigurationError, InvalidRequestError, ProviderOverloadedError
from modelport.http import HttpProvider
from modelport.provider import Capabilities, EmbedRequest, Prepared, Provider, ProviderConfig
from modelport.testing import text_events
from modelport.types import EmbeddingResult, Request, Result, TextPart

ANSWER = Result(content=[TextPart(text="prepared once")], finish_reason="stop")


def _register(provider: type[Provider]) -> None:
    class Plugin:
        @modelport.hookimpl
        def modelport_register_providers(self, register: Any) -> None:
            register(provider)

    modelport.register_plugin(Plugin(), name=f"{provider.id}-plugin")


class Sender(Provider):
    """Sends what ``prepare`` made; counts how often each hook ran."""

    id = "sender"
    capabilities = Capabilities(embed=True)

    def __init__(self, config: ProviderConfig) -> None:
        super().__init__(config)
        self.calls: list[str] = []

    def check_request(self, model_name: str, request: Request) -> None:
        self.calls.append("check")
        if request.messages and request.messages[0].text == "refuse me":
            raise InvalidRequestError("refused by the provider's own rule")

    def send(self, model_name: str, prepared: Prepared) -> Result:
        self.calls.append(f"send:{prepared.request.messages[0].text}")
        return ANSWER

    async def asend(self, model_name: str, prepared: Prepared) -> Result:
        self.calls.append("asend")
        return ANSWER

    def send_stream(self, model_name: str, prepared: Prepared) -> Iterator[ev.StreamEvent]:
        self.calls.append(f"send_stream:{prepared.stream}")
        yield from text_events("prepared ", "once")

    async def asend_stream(self, model_name: str, prepared: Prepared) -> AsyncIterator[ev.StreamEvent]:  # type: ignore[override]
        self.calls.append(f"asend_stream:{prepared.stream}")
        for event in text_events("prepared ", "once"):
            yield event

    def embed(self, model_name: str, request: EmbedRequest) -> EmbeddingResult:
        self.calls.append("embed")
        raise ProviderOverloadedError("busy", provider="sender", status_code=503)


@pytest.mark.parametrize(("call", "send"), GENERATION_HOOKS)
def test_an_override_of_a_generation_call_without_its_send_is_refused_naming_the_rename(
    fresh_registry: None, call: str, send: str
) -> None:
    def override(self: Any, model_name: str, request: Request) -> Any:
        return ANSWER

    old = type("Old", (Provider,), {"id": f"old-{call}", call: override})
    assert old_generation_hooks(old) == [(call, send)]
    with pytest.raises(ConfigurationError) as info:
        _register(old)
    assert str(info.value).endswith(
        f"provider 'old-{call}' overrides {call}, which the model no longer calls (provider contract "
        f"2.3): override the send instead ({call} -> {send}; it receives what prepare made, the "
        "request as prepared.request)"
    )
    assert f"old-{call}" not in modelport.plugins.providers()


def test_an_http_provider_overriding_generate_is_refused_and_one_overriding_send_is_not(
    fresh_registry: None,
) -> None:
    def generate(self: Any, model_name: str, request: Request) -> Any:
        return ANSWER

    def send(self: Any, model_name: str, prepared: Prepared) -> Any:
        return ANSWER

    kit_generate = type("KitGenerate", (HttpProvider,), {"id": "kit-generate", "generate": generate})
    kit_send = type("KitSend", (HttpProvider,), {"id": "kit-send", "send": send})
    # Both the call and its send overridden in one class: the class means the send (nothing refused).
    both = type("Both", (Provider,), {"id": "both", "generate": generate, "send": send})
    assert old_generation_hooks(kit_generate) == [("generate", "send")]
    assert old_generation_hooks(kit_send) == old_generation_hooks(both) == []
    assert old_generation_hooks(HttpProvider) == old_generation_hooks(Sender) == []
    with pytest.raises(ConfigurationError, match=r"^.*'kit-generate' overrides generate, "):
        _register(kit_generate)
    _register(kit_send)
    _register(both)
    assert modelport.plugins.provider_class("kit-send") is kit_send


def test_the_model_prepares_once_and_runs_the_sends_and_so_does_a_provider_called_directly() -> None:
    model = modelport.Model(Sender(ProviderConfig("sender")), "m")
    provider: Sender = model.provider  # type: ignore[assignment]
    assert model.generate(prompt="hello").text == "prepared once"
    assert [e.type for e in model.stream(prompt="hello")][-1] == "finish"
    assert asyncio.run(model.agenerate(prompt="hello")).text == "prepared once"

    async def astreamed() -> str:
        stream = model.astream(prompt="hello")
        async for _ in stream:
            pass
        return (await stream.result()).text

    assert asyncio.run(astreamed()) == "prepared once"
    assert provider.calls == ["check", "send:hello", "check", "send_stream:True", "check", "asend"] + [
        "check",
        "asend_stream:True",
    ]

    provider.calls.clear()
    request = Request(prompt="direct")
    assert provider.generate("m", request) is ANSWER
    assert [e.type for e in provider.stream("m", request)] == [
        e.type for e in text_events("prepared ", "once")
    ]
    assert asyncio.run(provider.agenerate("m", request)) is ANSWER
    assert provider.calls == ["check", "send:direct", "check", "send_stream:True", "check", "asend"]

    provider.calls.clear()  # what prepare refuses is never sent
    with pytest.raises(InvalidRequestError, match="refused by the provider's own rule"):
        model.generate(prompt="refuse me")
    with pytest.raises(InvalidRequestError, match="refused by the provider's own rule"):
        provider.stream("m", Request(prompt="refuse me"))
    assert provider.calls == ["check", "check"]


def test_the_model_does_not_retry_embed_the_provider_owns_its_retries() -> None:
    model = modelport.Model(Sender(ProviderConfig("sender", max_retries=3, max_retry_delay=0.0)), "m")
    provider: Sender = model.provider  # type: ignore[assignment]
    with pytest.raises(ProviderOverloadedError):
        model.embed("one value")
    assert provider.calls == ["embed"]


def test_the_kit_retries_each_embedding_request_alone() -> None:
    # Gemini's batchEmbedContents takes 100 values a request: 150 values are two requests. The
    # second fails once with 503 and is retried alone; the first is not sent again. MOCK: the
    # vectors are invented (one number each); only the count of requests is under test.
    seen: list[int] = []

    def handle(request: httpx.Request) -> httpx.Response:
        import json

        values = json.loads(request.content)["requests"]
        seen.append(len(values))
        if len(seen) == 2:
            return httpx.Response(
                503, json={"error": {"code": 503, "message": "busy", "status": "UNAVAILABLE"}}
            )
        return httpx.Response(200, json={"embeddings": [{"values": [0.5]} for _ in values]})

    model = modelport.get_model(
        "google/gemini-embedding-001",
        api_key="test-key-not-real",
        transport=httpx.MockTransport(handle),
        max_retries=2,
        max_retry_delay=0.0,
    )
    result = model.embed([f"value {i}" for i in range(150)])
    assert len(result.embeddings) == 150
    assert seen == [100, 50, 50]
