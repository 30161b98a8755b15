# ruff: noqa: E501  (a data table: long descriptions and corpus file names read better unwrapped)
"""The ``openai`` provider's conformance cases: which recording, which canonical request."""

from __future__ import annotations

from typing import Any

from openai_case_data import (
    ADAPTED,
    CITY_SCHEMA,
    COUNTRY,
    DRAGONS,
    EMPTY,
    IMAGE,
    PE,
    POPULATION,
    RECONSTRUCTED,
    F,
    L,
    P,
    T,
    V,
    _call,
    _result,
    refusal_request,
)
from openai_cases_openai_embed import embed_cases
from openai_cases_openai_faults import fault_cases
from openai_cases_openai_mock import mock_cases
from openai_cases_openai_refused import refused_cases
from openai_cases_openai_requests import request_cases
from openai_cases_openai_settings import settings_cases
from openai_cases_openai_stream import stream_cases
from openai_corpus import raw_json, vcr


def openai_cases() -> list[dict[str, Any]]:
    """Every ``openai`` case: generate, request rules, stream, errors, embeddings (the request-rule,
    stream, embedding and MOCK cases are in openai_cases_openai_requests, _stream, _embed and _mock)."""
    return (
        _generate_cases()
        + request_cases()
        + stream_cases()
        + _error_cases()
        + embed_cases()
        + mock_cases()
        + refused_cases()
        + settings_cases()
        + fault_cases()
    )


