"""The input schemas of the test server's MCP tools, as each first-party provider would send them:
the request bodies built (no I/O) carry them unchanged, and each provider's schema dialect
(:mod:`modelport.outputs.schemas`) takes them as they are, with nothing to adapt or warn about."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

import modelport
from modelport.outputs.schemas import anthropic_tool_schema, gemini_schema, openai_strict_schema

from .conftest import stdio_server

MODELS = {
    "openai": "openai/gpt-4o-mini",
    "openai-responses": "openai-responses/gpt-4o-mini",
    "anthropic": "anthropic/claude-sonnet-4-5",
    "google": "google/gemini-2.5-flash",
}


def _no_io(request: httpx.Request) -> httpx.Response:
    raise AssertionError(f"a request was sent: {request.url}")


@pytest.fixture(scope="module")
def tools() -> Any:
    with stdio_server() as server:
        yield server.tools()


def _declared(provider: str, body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each function tool's name and parameter schema, wherever the provider's body keeps them."""
    if provider == "openai":
        return {t["function"]["name"]: t["function"]["parameters"] for t in body["tools"]}
    if provider == "openai-responses":
        return {t["name"]: t["parameters"] for t in body["tools"]}
    if provider == "anthropic":
        return {t["name"]: t["input_schema"] for t in body["tools"]}
    declarations = [d for t in body["tools"] for d in t.get("functionDeclarations", [])]
    return {d["name"]: d["parametersJsonSchema"] for d in declarations}


@pytest.mark.parametrize("provider", sorted(MODELS))
def test_each_provider_sends_the_servers_schemas_unchanged(provider: str, tools: Any) -> None:
    model = modelport.get_model(MODELS[provider], api_key="k" * 24, transport=httpx.MockTransport(_no_io))
    prepared = model.provider.prepare(model.name, model.prepare(prompt="Hi", tools=tools))
    assert _declared(provider, prepared.wire.body) == {t.name: t.parameters for t in tools}


@pytest.mark.parametrize("dialect", [gemini_schema, anthropic_tool_schema])
def test_the_schemas_need_nothing_adapted_in_the_tool_dialects(dialect: Any, tools: Any) -> None:
    for tool in tools:
        compiled = dialect(tool.parameters, setting=f"tools.{tool.name}")
        assert compiled.warnings == [], tool.name


def test_the_schemas_compile_to_openai_strict_mode_without_warnings(tools: Any) -> None:
    for tool in tools:
        assert openai_strict_schema(tool.parameters, setting=f"tools.{tool.name}").warnings == []
