"""Non-streaming responses from the recorded corpus → Result (G5, G6, G13, G14, G15, G16).

Every response here is a real recording from tests/corpus/gemini (see its MANIFEST for sources and
licenses: pydantic/pydantic-ai MIT, vercel/ai Apache-2.0, FirebaseExtended/vertexai-sdk-test-data
Apache-2.0). Values asserted are the ones in those files.
"""

from __future__ import annotations

import pytest

from modelport.errors import ProviderResponseError
from modelport.types import Origin, ReasoningPart, Result, TextPart, ToolCallPart, ToolResultPart, Usage
from modelport_google._decode import decode_response, finish_reason
from modelport_google.grounding import grounding_metadata

from . import corpus as c
from .mock import model, response

CACHED = "tests__models__google__cassettes__test_cache__test_google_model_cached_content.yaml"
SAFETY = "tests__models__cassettes__test_google__test_google_model_safety_settings.yaml"
ARMOR = (
    "tests__models__cassettes__test_google__test_google_model_armor_prompt_template_text_gets_blocked.yaml"
)
MAX_TOKENS = (
    "tests__models__cassettes__test_google__test_google_model_max_tokens_thinking_model_empty_response.yaml"
)
THINKING_3 = "tests__models__cassettes__test_google__test_google_model_thinking_part.yaml"
CODE_3 = "tests__models__google__cassettes__test_code_execution__test_code_execution.yaml"
CODE_FAILED = "tests__models__cassettes__test_anthropic__test_anthropic_server_tool_receive_history_from_another_provider.yaml"
SERVER_TOOLS = (
    "tests__cassettes__test_thinking_native_tools__test_thinking_with_native_tool_wire_contract[google].yaml"
)


def test_plain_text_through_the_provider() -> None:
    recorded = c.cassette(c.PYDANTIC, CACHED)[1]
    m, recorder = model([response(200, recorded.body)])
    result = m.generate(prompt="What is the capital of France?")
    assert result.text == "Paris."
    assert result.content == [TextPart(text="Paris.")]
    assert result.finish_reason == "stop"
    assert result.raw_finish_reason == "STOP"
    assert result.response_id == "_VQYaqvRGbW6qtsPg4TDoAg"
    assert result.model_version == "gemini-2.5-flash"
    assert result.provider_metadata == {}
    assert result.replay == {"google": {"parts": [{"text": "Paris."}]}}
    request = recorder.requests[0]
    assert str(request.url) == (
        "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent"
    )
    assert request.headers["x-goog-api-key"] == "test-key-0123456789"


def test_cached_content_usage() -> None:
    result = decode_response(c.cassette(c.PYDANTIC, CACHED)[1].json())
    # candidatesTokenCount 2 + thoughtsTokenCount 42: reasoning is billed as output (contract 2.1).
    assert result.usage == Usage(
        input_tokens=3520,
        output_tokens=44,
        reasoning_tokens=42,
        total_tokens=3564,
        cache_read_input_tokens=3512,
    )
    assert result.usage.cached_input_tokens == 3512


def test_implicit_caching_usage_vertex_shape() -> None:
    data = c.load_json(c.FIREBASE, "mock-responses__vertexai__unary-success-implicit-caching.json")
    usage = decode_response(data).usage
    assert (usage.input_tokens, usage.cache_read_input_tokens) == (12013, 11243)


def test_safety_blocked_candidate_with_empty_content() -> None:
    result = decode_response(c.cassette(c.PYDANTIC, SAFETY)[0].json())
    assert result.content == []
    assert result.finish_reason == "content-filter"
    assert result.raw_finish_reason == "SAFETY"
    # No candidatesTokenCount in the recording: the count stays absent, not zero.
    assert result.usage == Usage(input_tokens=14, total_tokens=14)
    ratings = result.provider_metadata["google"]["safetyRatings"]
    assert ratings[0] == {"blocked": True, "category": "HARM_CATEGORY_HATE_SPEECH", "probability": "LOW"}
    assert result.replay is None


def test_safety_finish_with_partial_text() -> None:
    data = c.load_json(c.FIREBASE, "mock-responses__googleai__unary-failure-finish-reason-safety.json")
    result = decode_response(data)
    assert result.text == "Safety error incoming in 5, 4, 3, 2..."
    assert result.finish_reason == "content-filter"
    assert result.response_id is None