def _generate_cases() -> list[dict[str, Any]]:
    native = P + "test_openai__test_openai_native_output.yaml"
    return [
        {
            "name": "generate-text-system",
            "description": "System instructions and a question; plain text answer with full usage details.",
            "method": "generate",
            "model": "gpt-4o",
            "request": {"system": "You are a helpful assistant.", "prompt": "What is the capital of France?"},
            "response": vcr(P + "test_openai__test_openai_instructions.yaml"),
            "source": P + "test_openai__test_openai_instructions.yaml",
            "source_args": {"note": ADAPTED},
        },
        {
            "name": "generate-length-truncation",
            "description": "max_output_tokens 3 cuts the story: finish_reason length.",
            "method": "generate",
            "model": "gpt-4o-mini-2024-07-18",
            "request": {"prompt": "Please tell me a story", "max_output_tokens": 3},
            "response": vcr(
                F + "packages__lmi__tests__cassettes__TestLiteLLMModel.test_max_token_truncation.yaml"
            ),
            "source": F + "packages__lmi__tests__cassettes__TestLiteLLMModel.test_max_token_truncation.yaml",
            "source_args": {"note": "gzip body decompressed"},
        },
        {
            "name": "generate-logprobs",
            "description": "logprobs with 5 alternatives, asked through provider_options: Result.logprobs.",
            "method": "generate",
            "model": "gpt-4o-mini-2024-07-18",
            "request": {
                "system": "Respond with single words.",
                "prompt": "What is the meaning of the universe?",
                "max_output_tokens": 56,
                "temperature": 0,
                "provider_options": {"openai": {"logprobs": True, "top_logprobs": 5}},
            },
            "response": vcr(
                F + "packages__lmi__tests__cassettes__TestLiteLLMModel.test_call[OpenAI-model-1].yaml"
            ),
            "source": F + "packages__lmi__tests__cassettes__TestLiteLLMModel.test_call[OpenAI-model-1].yaml",
            "source_args": {"interaction": 0, "note": "gzip body decompressed"},
        },
        {
            "name": "generate-reasoning-max-completion-tokens",
            "description": "A reasoning model: max_completion_tokens instead of max_tokens; reasoning tokens counted.",
            "method": "generate",
            "model": "o3-mini",
            "features": ["reasoning"],
            "request": {"prompt": "hello", "max_output_tokens": 100},
            "response": vcr(P + "test_openai__test_max_completion_tokens[o3-mini].yaml"),
            "source": P + "test_openai__test_max_completion_tokens[o3-mini].yaml",
        },
        {
            "name": "generate-reasoning-effort-high",
            "description": "reasoning.effort high on a reasoning model: reasoning_effort; 1792 reasoning tokens.",
            "method": "generate",
            "model": "o3-mini",
            "features": ["reasoning"],
            "request": {
                "prompt": "Considering the way to cross the street, analogously, how do I cross the river?",
                "reasoning": {"effort": "high"},
            },
            "response": vcr(P + "test_openai__test_openai_model_thinking_part.yaml", 1),
            "source": P + "test_openai__test_openai_model_thinking_part.yaml",
            "source_args": {
                "interaction": 1,
                "note": "the earlier turns of the recorded conversation are left out of the request",
            },
        },
        {
            "name": "generate-json-schema-tool-call",
            "description": "json_schema response format plus a tool: the model calls the tool first (content null).",
            "method": "generate",
            "model": "gpt-4o",
            "features": ["function_tools"],
            "request": {
                "prompt": "What is the largest city in the user country?",
                "tools": [COUNTRY],
                "tool_choice": "auto",
                "response_format": CITY_SCHEMA,
            },
            "response": vcr(native, 0),
            "source": native,
            "source_args": {"interaction": 0, "note": ADAPTED},
        },
        {
            "name": "generate-json-schema-after-tool-result",
            "description": "The tool round trip (call id kept, tool result as a tool message), then the schema JSON.",
            "method": "generate",
            "model": "gpt-4o",
            "features": ["function_tools"],
            "request": {
                "messages": [
                    {"role": "user", "content": "What is the largest city in the user country?"},
                    {
                        "role": "assistant",
                        "content": [_call("call_PkRGedQNRFUzJp2R7dO7avWR", "get_user_country", {})],
                    },
                    {
                        "role": "tool",
                        "content": [_result("call_PkRGedQNRFUzJp2R7dO7avWR", "get_user_country", "Mexico")],
                    },
                ],
                "tools": [COUNTRY],
                "tool_choice": "auto",
                "response_format": CITY_SCHEMA,
            },
            "response": vcr(native, 1),
            "source": native,
            "source_args": {"interaction": 1, "note": ADAPTED},
        },
        {
            "name": "generate-image-url-after-tool",
            "description": "A user message with text and an https image_url after a tool round trip.",
            "method": "generate",
            "model": "gpt-4o",
            "features": ["function_tools"],
            "request": {
                "messages": [
                    {
                        "role": "user",
                        "content": "What food is in the image you can get from the get_image tool?",
                    },
                    {
                        "role": "assistant",
                        "content": [_call("call_4hrT4QP9jfojtK69vGiFCFjG", "get_image", {})],
                    },
                    {
                        "role": "tool",
                        "content": [_result("call_4hrT4QP9jfojtK69vGiFCFjG", "get_image", "See file bd38f5")],
                    },
                    {
                        "role": "user",
                        "content": [
                            {"type": "text", "text": "This is file bd38f5:"},
                            {"type": "file", "media_type": "image/jpeg", "uri": IMAGE},
                        ],
                    },
                ],
                "tools": [{"type": "function", "name": "get_image", "description": "", "parameters": EMPTY}],
                "tool_choice": "auto",
            },
            "response": vcr(P + "test_openai__test_image_url_tool_response.yaml", 1),
            "source": P + "test_openai__test_image_url_tool_response.yaml",
            "source_args": {"interaction": 1, "note": ADAPTED},
        },
        {
            "name": "generate-prompt-cache-write",
            "description": "The first call of a cached prompt: cache_write_tokens 4012 (cached_tokens 0).",
            "method": "generate",
            "model": "gpt-5.6-sol",
            "request": {"prompt": "Reference catalogue for the prompt cache test corpus. Reply OK."},
            "response": vcr(P + "test_openai_prompt_cache__test_openai_chat_prompt_cache_e2e.yaml", 0),
            "source": P + "test_openai_prompt_cache__test_openai_chat_prompt_cache_e2e.yaml",
            "source_args": {
                "interaction": 0,
                "note": "the recorded 4020-token prompt is shortened in the request",
            },
        },
        {
            "name": "generate-prompt-cache-read",
            "description": "The second call of a cached prompt: cached_tokens 4012 (cache_write_tokens 0).",
            "method": "generate",
            "model": "gpt-5.6-sol",
            "request": {"prompt": "Reference catalogue for the prompt cache test corpus. Reply OK."},
            "response": vcr(P + "test_openai_prompt_cache__test_openai_chat_prompt_cache_e2e.yaml", 1),
            "source": P + "test_openai_prompt_cache__test_openai_chat_prompt_cache_e2e.yaml",
            "source_args": {
                "interaction": 1,
                "note": "the recorded 4020-token prompt is shortened in the request",
            },
        },
        {
            "name": "generate-tool-choice-required",
            "description": "tool_choice required on gpt-5-mini (a reasoning model): one call, reasoning tokens 64.",
            "method": "generate",
            "model": "gpt-5-mini",
            "features": ["function_tools"],
            "request": {
                "prompt": "What's the weather in Paris?",
                "tools": [
                    {
                        "type": "function",
                        "name": "get_weather",
                        "description": "Get weather for a city",
                        "parameters": {
                            "type": "object",
                            "properties": {"city": {"type": "string"}},
                            "required": ["city"],
                            "additionalProperties": False,
                        },
                    }
                ],
                "tool_choice": "required",
            },
            "response": vcr(P + "test_tool_choice_matrix__test_tool_choice_matrix[required-openai].yaml"),
            "source": P + "test_tool_choice_matrix__test_tool_choice_matrix[required-openai].yaml",
            "source_args": {
                "note": "the recorded tool had strict: true, which the canonical tool does not carry"
            },
        },
        {
            "name": "generate-tool-choice-subset-one",
            "description": "tool_choice a subset of one tool (get_weather): sent as that function by name; the one call comes back.",
            "method": "generate",
            "model": "gpt-5-mini",
            "features": ["function_tools"],
            "request": {
                "prompt": "What's the weather in Paris?",
                "tools": [
                    {
                        "type": "function",
                        "name": "get_weather",
                        "description": "Get weather for a city",
                        "parameters": {
                            "type": "object",
                            "properties": {"city": {"type": "string"}},
                            "required": ["city"],
                            "additionalProperties": False,
                        },
                    }
                ],
                "tool_choice": {"type": "tools", "names": ["get_weather"]},
            },
            "response": vcr(P + "test_tool_choice_matrix__test_tool_choice_matrix[required-openai].yaml"),
            "source": P + "test_tool_choice_matrix__test_tool_choice_matrix[required-openai].yaml",
            "source_args": {
                "note": "the recorded tool had strict: true, which the canonical tool does not carry; the recording "
                "asked tool_choice required, here the subset of its one tool is asked for, sent as that function by "
                "name, which the recorded answer (one get_weather call) answers as well"
            },
        },
        {
            "name": "generate-tool-call-chain",
            "description": "Two tools offered; the first of a chain of calls (gzip-recorded body).",
            "method": "generate",
            "model": "gpt-4o-mini",
            "features": ["function_tools"],
            "request": {
                "prompt": "Can the country of Crumpet have dragons? Answer with only YES or NO",
                "tools": [POPULATION, DRAGONS],
            },
            "response": vcr(L + "test_tools__test_tool_use_chain_of_two_calls.yaml", 0),
            "source": L + "test_tools__test_tool_use_chain_of_two_calls.yaml",
            "source_args": {"interaction": 0, "note": "gzip body decompressed"},
        },
        {
            "name": "generate-refusal",
            "description": "A refusal (message.refusal, content null) under a strict json_schema: content-filter.",
            "method": "generate",
            "model": "gpt-4o",
            "request": refusal_request(),
            "response": vcr(T + "test_chat_parse__test_parsed_refused_completion.yaml", 0),
            "source": T + "test_chat_parse__test_parsed_refused_completion.yaml",
            "source_args": {"interaction": 0, "note": "gzip body decompressed"},
        },
        {
            "name": "generate-cached-tokens-length",
            "description": "cached_tokens 2816 and finish_reason length (max_output_tokens 1).",
            "method": "generate",
            "model": "gpt-4o-mini",
            "request": {"prompt": "Reply with OK.", "max_output_tokens": 1},
            "response": raw_json(
                V + "openai__src__chat____fixtures____openai-chat-cached-input-tokens-11178.json", capture=1
            ),
            "source": V + "openai__src__chat____fixtures____openai-chat-cached-input-tokens-11178.json",
            "source_args": {
                "commit": "28676ac30caff639c78a90463e83313ecb567c98",
                "note": RECONSTRUCTED + " (second captured body)",
            },
        },
        {
            "name": "generate-text-annotations",
            "description": "A gpt-4.1-nano body with service_tier, annotations [] and refusal null.",
            "method": "generate",
            "model": "gpt-4.1-nano",
            "request": {"prompt": "Invent a new holiday and describe its traditions."},
            "response": raw_json(V + "openai__src__chat____fixtures____openai-text.json"),
            "source": V + "openai__src__chat____fixtures____openai-text.json",
            "source_args": {"note": RECONSTRUCTED},
        },
    ]


