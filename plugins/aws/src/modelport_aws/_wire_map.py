"""Where the Converse wire carries what the mapping reads and writes, as data (for the conformance
suite's edits: a count, a letter of a text or of a tool call's input, a stop reason, and the
request's system and prompt text). Citations are not mapped: a citation's ``start``/``end`` are
offsets into the cited document, not into the answer (its span is the block that carries it).
The stream map is in the kit's event-stream frames (``{"event", "data"}``,
:mod:`modelport.http.event_stream`)."""

from __future__ import annotations

from modelport.wire_map import BodyMap, Count, RequestMap, WireMap

from ._stream import FINISH

_CONTENT = "/output/message/content/*/"


def _usage(at: str) -> tuple[Count, ...]:
    return (
        Count("input_tokens", at + "inputTokens"),
        Count("output_tokens", at + "outputTokens"),
        Count("total_tokens", at + "totalTokens"),
        Count("cache_read_input_tokens", at + "cacheReadInputTokens", also="input_tokens"),
        Count("cache_write_input_tokens", at + "cacheWriteInputTokens", also="input_tokens"),
    )


BEDROCK_WIRE_MAP = WireMap(
    response=BodyMap(
        usage=_usage("/usage/"),
        finish_reason="/stopReason",
        text=(_CONTENT + "text", _CONTENT + "citationsContent/content/*/text"),
        tool_name=_CONTENT + "toolUse/name",
    ),
    stream=BodyMap(
        usage=_usage("/data/usage/"),
        finish_reason="/data/stopReason",
        text="/data/delta/text",
        tool_name="/data/start/toolUse/name",
        tool_arguments="/data/delta/toolUse/input",
    ),
    request=RequestMap(system="/system/*/text", prompt="/messages/*/content/*/text"),
    finish_reasons=FINISH,
)
