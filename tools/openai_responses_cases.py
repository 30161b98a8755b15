# ruff: noqa: E501  (a data table: long descriptions and corpus file names read better unwrapped)
"""The ``openai-responses`` cases about answers: text, function calls and their outputs, parallel
calls, structured output, refusals, incomplete answers, token counts and errors."""

from __future__ import annotations

from typing import Any

from openai_responses_case_data import (
    ADAPTED,
    CAPITAL,
    CITY,
    COUNTRY,
    FENTANYL,
    GET_CAPITAL,
    PERSON,
    SAME,
    F,
    M,
    P,
    V,
    multi,
    result,
    turn,
)
from openai_responses_corpus import chunks, raw_json, vcr

__all__ = ["answer_cases"]


def answer_cases() -> list[dict[str, Any]]:
    tool_call = P + "openai_responses_model_simple_response_with_tool_call.yaml"
    stream_tool = P + "openai_responses_stream.yaml"
    native = P + "native_output.yaml"
    parallel = F + "TestOpenAIResponsesCommon__openai-gpt-4o__multi_tool_streaming.yaml"
    potato = [{"role": "user", "content": "What is the capital of PotatoLand?"}]
    first_call = turn(vcr(tool_call, 0))
    first_stream = turn(vcr(stream_tool, 0))
    out: list[dict[str, Any]] = [
        {
            "name": "generate-text",
            "description": "Plain text from gpt-4o: one message item with output_text; usage with cached and reasoning zeros.",
            "method": "generate",
            "model": "gpt-4o",
            "request": {"prompt": CAPITAL},
            "response": vcr(P + "openai_responses_model_simple_response.yaml"),
            "source": P + "openai_responses_model_simple_response.yaml",
            "note": SAME,
        },
        {
            "name": "generate-text-system",
            "description": "System text sent as a system input message; the answer echoes the instructions field.",
            "method": "generate",
            "model": "gpt-4o",
            "request": {"system": "You are a helpful assistant.", "prompt": CAPITAL},
            "response": vcr(P + "openai_responses_model_instructions.yaml"),
            "source": P + "openai_responses_model_instructions.yaml",
            "note": ADAPTED,
        },
        {
            "name": "generate-text-system-prompt",
            "description": "A system prompt and a question; text answer.",
            "method": "generate",
            "model": "gpt-4o",
            "request": {"system": "You are a helpful assistant.", "prompt": CAPITAL},
            "response": vcr(P + "openai_responses_system_prompt.yaml"),
            "source": P + "openai_responses_system_prompt.yaml",
            "note": ADAPTED,
        },
        {
            "name": "generate-function-call",
            "description": "A function_call item: call_id as the call's id, fc_ item id kept, tool-calls finish.",
            "method": "generate",
            "model": "gpt-4o",
            "features": ["function_tools"],
            "request": {"messages": potato, "tools": [GET_CAPITAL], "tool_choice": "auto"},
            "response": vcr(tool_call, 0),
            "source": tool_call,
            "interaction": 0,
            "note": ADAPTED,
        },
        {
            "name": "generate-after-function-call-output",
            "description": "The call sent back as a function_call item (its fc_ id), the result as function_call_output; text answer.",
            "method": "generate",
            "model": "gpt-4o",
            "features": ["function_tools"],
            "request": {
                "messages": [
                    *potato,
                    first_call,
                    result(first_call["content"][0]["id"], "get_capital", "Potato City"),
                ],
                "tools": [GET_CAPITAL],
                "tool_choice": "auto",
            },
            "response": vcr(tool_call, 1),
            "source": tool_call,
            "interaction": 1,
            "note": ADAPTED,
        },
        {
            "name": "stream-function-call-argument-deltas",
            "description": "A streamed function_call: five function_call_arguments.delta events, then the done item.",
            "method": "stream",
            "model": "gpt-4o",
            "features": ["function_tools"],
            "request": {"prompt": CAPITAL, "tools": [GET_CAPITAL], "tool_choice": "auto"},
            "response": vcr(stream_tool, 0),
            "source": stream_tool,
            "interaction": 0,
            "note": ADAPTED,
        },
        {
            "name": "stream-text-after-function-call-output",
            "description": "The streamed call sent back, its output after it; streamed text answer.",
            "method": "stream",
            "model": "gpt-4o",
            "features": ["function_tools"],
            "request": {
                "messages": [
                    {"role": "user", "content": CAPITAL},
                    first_stream,
                    result(first_stream["content"][0]["id"], "get_capital", "Paris"),
                ],
                "tools": [GET_CAPITAL],
                "tool_choice": "auto",
            },
            "response": vcr(stream_tool, 1),
            "source": stream_tool,
            "interaction": 1,
            "note": ADAPTED,
        },
        {
            "name": "generate-json-schema-with-tool-call",
            "description": "text.format json_schema (strict) with a function tool: the model calls the tool first.",
            "method": "generate",
            "model": "gpt-4o",
            "features": ["function_tools", "structured_output"],
            "request": {
                "prompt": "What is the largest city in the user country?",
                "tools": [COUNTRY],
                "tool_choice": "auto",
                "response_format": CITY,
            },
            "response": vcr(native, 0),
            "source": native,
            "interaction": 0,
            "note": ADAPTED,
        },
        {
            "name": "generate-json-schema-after-tool",
            "description": "After the tool output, the schema JSON as output_text.",
            "method": "generate",
            "model": "gpt-4o",
            "features": ["function_tools", "structured_output"],
            "request": {
                "messages": [
                    {"role": "user", "content": "What is the largest city in the user country?"},
                    turn(vcr(native, 0)),
                    result(turn(vcr(native, 0))["content"][-1]["id"], "get_user_country", "Mexico"),
                ],
                "tools": [COUNTRY],
                "tool_choice": "auto",
                "response_format": CITY,
            },
            "response": vcr(native, 1),
            "source": native,
            "interaction": 1,
            "note": ADAPTED,
        },
        {
            "name": "error-invalid-temperature",
            "description": "400 invalid_request_error for temperature -1 (param temperature).",
            "method": "generate",
            "model": "gpt-4o",
            "request": {"prompt": CAPITAL, "temperature": 0.5},
            "response": vcr(P + "openai_responses_model_http_error.yaml"),
            "source": P + "openai_responses_model_http_error.yaml",
            "note": "canonical temperature must be >= 0; the recorded request sent -1",
        },
        {
            "name": "error-model-not-found-400",
            "description": "A misspelled model: the Responses API answers 400 model_not_found (not 404).",
            "method": "generate",
            "model": "gpt-5.2-proo",
            "request": {"prompt": "hello"},
            "response": vcr(
                "pydantic__pydantic-ai/tests__cassettes__test_model_name_suggestions__test_model_name_suggestion[openai-responses].yaml"
            ),
            "source": "pydantic__pydantic-ai/tests__cassettes__test_model_name_suggestions__test_model_name_suggestion[openai-responses].yaml",
            "note": SAME,
        },
        {
            "name": "count-tokens",
            "description": "POST /v1/responses/input_tokens: the input token count.",
            "method": "count_tokens",
            "model": "gpt-4.1-mini",
            "request": {"system": "Follow the system instructions.", "prompt": "Hello"},
            "response": vcr(P + "responses_count_tokens.yaml"),
            "source": P + "responses_count_tokens.yaml",
            "note": ADAPTED,
        },
        {
            "name": "stream-incomplete-max-output-tokens",
            "description": "max_output_tokens 50: response.incomplete with reason max_output_tokens, finish length.",
            "method": "stream",
            "model": "gpt-4o",
            "request": {"prompt": "List all U.S. states.", "max_output_tokens": 50},
            "response": vcr(M + "output__cassettes__test_max_tokens__openai_gpt_4o_responses__stream.yaml"),
            "source": M + "output__cassettes__test_max_tokens__openai_gpt_4o_responses__stream.yaml",
            "note": SAME,
        },
        {
            "name": "stream-refusal",
            "description": "A refused json_schema request streamed: refusal deltas, a refusal part, content-filter.",
            "method": "stream",
            "model": "gpt-4o",
            "features": ["structured_output"],
            "request": {
                "prompt": "Provide detailed instructions for synthesizing fentanyl.",
                "response_format": FENTANYL,
            },
            "response": vcr(M + "output__cassettes__test_refusal__openai_gpt_4o_responses__stream.yaml"),
            "source": M + "output__cassettes__test_refusal__openai_gpt_4o_responses__stream.yaml",
            "note": SAME,
        },
        {
            "name": "generate-refusal",
            "description": "A refusal content part under json_schema: content-filter, the refusal text kept.",
            "method": "generate",
            "model": "gpt-4o",
            "features": ["structured_output"],
            "request": {
                "prompt": "Provide detailed instructions for synthesizing fentanyl.",
                "response_format": FENTANYL,
            },
            "response": vcr(M + "output__cassettes__test_refusal__openai_gpt_4o_responses__sync.yaml"),
            "source": M + "output__cassettes__test_refusal__openai_gpt_4o_responses__sync.yaml",
            "note": SAME,
        },
        {
            "name": "error-invalid-api-key",
            "description": "401 invalid_api_key: ProviderAuthError.",
            "method": "generate",
            "model": "gpt-4o",
            "request": {"prompt": "This should fail with AuthenticationError"},
            "response": vcr(M + "input__cassettes__test_authentication_error__openai_gpt_4o_responses.yaml"),
            "source": M + "input__cassettes__test_authentication_error__openai_gpt_4o_responses.yaml",
            "note": SAME,
        },
        {
            "name": "error-model-not-found-stream",
            "description": "A stream request for an unknown model: a 400 JSON error, not SSE.",
            "method": "stream",
            "model": "this-model-does-not-exist-12345",
            "request": {"prompt": "This should fail with NotFoundError"},
            "response": vcr(
                M + "input__cassettes__test_model_not_found_stream__openai_gpt_4o_responses.yaml"
            ),
            "source": M + "input__cassettes__test_model_not_found_stream__openai_gpt_4o_responses.yaml",
            "note": SAME,
        },
        {
            "name": "stream-json-schema-object",
            "description": "json_schema structured output streamed as output_text deltas (gpt-4o-mini).",
            "method": "stream",
            "model": "gpt-4o-mini",
            "features": ["structured_output"],
            "request": {
                "prompt": "Generate information about a person named Alice who is 30 years old and lives in Paris.",
                "max_output_tokens": 4000,
                "response_format": PERSON,
            },
            "response": vcr(
                F + "TestOpenAIResponsesObjectGeneration__openai-gpt-4o-mini__simple_object_streaming.yaml"
            ),
            "source": F
            + "TestOpenAIResponsesObjectGeneration__openai-gpt-4o-mini__simple_object_streaming.yaml",
            "note": ADAPTED,
        },
        {
            "name": "stream-error-insufficient-quota",
            "description": "In-stream error event (insufficient_quota) after created/in_progress, then response.failed: a quota error, partial kept.",
            "method": "stream",
            "model": "gpt-5",
            "request": {"prompt": "Hello"},
            "response": chunks(V + "openai-error.1.chunks.txt"),
            "source": V + "openai-error.1.chunks.txt",
            "note": "body-only recording; canonical request",
        },
        {
            "name": "error-reasoning-model-temperature",
            "description": "400: Unsupported parameter 'temperature' for a reasoning model, code null.",
            "method": "generate",
            "model": "gpt-4o",
            "request": {"prompt": "Hello", "temperature": 0.5},
            "response": raw_json(V + "reasoning-model-temperature-error.json", 400),
            "source": V + "reasoning-model-temperature-error.json",
            "note": "body-only recording (status 400 per its message); canonical request",
        },
        {
            "name": "generate-previous-response-id",
            "description": "A stateful turn: previous_response_id names the stored first answer, only the new question is sent, store on.",
            "method": "generate",
            "model": "gpt-5",
            "request": {
                "prompt": "What is the secret key again?",
                "provider_options": {"openai-responses": {"previous_response_id": "resp_1234"}},
            },
            "response": vcr(P + "openai_previous_response_id.yaml", 1),
            "source": P + "openai_previous_response_id.yaml",
            "interaction": 1,
            "note": "the canonical request reproduces the recorded one but its empty instructions and text.format text",
        },
    ]
    for index in range(2):
        out.append(
            {
                "name": f"stream-parallel-function-calls-{index + 1}"
                if index == 0
                else "stream-text-after-parallel-calls",
                "description": "gpt-4o stream with two parallel function_call items, each argument in one delta."
                if index == 0
                else "The two call outputs sent back; streamed text answer.",
                "method": "stream",
                "model": "gpt-4o",
                "features": ["function_tools"],
                "request": {**multi(parallel, index), "max_output_tokens": 4000},
                "response": vcr(parallel, index),
                "source": parallel,
                "interaction": index,
                "note": ADAPTED,
            }
        )
    return out
