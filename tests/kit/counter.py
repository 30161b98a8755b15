"""A minimal kit provider (``Counter``, and ``NoCount`` without the token-counting capability) and
transports that record what they are sent, for the tests of the kit's calls beyond generation."""

from __future__ import annotations

from typing import Any, ClassVar

import httpx

from modelport.errors import InvalidRequestError
from modelport.http import HttpProvider, HttpRequest
from modelport.provider import Capabilities, ProviderConfig, Secret, TokenCount
from modelport.types import Request

KEY = "counter-key-0123456789"


class Counter(HttpProvider):
    id: ClassVar[str] = "counter"
    default_base_url: ClassVar[str | None] = "https://api.counter.test/v1"
    capabilities: ClassVar[Capabilities] = Capabilities(count_tokens=True)

    def count_tokens_request(self, model_name: str, request: Request) -> HttpRequest:
        if request.max_output_tokens == 13:
            raise InvalidRequestError("unlucky")
        return HttpRequest(f"/models/{model_name}:count", {"messages": len(request.messages)})

    def decode_token_count(self, data: Any, spec: HttpRequest) -> TokenCount:
        return TokenCount(input_tokens=data["tokens"])


class NoCount(Counter):
    capabilities: ClassVar[Capabilities] = Capabilities()


class Transport(httpx.MockTransport):
    def __init__(self, *replies: httpx.Response) -> None:
        self.replies = list(replies)
        self.requests: list[httpx.Request] = []
        super().__init__(self._handle)

    def _handle(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return self.replies.pop(0)


class ATransport(httpx.AsyncBaseTransport):
    def __init__(self, sync: Transport) -> None:
        self.sync = sync

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        await request.aread()
        return self.sync._handle(request)


def provider(
    cls: type[Counter], transport: Transport, *, asynchronous: bool = False, **config: Any
) -> Counter:
    if asynchronous:
        client: Any = {"async_http_client": httpx.AsyncClient(transport=ATransport(transport))}
    else:
        client = {"http_client": httpx.Client(transport=transport)}
    return cls(ProviderConfig(provider_id=cls.id, api_key=Secret(KEY), **client, **config))


def ok(data: Any) -> httpx.Response:
    return httpx.Response(200, json=data)
