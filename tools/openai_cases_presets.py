# ruff: noqa: E501  (a data table: long descriptions and corpus file names read better unwrapped)
"""The OpenAI-compatible presets' conformance cases (groq, deepseek, openrouter, xai, together,
ollama, openai-compatible; mistral's in openai_cases_mistral); shared names live in openai_case_data."""

from __future__ import annotations

from typing import Any

from openai_case_data import (
    ADAPTED,
    GROQ_PROMPT,
    GROQ_TOOL,
    IMAGE,
    OT,
    RECONSTRUCTED,
    F,
    P,
    T,
    V,
    _call,
    _result,
)
from openai_corpus import chunks, raw_json, vcr


def groq_cases() -> list[dict[str, Any]]:
    failed = P + "test_groq__test_tool_use_failed_error.yaml"
    failed_stream = P + "test_groq__test_tool_use_failed_error_streaming.yaml"
    bad_call = "pyd_ai_445dbde6c4764cafb5782bb928ef6c2c"
    return [
        {
            "name": "generate-image-url-input",
            "description": "Text and an https image_url; Groq usage with timing fields.",
            "method": "generate",
            "model": "meta-llama/llama-4-scout-17b-16e-instruct",
            "request": {
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {"type": "text", "text": "What is the name of this fruit?"},
                            {"type": "file", "media_type": "image/jpeg", "uri": IMAGE},
                        ],
                    }
                ]
            },
            "response": vcr(P + "test_groq__test_image_url_input.yaml"),
            "source": P + "test_groq__test_image_url_input.yaml",
            "source_args": {"note": ADAPTED},
        },
        {
            "name": "error-tool-use-failed",
            "description": "400 tool_use_failed with failed_generation: ProviderRequestError.",
            "method": "generate",
            "model": "openai/gpt-oss-120b",
            "features": ["function_tools"],
            "request": {"messages": GROQ_PROMPT, "tools": [GROQ_TOOL], "tool_choice": "auto"},
            "response": vcr(failed, 0),
            "source": failed,
            "source_args": {"interaction": 0, "note": ADAPTED},
        },
        {
            "name": "generate-tool-call-after-tool-error",
            "description": "After a tool error result, a valid call; message.reasoning; 22 reasoning tokens.",
            "method": "generate",
            "model": "openai/gpt-oss-120b",
            "features": ["function_tools"],
            "request": {
                "messages": [
                    *GROQ_PROMPT,
                    {
                        "role": "assistant",
                        "content": [_call(bad_call, "get_something_by_name", {"foo": "bar"})],
                    },
                    {
                        "role": "tool",
                        "content": [
                            _result(
                                bad_call,
                                "get_something_by_name",
                                "Field required: name. Fix the errors and try again.",
                            )
                        ],
                    },
                ],
                "tools": [GROQ_TOOL],
                "tool_choice": "auto",
            },
            "response": vcr(failed, 1),
            "source": failed,
            "source_args": {"interaction": 1, "note": ADAPTED + "; the tool error text is shortened"},
        },
        {
            "name": "stream-error-event-no-done",
            "description": "Reasoning deltas, then event: error (tool_use_failed, status_code 400) and no [DONE].",
            "method": "stream",
            "model": "openai/gpt-oss-120b",
            "features": ["function_tools"],
            "request": {"messages": GROQ_PROMPT, "tools": [GROQ_TOOL], "tool_choice": "auto"},
            "response": vcr(failed_stream, 0),
            "source": failed_stream,
            "source_args": {"interaction": 0, "note": ADAPTED},
        },
        {
            "name": "stream-tool-call-one-delta",
            "description": "The whole call in one delta; usage top-level and in x_groq.usage.",
            "method": "stream",
            "model": "moonshotai/kimi-k2-instruct-0905",
            "features": ["function_tools"],
            "request": {
                "prompt": "What is the weather?",
                "tools": [
                    {
                        "type": "function",
                        "name": "weather",
                        "parameters": {"type": "object", "properties": {}},
                    }
                ],
            },
            "response": chunks(V + "groq__src____fixtures____groq-tool-call.chunks.txt"),
            "source": V + "groq__src____fixtures____groq-tool-call.chunks.txt",
            "source_args": {"note": RECONSTRUCTED},
        },
        {
            "name": "generate-reasoning-field",
            "description": "message.reasoning (not reasoning_content); 570 reasoning tokens.",
            "method": "generate",
            "model": "qwen/qwen3-32b",
            "features": ["reasoning"],
            "request": {"prompt": "How many r's are in the word strawberry?"},
            "response": raw_json(V + "groq__src____fixtures____groq-reasoning.json"),
            "source": V + "groq__src____fixtures____groq-reasoning.json",
            "source_args": {"note": RECONSTRUCTED},
        },
    ]


