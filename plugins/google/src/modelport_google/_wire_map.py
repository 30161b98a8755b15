"""Where the Gemini API carries what the plugin decodes (:mod:`modelport.wire_map`), for the
conformance suite's metamorphic checks. A stream frame is a whole ``GenerateContentResponse``, so
the paths of a frame are those of an answer.

Not mapped: grounding supports' byte offsets. The decoder re-anchors a support on its
``segment.text`` when the offsets disagree with it (the documented repair of Gemini's offsets), so
an offset moved alone is moved back, as designed. ``STOP`` is ``tool-calls`` when the answer calls
a function (the check accepts that for a value that maps to ``stop``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from modelport.wire_map import BodyMap, Count, RequestMap, WireMap

if TYPE_CHECKING:
    from modelport.types import FinishReason

__all__ = ["FINISH_REASONS", "GEMINI_WIRE_MAP"]

#: G13: Gemini's ``finishReason`` → the canonical finish reason (``STOP`` is ``tool-calls`` when the
#: answer calls a function; a value not listed is ``other``). The one table: the decoder
#: (``_decode.finish_reason``) reads it from here, so loading the provider class loads no mapping
#: module.
FINISH_REASONS: dict[str, FinishReason] = {
    "STOP": "stop",
    "MAX_TOKENS": "length",
    "SAFETY": "content-filter",
    "RECITATION": "content-filter",
    "BLOCKLIST": "content-filter",
    "PROHIBITED_CONTENT": "content-filter",
    "SPII": "content-filter",
    "IMAGE_SAFETY": "content-filter",
    "MALFORMED_FUNCTION_CALL": "error",
}

_USAGE = "/usageMetadata/"
_PARTS = "/candidates/0/content/parts/*/"

_ANSWER = BodyMap(
    usage=(
        Count("input_tokens", _USAGE + "promptTokenCount"),
        Count("output_tokens", _USAGE + "candidatesTokenCount"),
        Count("reasoning_tokens", _USAGE + "thoughtsTokenCount", also=("output_tokens",)),
        Count("tool_use_prompt_tokens", _USAGE + "toolUsePromptTokenCount", also=("input_tokens",)),
        Count("cache_read_input_tokens", _USAGE + "cachedContentTokenCount"),
        Count("total_tokens", _USAGE + "totalTokenCount"),
    ),
    finish_reason="/candidates/0/finishReason",
    text=_PARTS + "text",
    tool_name=_PARTS + "functionCall/name",
    tool_arguments=(_PARTS + "functionCall/args", _PARTS + "functionCall/partialArgs/*/stringValue"),
)

GEMINI_WIRE_MAP = WireMap(
    response=_ANSWER,
    stream=_ANSWER,
    request=RequestMap(system="/systemInstruction/parts/*/text", prompt="/contents/*/parts/*/text"),
    finish_reasons=FINISH_REASONS,
)
