"""The Messages API's wire, typed: the ``message`` body and the stream's events, as the API
reference (``/en/api/messages``, "Streaming Messages") and the vendored recordings
(tests/corpus/anthropic) have them.

The stream events are a closed union told apart by ``type``, as the anthropic SDK types them
(``RawMessageStreamEvent``); :meth:`._stream.MessageStream.feed` matches on it, its last arm
``assert_never`` for the type checker and, at run time, the path of an event type newer than
this decoder (skipped, as the API's versioning policy asks). What arrives is untrusted: these
types say what the decoders expect, and the core's decoder guard turns anything else they meet
into a typed error. Only the type checker reads this module (the decoders import it under
``TYPE_CHECKING``), so it costs nothing at run time.
"""

from __future__ import annotations

import sys
from typing import Any, Literal, TypedDict, Union

if sys.version_info >= (3, 11):
    from typing import NotRequired
else:
    from typing_extensions import NotRequired

__all__ = [
    "ContentBlock",
    "ContentBlockDelta",
    "Delta",
    "Frame",
    "Message",
    "MessageDelta",
    "Usage",
]


class Usage(TypedDict, total=False):
    """Token counts: in ``message_start``'s message (input side) and ``message_delta`` (totals)."""

    input_tokens: int | None
    output_tokens: int | None
    cache_creation_input_tokens: int | None
    cache_read_input_tokens: int | None
    server_tool_use: dict[str, Any] | None
    service_tier: str | None


class TextBlock(TypedDict):
    type: Literal["text"]
    text: str
    citations: NotRequired[list[dict[str, Any]] | None]


class ThinkingBlock(TypedDict):
    type: Literal["thinking"]
    thinking: str
    signature: NotRequired[str]


class RedactedThinkingBlock(TypedDict):
    type: Literal["redacted_thinking"]
    data: str


class ToolUseBlock(TypedDict):
    """A call of a client tool (``tool_use``) or one Anthropic runs (``server_tool_use``,
    ``mcp_tool_use``): its ``input`` is ``{}`` in a stream's start, then streams as JSON text."""

    type: Literal["tool_use", "server_tool_use", "mcp_tool_use"]
    id: str
    name: str
    input: dict[str, Any]
    server_name: NotRequired[str]
    caller: NotRequired[dict[str, Any]]


class ResultBlock(TypedDict):
    """A server tool's result (``web_search_tool_result``, ``mcp_tool_result``, ...), sent whole."""

    type: str
    tool_use_id: str
    content: NotRequired[Any]


ContentBlock = Union[TextBlock, ThinkingBlock, RedactedThinkingBlock, ToolUseBlock, ResultBlock]


class Message(TypedDict):
    """The ``message`` body of a non-streamed call (and, without content yet, of ``message_start``)."""

    id: str
    type: Literal["message"]
    role: Literal["assistant"]
    model: str
    content: list[ContentBlock]
    stop_reason: str | None
    stop_sequence: NotRequired[str | None]
    stop_details: NotRequired[dict[str, Any] | None]
    usage: Usage
    container: NotRequired[dict[str, Any] | None]


class TextDelta(TypedDict):
    type: Literal["text_delta"]
    text: str


class ThinkingDelta(TypedDict):
    type: Literal["thinking_delta"]
    thinking: str


class SignatureDelta(TypedDict):
    type: Literal["signature_delta"]
    signature: str


class InputJsonDelta(TypedDict):
    type: Literal["input_json_delta"]
    partial_json: str


class CitationsDelta(TypedDict):
    type: Literal["citations_delta"]
    citation: dict[str, Any]


Delta = Union[TextDelta, ThinkingDelta, SignatureDelta, InputJsonDelta, CitationsDelta]


class MessageStart(TypedDict):
    type: Literal["message_start"]
    message: Message


class ContentBlockStart(TypedDict):
    type: Literal["content_block_start"]
    index: int
    content_block: ContentBlock


class ContentBlockDelta(TypedDict):
    type: Literal["content_block_delta"]
    index: int
    delta: Delta


class ContentBlockStop(TypedDict):
    type: Literal["content_block_stop"]
    index: int


class _StopDelta(TypedDict, total=False):
    stop_reason: str | None
    stop_sequence: str | None
    stop_details: dict[str, Any] | None
    container: dict[str, Any] | None


class MessageDelta(TypedDict):
    """The stop reason, the matched stop sequence and the final usage (cumulative counts)."""

    type: Literal["message_delta"]
    delta: _StopDelta
    usage: Usage


class MessageStop(TypedDict):
    type: Literal["message_stop"]


class Ping(TypedDict):
    type: Literal["ping"]


#: Every event a Messages stream sends to a decoder (``event: error`` is raised by the core's SSE
#: parser before it gets there).
Frame = Union[
    MessageStart, ContentBlockStart, ContentBlockDelta, ContentBlockStop, MessageDelta, MessageStop, Ping
]
