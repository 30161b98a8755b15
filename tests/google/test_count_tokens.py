"""Token counting (issue 13): ``count_tokens`` / ``acount_tokens`` on Gemini (``:countTokens`` with the
whole ``generateContentRequest``) and Vertex AI, taking the same keywords as ``generate``.

No countTokens exchange is in the recorded corpus; the responses here follow the REST reference's
``CountTokensResponse`` shape (``totalTokens``, ``cachedContentTokenCount``, ``promptTokensDetails``).
"""

from __future__ import annotations

import pytest

from modelport.errors import InvalidRequestError, ProviderToolError
from modelport.provider import TokenCount
from modelport_google.tools import google_search

from .mock import model, response

COUNT = {
    "totalTokens": 31,
    "cachedContentTokenCount": 10,
    "promptTokensDetails": [{"modality": "TEXT", "tokenCount": 31}],
}
TOOL = {"type": "function", "name": "lookup", "parameters": {"type": "object", "properties": {}}}


def test_gemini_counts_the_whole_generate_request() -> None:
    m, recorder = model([response(200, COUNT)])
    count = m.count_tokens(
        system="be brief",
        prompt="hi",
        tools=[TOOL, google_search()],
        max_output_tokens=5,
        user_id="u1",
        provider_options={"google": {"cached_content": "c1"}},
    )
    assert count == TokenCount(
        input_tokens=31,
        cached_input_tokens=10,
        provider_metadata={"google": {"promptTokensDetails": [{"modality": "TEXT", "tokenCount": 31}]}},
    )
    request = recorder.requests[0]
    assert str(request.url) == (
        "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:countTokens"
    )
    assert request.headers["x-goog-api-key"]
    assert recorder.body == {
        "generateContentRequest": {
            "model": "models/gemini-2.5-flash",
            "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
            "systemInstruction": {"parts": [{"text": "be brief"}]},
            "tools": [
                {"googleSearch": {}},
                {"functionDeclarations": [{"name": "lookup", "parametersJsonSchema": TOOL["parameters"]}]},
            ],
            "generationConfig": {"maxOutputTokens": 5},
            "cachedContent": "cachedContents/c1",
        }
    }


def test_vertex_counts_contents_system_tools_and_config() -> None:
    m, recorder = model(
        [response(200, {"totalTokens": 4, "totalBillableCharacters": 12})],
        "google-vertex/gemini-2.5-flash",
        api_key=None,
        token="tok",
        project="p",
    )
    count = m.count_tokens(system="s", prompt="hi", temperature=0.5, user_id="u")
    assert count.input_tokens == 4 and count.cached_input_tokens is None
    assert count.provider_metadata == {"google": {"totalBillableCharacters": 12}}
    assert str(recorder.requests[0].url) == (
        "https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/us-central1/"
        "publishers/google/models/gemini-2.5-flash:countTokens"
    )
    assert recorder.body == {
        "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
        "systemInstruction": {"parts": [{"text": "s"}]},
        "generationConfig": {"temperature": 0.5},
    }


@pytest.mark.asyncio
async def test_acount_tokens() -> None:
    m, recorder = model([response(200, {"totalTokens": 2})], asynchronous=True)
    assert (await m.acount_tokens(prompt="hi")) == TokenCount(input_tokens=2)
    assert str(recorder.requests[0].url).endswith(":countTokens")


def test_an_empty_count_is_zero_and_a_malformed_one_is_typed() -> None:
    from modelport.errors import ProviderResponseError

    m, _ = model([response(200, {}), response(200, {"totalTokens": "3"})])
    assert m.count_tokens(prompt="").input_tokens == 0
    with pytest.raises(ProviderResponseError):
        m.count_tokens(prompt="hi")


def test_invalid_requests_are_rejected_before_any_request() -> None:
    m, recorder = model([])
    with pytest.raises(ProviderToolError):
        m.count_tokens(
            prompt="hi", tools=[{"type": "provider", "id": "google.google_search", "args": {"x": 1}}]
        )
    with pytest.raises(InvalidRequestError):
        m.count_tokens(prompt="hi", provider_options={"google": {"nope": 1}})
    vertex, vertex_recorder = model(
        [], "google-vertex/gemini-2.5-flash", api_key=None, token="t", project="p"
    )
    with pytest.raises(InvalidRequestError, match="cached content"):
        vertex.count_tokens(prompt="hi", provider_options={"google": {"cached_content": "c"}})
    assert recorder.requests == [] and vertex_recorder.requests == []


def test_capability_is_declared() -> None:
    m, _ = model([])
    assert m.provider.capabilities.count_tokens is True
