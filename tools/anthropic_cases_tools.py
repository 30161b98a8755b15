# ruff: noqa: E501  (a data table: long descriptions and corpus file names read better unwrapped)
"""The ``anthropic`` conformance cases of tools: function tools (parallel calls, errors, thinking
between calls) and server tools (web search, web fetch, code execution, MCP)."""

from __future__ import annotations

from typing import Any

from anthropic_case_kit import PE, F, L, M, P, V, body_only, recorded, trimmed, user_turn, without_block_start
from anthropic_corpus import chunks

__all__ = ["tool_cases"]

PAUSED = P + "test_pause_turn_web_search_vcr.yaml"
TOOL_SEARCH = PE + "test_tool_search__test_tool_search_eval[anthropic].yaml"


def tool_cases() -> list[dict[str, Any]]:
    """Every tools case."""
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
            "generate-web-search-citations",
            P + "test_anthropic_web_search_tool.yaml",
            "anthropic.web_search with thinking: server_tool_use, web_search_tool_result and text blocks with web_search_result_location citations.",
            features=("provider_tools", "reasoning"),
        ),
        recorded(
            "generate-web-search-neutral",
            P + "test_anthropic_web_search_tool.yaml",
            "The neutral web_search (modelport.tools), no option set: the same web_search_20250305 block, no null options (the recording's client sent them as null).",
            features=("web_search", "reasoning"),
            neutral=True,
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
            "generate-web-fetch-neutral",
            P + "test_anthropic_web_fetch_tool.yaml",
            "The neutral web_fetch (modelport.tools), no option set: the same web_fetch_20250910 block, no null options.",
            features=("web_fetch", "reasoning"),
            neutral=True,
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
            "stream-mcp-server-neutral",
            P + "test_anthropic_mcp_servers_stream.yaml",
            "The neutral mcp_server (modelport.tools) with allowed_tools: the same mcp_servers entry, sent with the mcp-client-2025-04-04 beta; mcp_tool_use and mcp_tool_result as provider-executed parts.",
            features=("mcp_server", "reasoning"),
            neutral=True,
        ),
        recorded(
            "generate-mcp-server-neutral",
            P + "test_anthropic_mcp_servers.yaml",
            "The neutral mcp_server, no allowed_tools: an mcp_servers entry without tool_configuration; non-stream mcp_tool_use (server_name deepwiki) and mcp_tool_result blocks.",
            features=("mcp_server", "reasoning"),
            neutral=True,
        ),
        recorded(
            "generate-mcp-server-replayed",
            P + "test_anthropic_mcp_servers.yaml",
            "Turn 2 sends the MCP call and result blocks back in the assistant turn, with the neutral mcp_server again.",
            interaction=1,
            features=("mcp_server", "reasoning"),
            neutral=True,
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
        trimmed(
            recorded(
                "generate-web-search-pause-turn",
                PAUSED,
                "A turn paused after 10 web searches: stop_reason pause_turn (finish other), the paused turn's thinking, searches and results kept to send back.",
                features=("provider_tools", "reasoning"),
            )
        ),
        *tool_search,
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
        {
            **recorded(
                "generate-prompt-cache-tools-and-turn",
                M
                + "typescript__tests__e2e__input__cassettes__tool-error__anthropic__handles-tool-execution-errors-and-retries.har",
                "prompt_cache at tools and messages: cache_control on the last tool and on the last block (the tool_result) of the last user turn, where the recording has its breakpoints.",
                interaction=1,
                features=("function_tools", "prompt_cache"),
            ),
            "prompt_cache": {"at": ["tools", "messages"]},
            "note": "the recorded breakpoints are {type: ephemeral}; prompt_cache always sends its ttl (5m, the API's default)",
        },
        {
            **recorded(
                "generate-prompt-cache-key-not-sent",
                M
                + "typescript__tests__e2e__input__cassettes__tool-error__anthropic__handles-tool-execution-errors-and-retries.har",
                "prompt_cache with a key: the Messages API has no cache key, so the body is the breakpoints alone and an unsupported-setting warning names prompt_cache.key.",
                interaction=1,
                features=("function_tools", "prompt_cache"),
            ),
            "prompt_cache": {"at": ["tools", "messages"], "key": "tool-error-retries"},
            "note": "the recorded breakpoints are {type: ephemeral}; prompt_cache always sends its ttl (5m, the API's default); the key is the case's (the recording's client had none to send)",
        },
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
        recorded(
            "stream-tool-call",
            L + "test_tools.yaml",
            "A streamed tool_use (input_json_delta).",
            features=("function_tools",),
        ),
        without_block_start(
            recorded(
                "stream-tool-call-block-start-lost",
                L + "test_tools.yaml",
                "The streamed tool_use with its content_block_start cut: input_json_delta for a block that never started is a ProviderResponseError, what arrived before it kept.",
                features=("function_tools",),
            ),
            "tool_use",
        ),
        recorded(
            "stream-after-tool-result",
            L + "test_tools.yaml",
            "The tool_result; the streamed answer.",
            interaction=1,
            features=("function_tools",),
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
        body_only(
            "stream-tool-call-no-args",
            V + "anthropic-tool-no-args.chunks.txt",
            "A tool_use with empty input (one empty input_json_delta).",
            chunks(V + "anthropic-tool-no-args.chunks.txt"),
            "stream",
            "claude-sonnet-4-5",
            {
                "messages": user_turn("What is the current time?"),
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
            "stream-tool-choice-required",
            V + "anthropic-tool-no-args.chunks.txt",
            "tool_choice required: the Messages API's tool_choice any (some tool must be called); the answer is that call.",
            chunks(V + "anthropic-tool-no-args.chunks.txt"),
            "stream",
            "claude-sonnet-4-5",
            {
                "messages": user_turn("What is the current time?"),
                "max_output_tokens": 1024,
                "tools": [
                    {
                        "type": "function",
                        "name": "get_current_time",
                        "parameters": {"type": "object", "properties": {}},
                    }
                ],
                "tool_choice": "required",
            },
            features=("function_tools",),
        ),
    ]
