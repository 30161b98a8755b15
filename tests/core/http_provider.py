"""A test provider that really sends HTTP (through the injected transport) and a provider tool."""

from __future__ import annotations

from typing import Any, Literal

import httpx
from pydantic import BaseModel, ConfigDict

from modelport import Provider, hookimpl
from modelport.http import HttpClients
from modelport.provider import Capabilities, Prepared, ProviderConfig
from modelport.provider_tools import ProviderToolSpec
from modelport.types import Result, TextPart


class SearchArgs(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    max_results: int | None = None
    region: Literal["eu", "us"] | None = None
    safe_mode: bool | None = None


SEARCH = ProviderToolSpec(
    id="httpecho.search",
    name="search",
    namespace="httpecho",
    args_type=SearchArgs,
    backend_args={"safe_mode": frozenset({"enterprise"})},
)


OTHER = ProviderToolSpec(
    id="othervendor.lookup", name="lookup", namespace="othervendor", args_type=SearchArgs
)


class HttpEchoProvider(Provider):
    id = "httpecho"
    capabilities = Capabilities(stream=False, function_tools=True, provider_tools=True)
    tool_namespace = "httpecho"
    backend = "public"

    def __init__(self, config: ProviderConfig) -> None:  # HTTP by hand: its own clients, not the kit's
        super().__init__(config)
        self.http = HttpClients(config)

    def send(self, model_name: str, prepared: Prepared) -> Result:
        response = self.http.sync().post("https://echo.invalid/generate", json={"model": model_name})
        return Result(content=[TextPart(text=response.text)], finish_reason="stop")


class Plugin:
    @hookimpl
    def modelport_register_providers(self, register: Any) -> None:
        register(HttpEchoProvider)

    @hookimpl
    def modelport_register_provider_tools(self, register: Any) -> None:
        register(SEARCH)
        register(OTHER)


class CountingTransport(httpx.MockTransport):
    """A mock transport that counts the requests it saw."""

    def __init__(self) -> None:
        self.requests: list[httpx.Request] = []
        super().__init__(self._handle)

    def _handle(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return httpx.Response(200, text="echo")
