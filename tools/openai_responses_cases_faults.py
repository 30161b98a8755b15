# ruff: noqa: E501  (a data table: long descriptions and corpus file names read better unwrapped)
"""The ``openai-responses`` cases with a recorded answer edited where no recording has the fault:
a citation whose span is past its text, a stream whose ``response.created`` and
``response.in_progress`` events did not arrive, one with an item ended twice, and answers cut
short for a reason this version does not know or for none (each a MOCK edit, marked in its note)."""

from __future__ import annotations

import json
from typing import Any

from openai_responses_case_data import SAME, M, V
from openai_responses_corpus import raw_json, vcr

__all__ = ["fault_cases"]

SEARCH = V + "openai-web-search-tool.1.json"
MAX_TOKENS = M + "output__cassettes__test_max_tokens__openai_gpt_4o_responses__stream.yaml"


def _span_past_text() -> tuple[int, str, str]:
    """MOCK: the recorded web search answer with its last ``url_citation`` ending five characters
    past the end of its text (the other annotations as recorded)."""
    status, kind, text = raw_json(SEARCH)
    body = json.loads(text)
    (message,) = [item for item in body["output"] if item["type"] == "message"]
    content = message["content"][0]
    content["annotations"][-1]["end_index"] = len(content["text"]) + 5
    return status, kind, json.dumps(body, ensure_ascii=False)


def _without_created() -> tuple[int, str, str]:
    """MOCK: the recorded stream without its first two events (``response.created`` and
    ``response.in_progress``), as a proxy that drops them sends it."""
    status, kind, text = vcr(MAX_TOKENS)
    events = [event for event in text.split("\n\n") if event.strip()]
    dropped = [e for e in events if e.startswith(("event: response.created", "event: response.in_progress"))]
    assert len(dropped) == 2, dropped
    return status, kind, "".join(event + "\n\n" for event in events if event not in dropped)


def _item_done_twice() -> tuple[int, str, str]:
    """MOCK: the recorded stream with its message's ``response.output_item.done`` event sent twice
    in a row (as a proxy that repeats an event sends it)."""
    status, kind, text = vcr(MAX_TOKENS)
    events = [event for event in text.split("\n\n") if event.strip()]
    (done,) = [e for e in events if e.startswith("event: response.output_item.done")]
    at = events.index(done)
    return status, kind, "".join(event + "\n\n" for event in [*events[: at + 1], done, *events[at + 1 :]])


def _incomplete_because(reason: str | None) -> tuple[int, str, str]:
    """MOCK: the recorded stream with its ``response.incomplete`` event's
    ``incomplete_details.reason`` (``max_output_tokens``) replaced by ``reason`` (``None``: no
    details at all)."""
    status, kind, text = vcr(MAX_TOKENS)
    events = [event for event in text.split("\n\n") if event.strip()]
    (end,) = [e for e in events if e.startswith("event: response.incomplete")]
    head, data = end.split("data: ", 1)
    frame = json.loads(data)
    assert frame["response"]["incomplete_details"] == {"reason": "max_output_tokens"}
    frame["response"]["incomplete_details"] = None if reason is None else {"reason": reason}
    edited = head + "data: " + json.dumps(frame, separators=(",", ":"))
    return status, kind, "".join((edited if e is end else e) + "\n\n" for e in events)


def fault_cases() -> list[dict[str, Any]]:
    return [
        {
            "name": "stream-incomplete-unknown-reason-mock",
            "description": "MOCK reason: response.incomplete with a reason this version does not know (max_turns): finish other, never stop, the raw reason kept.",
            "method": "stream",
            "model": "gpt-4o",
            "request": {"prompt": "List all U.S. states.", "max_output_tokens": 50},
            "response": _incomplete_because("max_turns"),
            "source": MAX_TOKENS,
            "note": "MOCK answer: the recorded stream with its incomplete_details.reason max_output_tokens replaced by max_turns, a reason no recording has (the API documents max_output_tokens and content_filter); the canonical request reproduces the recorded one",
        },
        {
            "name": "stream-incomplete-without-reason-mock",
            "description": "MOCK reason: response.incomplete with no incomplete_details: finish other, never stop, the raw finish reason the status incomplete.",
            "method": "stream",
            "model": "gpt-4o",
            "request": {"prompt": "List all U.S. states.", "max_output_tokens": 50},
            "response": _incomplete_because(None),
            "source": MAX_TOKENS,
            "note": "MOCK answer: the recorded stream with its incomplete_details (reason max_output_tokens) set to null, as no recording has it; the canonical request reproduces the recorded one",
        },
        {
            "name": "generate-citation-span-past-text-mock",
            "description": "MOCK span: the web search answer's last url_citation ends past its text: that citation is left out with a skipped-citation warning, the other spans and sources as recorded.",
            "method": "generate",
            "model": "gpt-5-mini",
            "features": ["provider_tools", "reasoning"],
            "request": {
                "prompt": "Hello",
                "tools": [
                    {
                        "type": "provider",
                        "id": "openai.web_search",
                        "args": {
                            "search_context_size": "medium",
                            "user_location": {"type": "approximate", "country": "US"},
                        },
                    }
                ],
                "tool_choice": "auto",
                "reasoning": {"effort": "medium"},
            },
            "response": _span_past_text(),
            "source": SEARCH,
            "note": "body-only recording; MOCK edit: the last url_citation's end_index is set five characters past its text (no recording has such a span); canonical request as for generate-web-search",
        },
        {
            "name": "stream-without-created-event-mock",
            "description": "MOCK stream: the max_output_tokens stream without response.created and response.in_progress: the response id and model come from the terminal response.incomplete, finish length.",
            "method": "stream",
            "model": "gpt-4o",
            "request": {"prompt": "List all U.S. states.", "max_output_tokens": 50},
            "response": _without_created(),
            "source": MAX_TOKENS,
            "note": SAME
            + "; MOCK edit: its first two events (response.created, response.in_progress) are left out (no recording lacks them)",
        },
        {
            "name": "stream-output-item-done-twice-mock",
            "description": "MOCK stream: the max_output_tokens stream with its message's output_item.done sent twice: the repeat is ignored with a warning on stream, the text as recorded.",
            "method": "stream",
            "model": "gpt-4o",
            "request": {"prompt": "List all U.S. states.", "max_output_tokens": 50},
            "response": _item_done_twice(),
            "source": MAX_TOKENS,
            "note": SAME
            + "; MOCK edit: the message's response.output_item.done event is repeated once right after itself (no recording repeats an event)",
        },
    ]
