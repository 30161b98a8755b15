"""``anthropic-vertex``: Claude on Vertex AI — URLs, project and location resolution, Google bearer
credentials to Vertex AI's origins only, the Messages body less ``model`` plus ``anthropic_version``,
and what Vertex does not offer refused before any I/O."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from modelport_anthropic import VERTEX_ANTHROPIC_VERSION, VertexAnthropicProvider
from modelport_anthropic.vertex import vertex_model_url

import modelport
from modelport.errors import ConfigurationError, InvalidRequestError, MissingCredentialsError
from modelport.http import HttpRequest
from modelport.types import FunctionTool, ProviderTool, ResponseFormat
from tests.google_auth import fake_google_auth

#: A planted OAuth access token, built at run time.
TOKEN = "ya29." + "vertex-canary-" + "7" * 16
#: The recorded answer of charmbracelet/fantasy's vertex-claude-3-7-sonnet/simple.yaml.
ANSWER = {
    "model": "claude-3-7-sonnet-20250219",
    "id": "msg_vrtx_011eLZnjY8pFUmGNwLPxrGHH",
    "type": "message",
    "role": "assistant",
    "content": [{"type": "text", "text": "Olá! Como posso ajudar você hoje?"}],
    "stop_reason": "end_turn",
    "stop_sequence": None,
    "usage": {
        "input_tokens": 16,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        "output_tokens": 16,
    },
}
ENV = ("GOOGLE_CLOUD_PROJECT", "ANTHROPIC_VERTEX_PROJECT_ID", "GOOGLE_CLOUD_LOCATION", "CLOUD_ML_REGION")


@pytest.fixture(autouse=True)
def _no_cloud_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ENV:
        monkeypatch.delenv(name, raising=False)


def _model(seen: list[httpx.Request], model: str = "claude-3-7-sonnet@20250219", **options: Any) -> Any:
    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json=ANSWER)

    options.setdefault("token", TOKEN)
    return modelport.get_model(
        f"anthropic-vertex/{model}", transport=httpx.MockTransport(handler), max_retries=0, **options
    )


def _sent(max_output_tokens: int | None = None, **options: Any) -> httpx.Request:
    seen: list[httpx.Request] = []
    _model(seen, **options).generate(
        prompt="Say hi in Portuguese",
        system="You are a helpful assistant",
        max_output_tokens=max_output_tokens,
    )
    return seen[0]


def test_resolves_and_decodes_the_recorded_answer() -> None:
    seen: list[httpx.Request] = []
    result = _model(seen, project="fantasy-playground-472418", location="us-east5").generate(prompt="hi")
    assert result.text == "Olá! Como posso ajudar você hoje?"
    assert (result.usage.input_tokens, result.usage.output_tokens) == (16, 16)
    assert isinstance(
        modelport.get_model("anthropic-vertex/x", project="p").provider, VertexAnthropicProvider
    )


@pytest.mark.parametrize(
    ("location", "host"),
    [
        ("us-east5", "us-east5-aiplatform.googleapis.com"),
        ("europe-west1", "europe-west1-aiplatform.googleapis.com"),
        ("global", "aiplatform.googleapis.com"),
        ("eu", "aiplatform.eu.rep.googleapis.com"),
    ],
)
def test_the_url_of_each_location(location: str, host: str) -> None:
    request = _sent(project="proj", location=location)
    assert str(request.url) == (
        f"https://{host}/v1/projects/proj/locations/{location}/publishers/anthropic/models/"
        "claude-3-7-sonnet@20250219:rawPredict"
    )


def test_a_stream_goes_to_stream_raw_predict_with_stream_true() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(500, json={"error": {"type": "api_error", "message": "stop here"}})

    model = modelport.get_model(
        "anthropic-vertex/claude-haiku-4-5@20251001",
        project="p",
        location="us-east5",
        token=TOKEN,
        transport=httpx.MockTransport(handler),
        max_retries=0,
    )
    with pytest.raises(modelport.errors.ProviderError):
        model.stream(prompt="hi").result()
    assert str(seen[0].url).endswith(
        "/publishers/anthropic/models/claude-haiku-4-5@20251001:streamRawPredict"
    )
    body = json.loads(seen[0].content)
    assert body["stream"] is True and "model" not in body
    assert body["anthropic_version"] == VERTEX_ANTHROPIC_VERSION


def test_the_body_is_the_messages_body_without_model_and_with_the_vertex_version() -> None:
    request = _sent(project="p", location="us-east5", max_output_tokens=4000)
    # The same body, key for key, as the recorded one (fantasy simple.yaml) but for the system's form.
    assert json.loads(request.content) == {
        "max_tokens": 4000,
        "messages": [{"role": "user", "content": "Say hi in Portuguese"}],
        "system": "You are a helpful assistant",
        "anthropic_version": "vertex-2023-10-16",
    }
    assert "anthropic-version" not in request.headers
    assert "x-api-key" not in request.headers
    assert request.headers["authorization"] == f"Bearer {TOKEN}"


def test_beta_goes_as_the_anthropic_beta_header() -> None:
    request = _sent(project="p", location="us-east5", beta=["context-1m-2025-08-07"])
    assert request.headers["anthropic-beta"] == "context-1m-2025-08-07"


@pytest.mark.parametrize(
    ("env", "project", "location"),
    [
        ({"GOOGLE_CLOUD_PROJECT": "g", "GOOGLE_CLOUD_LOCATION": "us-east5"}, "g", "us-east5"),
        ({"ANTHROPIC_VERTEX_PROJECT_ID": "a", "CLOUD_ML_REGION": "europe-west1"}, "a", "europe-west1"),
        (
            {"GOOGLE_CLOUD_PROJECT": "g", "ANTHROPIC_VERTEX_PROJECT_ID": "a", "CLOUD_ML_REGION": "global"},
            "g",
            "global",
        ),
    ],
)
def test_project_and_location_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], project: str, location: str
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert f"/projects/{project}/locations/{location}/" in str(_sent().url)


def test_options_win_over_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "env-project")
    monkeypatch.setenv("GOOGLE_CLOUD_LOCATION", "europe-west1")
    url = str(_sent(project="opt", location="us-east5").url)
    assert url.startswith("https://us-east5-aiplatform.googleapis.com/v1/projects/opt/locations/us-east5/")


def test_a_missing_location_is_a_typed_error_before_any_io() -> None:
    seen: list[httpx.Request] = []
    with pytest.raises(ConfigurationError, match="GOOGLE_CLOUD_LOCATION or CLOUD_ML_REGION"):
        _model(seen, project="p").generate(prompt="hi")
    assert seen == []


def test_a_missing_project_is_a_typed_error_before_any_io() -> None:
    seen: list[httpx.Request] = []
    with pytest.raises(MissingCredentialsError) as info:
        _model(seen, location="us-east5").generate(prompt="hi")
    assert info.value.env_vars == list(ENV)
    assert "modelport-anthropic[vertex]" in str(info.value)
    assert TOKEN not in str(info.value)
    assert seen == []


def test_a_path_segment_cannot_leave_its_place() -> None:
    seen: list[httpx.Request] = []
    for options in ({"project": "p/../../x", "location": "us-east5"}, {"project": "p", "location": "us:x"}):
        with pytest.raises(InvalidRequestError):
            _model(seen, **options).generate(prompt="hi")
    assert seen == []
    with pytest.raises(InvalidRequestError, match="model name"):
        vertex_model_url("https://h/v1", "p", "us-east5", "claude:streamRawPredict", stream=False)


@pytest.mark.parametrize(
    "url",
    [
        "https://api.anthropic.com/v1/messages",
        "https://oauth2.googleapis.com/token",
        "https://us-east5-aiplatform.googleapis.com.evil.example/v1/x",
        "http://us-east5-aiplatform.googleapis.com/v1/x",
        "https://storage.googleapis.com/bucket/x",
    ],
)
@pytest.mark.parametrize("entry", ["sync", "async"])
def test_the_bearer_token_goes_to_vertex_origins_only(url: str, entry: str) -> None:
    seen: list[httpx.Request] = []
    provider = _model(seen, project="p", location="us-east5").provider
    spec = HttpRequest(url, method="GET")
    with pytest.raises(InvalidRequestError, match="refused") as info:
        if entry == "sync":
            provider.call_json(spec)
        else:
            asyncio.run(provider.acall_json(spec))
    assert seen == [] and TOKEN not in str(info.value)


def test_another_vertex_host_is_allowed() -> None:
    seen: list[httpx.Request] = []
    provider = _model(seen, project="p", location="us-east5").provider
    provider.call_json(HttpRequest("https://aiplatform.googleapis.com/v1/x", method="GET"))
    assert seen[0].headers["authorization"] == f"Bearer {TOKEN}"


def test_a_token_provider_sync_and_async() -> None:
    seen: list[httpx.Request] = []

    async def provide() -> str:
        return TOKEN

    model = _model(seen, project="p", location="us-east5", token=None, token_provider=provide)
    asyncio.run(model.agenerate(prompt="hi"))
    assert seen[0].headers["authorization"] == f"Bearer {TOKEN}"


def test_the_token_is_in_no_repr_or_error() -> None:
    seen: list[httpx.Request] = []
    model = _model(seen, project="p", location="us-east5")
    assert (
        TOKEN not in repr(model)
        and TOKEN not in repr(model.provider)
        and TOKEN not in repr(model.provider.auth())
    )


def _refused(seen: list[httpx.Request], **keywords: Any) -> str:
    model = _model(seen, "claude-sonnet-4-5@20250929", project="p", location="us-east5")
    with pytest.raises(InvalidRequestError) as info:
        model.generate(prompt="hi", **keywords)
    return str(info.value)


def test_what_vertex_does_not_offer_is_refused_before_any_io() -> None:
    seen: list[httpx.Request] = []
    assert "server tools" in _refused(seen, tools=[ProviderTool(id="anthropic.web_search")])
    image = modelport.types.FilePart(uri="file_011CNha8iCJcU1wXNR6q4V8w", media_type="image/png")
    message = modelport.types.Message(role="user", content=[image])
    with pytest.raises(InvalidRequestError, match="Files API"):
        _model(seen, project="p", location="us-east5").generate(messages=[message])
    model = _model(seen, project="p", location="us-east5")
    with pytest.raises(InvalidRequestError, match="count_tokens"):
        model.count_tokens(prompt="hi")
    with pytest.raises(InvalidRequestError, match="listing models"):
        model.provider.list_models()
    assert seen == []
    capabilities = VertexAnthropicProvider.capabilities
    assert not (capabilities.batch or capabilities.count_tokens or capabilities.provider_tools)
    assert not (capabilities.web_search or capabilities.web_fetch or capabilities.list_models)


def test_structured_output_goes_as_the_answer_tool_unless_native_is_asked() -> None:
    schema = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    fmt = ResponseFormat(type="json_schema", json_schema=schema, name="book")
    seen: list[httpx.Request] = []
    model = _model(seen, "claude-haiku-4-5@20251001", project="p", location="us-east5")
    model.generate(prompt="hi", response_format=fmt)
    body = json.loads(seen[0].content)
    assert body["tool_choice"] == {"type": "tool", "name": "book"} and "output_config" not in body
    model.generate(
        prompt="hi", response_format=fmt, provider_options={"anthropic": {"structured_output": "native"}}
    )
    assert json.loads(seen[1].content)["output_config"]["format"]["type"] == "json_schema"


def test_function_tools_keep_the_messages_shape() -> None:
    seen: list[httpx.Request] = []
    tool = FunctionTool(name="weather", description="Get weather", parameters={"type": "object"})
    _model(seen, project="p", location="us-east5").generate(prompt="hi", tools=[tool])
    body = json.loads(seen[0].content)
    assert body["tools"] == [
        {"name": "weather", "description": "Get weather", "input_schema": {"type": "object"}}
    ]


def test_every_vertex_cassette_is_a_vertex_call_in_the_vertex_shape() -> None:
    """The cases' cassettes hold only Vertex AI calls (the Mirascope OAuth refresh is dropped), each
    with ``anthropic_version`` and no ``model`` in its body, and the bearer token by name only."""
    from importlib.resources import files

    import yaml

    folder = files("modelport_anthropic") / "cassettes" / "anthropic-vertex"
    seen = 0
    for case in folder.iterdir():
        cassette = yaml.safe_load((case / "cassette.yaml").read_text(encoding="utf-8"))
        for interaction in cassette["interactions"]:
            request = interaction["request"]
            assert request["uri"].startswith("https://us-east5-aiplatform.googleapis.com/v1/projects/")
            assert request["uri"].endswith((":rawPredict", ":streamRawPredict"))
            body = request["body"]["json"]
            assert body["anthropic_version"] == VERTEX_ANTHROPIC_VERSION and "model" not in body
            assert request["headers"]["authorization"] == ["<credential>"]
            seen += 1
    assert seen == 19  # 20 cases, one refused before any I/O


def test_application_default_credentials_give_the_token_and_the_project(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake_google_auth(monkeypatch, TOKEN)
    request = _sent(location="us-east5", token=None)
    assert "/projects/adc-project/locations/us-east5/" in str(request.url)
    assert request.headers["authorization"] == f"Bearer {TOKEN}"


def test_a_saved_connection_keeps_project_and_location_never_the_token() -> None:
    seen: list[httpx.Request] = []
    kept = _model(seen, project="p", location="us-east5").provider.saved_connection()
    assert kept == {
        "base_url": "https://us-east5-aiplatform.googleapis.com/v1",
        "project": "p",
        "location": "us-east5",
    }
    assert TOKEN not in repr(kept)
