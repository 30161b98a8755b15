"""Google conformance cases at the edges of calls and tool results: a replayed turn whose calls
no longer match its raw parts (refused before any I/O), an edited signed call that carries an id,
a streamed call the server answers in the same turn, and a one-value ``embedContent``. All four
are MOCK (the refused one has no exchange; the corpus has no recording of the other three), and
each ``source.note`` says which recorded values they reuse.
"""

from __future__ import annotations

import json
from typing import Any

from gemini_corpus import CORPUS, SSE_TYPE, documented, mock_json, raw_json
from google_case_data import NO_RECORDING, F, V
from google_cases_calls import FUNCTION_DOCS, PARALLEL, SUM_TOOL
from google_cases_refused import _refused


def _calls_not_matching_case() -> dict[str, Any]:
    """The three recorded parallel calls as raw parts, the message's content holding two of them."""
    _, _, text = raw_json(F + PARALLEL)
    parts = json.loads(text)["candidates"][0]["content"]["parts"]
    calls = [
        {"type": "tool-call", "id": f"call-{i}", "name": "sum", "args": dict(p["functionCall"]["args"])}
        for i, p in enumerate(parts)
    ][:2]
    results = [
        {
            "type": "tool-result",
            "call_id": c["id"],
            "name": "sum",
            "output": {"result": c["args"]["x"] + c["args"]["y"]},
        }
        for c in calls
    ]
    return {
        "name": "refused-replay-calls-not-matching-parts",
        "description": "An assistant turn whose content keeps two of the three recorded calls while its "
        "provider_metadata still holds all three raw parts: a typed InvalidRequestError, nothing sent.",
        "method": "generate",
        "model": "gemini-2.0-flash",
        "requirements": ["G5"],
        "features": ["function_tools"],
        "request": {
            "messages": [
                {"role": "user", "content": "Add 2 and 1, 4 and 3, 6 and 5 with the sum tool."},
                {
                    "role": "assistant",
                    "content": calls,
                    "provider_metadata": {"google": {"parts": parts}},
                    "origin": {"provider": "google", "api": "generate-content", "model": "gemini-2.0-flash"},
                },
                {"role": "tool", "content": results},
            ],
            "tools": [SUM_TOOL],
        },
        "response": None,
        "source": _refused(
            "the raw parts replayed with their signatures must be the message's own; the calls are the "
            f"recorded ones of {PARALLEL}, the last left out of the content",
            FUNCTION_DOCS,
        ),
    }


