"""More Google provider tools (issue 13): ``google.url_context``, ``google.file_search``,
``google.google_maps`` (location in ``toolConfig``) and Vertex's ``google.enterprise_web_search``:
registered and validated like ``google_search`` (zero requests when invalid), with their metadata
exposed like grounding. Expected values come from the recordings in tests/corpus/gemini (pydantic-ai
MIT, FirebaseExtended/vertexai-sdk-test-data Apache-2.0)."""

from __future__ import annotations

from typing import Any

import pytest

import modelport
from modelport.errors import ProviderToolError
from modelport.types import ProviderTool
from modelport_google.tools import (
    enterprise_web_search,
    file_search,
    google_maps,
    resolve_builtin_tools,
    url_context,
)

from . import corpus as c
from .mock import SSE, model, response

OK = {"candidates": [{"content": {"role": "model", "parts": [{"text": "ok"}]}, "finishReason": "STOP"}]}
VERTEX = {"api_key": None, "token": "tok", "project": "p"}
FILE_SEARCH = (
    "tests__models__cassettes__test_google__test_google_model_file_search_grounding_gemini_3[True].yaml"
)
WEB_FETCH = "tests__models__cassettes__test_google__test_google_model_web_fetch_tool_stream.yaml"
URL_CONTEXT = "mock-responses__googleai__streaming-success-url-context.txt"


def sent(tools: list[Any], model_id: str = "google/gemini-2.5-flash", **kwargs: Any) -> dict[str, Any]:
    options = VERTEX if model_id.startswith("google-vertex") else {}
    m, recorder = model([response(200, OK)], model_id, **options)
    m.generate(prompt="hi", tools=tools, **kwargs)
    return recorder.body  # type: ignore[no-any-return]


def test_url_context_matches_the_recorded_request_and_exposes_its_metadata() -> None:
    recorded = c.cassette(c.PYDANTIC, WEB_FETCH)[0]
    assert sent([url_context()])["tools"] == recorded.request_body["tools"] == [{"urlContext": {}}]
    m, _ = model([response(200, recorded.body, SSE)])
    result = m.stream(prompt="x", tools=[url_context()]).result()
    frames = recorded.frames()
    url_metadata = next(
        f["candidates"][0]["urlContextMetadata"] for f in frames if "urlContextMetadata" in f["candidates"][0]
    )
    final = frames[-1]["candidates"][0]["groundingMetadata"]
    assert result.provider_metadata["google"]["urlContextMetadata"] == url_metadata
    assert [s.uri for s in result.sources] == [ch["web"]["uri"] for ch in final["groundingChunks"]]
    assert result.citations and result.warnings == []


def test_url_context_metadata_from_the_firebase_recording() -> None:
    body = c.raw(c.FIREBASE, URL_CONTEXT)
    frames = c.sse_payloads(body)
    m, _ = model([response(200, body, SSE)])
    result = m.stream(prompt="x", tools=[url_context()]).result()
    assert (
        result.provider_metadata["google"]["urlContextMetadata"]
        == frames[0]["candidates"][0]["urlContextMetadata"]
    )
    assert result.sources[0].uri == "https://google.com"


def test_file_search_request_and_retrieved_context_from_the_recording() -> None:
    interactions = c.cassette(c.PYDANTIC, FILE_SEARCH)
    stream, generate = interactions[3], interactions[4]
    recorded = stream.request_body["tools"][0]["fileSearch"]["file_search_store_names"]
    tool = file_search(recorded)
    assert sent([tool], "google/gemini-3-flash-preview")["tools"] == [
        {"fileSearch": {"fileSearchStoreNames": recorded}}
    ]
    m, _ = model(
        [response(200, stream.body, SSE), response(200, generate.json())], "google/gemini-3-flash-preview"
    )
    streamed = m.stream(prompt="What is the capital of France?", tools=[tool]).result()
    direct = m.generate(prompt="What is the capital of France?", tools=[tool])
    for result, grounding in (
        (streamed, stream.frames()[-1]["candidates"][0]["groundingMetadata"]),
        (direct, generate.json()["candidates"][0]["groundingMetadata"]),
    ):
        assert result.provider_metadata["google"]["groundingMetadata"] == grounding
        assert len(result.sources) == len(grounding["groundingChunks"])
        # The server ran the search: its call and response are provider-executed parts, not calls to run.
        assert result.tool_calls == [] and result.finish_reason == "stop"
        assert [p.name for p in result.content if p.type == "tool-call"] == ["file_search"]


def test_file_search_options_on_the_wire() -> None:
    tool = file_search(["fileSearchStores/a-1", "fileSearchStores/b"], metadata_filter='author="x"', top_k=5)
    assert sent([tool])["tools"] == [
        {
            "fileSearch": {
                "fileSearchStoreNames": ["fileSearchStores/a-1", "fileSearchStores/b"],
                "metadataFilter": 'author="x"',
                "topK": 5,
            }
        }
    ]


def test_google_maps_location_goes_to_tool_config() -> None:
    function = {"type": "function", "name": "f", "parameters": {"type": "object", "properties": {}}}
    body = sent(
        [google_maps(latitude=48.85, longitude=2.35, language_code="fr-FR", enable_widget=True), function],
        tool_choice="auto",
    )
    assert body["tools"][0] == {"googleMaps": {"enableWidget": True}}
    assert body["toolConfig"] == {
        "functionCallingConfig": {"mode": "AUTO"},
        "retrievalConfig": {"latLng": {"latitude": 48.85, "longitude": 2.35}, "languageCode": "fr-FR"},
    }
    assert sent([google_maps()], "google-vertex/gemini-2.5-flash") == {
        "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
        "tools": [{"googleMaps": {}}],
    }


