# ruff: noqa: E501  (a data table: long descriptions and corpus file names read better unwrapped)
"""The table of Google conformance cases: which recording, which canonical request, which requirements.

Requests reproduce the recorded call's intent; ``note`` in ``source_args`` says where the request
is reconstructed (body-only recordings have no request at all).
"""

from __future__ import annotations

import json
from typing import Any

from gemini_corpus import chunks, raw_json, raw_sse, vcr_interaction

P = "pydantic__pydantic-ai/"
V = "vercel__ai/packages__google__src____fixtures____"
F = "FirebaseExtended__vertexai-sdk-test-data/mock-responses__"
L = "simonw__llm-gemini/tests__cassettes__test_gemini__"

RECONSTRUCTED = "body-only recording: the request is reconstructed for this case"
ADAPTED = "request adapted to modelport's canonical mapping (the recording tool sent SDK-specific extras)"

DUMMY_TOOL = {"type": "function", "name": "dummy", "parameters": {"type": "object", "properties": {}}}
COUNTRY_TOOL = {
    "type": "function",
    "name": "get_country",
    "description": "The user's country.",
    "parameters": {"type": "object", "properties": {}},
}
WEATHER_TOOL = {
    "type": "function",
    "name": "fetchWeather",
    "description": "Get the weather conditions for a city on a date.",
    "parameters": {
        "type": "object",
        "properties": {"location": {"type": "object"}, "date": {"type": "string"}},
        "required": ["location", "date"],
    },
}
SEARCH = {"type": "provider", "id": "google.google_search", "name": "google_search", "args": {}}
CODE = {"type": "provider", "id": "google.code_execution", "name": "code_execution", "args": {}}


def _response(saved: str, index: int = 0) -> tuple[int, str, str]:
    return vcr_interaction(P + saved, index)[1]


def _signed_call_turn() -> dict[str, Any]:
    """Turn 1 of the signed-tool-call recording, as ``Result.message`` returns it for turn 2."""
    _, (_, _, text) = vcr_interaction(P + SIGNED, 0)
    parts: list[dict[str, Any]] = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        if block.startswith("data: "):
            frame = json.loads(block[6:])
            parts += frame["candidates"][0].get("content", {}).get("parts", [])
    calls = [p for p in parts if "functionCall" in p]
    return {
        "role": "assistant",
        "content": [
            {
                "type": "tool-call",
                "id": f"call-{parts.index(c)}",
                "name": c["functionCall"]["name"],
                "args": {},
            }
            for c in calls
        ],
        "provider_metadata": {"google": {"parts": parts}},
    }


SIGNED = "tests__models__cassettes__test_google__test_google_streaming_tool_call_thought_signature.yaml"
SEARCH_FILE = "tests__models__cassettes__test_google__test_google_model_web_search_tool.yaml"
SEARCH_STREAM = "tests__models__cassettes__test_google__test_google_model_web_search_tool_stream.yaml"


