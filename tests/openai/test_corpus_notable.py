"""What the corpus MANIFEST calls notable, checked value by value on the recorded traffic."""

from __future__ import annotations

from modelport.errors import ProviderRateLimitError, ProviderRequestError

from . import corpus, replay

P = "pydantic__pydantic-ai/tests__models__cassettes__"
V = "vercel__ai/packages__"


def _stream(
    provider: str, interaction: corpus.Interaction, base_url: str | None = None
) -> tuple[list, object]:
    return replay.stream(replay.model(provider, "m", interaction, base_url), prompt="Hi")


def test_logprobs_with_alternatives() -> None:
    name = (
        "Future-House__ldp/packages__lmi__tests__cassettes__TestLiteLLMModel.test_call[OpenAI-model-1].yaml"
    )
    result = replay.generate(replay.model("openai", "m", corpus.cassette(name)[0]), prompt="Hi")
    first = result.logprobs[0]
    assert (first.token, first.logprob, first.bytes) == (
        "Exist",
        -0.1208101138472557,
        [69, 120, 105, 115, 116],
    )
    assert [(t.token, t.logprob) for t in first.top[:2]] == [
        ("Exist", -0.1208101138472557),
        ("Purpose", -3.620810031890869),
    ]
    assert "".join(t.token for t in result.logprobs) == result.text == "Existence."


def test_groq_error_event_without_done_keeps_the_reasoning() -> None:
    events, error = _stream(
        "groq", corpus.cassette(P + "test_groq__test_tool_use_failed_error_streaming.yaml")[0]
    )
    assert isinstance(error, ProviderRequestError)
    assert (error.status_code, error.provider_status) == (400, "tool_use_failed")
    assert error.partial is not None and error.partial.reasoning_text.startswith("We need to call the tool")
    assert error.details["failed_generation"].startswith('{"name": "get_something_by_name"')


def test_openrouter_comments_and_error_inside_a_chunk() -> None:
    events, error = _stream(
        "openrouter", corpus.cassette(P + "test_openrouter__test_openrouter_stream_error.yaml")[0]
    )
    assert isinstance(error, ProviderRequestError) and (error.status_code, error.message) == (
        400,
        "Token limit reached",
    )
    assert error.partial.response_id == "gen-1762179802-UN8pkJI4AGZvryk0kFnb"


def test_openrouter_429_without_retry_after() -> None:
    interaction = corpus.cassette(P + "test_openrouter__test_openrouter_errors_raised.yaml")[0]
    error = replay.generate(replay.model("openrouter", "m", interaction), prompt="Hi")
    assert (
        isinstance(error, ProviderRateLimitError)
        and error.retry_after is None
        and error.provider_status is None
    )
    assert error.message.startswith(
        "Provider returned error: google/gemini-2.0-flash-exp:free is temporarily rate-limited"
    )


def test_azure_empty_first_chunk_id() -> None:
    name = V + "openai__src__chat____fixtures____azure-model-router.1.chunks.txt"
    events, result = _stream("openai-compatible", corpus.interactions(name)[0], "https://a.test/v1")
    meta = [e for e in events if e.type == "response-metadata"]
    assert [(e.response_id, e.model_version) for e in meta] == [
        ("chatcmpl-CYPS1lijGoK8gd9lYzY3r9Sx50nbt", "gpt-5-nano-2025-08-07")
    ]
    assert (result.text, result.finish_reason, result.usage.reasoning_tokens) == (
        "Capital of Denmark.",
        "stop",
        64,
    )


def test_deepseek_reasoning_content_and_cache_hits() -> None:
    events, result = _stream(
        "deepseek", corpus.cassette(P + "test_deepseek__test_deepseek_model_thinking_stream.yaml")[0]
    )
    assert result.text == "Hello there! 😊 How can I help you today?"
    assert [p.type for p in result.content] == ["reasoning", "text"]
    assert (result.usage.reasoning_tokens, result.usage.cache_read_input_tokens) == (198, 0)
    name = V + "deepseek__src__chat____fixtures____deepseek-tool-call.chunks.txt"
    events, result = _stream("deepseek", corpus.interactions(name)[0])
    assert result.usage.cache_read_input_tokens == 320
    assert [(c.id, c.name, c.args) for c in result.tool_calls] == [
        ("call_00_ioIn7yN9p1ZOMNpDLwd4MgAF", "weather", {"location": "San Francisco"})
    ]


