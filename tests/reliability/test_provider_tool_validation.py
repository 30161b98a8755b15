"""Q2 for provider tools: generated invalid provider-tool arguments get a typed
:class:`~modelport.errors.ProviderToolError` on every entry point, on the Gemini API and on Vertex AI
(T2: an argument of the other backend is rejected, never dropped), before any I/O; their valid
neighbours are sent; untrusted tool names resolve only through the allow-list (T3).
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from modelport.errors import ModelportError, ProviderToolError

from .conftest import ENTRY_POINTS, Counting, google, rejected, vertex

TOOL = {"type": "function", "name": "lookup", "parameters": {"type": "object", "properties": {}}}


SEARCH = "google.google_search"
rfc3339 = st.datetimes(
    min_value=datetime.datetime(2000, 1, 1),
    max_value=datetime.datetime(2030, 1, 1),
    timezones=st.just(datetime.timezone.utc),
).map(lambda d: d.strftime("%Y-%m-%dT%H:%M:%SZ"))


def search(args: dict[str, Any]) -> dict[str, Any]:
    return {"prompt": "hi", "tools": [{"type": "provider", "id": SEARCH, "args": args}]}


@st.composite
def empty_or_backwards_range(draw: st.DrawFn) -> dict[str, Any]:
    a, b = draw(rfc3339), draw(rfc3339)
    start, end = max(a, b), min(a, b)  # start >= end
    return {"timeRangeFilter": {"startTime": start, "endTime": end}}


GEMINI_INVALID_TOOLS = st.one_of(
    st.dictionaries(
        st.text(min_size=1, max_size=8).filter(
            lambda k: k not in ("searchTypes", "timeRangeFilter", "excludeDomains", "blockingConfidence")
        ),
        st.integers(),
        min_size=1,
        max_size=2,
    ).map(search),
    empty_or_backwards_range().map(search),
    st.sampled_from(
        [
            "yesterday",
            "2025-13-01T00:00:00Z",
            "2025-01-01",
            "2025-01-01T25:00:00Z",
            "2025-02-30T00:00:00Z",
            "",
        ]
    ).map(lambda t: search({"timeRangeFilter": {"startTime": t, "endTime": "2031-01-01T00:00:00Z"}})),
    st.just(search({"timeRangeFilter": {"startTime": "2025-01-01T00:00:00Z"}})),
    # Vertex-only arguments on the Gemini API (T2): rejected, never dropped.
    st.lists(st.sampled_from(["example.com", "news.example.org"]), max_size=3).map(
        lambda d: search({"excludeDomains": d})
    ),
    st.sampled_from(["BLOCK_LOW_AND_ABOVE", "BLOCK_ONLY_EXTREMELY_HIGH"]).map(
        lambda c: search({"blockingConfidence": c})
    ),
    st.sampled_from(
        [{"webSearch": True}, {"videoSearch": {}}, {"webSearch": {"x": 1}}, "web", ["webSearch"]]
    ).map(lambda s: search({"searchTypes": s})),
    st.dictionaries(st.text(min_size=1, max_size=5), st.integers(), min_size=1, max_size=2).map(
        lambda a: {"prompt": "hi", "tools": [{"type": "provider", "id": "google.code_execution", "args": a}]}
    ),
    st.sampled_from(
        [
            "google.web_search",
            "google.maps",
            "openai.web_search",
            "google_search",
            "google.",
            ".google_search",
        ]
    ).map(lambda i: {"prompt": "hi", "tools": [{"type": "provider", "id": i}]}),
    st.sampled_from(["search", "googleSearch", "code_execution"]).map(
        lambda n: {"prompt": "hi", "tools": [{"type": "provider", "id": SEARCH, "name": n}]}
    ),
)


@given(kwargs=GEMINI_INVALID_TOOLS, entry=st.sampled_from(ENTRY_POINTS))
def test_generated_invalid_provider_tools_are_typed_and_send_nothing(
    kwargs: dict[str, Any], entry: str
) -> None:
    rejected(google, kwargs, entry, ProviderToolError)


VERTEX_INVALID_TOOLS = st.one_of(
    st.builds(
        lambda a, b: search({"timeRangeFilter": {"startTime": min(a, b), "endTime": max(a, b) + "x"}}),
        rfc3339,
        rfc3339,
    ),
    st.just(
        search({"timeRangeFilter": {"startTime": "2024-01-01T00:00:00Z", "endTime": "2025-01-01T00:00:00Z"}})
    ),
    st.sampled_from(["-bad.com", "exa mple.com", "a" * 64 + ".com", "", "under_score.com", "x..y"]).map(
        lambda d: search({"excludeDomains": [d]})
    ),
    st.integers(min_value=2001, max_value=2100).map(
        lambda n: search({"excludeDomains": [f"d{i}.example.com" for i in range(n)]})
    ),
    st.sampled_from(["BLOCK_NONE", "block_low_and_above", "HIGH", 3]).map(
        lambda c: search({"blockingConfidence": c})
    ),
    st.just(search({"excludeDomains": "example.com"})),
)


@given(kwargs=VERTEX_INVALID_TOOLS, entry=st.sampled_from(["generate", "stream"]))
def test_generated_invalid_vertex_tools_are_typed_and_send_nothing(
    kwargs: dict[str, Any], entry: str
) -> None:
    rejected(vertex, kwargs, entry, ProviderToolError)


def test_valid_tools_pass_the_same_validators() -> None:
    """The generators above are not vacuous: the valid neighbours of those inputs are sent."""
    for factory, tools in [
        (
            google,
            [
                {
                    "type": "provider",
                    "id": SEARCH,
                    "args": {
                        "timeRangeFilter": {
                            "startTime": "2024-01-01T00:00:00Z",
                            "endTime": "2025-01-01T00:00:00Z",
                        }
                    },
                }
            ],
        ),
        (google, [{"type": "provider", "id": "google.code_execution"}, TOOL]),
        (
            vertex,
            [
                {
                    "type": "provider",
                    "id": SEARCH,
                    "args": {"excludeDomains": ["example.com"], "blockingConfidence": "BLOCK_LOW_AND_ABOVE"},
                }
            ],
        ),
    ]:
        transport = Counting()
        with pytest.raises(ModelportError):  # the counting transport answers 500
            factory(transport).generate(prompt="hi", tools=tools)
        assert len(transport.requests) == 1


@given(names=st.lists(st.one_of(st.text(max_size=12), st.integers(), st.none()), min_size=1, max_size=4))
def test_untrusted_tool_names_resolve_only_through_the_allow_list(names: list[Any]) -> None:
    from modelport_google.tools import resolve_builtin_tools

    allowed = {"google_search", "code_execution"}
    valid = all(isinstance(n, str) and n in allowed for n in names) and len(set(names)) == len(names)
    if valid:
        assert [t.name for t in resolve_builtin_tools(names)] == names
    else:
        with pytest.raises(ProviderToolError):
            resolve_builtin_tools(names)
