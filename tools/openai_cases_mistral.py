# ruff: noqa: E501  (a data table: long descriptions and corpus file names read better unwrapped)
"""The Mistral preset's conformance cases, and the penalties case the ``openai`` provider replays too
(pointed at Mistral's endpoint: the one recording that sends both penalties)."""

from __future__ import annotations

from typing import Any

from openai_case_data import (
    RECONSTRUCTED,
    P,
    V,
)
from openai_corpus import chunks, vcr


def mistral_cases() -> list[dict[str, Any]]:
    return [
        {
            "name": "stream-incremental-tool-call",
            "description": "The second delta repeats type with name '' (the name is kept); cached 128; no stream_options sent.",
            "method": "stream",
            "model": "zai-glm-5-2",
            "features": ["function_tools"],
            "request": {
                "prompt": "What is the weather in Berlin?",
                "tools": [
                    {
                        "type": "function",
                        "name": "webSearchTool",
                        "parameters": {
                            "type": "object",
                            "properties": {"query": {"type": "string"}},
                            "required": ["query"],
                        },
                    }
                ],
            },
            "response": chunks(V + "mistral__src____fixtures____mistral-incremental-tool-call.chunks.txt"),
            "source": V + "mistral__src____fixtures____mistral-incremental-tool-call.chunks.txt",
            "source_args": {"note": RECONSTRUCTED},
        },
        penalties_case(),
    ]


#: pydantic-ai's Mistral recording of presence_penalty and frequency_penalty on the wire.
PENALTIES = P + "test_mistral__test_mistral_forwards_penalties.yaml"


def penalties_case(**changes: Any) -> dict[str, Any]:
    """presence_penalty 0.5 and frequency_penalty 0.25 sent as given (``changes``: the same recording
    as another provider's case, e.g. the ``openai`` provider pointed at Mistral's endpoint)."""
    return {
        "name": "generate-penalties",
        "description": "presence_penalty 0.5 and frequency_penalty 0.25 sent as given; plain text answer.",
        "method": "generate",
        "model": "mistral-large-latest",
        "request": {"prompt": "hello", "top_p": 1.0, "presence_penalty": 0.5, "frequency_penalty": 0.25},
        "response": vcr(PENALTIES),
        "source": PENALTIES,
        "source_args": {"note": "n: 1 and stream: false left out"},
        **changes,
    }