def _error_cases() -> list[dict[str, Any]]:
    return [
        {
            "name": "error-invalid-api-key",
            "description": "401 invalid_api_key: ProviderAuthError with the request id.",
            "method": "generate",
            "model": "gpt-4o-mini",
            "request": {"prompt": "Hello!"},
            "response": vcr(F + "tests__cassettes__test_fallbacks_working[False].yaml"),
            "source": F + "tests__cassettes__test_fallbacks_working[False].yaml",
            "source_args": {"note": "the recorded tools are left out of the request"},
        },
        {
            "name": "error-model-not-found",
            "description": "404 model_not_found: ProviderRequestError.",
            "method": "generate",
            "model": "gpt-5.2-proo",
            "request": {"prompt": "hello"},
            "response": vcr(PE + "test_model_name_suggestions__test_model_name_suggestion[openai-chat].yaml"),
            "source": PE + "test_model_name_suggestions__test_model_name_suggestion[openai-chat].yaml",
        },
        {
            "name": "error-developer-role-rejected",
            "description": "o1-mini rejects the developer role: 400 unsupported_value.",
            "method": "generate",
            "model": "o1-mini",
            "request": {"system": "You are a helpful assistant.", "prompt": "Hello"},
            "response": vcr(P + "test_openai__test_openai_o1_mini_system_role[developer].yaml"),
            "source": P + "test_openai__test_openai_o1_mini_system_role[developer].yaml",
        },
        {
            "name": "error-legacy-max-tokens",
            "description": "400 unsupported_parameter for max_tokens, sent through the extra_body escape hatch.",
            "method": "generate",
            "model": "o3-mini",
            "request": {
                "prompt": "Hello",
                "provider_options": {"openai": {"extra_body": {"max_tokens": 100}}},
            },
            "response": raw_json(
                V + "openai__src__chat____fixtures____reasoning-model-legacy-parameter-error.json", status=400
            ),
            "source": V + "openai__src__chat____fixtures____reasoning-model-legacy-parameter-error.json",
            "source_args": {"note": RECONSTRUCTED + "; the status (400) is the one the body's type implies"},
        },
    ]
