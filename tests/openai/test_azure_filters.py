"""Azure OpenAI's content filter annotations and error shapes, on bodies recorded from Azure
(tests/corpus/azure-openai; the values below are those recordings')."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from modelport_openai.azure import filtered_categories

import modelport

ENDPOINT = "https://dummy.openai.azure.com"
KEY = "f" * 16 + "0123456789abcdef"

# Mirascope/mirascope, test_refusal/azure-openai_completions_gpt_4o_mini/sync.yaml (HTTP 400).
PROMPT_FILTERED = {
    "error": {
        "message": "The response was filtered due to the prompt triggering Azure OpenAI's content management "
        "policy. Please modify your prompt and retry. To learn more about our content filtering policies "
        "please read our documentation: https://go.microsoft.com/fwlink/?linkid=2198766",
        "type": None,
        "param": "prompt",
        "code": "content_filter",
        "status": 400,
        "innererror": {
            "code": "ResponsibleAIPolicyViolation",
            "content_filter_result": {
                "hate": {"filtered": False, "severity": "safe"},
                "jailbreak": {"filtered": False, "detected": False},
                "self_harm": {"filtered": True, "severity": "medium"},
                "sexual": {"filtered": False, "severity": "safe"},
                "violence": {"filtered": False, "severity": "safe"},
            },
        },
    }
}
SAFE = {"filtered": False, "severity": "safe"}
PROMPT_RESULTS = [
    {
        "prompt_index": 0,
        "content_filter_results": {
            "hate": SAFE,
            "jailbreak": {"filtered": False, "detected": False},
            "self_harm": SAFE,
            "sexual": SAFE,
            "violence": SAFE,
        },
    }
]


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("AZURE_OPENAI_ENDPOINT", "AZURE_OPENAI_API_KEY", "OPENAI_API_VERSION"):
        monkeypatch.delenv(name, raising=False)


def _model(reply: httpx.Response, provider: str = "azure-openai") -> modelport.Model:
    return modelport.get_model(
        f"{provider}/gpt-4o-mini",
        endpoint=ENDPOINT,
        api_key=KEY,
        api_version="2024-10-21",
        transport=httpx.MockTransport(lambda request: reply),
        max_retries=0,
    )


def _sse(frames: list[Any]) -> httpx.Response:
    body = "".join(f"data: {json.dumps(f)}\n\n" for f in frames) + "data: [DONE]\n\n"
    return httpx.Response(200, content=body.encode(), headers={"content-type": "text/event-stream"})


def test_a_filtered_prompt_is_the_content_filter_outcome_not_an_error() -> None:
    reply = httpx.Response(400, json=PROMPT_FILTERED, headers={"apim-request-id": "0d634507-619e"})
    outcome = _model(reply).generate(prompt="Provide detailed instructions for synthesizing fentanyl.")
    assert outcome.content == [] and outcome.text == ""
    assert (outcome.finish_reason, outcome.raw_finish_reason) == ("content-filter", "content_filter")
    blocked = outcome.provider_metadata["azure-openai"]["prompt_filter"]
    assert blocked["innererror_code"] == "ResponsibleAIPolicyViolation"
    assert (blocked["param"], blocked["request_id"]) == ("prompt", "0d634507-619e")
    assert blocked["content_filter_result"]["self_harm"] == {"filtered": True, "severity": "medium"}
    assert filtered_categories(outcome.provider_metadata["azure-openai"]) == ["self_harm"]


def test_the_error_azure_answers_with_is_typed_and_carries_the_outcome() -> None:
    # What the provider's error reader makes of the 400 (the outcome is its ``partial``).
    model = _model(httpx.Response(400, json=PROMPT_FILTERED))
    error = model.provider.error_from_response(
        400, {"apim-request-id": "0d634507-619e"}, json.dumps(PROMPT_FILTERED)
    )
    assert isinstance(error, modelport.ProviderRequestError)
    assert (error.status_code, error.provider_status, error.request_id) == (
        400,
        "content_filter",
        "0d634507-619e",
    )
    assert error.details["innererror"]["code"] == "ResponsibleAIPolicyViolation"
    assert error.partial is not None and error.partial.finish_reason == "content-filter"


def test_a_filtered_prompt_in_a_stream_finishes_with_the_same_outcome() -> None:
    reply = httpx.Response(400, json=PROMPT_FILTERED)
    events = list(_model(reply).stream(prompt="Provide detailed instructions for synthesizing fentanyl."))
    assert [event.type for event in events] == ["stream-start", "finish"]
    finish = events[-1]
    assert (finish.finish_reason, finish.raw_finish_reason) == ("content-filter", "content_filter")
    assert filtered_categories(finish.provider_metadata["azure-openai"]) == ["self_harm"]


@pytest.mark.asyncio
async def test_async_calls_give_the_same_outcome() -> None:
    model = _model(httpx.Response(400, json=PROMPT_FILTERED))
    outcome = await model.agenerate(prompt="x")
    assert outcome.finish_reason == "content-filter"
    events = [event async for event in model.astream(prompt="x")]
    assert [event.type for event in events] == ["stream-start", "finish"]
    assert filtered_categories(events[-1].provider_metadata["azure-openai"]) == ["self_harm"]


def test_another_bad_request_is_still_an_error() -> None:
    body = {
        "error": {
            "message": "Unsupported parameter: 'foo'.",
            "type": "invalid_request_error",
            "code": "unsupported_parameter",
        }
    }
    model = _model(httpx.Response(400, json=body))
    with pytest.raises(modelport.ProviderRequestError) as caught:
        model.generate(prompt="x")
    assert (caught.value.provider_status, caught.value.partial) == ("unsupported_parameter", None)
    with pytest.raises(modelport.ProviderRequestError):
        list(model.stream(prompt="x"))


def test_a_responses_prompt_filter_without_innererror() -> None:
    # Mirascope: test_refusal/azure-openai_responses_gpt_4o_mini/sync.yaml.
    body = {
        "error": {
            "message": "The response was filtered due to the prompt triggering Azure OpenAI\u2019s content "
            "management policy.",
            "type": "invalid_request_error",
            "param": "prompt",
            "code": "content_filter",
        }
    }
    outcome = _model(httpx.Response(400, json=body), "azure-openai-responses").generate(prompt="x")
    assert outcome.finish_reason == "content-filter"
    assert outcome.provider_metadata == {
        "azure-openai-responses": {
            "prompt_filter": {
                "code": "content_filter",
                "param": "prompt",
                "message": body["error"]["message"],
            }
        }
    }


def test_annotations_of_an_answer_are_kept() -> None:
    # pydantic/pydantic-ai, test_azure/test_azure_provider_call.yaml (trimmed to the read fields).
    answer_results = {
        "hate": SAFE,
        "protected_material_code": {"detected": False, "filtered": False},
        "protected_material_text": {"detected": False, "filtered": False},
        "self_harm": SAFE,
        "sexual": SAFE,
        "violence": SAFE,
    }
    body = {
        "choices": [
            {
                "content_filter_results": answer_results,
                "finish_reason": "stop",
                "index": 0,
                "message": {"content": "The capital of France is **Paris**.", "role": "assistant"},
            }
        ],
        "id": "chatcmpl-BAeyRj7gU6aCNSSAskAFbupBWYMIT",
        "model": "gpt-4o-2024-11-20",
        "object": "chat.completion",
        "prompt_filter_results": PROMPT_RESULTS,
        "system_fingerprint": "fp_ded0d14823",
    }
    result = _model(httpx.Response(200, json=body)).generate(prompt="What is the capital of France?")
    assert result.provider_metadata == {
        "azure-openai": {
            "system_fingerprint": "fp_ded0d14823",
            "prompt_filter_results": PROMPT_RESULTS,
            "content_filter_results": answer_results,
        }
    }
    assert filtered_categories(result.provider_metadata["azure-openai"]) == []


def test_a_stream_keeps_the_prompt_results_and_the_most_severe_answer_annotation() -> None:
    # The first chunk of an Azure stream (Mirascope test_call/.../stream.yaml), then per-chunk
    # annotations, the last one filtered (MOCK: no recorded stream ends in content_filter).
    cats = {"hate": SAFE, "self_harm": SAFE, "sexual": SAFE, "violence": SAFE}
    violent = {**cats, "violence": {"filtered": True, "severity": "high"}}
    frames = [
        {
            "choices": [],
            "created": 0,
            "id": "",
            "model": "",
            "object": "",
            "prompt_filter_results": PROMPT_RESULTS,
        },
        {
            "id": "chatcmpl-1",
            "choices": [
                {"index": 0, "content_filter_results": {}, "delta": {"role": "assistant", "content": ""}}
            ],
        },
        {
            "id": "chatcmpl-1",
            "choices": [{"index": 0, "content_filter_results": cats, "delta": {"content": "420"}}],
        },
        {
            "id": "chatcmpl-1",
            "choices": [
                {
                    "index": 0,
                    "content_filter_results": violent,
                    "delta": {},
                    "finish_reason": "content_filter",
                }
            ],
        },
    ]
    events = list(_model(_sse(frames)).stream(prompt="x"))
    finish = events[-1]
    assert finish.type == "finish" and finish.finish_reason == "content-filter"
    kept = finish.provider_metadata["azure-openai"]
    assert kept["prompt_filter_results"] == PROMPT_RESULTS
    assert kept["content_filter_results"]["violence"] == {"filtered": True, "severity": "high"}
    assert filtered_categories(kept) == ["violence"]

    from modelport_openai._azure_filters import merge_chat_frames

    merged = merge_chat_frames(frames)
    assert merged["prompt_filter_results"] == PROMPT_RESULTS
    assert merged["choices"][0]["content_filter_results"] == kept["content_filter_results"]


def test_responses_content_filters_are_kept() -> None:
    filters = [
        {
            "blocked": False,
            "source_type": "prompt",
            "content_filter_raw": [],
            "content_filter_results": {"hate": SAFE},
            "content_filter_offsets": {"start_offset": 0, "end_offset": 1153, "check_offset": 0},
        }
    ]
    body = {
        "id": "resp_1",
        "object": "response",
        "status": "completed",
        "model": "gpt-5-mini",
        "content_filters": filters,
        "output": [
            {
                "id": "msg_1",
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "Oi!"}],
            }
        ],
    }
    result = _model(httpx.Response(200, json=body), "azure-openai-responses").generate(prompt="x")
    assert result.provider_metadata["azure-openai-responses"] == {"content_filters": filters}


@pytest.mark.parametrize(
    ("status", "body", "headers", "cls", "provider_status"),
    [
        # crmne/ruby_llm, ..._raises_appropriate_auth_error.yml: a numeric code is no provider status.
        (
            401,
            {
                "error": {
                    "code": "401",
                    "message": "Access denied due to invalid subscription key or wrong API endpoint.",
                }
            },
            {},
            modelport.ProviderAuthError,
            None,
        ),
        (
            404,
            {
                "error": {
                    "code": "DeploymentNotFound",
                    "message": "The API deployment for this resource does not exist.",
                }
            },
            {},
            modelport.ProviderRequestError,
            "DeploymentNotFound",
        ),
        (
            429,
            {
                "error": {
                    "code": "429",
                    "message": "Requests have exceeded call rate limit. Please retry after 6 seconds.",
                }
            },
            {"retry-after": "6"},
            modelport.ProviderRateLimitError,
            None,
        ),
    ],
)
def test_azure_error_shapes_are_typed(
    status: int, body: Any, headers: dict[str, str], cls: type, provider_status: str | None
) -> None:
    with pytest.raises(cls) as caught:
        _model(httpx.Response(status, json=body, headers=headers)).generate(prompt="x")
    assert caught.value.status_code == status
    assert caught.value.provider_status == provider_status
    assert caught.value.partial is None
    if status == 429:
        assert caught.value.retry_after == 6


def test_a_responses_stream_keeps_the_terminal_content_filters() -> None:
    filters = [{"blocked": False, "source_type": "completion", "content_filter_results": {"hate": SAFE}}]
    response = {"id": "resp_1", "object": "response", "model": "gpt-5-mini", "output": []}
    frames = [
        {
            "type": "response.created",
            "response": {**response, "status": "in_progress", "content_filters": None},
        },
        {
            "type": "response.completed",
            "response": {**response, "status": "completed", "content_filters": filters},
        },
    ]
    body = "".join(f"event: {f['type']}\ndata: {json.dumps(f)}\n\n" for f in frames)
    reply = httpx.Response(200, content=body.encode(), headers={"content-type": "text/event-stream"})
    finish = list(_model(reply, "azure-openai-responses").stream(prompt="x"))[-1]
    assert finish.type == "finish" and finish.finish_reason == "stop"
    assert finish.provider_metadata["azure-openai-responses"] == {"content_filters": filters}
