"""Every vendored Anthropic recording is replayed through the adapter, and what comes out is what
the recording holds: ids, stop reason, usage (in the contract's meaning), text, thinking and
signatures, redacted data, tool calls with ids and inputs, server-tool blocks, errors with type,
message and request id. Expected values are read from the recording itself."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from modelport.errors import ProviderError
from modelport.types import ReasoningPart, TextPart, ToolCallPart, ToolResultPart

from . import corpus
from .fakes import model

EXCHANGES = [(name, index) for name in corpus.all_files() for index, _ in corpus.api_exchanges(name)]


def _merged(frames: list[dict[str, Any]]) -> dict[str, Any]:
    """The message a stream's frames add up to (written here, apart from the adapter's merge)."""
    message: dict[str, Any] = {}
    blocks: dict[int, dict[str, Any]] = {}
    for frame in frames:
        kind = frame["type"]
        if kind == "message_start":
            message = dict(frame["message"])
            message["usage"] = dict(message.get("usage") or {})
            message["content"] = []
        elif kind == "content_block_start":
            blocks[frame["index"]] = block = {**frame["content_block"], "_json": ""}
            message["content"].append(block)
        elif kind == "content_block_delta":
            block, delta = blocks[frame["index"]], frame["delta"]
            for key, field in (("text_delta", "text"), ("thinking_delta", "thinking")):
                if delta["type"] == key:
                    block[field] = block.get(field, "") + delta[field]
            if delta["type"] == "signature_delta":
                block["signature"] = delta["signature"]
            if delta["type"] == "input_json_delta":
                block["_json"] += delta["partial_json"]
            if delta["type"] == "citations_delta":
                block["citations"] = [*(block.get("citations") or []), delta["citation"]]
        elif kind == "message_delta":
            message.update({k: v for k, v in frame["delta"].items() if v is not None})
            message["usage"].update({k: v for k, v in (frame.get("usage") or {}).items() if v is not None})
    return message


def _result(name: str, index: int) -> tuple[Any, Any]:
    """(what the adapter gave: a Result or a ProviderError, the recorded exchange)."""
    recorded = corpus.interactions(name)[index]
    reply = httpx.Response(recorded.status, headers=recorded.headers, content=recorded.body)
    m, _ = model([reply])
    try:
        if corpus.endpoint(recorded) == "count_tokens":
            return m.count_tokens(prompt="replayed"), recorded
        if recorded.is_sse:
            return m.stream(prompt="replayed").result(), recorded
        return m.generate(prompt="replayed"), recorded
    except ProviderError as error:
        return error, recorded


def _expected_usage(usage: dict[str, Any]) -> tuple[int, int, int | None, int | None]:
    written, read = usage.get("cache_creation_input_tokens"), usage.get("cache_read_input_tokens")
    return usage["input_tokens"] + (written or 0) + (read or 0), usage["output_tokens"], read, written


@pytest.mark.parametrize(
    ("name", "index"), EXCHANGES, ids=[f"{n.split('/')[1][:70]}#{i}" for n, i in EXCHANGES]
)
def test_every_recording_replays_to_what_it_holds(name: str, index: int) -> None:
    got, recorded = _result(name, index)
    if recorded.status != 200:
        body = recorded.json()
        assert isinstance(got, ProviderError)
        assert got.status_code == recorded.status
        assert got.provider_status == body["error"]["type"]
        assert body["error"]["message"] in str(got)
        assert got.request_id == (body.get("request_id") or recorded.headers.get("request-id"))
        return
    assert not isinstance(got, Exception), got
    if corpus.endpoint(recorded) == "count_tokens":
        assert got.input_tokens == recorded.json()["input_tokens"]
        return
    message = _merged(recorded.frames()) if recorded.is_sse else recorded.json()
    assert got.response_id == message["id"]
    assert got.raw_finish_reason == message["stop_reason"]
    usage = got.usage
    assert (
        usage.input_tokens,
        usage.output_tokens,
        usage.cache_read_input_tokens,
        usage.cache_write_input_tokens,
    ) == (_expected_usage(message["usage"]))
    blocks = message["content"]
    texts = [b["text"] for b in blocks if b["type"] == "text"]
    assert [p.text for p in got.content if isinstance(p, TextPart)] == texts
    thinking = [(b["thinking"], b["signature"]) for b in blocks if b["type"] == "thinking"]
    redacted = [b["data"] for b in blocks if b["type"] == "redacted_thinking"]
    reasoning = [p for p in got.content if isinstance(p, ReasoningPart)]
    assert [(p.text, p.signature) for p in reasoning if p.text or p.signature] == thinking
    assert [
        p.provider_metadata["anthropic"]["redacted_data"] for p in reasoning if not p.text and not p.signature
    ] == (redacted)
    calls = [b for b in blocks if b["type"] in ("tool_use", "server_tool_use", "mcp_tool_use")]
    got_calls = [p for p in got.content if isinstance(p, ToolCallPart)]
    assert [(p.id, p.name, p.provider_executed) for p in got_calls] == [
        (b["id"], b["name"], b["type"] != "tool_use") for b in calls
    ]
    if not recorded.is_sse:
        assert [p.args for p in got_calls] == [b["input"] for b in calls]
    results = [b for b in blocks if b["type"].endswith("_tool_result")]
    got_results = [p for p in got.content if isinstance(p, ToolResultPart)]
    assert [(p.call_id, p.provider_executed) for p in got_results] == [
        (b["tool_use_id"], True) for b in results
    ]
    # Each text block with citations is the span of the answer text they support: one citation per
    # source (by URL), with the source's words it quotes.
    expected, offset = [], 0
    for block in blocks:
        if block["type"] == "text":
            quotes: dict[str, list[str]] = {}
            for c in block.get("citations") or []:
                said = quotes.setdefault(c.get("url") or c.get("source"), [])
                if c.get("cited_text") and c["cited_text"] not in said:
                    said.append(c["cited_text"])
            end = offset + len(block["text"])
            expected += [(offset, end, [url], "\n\n".join(said) or None) for url, said in quotes.items()]
            offset = end
    numbers = {s.number: s.uri for s in got.sources}
    got_spans = [(c.start, c.end, [numbers[n] for n in c.sources], c.cited_text) for c in got.citations]
    assert got_spans == expected
    if message.get("stop_sequence"):
        assert got.provider_metadata["anthropic"]["stop_sequence"] == message["stop_sequence"]


def test_every_recording_is_replayed() -> None:
    assert len({name for name, _ in EXCHANGES}) == len(corpus.all_files())
