"""Where Chat Completions and Responses carry what the plugin decodes (:mod:`modelport.wire_map`),
for the conformance suite's metamorphic checks.

Chat Completions reports the counts whole (``prompt_tokens`` holds the cache, ``completion_tokens``
the reasoning) except xAI's, whose reasoning is beside the completion (:data:`XAI_WIRE_MAP`); cache
reads are wherever the server puts them (``prompt_tokens_details``, Together's top-level
``cached_tokens``, DeepSeek's ``prompt_cache_hit_tokens``), Groq's counts may sit under ``x_groq``.
Responses' finish reason depends on the status and the calls; only ``incomplete_details.reason`` is
mapped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from modelport.wire_map import BodyMap, Count, RequestMap, Span, WireMap

if TYPE_CHECKING:
    from modelport.types import FinishReason

__all__ = ["CHAT_WIRE_MAP", "FINISH", "INCOMPLETE", "RESPONSES_WIRE_MAP", "XAI_WIRE_MAP"]

#: Chat Completions' ``finish_reason`` → the canonical finish reason (the legacy ``function_call``
#: is a tool call too). The one table: the decoder (``_decode``) reads it from here, so loading the
#: provider class loads no mapping module.
FINISH: dict[str, FinishReason] = {
    "stop": "stop",
    "length": "length",
    "tool_calls": "tool-calls",
    "function_call": "tool-calls",
    "content_filter": "content-filter",
}
#: Responses' ``incomplete_details.reason`` → the finish reason of an answer cut short (any other
#: reason, or none, is ``other``). The one table: the decoder (``_responses_stream``) reads it.
INCOMPLETE: dict[str, FinishReason] = {"max_output_tokens": "length", "content_filter": "content-filter"}


def _chat_usage(*, reasoning_beside: bool = False) -> tuple[Count, ...]:
    def at(*keys: str) -> tuple[str, ...]:
        return tuple(f"{root}{key}" for key in keys for root in ("/usage/", "/x_groq/usage/"))

    return (
        Count("input_tokens", at("prompt_tokens")),
        Count("output_tokens", at("completion_tokens")),
        Count("total_tokens", at("total_tokens")),
        Count(
            "cache_read_input_tokens",
            at("prompt_tokens_details/cached_tokens", "cached_tokens", "prompt_cache_hit_tokens"),
        ),
        Count("cache_write_input_tokens", at("prompt_tokens_details/cache_write_tokens")),
        Count(
            "reasoning_tokens",
            at("completion_tokens_details/reasoning_tokens"),
            also=("output_tokens",) if reasoning_beside else (),
        ),
    )


def _chat(*, reasoning_beside: bool = False) -> WireMap:
    usage = _chat_usage(reasoning_beside=reasoning_beside)
    return WireMap(
        response=BodyMap(
            usage=usage,
            finish_reason="/choices/0/finish_reason",
            text="/choices/0/message/content",
            # the legacy ``function_call`` (one call) is decoded as a tool call too
            tool_name=(
                "/choices/0/message/tool_calls/*/function/name",
                "/choices/0/message/function_call/name",
            ),
            tool_arguments=(
                "/choices/0/message/tool_calls/*/function/arguments",
                "/choices/0/message/function_call/arguments",
            ),
        ),
        stream=BodyMap(
            usage=usage,
            finish_reason="/choices/0/finish_reason",
            text="/choices/0/delta/content",
            tool_name="/choices/0/delta/tool_calls/*/function/name",
            tool_arguments="/choices/0/delta/tool_calls/*/function/arguments",
        ),
        request=RequestMap(
            system=("/messages/*/content", "/messages/*/content/*/text"),
            prompt=("/messages/*/content", "/messages/*/content/*/text"),
        ),
        finish_reasons=FINISH,
    )


CHAT_WIRE_MAP = _chat()
XAI_WIRE_MAP = _chat(reasoning_beside=True)

#: The events a stream ends with, each carrying the whole response.
_ENDS = tuple(f"[/type=response.{end}]/response" for end in ("completed", "incomplete", "failed"))


def _responses_usage(*prefixes: str) -> tuple[Count, ...]:
    def at(key: str) -> tuple[str, ...]:
        return tuple(f"{prefix}/usage/{key}" for prefix in prefixes)

    return (
        Count("input_tokens", at("input_tokens")),
        Count("output_tokens", at("output_tokens")),
        Count("total_tokens", at("total_tokens")),
        Count("cache_read_input_tokens", at("input_tokens_details/cached_tokens")),
        Count("reasoning_tokens", at("output_tokens_details/reasoning_tokens")),
    )


_ANNOTATIONS = "/output/*/content/*/annotations/*/"
_ADDED = "[/type=response.output_item.done]/item/content/*/annotations/*/"


def _spans(prefix: str) -> tuple[Span, ...]:
    """A URL or container file citation's span, and a file citation's (empty) one at ``index``."""
    return (Span(prefix + "start_index", prefix + "end_index"), Span(prefix + "index", prefix + "index"))


RESPONSES_WIRE_MAP = WireMap(
    response=BodyMap(
        usage=_responses_usage(""),
        finish_reason=("/incomplete_details/reason", "/status"),
        text=("/output/*/content/*/text", "/output/*/content/*/refusal"),
        tool_name="/output/*/name",
        tool_arguments="/output/*/arguments",
        citations=_spans(_ANNOTATIONS),
    ),
    stream=BodyMap(
        usage=_responses_usage(*_ENDS),
        finish_reason=tuple(
            p + suffix for suffix in ("/incomplete_details/reason", "/status") for p in _ENDS
        ),
        text=("[/type=response.output_text.delta]/delta", "[/type=response.refusal.delta]/delta"),
        # a function call's name comes with its added item; a built-in (MCP) call's with its done item
        tool_name=(
            "[/type=response.output_item.added][/item/type=function_call]/item/name",
            "[/type=response.output_item.done][/item/type=mcp_call]/item/name",
        ),
        tool_arguments="[/type=response.function_call_arguments.delta]/delta",
        citations=_spans(_ADDED),
    ),
    request=RequestMap(
        system=("/instructions", "/input/*/content", "/input/*/content/*/text"),
        prompt=("/input", "/input/*/content", "/input/*/content/*/text"),
    ),
    finish_reasons=INCOMPLETE,
)
