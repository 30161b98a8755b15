"""Requests and provider tools are validated before any HTTP request (C2, C6, T1-T4)."""

from __future__ import annotations

from typing import Any

import pytest

import modelport
from modelport.errors import InvalidRequestError, ProviderToolError
from modelport.provider_tools import (
    ProviderToolSpec,
    get_provider_tool,
    register_provider_tool,
    resolve_tool_names,
    validate_provider_tools,
)
from modelport.types import ProviderTool

from .http_provider import SEARCH, CountingTransport, Plugin, SearchArgs

pytestmark = pytest.mark.usefixtures("fresh_registry")


@pytest.fixture
def transport() -> CountingTransport:
    modelport.register_plugin(Plugin(), name="httpecho")
    return CountingTransport()


def model(transport: CountingTransport) -> modelport.Model:
    return modelport.get_model("httpecho/m", transport=transport)


def test_a_valid_request_is_sent(transport: CountingTransport) -> None:
    result = model(transport).generate(prompt="hi", tools=[{"type": "provider", "id": "httpecho.search"}])
    assert result.text == "echo"
    assert len(transport.requests) == 1


T2_CASES: list[tuple[str, dict[str, Any], str]] = [
    ("unknown id", {"id": "httpecho.nope"}, "unknown provider tool 'httpecho.nope'"),
    (
        "another provider",
        {"id": "othervendor.lookup"},
        "provider tool 'othervendor.lookup' belongs to provider 'othervendor'; the selected provider accepts only "
        "httpecho.* tools",
    ),
    (
        "name mismatch",
        {"id": "httpecho.search", "name": "web_search"},
        "provider tool 'httpecho.search' must be named 'search', not 'web_search'",
    ),
    (
        "unknown argument",
        {"id": "httpecho.search", "args": {"color": "red"}},
        "provider tool 'httpecho.search': invalid arguments: color: Extra inputs are not permitted",
    ),
    (
        "ill-typed argument",
        {"id": "httpecho.search", "args": {"max_results": "many"}},
        "provider tool 'httpecho.search': invalid arguments: max_results: Input should be a valid integer, "
        "unable to parse string as an integer",
    ),
    (
        "backend",
        {"id": "httpecho.search", "args": {"safe_mode": True}},
        "provider tool 'httpecho.search': argument 'safe_mode' is not supported on the 'public' backend "
        "(only on enterprise)",
    ),
]


@pytest.mark.parametrize("tool, message", [c[1:] for c in T2_CASES], ids=[c[0] for c in T2_CASES])
def test_t2_errors_are_typed_and_nothing_is_sent(
    transport: CountingTransport, tool: dict[str, Any], message: str
) -> None:
    with pytest.raises(ProviderToolError) as info:
        model(transport).generate(prompt="hi", tools=[{"type": "provider", **tool}])
    assert str(info.value) == message
    assert transport.requests == []


def test_the_same_provider_tool_twice_is_rejected(transport: CountingTransport) -> None:
    tool = {"type": "provider", "id": "httpecho.search", "name": "search"}
    with pytest.raises(InvalidRequestError, match="duplicate tool names: search"):
        model(transport).generate(prompt="hi", tools=[tool, tool])
    assert transport.requests == []


def test_duplicate_spec_ids_are_rejected() -> None:
    modelport.register_plugin(Plugin(), name="httpecho")
    assert get_provider_tool("httpecho.search") is SEARCH  # collects the plugin's tools
    clash = ProviderToolSpec(
        id="httpecho.search", name="search", namespace="httpecho", args_type=SearchArgs, description="another"
    )
    with pytest.raises(ProviderToolError, match="duplicate provider tool id 'httpecho.search'"):
        register_provider_tool(clash)
    register_provider_tool(SEARCH)  # the same spec again is harmless


def test_the_tool_table_is_the_registrys() -> None:
    """One table: a fresh registry has no tools until its plugins are asked again."""
    from modelport._registry import registry, reset_registry

    register_provider_tool(SEARCH)
    assert registry().provider_tools("httpecho") == {"httpecho.search": SEARCH}
    reset_registry()
    with pytest.raises(ProviderToolError, match="unknown provider tool 'httpecho.search'"):
        get_provider_tool("httpecho.search")
    tool = ProviderTool(id="httpecho.search", name="search", args={"max_results": 3})
    assert SEARCH.check(tool, namespace="httpecho", backend="default") == SearchArgs(max_results=3)
    with pytest.raises(ProviderToolError, match="the selected provider accepts only google.\\* tools"):
        SEARCH.check(tool, namespace="google", backend="default")


def test_spec_id_must_match_namespace_and_name() -> None:
    with pytest.raises(ProviderToolError, match="must be 'httpecho.find'"):
        ProviderToolSpec(id="httpecho.search", name="find", namespace="httpecho", args_type=SearchArgs)


def test_spec_argument_class_must_forbid_unknown_fields() -> None:
    from pydantic import BaseModel

    class Loose(BaseModel):
        x: int = 0

    with pytest.raises(ProviderToolError, match="must forbid unknown fields"):
        ProviderToolSpec(id="httpecho.loose", name="loose", namespace="httpecho", args_type=Loose)


