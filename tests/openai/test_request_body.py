"""The canonical request → Chat Completions body, per provider, and every rejection before any I/O."""

from __future__ import annotations

import base64
from typing import Any

import pytest

import modelport
from modelport.errors import ConfigurationError, InvalidRequestError

from .fakes import KEY, Recorder, completion, model, response, sse


def sent(
    model_id: str = "openai/gpt-4o-mini", *, stream: bool = False, **request: Any
) -> tuple[dict[str, Any], Any]:
    """The body sent for ``request`` and the result (or the stream's result)."""
    reply = sse([{"id": "x", "choices": [{"index": 0, "delta": {"content": "ok"}, "finish_reason": "stop"}]}])
    m, recorder = model([reply if stream else response(body=completion())], model_id)
    if stream:
        with m.stream(**request) as s:
            list(s)
            result = s.result()
    else:
        result = m.generate(**request)
    return recorder.body, result


def test_system_user_and_sampling_settings() -> None:
    body, result = sent(
        system="Be brief.",
        prompt="Hi",
        max_output_tokens=20,
        temperature=0.5,
        top_p=0.9,
        stop_sequences=["END"],
        seed=7,
        presence_penalty=0.1,
        frequency_penalty=0.2,
        user_id="user-1",
        request_labels={"team": "a"},
    )
    assert body == {
        "model": "gpt-4o-mini",
        "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}],
        "max_tokens": 20,
        "temperature": 0.5,
        "top_p": 0.9,
        "stop": ["END"],
        "seed": 7,
        "presence_penalty": 0.1,
        "frequency_penalty": 0.2,
        "user": "user-1",
        "metadata": {"team": "a"},
    }
    assert result.warnings == []


def test_reasoning_models_get_developer_and_max_completion_tokens() -> None:
    body, result = sent(
        "openai/o3-mini",
        system="Be brief.",
        prompt="Hi",
        max_output_tokens=100,
        temperature=0.2,
        reasoning={"effort": "max"},
    )
    assert body["messages"][0] == {"role": "developer", "content": "Be brief."}
    assert body["max_completion_tokens"] == 100 and "max_tokens" not in body and "temperature" not in body
    assert body["reasoning_effort"] == "high"
    assert [(w.type, w.setting) for w in result.warnings] == [
        ("unsupported-setting", "temperature"),
        ("unsupported-setting", "reasoning.effort"),
    ]


def test_reasoning_on_a_model_without_it_is_a_warning_not_a_field() -> None:
    body, result = sent(prompt="Hi", reasoning={"effort": "low"})
    assert "reasoning_effort" not in body
    assert result.warnings[0].setting == "reasoning"


def test_openrouter_reasoning_is_an_object_and_deepseek_sends_none() -> None:
    body, _ = sent(
        "openrouter/anthropic/claude-sonnet-4.5",
        prompt="Hi",
        reasoning={"effort": "low", "budget_tokens": 500},
    )
    assert body["reasoning"] == {"effort": "low", "max_tokens": 500}
    body, result = sent("deepseek/deepseek-reasoner", prompt="Hi", reasoning={"effort": "high"})
    assert "reasoning" not in body and "reasoning_effort" not in body
    assert result.warnings[0].setting == "reasoning"
    body, _ = sent("groq/qwen/qwen3-32b", prompt="Hi", reasoning={"effort": "low"})
    assert body["reasoning_effort"] == "low"


def test_preset_quirks_top_k_seed_user_and_stream_options() -> None:
    body, result = sent(prompt="Hi", top_k=5)
    assert "top_k" not in body and result.warnings[0].setting == "top_k"
    body, _ = sent("together/meta-llama/Llama-3-8b", prompt="Hi", top_k=5)
    assert body["top_k"] == 5
    body, result = sent("mistral/mistral-small-latest", stream=True, prompt="Hi", seed=3, user_id="u")
    assert body["random_seed"] == 3 and "seed" not in body and "user" not in body
    assert body["stream"] is True and "stream_options" not in body
    assert result.warnings[0].setting == "user_id"
    body, _ = sent(stream=True, prompt="Hi")
    assert body["stream_options"] == {"include_usage": True}


