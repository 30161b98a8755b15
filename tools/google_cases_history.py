"""Google conformance cases for histories sent back without their raw parts: the assistant turn as
a client that keeps only the neutral content stores it (no ``provider_metadata.google.parts``, so
nothing is replayed byte for byte), each part with its own thought signature. Every case is the
second request of a pydantic-ai recording that did exactly this: the recorded model turn is what
the neutral parts must be sent as, and the recorded answer is the response.
"""

from __future__ import annotations

import json
from typing import Any

from gemini_corpus import vcr_interaction, wire
from google_case_data import ADAPTED, CODE, COUNTRY_TOOL, DUMMY_TOOL, P

THINKING = "tests__models__cassettes__test_google__test_google_model_thinking_part.yaml"
CODE_RUN = "tests__models__google__cassettes__test_code_execution__test_code_execution.yaml"
SIGNED = "tests__models__cassettes__test_google__test_google_streaming_tool_call_thought_signature.yaml"
NEUTRAL = (
    "the assistant turn is the neutral content of the recorded model turn (no raw parts), each part "
    "with the thoughtSignature the recording sent back with it"
)


def _sent(saved: str) -> list[dict[str, Any]]:
    """The contents of the recording's second request (the history pydantic-ai sent back)."""
    body, _ = vcr_interaction(P + saved, 1)
    contents: list[dict[str, Any]] = body["contents"]
    return contents


def _signed(part: dict[str, Any]) -> dict[str, Any]:
    return {"google": {"thoughtSignature": part["thoughtSignature"]}} if "thoughtSignature" in part else {}


def _neutral(part: dict[str, Any]) -> dict[str, Any]:
    """A recorded model part as the neutral part it was decoded to (its signature in its metadata)."""
    meta = _signed(part)
    extra = {"provider_metadata": meta} if meta else {}
    if part.get("thought"):
        return {"type": "reasoning", "text": part["text"]}
    if "text" in part:
        return {"type": "text", "text": part["text"], **extra}
    if "executableCode" in part:
        code = part["executableCode"]
        call = {"type": "tool-call", "id": code["id"], "name": "code_execution", "args": dict(code)}
        return {**call, "provider_executed": True, **extra}
    if "codeExecutionResult" in part:
        result = part["codeExecutionResult"]
        return {
            "type": "tool-result",
            "call_id": result["id"],
            "name": "code_execution",
            "output": dict(result),
            "provider_executed": True,
            **extra,
        }
    call = part["functionCall"]
    return {"type": "tool-call", "id": call["id"], "name": call["name"], "args": dict(call["args"]), **extra}


def _model(saved: str) -> str:
    """The model that answered the recording's second request (its stream says it in every frame)."""
    _, (_, _, text) = vcr_interaction(P + saved, 1)
    found = json.loads(text if saved != SIGNED else text.split("data: ", 1)[1].split("\n", 1)[0])
    model: str = found["modelVersion"]
    return model


def _history_case(
    name: str, saved: str, description: str, request: dict[str, Any], model_turn: list[dict[str, Any]]
) -> dict[str, Any]:
    """The recording's second request: ``request``'s messages with the neutral assistant turn put
    second; on the wire, that turn is ``model_turn`` (the recorded one, adapted where noted)."""
    contents = _sent(saved)
    assistant = {"role": "assistant", "content": [_neutral(p) for p in contents[1]["parts"]]}
    messages = list(request["messages"])
    messages.insert(1 + sum(m["role"] == "system" for m in messages), assistant)
    full = {**request, "messages": messages}
    body = wire({**request, "messages": [m for m in messages if m["role"] != "assistant"]})
    body["contents"].insert(1, {"role": "model", "parts": model_turn})
    if messages[-1]["role"] == "tool":  # the oracle's tool turn: the result as the recording sent it
        body["contents"][-1] = {"role": "user", "parts": contents[2]["parts"]}
    return {
        "name": name,
        "description": description,
        "method": "stream" if saved == SIGNED else "generate",
        "model": _model(saved),
        "requirements": ["G5"],
        "request": full,
        "wire": body,
        "response": vcr_interaction(P + saved, 1)[1],
        "source": P + saved,
        "source_args": {"interaction": 1, "note": f"{ADAPTED}; {NEUTRAL}"},
    }


def history_cases() -> list[dict[str, Any]]:
    thinking = _sent(THINKING)
    code = _sent(CODE_RUN)
    signed = _sent(SIGNED)
    unsent_ids = [
        {"functionCall": {k: v for k, v in p["functionCall"].items() if k != "id"}, **_wire_sig(p)}
        for p in signed[1]["parts"]
    ]
    signed_case = _history_case(
        "stream-neutral-history-signed-call",
        SIGNED,
        "A neutral history (no raw parts) whose call carries its thought signature in its metadata: "
        "the functionCall goes back signed, without the client's own call id (not a Gemini one), and "
        "the functionResponse after it.",
        {
            "messages": [
                {"role": "user", "content": signed[0]["parts"][0]["text"]},
                {
                    "role": "tool",
                    "content": [
                        {
                            "type": "tool-result",
                            "call_id": signed[1]["parts"][0]["functionCall"]["id"],
                            "name": "get_country",
                            "output": signed[2]["parts"][0]["functionResponse"]["response"],
                        }
                    ],
                },
            ],
            "tools": [COUNTRY_TOOL],
        },
        unsent_ids,
    )
    signed_case["wire"]["contents"][-1] = {
        "role": "user",
        "parts": [
            {"functionResponse": {k: v for k, v in p["functionResponse"].items() if k != "id"}}
            for p in signed[2]["parts"]
        ],
    }
    signed_case["features"] = ["function_tools"]
    signed_case["source_args"]["note"] += "; the client's call id (pyd_ai_...) is not sent (not Gemini's)"
    return [
        _history_case(
            "generate-neutral-history-thought-and-signed-text",
            THINKING,
            "A neutral history (no raw parts): the reasoning part goes back as a thought part, the text "
            "with the thought signature in its metadata as a signed text part, as pydantic-ai sent it.",
            {
                "messages": [
                    {"role": "system", "content": "You are a helpful assistant."},
                    {"role": "user", "content": thinking[0]["parts"][0]["text"]},
                    {"role": "user", "content": thinking[2]["parts"][0]["text"]},
                ],
                "tools": [DUMMY_TOOL],
            },
            thinking[1]["parts"],
        ),
        _history_case(
            "generate-neutral-history-code-execution",
            CODE_RUN,
            "A neutral history (no raw parts) of two server-side code runs: each provider-executed "
            "call goes back as a signed executableCode part, each result as its codeExecutionResult, "
            "the signed answer text last, as pydantic-ai sent them.",
            {
                "messages": [
                    {"role": "system", "content": "You are a helpful chatbot."},
                    {"role": "user", "content": code[0]["parts"][0]["text"]},
                    {"role": "user", "content": code[2]["parts"][0]["text"]},
                ],
                "tools": [CODE],
            },
            code[1]["parts"],
        )
        | {"features": ["provider_tools"]},
        signed_case,
    ]


def _wire_sig(part: dict[str, Any]) -> dict[str, Any]:
    return {"thoughtSignature": part["thoughtSignature"]} if "thoughtSignature" in part else {}


__all__ = ["history_cases"]
