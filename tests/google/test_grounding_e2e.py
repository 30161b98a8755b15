"""Grounding through the real model: request tools, direct and streamed results (S1, S3, S4, S7, T4).

Responses are REAL recordings from the corpus (see test_grounding_corpus for their attribution),
served by an ``httpx.MockTransport``; nothing reaches the network.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import httpx
import pytest

import modelport
from modelport.errors import ProviderMetadataError
from modelport.events import FinishEvent
from modelport_google.grounding import grounding_metadata, inline_evidence, result_stats
from modelport_google.tools import code_execution, google_search

from .test_grounding_corpus import (
    FIREBASE,
    FIREBASE_SEARCH,
    GEMINI3_WIRE_CONTRACT,
    PYDANTIC_AI,
    WEB_SEARCH_STREAM_SF,
    _read,
)

FIREBASE_JSON = "mock-responses__googleai__unary-success-google-search-grounding.json"
STREAM_YAML = "tests__models__cassettes__test_google__test_google_model_web_search_tool_stream.yaml"
GEMINI3_YAML = (
    "tests__cassettes__test_thinking_native_tools__test_thinking_with_native_tool_wire_contract[google].yaml"
)


class Server:
    """Answers every request with one recorded body and keeps the parsed request bodies."""

    def __init__(self, body: str | bytes, content_type: str = "application/json") -> None:
        self.body = body.encode() if isinstance(body, str) else body
        self.content_type = content_type
        self.requests: list[dict[str, Any]] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(json.loads(request.content))
        return httpx.Response(200, content=self.body, headers={"content-type": self.content_type})


def model(server: Server, provider: str = "google") -> modelport.Model:
    options: dict[str, Any] = {}
    if provider == "google-vertex":
        options = {"token": "test-token", "project": "test-project", "location": "us-central1"}
    return modelport.get_model(
        f"{provider}/gemini-2.5-flash",
        api_key="test-key",
        transport=httpx.MockTransport(server),
        max_retries=0,
        **options,
    )


def yaml_response(name: str, interaction: int) -> Any:
    import yaml

    return yaml.safe_load(_read(PYDANTIC_AI, name))["interactions"][interaction]["response"]


FUNCTION = {"type": "function", "name": "lookup", "parameters": {"type": "object", "properties": {}}}


def test_provider_tools_come_first_then_function_declarations() -> None:
    server = Server(_read(FIREBASE, FIREBASE_JSON))
    model(server).generate(
        prompt="weather?", tools=[FUNCTION, google_search(search_types=["web"]), code_execution()]
    )
    assert server.requests[0]["tools"] == [
        {"googleSearch": {"searchTypes": {"webSearch": {}}}},
        {"codeExecution": {}},
        {
            "functionDeclarations": [
                {"name": "lookup", "parametersJsonSchema": {"type": "object", "properties": {}}}
            ]
        },
    ]


def test_backend_specific_arguments_reach_the_wire() -> None:
    server = Server(_read(FIREBASE, FIREBASE_JSON))
    model(server, "google-vertex").generate(
        prompt="weather?",
        tools=[google_search(exclude_domains=["example.com"], blocking_confidence="BLOCK_LOW_AND_ABOVE")],
    )
    model(server).generate(
        prompt="weather?", tools=[google_search(time_range=("2025-01-01T00:00:00Z", "2025-02-01T00:00:00Z"))]
    )
    assert [r["tools"] for r in server.requests] == [
        [{"googleSearch": {"excludeDomains": ["example.com"], "blockingConfidence": "BLOCK_LOW_AND_ABOVE"}}],
        [
            {
                "googleSearch": {
                    "timeRangeFilter": {
                        "startTime": "2025-01-01T00:00:00Z",
                        "endTime": "2025-02-01T00:00:00Z",
                    }
                }
            }
        ],
    ]


def test_direct_result_exposes_metadata_sources_and_citations() -> None:
    raw = json.loads(_read(FIREBASE, FIREBASE_JSON))
    result = model(Server(json.dumps(raw))).generate(prompt="weather?", tools=[google_search()])
    expected = raw["candidates"][0]["groundingMetadata"]
    assert grounding_metadata(result) == expected
    assert result.provider_metadata["google"]["groundingMetadata"] == expected
    assert modelport.cite(result).text == FIREBASE_SEARCH
    assert [s.title for s in result.sources] == [
        "accuweather.com",
        "Weather information for locality: London",
    ]
    assert inline_evidence(result).startswith(
        FIREBASE_SEARCH + "\n\nSources:\n[1] accuweather.com - https://"
    )
    stats = result_stats(result)
    assert (stats.grounded, stats.queries, stats.sources, stats.covered_bytes, stats.answer_bytes) == (
        True,
        1,
        2,
        183,
        186,
    )
    # C5: what the SDK exposes round-trips through JSON
    assert modelport.Result.model_validate_json(result.model_dump_json()) == result


def test_citations_are_derived_on_first_use_and_equal_the_eager_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    """P2: a caller that reads only the text never pays for citations; the values are unchanged."""
    from modelport_google import grounding

    raw = json.loads(_read(FIREBASE, FIREBASE_JSON))
    runs: list[int] = []
    derive = grounding.citations_from_grounding

    def counted(*args: Any, **kwargs: Any) -> Any:
        runs.append(1)
        return derive(*args, **kwargs)

    monkeypatch.setattr(grounding, "citations_from_grounding", counted)
    result = model(Server(json.dumps(raw))).generate(prompt="weather?", tools=[google_search()])
    assert result.text == "".join(p["text"] for p in raw["candidates"][0]["content"]["parts"])
    assert runs == []
    sources, citations, warnings = derive(
        raw["candidates"][0]["groundingMetadata"],
        [p["text"] for p in raw["candidates"][0]["content"]["parts"]],
        provider="google",
    )
    assert (result.sources, result.citations, result.warnings) == (sources, citations, warnings)
    assert modelport.cite(result).text == FIREBASE_SEARCH
    assert runs == [1]


def test_gemini3_answer_after_thoughts_and_tool_parts() -> None:
    body = yaml_response(GEMINI3_YAML, 0)["parsed_body"]
    result = model(Server(json.dumps(body))).generate(prompt="news?", tools=[google_search()])
    assert modelport.cite(result).text == GEMINI3_WIRE_CONTRACT
    assert [w.setting for w in result.warnings if w.setting and w.setting.startswith("grounding")] == [
        "groundingSupports[7]",
        "groundingSupports[8]",
    ]


def test_no_grounding_keeps_the_plain_result_shape() -> None:
    raw = json.loads(_read(FIREBASE, FIREBASE_JSON))
    plain = copy.deepcopy(raw)
    del plain["candidates"][0]["groundingMetadata"]
    placeholder = copy.deepcopy(plain)
    placeholder["candidates"][0]["groundingMetadata"] = {}
    with_tool = model(Server(json.dumps(plain))).generate(prompt="weather?", tools=[google_search()])
    without_tool = model(Server(json.dumps(plain))).generate(prompt="weather?")
    empty = model(Server(json.dumps(placeholder))).generate(prompt="weather?", tools=[google_search()])
    assert with_tool == without_tool == empty
    assert grounding_metadata(with_tool) is None and with_tool.sources == [] and with_tool.citations == []
    assert "groundingMetadata" not in with_tool.provider_metadata.get("google", {})


def test_streamed_result_gets_the_metadata_once_on_the_final_event() -> None:
    response = yaml_response(STREAM_YAML, 0)
    server = Server(response["body"]["string"], "text/event-stream")
    stream = model(server).stream(prompt="weather?", tools=[google_search()])
    events = list(stream)
    grounded = [e for e in events if "groundingMetadata" in json.dumps(e.model_dump(mode="json"))]
    assert grounded == [events[-1]] and isinstance(events[-1], FinishEvent)
    result = stream.result()
    assert modelport.cite(result).text == WEB_SEARCH_STREAM_SF
    assert grounding_metadata(result) == result.provider_metadata["google"]["groundingMetadata"]
    assert len(result.sources) == 5


@pytest.mark.parametrize("stream", [False, True])
def test_oversized_metadata_is_a_provider_metadata_error(stream: bool) -> None:
    raw = json.loads(_read(FIREBASE, FIREBASE_JSON))
    raw["candidates"][0]["groundingMetadata"]["futureField"] = "x" * 262_144
    body = json.dumps(raw)
    if stream:
        server = Server(f"data: {body}\r\n\r\n", "text/event-stream")
        with pytest.raises(ProviderMetadataError):
            model(server).stream(prompt="weather?", tools=[google_search()]).result()
    else:
        with pytest.raises(ProviderMetadataError):
            model(Server(body)).generate(prompt="weather?", tools=[google_search()])


def test_tool_call_step_carries_its_own_grounding() -> None:
    raw = json.loads(_read(FIREBASE, FIREBASE_JSON))
    raw["candidates"][0]["content"]["parts"].append(
        {"functionCall": {"name": "lookup", "args": {"city": "London"}}}
    )
    result = model(Server(json.dumps(raw))).generate(prompt="weather?", tools=[google_search(), FUNCTION])
    assert result.finish_reason == "tool-calls"
    assert [c.name for c in result.tool_calls] == ["lookup"]
    assert grounding_metadata(result) == raw["candidates"][0]["groundingMetadata"]
    assert modelport.cite(result).text == FIREBASE_SEARCH


def test_part_index_names_the_raw_part_after_thoughts_and_code() -> None:
    # Shape as in the gemini-3 corpus responses: a thought part and provider-executed code come before
    # the text parts, so partIndex counts raw parts, not text parts.
    response = {
        "candidates": [
            {
                "content": {
                    "role": "model",
                    "parts": [
                        {"text": "Planning the search", "thought": True},
                        {"text": "Héllo. "},
                        {"executableCode": {"language": "PYTHON", "code": "print(1)"}},
                        {"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "1\n"}},
                        {"text": "Wörld!"},
                    ],
                },
                "finishReason": "STOP",
                "groundingMetadata": {
                    "groundingChunks": [{"web": {"uri": "https://example.org/w", "title": "example.org"}}],
                    "groundingSupports": [
                        {
                            "segment": {"partIndex": 4, "endIndex": 7, "text": "Wörld!"},
                            "groundingChunkIndices": [0],
                        }
                    ],
                },
            }
        ]
    }
    result = model(Server(json.dumps(response))).generate(prompt="hi", tools=[google_search()])
    assert result.text == "Héllo. Wörld!"
    assert [(c.start, c.end, c.sources) for c in result.citations] == [(7, 13, [1])]
    assert result.warnings == []
    assert modelport.cite(result).text == "Héllo. Wörld![1]"