def test_prompt_blocked_without_candidates() -> None:
    result = decode_response(c.cassette(c.PYDANTIC, ARMOR)[-1].json())
    assert result.content == []
    assert result.finish_reason == "content-filter"
    assert result.raw_finish_reason == "MODEL_ARMOR"
    assert result.usage == Usage()
    assert result.provider_metadata["google"]["promptFeedback"] == {
        "blockReason": "MODEL_ARMOR",
        "blockReasonMessage": "The prompt violated Prompt Injection and Jailbreak filters.",
    }


def test_max_tokens_with_no_parts() -> None:
    result = decode_response(c.cassette(c.PYDANTIC, MAX_TOKENS)[0].json())
    assert result.content == []
    assert result.finish_reason == "length"
    # No candidatesTokenCount: the output billed is the 2 thought tokens alone.
    assert result.usage == Usage(input_tokens=15, output_tokens=2, reasoning_tokens=2, total_tokens=17)
    assert result.replay is None


def test_thinking_gemini_25_function_call_with_signature() -> None:
    name = "mock-responses__googleai__unary-success-thinking-function-call-thought-summary-signature.json"
    data = c.load_json(c.FIREBASE, name)
    raw_parts = data["candidates"][0]["content"]["parts"]
    result = decode_response(data)
    reasoning, call = result.content
    assert isinstance(reasoning, ReasoningPart)
    assert reasoning.text == raw_parts[0]["text"]
    assert isinstance(call, ToolCallPart)
    assert call.id == "call-1"  # 2.5 sends no id: the raw position names the call
    assert call.name == raw_parts[1]["functionCall"]["name"]
    assert call.args == raw_parts[1]["functionCall"]["args"]
    assert call.provider_metadata == {"google": {"thoughtSignature": raw_parts[1]["thoughtSignature"]}}
    assert result.finish_reason == "tool-calls"
    assert result.raw_finish_reason == "STOP"
    assert result.tool_calls == [call]
    assert result.replay == {"google": {"parts": raw_parts}}


def test_thinking_gemini_3_signature_on_text() -> None:
    data = c.cassette(c.PYDANTIC, THINKING_3)[0].json()
    raw_parts = data["candidates"][0]["content"]["parts"]
    result = decode_response(data)
    reasoning, text = result.content
    assert isinstance(reasoning, ReasoningPart) and reasoning.signature is None
    assert reasoning.text == raw_parts[0]["text"]
    assert isinstance(text, TextPart)
    assert text.provider_metadata == {"google": {"thoughtSignature": raw_parts[1]["thoughtSignature"]}}
    assert result.reasoning_text == raw_parts[0]["text"]
    assert result.text.startswith("Crossing the street safely is a fundamen")
    assert result.usage.reasoning_tokens == data["usageMetadata"]["thoughtsTokenCount"]


def test_parallel_function_calls_in_one_content() -> None:
    data = c.load_json(
        c.FIREBASE, "mock-responses__vertexai__unary-success-function-call-parallel-calls.json"
    )
    result = decode_response(data)
    assert [(p.id, p.name) for p in result.tool_calls] == [
        ("call-0", "sum"),
        ("call-1", "sum"),
        ("call-2", "sum"),
    ]
    assert result.finish_reason == "tool-calls"
    assert result.usage == Usage()


def test_code_execution_with_ids_gemini_3() -> None:
    data = c.cassette(c.PYDANTIC, CODE_3)[0].json()
    raw = data["candidates"][0]["content"]["parts"]
    result = decode_response(data)
    call, res, call2, res2, text = result.content
    assert isinstance(call, ToolCallPart) and isinstance(res, ToolResultPart)
    assert call.id == raw[0]["executableCode"]["id"] == res.call_id
    assert call.name == res.name == "code_execution"
    assert call.provider_executed and res.provider_executed
    assert call.args == {"language": "PYTHON", "code": raw[0]["executableCode"]["code"]}
    assert call.provider_metadata == {"google": {"thoughtSignature": raw[0]["thoughtSignature"]}}
    assert res.output == {"outcome": "OUTCOME_OK", "output": raw[1]["codeExecutionResult"]["output"]}
    assert res.is_error is False
    assert isinstance(call2, ToolCallPart) and call2.id == raw[2]["executableCode"]["id"]
    assert isinstance(res2, ToolResultPart) and res2.call_id == call2.id
    assert isinstance(text, TextPart) and text.text.startswith("Today is **Thursday, May 23, 2024**")
    assert result.tool_calls == []  # provider-executed calls are not for the application
    assert result.finish_reason == "stop"


