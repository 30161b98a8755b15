"""Where Acme's wire (Chat Completions) carries what the mapping reads and writes, as data.

The conformance suite edits a recording at each place (a count, a letter of a text or of a tool
call's arguments, a finish reason), replays it, and checks that the decoded result moves exactly
there; and it edits the request's system and prompt text and checks where the body sent changes.
"""

from __future__ import annotations

from modelport.wire_map import BodyMap, Count, RequestMap, WireMap

FINISH = {"stop": "stop", "length": "length", "tool_calls": "tool-calls", "content_filter": "content-filter"}

_USAGE = (
    Count("input_tokens", "/usage/prompt_tokens"),
    Count("output_tokens", "/usage/completion_tokens"),
    Count("total_tokens", "/usage/total_tokens"),
)
_CALLS = "/choices/0/{}/tool_calls/*/function/"
WIRE_MAP = WireMap(
    response=BodyMap(
        usage=_USAGE,
        finish_reason="/choices/0/finish_reason",
        text="/choices/0/message/content",
        tool_name=_CALLS.format("message") + "name",
        tool_arguments=_CALLS.format("message") + "arguments",
    ),
    stream=BodyMap(
        usage=_USAGE,
        finish_reason="/choices/0/finish_reason",
        text="/choices/0/delta/content",
        tool_name=_CALLS.format("delta") + "name",
        tool_arguments=_CALLS.format("delta") + "arguments",
    ),
    request=RequestMap(system="/messages/*/content", prompt="/messages/*/content"),
    finish_reasons=FINISH,
)
