"""Issue 30: ``list_models`` through each provider's own model list endpoint, every page of it,
on the kit's I/O (sync and async alike), typed errors for a list that is malformed or never ends,
and "not supported" before any I/O for a provider without one.

MOCK bodies: the corpus holds no recorded model list; each is written after the provider's
documented shape (OpenAI ``GET /v1/models``, Anthropic ``GET /v1/models`` with ``has_more`` /
``last_id``, Gemini ``models.list`` with ``nextPageToken``), with real model names.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import httpx
import pytest

import modelport
from modelport.errors import InvalidRequestError, ProviderResponseError
from modelport.provider import ModelInfo

KEY = "test-key-not-a-secret"

OPENAI_LIST = {
    "object": "list",
    "data": [
        {"id": "gpt-4.1-nano", "object": "model", "created": 1744316542, "owned_by": "system"},
        {"id": "text-embedding-3-small", "object": "model", "created": 1705948997, "owned_by": "system"},
    ],
}
ANTHROPIC_PAGES = [
    {
        "data": [{"type": "model", "id": "claude-sonnet-4-5-20250929", "display_name": "Claude Sonnet 4.5",
                  "created_at": "2025-09-29T00:00:00Z"}],
        "has_more": True, "first_id": "claude-sonnet-4-5-20250929", "last_id": "claude-sonnet-4-5-20250929",
    },
    {
        "data": [{"type": "model", "id": "claude-3-5-haiku-20241022", "display_name": "Claude Haiku 3.5",
                  "created_at": "2024-10-22T00:00:00Z"}],
        "has_more": False, "first_id": "claude-3-5-haiku-20241022", "last_id": "claude-3-5-haiku-20241022",
    },
]  # fmt: skip
GEMINI_PAGES = [
    {
        "models": [{"name": "models/gemini-2.5-flash", "version": "001", "displayName": "Gemini 2.5 Flash",
                    "description": "Stable version of Gemini 2.5 Flash", "inputTokenLimit": 1048576,
                    "outputTokenLimit": 65536, "supportedGenerationMethods": ["generateContent", "countTokens"]}],
        "nextPageToken": "Ch9tb2RlbHMvZ2VtaW5pLTIuNS1mbGFzaA==",
    },
    {"models": [{"name": "models/gemini-embedding-001", "displayName": "Gemini Embedding 001",
                 "inputTokenLimit": 2048, "outputTokenLimit": 1}]},
]  # fmt: skip


def _serving(pages: list[Any], seen: list[httpx.Request]) -> httpx.MockTransport:
    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json=pages[min(len(seen), len(pages)) - 1])

    return httpx.MockTransport(answer)


def _model(model_id: str, transport: httpx.MockTransport, **options: Any) -> modelport.Model:
    return modelport.get_model(model_id, transport=transport, max_retries=0, **options)


def test_openai_compatible_lists_v1_models() -> None:
    seen: list[httpx.Request] = []
    model = _model(
        "openai-compatible/x", _serving([OPENAI_LIST], seen), base_url="http://local/v1", api_key=KEY
    )
    assert model.provider.list_models() == [
        ModelInfo(id="gpt-4.1-nano", created=1744316542, owned_by="system"),
        ModelInfo(id="text-embedding-3-small", created=1705948997, owned_by="system"),
    ]
    ((method, url, auth),) = [(r.method, str(r.url), r.headers["authorization"]) for r in seen]
    assert (method, url, auth) == ("GET", "http://local/v1/models", f"Bearer {KEY}")


def test_anthropic_pages_after_the_last_id() -> None:
    seen: list[httpx.Request] = []
    model = _model("anthropic/claude-sonnet-4-5", _serving(ANTHROPIC_PAGES, seen), api_key=KEY)
    assert model.provider.list_models() == [
        ModelInfo(id="claude-sonnet-4-5-20250929", display_name="Claude Sonnet 4.5", created=1759104000),
        ModelInfo(id="claude-3-5-haiku-20241022", display_name="Claude Haiku 3.5", created=1729555200),
    ]
    assert [str(r.url) for r in seen] == [
        "https://api.anthropic.com/v1/models?limit=1000",
        "https://api.anthropic.com/v1/models?limit=1000&after_id=claude-sonnet-4-5-20250929",
    ]
    assert {(r.headers["x-api-key"], r.headers["anthropic-version"]) for r in seen} == {(KEY, "2023-06-01")}


def test_gemini_pages_with_the_page_token() -> None:
    seen: list[httpx.Request] = []
    model = _model("google/gemini-2.5-flash", _serving(GEMINI_PAGES, seen), api_key=KEY)
    assert model.provider.list_models() == [
        ModelInfo(id="gemini-2.5-flash", display_name="Gemini 2.5 Flash",
                  description="Stable version of Gemini 2.5 Flash", input_token_limit=1048576,
                  output_token_limit=65536),
        ModelInfo(id="gemini-embedding-001", display_name="Gemini Embedding 001", input_token_limit=2048,
                  output_token_limit=1),
    ]  # fmt: skip
    assert [str(r.url) for r in seen] == [
        "https://generativelanguage.googleapis.com/v1beta/models?pageSize=1000",
        "https://generativelanguage.googleapis.com/v1beta/models?pageSize=1000&pageToken=Ch9tb2RlbHMvZ2VtaW5pLTIuNS1mbGFzaA%3D%3D",
    ]
    assert model.provider.capabilities.list_models is True


def test_the_async_twin_lists_the_same_pages() -> None:
    seen: list[httpx.Request] = []
    model = _model("google/gemini-2.5-flash", _serving(GEMINI_PAGES, seen), api_key=KEY)
    assert [m.id for m in asyncio.run(model.provider.alist_models())] == [
        "gemini-2.5-flash",
        "gemini-embedding-001",
    ]
    assert len(seen) == 2


def test_a_busy_list_is_retried_as_an_idempotent_get() -> None:
    answers = iter([httpx.Response(503, json={"error": {"message": "busy"}}, headers={"retry-after": "0"}),
                    httpx.Response(200, json=OPENAI_LIST)])  # fmt: skip
    transport = httpx.MockTransport(lambda request: next(answers))
    model = modelport.get_model("openai-compatible/x", base_url="http://local/v1", transport=transport)
    assert len(model.provider.list_models()) == 2


@pytest.mark.parametrize(
    ("page", "problem"),
    [
        (lambda n: {"models": [], "nextPageToken": "same"}, "names the same page as its next page"),
        (lambda n: {"models": [], "nextPageToken": f"page-{n}"}, "did not end within 100 pages"),
        (
            lambda n: {"models": "not a list"},
            "could not be decoded: TypeError: 'models' is a str, not a list",
        ),
    ],
    ids=["same-token", "endless", "malformed"],
)
def test_a_list_that_repeats_never_ends_or_is_malformed_is_a_typed_error(
    page: Callable[[int], Any], problem: str
) -> None:
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json=page(len(seen)))

    model = _model("google/gemini-2.5-flash", httpx.MockTransport(answer), api_key=KEY)
    with pytest.raises(ProviderResponseError, match=problem):
        model.provider.list_models()
    assert len(seen) <= 100


def test_a_provider_without_a_list_says_so_before_any_io() -> None:
    seen: list[httpx.Request] = []
    model = _model(
        "google-vertex/gemini-2.5-flash", _serving([{}], seen), project="p", location="us-central1", token="t"
    )
    with pytest.raises(InvalidRequestError, match="provider 'google-vertex' does not support listing models"):
        model.provider.list_models()
    assert seen == []
    assert model.provider.capabilities.list_models is False