def test_function_and_provider_tools_combine(transport: CountingTransport) -> None:
    tools = [
        {"type": "provider", "id": "httpecho.search", "args": {"region": "eu"}},
        {"type": "function", "name": "lookup", "parameters": {"type": "object"}},
    ]
    request = model(transport).prepare(prompt="hi", tools=tools)
    assert [t.type for t in request.tools or []] == ["provider", "function"]


def test_names_from_untrusted_input_resolve_through_the_allow_list(transport: CountingTransport) -> None:
    assert resolve_tool_names(["search"], namespace="httpecho") == [
        ProviderTool(id="httpecho.search", name="search", args={})
    ]
    for bad, message in [
        ("os.system", "unknown provider tool 'os.system' for 'httpecho' (allowed: search)"),
        ("__import__", "unknown provider tool '__import__' for 'httpecho' (allowed: search)"),
    ]:
        with pytest.raises(ProviderToolError) as info:
            resolve_tool_names([bad], namespace="httpecho")
        assert str(info.value) == message
    with pytest.raises(ProviderToolError, match="given twice"):
        resolve_tool_names(["search", "search"], namespace="httpecho")
    with pytest.raises(ProviderToolError, match="must be strings"):
        resolve_tool_names([42], namespace="httpecho")


REQUEST_CASES: list[tuple[dict[str, Any], str]] = [
    ({}, "a request needs 'prompt' or 'messages'"),
    ({"prompt": "a", "messages": [{"role": "user", "content": "b"}]}, "give either 'prompt' or 'messages'"),
    ({"prompt": "a", "temperature": -1}, "temperature: Input should be greater than or equal to 0"),
    ({"prompt": "a", "top_p": 1.5}, "top_p: Input should be less than or equal to 1"),
    ({"prompt": "a", "max_output_tokens": 0}, "max_output_tokens: Input should be greater than 0"),
    (
        {"prompt": "a", "reasoning": {"budget_tokens": -1}},
        "reasoning.budget_tokens: Input should be greater than or equal to 0",
    ),
    ({"prompt": "a", "reasoning": {"effort": "extreme"}}, "reasoning.effort: Input should be 'low'"),
    (
        {"prompt": "a", "tool_choice": {"type": "tool", "name": "missing"}},
        "tool_choice names tools that are not in 'tools': missing",
    ),
    ({"prompt": "a", "tool_choice": "required"}, "tool_choice 'required' needs at least one tool"),
    ({"prompt": "a", "response_format": "json_schema"}, "needs a 'schema'"),
    ({"messages": [{"role": "robot", "content": "x"}]}, "messages.0.role: Input should be 'system'"),
    (
        {"messages": [{"role": "user", "content": [{"type": "file", "media_type": "image/png"}]}]},
        "a file part needs exactly one of 'data' or 'uri'",
    ),
    ({"prompt": "a", "unknown_option": 1}, "unknown_option: Extra inputs are not permitted"),
]


@pytest.mark.parametrize("kwargs, message", REQUEST_CASES)
def test_invalid_requests_raise_before_io(
    transport: CountingTransport, kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(InvalidRequestError) as info:
        model(transport).generate(**kwargs)
    assert message in str(info.value)
    assert str(info.value).startswith("invalid request: ")
    assert transport.requests == []


def test_message_content_accepts_strings_dicts_and_objects() -> None:
    from modelport.types import Request, TextPart, ToolCallPart

    request = Request.model_validate(
        {
            "system": "be brief",
            "messages": [
                {"role": "user", "content": "hi"},
                {
                    "role": "assistant",
                    "content": [
                        TextPart(text="calling"),
                        {"type": "tool-call", "id": "1", "name": "f", "args": {}},
                    ],
                },
                {
                    "role": "tool",
                    "content": [{"type": "tool-result", "call_id": "1", "name": "f", "output": 3}],
                },
            ],
        }
    )
    assert [m.role for m in request.messages] == ["system", "user", "assistant", "tool"]
    assert request.messages[0].text == "be brief"
    assert request.messages[2].content[1] == ToolCallPart(id="1", name="f", args={})


def test_args_of_maps_the_carried_parse_without_validating_again(transport: CountingTransport) -> None:
    tool = ProviderTool(id="httpecho.search", name="search", args={"max_results": 3})
    parsed = validate_provider_tools([tool], namespace="httpecho", backend="default")
    assert SEARCH.args_of(tool) is parsed["httpecho.search"] is tool.parsed_args


def test_args_of_validates_a_hand_built_tool_once_with_typed_errors() -> None:
    tool = ProviderTool(id="httpecho.search", name="search", args={"region": "eu", "safe_mode": True})
    assert tool.parsed_args is None
    assert SEARCH.args_of(tool) == SearchArgs(region="eu", safe_mode=True)
    with pytest.raises(ProviderToolError, match=r"argument 'safe_mode' is not supported on the 'default'"):
        SEARCH.args_of(tool, "default")
    bad = ProviderTool(id="httpecho.search", name="search", args={"region": "mars"})
    with pytest.raises(
        ProviderToolError, match=r"^provider tool 'httpecho.search': invalid arguments: region"
    ):
        SEARCH.args_of(bad)
