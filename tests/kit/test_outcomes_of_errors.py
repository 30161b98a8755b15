"""An error answer that is the call's outcome (``HttpProvider.outcome_of_error``): ``generate``
returns the result it carries and a stream ends with that result's ``finish`` event, sync and
async; an error the hook does not claim is raised as before.

MOCK answers (the kit's own protocol, values invented): a 400 whose ``code`` says the prompt was
blocked, as Azure OpenAI answers a filtered prompt (its real recordings are replayed by the
``azure-openai`` conformance suite); a 400 with another code.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, ClassVar

import httpx
import pytest

import modelport
from modelport.errors import ProviderError, ProviderRequestError
from modelport.http import HttpProvider, HttpRequest
from modelport.provider import Capabilities
from modelport.types import Request, Result

BLOCKED = {"error": {"code": "blocked", "message": "The prompt was blocked."}}
TOO_LONG = {"error": {"code": "too_long", "message": "The prompt is too long."}}


class Unread:
    """A stream decoder that is given no frame: a 400 is no stream."""

    def feed(self, frame: Any) -> list[Any]:  # pragma: no cover
        raise AssertionError("a 400 is never decoded as a stream")

    def finish(self) -> list[Any]:  # pragma: no cover
        raise AssertionError("a 400 is never decoded as a stream")


class BlockingProvider(HttpProvider):
    id: ClassVar[str] = "blocking"
    default_base_url: ClassVar[str | None] = "https://api.blocking.test"
    api_key_required: ClassVar[bool] = False
    capabilities: ClassVar[Capabilities] = Capabilities(generate=True, stream=True)

    def build_request(self, model_name: str, request: Request, *, stream: bool) -> HttpRequest:
        return HttpRequest("/generate", {"model": model_name}, stream=stream)

    def decode_response(self, data: Any, spec: HttpRequest) -> Result:  # pragma: no cover
        raise AssertionError("a 400 is never decoded as an answer")

    def stream_decoder(self, spec: HttpRequest) -> Any:
        return Unread()

    def outcome_of_error(self, error: ProviderError) -> Result | None:
        if error.provider_status != "blocked":
            return None
        return Result(
            finish_reason="content-filter",
            raw_finish_reason="blocked",
            provider_metadata={"blocking": {"status": error.status_code}},
        )


class Plugin:
    @modelport.hookimpl
    def modelport_register_providers(self, register: Any) -> None:
        register(BlockingProvider)


@pytest.fixture
def blocking(fresh_registry: None) -> None:
    modelport.register_plugin(Plugin(), name="blocking")


def _model(body: dict[str, Any]) -> modelport.Model:
    transport = httpx.MockTransport(
        lambda request: httpx.Response(
            400, content=json.dumps(body).encode(), headers={"content-type": "application/json"}
        )
    )
    return modelport.get_model("blocking/m", transport=transport, max_retries=0)


def _streamed(model: modelport.Model, *, asynchronous: bool) -> tuple[list[Any], Result]:
    async def consume() -> tuple[list[Any], Result]:
        s = model.astream(prompt="Hi")
        return [event async for event in s], await s.result()

    if asynchronous:
        return asyncio.run(consume())
    s = model.stream(prompt="Hi")
    return list(s), s.result()


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_generate_returns_the_outcome_an_error_carries(blocking: None, asynchronous: bool) -> None:
    model = _model(BLOCKED)
    result = asyncio.run(model.agenerate(prompt="Hi")) if asynchronous else model.generate(prompt="Hi")
    assert (result.text, result.finish_reason, result.raw_finish_reason) == ("", "content-filter", "blocked")
    assert result.provider_metadata == {"blocking": {"status": 400}}


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_a_stream_ends_with_the_finish_event_of_that_outcome(blocking: None, asynchronous: bool) -> None:
    events, result = _streamed(_model(BLOCKED), asynchronous=asynchronous)
    assert [event.type for event in events] == ["stream-start", "finish"]
    finish = events[-1]
    assert (finish.finish_reason, finish.raw_finish_reason) == ("content-filter", "blocked")
    assert finish.provider_metadata == {"blocking": {"status": 400}}
    assert (result.finish_reason, result.provider_metadata) == (
        "content-filter",
        {"blocking": {"status": 400}},
    )


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_an_error_the_hook_does_not_claim_is_raised(blocking: None, asynchronous: bool) -> None:
    model = _model(TOO_LONG)
    with pytest.raises(ProviderRequestError, match="The prompt is too long.") as caught:
        asyncio.run(model.agenerate(prompt="Hi")) if asynchronous else model.generate(prompt="Hi")
    assert (caught.value.status_code, caught.value.provider_status) == (400, "too_long")
    with pytest.raises(ProviderRequestError, match="The prompt is too long."):
        _streamed(model, asynchronous=asynchronous)