def test_maps_chunks_become_sources() -> None:
    grounded = {
        "candidates": [
            {
                "content": {"role": "model", "parts": [{"text": "Try Café Kitsuné."}]},
                "finishReason": "STOP",
                "groundingMetadata": {
                    "groundingChunks": [
                        {
                            "maps": {
                                "uri": "https://maps.google.com/?cid=1",
                                "title": "Café Kitsuné",
                                "placeId": "places/1",
                            }
                        }
                    ],
                    "groundingSupports": [
                        {
                            "segment": {"endIndex": 19, "text": "Try Café Kitsuné."},
                            "groundingChunkIndices": [0],
                        }
                    ],
                },
            }
        ]
    }
    m, _ = model([response(200, grounded)])
    result = m.generate(prompt="coffee?", tools=[google_maps(latitude=1, longitude=2)])
    assert [(s.title, s.uri) for s in result.sources] == [("Café Kitsuné", "https://maps.google.com/?cid=1")]
    assert [(x.start, x.end) for x in result.citations] == [(0, len("Try Café Kitsuné."))]


def test_enterprise_web_search_on_vertex() -> None:
    tool = enterprise_web_search(exclude_domains=["example.com"], blocking_confidence="BLOCK_LOW_AND_ABOVE")
    assert sent([tool], "google-vertex/gemini-2.5-flash")["tools"] == [
        {
            "enterpriseWebSearch": {
                "excludeDomains": ["example.com"],
                "blockingConfidence": "BLOCK_LOW_AND_ABOVE",
            }
        }
    ]


def test_names_resolve_through_the_allow_list() -> None:
    assert resolve_builtin_tools(["url_context", "google_maps"]) == [url_context(), google_maps()]


def raw(tool_id: str, **args: Any) -> dict[str, Any]:
    return {"type": "provider", "id": tool_id, "args": args}


@pytest.mark.parametrize(
    ("model_id", "tool", "message"),
    [
        (
            "google-vertex/gemini-2.5-flash",
            raw("google.file_search", fileSearchStoreNames=["fileSearchStores/a"]),
            "only available on the Gemini API",
        ),
        ("google/gemini-2.5-flash", raw("google.enterprise_web_search"), "only available on Vertex AI"),
        ("google/gemini-2.5-flash", raw("google.file_search"), "fileSearchStoreNames"),
        (
            "google/gemini-2.5-flash",
            raw("google.file_search", fileSearchStoreNames=[]),
            "fileSearchStoreNames",
        ),
        (
            "google/gemini-2.5-flash",
            raw("google.file_search", fileSearchStoreNames=["my-store"]),
            "not a File Search store",
        ),
        (
            "google/gemini-2.5-flash",
            raw("google.file_search", fileSearchStoreNames=["fileSearchStores/a"], topK=0),
            "topK",
        ),
        (
            "google/gemini-2.5-flash",
            raw("google.file_search", fileSearchStoreNames=["fileSearchStores/a"], topK="3"),
            "topK",
        ),
        ("google/gemini-2.5-flash", raw("google.url_context", urls=["https://a.example"]), "urls"),
        (
            "google/gemini-2.5-flash",
            raw("google.google_maps", latLng={"latitude": 91, "longitude": 0}),
            "latitude",
        ),
        ("google/gemini-2.5-flash", raw("google.google_maps", latLng={"latitude": 1}), "longitude"),
        ("google/gemini-2.5-flash", raw("google.google_maps", enableWidget="yes"), "enableWidget"),
        (
            "google-vertex/gemini-2.5-flash",
            raw("google.enterprise_web_search", excludeDomains=["not a domain"]),
            "domain",
        ),
    ],
)
def test_invalid_tools_are_rejected_before_any_request(
    model_id: str, tool: dict[str, Any], message: str
) -> None:
    options = VERTEX if model_id.startswith("google-vertex") else {}
    m, recorder = model([], model_id, **options)
    with pytest.raises(ProviderToolError, match=message):
        m.generate(prompt="hi", tools=[tool])
    with pytest.raises(ProviderToolError, match=message):
        m.stream(prompt="hi", tools=[tool]).result()
    with pytest.raises(ProviderToolError, match=message):
        m.count_tokens(prompt="hi", tools=[tool])
    assert recorder.requests == []


@pytest.mark.parametrize(
    "build",
    [
        lambda: file_search("fileSearchStores/a"),
        lambda: file_search(["fileSearchStores/a"], top_k=-1),
        lambda: google_maps(latitude=1.0),
        lambda: google_maps(latitude=1.0, longitude=500.0),
        lambda: enterprise_web_search(exclude_domains="a.com"),
    ],
)
def test_helpers_check_their_arguments(build: Any) -> None:
    with pytest.raises(ProviderToolError):
        build()


def test_helpers_build_plain_provider_tools() -> None:
    assert url_context() == ProviderTool(id="google.url_context", name="url_context")
    assert modelport.provider_tools.get_provider_tool("google.google_maps").name == "google_maps"