def test_code_execution_failed_without_ids_correlated_by_order() -> None:
    result = decode_response(c.cassette(c.PYDANTIC, CODE_FAILED)[0].json())
    calls = [p for p in result.content if isinstance(p, ToolCallPart)]
    results = [p for p in result.content if isinstance(p, ToolResultPart)]
    assert [p.id for p in calls] == ["code-0", "code-3", "code-6"]
    assert [p.call_id for p in results] == ["code-0", "code-3", "code-6"]
    assert all(p.is_error for p in results)
    assert results[0].output["outcome"] == "OUTCOME_FAILED"
    assert "stderr output:" in results[0].output["output"]


def test_code_execution_several_results_for_one_call() -> None:
    data = c.load_json(
        c.VERCEL, "packages__google__src____fixtures____google-code-execution-multiple-results.json"
    )
    result = decode_response(data)
    call, ok, failed, _text = result.content
    assert isinstance(call, ToolCallPart) and call.id == "code-0"
    assert isinstance(ok, ToolResultPart) and isinstance(failed, ToolResultPart)
    assert (ok.call_id, ok.is_error, ok.output["outcome"]) == ("code-0", False, "OUTCOME_OK")
    assert (failed.call_id, failed.is_error, failed.output["outcome"]) == ("code-0", True, "OUTCOME_FAILED")


def test_code_execution_failed_with_ids_live() -> None:
    name = "packages__google__src____fixtures____google-code-execution-single-combined-result-live-2026-07-16.json"
    result = decode_response(c.load_json(c.VERCEL, name))
    call, res, _text = result.content
    assert isinstance(call, ToolCallPart) and isinstance(res, ToolResultPart)
    assert call.id == res.call_id == "g4hwl40j"
    assert res.is_error is True
    assert result.usage.tool_use_prompt_tokens == 161


def test_deadline_exceeded_is_an_error() -> None:
    # The recorded failed result, with the other failing outcome Gemini documents.
    data = c.load_json(
        c.VERCEL, "packages__google__src____fixtures____google-code-execution-multiple-results.json"
    )
    data["candidates"][0]["content"]["parts"][1]["codeExecutionResult"]["outcome"] = (
        "OUTCOME_DEADLINE_EXCEEDED"
    )
    result = decode_response(data)
    assert isinstance(result.content[1], ToolResultPart) and result.content[1].is_error


def test_gemini_3_server_side_tool_parts_kept_for_replay() -> None:
    data = c.cassette(c.PYDANTIC, SERVER_TOOLS)[0].json()
    raw = data["candidates"][0]["content"]["parts"]
    result = decode_response(data)
    kinds = [p.type for p in result.content]
    assert kinds == ["reasoning", "tool-call", "tool-result", "reasoning", "text"]
    call, res = result.content[1], result.content[2]
    assert isinstance(call, ToolCallPart) and isinstance(res, ToolResultPart)
    assert call.id == res.call_id == "jvjqh677"
    assert call.name == res.name == "google_search_web"
    assert call.provider_executed and res.provider_executed
    assert call.args == raw[1]["toolCall"]["args"]
    assert result.replay == {"google": {"parts": raw}}
    assert result.replay["google"]["parts"][2]["thoughtSignature"] == raw[2]["thoughtSignature"]


@pytest.mark.parametrize(
    ("raw", "calls", "expected"),
    [
        ("STOP", False, "stop"),
        ("STOP", True, "tool-calls"),
        ("MAX_TOKENS", False, "length"),
        ("SAFETY", False, "content-filter"),
        ("RECITATION", False, "content-filter"),
        ("BLOCKLIST", False, "content-filter"),
        ("PROHIBITED_CONTENT", False, "content-filter"),
        ("SPII", False, "content-filter"),
        ("IMAGE_SAFETY", False, "content-filter"),
        ("MALFORMED_FUNCTION_CALL", True, "error"),
        ("OTHER", False, "other"),
        ("LANGUAGE", False, "other"),
    ],
)
def test_finish_reasons(raw: str, calls: bool, expected: str) -> None:
    assert finish_reason(raw, calls) == expected


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"candidates": []},
        {"candidates": [{}]},
        {"candidates": [{"content": {}}]},
        {"candidates": [{"content": {"role": "model"}, "finishReason": "STOP"}]},
        {"candidates": [{"finishReason": "RECITATION"}]},
    ],
)
def test_omitted_fields_never_crash(data: dict) -> None:
    result = decode_response(data)
    assert result.content == []
    assert isinstance(result, Result)


