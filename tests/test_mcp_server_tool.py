"""The neutral provider-run MCP server (``modelport.tools.mcp_server``) compiled per backend.

What is checked: the request body each backend sends (Anthropic's ``mcp_servers`` entry with the
``mcp-client-2025-04-04`` beta, as pydantic-ai's recorded deepwiki request has it; the Responses
``mcp`` tool, as pydantic-ai's recorded ``openai_responses_model_mcp_server_tool`` request has it);
every backend without one and every option a backend cannot express refused before any I/O; and
the header values (credentials) in no ``repr``, dump, error or prepared request.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from modelport_openai import tools as openai_tools

import modelport
from modelport import tools
from modelport.errors import InvalidRequestError, ProviderError

DEEPWIKI = "https://mcp.deepwiki.com/mcp"
#: An obviously fake credential, built at run time.
TOKEN = "-".join(["fake", "mcp", "token", "0123456789"])
MODELS = {
    "anthropic": "anthropic/claude-sonnet-4-5",
    "openai-responses": "openai-responses/gpt-5",
    "google": "google/gemini-2.5-flash",
    "openai": "openai/gpt-4o",
    "bedrock": "bedrock/anthropic.claude-3-haiku-20240307-v1:0",
    "anthropic-vertex": "anthropic-vertex/claude-sonnet-4-5",
}


def _no_io(request: httpx.Request) -> httpx.Response:
    raise AssertionError(f"a request was sent: {request.url}")


def model(provider: str, handler: Any = _no_io) -> modelport.Model:
    extra: dict[str, Any] = {}
    if provider == "bedrock":
        extra = {"region": "us-east-1"}
    if provider == "anthropic-vertex":
        extra = {"project": "p", "location": "us-east5", "token": "x" * 24}
        return modelport.get_model(MODELS[provider], transport=httpx.MockTransport(handler), **extra)
    return modelport.get_model(
        MODELS[provider], api_key="k" * 24, transport=httpx.MockTransport(handler), **extra
    )


def sent(provider: str, tool: Any, answer: dict[str, Any]) -> httpx.Request:
    requests: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        return httpx.Response(200, json=answer)

    model(provider, handler).generate(prompt="Hi", tools=[tool])
    (request,) = requests
    return request


ANTHROPIC_ANSWER = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-5",
    "content": [{"type": "text", "text": "ok"}],
    "stop_reason": "end_turn",
    "usage": {"input_tokens": 1, "output_tokens": 1},
}
RESPONSES_ANSWER = {
    "id": "resp_1",
    "object": "response",
    "status": "completed",
    "model": "gpt-5",
    "output": [
        {
            "type": "message",
            "id": "msg_1",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": "ok", "annotations": []}],
        }
    ],
    "usage": {"input_tokens": 1, "output_tokens": 1, "total_tokens": 2},
}


def test_anthropic_sends_an_mcp_servers_entry_with_the_connector_beta() -> None:
    tool = tools.mcp_server(url=DEEPWIKI, name="deepwiki", allowed_tools=["ask_question"])
    request = sent("anthropic", tool, ANTHROPIC_ANSWER)
    body = json.loads(request.content)
    # pydantic-ai's recorded request (test_anthropic_mcp_servers_stream.yaml), key for key.
    assert body["mcp_servers"] == [
        {
            "type": "url",
            "url": DEEPWIKI,
            "name": "deepwiki",
            "tool_configuration": {"enabled": True, "allowed_tools": ["ask_question"]},
        }
    ]
    assert "tools" not in body
    assert request.headers["anthropic-beta"] == "mcp-client-2025-04-04"


def test_the_connector_beta_joins_the_betas_given() -> None:
    requests: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        return httpx.Response(200, json=ANTHROPIC_ANSWER)

    m = modelport.get_model(
        MODELS["anthropic"],
        api_key="k" * 24,
        beta="files-api-2025-04-14",
        transport=httpx.MockTransport(handler),
    )
    m.generate(prompt="Hi", tools=[tools.mcp_server(url=DEEPWIKI, name="deepwiki")])
    assert requests[0].headers["anthropic-beta"] == "files-api-2025-04-14,mcp-client-2025-04-04"
    m.generate(prompt="Hi")
    assert requests[1].headers["anthropic-beta"] == "files-api-2025-04-14"


def test_anthropic_sends_a_bearer_header_as_the_authorization_token() -> None:
    tool = tools.mcp_server(url=DEEPWIKI, name="deepwiki", headers={"Authorization": f"Bearer {TOKEN}"})
    body = json.loads(sent("anthropic", tool, ANTHROPIC_ANSWER).content)
    assert body["mcp_servers"] == [
        {"type": "url", "url": DEEPWIKI, "name": "deepwiki", "authorization_token": TOKEN}
    ]


def test_responses_sends_the_mcp_tool() -> None:
    tool = tools.mcp_server(
        url=DEEPWIKI,
        name="deepwiki",
        allowed_tools=["ask_question"],
        headers={"X-Team": TOKEN},
        require_approval="never",
    )
    body = json.loads(sent("openai-responses", tool, RESPONSES_ANSWER).content)
    assert body["tools"] == [
        {
            "type": "mcp",
            "server_label": "deepwiki",
            "server_url": DEEPWIKI,
            "allowed_tools": ["ask_question"],
            "headers": {"X-Team": TOKEN},
            "require_approval": "never",
        }
    ]


@pytest.mark.parametrize("provider", ["google", "openai", "bedrock", "anthropic-vertex"])
def test_a_backend_without_provider_run_mcp_refuses_it_before_io(provider: str) -> None:
    tool = tools.mcp_server(url=DEEPWIKI, name="deepwiki")
    with pytest.raises(modelport.ModelportError) as caught:
        model(provider).generate(prompt="Hi", tools=[tool])
    assert isinstance(caught.value, InvalidRequestError)
    assert str(caught.value).startswith(f"provider {provider!r}")
    assert "has no mcp_server tool" in str(caught.value)


@pytest.mark.parametrize(
    ("kwargs", "problem"),
    [
        (
            {"require_approval": "always"},
            "mcp_server option 'require_approval' = 'always' not supported by provider 'anthropic'",
        ),
        (
            {"headers": {"X-Team": "abc"}},
            "mcp_server headers ['X-Team'] not supported by provider 'anthropic'",
        ),
        (
            {"headers": {"Authorization": "Basic abcdef"}},
            "mcp_server headers ['Authorization'] not supported by provider 'anthropic'",
        ),
    ],
)
def test_anthropic_refuses_what_the_connector_cannot_express(kwargs: dict[str, Any], problem: str) -> None:
    tool = tools.mcp_server(url=DEEPWIKI, name="deepwiki", **kwargs)
    with pytest.raises(InvalidRequestError) as caught:
        model("anthropic").generate(prompt="Hi", tools=[tool])
    assert str(caught.value).startswith(problem)


def test_anthropic_refuses_a_plain_http_url_before_io() -> None:
    tool = tools.mcp_server(url="http://127.0.0.1:8000/mcp", name="local")
    with pytest.raises(modelport.ProviderToolError, match="anthropic.mcp_server"):
        model("anthropic").generate(prompt="Hi", tools=[tool])


@pytest.mark.parametrize(
    ("kwargs", "problem"),
    [
        ({"url": "mcp.deepwiki.com"}, "url: String should match pattern"),
        ({"name": "1st"}, "name: String should match pattern"),
        ({"allowed_tools": "ask_question"}, "allowed_tools must be a list of tool names"),
        ({"allowed_tools": []}, "allowed_tools: List should have at least 1 item"),
        (
            {"headers": {"X-Team": "a\r\nInjected: 1"}},
            "header 'X-Team': the value is empty or holds a control",
        ),
        ({"headers": {"Bad Name": "v"}}, "header name 'Bad Name' is not an HTTP token"),
        ({"require_approval": "sometimes"}, "require_approval"),
    ],
)
def test_bad_options_are_refused_when_the_tool_is_made(kwargs: dict[str, Any], problem: str) -> None:
    given = {"url": DEEPWIKI, "name": "deepwiki", **kwargs}
    with pytest.raises(InvalidRequestError, match="mcp_server") as caught:
        tools.mcp_server(**given)
    assert problem in str(caught.value)
    assert "Injected" not in str(caught.value)


def test_header_values_are_in_no_repr_dump_or_prepared_request() -> None:
    tool = tools.mcp_server(url=DEEPWIKI, name="deepwiki", headers={"X-Team": TOKEN})
    assert "SecretStr('**********')" in repr(tool)
    for shown in (repr(tool), str(tool.model_dump()), json.dumps(tool.model_dump(mode="json"))):
        assert TOKEN not in shown
    for provider, header in (("openai-responses", {"X-Team": TOKEN}), ("anthropic", None)):
        given = (
            tool
            if header
            else tools.mcp_server(url=DEEPWIKI, name="d", headers={"Authorization": f"Bearer {TOKEN}"})
        )
        m = model(provider)
        request = m.prepare(prompt="Hi", tools=[given])
        prepared = m.provider.prepare(m.name, request)
        assert TOKEN not in repr(request)
        assert TOKEN not in repr(prepared)
        assert "[REDACTED]" in repr(prepared.wire)


@pytest.mark.parametrize("provider", ["anthropic", "openai-responses"])
def test_an_error_echoing_the_header_value_is_scrubbed(provider: str) -> None:
    """A server that quotes the request (its header value, JSON-escaped) in its error body: the
    error shows ``[REDACTED]`` there, by value (the token has no key shape)."""

    def handler(request: httpx.Request) -> httpx.Response:
        echoed = request.content.decode()
        body = {"type": "error", "error": {"type": "invalid_request_error", "message": f"bad: {echoed}"}}
        return httpx.Response(400, json=body if provider == "anthropic" else {"error": body["error"]})

    headers = {"Authorization": f"Bearer {TOKEN}"}
    tool = tools.mcp_server(url=DEEPWIKI, name="deepwiki", headers=headers)
    with pytest.raises(ProviderError) as caught:
        model(provider, handler).generate(prompt="Hi", tools=[tool])
    assert TOKEN not in str(caught.value)
    assert TOKEN not in repr(caught.value)
    assert "[REDACTED]" in str(caught.value)


def test_the_mapping_form_compiles_like_the_builder() -> None:
    given = {"type": "neutral", "name": "mcp_server", "options": {"url": DEEPWIKI, "name": "deepwiki"}}
    first = json.loads(sent("openai-responses", given, RESPONSES_ANSWER).content)["tools"]
    second = json.loads(
        sent("openai-responses", tools.mcp_server(url=DEEPWIKI, name="deepwiki"), RESPONSES_ANSWER).content
    )
    assert first == second["tools"] == [{"type": "mcp", "server_label": "deepwiki", "server_url": DEEPWIKI}]


def test_capabilities_list_the_mcp_server() -> None:
    flags = {provider: model(provider).provider.capabilities.mcp_server for provider in MODELS}
    assert flags == {
        "anthropic": True,
        "openai-responses": True,
        "google": False,
        "openai": False,
        "bedrock": False,
        "anthropic-vertex": False,
    }


def test_anthropic_refuses_a_description_or_leaves_it_out_best_effort() -> None:
    tool = tools.mcp_server(url=DEEPWIKI, name="deepwiki", description="DeepWiki MCP server")
    with pytest.raises(InvalidRequestError) as caught:
        model("anthropic").generate(prompt="Hi", tools=[tool])
    assert str(caught.value).startswith(
        "mcp_server option 'description' not supported by provider 'anthropic' (it supports: "
        "allowed_tools, headers, name, require_approval, url;"
    )
    lenient = tools.mcp_server(
        url=DEEPWIKI, name="deepwiki", description="DeepWiki MCP server", best_effort=True
    )
    requests: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        return httpx.Response(200, json=ANTHROPIC_ANSWER)

    result = model("anthropic", handler).generate(prompt="Hi", tools=[lenient])
    assert json.loads(requests[0].content)["mcp_servers"] == [
        {"type": "url", "url": DEEPWIKI, "name": "deepwiki"}
    ]
    (warning,) = [w for w in result.warnings if w.setting == "mcp_server.description"]
    assert (
        warning.details
        == "provider 'anthropic' cannot express mcp_server option 'description'; it is not sent"
    )


def test_responses_sends_the_description_as_server_description() -> None:
    tool = tools.mcp_server(url=DEEPWIKI, name="deepwiki", description="DeepWiki MCP server")
    body = json.loads(sent("openai-responses", tool, RESPONSES_ANSWER).content)
    assert body["tools"] == [
        {
            "type": "mcp",
            "server_label": "deepwiki",
            "server_url": DEEPWIKI,
            "server_description": "DeepWiki MCP server",
        }
    ]


def test_the_command_line_names_only_the_neutral_tools_without_required_options() -> None:
    assert tools.NEUTRAL_TOOL_NAMES == ("web_search", "web_fetch", "code_execution")


def test_an_approval_request_survives_a_history_given_as_data() -> None:
    from modelport.types import Message

    given = {
        "role": "assistant",
        "content": [
            {
                "type": "tool-call",
                "id": "mcpr_1",
                "name": "f",
                "provider_executed": True,
                "approval": "requested",
            }
        ],
    }
    (part,) = Message.model_validate(given).content
    assert isinstance(part, modelport.types.ToolCallPart)
    assert part.approval == "requested"
    assert part.model_dump(exclude_none=True)["approval"] == "requested"
    with pytest.raises(ValueError):
        Message.model_validate({**given, "content": [{**given["content"][0], "approval": "granted"}]})


@pytest.mark.parametrize("provider", ["anthropic", "openai-responses"])
def test_a_token_count_echoing_the_header_value_is_scrubbed(provider: str) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        error = {"type": "invalid_request_error", "message": f"bad: {request.content.decode()}"}
        return httpx.Response(
            400, json={"type": "error", "error": error} if provider == "anthropic" else {"error": error}
        )

    # no key shape either way: the raw token (Anthropic's authorization_token), a plain header value
    headers = {"Authorization": f"Bearer {TOKEN}"} if provider == "anthropic" else {"X-Team": TOKEN}
    tool = tools.mcp_server(url=DEEPWIKI, name="deepwiki", headers=headers)
    with pytest.raises(ProviderError) as caught:
        model(provider, handler).count_tokens(prompt="Hi", tools=[tool])
    assert TOKEN not in str(caught.value)
    assert "[REDACTED]" in str(caught.value)


def test_the_providers_own_mcp_tool_keeps_its_headers_secret() -> None:
    sent: list[dict[str, Any]] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(json.loads(request.content))
        return httpx.Response(400, json={"error": {"message": "bad " + json.dumps(sent[-1]["tools"])}})

    value = "-".join(["fake", "header", "value", "42"])
    tool = openai_tools.mcp(server_label="x", server_url="https://h/mcp", headers={"X-Team": value})
    assert value not in repr(tool)
    model = modelport.get_model(
        "openai-responses/gpt-5", api_key="k" * 24, transport=httpx.MockTransport(answer)
    )
    with pytest.raises(modelport.ProviderError) as caught:
        model.generate(prompt="Hi", tools=[tool])
    assert sent[0]["tools"] == [
        {"type": "mcp", "server_label": "x", "server_url": "https://h/mcp", "headers": {"X-Team": value}}
    ]
    assert value not in str(caught.value)
