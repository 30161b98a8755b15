"""Every recording of the vendored OpenAI corpus is replayed through the adapter.

Each exchange of each file in ``tests/corpus/openai`` is answered, as recorded, by an
``httpx.MockTransport`` behind a real model of the provider the traffic came from; what the adapter
returns is compared with the values :mod:`tests.openai.oracle` reads straight from the recording:
text, reasoning text, tool calls with ids and arguments, the raw finish reason, every usage number,
the response id; for errors the status, the server's code and message; for embeddings the vectors
and token counts. A file added to the corpus without a row in :data:`BODY_ONLY` or a known host
fails :func:`test_every_recording_is_replayed`.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

import pytest

from modelport.errors import ProviderError
from modelport.types import Result

from . import corpus, oracle, replay

V = "vercel__ai/packages__"
#: Body-only recordings (no URL): the provider (and base URL) the body came from, per the MANIFEST.
BODY_ONLY: dict[str, tuple[str, str | None]] = {
    V + "cerebras__src__fixtures__cererebras-structured-output-tools.1.chunks.txt": (
        "openai-compatible",
        "https://api.cerebras.ai/v1",
    ),
    V + "deepseek__src__chat____fixtures____deepseek-reasoning.json": ("deepseek", None),
    V + "deepseek__src__chat____fixtures____deepseek-text.json": ("deepseek", None),
    V + "deepseek__src__chat____fixtures____deepseek-tool-call.chunks.txt": ("deepseek", None),
    V + "groq__src____fixtures____groq-reasoning.json": ("groq", None),
    V + "groq__src____fixtures____groq-tool-call.chunks.txt": ("groq", None),
    V + "mistral__src____fixtures____mistral-incremental-tool-call.chunks.txt": ("mistral", None),
    V + "openai-compatible__src__chat____fixtures____xai-text.chunks.txt": ("xai", None),
    V + "openai-compatible__src__chat____fixtures____xai-tool-call.json": ("xai", None),
    V + "openai__src__chat____fixtures____azure-model-router.1.chunks.txt": (
        "openai-compatible",
        "https://example-resource.openai.azure.com/openai/v1",
    ),
    V + "openai__src__chat____fixtures____openai-text.chunks.txt": ("openai", None),
    V + "openai__src__chat____fixtures____openai-text.json": ("openai", None),
    V + "openai__src__chat____fixtures____reasoning-model-legacy-parameter-error.json": ("openai", None),
    V + "openai__src__embedding____fixtures____issue-10082-token-limit-error.json": ("openai", None),
    V + "openai__src__embedding____fixtures____openai-embedding.json": ("openai", None),
}


def _exchanges() -> list[tuple[str, int]]:
    return [(name, i) for name in corpus.all_files() for i in range(len(corpus.interactions(name)))]


def _where(name: str, interaction: corpus.Interaction) -> tuple[str, str | None]:
    if name in BODY_ONLY:
        return BODY_ONLY[name]
    host = urlsplit(interaction.uri).netloc
    return replay.HOSTS[host]


def _summary(result: Result) -> dict[str, Any]:
    u = result.usage
    return {
        "text": result.text,
        "reasoning": result.reasoning_text,
        "calls": [(c.id, c.name, c.args) for c in result.tool_calls],
        "raw_finish": result.raw_finish_reason,
        "usage": {
            "input": u.input_tokens,
            "output": u.output_tokens,
            "reasoning": u.reasoning_tokens,
            "total": u.total_tokens,
            "cached": u.cache_read_input_tokens,
        },
        "response_id": result.response_id,
    }


def test_every_recording_is_replayed() -> None:
    files = corpus.all_files()
    assert len(files) == 55  # the MANIFEST's 55 recordings
    for name in files:
        for interaction in corpus.interactions(name):
            assert name in BODY_ONLY or urlsplit(interaction.uri).netloc in replay.HOSTS, name


@pytest.mark.parametrize(("name", "index"), _exchanges(), ids=lambda v: str(v)[-60:])
def test_replay(name: str, index: int) -> None:
    interaction = corpus.interactions(name)[index]
    if interaction.uri.endswith("/v1/responses"):
        # The one Responses-API exchange (MANIFEST: "ignore"); the adapter never calls that endpoint.
        assert "thinking_part" in name and index == 0
        return
    provider, base_url = _where(name, interaction)
    model, replayer = replay.model_and_replayer(provider, "recorded-model", interaction, base_url)
    xai = provider == "xai"
    if "/embeddings" in interaction.uri or "embedding__" in name:
        _check_embeddings(model, interaction, replayer)
    elif interaction.status >= 400:
        error = replay.generate(model, prompt="Hello")
        _check_error(error, interaction)
    elif interaction.is_sse:
        _check_stream(model, interaction, xai=xai)
    else:
        result = replay.generate(model, prompt="Hello")
        assert isinstance(result, Result), result
        assert _summary(result) == oracle.completion(interaction.json(), xai=xai)


def _check_error(error: Any, interaction: corpus.Interaction) -> None:
    assert isinstance(error, ProviderError), error
    expected = oracle.error(interaction.json())
    assert error.status_code == interaction.status
    assert error.provider_status == expected["status"]
    assert expected["message"] in error.message
    assert error.request_id == interaction.headers.get("x-request-id")


def _check_stream(model: Any, interaction: corpus.Interaction, *, xai: bool) -> None:
    events, outcome = replay.stream(model, prompt="Hello")
    frames = interaction.frames()
    failed = [i for i, f in enumerate(frames) if isinstance(f.get("error"), dict)]
    if failed:
        # An error inside the stream: a typed error whose partial keeps everything before it.
        assert isinstance(outcome, ProviderError), outcome
        found = frames[failed[0]]["error"]
        assert found["message"] in outcome.message
        assert outcome.partial is not None
        before = oracle.stream(frames[: failed[0]], xai=xai)
        assert (outcome.partial.text, outcome.partial.reasoning_text) == (before["text"], before["reasoning"])
        return
    assert isinstance(outcome, Result), outcome
    assert _summary(outcome) == oracle.stream(frames, xai=xai)
    assert [e.type for e in events][0] == "stream-start"
    assert [e.type for e in events][-1] == "finish"


def _check_embeddings(model: Any, interaction: corpus.Interaction, replayer: replay.Replayer) -> None:
    data = interaction.json()
    if interaction.status >= 400:
        with pytest.raises(ProviderError) as caught:
            model.embed(["one value"])
        _check_error(caught.value, interaction)
        return
    expected = oracle.embeddings(data)
    request = interaction.request_body or {}
    values = request.get("input", ["v"] * expected["count"])
    result = model.embed(values, output_dimensionality=request.get("dimensions"))
    assert len(result.embeddings) == expected["count"]
    assert [len(v) for v in result.embeddings] == expected["dimensions"]
    assert [v[:3] for v in result.embeddings] == expected["first"]
    assert result.usage.input_tokens == expected["input_tokens"]
    assert json.loads(replayer.requests[-1].content)["input"] == values
