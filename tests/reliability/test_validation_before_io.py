"""Q2: validators are total and run before I/O.

Generated invalid requests, provider options and replay histories each get a typed
:class:`~modelport.errors.InvalidRequestError` on every entry point, and a counting mock transport
records zero requests (provider-tool arguments: test_provider_tool_validation.py).
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from modelport.errors import InvalidRequestError

from .conftest import ENTRY_POINTS, Counting, google, rejected, vertex

SAFE_MAX = 9_007_199_254_740_991
USER = {"role": "user", "content": "hi"}
CALL = {"role": "assistant", "content": [{"type": "tool-call", "id": "c1", "name": "lookup", "args": {}}]}
TOOL = {"type": "function", "name": "lookup", "parameters": {"type": "object", "properties": {}}}


# --------------------------------------------------------------------------- strategies

not_a_number = st.one_of(
    # Letters only: pydantic (lax for floats) reads numeric strings such as "0.5" as numbers.
    st.text(alphabet="abcxyz?!", max_size=5),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
negative = st.floats(max_value=-1e-9, allow_nan=False, allow_infinity=False)
non_positive_int = st.integers(max_value=0)
too_big = st.integers(min_value=SAFE_MAX + 1, max_value=2**80)
bools = st.booleans()


def field(name: str, values: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    return values.map(lambda v: {"prompt": "hi", name: v})


def reasoning(values: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    return values.map(lambda v: {"prompt": "hi", "reasoning": v})


bad_tool_names = st.text(min_size=1, max_size=12).filter(
    lambda s: (
        not (
            s[0].isascii()
            and (s[0].isalpha() or s[0] == "_")
            and all(c.isascii() and (c.isalnum() or c in "_.-") for c in s)
        )
    )
)

INVALID_REQUESTS = st.one_of(
    field("temperature", st.one_of(negative, not_a_number, st.just(float("nan")))),
    field(
        "top_p",
        st.one_of(
            negative, st.floats(min_value=1.000001, allow_nan=False, allow_infinity=False), not_a_number
        ),
    ),
    field("top_k", st.one_of(non_positive_int, bools, st.floats(allow_nan=False), not_a_number)),
    field(
        "max_output_tokens",
        st.one_of(non_positive_int, too_big, bools, st.floats(allow_nan=False), not_a_number),
    ),
    field("seed", st.one_of(bools, st.floats(allow_nan=False), st.text(max_size=4))),
    field(
        "stop_sequences",
        st.one_of(st.text(max_size=5), st.integers(), st.lists(st.integers(), min_size=1, max_size=3)),
    ),
    field("user_id", st.one_of(st.integers(), st.lists(st.text(), max_size=2))),
    field("request_labels", st.dictionaries(st.text(max_size=4), st.integers(), min_size=1, max_size=3)),
    field(
        "response_format",
        st.sampled_from(
            [
                "xml",
                "yaml",
                {"type": "json_schema"},
                {"type": "json", "schema": {}},
                {"type": "text", "strict": "yes"},
            ]
        ),
    ),
    field(
        "tool_choice",
        st.one_of(
            st.sampled_from(["any", "required", "sometimes", {"type": "tool", "name": "nope"}]),
            st.text(min_size=1, max_size=6).map(lambda n: {"type": "tools", "names": [n]}),
        ),
    ),
    field("tools", bad_tool_names.map(lambda n: [{"type": "function", "name": n}])),
    field("tools", st.just([TOOL, TOOL])),
    field(
        "tools",
        st.sampled_from(
            [
                [{"type": "mystery"}],
                [{"name": "f"}],
                "google_search",
                [{"type": "function", "name": "f", "parameters": "x"}],
            ]
        ),
    ),
    reasoning(
        st.one_of(st.integers(max_value=-1), too_big, bools, st.text(max_size=3)).map(
            lambda b: {"budget_tokens": b}
        )
    ),
    reasoning(
        st.text(max_size=6)
        .filter(lambda e: e not in ("low", "medium", "high", "max"))
        .map(lambda e: {"effort": e})
    ),
    reasoning(
        st.sampled_from(
            [{"enabled": False, "effort": "low"}, {"enabled": False, "budget_tokens": 10}, {"turbo": True}]
        )
    ),
    st.one_of(st.integers(), st.lists(st.text(), max_size=2), st.none()).map(
        lambda p: {"prompt": p} if p is not None else {}
    ),
    st.just({"prompt": "hi", "messages": [USER]}),
    st.just({"messages": []}),
    st.sampled_from(["robot", "model", "function", ""]).map(
        lambda r: {"messages": [{"role": r, "content": "hi"}]}
    ),
    st.sampled_from(
        [
            [{"type": "file", "media_type": "image/png"}],
            [{"type": "file", "media_type": "image/png", "data": "aGk=", "uri": "gs://b/x.png"}],
            [{"type": "file", "media_type": "image/png", "data": "not base64!"}],
            [{"type": "image", "url": "x"}],
            [{"type": "text"}],
            [{"type": "tool-call", "id": "c", "name": "f"}],
        ]
    ).map(lambda content: {"messages": [{"role": "user", "content": content}]}),
    # Adapter rules (G3): parts in the wrong kind of message.
    st.just(
        {
            "messages": [
                USER,
                {"role": "assistant", "content": [{"type": "tool-result", "call_id": "c", "name": "f"}]},
            ]
        }
    ),
    st.just(
        {
            "messages": [
                {
                    "role": "system",
                    "content": [{"type": "file", "media_type": "image/png", "uri": "gs://b/x"}],
                },
                USER,
            ]
        }
    ),
    # provider_options["google"] is strict (C2).
    st.dictionaries(
        st.sampled_from(["bogus", "temperature", "cached_contents", "tools"]),
        st.integers(),
        min_size=1,
        max_size=2,
    ).map(lambda o: {"prompt": "hi", "provider_options": {"google": o}}),
    st.sampled_from(
        [
            {"cachedContent": 5},
            {"safetySettings": "BLOCK_NONE"},
            {"generationConfig": []},
            {"labels": {"a": 1}},
            {"systemInstruction": "be brief"},
        ]
    ).map(lambda o: {"prompt": "hi", "provider_options": {"google": o}}),
)


@given(kwargs=INVALID_REQUESTS, entry=st.sampled_from(ENTRY_POINTS))
def test_generated_invalid_requests_are_typed_and_send_nothing(kwargs: dict[str, Any], entry: str) -> None:
    error = rejected(google, kwargs, entry, InvalidRequestError)
    assert str(error)  # a message, never empty


# --------------------------------------------------------------------------- replay histories


def assistant_with(parts: Any, content: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {
        "messages": [
            USER,
            {
                "role": "assistant",
                "content": content or [{"type": "text", "text": "ok"}],
                "provider_metadata": {"google": {"parts": parts}},
            },
            USER,
        ]
    }


REPLAY_INVALID = st.one_of(
    st.one_of(
        st.text(max_size=5), st.integers(), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2)
    ).map(assistant_with),
    st.lists(st.one_of(st.integers(), st.text(max_size=3), st.none()), min_size=1, max_size=3).map(
        assistant_with
    ),
    st.sampled_from([{"functionCall": 5}, {"functionCall": "f"}, {"functionCall": ["x"]}]).map(
        lambda p: assistant_with([p])
    ),
    # Canonical calls that do not match the raw parts, in name, id or order.
    st.sampled_from(
        [
            ([{"text": "no calls"}], [{"type": "tool-call", "id": "call-0", "name": "f"}]),
            (
                [{"functionCall": {"name": "f", "args": {}}}],
                [{"type": "tool-call", "id": "call-0", "name": "g"}],
            ),
            (
                [{"functionCall": {"name": "f", "args": {}}}],
                [{"type": "tool-call", "id": "call-9", "name": "f"}],
            ),
            (
                [{"functionCall": {"name": "f"}}, {"functionCall": {"name": "g"}}],
                [
                    {"type": "tool-call", "id": "call-1", "name": "g"},
                    {"type": "tool-call", "id": "call-0", "name": "f"},
                ],
            ),
            ([{"functionCall": {"name": "f"}}], [{"type": "text", "text": "dropped the call"}]),
        ]
    ).map(lambda pc: assistant_with(pc[0], pc[1])),
)


@given(kwargs=REPLAY_INVALID, entry=st.sampled_from(ENTRY_POINTS))
def test_generated_invalid_replay_histories_are_typed_and_send_nothing(
    kwargs: dict[str, Any], entry: str
) -> None:
    rejected(google, kwargs, entry, InvalidRequestError)


# --------------------------------------------------------------------------- embeddings and config


@given(
    case=st.one_of(
        st.just(([], {})),
        st.lists(st.one_of(st.integers(), st.none(), st.binary(max_size=3)), min_size=1, max_size=3).map(
            lambda v: (["ok", *v], {})
        ),
        st.integers(max_value=0).map(lambda d: ("x", {"output_dimensionality": d})),
        st.sampled_from([1.5, "768", [768]]).map(lambda d: ("x", {"output_dimensionality": d})),
    )
)
def test_invalid_embedding_requests_are_typed_and_send_nothing(case: tuple[Any, dict[str, Any]]) -> None:
    values, kwargs = case
    transport = Counting()
    with pytest.raises(InvalidRequestError):
        google(transport).embed(values, **kwargs)
    assert transport.requests == []


def test_a_boolean_output_dimensionality_is_rejected() -> None:
    transport = Counting()
    with pytest.raises(InvalidRequestError):
        google(transport).embed("x", output_dimensionality=True)
    assert transport.requests == []


# --------------------------------------------------------------------------- values that are not JSON

NOT_JSON: list[tuple[str, dict[str, Any]]] = [
    ("temperature inf", {"prompt": "hi", "temperature": float("inf")}),
    (
        "option nan",
        {"prompt": "hi", "provider_options": {"google": {"generationConfig": {"temperature": float("nan")}}}},
    ),
    (
        "schema inf",
        {"prompt": "hi", "response_format": {"type": "json_schema", "schema": {"maximum": float("inf")}}},
    ),
    (
        "tool parameters nan",
        {"prompt": "hi", "tools": [{**TOOL, "parameters": {"type": "object", "default": float("nan")}}]},
    ),
    (
        "tool output object",
        {
            "messages": [
                USER,
                CALL,
                {
                    "role": "tool",
                    "content": [
                        {"type": "tool-result", "call_id": "c1", "name": "lookup", "output": object()}
                    ],
                },
            ]
        },
    ),
    (
        "tool output datetime",
        {
            "messages": [
                USER,
                CALL,
                {
                    "role": "tool",
                    "content": [
                        {
                            "type": "tool-result",
                            "call_id": "c1",
                            "name": "lookup",
                            "output": datetime.date(2025, 1, 1),
                        }
                    ],
                },
            ]
        },
    ),
    (
        "tool output bytes",
        {
            "messages": [
                USER,
                CALL,
                {
                    "role": "tool",
                    "content": [
                        {"type": "tool-result", "call_id": "c1", "name": "lookup", "output": b"\xff"}
                    ],
                },
            ]
        },
    ),
    (
        "call args set",
        {
            "messages": [
                USER,
                {
                    "role": "assistant",
                    "content": [{"type": "tool-call", "id": "c1", "name": "lookup", "args": {"a": {1, 2}}}],
                },
            ]
        },
    ),
    (
        "safety settings object",
        {"prompt": "hi", "provider_options": {"google": {"safetySettings": [{"category": object()}]}}},
    ),
    ("lone surrogate", {"prompt": "caf\ud800"}),
]


# Fixed: modelport_google encodes the body itself (allow_nan=False, strict UTF-8) in check_request.
@pytest.mark.parametrize("entry", ENTRY_POINTS)
@pytest.mark.parametrize("kwargs", [c[1] for c in NOT_JSON], ids=[c[0] for c in NOT_JSON])
def test_request_values_that_are_not_json_are_typed_and_send_nothing(
    kwargs: dict[str, Any], entry: str
) -> None:
    rejected(google, kwargs, entry, InvalidRequestError)


# --------------------------------------------------------------------------- any request at all

_scalar = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 2**64), st.floats(), st.text(max_size=6), st.binary(max_size=4)
)
_anything = st.recursive(
    _scalar,
    lambda c: st.one_of(st.lists(c, max_size=3), st.dictionaries(st.text(max_size=6), c, max_size=3)),
    max_leaves=8,
)
_RAW_KEYS = ["text", "thought", "thoughtSignature", "functionCall", "executableCode", "codeExecutionResult"]
_parts = st.one_of(
    st.fixed_dictionaries({"type": st.just("text"), "text": st.one_of(st.text(max_size=5), _anything)}),
    st.fixed_dictionaries(
        {"type": st.just("file"), "media_type": st.one_of(st.text(max_size=8), _anything)},
        optional={"data": st.one_of(st.binary(max_size=4), _anything), "uri": _anything},
    ),
    st.fixed_dictionaries(
        {"type": st.just("reasoning"), "text": st.text(max_size=4)},
        optional={"signature": _anything, "provider_metadata": _anything},
    ),
    st.fixed_dictionaries(
        {"type": st.just("tool-call"), "id": st.text(max_size=4), "name": st.text(max_size=4)},
        optional={"args": _anything, "provider_executed": st.booleans(), "provider_metadata": _anything},
    ),
    st.fixed_dictionaries(
        {"type": st.just("tool-result"), "call_id": st.text(max_size=4), "name": st.text(max_size=4)},
        optional={"output": _anything, "is_error": st.booleans(), "provider_executed": st.booleans()},
    ),
)
_replay = st.one_of(
    _anything,
    st.fixed_dictionaries(
        {
            "google": st.one_of(
                _anything,
                st.fixed_dictionaries(
                    {
                        "parts": st.one_of(
                            _anything,
                            st.lists(
                                st.dictionaries(st.sampled_from(_RAW_KEYS), _anything, max_size=3), max_size=4
                            ),
                        )
                    }
                ),
            )
        }
    ),
)
_messages = st.lists(
    st.fixed_dictionaries(
        {
            "role": st.sampled_from(["system", "user", "assistant", "tool"]),
            "content": st.one_of(st.text(max_size=5), st.lists(_parts, max_size=3)),
        },
        optional={"provider_metadata": _replay},
    ),
    min_size=1,
    max_size=4,
)
_tools = st.lists(
    st.one_of(
        st.fixed_dictionaries(
            {"type": st.just("function"), "name": st.sampled_from(["f", "g", "lookup"])},
            optional={"parameters": _anything, "description": _anything},
        ),
        st.fixed_dictionaries(
            {
                "type": st.just("provider"),
                "id": st.sampled_from(["google.google_search", "google.code_execution"]),
            },
            optional={"args": _anything},
        ),
    ),
    max_size=3,
)
ANY_REQUEST = st.fixed_dictionaries(
    {"messages": _messages},
    optional=dict.fromkeys(
        (
            "temperature",
            "top_p",
            "top_k",
            "max_output_tokens",
            "stop_sequences",
            "seed",
            "presence_penalty",
            "tool_choice",
            "user_id",
            "request_labels",
        ),
        _anything,
    )
    | {
        "tools": st.one_of(_anything, _tools),
        "reasoning": st.one_of(
            _anything,
            st.fixed_dictionaries(
                {},
                optional={
                    "enabled": _anything,
                    "effort": st.sampled_from(["low", "max"]),
                    "budget_tokens": _anything,
                },
            ),
        ),
        "response_format": st.one_of(
            _anything,
            st.fixed_dictionaries(
                {"type": st.sampled_from(["text", "json", "json_schema"])}, optional={"schema": _anything}
            ),
        ),
        "provider_options": st.one_of(_anything, st.fixed_dictionaries({"google": _anything})),
    },
)
_OK = {"candidates": [{"content": {"parts": [{"text": "ok"}]}, "finishReason": "STOP"}]}


@given(kwargs=ANY_REQUEST, backend=st.sampled_from(["google", "vertex"]))
def test_any_request_is_either_sent_as_json_or_rejected_typed_before_io(
    kwargs: dict[str, Any], backend: str
) -> None:
    """Q2 totality: whatever the keywords, a typed rejection with nothing sent, or a JSON body sent."""
    import json

    import httpx

    transport = Counting(lambda r: httpx.Response(200, json=_OK))
    model = google(transport) if backend == "google" else vertex(transport)
    try:
        model.generate(**kwargs)
    except InvalidRequestError:
        assert transport.requests == []
        return
    assert len(transport.requests) == 1
    body = json.loads(transport.requests[0].content)
    assert body["contents"] is not None