def deepseek_cases() -> list[dict[str, Any]]:
    return [
        {
            "name": "stream-reasoning-content",
            "description": "reasoning_content deltas, then content; usage on the finish chunk with cache hit/miss counts.",
            "method": "stream",
            "model": "deepseek-reasoner",
            "features": ["reasoning"],
            "request": {"prompt": "Hello"},
            "response": vcr(P + "test_deepseek__test_deepseek_model_thinking_stream.yaml"),
            "source": P + "test_deepseek__test_deepseek_model_thinking_stream.yaml",
        },
        {
            "name": "generate-reasoning-content",
            "description": "message.reasoning_content; 315 reasoning tokens.",
            "method": "generate",
            "model": "deepseek-reasoner",
            "features": ["reasoning"],
            "request": {"prompt": "How many r's are in the word strawberry?"},
            "response": raw_json(V + "deepseek__src__chat____fixtures____deepseek-reasoning.json"),
            "source": V + "deepseek__src__chat____fixtures____deepseek-reasoning.json",
            "source_args": {"note": RECONSTRUCTED},
        },
        {
            "name": "generate-length",
            "description": "finish_reason length at 300 tokens; cache hits as prompt_cache_hit_tokens.",
            "method": "generate",
            "model": "deepseek-chat",
            "request": {
                "prompt": "Invent a new holiday and describe its traditions.",
                "max_output_tokens": 300,
            },
            "response": raw_json(V + "deepseek__src__chat____fixtures____deepseek-text.json"),
            "source": V + "deepseek__src__chat____fixtures____deepseek-text.json",
            "source_args": {"note": RECONSTRUCTED},
        },
        {
            "name": "stream-tool-call-after-reasoning",
            "description": "reasoning_content, then tool-call arguments over 11 fragments; cached 320.",
            "method": "stream",
            "model": "deepseek-reasoner",
            "features": ["function_tools", "reasoning"],
            "request": {
                "prompt": "What is the weather in San Francisco?",
                "tools": [
                    {
                        "type": "function",
                        "name": "weather",
                        "parameters": {
                            "type": "object",
                            "properties": {"location": {"type": "string"}},
                            "required": ["location"],
                        },
                    }
                ],
            },
            "response": chunks(V + "deepseek__src__chat____fixtures____deepseek-tool-call.chunks.txt"),
            "source": V + "deepseek__src__chat____fixtures____deepseek-tool-call.chunks.txt",
            "source_args": {"note": RECONSTRUCTED},
        },
    ]


def openrouter_cases() -> list[dict[str, Any]]:
    return [
        {
            "name": "error-rate-limited-retried",
            "description": "429 'Provider returned error' (code 429, metadata.raw) three times: two retries, then the error.",
            "method": "generate",
            "model": "google/gemini-2.0-flash-exp:free",
            "config": {"max_retries": 2, "max_retry_delay": 0.01},
            "request": {"system": "Be helpful.", "prompt": "Tell me a joke."},
            "responses": [
                vcr(P + "test_openrouter__test_openrouter_errors_raised.yaml", i) for i in range(3)
            ],
            "source": P + "test_openrouter__test_openrouter_errors_raised.yaml",
        },
        {
            "name": "stream-error-in-chunk",
            "description": "SSE comments, length finish, then a chunk with a top-level error {code 400}: the partial is kept.",
            "method": "stream",
            "model": "minimax/minimax-m2:free",
            "request": {"prompt": "Hello there", "max_output_tokens": 10},
            "response": vcr(P + "test_openrouter__test_openrouter_stream_error.yaml"),
            "source": P + "test_openrouter__test_openrouter_stream_error.yaml",
            "source_args": {
                "note": "the recording sent max_completion_tokens; modelport sends max_tokens for this model"
            },
        },
        {
            "name": "stream-reasoning-comments",
            "description": "': OPENROUTER PROCESSING' comments, reasoning deltas, usage (cost) on a last chunk with choices.",
            "method": "stream",
            "model": "anthropic/claude-sonnet-4.5",
            "features": ["reasoning"],
            "request": {"prompt": "What is 2+2?", "reasoning": {"effort": "low"}},
            "response": vcr(P + "test_openrouter__test_openrouter_streaming_reasoning.yaml"),
            "source": P + "test_openrouter__test_openrouter_streaming_reasoning.yaml",
            "source_args": {
                "note": "the recording sent reasoning: {enabled: true}; this request asks for an effort"
            },
        },
    ]