def test_xai_token_accounting() -> None:
    name = V + "openai-compatible__src__chat____fixtures____xai-text.chunks.txt"
    events, result = _stream("xai", corpus.interactions(name)[0])
    usage = result.usage
    assert (usage.input_tokens, usage.output_tokens, usage.reasoning_tokens, usage.total_tokens) == (
        12,
        342,
        340,
        354,
    )
    assert usage.input_tokens + usage.output_tokens == usage.total_tokens


def test_mistral_later_delta_with_an_empty_name() -> None:
    name = V + "mistral__src____fixtures____mistral-incremental-tool-call.chunks.txt"
    events, result = _stream("mistral", corpus.interactions(name)[0])
    starts = [e for e in events if e.type == "tool-call-start"]
    assert [(e.call_id, e.name) for e in starts] == [("chatcmpl-tool-9f149c74c42f265b", "webSearchTool")]
    assert result.tool_calls[0].args == {"query": "current Berlin weather"}


def test_a_stream_with_no_finish_reason_and_a_repeated_call_id() -> None:
    name = "simonw__llm/tests__cassettes__test_tools_streaming__test_tools_streaming_variant_a.yaml"
    events, result = _stream("openai", corpus.cassette(name)[0])
    assert (result.finish_reason, result.raw_finish_reason) == ("tool-calls", None)
    assert [(c.id, c.name, c.args) for c in result.tool_calls] == [("0", "llm_version", {})]
    assert result.usage.total_tokens == 74


def test_refusal_and_content_filter() -> None:
    name = "traceloop__openllmetry/packages__opentelemetry-instrumentation-openai__tests__traces__cassettes__test_chat_parse__test_parsed_refused_completion.yaml"
    result = replay.generate(replay.model("openai", "m", corpus.cassette(name)[0]), prompt="Hi")
    assert (result.text, result.finish_reason, result.raw_finish_reason) == (
        "I'm very sorry, but I can't assist with that request.",
        "content-filter",
        "stop",
    )
    assert result.content[0].provider_metadata == {
        "openai": {"refusal": True},
        "modelport": {"refusal": True},
    }
    assert result.refusal == "I'm very sorry, but I can't assist with that request."
    name = "traceloop__openllmetry/packages__opentelemetry-instrumentation-openai__tests__traces__cassettes__test_azure__test_chat_content_filtering.yaml"
    result = replay.generate(
        replay.model("openai-compatible", "m", corpus.cassette(name)[0], "https://a.test/openai"), prompt="Hi"
    )
    assert (result.content, result.finish_reason, result.raw_finish_reason) == (
        [],
        "content-filter",
        "content_filter",
    )


def test_multiple_choices_only_the_first_is_read() -> None:
    name = "open-telemetry__opentelemetry-python-contrib/instrumentation-genai__opentelemetry-instrumentation-openai-v2__tests__cassettes__test_chat_completion_multiple_choices_streaming.yaml"
    interaction = corpus.cassette(name)[0]
    events, result = _stream("openai", interaction)
    second = "".join(
        c["delta"].get("content") or "" for f in interaction.frames() for c in f["choices"] if c["index"] == 1
    )
    assert second and second not in result.text and result.usage.output_tokens == 104


def test_cerebras_spliced_streams_are_two_streams() -> None:
    name = V + "cerebras__src__fixtures__cererebras-structured-output-tools.1.chunks.txt"
    first, second = corpus.interactions(name)
    _, one = _stream("openai-compatible", first, "https://a.test/v1")
    _, two = _stream("openai-compatible", second, "https://a.test/v1")
    assert [c.id for c in one.tool_calls + two.tool_calls] == ["bbd2b9d98", "e0ecf32e0"]
    assert two.text == '{"result": "2026"}'
