# ruff: noqa: E501  (a data table: long descriptions and corpus file names read better unwrapped)
"""The ``anthropic`` conformance cases: which recording, which interaction, which canonical request.

A case built from a recording with its request (``recorded``) takes the canonical request the
recorded body means (:func:`anthropic_corpus.canonical`); ``source.note`` lists the top-level
fields where the body the API reference prescribes for it differs from what the recording tool sent
(e.g. ``system`` as one block instead of a string). A body-only recording (``body_only``) pairs a
recorded response with a request written for it (``RECONSTRUCTED``).
"""

from __future__ import annotations

from typing import Any

from anthropic_corpus import Exchange, chunks, exchange, raw_json, sse

P = "pydantic__pydantic-ai/tests__models__cassettes__test_anthropic__"
PE = "pydantic__pydantic-ai/tests__cassettes__"
V = "vercel__ai/packages__anthropic__src____fixtures____"
L = "simonw__llm-anthropic/tests__cassettes__test_anthropic__"
F = "charmbracelet__fantasy/providertests__testdata__"
M = "Mirascope__mirascope/"
R = "prism-php__prism/tests__Fixtures__anthropic__"

RECONSTRUCTED = "body-only recording: the request is reconstructed for this case"
WEATHER_SCHEMA = {
    "type": "object",
    "properties": {
        "elements": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "location": {"type": "string"},
                    "temperature": {"type": "number"},
                    "condition": {"type": "string"},
                },
                "required": ["location", "temperature", "condition"],
            },
        }
    },
    "required": ["elements"],
}
TOOL_SEARCH = PE + "test_tool_search__test_tool_search_eval[anthropic].yaml"


