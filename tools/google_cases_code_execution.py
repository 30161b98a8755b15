# ruff: noqa: E501  (a data table: long descriptions and corpus file names read better unwrapped)
"""Google conformance cases for code execution: executableCode and codeExecutionResult parts."""

from __future__ import annotations

from typing import Any

from gemini_corpus import raw_json, raw_sse
from google_case_data import ADAPTED, CODE, RECONSTRUCTED, F, P, V, _response


def code_execution_cases() -> list[dict[str, Any]]:
    return [
        {
            "name": "generate-code-execution",
            "description": "code_execution → codeExecution; executableCode/codeExecutionResult pairs with ids and "
            "signatures → provider-executed parts.",
            "method": "generate",
            "model": "gemini-3-flash-preview",
            "requirements": ["G16", "S2", "G5"],
            "features": ["provider_tools"],
            "request": {
                "system": "You are a helpful chatbot.",
                "prompt": "What day is today in Utrecht?",
                "tools": [CODE],
            },
            "response": _response(
                "tests__models__google__cassettes__test_code_execution__test_code_execution.yaml"
            ),
            "source": P + "tests__models__google__cassettes__test_code_execution__test_code_execution.yaml",
            "source_args": {"interaction": 0, "note": ADAPTED},
        },
        {
            "name": "stream-code-execution-usage-reset",
            "description": "Streamed code execution: a result frame without index and with reset usage; usage "
            "comes from the last frame (G15).",
            "method": "stream",
            "model": "gemini-3-flash-preview",
            "requirements": ["G16", "G15", "G14", "G5"],
            "features": ["provider_tools"],
            "request": {
                "system": "Be concise and always use Python to do calculations no matter how small.",
                "prompt": "what is 65465-6544 * 65464-6+1.02255",
                "tools": [CODE],
            },
            "response": _response(
                "tests__models__google__cassettes__test_code_execution__test_code_execution_stream.yaml"
            ),
            "source": P
            + "tests__models__google__cassettes__test_code_execution__test_code_execution_stream.yaml",
            "source_args": {"interaction": 0, "note": ADAPTED},
        },
        {
            "name": "stream-code-execution-firebase",
            "description": "text, executableCode, codeExecutionResult OUTCOME_OK, text; toolUsePromptTokenCount "
            "appears once the tool ran.",
            "method": "stream",
            "model": "gemini-2.5-flash",
            "requirements": ["G16", "G15"],
            "features": ["provider_tools"],
            "request": {"prompt": "What is the sum of the first 50 prime numbers?", "tools": [CODE]},
            "response": raw_sse(F + "googleai__streaming-success-code-execution.txt"),
            "source": F + "googleai__streaming-success-code-execution.txt",
            "source_args": {"note": RECONSTRUCTED},
        },
        {
            "name": "generate-code-execution-failed-traceback",
            "description": "OUTCOME_FAILED with a traceback → a tool result marked as an error; ids on both parts.",
            "method": "generate",
            "model": "gemini-3-flash-preview",
            "requirements": ["G16"],
            "features": ["provider_tools"],
            "request": {"prompt": "Divide 1 by 0 in Python and show the output.", "tools": [CODE]},
            "response": raw_json(V + "google-code-execution-single-combined-result-live-2026-07-16.json"),
            "source": V + "google-code-execution-single-combined-result-live-2026-07-16.json",
            "source_args": {"commit": "9c220d331dbd9e23df5395ddbbfd23ea05ca9a52", "note": RECONSTRUCTED},
        },
        {
            "name": "generate-code-execution-two-results",
            "description": "One executableCode followed by two results (OK, then FAILED), correlated by order.",
            "method": "generate",
            "model": "gemini-2.5-flash",
            "requirements": ["G16"],
            "features": ["provider_tools"],
            "request": {"prompt": "Run the calculation.", "tools": [CODE]},
            "response": raw_json(V + "google-code-execution-multiple-results.json"),
            "source": V + "google-code-execution-multiple-results.json",
            "source_args": {"commit": "9c220d331dbd9e23df5395ddbbfd23ea05ca9a52", "note": RECONSTRUCTED},
        },
        {
            "name": "generate-code-execution-failed-three",
            "description": "gemini-2.0-flash: three OUTCOME_FAILED results interleaved with text, no index.",
            "method": "generate",
            "model": "gemini-2.0-flash",
            "requirements": ["G16", "G14"],
            "features": ["provider_tools"],
            "request": {"prompt": "How much is 3 * 12390?", "tools": [CODE]},
            "response": _response(
                "tests__models__cassettes__test_anthropic__test_anthropic_server_tool_receive_history_from_another_provider.yaml"
            ),
            "source": P
            + "tests__models__cassettes__test_anthropic__test_anthropic_server_tool_receive_history_from_another_provider.yaml",
            "source_args": {"interaction": 0, "note": ADAPTED},
        },
    ]
