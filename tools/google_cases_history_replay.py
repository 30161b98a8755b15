"""Google conformance cases for replayed turns the caller changed or another model produced: a
recorded turn (pydantic-ai's signed call and thinking recordings) sent back with one thing changed:
its origin another Gemini model (its signatures are not valid here: Google's stand-in signature on
the call), or its thoughts edited, added or split (the edited thoughts go unsigned, the other raw
parts keep their signatures). Each ``source.note`` names the change; the response is the recorded
answer to the recorded second request.
"""

from __future__ import annotations

import json
from typing import Any

from gemini_corpus import mock_json, vcr_interaction, wire
from google_case_data import ADAPTED, COUNTRY_TOOL, DUMMY_TOOL, P
from google_cases_requests import SIGNED, _signed_call_turn

from modelport_google._replay import FOREIGN_SIGNATURE
from modelport_google._stream import merge_frames

THINKING = "tests__models__cassettes__test_google__test_google_model_thinking_part.yaml"
SIGNATURE_DOCS = "https://ai.google.dev/gemini-api/docs/thought-signatures"
COUNTRY_PROMPT = "What is the capital of the user country? Call the tool"
MEXICO = {
    "type": "tool-result",
    "call_id": "call-0",
    "name": "get_country",
    "output": {"return_value": "Mexico"},
}
ANSWERED = {
    "role": "user",
    "parts": [{"functionResponse": {"name": "get_country", "response": MEXICO["output"]}}],
}


def _thinking_turn() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The recorded first answer of the thinking recording: its raw parts (a thought, a signed
    text), and the assistant message ``Result.message`` returns for it."""
    _, (_, _, text) = vcr_interaction(P + THINKING, 0)
    parts = json.loads(text)["candidates"][0]["content"]["parts"]
    message = {
        "role": "assistant",
        "content": [
            {"type": "reasoning", "text": parts[0]["text"]},
            {
                "type": "text",
                "text": parts[1]["text"],
                "provider_metadata": {"google": {"thoughtSignature": parts[1]["thoughtSignature"]}},
            },
        ],
        "provider_metadata": {"google": {"parts": parts}},
        "origin": {"provider": "google", "api": "generate-content", "model": "gemini-3-pro-preview"},
    }
    return parts, message


def _thinking_case(name: str, description: str, thoughts: list[str], change: str) -> dict[str, Any]:
    """The thinking recording's second request with the replayed turn's thought(s) ``thoughts``."""
    parts, message = _thinking_turn()
    message["content"] = [{"type": "reasoning", "text": t} for t in thoughts] + message["content"][1:]
    body, _ = vcr_interaction(P + THINKING, 1)
    first, second = (c["parts"][0]["text"] for c in (body["contents"][0], body["contents"][2]))
    request = {
        "messages": [
            {"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": first},
            message,
            {"role": "user", "content": second},
        ],
        "tools": [DUMMY_TOOL],
    }
    sent = wire({**request, "messages": [m for m in request["messages"] if m["role"] != "assistant"]})
    sent["contents"].insert(
        1, {"role": "model", "parts": [*({"text": t, "thought": True} for t in thoughts), parts[1]]}
    )
    return {
        "name": name,
        "description": description,
        "method": "generate",
        "model": "gemini-3-pro-preview",
        "requirements": ["G5"],
        "request": request,
        "wire": sent,
        "response": vcr_interaction(P + THINKING, 1)[1],
        "source": P + THINKING,
        "source_args": {
            "interaction": 1,
            "note": f"{ADAPTED}; the replayed turn is the recorded first answer, {change}",
        },
    }


def _signed_case(
    name: str,
    description: str,
    turn: dict[str, Any],
    model_parts: list[Any],
    change: str,
    *,
    whole: bool = False,
) -> dict[str, Any]:
    """The signed call recording's second request (streamed), its replayed turn ``turn``; ``whole``:
    sent to ``:generateContent``, answered by the recorded stream merged into one body."""
    request = {
        "messages": [
            {"role": "user", "content": COUNTRY_PROMPT},
            turn,
            {"role": "tool", "content": [MEXICO]},
        ],
        "tools": [COUNTRY_TOOL],
    }
    sent = wire({"prompt": COUNTRY_PROMPT, "tools": [COUNTRY_TOOL]})
    sent["contents"] += [{"role": "model", "parts": model_parts}, ANSWERED]
    return {
        "name": name,
        "description": description,
        "method": "generate" if whole else "stream",
        "model": "gemini-3-pro-preview",
        "requirements": ["G5"],
        "features": ["function_tools"],
        "request": request,
        "wire": sent,
        "response": _merged(vcr_interaction(P + SIGNED, 1)[1])
        if whole
        else vcr_interaction(P + SIGNED, 1)[1],
        "source": P + SIGNED,
        "source_args": {
            "interaction": 1,
            "note": f"{ADAPTED}; the replayed turn is the recorded one, {change}",
        },
    }


def _merged(recorded: tuple[int, str, str]) -> tuple[int, str, str]:
    """A recorded stream as the one ``generateContent`` body its frames merge into."""
    frames = [json.loads(line[6:]) for line in recorded[2].splitlines() if line.startswith("data: ")]
    return mock_json(merge_frames(frames))


def replay_edit_cases() -> list[dict[str, Any]]:
    parts, _ = _thinking_turn()
    recorded = parts[0]["text"]
    other = _signed_call_turn()
    other["origin"] = {**other["origin"], "model": "gemini-2.5-pro"}
    call = {"functionCall": {"name": "get_country", "args": {}}, "thoughtSignature": FOREIGN_SIGNATURE}
    added = _signed_call_turn()
    thought = "The user's country is unknown: call get_country first."  # the caller's addition
    added["content"] = [{"type": "reasoning", "text": thought}, *added["content"]]
    raw = added["provider_metadata"]["google"]["parts"]
    return [
        _signed_case(
            "generate-history-from-other-gemini-model",
            "The recorded signed call turn sent back as another Gemini model's (origin gemini-2.5-pro) "
            "to gemini-3-pro-preview: its raw parts and signature dropped, the call sent with Google's "
            "stand-in signature (skip_thought_signature_validator) and no id; a warning says so.",
            other,
            [call],
            f"its origin model changed to gemini-2.5-pro (the stand-in signature: {SIGNATURE_DOCS}); sent "
            "to :generateContent, the recorded streamed answer merged into one body",
            whole=True,
        ),
        _signed_case(
            "stream-history-thought-added-to-signed-call",
            "The recorded signed call turn (no thoughts) sent back with a reasoning part the caller "
            "added: the thought goes first, unsigned, and the raw call keeps its signature.",
            added,
            [{"text": thought, "thought": True}, *raw],
            "a reasoning part (invented) put before its call",
        ),
        _thinking_case(
            "generate-history-thought-edited",
            "The recorded thinking turn sent back with its one thought edited: the edited thought goes "
            "unsigned in place of the raw one, the signed text part as recorded.",
            [recorded.replace("Alright, let's break this down.", "Let's break this down.")],
            "its thought's text edited",
        ),
        _thinking_case(
            "generate-history-thought-split",
            "The recorded thinking turn sent back with its one thought split in two: both go unsigned "
            "where the raw thought stood, the signed text part as recorded.",
            list(recorded.split("\n\n", 1)),
            "its thought split in two at its first blank line",
        ),
    ]


__all__ = ["replay_edit_cases"]
