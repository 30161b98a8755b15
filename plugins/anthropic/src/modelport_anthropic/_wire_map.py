"""Where the Messages API carries what the plugin decodes (:mod:`modelport.wire_map`), for the
conformance suite's metamorphic checks.

Anthropic's ``input_tokens`` leaves the cache out, so every input count also moves the contract's
``input_tokens``, and the plugin computes ``total_tokens``, so every count moves it. Citations are
not mapped: a citation's span is the text block that carries it (its offsets into the *cited
document* are not offsets into the answer).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from modelport.wire_map import BodyMap, Count, RequestMap, WireMap

if TYPE_CHECKING:
    from modelport.types import FinishReason

#: ``stop_reason`` → the canonical finish reason; the raw value is kept as ``raw_finish_reason``.
#: ``pause_turn`` (a server-tool turn paused, resumed by sending the answer back as it is) is
#: ``other``; ``refusal`` is a content filter. The one table: the decoder (``_blocks``) reads it
#: from here, so loading the provider class loads no mapping module.
STOP_REASONS: dict[str, FinishReason] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "tool_use": "tool-calls",
    "refusal": "content-filter",
    "pause_turn": "other",
}
__all__ = ["ANTHROPIC_WIRE_MAP"]


def _usage(*prefixes: str) -> tuple[Count, ...]:
    def at(key: str) -> tuple[str, ...]:
        return tuple(prefix + key for prefix in prefixes)

    return (
        Count("input_tokens", at("input_tokens"), also=("total_tokens",)),
        Count("output_tokens", at("output_tokens"), also=("total_tokens",)),
        Count(
            "cache_read_input_tokens", at("cache_read_input_tokens"), also=("input_tokens", "total_tokens")
        ),
        Count(
            "cache_write_input_tokens",
            at("cache_creation_input_tokens"),
            also=("input_tokens", "total_tokens"),
        ),
    )


_DELTA = "[/type=content_block_delta]/delta/"
_START = "[/type=content_block_start]/content_block/"

ANTHROPIC_WIRE_MAP = WireMap(
    response=BodyMap(
        usage=_usage("/usage/"),
        finish_reason="/stop_reason",
        text="/content/*/text",
        tool_name="/content/*/name",
        tool_arguments="/content/*/input",
    ),
    stream=BodyMap(
        usage=_usage("[/type=message_start]/message/usage/", "[/type=message_delta]/usage/"),
        finish_reason="[/type=message_delta]/delta/stop_reason",
        text=_DELTA + "text",
        tool_name=_START + "name",
        tool_arguments=_DELTA + "partial_json",
    ),
    request=RequestMap(
        system=("/system", "/system/*/text"),
        prompt=("/messages/*/content", "/messages/*/content/*/text"),
    ),
    finish_reasons=STOP_REASONS,
)
