"""An HTTP 200 whose body is an error object (a gateway's content filter) raises that error, with
the status and code the object gives, on the OpenAI-compatible and Google providers, sync and async.

MOCK bodies: no recording in the corpus has a gateway answering 200 with an error object; the
bodies follow the documented error shapes (Azure OpenAI's content-filter error with its ``status``
field, OpenRouter's moderation error with a numeric ``code``, Google's ``{"error": {"code",
"status"}}``) with invented messages.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest

import modelport
from modelport.errors import ProviderAuthError, ProviderError, ProviderRequestError

AZURE_FILTER = {
    "error": {
        "message": "The response was filtered due to the prompt triggering the content management policy.",
        "type": None,
        "param": "prompt",
        "code": "content_filter",
        "status": 400,
    }
}
OPENROUTER_FLAG = {
    "error": {"code": 403, "message": "Input was flagged by moderation", "metadata": {"reasons": ["x"]}}
}
GOOGLE_ERROR = {
    "error": {"code": 400, "message": "Request blocked by the gateway", "status": "INVALID_ARGUMENT"}
}
NO_STATUS = {"error": {"message": "blocked", "code": "content_filter"}}


def _model(model_id: str, body: dict[str, Any]) -> modelport.Model:
    def reply(request: httpx.Request) -> httpx.Response:
        return httpx.Response(
            200,
            content=json.dumps(body).encode(),
            headers={"content-type": "application/json", "x-request-id": "r1"},
        )

    return modelport.get_model(model_id, api_key="k-123", transport=httpx.MockTransport(reply), max_retries=0)


def _raised(model: modelport.Model, *, run_async: bool) -> ProviderError:
    with pytest.raises(ProviderError) as caught:
        if run_async:
            asyncio.run(model.agenerate(prompt="hi"))
        else:
            model.generate(prompt="hi")
    return caught.value


@pytest.mark.parametrize("run_async", [False, True])
@pytest.mark.parametrize(
    ("model_id", "body", "cls", "status", "code", "message"),
    [
        (
            "openai/gpt-4o-mini",
            AZURE_FILTER,
            ProviderRequestError,
            400,
            "content_filter",
            "The response was filtered due to the prompt triggering the content management policy.",
        ),
        (
            "openrouter/openai/gpt-4o",
            OPENROUTER_FLAG,
            ProviderAuthError,
            403,
            None,
            "Input was flagged by moderation",
        ),
        (
            "google/gemini-2.5-flash",
            GOOGLE_ERROR,
            ProviderRequestError,
            400,
            "INVALID_ARGUMENT",
            "Request blocked by the gateway",
        ),
    ],
)
def test_an_error_object_in_a_200_raises_with_its_status(
    model_id: str,
    body: dict[str, Any],
    cls: type[ProviderError],
    status: int,
    code: str | None,
    message: str,
    run_async: bool,
) -> None:
    error = _raised(_model(model_id, body), run_async=run_async)
    assert type(error) is cls
    assert error.status_code == status
    assert error.provider_status == code
    assert message in str(error)
    assert error.request_id == "r1"


def test_an_error_object_without_a_status_is_typed_as_in_a_stream() -> None:
    # No status of its own: typed by its error type through the core's table, as an in-stream error
    # object is (docs/errors.md); "content_filter" is in no row, so the base class, status None.
    error = _raised(_model("openai/gpt-4o-mini", NO_STATUS), run_async=False)
    assert type(error) is ProviderError
    assert error.status_code is None
    assert error.provider_status == "content_filter"
    assert str(error) == "openai: blocked (content_filter)"