def test_response_formats() -> None:
    body, _ = sent(prompt="Hi", response_format="json")
    assert body["response_format"] == {"type": "json_object"}
    schema = {"type": "object", "properties": {"a": {"type": "string"}}}
    body, _ = sent(
        prompt="Hi", response_format={"type": "json_schema", "schema": schema, "strict": True, "name": "A"}
    )
    strict = {**schema, "additionalProperties": False, "required": ["a"]}  # strict mode's dialect
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "A", "schema": strict, "strict": True},
    }


TOOL = {
    "type": "function",
    "name": "weather",
    "description": "Weather.",
    "parameters": {"type": "object", "properties": {}},
}
OTHER = {"type": "function", "name": "time", "parameters": {"type": "object", "properties": {}}}


def test_tools_and_tool_choice() -> None:
    body, _ = sent(prompt="Hi", tools=[TOOL, OTHER], tool_choice="any")
    assert body["tools"][0] == {
        "type": "function",
        "function": {
            "name": "weather",
            "description": "Weather.",
            "parameters": {"type": "object", "properties": {}},
        },
    }
    assert body["tool_choice"] == "required"
    body, _ = sent(prompt="Hi", tools=[TOOL, OTHER], tool_choice={"type": "tool", "name": "time"})
    assert body["tool_choice"] == {"type": "function", "function": {"name": "time"}}
    body, _ = sent(prompt="Hi", tools=[TOOL, OTHER], tool_choice={"type": "tools", "names": ["time"]})
    assert [t["function"]["name"] for t in body["tools"]] == ["time"]
    assert body["tool_choice"] == {"type": "function", "function": {"name": "time"}}


def test_tool_round_trip_messages_keep_call_ids() -> None:
    body, _ = sent(
        messages=[
            {"role": "user", "content": "Weather?"},
            {
                "role": "assistant",
                "content": [
                    {"type": "tool-call", "id": "call_1", "name": "weather", "args": {"city": "Zürich"}}
                ],
            },
            {
                "role": "tool",
                "content": [
                    {"type": "tool-result", "call_id": "call_1", "name": "weather", "output": {"t": 3}}
                ],
            },
            {
                "role": "tool",
                "content": [
                    {"type": "tool-result", "call_id": "call_2", "name": "weather", "output": "sunny"}
                ],
            },
        ],
        tools=[TOOL],
    )
    assert body["messages"][1:] == [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "weather", "arguments": '{"city":"Zürich"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": '{"t":3}'},
        {"role": "tool", "tool_call_id": "call_2", "content": "sunny"},
    ]


def test_image_audio_and_pdf_parts() -> None:
    png, wav, pdf = b"\x89PNG", b"RIFF", b"%PDF"
    body, _ = sent(
        messages=[
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "Look"},
                    {"type": "file", "media_type": "image/png", "data": png},
                    {"type": "file", "media_type": "image/jpeg", "uri": "https://example.test/a.jpg"},
                    {"type": "file", "media_type": "audio/wav", "data": wav},
                    {"type": "file", "media_type": "application/pdf", "data": pdf},
                    {"type": "file", "media_type": "application/pdf", "uri": "file-abc"},
                ],
            }
        ]
    )
    b64 = lambda data: base64.b64encode(data).decode()  # noqa: E731
    assert body["messages"][0]["content"] == [
        {"type": "text", "text": "Look"},
        {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{b64(png)}"}},
        {"type": "image_url", "image_url": {"url": "https://example.test/a.jpg"}},
        {"type": "input_audio", "input_audio": {"data": b64(wav), "format": "wav"}},
        {
            "type": "file",
            "file": {"filename": "document.pdf", "file_data": f"data:application/pdf;base64,{b64(pdf)}"},
        },
        {"type": "file", "file": {"file_id": "file-abc"}},
    ]


def test_provider_options_and_the_escape_hatch() -> None:
    body, _ = sent(
        prompt="Hi",
        provider_options={
            "openai": {
                "logprobs": True,
                "top_logprobs": 2,
                "parallel_tool_calls": False,
                "extra_body": {"store": False, "x": 1},
            }
        },
    )
    assert (
        body["logprobs"],
        body["top_logprobs"],
        body["parallel_tool_calls"],
        body["store"],
        body["x"],
    ) == (True, 2, False, False, 1)
    body, _ = sent("groq/llama", prompt="Hi", provider_options={"openai": {"logprobs": True}})
    assert "logprobs" not in body  # only the provider's own key is read


@pytest.mark.parametrize(
    ("request_", "match"),
    [
        ({"provider_options": {"openai": {"logprob": True}}}, "logprob"),
        ({"provider_options": {"openai": {"top_logprobs": 3}}}, "top_logprobs needs logprobs"),
        ({"provider_options": {"openai": {"extra_body": {"messages": []}}}}, "cannot set messages"),
        (
            {
                "messages": [
                    {"role": "user", "content": [{"type": "file", "media_type": "video/mp4", "data": b"x"}]}
                ]
            },
            "video/mp4",
        ),
        (
            {
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {"type": "file", "media_type": "audio/wav", "uri": "https://a.test/x.wav"}
                        ],
                    }
                ]
            },
            "inline",
        ),
        (
            {
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {"type": "file", "media_type": "application/pdf", "uri": "https://a.test/x.pdf"}
                        ],
                    }
                ]
            },
            "PDF",
        ),
        (
            {
                "messages": [
                    {
                        "role": "system",
                        "content": [{"type": "file", "media_type": "image/png", "data": b"x"}],
                    },
                    {"role": "user", "content": "Hi"},
                ]
            },
            "system",
        ),
    ],
)
def test_bad_input_is_a_typed_error_before_any_request(request_: dict[str, Any], match: str) -> None:
    recorder = Recorder([])
    m, _ = model(recorder)
    request = {"prompt": "Hi", **request_} if "messages" not in request_ else request_
    with pytest.raises(InvalidRequestError, match=match):
        m.generate(**request)
    with pytest.raises(InvalidRequestError, match=match):
        with m.stream(**request) as s:
            list(s)
    assert recorder.requests == []


