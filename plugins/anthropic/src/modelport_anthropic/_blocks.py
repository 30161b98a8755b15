"""Anthropic content blocks, stop reasons and usage → the contract's parts and counts (pure).

One mapping for both paths: :mod:`._decode` maps a whole ``message`` body with it, :mod:`._stream`
maps the blocks that arrive whole in ``content_block_start`` (redacted thinking, server-tool
results) with it and folds the others' deltas into the same parts.

Canonical forms of what only Anthropic has (sent back unchanged by :mod:`._messages`):

- ``thinking`` → :class:`ReasoningPart` with its ``signature``;
- ``redacted_thinking`` → a :class:`ReasoningPart` with empty text and the opaque ``data`` in
  ``provider_metadata["anthropic"]["redacted_data"]``;
- ``server_tool_use`` / ``mcp_tool_use`` → a provider-executed :class:`ToolCallPart`, and each
  ``*_tool_result`` block → a provider-executed :class:`ToolResultPart` whose output is the block's
  ``content``; both keep the block's own type in ``provider_metadata["anthropic"]["block_type"]``;
- a text block's ``citations`` stay in ``provider_metadata["anthropic"]["citations"]`` as sent.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from modelport.types import (
    CallWarning,
    FinishReason,
    Part,
    ReasoningPart,
    TextPart,
    ToolCallPart,
    ToolResultPart,
    Usage,
)

from ._wire_map import STOP_REASONS

__all__ = [
    "NAMESPACE",
    "STOP_REASONS",
    "block_part",
    "finish_reason",
    "is_code_run",
    "is_result_block",
    "message_metadata",
    "text_metadata",
    "usage",
]

#: The ``provider_metadata`` namespace of this plugin.
NAMESPACE = "anthropic"

#: Blocks that are a call of a tool the provider runs itself.
_SERVER_CALLS = frozenset({"server_tool_use", "mcp_tool_use"})


def finish_reason(raw: str | None, *, answered: bool = False) -> FinishReason:
    """The canonical finish reason of a ``stop_reason`` (an unknown one is ``other``); a turn that
    stopped to call the forced answer tool (``answered``) is a finished answer."""
    if answered and raw == "tool_use":
        return "stop"
    return STOP_REASONS.get(raw or "", "other")


def is_result_block(kind: str) -> bool:
    """Whether a block type is a server tool's result (``web_search_tool_result``, ...)."""
    return kind.endswith("_tool_result")


def is_code_run(kind: str) -> bool:
    """Whether a block type is the result of one code execution run (``code_execution_tool_result``,
    ``bash_code_execution_tool_result``, ``text_editor_code_execution_tool_result``)."""
    return kind.endswith("code_execution_tool_result")


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def usage(raw: Any, *, code_runs: int = 0) -> Usage:
    """Anthropic's counts in the contract's meanings.

    Anthropic's ``input_tokens`` leaves out the cache: the contract's input is
    ``input_tokens + cache_creation_input_tokens + cache_read_input_tokens``, of which the cache
    reads and writes are parts. Thinking is in ``output_tokens`` and not reported apart.
    ``server_tool_calls`` is the web search and fetch requests ``server_tool_use`` reports plus
    ``code_runs``, the answer's code execution result blocks (Anthropic reports no count for them).
    """
    if not isinstance(raw, dict):
        return Usage(server_tool_calls=code_runs or None)
    requests = _server_requests(raw.get("server_tool_use"))
    fresh = _count(raw.get("input_tokens"))
    written = _count(raw.get("cache_creation_input_tokens"))
    read = _count(raw.get("cache_read_input_tokens"))
    output = _count(raw.get("output_tokens"))
    total_input = None if fresh is None else fresh + (written or 0) + (read or 0)
    total = None if total_input is None or output is None else total_input + output
    return Usage(
        input_tokens=total_input,
        output_tokens=output,
        total_tokens=total,
        cache_read_input_tokens=read,
        cache_write_input_tokens=written,
        server_tool_calls=(requests or 0) + code_runs if requests is not None or code_runs else None,
    )


def _server_requests(raw: Any) -> int | None:
    """``server_tool_use``'s request counts (``web_search_requests``, ``web_fetch_requests``, …) summed."""
    if not isinstance(raw, dict):
        return None
    counts = [_count(value) for key, value in raw.items() if key.endswith("_requests")]
    known = [count for count in counts if count is not None]
    return sum(known) if known else None


def message_metadata(message: Mapping[str, Any], raw_usage: Any) -> dict[str, dict[str, Any]]:
    """``Result.provider_metadata``: the matched stop sequence, the container, the server-tool
    counts, the cache-write split and the service tier, when sent."""
    found: dict[str, Any] = {}
    if message.get("stop_sequence"):
        found["stop_sequence"] = message["stop_sequence"]
    if message.get("container"):
        found["container"] = message["container"]
    if isinstance(raw_usage, dict):
        for key in ("server_tool_use", "cache_creation", "service_tier"):
            if raw_usage.get(key):
                found[key] = raw_usage[key]
    return {NAMESPACE: found} if found else {}


def _tool_call_part(block: Mapping[str, Any]) -> tuple[ToolCallPart, CallWarning | None]:
    """A ``tool_use`` (or server call) block as the core builds a call (its arguments arrive decoded)."""
    from modelport.events import tool_call_part  # here: a text answer imports no stream events

    return tool_call_part(block["id"], block["name"], block.get("input") or {})


def _meta(**values: Any) -> dict[str, dict[str, Any]]:
    return {NAMESPACE: values}


def text_metadata(citations: list[Any] | None) -> dict[str, dict[str, Any]] | None:
    """A text part's metadata: its citations as sent."""
    return _meta(citations=citations) if citations else None


def block_part(
    block: Mapping[str, Any], answer_tool: str | None = None
) -> tuple[Part | None, CallWarning | None]:
    """The part of one whole content block (``None`` for a block of no known type); a call of
    ``answer_tool`` (``response_format``'s forced tool) is the answer: its input as JSON text."""
    kind = block.get("type")
    if kind == "tool_use" and answer_tool is not None and block.get("name") == answer_tool:
        return TextPart(text=json.dumps(block.get("input") or {}, ensure_ascii=False)), None
    if kind == "text":
        return TextPart(
            text=block.get("text") or "", provider_metadata=text_metadata(block.get("citations"))
        ), None
    if kind == "thinking":
        return ReasoningPart(text=block.get("thinking") or "", signature=block.get("signature") or None), None
    if kind == "redacted_thinking":
        return ReasoningPart(text="", provider_metadata=_meta(redacted_data=block.get("data"))), None
    if kind == "tool_use":
        return _tool_call_part(block)
    if kind in _SERVER_CALLS:
        part, warning = _tool_call_part(block)
        metadata = _meta(
            block_type=kind, **({"server_name": block["server_name"]} if "server_name" in block else {})
        )
        return part.model_copy(update={"provider_executed": True, "provider_metadata": metadata}), warning
    if isinstance(kind, str) and is_result_block(kind):
        content = block.get("content")
        failed = bool(block.get("is_error")) or (
            isinstance(content, dict) and str(content.get("type", "")).endswith("_error")
        )
        return (
            ToolResultPart(
                call_id=block.get("tool_use_id") or "",
                name=kind.removesuffix("_tool_result"),
                output=content,
                is_error=failed,
                provider_executed=True,
                provider_metadata=_meta(block_type=kind),
            ),
            None,
        )
    return None, None
