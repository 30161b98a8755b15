"""Google conformance cases of function calls and thinking settings the recordings did not use: a
history whose call arguments the caller edited, a call the server executed, a zero thinking budget
(MOCK where no recording exists; each case's ``source`` says why)."""

from __future__ import annotations

import json
from typing import Any

from gemini_corpus import documented, mock_json, raw_json
from google_case_data import NO_RECORDING, F

THINKING_DOCS = ["https://ai.google.dev/gemini-api/docs/thinking"]


PARALLEL = "vertexai__unary-success-function-call-parallel-calls.json"
SUM_TOOL = {
    "type": "function",
    "name": "sum",
    "description": "Add two integers.",
    "parameters": {
        "type": "object",
        "properties": {"x": {"type": "integer"}, "y": {"type": "integer"}},
        "required": ["x", "y"],
    },
}
FUNCTION_DOCS = [
    "https://ai.google.dev/api/caching#FunctionCall",
    "https://ai.google.dev/api/caching#FunctionResponse",
]


def edited_call_case() -> dict[str, Any]:
    """Three recorded parallel calls sent back with the second call's arguments edited."""
    _, _, text = raw_json(F + PARALLEL)
    parts = json.loads(text)["candidates"][0]["content"]["parts"]
    calls = [
        {"type": "tool-call", "id": f"call-{i}", "name": "sum", "args": dict(p["functionCall"]["args"])}
        for i, p in enumerate(parts)
    ]
    calls[1]["args"] = {"x": 4, "y": 30}  # the caller's edit
    sums = [c["args"]["x"] + c["args"]["y"] for c in calls]
    prompt = "Add 2 and 1, 4 and 3, 6 and 5 with the sum tool."
    results = [
        {"type": "tool-result", "call_id": c["id"], "name": "sum", "output": {"result": n}}
        for c, n in zip(calls, sums, strict=True)
    ]
    # The SPEC's rule: an edited call is sent, unsigned, in place of its raw part; the others as they are.
    sent = [parts[0], {"functionCall": {"name": "sum", "args": calls[1]["args"]}}, parts[2]]
    answer = f"The sums are {sums[0]}, {sums[1]} and {sums[2]}."
    return {
        "name": "generate-edited-call-arguments-history",
        "description": "Three parallel calls sent back with the second call's arguments edited: the "
        "edited call goes in place of its raw part (the later call keeps its raw form), then the three "
        "functionResponses in one Content; a warning names the message.",
        "method": "generate",
        "model": "gemini-2.0-flash",
        "requirements": ["G3", "G5"],
        "features": ["function_tools"],
        "request": {
            "messages": [
                {"role": "user", "content": prompt},
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
        "wire": {
            "contents": [
                {"role": "user", "parts": [{"text": prompt}]},
                {"role": "model", "parts": sent},
                {
                    "role": "user",
                    "parts": [
                        {"functionResponse": {"name": "sum", "response": r["output"]}} for r in results
                    ],
                },
            ],
            "tools": [
                {
                    "functionDeclarations": [
                        {
                            "name": "sum",
                            "description": SUM_TOOL["description"],
                            "parametersJsonSchema": SUM_TOOL["parameters"],
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
                "usageMetadata": {"promptTokenCount": 96, "candidatesTokenCount": 14, "totalTokenCount": 110},
                "modelVersion": "gemini-2.0-flash",
                "responseId": "mock-edited-calls-1",
            }
        ),
        "source": documented(
            NO_RECORDING.format(what="a second turn after parallel calls")
            + f"; the history's calls are the parallel calls of FirebaseExtended/vertexai-sdk-test-data "
            f"mock-responses/vertexai/{PARALLEL.removeprefix('vertexai__')}",
            FUNCTION_DOCS,
        ),
    }


def server_call_case() -> dict[str, Any]:
    parts = [
        {"functionCall": {"id": "mcp-weather-1", "name": "mcp_weather", "args": {"city": "Paris"}}},
        {"functionResponse": {"id": "mcp-weather-1", "name": "mcp_weather", "response": {"temp_c": 21}}},
        {"text": "It is 21 °C in Paris."},
    ]
    return {
        "name": "generate-server-executed-call",
        "description": "A functionCall answered by a functionResponse inside the same model turn "
        "(a server-side MCP tool): a provider-executed call and its result sharing the call's id, then "
        "the text; the finish is stop, not tool-calls.",
        "method": "generate",
        "model": "gemini-2.5-flash",
        "requirements": ["G5", "G13"],
        "request": {"prompt": "What is the weather in Paris?"},
        "response": mock_json(
            {
                "candidates": [
                    {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
                ],
                "usageMetadata": {"promptTokenCount": 8, "candidatesTokenCount": 12, "totalTokenCount": 20},
                "modelVersion": "gemini-2.5-flash",
                "responseId": "mock-server-call-1",
            }
        ),
        "source": documented(
            NO_RECORDING.format(what="a server-executed call in a model turn"), FUNCTION_DOCS
        ),
    }


def budget_zero_case() -> dict[str, Any]:
    answer = "Paris."
    return {
        "name": "generate-thinking-budget-zero",
        "description": "reasoning.budget_tokens 0 (thinking off on Gemini 2.5 Flash) → thinkingBudget 0 "
        "+ includeThoughts; an answer with no thoughts and no thoughtsTokenCount.",
        "method": "generate",
        "model": "gemini-2.5-flash",
        "requirements": ["G4"],
        "features": ["reasoning"],
        "request": {"prompt": "What is the capital of France?", "reasoning": {"budget_tokens": 0}},
        "response": mock_json(
            {
                "candidates": [
                    {
                        "content": {"role": "model", "parts": [{"text": answer}]},
                        "finishReason": "STOP",
                        "index": 0,
                    }
                ],
                "usageMetadata": {"promptTokenCount": 8, "candidatesTokenCount": 2, "totalTokenCount": 10},
                "modelVersion": "gemini-2.5-flash",
                "responseId": "mock-budget-zero-1",
            }
        ),
        "source": documented(NO_RECORDING.format(what="a call with thinking turned off"), THINKING_DOCS),
    }
