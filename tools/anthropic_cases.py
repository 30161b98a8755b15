# ruff: noqa: E501  (a data table: long descriptions and corpus file names read better unwrapped)
"""The ``anthropic`` conformance cases: which recording, which interaction, which canonical request.

A case built from a recording with its request (``recorded``) takes the canonical request the
recorded body means (:func:`anthropic_corpus.canonical`); ``source.note`` lists the top-level
fields where the body the API reference prescribes for it differs from what the recording tool sent
(e.g. ``system`` as one block instead of a string). A body-only recording (``body_only``) pairs a
recorded response with a request written for it (``RECONSTRUCTED``). The helpers are in
:mod:`anthropic_case_kit`; the tools cases in :mod:`anthropic_cases_tools`.
"""

from __future__ import annotations

from typing import Any

from anthropic_case_kit import PE, RECONSTRUCTED, L, M, P, R, V, body_only, recorded, user_turn
from anthropic_cases_documents import document_cases
from anthropic_cases_edges import edge_cases
from anthropic_cases_requests import request_cases
from anthropic_cases_tools import tool_cases
from anthropic_cases_versions import version_cases
from anthropic_corpus import chunks, raw_json, sse

__all__ = ["cases"]

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


def cases() -> list[dict[str, Any]]:
    """Every case: messages, thinking, caching, documents and errors, then the tools cases."""
    return [
        recorded(
            "generate-system-instructions",
            P + "test_anthropic_model_instructions.yaml",
            "Top-level system text and a question; plain text, end_turn.",
        ),
        {
            **recorded(
                "generate-prompt-cache-system",
                P + "test_anthropic_model_instructions.yaml",
                "prompt_cache at system: the system string goes as one text block ending in cache_control (ttl 5m).",
                features=("prompt_cache",),
            ),
            "prompt_cache": {"at": ["system"]},
            "note": "the recorded request has no breakpoint; its prompt is far below the 1024 tokens a prompt must reach to be cached, and a shorter one marked with cache_control is processed without caching, as this answer was (no cache write, no read)",
        },
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
            "stream-redacted-thinking",
            P + "test_anthropic_model_thinking_part_redacted_stream.yaml",
            "Streamed redacted_thinking: each block arrives whole in content_block_start, no deltas.",
            features=("reasoning",),
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
            "error-empty-content",
            M
            + "typescript__tests__e2e__input__cassettes__empty-call__anthropic__handles-empty-string-content.har",
            "Empty user content: 400 invalid_request_error with request_id.",
        ),
        recorded("stream-text", L + "test_prompt.yaml", "A plain streamed answer, event: lines and ping."),
        recorded(
            "stream-thinking",
            L + "test_thinking_prompt.yaml",
            "29 thinking_delta frames and a signature_delta.",
            features=("reasoning",),
        ),
        recorded(
            "stream-prefill-stop-sequence",
            L + "test_prompt_with_prefill_and_stop_sequences.yaml",
            "An assistant prefill as the last message and stop_sequences: stop_sequence.",
        ),
        recorded("stream-image-inline", L + "test_image_prompt.yaml", "A base64 image; streamed answer."),
        {
            **recorded(
                "stream-thinking-temperature-not-sent",
                L + "test_thinking_prompt.yaml",
                "The recorded client's temperature 1.0 beside a thinking budget: thinking takes no temperature, so it is not sent, with an unsupported-setting warning.",
                features=("reasoning",),
            ),
            "request_update": {"temperature": 1.0},
        },
        {
            **body_only(
                "generate-pdf-citations",
                R + "generate-text-with-pdf-citations-1.json",
                "A PDF document block with its title and citations enabled (provider_metadata): page_location citations become numbered document sources and cited spans.",
                raw_json(R + "generate-text-with-pdf-citations-1.json"),
                "generate",
                "claude-3-5-sonnet-20241022",
                {
                    "messages": [
                        {
                            "role": "user",
                            "content": [
                                {
                                    "type": "file",
                                    "media_type": "application/pdf",
                                    "uri": "https://example.com/grass-and-sky.pdf",
                                    "provider_metadata": {
                                        "anthropic": {
                                            "title": "All aboout the grass and the sky",
                                            "citations": {"enabled": True},
                                        }
                                    },
                                },
                                {"type": "text", "text": "What color is the grass and sky?"},
                            ],
                        }
                    ],
                    "max_output_tokens": 1024,
                },
            ),
            "note": RECONSTRUCTED
            + "; the recording has no request, so the document is sent by an invented URL",
        },
        body_only(
            "generate-text-cache-split",
            V + "anthropic-text.json",
            "A message body whose usage has the cache_creation split and service_tier.",
            raw_json(V + "anthropic-text.json"),
            "generate",
            "claude-sonnet-4-5",
            {"messages": user_turn("Hello"), "max_output_tokens": 1024},
        ),
        body_only(
            "stream-text-chunks",
            V + "anthropic-text.chunks.txt",
            "message_start, ping, text deltas, message_delta, message_stop.",
            chunks(V + "anthropic-text.chunks.txt"),
            "stream",
            "claude-sonnet-4-5",
            {"messages": user_turn("Hello"), "max_output_tokens": 1024},
        ),
        body_only(
            "stream-extended-thinking",
            R + "stream-with-extended-thinking-1.sse",
            "Thinking block starting with signature '', 23 thinking_delta, signature_delta.",
            sse(R + "stream-with-extended-thinking-1.sse"),
            "stream",
            "claude-3-7-sonnet-latest",
            {
                "messages": user_turn("What is the meaning of life?"),
                "max_output_tokens": 8192,
                "reasoning": {"budget_tokens": 4096},
            },
            features=("reasoning",),
        ),
        body_only(
            "stream-response-format-answer-tool",
            V + "anthropic-json-tool.1.chunks.txt",
            "response_format as the forced answer tool 'json' (chosen over JSON outputs): its input, in 3 input_json_delta fragments, is the answer text.",
            chunks(V + "anthropic-json-tool.1.chunks.txt"),
            "stream",
            "claude-haiku-4-5",
            {
                "messages": user_turn("What is the weather in San Francisco?"),
                "max_output_tokens": 4096,
                "provider_options": {"anthropic": {"structured_output": "tool"}},
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
            "stream-response-format-strict-answer-tool",
            V + "anthropic-json-tool.1.chunks.txt",
            "response_format strict=True sent as the forced answer tool: a tool input is not strict, so strict is not sent, with an unsupported-setting warning; the answer is as in stream-response-format-answer-tool.",
            chunks(V + "anthropic-json-tool.1.chunks.txt"),
            "stream",
            "claude-haiku-4-5",
            {
                "messages": user_turn("What is the weather in San Francisco?"),
                "max_output_tokens": 4096,
                "provider_options": {"anthropic": {"structured_output": "tool"}},
                "response_format": {
                    "type": "json_schema",
                    "name": "json",
                    "description": "Respond with a JSON object.",
                    "schema": WEATHER_SCHEMA,
                    "strict": True,
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
                "messages": user_turn("How many r's are in strawberry?"),
                "max_output_tokens": 32000,
                "reasoning": {"budget_tokens": 16384},
            },
            features=("reasoning",),
        ),
        *tool_cases(),
        *edge_cases(),
        *document_cases(),
        *version_cases(),
        *request_cases(),
    ]