def recorded(
    name: str,
    saved: str,
    description: str,
    *,
    interaction: int = 0,
    features: tuple[str, ...] = (),
    method: str | None = None,
) -> dict[str, Any]:
    """A case from a recording that has its request."""
    return {
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


def _user(text: str) -> list[dict[str, Any]]:
    return [{"role": "user", "content": [{"type": "text", "text": text}]}]


def cases() -> list[dict[str, Any]]:
    tool_search = [
        recorded(
            f"generate-tool-loop-turn-{i + 1:02d}",
            TOOL_SEARCH,
            f"Turn {i + 1} of an 11-turn function-tool loop (tool results with is_error true and false in the history).",
            interaction=i,
            features=("function_tools",),
        )
        for i in range(11)
    ]
    return [
        recorded(
            "generate-system-instructions",
            P + "test_anthropic_model_instructions.yaml",
            "Top-level system text and a question; plain text, end_turn.",
        ),
        recorded(
            "generate-thinking-signature",
            P + "test_anthropic_model_thinking_part.yaml",
            "Thinking with a 1024-token budget: a thinking block with its signature, then text.",
            features=("reasoning",),
        ),
        recorded(
            "generate-thinking-replayed",
            P + "test_anthropic_model_thinking_part.yaml",
            "Turn 2 sends turn 1's thinking back with its signature, unchanged.",
            interaction=1,
            features=("reasoning",),
        ),
        recorded(
            "generate-redacted-thinking",
            P + "test_anthropic_model_thinking_part_redacted.yaml",
            "redacted_thinking blocks: empty reasoning parts keeping the opaque data.",
            features=("reasoning",),
        ),
        recorded(
            "generate-redacted-thinking-replayed",
            P + "test_anthropic_model_thinking_part_redacted.yaml",
            "Turn 2 sends the redacted_thinking blocks back unchanged.",
            interaction=1,
            features=("reasoning",),
        ),
        recorded(
            "generate-tool-call-with-thinking",
            P + "test_anthropic_tool_with_thinking.yaml",
            "Thinking, text and a tool_use in one answer: stop_reason tool_use.",
            features=("reasoning", "function_tools"),
        ),
        recorded(
            "generate-tool-result-after-thinking",
            P + "test_anthropic_tool_with_thinking.yaml",
            "Turn 2 replays thinking and tool_use, with the tool_result.",
            interaction=1,
            features=("reasoning", "function_tools"),
        ),
        recorded(
            "generate-cache-read",
            P + "test_anthropic_cache_real_api.yaml",
            "cache_control set by hand (extra_body): 1111 tokens read from the cache.",
            interaction=0,
        ),
        recorded(
            "generate-cache-write-and-read",
            P + "test_anthropic_cache_real_api.yaml",
            "Another prompt on the cached prefix: 418 tokens written, 1111 read, with the 5m/1h split.",
            interaction=1,
        ),
        recorded(
            "count-tokens-cached-prefix",
            P + "test_anthropic_cache_count_tokens.yaml",
            "POST /v1/messages/count_tokens: input_tokens.",
            interaction=0,
            method="count_tokens",
        ),
        recorded(
            "generate-cache-read-after-count",
            P + "test_anthropic_cache_count_tokens.yaml",
            "After counting, the call reads 1111 tokens from the cache.",
            interaction=1,
        ),
        recorded(
            "count-tokens-error-model-not-found",
            P + "test_anthropic_count_tokens_error.yaml",
            "count_tokens for an unknown model: 404 not_found_error.",
            method="count_tokens",
        ),
        recorded(
            "error-effort-unsupported",
            P + "test_anthropic_explicit_effort_xhigh_unsupported_model_errors.yaml",
            "output_config.effort xhigh (extra_body) on a model without it: 400 invalid_request_error.",
        ),
        recorded(
            "generate-pdf-inline",
            P + "test_document_binary_content_input.yaml",
            "A base64 PDF document block; text answer.",
        ),
        recorded(
            "generate-pdf-url",
            P + "test_document_url_input.yaml",
            "A PDF by URL (document source url); text answer.",
        ),
        recorded(
            "generate-image-url",
            P + "test_image_url_input.yaml",
            "An image by URL (image source url); text answer.",
        ),
        recorded(
            "generate-parallel-tool-calls",
            P + "test_multiple_parallel_tool_calls.yaml",
            "Text and four parallel tool_use blocks.",
            features=("function_tools",),
        ),
        recorded(
            "generate-parallel-tool-results",
            P + "test_multiple_parallel_tool_calls.yaml",
            "Four tool_results in one user turn; the final answer.",
            interaction=1,
            features=("function_tools",),
        ),
        recorded(
            "generate-stop-sequence",
            PE + "test_settings__test_stop_settings[anthropic].yaml",
            "stop_sequences: stop_reason stop_sequence, the matched sequence kept.",
        ),
        recorded(
            "error-model-not-found",
            PE + "test_model_name_suggestions__test_model_name_suggestion[anthropic].yaml",
            "A misspelt model: 404 not_found_error with the body's request_id.",
        ),
        recorded(
            "generate-web-search-citations",
            P + "test_anthropic_web_search_tool.yaml",
            "anthropic.web_search with thinking: server_tool_use, web_search_tool_result and text blocks with web_search_result_location citations.",
            features=("provider_tools", "reasoning"),
        ),
        recorded(
            "generate-web-search-replayed",
            P + "test_anthropic_web_search_tool.yaml",
            "Turn 2 sends the search call and its result blocks back in the assistant turn.",
            interaction=1,
            features=("provider_tools", "reasoning"),
        ),
        recorded(
            "stream-web-search-citations",
            P + "test_anthropic_web_search_tool_stream.yaml",
            "Streamed web search: the call's input in input_json_delta, the result block whole, citations_delta.",
            features=("provider_tools",),
        ),
        recorded(
            "generate-web-fetch",
            P + "test_anthropic_web_fetch_tool.yaml",
            "anthropic.web_fetch: web_fetch_tool_result holding a document.",
            features=("provider_tools", "reasoning"),
        ),
        recorded(
            "generate-web-fetch-replayed",
            P + "test_anthropic_web_fetch_tool.yaml",
            "Turn 2 with the fetch call and result sent back.",
            interaction=1,
            features=("provider_tools", "reasoning"),
        ),
        recorded(
            "generate-code-execution",
            P + "test_anthropic_code_execution_tool.yaml",
            "anthropic.code_execution (version 20260120): bash_code_execution call and result, the container.",
            features=("provider_tools",),
        ),
        recorded(
            "stream-code-execution",
            P + "test_anthropic_code_execution_tool_stream.yaml",
            "Streamed code execution with thinking: the call's input over 9 input_json_delta.",
            features=("provider_tools", "reasoning"),
        ),
        recorded(
            "stream-text-editor-code-execution",
            P + "test_anthropic_text_editor_code_execution_tool_stream.yaml",
            "Three text_editor_code_execution calls; one result is an error.",
            features=("provider_tools",),
        ),
        recorded(
            "stream-mcp-servers",
            P + "test_anthropic_mcp_servers_stream.yaml",
            "mcp_servers (extra_body): mcp_tool_use and mcp_tool_result blocks with thinking.",
            features=("reasoning",),
        ),
        recorded(
            "generate-web-search-generate",
            F + "TestAnthropicWebSearch__generate.yaml",
            "Web search (fantasy): 8 web_search_result_location citations.",
            features=("provider_tools",),
        ),
        recorded(
            "stream-web-search",
            L + "test_web_search.yaml",
            "Streamed web search on claude-opus-4-1 with citations_delta.",
            features=("provider_tools",),
        ),
        *tool_search,
        recorded(
            "stream-error-authentication",
            M
            + "python__tests__e2e__input__cassettes__test_authentication_error_stream__anthropic_claude_sonnet_4_0.yaml",
            "A stream request with a bad key: 401 authentication_error (JSON, not SSE).",
        ),
        recorded(
            "stream-error-model-not-found",
            M
            + "python__tests__e2e__input__cassettes__test_model_not_found_stream__anthropic_claude_sonnet_4_0.yaml",
            "A stream request for an unknown model: 404 not_found_error.",
        ),
        recorded(
            "stream-max-tokens",
            M
            + "python__tests__e2e__output__cassettes__test_max_tokens__anthropic_claude_sonnet_4_0__stream.yaml",
            "A stream cut by max_tokens: finish length.",
        ),
        recorded(
            "generate-max-tokens",
            M
            + "python__tests__e2e__output__cassettes__test_max_tokens__anthropic_claude_sonnet_4_0__sync.yaml",
            "max_tokens reached: finish length.",
        ),
        recorded(
            "generate-sampling-thinking-disabled",
            M
            + "python__tests__e2e__input__cassettes__test_call_with_params__anthropic_claude_sonnet_4_0.yaml",
            "temperature, top_p, top_k, stop_sequences and thinking disabled; stop_sequence.",
        ),
        recorded(
            "generate-tool-error-result",
            M
            + "typescript__tests__e2e__input__cassettes__tool-error__anthropic__handles-tool-execution-errors-and-retries.har",
            "A tool_use answer (the tool definition's own cache_control is not sent).",
            features=("function_tools",),
        ),
        recorded(
            "generate-retry-after-tool-error",
            M
            + "typescript__tests__e2e__input__cassettes__tool-error__anthropic__handles-tool-execution-errors-and-retries.har",
            "A tool_result with is_error true; the model retries the call.",
            interaction=1,
            features=("function_tools",),
        ),
        recorded(
            "error-empty-content",
            M
            + "typescript__tests__e2e__input__cassettes__empty-call__anthropic__handles-empty-string-content.har",
            "Empty user content: 400 invalid_request_error with request_id.",
        ),
        recorded(
            "stream-thinking-then-tool-call",
            F + "TestAnthropicThinking__claude-sonnet-4__thinking-streaming.yaml",
            "Streamed thinking (signature_delta) then a tool_use.",
            features=("reasoning", "function_tools"),
        ),
        recorded(
            "stream-thinking-replayed-with-tool-result",
            F + "TestAnthropicThinking__claude-sonnet-4__thinking-streaming.yaml",
            "Turn 2 replays the streamed thinking with the tool_result.",
            interaction=1,
            features=("reasoning", "function_tools"),
        ),
        recorded(
            "generate-thinking-tool-call",
            F + "TestAnthropicThinking__claude-sonnet-4__thinking.yaml",
            "Thinking then a tool_use (non-streamed).",
            features=("reasoning", "function_tools"),
        ),
        recorded(
            "generate-thinking-replayed-with-tool-result",
            F + "TestAnthropicThinking__claude-sonnet-4__thinking.yaml",
            "Turn 2 replays thinking and tool_use with the tool_result.",
            interaction=1,
            features=("reasoning", "function_tools"),
        ),
        recorded(
            "stream-parallel-tool-calls",
            F + "TestAnthropicCommon__claude-sonnet-4__multi_tool_streaming.yaml",
            "Streamed text and two parallel tool_use blocks.",
            features=("function_tools",),
        ),
        recorded(
            "stream-after-parallel-tool-results",
            F + "TestAnthropicCommon__claude-sonnet-4__multi_tool_streaming.yaml",
            "Two tool_results; the streamed final answer.",
            interaction=1,
            features=("function_tools",),
        ),
        recorded("stream-text", L + "test_prompt.yaml", "A plain streamed answer, event: lines and ping."),
        recorded(
            "stream-tool-call",
            L + "test_tools.yaml",
            "A streamed tool_use (input_json_delta).",
            features=("function_tools",),
        ),
        recorded(
            "stream-after-tool-result",
            L + "test_tools.yaml",
            "The tool_result; the streamed answer.",
            interaction=1,
            features=("function_tools",),
        ),
        recorded(
            "stream-thinking",
            L + "test_thinking_prompt.yaml",
            "29 thinking_delta frames and a signature_delta.",
            features=("reasoning",),
        ),
        recorded(
            "stream-thinking-tool-chain",
            L + "test_fixed_version_tool_chain_with_thinking_display_regression.yaml",
            "Streamed thinking then tool_use.",
            features=("reasoning", "function_tools"),
        ),
        recorded(
            "stream-thinking-tool-chain-replayed",
            L + "test_fixed_version_tool_chain_with_thinking_display_regression.yaml",
            "Turn 2 replays the thinking with the tool_result.",
            interaction=1,
            features=("reasoning", "function_tools"),
        ),
        recorded(
            "stream-prefill-stop-sequence",
            L + "test_prompt_with_prefill_and_stop_sequences.yaml",
            "An assistant prefill as the last message and stop_sequences: stop_sequence.",
        ),
        recorded("stream-image-inline", L + "test_image_prompt.yaml", "A base64 image; streamed answer."),
        body_only(
            "generate-text-cache-split",
            V + "anthropic-text.json",
            "A message body whose usage has the cache_creation split and service_tier.",
            raw_json(V + "anthropic-text.json"),
            "generate",
            "claude-sonnet-4-5",
            {"messages": _user("Hello"), "max_output_tokens": 1024},
        ),
        body_only(
            "stream-text-chunks",
            V + "anthropic-text.chunks.txt",
            "message_start, ping, text deltas, message_delta, message_stop.",
            chunks(V + "anthropic-text.chunks.txt"),
            "stream",
            "claude-sonnet-4-5",
            {"messages": _user("Hello"), "max_output_tokens": 1024},
        ),
        body_only(
            "stream-tool-call-no-args",
            V + "anthropic-tool-no-args.chunks.txt",
            "A tool_use with empty input (one empty input_json_delta).",
            chunks(V + "anthropic-tool-no-args.chunks.txt"),
            "stream",
            "claude-sonnet-4-5",
            {
                "messages": _user("What is the current time?"),
                "max_output_tokens": 1024,
                "tools": [
                    {
                        "type": "function",
                        "name": "get_current_time",
                        "parameters": {"type": "object", "properties": {}},
                    }
                ],
            },
            features=("function_tools",),
        ),
        body_only(
            "stream-extended-thinking",
            R + "stream-with-extended-thinking-1.sse",
            "Thinking block starting with signature '', 23 thinking_delta, signature_delta.",
            sse(R + "stream-with-extended-thinking-1.sse"),
            "stream",
            "claude-3-7-sonnet-latest",
            {
                "messages": _user("What is the meaning of life?"),
                "max_output_tokens": 8192,
                "reasoning": {"budget_tokens": 4096},
            },
            features=("reasoning",),
        ),
        body_only(
            "stream-response-format-answer-tool",
            V + "anthropic-json-tool.1.chunks.txt",
            "response_format as the forced answer tool 'json': its input, in 3 input_json_delta fragments, is the answer text.",
            chunks(V + "anthropic-json-tool.1.chunks.txt"),
            "stream",
            "claude-haiku-4-5",
            {
                "messages": _user("What is the weather in San Francisco?"),
                "max_output_tokens": 4096,
                "response_format": {
                    "type": "json_schema",
                    "name": "json",
                    "description": "Respond with a JSON object.",
                    "schema": WEATHER_SCHEMA,
                },
            },
            features=("structured_output",),
        ),
        body_only(
            "generate-opus-reasoning",
            V + "anthropic-claude-opus-5-reasoning-high.1.json",
            "A thinking block with its signature, then text.",
            raw_json(V + "anthropic-claude-opus-5-reasoning-high.1.json"),
            "generate",
            "claude-opus-5",
            {
                "messages": _user("How many r's are in strawberry?"),
                "max_output_tokens": 32000,
                "reasoning": {"budget_tokens": 16384},
            },
            features=("reasoning",),
        ),
    ]