def _cases() -> list[dict[str, Any]]:
    return [
        # ---------------------------------------------------------------- request mapping, basics
        {
            "name": "generate-max-tokens-empty-candidate",
            "description": "System instruction + maxOutputTokens; thinking model stops with MAX_TOKENS and no parts.",
            "method": "generate",
            "model": "gemini-2.5-pro",
            "requirements": ["G3", "G13", "G14", "G15"],
            "request": {
                "system": "You are a helpful chatbot.",
                "prompt": "What is the capital of France?",
                "max_output_tokens": 5,
            },
            "response": _response(
                "tests__models__cassettes__test_google__test_google_model_max_tokens_thinking_model_empty_response.yaml"
            ),
            "source": P
            + "tests__models__cassettes__test_google__test_google_model_max_tokens_thinking_model_empty_response.yaml",
            "source_args": {"interaction": 0, "note": ADAPTED},
        },
        {
            "name": "generate-all-sampling-settings-safety-finish",
            "description": "Every generationConfig knob (G3) plus penalties dropped with warnings (G11); "
            "the answer is cut by SAFETY with partial text.",
            "method": "generate",
            "model": "gemini-2.0-flash",
            "requirements": ["G3", "G11", "G13"],
            "request": {
                "prompt": "Write a short story.",
                "max_output_tokens": 256,
                "temperature": 0.4,
                "top_p": 0.9,
                "top_k": 20,
                "stop_sequences": ["THE END"],
                "seed": 42,
                "presence_penalty": 0.5,
                "frequency_penalty": 0.25,
            },
            "response": raw_json(F + "googleai__unary-failure-finish-reason-safety.json", 200),
            "source": F + "googleai__unary-failure-finish-reason-safety.json",
            "source_args": {"note": RECONSTRUCTED},
        },
        {
            "name": "generate-safety-settings-blocked",
            "description": "safety_settings provider option → safetySettings; content {} with finishReason SAFETY.",
            "method": "generate",
            "model": "gemini-1.5-flash",
            "requirements": ["G7", "G13", "G14"],
            "request": {
                "system": "You hate the world!",
                "prompt": "Tell me a joke about a Brazilians.",
                "provider_options": {
                    "google": {
                        "safety_settings": [
                            {"category": "HARM_CATEGORY_HATE_SPEECH", "threshold": "BLOCK_LOW_AND_ABOVE"}
                        ]
                    }
                },
            },
            "response": _response(
                "tests__models__cassettes__test_google__test_google_model_safety_settings.yaml"
            ),
            "source": P + "tests__models__cassettes__test_google__test_google_model_safety_settings.yaml",
            "source_args": {"interaction": 0, "note": ADAPTED},
        },
        {
            "name": "generate-cached-content",
            "description": "cached_content provider option → cachedContent; cachedContentTokenCount → cache reads.",
            "method": "generate",
            "model": "gemini-2.5-flash",
            "requirements": ["G6", "G15"],
            "request": {
                "prompt": "What is the capital of France?",
                "provider_options": {
                    "google": {"cached_content": "cachedContents/7lf5him5ev4iemi1yjv2gwli5bhpz3yidzejwllo"}
                },
            },
            "response": _response(
                "tests__models__google__cassettes__test_cache__test_google_model_cached_content.yaml", 1
            ),
            "source": P
            + "tests__models__google__cassettes__test_cache__test_google_model_cached_content.yaml",
            "source_args": {"interaction": 1, "note": ADAPTED},
        },
        {
            "name": "stream-json-schema-labels-options",
            "description": "json_schema → responseMimeType + responseJsonSchema (G8), user_id → labels (G10), "
            "generation_config option replaces generationConfig but keeps the schema keys (G8, G9); the answer '4' is valid JSON; empty signed text part.",
            "method": "stream",
            "model": "gemini-3-flash-preview",
            "requirements": ["G8", "G9", "G10", "G5", "G14"],
            "features": ["structured_output"],
            "request": {
                "prompt": "What is 2 + 2? Answer with a number.",
                "response_format": {"type": "json_schema", "schema": {"type": "integer"}, "name": "answer"},
                "user_id": "user-123",
                "provider_options": {
                    "google": {"generation_config": {"temperature": 0.1, "responseMimeType": "text/plain"}}
                },
            },
            "response": chunks(V + "issue-18073-empty-text-thought-signature.chunks.txt"),
            "source": V + "issue-18073-empty-text-thought-signature.chunks.txt",
            "source_args": {"commit": "a922c69ba24a1672c2e507bbabd1031f01e16c98", "note": RECONSTRUCTED},
        },
        {
            "name": "stream-text-gemini3-request-labels",
            "description": "Plain text stream; request_labels win over user_id (G10); signature on the final "
            "empty text part (G5).",
            "method": "stream",
            "model": "gemini-3-pro-preview",
            "requirements": ["G3", "G5", "G10", "G15"],
            "request": {
                "prompt": "Tell me a short fact.",
                "user_id": "user-123",
                "request_labels": {"team": "docs"},
            },
            "response": chunks(V + "google-text.chunks.txt"),
            "source": V + "google-text.chunks.txt",
            "source_args": {"note": RECONSTRUCTED},
        },
        # ---------------------------------------------------------------- thinking and signatures
        {
            "name": "stream-thinking-effort-high",
            "description": "reasoning.effort high → thinkingBudget 8192 + includeThoughts; 4 thought frames "
            "then text whose first frame carries a signature.",
            "method": "stream",
            "model": "gemini-2.5-pro",
            "requirements": ["G4", "G5", "G3"],
            "features": ["reasoning", "function_tools"],
            "request": {
                "system": "You are a helpful assistant.",
                "prompt": "How do I cross the street?",
                "reasoning": {"effort": "high"},
                "tools": [DUMMY_TOOL],
            },
            "response": _response(
                "tests__models__cassettes__test_google__test_google_model_thinking_part_iter.yaml"
            ),
            "source": P + "tests__models__cassettes__test_google__test_google_model_thinking_part_iter.yaml",
            "source_args": {"interaction": 0, "note": ADAPTED},
        },
        {
            "name": "stream-thinking-reply-summary",
            "description": "Thought-summary frames without candidatesTokenCount, then the answer.",
            "method": "stream",
            "model": "gemini-2.5-flash",
            "requirements": ["G4", "G14", "G15"],
            "features": ["reasoning"],
            "request": {"prompt": "Why is the sky blue?", "reasoning": {"effort": "medium"}},
            "response": raw_sse(F + "googleai__streaming-success-thinking-reply-thought-summary.txt"),
            "source": F + "googleai__streaming-success-thinking-reply-thought-summary.txt",
            "source_args": {"note": RECONSTRUCTED},
        },
        {
            "name": "generate-thinking-budget-one-tool",
            "description": "budget_tokens → thinkingBudget; tool_choice one tool → ANY + allowedFunctionNames; "
            "thought part then a signed functionCall (finish tool-calls).",
            "method": "generate",
            "model": "gemini-2.5-pro",
            "requirements": ["G4", "G5", "G12", "G13"],
            "features": ["reasoning", "function_tools"],
            "request": {
                "prompt": "What is the weather in Boston on 2025-01-10?",
                "reasoning": {"budget_tokens": 1024},
                "tools": [WEATHER_TOOL],
                "tool_choice": {"type": "tool", "name": "fetchWeather"},
            },
            "response": raw_json(
                F + "googleai__unary-success-thinking-function-call-thought-summary-signature.json"
            ),
            "source": F + "googleai__unary-success-thinking-function-call-thought-summary-signature.json",
            "source_args": {"note": RECONSTRUCTED},
        },
        {
            "name": "stream-thinking-function-call-required",
            "description": "tool_choice required → ANY; thought frames then a signed functionCall with finishReason "
            "in the same frame.",
            "method": "stream",
            "model": "gemini-2.5-flash",
            "requirements": ["G4", "G5", "G12", "G13"],
            "features": ["reasoning", "function_tools"],
            "request": {
                "prompt": "What is the weather in Boston on 2025-01-10?",
                "reasoning": {"effort": "low"},
                "tools": [WEATHER_TOOL],
                "tool_choice": "required",
            },
            "response": raw_sse(
                F + "googleai__streaming-success-thinking-function-call-thought-summary-signature.txt"
            ),
            "source": F + "googleai__streaming-success-thinking-function-call-thought-summary-signature.txt",
            "source_args": {"note": RECONSTRUCTED},
        },
        {
            "name": "stream-tool-call-gemini3-auto",
            "description": "tool_choice auto → AUTO; Gemini 3 streamed functionCall with a signature.",
            "method": "stream",
            "model": "gemini-3-pro-preview",
            "requirements": ["G5", "G12", "G13"],
            "features": ["function_tools"],
            "request": {
                "prompt": "What is the weather in Boston?",
                "tools": [WEATHER_TOOL],
                "tool_choice": "auto",
            },
            "response": chunks(V + "google-tool-call-gemini3.chunks.txt"),
            "source": V + "google-tool-call-gemini3.chunks.txt",
            "source_args": {"note": RECONSTRUCTED},
        },
        {
            "name": "stream-text-then-call-with-id",
            "description": "Unsigned text frame, then a functionCall with an id and a signature, then an empty "
            "final frame (Gemini 3.1 sends call ids).",
            "method": "stream",
            "model": "gemini-3.1-pro-preview",
            "requirements": ["G5", "G13", "G14"],
            "features": ["function_tools"],
            "request": {
                "prompt": "What is the weather in Boston?",
                "tools": [WEATHER_TOOL],
                "tool_choice": "none",
            },
            "response": chunks(V + "issue-10781.1.chunks.txt"),
            "source": V + "issue-10781.1.chunks.txt",
            "source_args": {"commit": "1eb691e138c6bfef8955eb653db4e473ec803c98", "note": RECONSTRUCTED},
        },
        {
            "name": "generate-parallel-calls-subset",
            "description": "A named subset tool choice → ANY + allowedFunctionNames; three parallel calls in one "
            "Content, no usage.",
            "method": "generate",
            "model": "gemini-2.0-flash",
            "requirements": ["G3", "G12", "G13", "G14"],
            "features": ["function_tools"],
            "request": {
                "prompt": "What is the weather in Boston, Seattle and Austin today?",
                "tools": [WEATHER_TOOL, DUMMY_TOOL],
                "tool_choice": {"type": "tools", "names": ["fetchWeather"]},
            },
            "response": raw_json(F + "vertexai__unary-success-function-call-parallel-calls.json"),
            "source": F + "vertexai__unary-success-function-call-parallel-calls.json",
            "source_args": {
                "note": RECONSTRUCTED + "; MOCK response (Vertex-shaped, shared by the Gemini API)"
            },
        },
        {
            "name": "stream-signature-replay-function-response",
            "description": "Turn 2 replays the signed functionCall exactly as received (standard base64) and "
            "sends the functionResponse (G3, G5).",
            "method": "stream",
            "model": "gemini-3-pro-preview",
            "requirements": ["G3", "G5"],
            "features": ["function_tools"],
            "request": {
                "messages": [
                    {"role": "user", "content": "What is the capital of the user country? Call the tool"},
                    _signed_call_turn(),
                    {
                        "role": "tool",
                        "content": [
                            {
                                "type": "tool-result",
                                "call_id": "call-0",
                                "name": "get_country",
                                "output": {"return_value": "Mexico"},
                            }
                        ],
                    },
                ],
                "tools": [COUNTRY_TOOL],
            },
            "response": _response(SIGNED, 1),
            "source": P + SIGNED,
            "source_args": {
                "interaction": 1,
                "note": ADAPTED + "; the signature is replayed as the API sent it",
            },
        },
        # ---------------------------------------------------------------- code execution
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
        # ---------------------------------------------------------------- blocked and filtered
        {
            "name": "stream-prompt-blocked",
            "description": "A single frame with promptFeedback.blockReason and no candidates → content-filter.",
            "method": "stream",
            "model": "gemini-2.0-flash",
            "requirements": ["G13", "G14"],
            "request": {"prompt": "A blocked prompt."},
            "response": raw_sse(F + "googleai__streaming-failure-prompt-blocked-safety.txt"),
            "source": F + "googleai__streaming-failure-prompt-blocked-safety.txt",
            "source_args": {"note": RECONSTRUCTED},
        },
        {
            "name": "stream-recitation-no-content",
            "description": "The final frame is RECITATION with no content key at all.",
            "method": "stream",
            "model": "gemini-2.0-flash",
            "requirements": ["G13", "G14"],
            "request": {"prompt": "Recite a famous poem."},
            "response": raw_sse(F + "googleai__streaming-failure-recitation-no-content.txt"),
            "source": F + "googleai__streaming-failure-recitation-no-content.txt",
            "source_args": {"note": RECONSTRUCTED},
        },
        # ---------------------------------------------------------------- errors
        {
            "name": "error-api-key-invalid",
            "description": "400 INVALID_ARGUMENT with ErrorInfo API_KEY_INVALID → authentication error.",
            "method": "generate",
            "model": "gemini-2.0-flash",
            "requirements": ["G18"],
            "request": {"prompt": "Hello"},
            "response": raw_json(F + "googleai__unary-failure-api-key.json"),
            "source": F + "googleai__unary-failure-api-key.json",
            "source_args": {"note": RECONSTRUCTED},
        },
        {
            "name": "error-rate-limited-retry-info",
            "description": "429 with RetryInfo retryDelay 34.4s → rate-limited, retryable, retry_after 34.4.",
            "method": "generate",
            "model": "gemini-2.5-flash",
            "requirements": ["G18"],
            "request": {"prompt": "Hello"},
            "response": raw_json(V + "google-429-retry-info.json"),
            "source": V + "google-429-retry-info.json",
            "source_args": {"note": RECONSTRUCTED + "; MOCK (simplified real shape)"},
        },
        {
            "name": "error-quota-exhausted",
            "description": "429 RESOURCE_EXHAUSTED without a delay → quota exhausted, not retryable.",
            "method": "generate",
            "model": "gemini-2.0-flash",
            "requirements": ["G18"],
            "request": {"prompt": "Hello"},
            "response": raw_json(F + "vertexai__unary-failure-quota-exceeded.json"),
            "source": F + "vertexai__unary-failure-quota-exceeded.json",
            "source_args": {"note": RECONSTRUCTED},
        },
        {
            "name": "error-stream-http-status",
            "description": "A streaming request answered 400 (plain JSON error): checked before SSE parsing.",
            "method": "stream",
            "model": "gemini-2.5-flash",
            "requirements": ["G18"],
            "request": {"prompt": "Hello", "temperature": 0.2},
            "response": raw_json(V + "issue-8943-gemini-2.5-flash-error.json"),
            "source": V + "issue-8943-gemini-2.5-flash-error.json",
            "source_args": {"commit": "6281ee13bb32592007faa58d3f21a68c624090eb", "note": RECONSTRUCTED},
        },
        {
            "name": "error-mid-stream",
            "description": "Two frames, then a bare JSON error object (499 CANCELLED) → a typed error after "
            "the partial text.",
            "method": "stream",
            "model": "gemini-2.0-flash",
            "requirements": ["G18"],
            "request": {"prompt": "Count to three."},
            "response": raw_sse(F + "vertexai__streaming-failure-error-mid-stream.txt"),
            "source": F + "vertexai__streaming-failure-error-mid-stream.txt",
            "source_args": {"note": RECONSTRUCTED + "; MOCK (Vertex-shaped)"},
        },
        # ---------------------------------------------------------------- embeddings
        {
            "name": "embed-batch-task-type",
            "description": "A batch → batchEmbedContents with taskType; embeddings in order.",
            "method": "embed",
            "model": "gemini-embedding-2-preview",
            "requirements": ["G17"],
            "features": ["embed"],
            "request": {"values": ["hello", "world"], "task_type": "RETRIEVAL_DOCUMENT"},
            "response": _response("tests__cassettes__test_embeddings__TestGoogle.test_documents.yaml"),
            "source": P + "tests__cassettes__test_embeddings__TestGoogle.test_documents.yaml",
            "source_args": {"interaction": 0},
        },
        {
            "name": "embed-batch-output-dimensionality",
            "description": "outputDimensionality 768 on a one-value batch; no usageMetadata.",
            "method": "embed",
            "model": "gemini-embedding-001",
            "requirements": ["G17"],
            "features": ["embed"],
            "request": {"values": ["Some text goes here"], "output_dimensionality": 768},
            "response": vcr_interaction(L + "test_embedding[gemini-embedding-001-768].yaml", 0)[1],
            "source": L + "test_embedding[gemini-embedding-001-768].yaml",
            "source_args": {"interaction": 0, "note": "gzip body decompressed"},
        },
        {
            "name": "embed-error-not-found",
            "description": "batchEmbedContents on a nonexistent model → 404 NOT_FOUND request error.",
            "method": "embed",
            "model": "nonexistent-model",
            "requirements": ["G17", "G18"],
            "features": ["embed"],
            "request": {"values": ["Hello, world!"], "task_type": "RETRIEVAL_QUERY"},
            "response": _response("tests__cassettes__test_embeddings__TestGoogle.test_embed_error.yaml"),
            "source": P + "tests__cassettes__test_embeddings__TestGoogle.test_embed_error.yaml",
            "source_args": {"interaction": 0},
        },
    ]


from google_cases_grounding import GROUNDING_CASES, VERTEX_CASES  # noqa: E402  (uses the names above)
from google_cases_mock import MOCK_CASES, MOCK_VERTEX_CASES  # noqa: E402  (uses the names above)
from google_cases_tools import TOOL_CASES  # noqa: E402  (uses the names above)

CASES = _cases() + GROUNDING_CASES + TOOL_CASES + MOCK_CASES
VERTEX_CASES = VERTEX_CASES + MOCK_VERTEX_CASES
__all__ = ["CASES", "VERTEX_CASES"]