def xai_cases() -> list[dict[str, Any]]:
    return [
        {
            "name": "stream-reasoning-token-accounting",
            "description": "340 reasoning_content deltas; completion_tokens 2 excludes reasoning: output 342, total 354.",
            "method": "stream",
            "model": "grok-3-mini",
            "features": ["reasoning"],
            "request": {"prompt": "Say a single word."},
            "response": chunks(V + "openai-compatible__src__chat____fixtures____xai-text.chunks.txt"),
            "source": V + "openai-compatible__src__chat____fixtures____xai-text.chunks.txt",
            "source_args": {"note": RECONSTRUCTED},
        },
        {
            "name": "generate-tool-call-empty-content",
            "description": "A tool call with content '' (not null) and reasoning_content; total 588 = 307 + 26 + 255.",
            "method": "generate",
            "model": "grok-3-mini",
            "features": ["function_tools"],
            "request": {
                "prompt": "What is the weather in San Francisco?",
                "tools": [
                    {
                        "type": "function",
                        "name": "weather",
                        "parameters": {
                            "type": "object",
                            "properties": {"location": {"type": "string"}},
                            "required": ["location"],
                        },
                    }
                ],
            },
            "response": raw_json(V + "openai-compatible__src__chat____fixtures____xai-tool-call.json"),
            "source": V + "openai-compatible__src__chat____fixtures____xai-tool-call.json",
            "source_args": {"note": RECONSTRUCTED},
        },
    ]


def together_cases() -> list[dict[str, Any]]:
    # No Together recording exists in the corpus; Together serves the same Chat Completions
    # protocol, so these cases replay OpenAI-recorded responses to pin the preset's request mapping
    # (its base URL and top_k, which OpenAI does not take).
    borrowed = "an OpenAI-recorded response replayed for the together preset (same protocol; the corpus has no Together recording): the case pins the request mapping"
    return [
        {
            "name": "generate-top-k-length",
            "description": "top_k is sent (Together takes it); max_output_tokens 3 ends in length.",
            "method": "generate",
            "model": "meta-llama/Llama-3.3-70B-Instruct-Turbo",
            "request": {"prompt": "Please tell me a story", "max_output_tokens": 3, "top_k": 40},
            "response": vcr(
                F + "packages__lmi__tests__cassettes__TestLiteLLMModel.test_max_token_truncation.yaml"
            ),
            "source": F + "packages__lmi__tests__cassettes__TestLiteLLMModel.test_max_token_truncation.yaml",
            "source_args": {"note": "gzip body decompressed; " + borrowed},
        },
        {
            "name": "stream-text-no-usage",
            "description": "A streamed answer with stream_options asked for but no usage sent.",
            "method": "stream",
            "model": "meta-llama/Llama-3.3-70B-Instruct-Turbo",
            "request": {"prompt": "Say this is a test", "top_k": 40},
            "response": vcr(OT + "test_chat_completion_streaming_not_complete.yaml"),
            "source": OT + "test_chat_completion_streaming_not_complete.yaml",
            "source_args": {"note": borrowed},
        },
    ]


