"""Google provider tools: specs, wire shapes, typed helpers, allow-list (T1–T4, S1, S2)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict

import modelport
from modelport.errors import ProviderToolError
from modelport.provider_tools import get_provider_tool, provider_tool_specs
from modelport.types import ProviderTool
from modelport_google.tools import (
    PROVIDER_TOOL_SPECS,
    CodeExecutionArgs,
    GoogleSearchArgs,
    code_execution,
    google_search,
    resolve_builtin_tools,
    tool_to_wire,
    tools_to_wire,
)

SEARCH = "google.google_search"
WINDOW = {"startTime": "2025-01-01T00:00:00Z", "endTime": "2025-02-01T00:00:00Z"}


def search(**args: Any) -> ProviderTool:
    return ProviderTool(id=SEARCH, name="google_search", args=args)


# --------------------------------------------------------------------------- specs (T1)


def test_specs_are_registered_through_the_plugin() -> None:
    specs = provider_tool_specs()
    assert specs[SEARCH] is PROVIDER_TOOL_SPECS[0]
    assert specs["google.code_execution"] is PROVIDER_TOOL_SPECS[1]
    assert [(s.id, s.name, s.namespace) for s in PROVIDER_TOOL_SPECS] == [
        ("google.google_search", "google_search", "google"),
        ("google.code_execution", "code_execution", "google"),
        ("google.url_context", "url_context", "google"),
        ("google.file_search", "file_search", "google"),
        ("google.google_maps", "google_maps", "google"),
        ("google.enterprise_web_search", "enterprise_web_search", "google"),
    ]
    assert get_provider_tool(SEARCH).backend_args == {
        "timeRangeFilter": frozenset({"gemini"}),
        "excludeDomains": frozenset({"vertex"}),
        "blockingConfidence": frozenset({"vertex"}),
    }


def test_argument_classes_use_camel_case_wire_names_and_snake_case_attributes() -> None:
    args = GoogleSearchArgs.model_validate(
        {"searchTypes": {"webSearch": {}}, "timeRangeFilter": WINDOW, "excludeDomains": ["a.com"]}
    )
    assert args.search_types is not None and args.search_types.web_search is not None
    assert args.time_range_filter is not None and args.time_range_filter.start_time == WINDOW["startTime"]
    assert args.exclude_domains == ["a.com"]
    with pytest.raises(ValueError):
        GoogleSearchArgs.model_validate({"search_types": {}})  # snake_case is not a wire name
    assert GoogleSearchArgs.model_config["extra"] == "forbid"
    assert CodeExecutionArgs.model_config["extra"] == "forbid"


# --------------------------------------------------------------------------- wire (S1, S2)


@pytest.mark.parametrize(
    ("tool", "backend", "wire"),
    [
        (search(), "gemini", {"googleSearch": {}}),
        (search(), "vertex", {"googleSearch": {}}),
        (search(searchTypes={}), "gemini", {"googleSearch": {"searchTypes": {}}}),
        (
            search(searchTypes={"webSearch": {}, "imageSearch": {}}),
            "gemini",
            {"googleSearch": {"searchTypes": {"webSearch": {}, "imageSearch": {}}}},
        ),
        (search(timeRangeFilter=WINDOW), "gemini", {"googleSearch": {"timeRangeFilter": WINDOW}}),
        (
            search(
                excludeDomains=["example.com", "sub.example.org."],
                blockingConfidence="BLOCK_ONLY_EXTREMELY_HIGH",
            ),
            "vertex",
            {
                "googleSearch": {
                    "excludeDomains": ["example.com", "sub.example.org."],
                    "blockingConfidence": "BLOCK_ONLY_EXTREMELY_HIGH",
                }
            },
        ),
        (code_execution(), "gemini", {"codeExecution": {}}),
        (code_execution(), "vertex", {"codeExecution": {}}),
    ],
)
def test_tool_to_wire(tool: ProviderTool, backend: str, wire: dict[str, Any]) -> None:
    assert tool_to_wire(tool, backend) == wire


def test_tools_to_wire_keeps_order() -> None:
    assert tools_to_wire([code_execution(), search()], "gemini") == [
        {"codeExecution": {}},
        {"googleSearch": {}},
    ]


def test_tool_to_wire_rejects_foreign_and_misnamed_tools() -> None:
    with pytest.raises(ProviderToolError, match="unknown Google provider tool"):
        tool_to_wire(ProviderTool(id="acme.search", name="search"), "gemini")
    with pytest.raises(ProviderToolError, match="must be named 'google_search'"):
        tool_to_wire(ProviderTool(id=SEARCH, name="search"), "gemini")
    with pytest.raises(ProviderToolError, match="not supported on the 'vertex' backend"):
        tool_to_wire(search(timeRangeFilter=WINDOW), "vertex")


# --------------------------------------------------------------------------- typed helpers


def test_google_search_helper_builds_the_same_tool() -> None:
    assert google_search() == search()
    assert google_search(search_types=["web", "image"]) == search(
        searchTypes={"webSearch": {}, "imageSearch": {}}
    )
    start = datetime(2025, 1, 1, tzinfo=timezone.utc)
    assert google_search(time_range=(start, start + timedelta(days=31))) == search(timeRangeFilter=WINDOW)
    assert google_search(time_range=("2025-01-01T00:00:00Z", "2025-02-01T00:00:00Z")) == search(
        timeRangeFilter=WINDOW
    )
    assert google_search(exclude_domains=("a.com",), blocking_confidence="BLOCK_LOW_AND_ABOVE") == search(
        excludeDomains=["a.com"], blockingConfidence="BLOCK_LOW_AND_ABOVE"
    )
    assert code_execution() == ProviderTool(id="google.code_execution", name="code_execution", args={})


@pytest.mark.parametrize(
    "kwargs",
    [
        {"search_types": ["news"]},
        {"search_types": "web"},
        {"time_range": (datetime(2025, 1, 1), datetime(2025, 2, 1))},  # naive datetimes
        {"time_range": ("2025-02-01T00:00:00Z", "2025-01-01T00:00:00Z")},
        {"time_range": ("2025-01-01T00:00:00Z",)},
        {"exclude_domains": "example.com"},
        {"exclude_domains": ["https://example.com/"]},
        {"exclude_domains": ["example.com\n"]},
        {"exclude_domains": ["bücher.de"]},  # internationalized names go in their xn-- form
        {"exclude_domains": ["-bad.example"]},
        {"exclude_domains": [""]},
        {"time_range": ("2025-01-01T00:00:00Z\n", "2025-02-01T00:00:00Z")},
        {"time_range": ("٢٠٢٥-01-01T00:00:00Z", "2026-02-01T00:00:00Z")},
        {"time_range": ("2025-01-01T00:00:61Z", "2026-02-01T00:00:00Z")},
        {"time_range": ("2025-01-01T00:00:00+24:00", "2026-02-01T00:00:00Z")},
        {"time_range": ("2025-01-01T00:00:00.1234567890Z", "2026-02-01T00:00:00Z")},
        {"blocking_confidence": "BLOCK_EVERYTHING"},
    ],
)
def test_google_search_helper_rejects_bad_arguments(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ProviderToolError):
        google_search(**kwargs)


# --------------------------------------------------------------------------- allow-list (T3)


def test_builtin_tool_names_resolve_through_the_allow_list() -> None:
    assert resolve_builtin_tools(["google_search", "code_execution"]) == [search(), code_execution()]
    assert resolve_builtin_tools([]) == []


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["google_search", "google_search"], "given twice"),
        (["web_search"], "unknown provider tool 'web_search'"),
        (["google.google_search"], "unknown provider tool"),
        (["__import__"], "unknown provider tool"),
        ([b"google_search"], "must be strings"),
        ([None], "must be strings"),
    ],
)
def test_untrusted_names_outside_the_allow_list_are_rejected(names: list[object], message: str) -> None:
    with pytest.raises(ProviderToolError, match=message):
        resolve_builtin_tools(names)


# --------------------------------------------------------------------------- T2 / S1: before any request


class _Counter:
    def __init__(self) -> None:
        self.requests: list[Any] = []

    def __call__(self, request: Any) -> Any:
        import httpx

        self.requests.append(request)
        return httpx.Response(
            500, json={"error": {"code": 500, "message": "unexpected", "status": "INTERNAL"}}
        )


def _model(provider: str, counter: _Counter) -> modelport.Model:
    import httpx

    options: dict[str, Any] = {}
    if provider == "google-vertex":
        options = {"token": "test-token", "project": "test-project", "location": "us-central1"}
    return modelport.get_model(
        f"{provider}/gemini-2.5-flash",
        api_key="test-key",
        transport=httpx.MockTransport(counter),
        max_retries=0,
        **options,
    )


class _AcmeArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")


@pytest.fixture
def acme_tool() -> Any:
    """A provider tool of another provider, registered for one test."""
    from modelport import provider_tools
    from modelport._registry import reset_registry

    spec = provider_tools.ProviderToolSpec(
        id="acme.web_search", name="web_search", namespace="acme", args_type=_AcmeArgs
    )
    provider_tools.register_provider_tool(spec)
    yield spec
    reset_registry()  # the table is the registry's: a fresh one forgets the spec


# (provider, invalid tools, valid control tools or None, error match)
T2_CASES = {
    "unknown id": ("google", [ProviderTool(id="google.maps", name="maps")], None, "unknown provider tool"),
    "id without a namespace": (
        "google",
        [ProviderTool(id="google_search", name="google_search")],
        [search()],
        "unknown provider tool 'google_search'",
    ),
    "duplicate id": (
        "google",
        [search(), ProviderTool(id=SEARCH, name="search_again")],
        [search()],
        "given twice",
    ),
    "name not matching id": (
        "google",
        [ProviderTool(id=SEARCH, name="web_search")],
        [search()],
        "must be named",
    ),
    "unknown argument": ("google", [search(safeSearch=True)], [search()], "safeSearch"),
    "ill-typed argument": (
        "google",
        [search(searchTypes=["webSearch"])],
        [search(searchTypes={})],
        "searchTypes",
    ),
    "ill-typed nested argument": (
        "google",
        [search(searchTypes={"webSearch": True})],
        [search(searchTypes={"webSearch": {}})],
        "webSearch",
    ),
    "code_execution takes no arguments": (
        "google",
        [ProviderTool(id="google.code_execution", name="code_execution", args={"language": "python"})],
        [code_execution()],
        "language",
    ),
    "timeRangeFilter on vertex": (
        "google-vertex",
        [search(timeRangeFilter=WINDOW)],
        [search()],
        "'timeRangeFilter' is not supported on the 'vertex' backend",
    ),
    "excludeDomains on gemini": (
        "google",
        [search(excludeDomains=["a.com"])],
        [search()],
        "'excludeDomains' is not supported on the 'gemini' backend",
    ),
    "blockingConfidence on gemini": (
        "google",
        [search(blockingConfidence="BLOCK_LOW_AND_ABOVE")],
        [search()],
        "'blockingConfidence' is not supported on the 'gemini' backend",
    ),
    "timeRangeFilter without endTime": (
        "google",
        [search(timeRangeFilter={"startTime": WINDOW["startTime"]})],
        [search(timeRangeFilter=WINDOW)],
        "endTime",
    ),
    "timeRangeFilter without startTime": (
        "google",
        [search(timeRangeFilter={"endTime": WINDOW["endTime"]})],
        [search(timeRangeFilter=WINDOW)],
        "startTime",
    ),
    "timeRangeFilter not RFC 3339 (date only)": (
        "google",
        [search(timeRangeFilter={"startTime": "2025-01-01", "endTime": WINDOW["endTime"]})],
        [search(timeRangeFilter=WINDOW)],
        "RFC 3339",
    ),
    "timeRangeFilter without a UTC offset": (
        "google",
        [search(timeRangeFilter={"startTime": "2025-01-01T00:00:00", "endTime": WINDOW["endTime"]})],
        [search(timeRangeFilter={"startTime": "2025-01-01T00:00:00+05:30", "endTime": WINDOW["endTime"]})],
        "RFC 3339",
    ),
    "timeRangeFilter impossible date": (
        "google",
        [search(timeRangeFilter={"startTime": "2025-02-30T00:00:00Z", "endTime": WINDOW["endTime"]})],
        [search(timeRangeFilter={"startTime": "2025-01-30T00:00:00Z", "endTime": WINDOW["endTime"]})],
        "not a valid date",
    ),
    "timeRangeFilter start == end": (
        "google",
        [search(timeRangeFilter={"startTime": WINDOW["startTime"], "endTime": WINDOW["startTime"]})],
        [search(timeRangeFilter=WINDOW)],
        "startTime must be before endTime",
    ),
    "timeRangeFilter start == end in other offsets": (
        "google",
        [
            search(
                timeRangeFilter={"startTime": "2025-01-01T01:00:00+01:00", "endTime": "2025-01-01T00:00:00Z"}
            )
        ],
        [
            search(
                timeRangeFilter={
                    "startTime": "2025-01-01T00:59:59.999999999+01:00",
                    "endTime": "2025-01-01T00:00:00Z",
                }
            )
        ],
        "startTime must be before endTime",
    ),
    "timeRangeFilter start after end": (
        "google",
        [search(timeRangeFilter={"startTime": WINDOW["endTime"], "endTime": WINDOW["startTime"]})],
        [search(timeRangeFilter=WINDOW)],
        "startTime must be before endTime",
    ),
    "timeRangeFilter ill-typed end": (
        "google",
        [search(timeRangeFilter={"startTime": WINDOW["startTime"], "endTime": 1735689600})],
        [search(timeRangeFilter=WINDOW)],
        "endTime",
    ),
    "excludeDomains over 2,000": (
        "google-vertex",
        [search(excludeDomains=[f"d{i}.example" for i in range(2001)])],
        [search(excludeDomains=[f"d{i}.example" for i in range(2000)])],
        "excludeDomains",
    ),
    "excludeDomains not a domain name": (
        "google-vertex",
        [search(excludeDomains=["https://example.com/path"])],
        [search(excludeDomains=["example.com"])],
        "not a domain name",
    ),
    "excludeDomains not a list": (
        "google-vertex",
        [search(excludeDomains="example.com")],
        [search(excludeDomains=["example.com"])],
        "excludeDomains",
    ),
    "blockingConfidence outside the enum": (
        "google-vertex",
        [search(blockingConfidence="BLOCK_NONE")],
        [search(blockingConfidence="BLOCK_HIGH_AND_ABOVE")],
        "blockingConfidence",
    ),
    "searchTypes unknown vertical": (
        "google",
        [search(searchTypes={"newsSearch": {}})],
        [search(searchTypes={"imageSearch": {}})],
        "newsSearch",
    ),
}


@pytest.mark.parametrize("case", sorted(T2_CASES))
@pytest.mark.parametrize("call", ["generate", "stream"])
def test_each_rule_is_a_typed_error_before_any_request(case: str, call: str) -> None:
    provider, tools, control, message = T2_CASES[case]
    counter = _Counter()
    model = _model(provider, counter)
    with pytest.raises(ProviderToolError, match=message):
        getattr(model, call)(prompt="What is the weather?", tools=tools)
    assert counter.requests == []
    if control is not None:  # the same request without the fault passes validation
        model.prepare(prompt="What is the weather?", tools=control)
    assert counter.requests == []


def test_tool_of_another_provider_is_rejected_before_any_request(acme_tool: Any) -> None:
    counter = _Counter()
    model = _model("google", counter)
    with pytest.raises(ProviderToolError, match="belongs to provider 'acme'"):
        model.generate(prompt="hi", tools=[ProviderTool(id="acme.web_search", name="web_search")])
    assert counter.requests == []


def test_duplicate_tool_of_the_same_name_is_rejected_before_any_request() -> None:
    counter = _Counter()
    model = _model("google", counter)
    with pytest.raises(modelport.InvalidRequestError, match="duplicate tool names: google_search"):
        model.generate(prompt="hi", tools=[search(), search()])
    assert counter.requests == []


@pytest.mark.parametrize("provider", ["google", "google-vertex"])
def test_provider_and_function_tools_combine(provider: str) -> None:
    model = _model(provider, _Counter())
    request = model.prepare(
        prompt="hi",
        tools=[
            {"type": "function", "name": "lookup", "parameters": {"type": "object", "properties": {}}},
            google_search(),
            code_execution(),
        ],
    )
    assert [t.type for t in request.tools or []] == ["function", "provider", "provider"]


def test_tools_exports() -> None:
    import modelport_google.tools as tools

    assert sorted(tools.__all__) == sorted(
        [
            "BlockingConfidence",
            "CodeExecutionArgs",
            "EnterpriseWebSearchArgs",
            "FileSearchArgs",
            "GoogleMapsArgs",
            "GoogleSearchArgs",
            "LatLng",
            "PROVIDER_TOOL_SPECS",
            "SearchTypes",
            "TimeRangeFilter",
            "UrlContextArgs",
            "code_execution",
            "enterprise_web_search",
            "file_search",
            "google_maps",
            "google_search",
            "resolve_builtin_tools",
            "retrieval_config",
            "tool_to_wire",
            "tools_to_wire",
            "url_context",
        ]
    )
    assert all(hasattr(tools, name) for name in tools.__all__)


_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(),
        st.sampled_from(
            ["2025-01-01T00:00:00Z", "2025-02-01T00:00:00+01:00", "a.com", "BLOCK_LOW_AND_ABOVE", ""]
        ),
        st.text(max_size=4),
    ),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["webSearch", "imageSearch", "startTime", "endTime", "x"]), inner, max_size=3
        )
    ),
    max_leaves=8,
)
_ARG_NAMES = [
    "searchTypes",
    "timeRangeFilter",
    "excludeDomains",
    "blockingConfidence",
    "search_types",
    "other",
]


@given(
    st.dictionaries(st.sampled_from(_ARG_NAMES), _values, max_size=4), st.sampled_from(["gemini", "vertex"])
)
def test_any_arguments_give_a_wire_entry_or_a_typed_error(args: dict[str, Any], backend: str) -> None:
    try:
        wire = tool_to_wire(search(**args), backend)
    except ProviderToolError:
        return
    allowed = (
        {"searchTypes", "timeRangeFilter"}
        if backend == "gemini"
        else {"searchTypes", "excludeDomains", "blockingConfidence"}
    )
    assert set(wire["googleSearch"]) <= allowed
    assert wire == {"googleSearch": _without_nulls(args)}  # null means unset and is not sent


def _without_nulls(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    return value
