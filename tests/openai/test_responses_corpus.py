"""Every recording of the vendored Responses API corpus is replayed through ``openai-responses``.

Each ``/v1/responses`` exchange of each file in ``tests/corpus/openai-responses`` is answered, as
recorded, by an ``httpx.MockTransport`` behind a real ``openai-responses`` model; what the adapter
returns is compared with what :mod:`tests.openai.responses_corpus` reads straight from the recorded
final ``response`` object: text (refusals included), each reasoning item's summaries and
``encrypted_content`` with its id, function calls with ids and arguments, the raw finish reason,
every usage number, the response id and model; the output items this version does not map
(built-in tools) kept raw, each with a warning; for errors the status, the code and the message.
A stream is checked against its own terminal event, so the deltas must add up to the final items.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

import pytest

from modelport.errors import ProviderError
from modelport.types import FilePart, ReasoningPart, Result, ToolCallPart, ToolResultPart

from . import replay
from . import responses_corpus as corpus

#: The endpoint replayed here (body-only recordings have no URL); the others are the file-search
#: recording's set-up and clean-up calls (``/v1/files``, ``/v1/vector_stores``) and the input-token
#: count (:func:`test_input_token_count`).
#: The Responses API's paths (the last, Azure's route: Mirascope's image-URL recording).
_RESPONSES = ("", "/v1/responses", "/openai/responses")


def _exchanges() -> list[tuple[str, int]]:
    return [(name, i) for name in corpus.all_files() for i in range(len(corpus.exchanges(name)))]


def _reasoning_items(result: Result) -> list[tuple[str, list[str], str | None]]:
    """The reasoning parts grouped back into items: (id, summaries, encrypted content)."""
    items: list[tuple[str, list[str], str | None]] = []
    for part in result.content:
        if not isinstance(part, ReasoningPart):
            continue
        ident = (part.provider_metadata or {})["openai-responses"]["item_id"]
        if items and items[-1][0] == ident:
            items[-1][1].append(part.text)
            items[-1] = (ident, items[-1][1], part.signature or items[-1][2])
        else:
            items.append((ident, [part.text], part.signature))
    # An item without a summary is one empty part (so that its state has a part to live on).
    return [(i, [t for t in texts if t] if texts != [""] else [], sig) for i, texts, sig in items]


def _named(result: Result, numbers: list[int]) -> str:
    """The URL (or file name) of the one source a citation names."""
    (number,) = numbers
    (source,) = [s for s in result.sources if s.number == number]
    return source.uri or source.title or ""


def _summary(result: Result) -> dict[str, Any]:
    u = result.usage
    unmapped = (result.provider_metadata.get("openai-responses") or {}).get("unmapped_items", [])
    return {
        "response_id": result.response_id,
        "model": result.model_version,
        "text": result.text,
        "reasoning": _reasoning_items(result),
        "calls": [(c.id, c.name, c.args) for c in result.tool_calls if not c.provider_executed],
        "built_in": [
            (call.id, call.name, outcome.is_error)
            for call in result.content
            if isinstance(call, ToolCallPart) and call.provider_executed
            for outcome in result.content
            if isinstance(outcome, ToolResultPart) and outcome.call_id == call.id
        ],
        "images": [(f.media_type, f.data) for f in result.content if isinstance(f, FilePart)],
        "damaged_images": [
            r.output["result"]
            for r in result.content
            if isinstance(r, ToolResultPart) and r.name == "image_generation" and "result" in r.output
        ],
        "cited": [(c.start, c.end, _named(result, c.sources)) for c in result.citations],
        "unmapped": unmapped,
        "approvals": [
            (c.id, c.name, c.args)
            for c in result.content
            if isinstance(c, ToolCallPart) and c.approval == "requested"
        ],
        "raw_finish": result.raw_finish_reason,
        "usage": {
            "input": u.input_tokens,
            "output": u.output_tokens,
            "total": u.total_tokens,
            "cached": u.cache_read_input_tokens,
            "reasoning": u.reasoning_tokens,
        },
    }


def test_every_recording_is_replayed() -> None:
    files = corpus.all_files()
    assert len(files) == 51  # the MANIFEST's 51 recordings
    assert sum(len(corpus.exchanges(name)) for name in files) == 73


@pytest.mark.parametrize(("name", "index"), _exchanges(), ids=lambda v: str(v)[-60:])
def test_replay(name: str, index: int) -> None:
    exchange = corpus.exchanges(name)[index]
    if urlsplit(exchange.uri).path not in _RESPONSES:
        assert "file_search" in name or "count_tokens" in name
        return
    model, _ = replay.model_and_replayer("openai-responses", "gpt-5", exchange)  # type: ignore[arg-type]
    if exchange.status >= 400:
        _check_error(replay.generate(model, prompt="Hello"), exchange)
    elif exchange.is_sse:
        _check_stream(model, exchange)
    else:
        result = replay.generate(model, prompt="Hello")
        assert isinstance(result, Result), result
        _check_result(result, exchange.final())


#: Output items the model asks the client to run (the Responses API's reference): not mapped to
#: tool calls in this version, but the answer still waits for their outputs.
CLIENT_RUN = {"local_shell_call", "shell_call", "computer_call", "apply_patch_call", "custom_tool_call"}


def _check_result(result: Result, response: dict[str, Any]) -> None:
    expected = corpus.expected(response)
    assert _summary(result) == expected
    unmapped = {w.details.split("'")[1] for w in result.warnings if w.setting == "output"}
    assert unmapped == {item["type"] for item in expected["unmapped"]}
    damaged = [w for w in result.warnings if w.setting == "image_generation"]
    assert len(damaged) == len(expected["damaged_images"])
    status = response["status"]
    reason = (response.get("incomplete_details") or {}).get("reason")
    if status == "incomplete":
        assert (
            result.finish_reason
            == {"max_output_tokens": "length", "content_filter": "content-filter"}[reason]
        )
    elif any(
        c.get("type") == "refusal" for i in response["output"] if i["type"] == "message" for c in i["content"]
    ):
        assert result.finish_reason == "content-filter"
    else:
        waits = expected["calls"] or expected["approvals"]  # a call to run, or a decision to make
        asks_client = waits or any(i["type"] in CLIENT_RUN for i in expected["unmapped"])
        assert result.finish_reason == ("tool-calls" if asks_client else "stop")


def _check_error(error: Any, exchange: corpus.Exchange) -> None:
    assert isinstance(error, ProviderError), error
    found = json.loads(exchange.body)["error"]
    assert error.status_code == exchange.status
    assert error.provider_status == (found.get("code") or found.get("type"))
    assert found["message"] in error.message


def _check_stream(model: Any, exchange: corpus.Exchange) -> None:
    events, outcome = replay.stream(model, prompt="Hello")
    frames = exchange.frames()
    failed = [f for f in frames if f.get("type") in ("error", "response.failed")]
    if failed:
        # The first error frame is raised, typed by its code; what arrived before it is kept.
        first = failed[0]
        error = first.get("error") if first["type"] == "error" else first["response"]["error"]
        assert isinstance(outcome, ProviderError), outcome
        assert outcome.status_code is None
        assert outcome.provider_status == error["code"]
        assert error["message"] in outcome.message
        assert outcome.partial is not None
        assert outcome.partial.response_id == frames[0]["response"]["id"]
        return
    assert isinstance(outcome, Result), outcome
    _check_result(outcome, exchange.final())
    assert [e.type for e in events][0] == "stream-start"
    assert [e.type for e in events][-1] == "finish"


def test_input_token_count() -> None:
    name = "pydantic__pydantic-ai/tests__models__cassettes__test_openai_responses__test_responses_count_tokens.yaml"
    (exchange,) = corpus.exchanges(name)
    model, replayer = replay.model_and_replayer("openai-responses", "gpt-5", exchange)  # type: ignore[arg-type]
    count = model.count_tokens(prompt="Hello")
    assert count.input_tokens == json.loads(exchange.body)["input_tokens"]
    assert replayer.requests[0].url.path == "/v1/responses/input_tokens"
    sent = json.loads(replayer.requests[0].content)
    assert sent == {"model": "gpt-5", "input": [{"role": "user", "content": "Hello"}]}