TEXT_THEN_CALL = V + "issue-10781.1.chunks.txt"
WEATHER = {
    "type": "function",
    "name": "get_weather",
    "description": "The weather in a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}


def _edited_call_with_id_case() -> dict[str, Any]:
    """The recorded Gemini 3.1 turn (a text, then a signed call with an id) sent back with the
    call's arguments edited: the call goes unsigned in place of its raw part, keeping its id."""
    frames = [
        json.loads(line)
        for line in (CORPUS / TEXT_THEN_CALL).read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    parts = [
        p for f in frames for c in f.get("candidates", []) for p in (c.get("content") or {}).get("parts", [])
    ]
    raw = [p for p in parts if p.get("text") or "functionCall" in p]
    assert [list(p) for p in raw] == [["text"], ["functionCall", "thoughtSignature"]], raw
    call = raw[1]["functionCall"]
    assert call["id"] == "g1bmv6il" and call["args"] == {"city": "San Francisco"}
    prompt = "What is the weather in San Francisco?"
    edited = {"city": "Paris"}  # the caller's edit
    message = {
        "role": "assistant",
        "content": [
            {"type": "text", "text": raw[0]["text"]},
            {
                "type": "tool-call",
                "id": call["id"],
                "name": call["name"],
                "args": edited,
                "provider_metadata": {"google": {"thoughtSignature": raw[1]["thoughtSignature"]}},
            },
        ],
        "provider_metadata": {"google": {"parts": raw}},
        "origin": {"provider": "google", "api": "generate-content", "model": "gemini-3.1-pro-preview"},
    }
    output = {"temperature": "18 C"}
    result = {"type": "tool-result", "call_id": call["id"], "name": call["name"], "output": output}
    answer = "It is 18 C in Paris."
    return {
        "name": "generate-edited-call-with-id-history",
        "description": "The recorded Gemini 3.1 turn (a text, then a signed call with an id) sent back "
        "with the call's arguments edited: the call goes unsigned in place of its raw part with its "
        "id kept, and its functionResponse names the same id.",
        "method": "generate",
        "model": "gemini-3.1-pro-preview",
        "requirements": ["G5"],
        "features": ["function_tools"],
        "request": {
            "messages": [{"role": "user", "content": prompt}, message, {"role": "tool", "content": [result]}],
            "tools": [WEATHER],
        },
        "wire": {
            "contents": [
                {"role": "user", "parts": [{"text": prompt}]},
                {
                    "role": "model",
                    "parts": [
                        raw[0],
                        {"functionCall": {"name": call["name"], "args": edited, "id": call["id"]}},
                    ],
                },
                {
                    "role": "user",
                    "parts": [
                        {"functionResponse": {"name": call["name"], "response": output, "id": call["id"]}}
                    ],
                },
            ],
            "tools": [
                {
                    "functionDeclarations": [
                        {
                            "name": WEATHER["name"],
                            "description": WEATHER["description"],
                            "parametersJsonSchema": WEATHER["parameters"],
                        }
                    ]
                }
            ],
        },
        "response": mock_json(
            {
                "candidates": [
                    {
                        "content": {"role": "model", "parts": [{"text": answer}]},
                        "finishReason": "STOP",
                        "index": 0,
                    }
                ],
                "usageMetadata": {"promptTokenCount": 41, "candidatesTokenCount": 9, "totalTokenCount": 50},
                "modelVersion": "gemini-3.1-pro-preview",
                "responseId": "mock-edited-call-with-id-1",
            }
        ),
        "source": documented(
            NO_RECORDING.format(what="a history whose signed call, with an id, was edited")
            + f"; the replayed turn is the recorded one of vercel/ai {TEXT_THEN_CALL.split('/')[-1]} "
            "(commit 1eb691e138c6bfef8955eb653db4e473ec803c98)",
            FUNCTION_DOCS,
        ),
    }


EMBED_DOCS = ["https://ai.google.dev/api/embeddings#method:-models.embedcontent"]


def _single_embed_case() -> dict[str, Any]:
    values = [0.0123, -0.0456, 0.0789, -0.0012]
    return {
        "name": "embed-single-value",
        "description": "One value (not a list) → embedContent (not batchEmbedContents); its embedding.",
        "method": "embed",
        "model": "gemini-embedding-001",
        "requirements": ["G17"],
        "features": ["embed"],
        "request": {"values": "Some text goes here", "output_dimensionality": 4},
        # embedContent names its model in the path only (the reference's request body has none)
        "wire": {"content": {"parts": [{"text": "Some text goes here"}]}, "outputDimensionality": 4},
        "response": mock_json({"embedding": {"values": values}}),
        "source": documented(NO_RECORDING.format(what="a one-value embedContent call"), EMBED_DOCS),
    }


def _streamed_server_call_case() -> dict[str, Any]:
    """The parts of generate-server-executed-call, one frame each, the finish on the last."""
    parts = [
        {"functionCall": {"id": "mcp-weather-1", "name": "mcp_weather", "args": {"city": "Paris"}}},
        {"functionResponse": {"id": "mcp-weather-1", "name": "mcp_weather", "response": {"temp_c": 21}}},
        {"text": "It is 21 °C in Paris."},
    ]
    frames = []
    for i, part in enumerate(parts):
        candidate: dict[str, Any] = {"content": {"role": "model", "parts": [part]}, "index": 0}
        frame: dict[str, Any] = {"candidates": [candidate]}
        if i == len(parts) - 1:
            candidate["finishReason"] = "STOP"
            frame["usageMetadata"] = {
                "promptTokenCount": 8,
                "candidatesTokenCount": 12,
                "totalTokenCount": 20,
            }
        frame["modelVersion"] = "gemini-2.5-flash"
        frame["responseId"] = "mock-server-call-stream-1"
        frames.append(frame)
    text = "".join(f"data: {json.dumps(f, ensure_ascii=False)}\r\n\r\n" for f in frames)
    return {
        "name": "stream-server-executed-call",
        "description": "A streamed functionCall answered by a functionResponse in a later frame of the "
        "same turn (a server-side MCP tool): one provider-executed tool-call event, not a "
        "start/delta/end triple, then its result and the text; the finish is stop.",
        "method": "stream",
        "model": "gemini-2.5-flash",
        "requirements": ["G5", "G13", "G14"],
        "request": {"prompt": "What is the weather in Paris?"},
        "response": (200, SSE_TYPE, text),
        "source": documented(
            NO_RECORDING.format(what="a server-executed call in a streamed model turn"), FUNCTION_DOCS
        ),
    }


def call_edge_cases() -> list[dict[str, Any]]:
    return [
        _calls_not_matching_case(),
        _edited_call_with_id_case(),
        _single_embed_case(),
        _streamed_server_call_case(),
    ]
