"""What the ``anthropic`` conformance case tables are written with: corpus folder prefixes and the
two ways a case is made from a recording.

A case built from a recording with its request (``recorded``) takes the canonical request the
recorded body means (:func:`anthropic_corpus.canonical`); ``source.note`` lists the top-level
fields where the body the API reference prescribes for it differs from what the recording tool sent
(e.g. ``system`` as one block instead of a string). A body-only recording (``body_only``) pairs a
recorded response with a request written for it (``RECONSTRUCTED``).
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from anthropic_corpus import Exchange, exchange

P = "pydantic__pydantic-ai/tests__models__cassettes__test_anthropic__"
PE = "pydantic__pydantic-ai/tests__cassettes__"
V = "vercel__ai/packages__anthropic__src____fixtures____"
L = "simonw__llm-anthropic/tests__cassettes__test_anthropic__"
F = "charmbracelet__fantasy/providertests__testdata__"
M = "Mirascope__mirascope/"
R = "prism-php__prism/tests__Fixtures__anthropic__"

__all__ = [
    "F",
    "L",
    "M",
    "P",
    "PE",
    "R",
    "RECONSTRUCTED",
    "V",
    "body_only",
    "recorded",
    "trimmed",
    "user_turn",
    "input_in_block_start",
    "without_block_start",
]

RECONSTRUCTED = "body-only recording: the request is reconstructed for this case"


def recorded(
    name: str,
    saved: str,
    description: str,
    *,
    interaction: int = 0,
    features: tuple[str, ...] = (),
    method: str | None = None,
    neutral: bool = False,
) -> dict[str, Any]:
    """A case from a recording that has its request (``neutral``: its server tools asked for as
    the neutral tools of ``modelport.tools``, see :func:`anthropic_corpus.as_neutral`)."""
    return {
        "neutral": neutral,
        "name": name,
        "saved": saved,
        "interaction": interaction,
        "description": description,
        "features": list(features),
        "method": method,
        "exchange": exchange(saved, interaction),
    }


def body_only(
    name: str,
    saved: str,
    description: str,
    response: Exchange,
    method: str,
    model: str,
    request: dict[str, Any],
    *,
    features: tuple[str, ...] = (),
) -> dict[str, Any]:
    """A case from a body-only recording, with the request written for it."""
    response.request = None
    return {
        "name": name,
        "saved": saved,
        "interaction": None,
        "description": description,
        "features": list(features),
        "method": method,
        "model": model,
        "request": request,
        "exchange": response,
        "note": RECONSTRUCTED,
    }


def user_turn(text: str) -> list[dict[str, Any]]:
    """One user message holding ``text`` as a text block, as a body-only case's request says it."""
    return [{"role": "user", "content": [{"type": "text", "text": text}]}]


def _trim(value: Any, keep: int) -> Any:
    if isinstance(value, dict):
        return {
            k: f"{v[:keep]}...<{len(v) - keep} bytes trimmed>"
            if k == "encrypted_content" and isinstance(v, str) and len(v) > keep
            else _trim(v, keep)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_trim(v, keep) for v in value]
    return value


def trimmed(spec: dict[str, Any], *, keep: int = 48) -> dict[str, Any]:
    """``spec`` with its JSON response derived from the recording: every ``encrypted_content`` (the
    opaque search-result state, most of a web-search answer's bytes) cut to its first ``keep``
    characters and a marker naming how many were cut; everything else as recorded. The mapping
    carries the value through unread, so the case checks the same structure at a tenth the size."""
    response: Exchange = spec["exchange"]
    body = json.dumps(_trim(json.loads(response.body), keep), ensure_ascii=False)
    note = f"derived: each encrypted_content cut to {keep} characters (tools/anthropic_case_kit.trimmed)"
    return {**spec, "exchange": replace(response, body=body), "note": note}


def without_block_start(spec: dict[str, Any], kind: str) -> dict[str, Any]:
    """``spec`` with the ``content_block_start`` event of its first ``kind`` block (``text``,
    ``tool_use``) cut from the recorded stream, everything else as recorded: a stream whose block
    start was lost, which the decoder must still read (a text delta opens the block it writes to)
    or refuse with a typed error (a tool's arguments with no tool)."""
    response: Exchange = spec["exchange"]
    events = response.body.split("\n\n")
    found = next(
        i
        for i, event in enumerate(events)
        if event.startswith("event: content_block_start\n")
        and json.loads(event.split("data: ", 1)[1])["content_block"]["type"] == kind
    )
    body = "\n\n".join(events[:found] + events[found + 1 :])
    note = (
        f"derived: the content_block_start event of the first {kind} block cut "
        "(tools/anthropic_case_kit.without_block_start)"
    )
    return {**spec, "exchange": replace(response, body=body), "note": note}


def input_in_block_start(spec: dict[str, Any]) -> dict[str, Any]:
    """``spec`` with the first ``tool_use`` block of its recorded stream carrying its whole input in
    ``content_block_start`` (the ``partial_json`` of its ``input_json_delta`` events joined and
    parsed) and those delta events cut, everything else as recorded: a call whose arguments arrive
    whole, with no deltas, as a unary body has them."""
    response: Exchange = spec["exchange"]
    events = response.body.split("\n\n")
    data = [json.loads(e.split("data: ", 1)[1]) if "data: " in e else None for e in events]
    found = next(
        i
        for i, d in enumerate(data)
        if d and d["type"] == "content_block_start" and d["content_block"]["type"] == "tool_use"
    )
    index = data[found]["index"]
    deltas = [
        i
        for i, d in enumerate(data)
        if d
        and d["type"] == "content_block_delta"
        and d["index"] == index
        and d["delta"]["type"] == "input_json_delta"
    ]
    whole = json.loads("".join(data[i]["delta"]["partial_json"] for i in deltas))
    start = {**data[found], "content_block": {**data[found]["content_block"], "input": whole}}
    events[found] = "event: content_block_start\ndata: " + json.dumps(start, separators=(",", ":"))
    body = "\n\n".join(e for i, e in enumerate(events) if i not in deltas)
    note = (
        "derived: the first tool_use block's input given whole in its content_block_start, its "
        "input_json_delta events cut (tools/anthropic_case_kit.input_in_block_start)"
    )
    return {**spec, "exchange": replace(response, body=body), "note": note}