@pytest.mark.parametrize(
    "data",
    [
        [],
        {"candidates": ["x"]},
        {"candidates": [{"content": {"parts": "text"}}]},
        {"candidates": [{"content": {"parts": [["text"]]}}]},
    ],
)
def test_malformed_shapes_are_typed_errors(data: object) -> None:
    with pytest.raises(ProviderResponseError) as info:
        decode_response(data)
    assert info.value.provider == "google"
    assert "malformed Gemini response" in str(info.value)


def test_unknown_part_kinds_are_kept_for_replay_only() -> None:
    data = {
        "candidates": [{"content": {"parts": [{"text": 5}, {"videoMetadata": {}}]}, "finishReason": "STOP"}]
    }
    result = decode_response(data)
    assert result.content == []
    assert result.replay == {"google": {"parts": [{"text": 5}, {"videoMetadata": {}}]}}


@pytest.mark.asyncio
async def test_async_generate_decodes_the_same() -> None:
    recorded = c.cassette(c.PYDANTIC, CODE_3)[0]
    m, recorder = model([response(200, recorded.body)], "google/gemini-3-flash-preview", asynchronous=True)
    result = await m.agenerate(prompt="What day is today in Utrecht?")
    origin = Origin(provider="google", api="generate-content", model="gemini-3-flash-preview")
    assert result == decode_response(recorded.json()).model_copy(update={"origin": origin})
    assert str(recorder.requests[0].url).endswith("/models/gemini-3-flash-preview:generateContent")


def test_grounded_response_sets_grounding_fields_and_ungrounded_shape_is_unchanged() -> None:
    name = "tests__models__cassettes__test_google__test_google_model_web_search_tool.yaml"
    data = c.cassette(c.PYDANTIC, name)[0].json()
    grounded = decode_response(data)
    raw = data["candidates"][0]["groundingMetadata"]
    assert grounding_metadata(grounded) is not None
    assert grounding_metadata(grounded)["webSearchQueries"] == raw["webSearchQueries"]
    assert grounded.provider_metadata["google"]["groundingMetadata"] == grounding_metadata(grounded)
    assert len(grounded.sources) == len(raw["groundingChunks"]) == 3
    assert grounded.sources[0].title == "Weather information for San Francisco, CA, US"
    assert len(grounded.citations) == 6
    assert (grounded.citations[0].start, grounded.citations[0].end, grounded.citations[0].sources) == (
        55,
        215,
        [1],
    )
    del data["candidates"][0]["groundingMetadata"]
    plain = decode_response(data)
    assert grounding_metadata(plain) is None and plain.sources == [] and plain.citations == []
    assert "groundingMetadata" not in plain.provider_metadata.get("google", {})
    assert plain.content == grounded.content


def test_result_json_round_trip_keeps_replay() -> None:
    result = decode_response(c.cassette(c.PYDANTIC, CODE_3)[0].json())
    again = Result.model_validate_json(result.model_dump_json())
    assert again == result
    assert again.message.provider_metadata == result.replay


@pytest.mark.parametrize("count", [0, 7, 2**53 - 1, -1, 2**53, 2**64, True, 3.0, "12", None, [1], {"n": 1}])
def test_a_usage_count_is_kept_exactly_as_usage_validation_keeps_it(count: object) -> None:
    # usage_from builds Usage without running its validation: every count must come out as
    # validating {"output_tokens": count} would make it (an unusable count is "not reported").
    from modelport_google._decode import usage_from

    usage = usage_from({"candidatesTokenCount": count, "promptTokenCount": 5})
    expected = Usage(input_tokens=5, output_tokens=count if type(count) is int else None)
    assert usage == expected
    assert usage.output_tokens == expected.output_tokens
    assert usage.model_dump() == expected.model_dump()
