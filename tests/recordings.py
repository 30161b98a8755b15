"""The one locator for the recorded provider traffic that the tests read.

The recordings are vendored, byte for byte, in ``tests/corpus/<provider>/`` (``anthropic``, ``gemini``,
``openai``, ``openai-responses``, ``azure-openai`` (one Ruby VCR file the importer's tests read), and
``batch`` for the batch services);
each folder's ``MANIFEST.md`` names every file's source repository, commit and license. Nothing in the
project reads recorded traffic from anywhere else, so a fresh clone has everything its tests need.

A missing recording fails the test that asked for it, naming the file: it is never a skip.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from modelport.types import Result

CORPUS = Path(__file__).resolve().parent / "corpus"
"""The root of the vendored recordings (one folder per provider)."""

PROVIDERS = (
    "anthropic",
    "gemini",
    "openai",
    "openai-responses",
    "azure-openai",
    "batch",
    "vertex-anthropic",
    "bedrock",
    "anthropic-bedrock",
)


def recording(provider: str, relative: str) -> Path:
    """The path of ``tests/corpus/<provider>/<relative>``; fails the calling test if it is missing."""
    path = CORPUS / provider / relative
    if not path.is_file():
        pytest.fail(
            f"vendored recording missing: tests/corpus/{provider}/{relative} "
            f"(listed in tests/corpus/{provider}/MANIFEST.md; restore it with `git checkout -- tests/corpus`)",
            pytrace=False,
        )
    return path


def gemini(relative: str) -> Path:
    """A recording of the Gemini corpus, e.g. ``gemini("vercel__ai/...chunks.txt")``."""
    return recording("gemini", relative)


def openai(relative: str) -> Path:
    """A recording of the OpenAI (and OpenAI-compatible servers) corpus."""
    return recording("openai", relative)


def openai_responses(relative: str) -> Path:
    """A recording of the OpenAI Responses API corpus."""
    return recording("openai-responses", relative)


def anthropic_bedrock(relative: str) -> Path:
    """A recording of Claude on Bedrock's InvokeModel (Messages bodies, chunked event streams)."""
    return recording("anthropic-bedrock", relative)


def bedrock(relative: str) -> Path:
    """A recording of the AWS Bedrock corpus (Converse, ConverseStream event streams)."""
    return recording("bedrock", relative)


def anthropic(relative: str) -> Path:
    """A recording of the Anthropic Messages API corpus."""
    return recording("anthropic", relative)


def vcr_body(body: Any) -> bytes:
    """The bytes of a vcrpy cassette's body entry: ``parsed_body`` (JSON written back), ``string``
    (text or bytes), gzip ``!!binary`` bodies inflated."""
    if body is None:
        return b""
    if isinstance(body, dict):
        if "parsed_body" in body:
            return json.dumps(body["parsed_body"]).encode()
        body = body.get("string", b"")
    if isinstance(body, str):
        body = body.encode("utf-8")
    if body[:2] == b"\x1f\x8b":
        body = gzip.decompress(body)
    return bytes(body)


def answered(model_id: str, body: bytes) -> Result:
    """``model_id``'s result for a prompt answered with the recorded JSON ``body`` (no network)."""
    import httpx

    import modelport

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=body, headers={"content-type": "application/json"})

    model = modelport.get_model(model_id, api_key="k", transport=httpx.MockTransport(answer), max_retries=0)
    return model.generate(prompt="Hi")