def ollama_cases() -> list[dict[str, Any]]:
    return [
        {
            "name": "generate-json-schema-local",
            "description": "A local qwen3 with json_schema; message.reasoning; usage without details.",
            "method": "generate",
            "model": "qwen3:0.6b",
            "features": ["structured_output"],
            "request": {
                "prompt": "What is the capital of France?",
                "response_format": {
                    "type": "json_schema",
                    "name": "CityLocation",
                    "schema": {
                        "type": "object",
                        "properties": {"city": {"type": "string"}, "country": {"type": "string"}},
                        "required": ["city", "country"],
                        "title": "CityLocation",
                    },
                },
            },
            "response": vcr(P + "test_ollama__test_ollama_local_native_output_uses_json_schema.yaml"),
            "source": P + "test_ollama__test_ollama_local_native_output_uses_json_schema.yaml",
        },
    ]


def compatible_cases() -> list[dict[str, Any]]:
    azure = "https://traceloop-stg.openai.azure.com/openai/deployments/openllmetry-testing"
    cerebras = V + "cerebras__src__fixtures__cererebras-structured-output-tools.1.chunks.txt"
    useless = {
        "type": "function",
        "name": "nonUsefulTool",
        "parameters": {"type": "object", "properties": {}},
    }
    return [
        {
            "name": "generate-content-filter-no-message",
            "description": "Azure: finish_reason content_filter and a choice with no message key.",
            "method": "generate",
            "model": "openllmetry-testing",
            "config": {"base_url": azure},
            "request": {"prompt": "Tell me a joke about opentelemetry"},
            "response": vcr(T + "test_azure__test_chat_content_filtering.yaml", 0),
            "source": T + "test_azure__test_chat_content_filtering.yaml",
            "source_args": {
                "interaction": 0,
                "note": "the api-version query of the recorded URL is left out",
            },
        },
        {
            "name": "stream-empty-first-chunk",
            "description": "Azure model router: a first chunk with id '', model '' and prompt_filter_results.",
            "method": "stream",
            "model": "model-router",
            "config": {"base_url": "https://example-resource.openai.azure.com/openai/v1"},
            "request": {"prompt": "What is the capital of Denmark? Answer briefly."},
            "response": chunks(V + "openai__src__chat____fixtures____azure-model-router.1.chunks.txt"),
            "source": V + "openai__src__chat____fixtures____azure-model-router.1.chunks.txt",
            "source_args": {"note": RECONSTRUCTED},
        },
        {
            "name": "stream-thinking-zai",
            "description": "Z.ai: reasoning_content deltas; usage on the finish chunk (no empty-choices chunk).",
            "method": "stream",
            "model": "glm-4.7",
            "features": ["reasoning"],
            "config": {"base_url": "https://api.z.ai/api/paas/v4"},
            "request": {"prompt": "What is 2 + 2?"},
            "response": vcr(P + "test_zai__test_zai_thinking_stream.yaml"),
            "source": P + "test_zai__test_zai_thinking_stream.yaml",
            "source_args": {"note": "the recording also sent Z.ai's thinking option"},
        },
        {
            "name": "stream-text-then-tool-call",
            "description": "Cerebras: reasoning, text content, then the whole call in one delta (first of two spliced streams).",
            "method": "stream",
            "model": "zai-glm-4.7",
            "features": ["function_tools"],
            "config": {"base_url": "https://api.cerebras.ai/v1"},
            "request": {"prompt": "Call the tool, then answer.", "tools": [useless]},
            "response": chunks(cerebras, 0),
            "source": cerebras,
            "source_args": {"note": RECONSTRUCTED + "; the file holds two streams, this is the first"},
        },
        {
            "name": "stream-text-then-tool-call-second",
            "description": "Cerebras: the second spliced stream, with its own call id and usage.",
            "method": "stream",
            "model": "zai-glm-4.7",
            "features": ["function_tools"],
            "config": {"base_url": "https://api.cerebras.ai/v1"},
            "request": {"prompt": "Call the tool again, then answer.", "tools": [useless]},
            "response": chunks(cerebras, 1),
            "source": cerebras,
            "source_args": {"note": RECONSTRUCTED + "; the file holds two streams, this is the second"},
        },
    ]