def test_urls_headers_and_credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    m, recorder = model([response(body=completion())], organization="org-1", project="proj-1")
    m.generate(prompt="Hi")
    request = recorder.requests[0]
    assert str(request.url) == "https://api.openai.com/v1/chat/completions"
    assert request.headers["authorization"] == f"Bearer {KEY}"
    assert (request.headers["openai-organization"], request.headers["openai-project"]) == ("org-1", "proj-1")
    for model_id, url in [
        ("groq/x", "https://api.groq.com/openai/v1/chat/completions"),
        ("deepseek/x", "https://api.deepseek.com/chat/completions"),
        ("openrouter/x", "https://openrouter.ai/api/v1/chat/completions"),
        ("xai/x", "https://api.x.ai/v1/chat/completions"),
        ("together/x", "https://api.together.xyz/v1/chat/completions"),
        ("mistral/x", "https://api.mistral.ai/v1/chat/completions"),
    ]:
        m, recorder = model([response(body=completion())], model_id)
        m.generate(prompt="Hi")
        assert str(recorder.requests[0].url) == url
    monkeypatch.setenv("OPENAI_BASE_URL", "https://proxy.test/v1/")
    m, recorder = model([response(body=completion())])
    m.generate(prompt="Hi")
    assert str(recorder.requests[0].url) == "https://proxy.test/v1/chat/completions"


def test_local_servers_need_no_key_but_a_url() -> None:
    m, recorder = model([response(body=completion())], "ollama/llama3", api_key=None)
    m.generate(prompt="Hi")
    assert str(recorder.requests[0].url) == "http://localhost:11434/v1/chat/completions"
    assert "authorization" not in recorder.requests[0].headers
    m, recorder = model(
        [response(body=completion())],
        "openai-compatible/my-model",
        api_key=None,
        base_url="http://127.0.0.1:8000/v1",
    )
    m.generate(prompt="Hi")
    assert str(recorder.requests[0].url) == "http://127.0.0.1:8000/v1/chat/completions"
    m, _ = model([], "openai-compatible/my-model", api_key=None)
    with pytest.raises(ConfigurationError, match="base_url"):
        m.generate(prompt="Hi")


def test_a_missing_key_names_the_variable_and_a_bad_key_never_shows() -> None:
    m, _ = model([], api_key=None)
    with pytest.raises(modelport.MissingCredentialsError, match="OPENAI_API_KEY"):
        m.generate(prompt="Hi")
    secret = "sk-proj-abcdefghijklmnop\u00a0"
    m, recorder = model([], api_key=secret)
    with pytest.raises(ConfigurationError) as caught:
        m.generate(prompt="Hi")
    assert "abcdefghijklmnop" not in str(caught.value) and recorder.requests == []


def test_unknown_get_model_option_is_rejected() -> None:
    with pytest.raises(ConfigurationError, match="organisation"):
        modelport.get_model("openai/gpt-4o-mini", api_key=KEY, organisation="x")
