# ruff: noqa: E501  (a data table: long descriptions and corpus file names read better unwrapped)
"""The ``openai`` provider's streaming conformance cases: which recording, which canonical request."""

from __future__ import annotations

from typing import Any

from openai_case_data import CAPITAL, MULTIPLY, OT, RECONSTRUCTED, WEATHER, L, P, V, _call, _result
from openai_corpus import chunks, vcr


def stream_cases() -> list[dict[str, Any]]:
    stream_tool = P + "test_openai__test_run_stream_sync_streams_real_model.yaml"
    return [
        {
            "name": "stream-tool-call-fragments",
            "description": "A tool call whose arguments arrive over several deltas; include_usage chunk with choices [].",
            "method": "stream",
            "model": "gpt-4o-mini",
            "features": ["function_tools"],
            "request": {
                "prompt": "What is the capital of the UK? Use the tool, then answer.",
                "tools": [CAPITAL],
                "tool_choice": "auto",
            },
            "response": vcr(stream_tool, 0),
            "source": stream_tool,
            "source_args": {
                "interaction": 0,
                "note": "the recorded tool had strict: true, which the canonical tool does not carry",
            },
        },
        {
            "name": "stream-text-after-tool-result",
            "description": "The turn after the tool result, streamed: text, then a usage-only chunk.",
            "method": "stream",
            "model": "gpt-4o-mini",
            "features": ["function_tools"],
            "request": {
                "messages": [
                    {"role": "user", "content": "What is the capital of the UK? Use the tool, then answer."},
                    {
                        "role": "assistant",
                        "content": [_call("call_ZR5UUuTt3pf61kjwAJIYdVMj", "get_capital", {"country": "UK"})],
                    },
                    {
                        "role": "tool",
                        "content": [_result("call_ZR5UUuTt3pf61kjwAJIYdVMj", "get_capital", "London")],
                    },
                ],
                "tools": [CAPITAL],
                "tool_choice": "auto",
            },
            "response": vcr(stream_tool, 1),
            "source": stream_tool,
            "source_args": {
                "interaction": 1,
                "note": "the recorded tool had strict: true, which the canonical tool does not carry",
            },
        },
        {
            "name": "stream-parallel-tool-calls",
            "description": "Two parallel calls streamed with index 0 and 1.",
            "method": "stream",
            "model": "gpt-4o-mini",
            "features": ["function_tools"],
            "request": {
                "system": "You're a helpful assistant.",
                "prompt": "What's the weather in Seattle and San Francisco today?",
                "tools": [WEATHER],
                "tool_choice": "auto",
            },
            "response": vcr(OT + "test_chat_completion_multiple_tools_streaming_with_content.yaml"),
            "source": OT + "test_chat_completion_multiple_tools_streaming_with_content.yaml",
        },
        {
            "name": "stream-multiple-choices-first-read",
            "description": "Chunks of two choices interleaved (n=2): only choice 0 is read.",
            "method": "stream",
            "model": "gpt-4o-mini",
            "request": {
                "system": "You're a helpful assistant.",
                "prompt": "What's the weather in Seattle and San Francisco today?",
            },
            "response": vcr(OT + "test_chat_completion_multiple_choices_streaming.yaml"),
            "source": OT + "test_chat_completion_multiple_choices_streaming.yaml",
            "source_args": {"note": "the recording asked for n: 2, which is not a canonical setting"},
        },
        {
            "name": "stream-no-usage",
            "description": "A stream that carries no usage anywhere: every count stays None.",
            "method": "stream",
            "model": "gpt-4",
            "request": {"prompt": "Say this is a test"},
            "response": vcr(OT + "test_chat_completion_streaming_not_complete.yaml"),
            "source": OT + "test_chat_completion_streaming_not_complete.yaml",
            "source_args": {"note": "the recording sent no stream_options; modelport always asks for usage"},
        },
        {
            "name": "stream-tool-call-twelve-deltas",
            "description": "Arguments over 12 deltas; cf-ray era recording with an empty-choices usage chunk.",
            "method": "stream",
            "model": "gpt-4o-mini",
            "features": ["function_tools"],
            "request": {"prompt": "What is 1231 * 2331?", "tools": [MULTIPLY]},
            "response": vcr(L + "test_tools__test_tool_use_basic.yaml", 0),
            "source": L + "test_tools__test_tool_use_basic.yaml",
            "source_args": {"interaction": 0},
        },
        {
            "name": "stream-no-finish-reason",
            "description": "A tool call with id '0' repeated in a second delta; no chunk has a finish_reason.",
            "method": "stream",
            "model": "gpt-4.1-mini",
            "features": ["function_tools"],
            "request": {
                "prompt": "What is the current llm version?",
                "tools": [
                    {
                        "type": "function",
                        "name": "llm_version",
                        "description": "Return the installed version of llm",
                        "parameters": {"type": "object", "properties": {}},
                    }
                ],
            },
            "response": vcr(L + "test_tools_streaming__test_tools_streaming_variant_a.yaml", 0),
            "source": L + "test_tools_streaming__test_tools_streaming_variant_a.yaml",
            "source_args": {
                "interaction": 0,
                "note": "an OpenRouter capture filed under an api.openai.com URI",
            },
        },
        {
            "name": "stream-text-usage-chunk",
            "description": "303 text chunks with an obfuscation field, a usage-only chunk, then [DONE].",
            "method": "stream",
            "model": "gpt-4.1-nano",
            "request": {"prompt": "Invent a new holiday and describe its traditions."},
            "response": chunks(V + "openai__src__chat____fixtures____openai-text.chunks.txt"),
            "source": V + "openai__src__chat____fixtures____openai-text.chunks.txt",
            "source_args": {"note": RECONSTRUCTED},
        },
    ]
