"""Issue 14 item 7: configuration that used to be silently wrong is rejected, with a did-you-mean.

A provider declares the ``**provider_config`` options it accepts (``Provider.config_options``, a
frozenset; ``None`` accepts anything); ``get_model`` rejects any other. A model id cannot rewrite
the request URL: no query, fragment, escape or control character and no ``.``/``..`` segment.
"""

from __future__ import annotations

from typing import Any, ClassVar

import httpx
import pytest

import modelport
from modelport import Provider, hookimpl
from modelport.errors import ConfigurationError, UnknownModelError

pytestmark = pytest.mark.usefixtures("fresh_registry")

KEY = "test-key-not-a-secret"


class RegionalProvider(Provider):
    id: ClassVar[str] = "regional"
    config_options: ClassVar[frozenset[str] | None] = frozenset({"location", "project", "token"})


class OpenProvider(Provider):
    id: ClassVar[str] = "open"  # declares nothing: any option is the provider's business


class Plugin:
    @hookimpl
    def modelport_register_providers(self, register: Any) -> None:
        register(RegionalProvider)
        register(OpenProvider)


@pytest.fixture
def installed(fresh_registry: None) -> None:
    modelport.register_plugin(Plugin(), name="config-test-plugin")


@pytest.mark.usefixtures("installed")
@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"locaton": "europe-west4"},
            "unknown option 'locaton' (did you mean 'location'?) for provider 'regional'; "
            "its options are: location, project, token",
        ),
        (
            {"projet": "p", "locaton": "x", "location": "y"},
            "unknown options 'locaton' (did you mean 'location'?), 'projet' (did you mean 'project'?) "
            "for provider 'regional'; its options are: location, project, token",
        ),
        (
            {"timout": 5},
            "unknown option 'timout' (did you mean 'timeout'?) for provider 'regional'; "
            "its options are: location, project, token",
        ),
        (
            {"zzz": 1},
            "unknown option 'zzz' for provider 'regional'; its options are: location, project, token",
        ),
    ],
)
def test_unknown_options_are_rejected_with_a_suggestion(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigurationError) as info:
        modelport.get_model("regional/m", **options)
    assert (type(info.value), str(info.value)) == (ConfigurationError, message)


@pytest.mark.usefixtures("installed")
def test_declared_options_and_undeclaring_providers_are_accepted() -> None:
    model = modelport.get_model("regional/m", location="europe-west4", project="p")
    assert dict(model.provider.config.options) == {"location": "europe-west4", "project": "p"}
    assert dict(modelport.get_model("open/m", anything=1).provider.config.options) == {"anything": 1}


def test_a_misspelled_vertex_location_does_not_silently_send_to_us_central1() -> None:
    sent: list[httpx.Request] = []
    transport = httpx.MockTransport(lambda request: sent.append(request) or httpx.Response(500))  # type: ignore[func-returns-value]
    with pytest.raises(ConfigurationError) as info:
        modelport.get_model(
            "google-vertex/gemini-2.5-flash",
            token="t",
            project="p",
            locaton="europe-west4",
            transport=transport,
        )
    assert str(info.value) == (
        "unknown option 'locaton' (did you mean 'location'?) for provider 'google-vertex'; "
        "its options are: batch_bucket, credential, location, name, project, token, token_provider"
    )
    assert sent == []


PATH_MESSAGE = "a model name cannot have an empty, '.' or '..' path segment"


def _char(char: str) -> str:
    return (
        f"a model name cannot contain {char!r} "
        "(no query, fragment, percent, backslash, whitespace or control characters)"
    )


@pytest.mark.parametrize(
    ("model_id", "problem"),
    [
        ("google/../../upload/v1beta/files#", _char("#")),
        ("google/../../upload/v1beta/files", PATH_MESSAGE),
        ("google/gemini-2.5-flash?alt=json&x=1#", _char("?")),
        ("google/gemini-2.5-flash#frag", _char("#")),
        ("google/tunedModels/../x", PATH_MESSAGE),
        ("google/./gemini", PATH_MESSAGE),
        ("google/a//b", PATH_MESSAGE),
        ("google/gemini/", PATH_MESSAGE),
        ("google/%2e%2e/files", _char("%")),
        ("google/a\\b", _char("\\")),
        ("google/gemini 2.5", _char(" ")),
        ("google/gemini\t2.5", _char("\t")),
        ("google/gemini\n", _char("\n")),
        ("google/gem\x7fini", _char("\x7f")),
        ("google/gem\x9bini", _char("\x9b")),
        ("google/gem\u200bini", _char("\u200b")),  # zero-width space
        ("google/gem\u2028ini", _char("\u2028")),  # line separator
    ],
)
def test_model_ids_cannot_rewrite_the_url(model_id: str, problem: str) -> None:
    sent: list[httpx.Request] = []
    transport = httpx.MockTransport(lambda request: sent.append(request) or httpx.Response(500))  # type: ignore[func-returns-value]
    with pytest.raises(UnknownModelError) as info:
        modelport.get_model(model_id, api_key=KEY, transport=transport).generate(prompt="x")
    assert (type(info.value), str(info.value)) == (UnknownModelError, f"model id {model_id!r}: {problem}")
    with pytest.raises(UnknownModelError):
        modelport.plugins.split_model_id(model_id)
    assert sent == []


@pytest.mark.parametrize(
    "model_id",
    [
        "google/gemini-2.5-flash",
        "google/tunedModels/my-model-123",
        "google-vertex/publishers/google/models/gemini-2.5-flash",
        "google-vertex/claude-3-5-sonnet@20240620",
        "google/ft:gemini:org::abc",
    ],
)
def test_ordinary_model_ids_are_accepted(model_id: str) -> None:
    provider_id, _, model_name = model_id.partition("/")
    assert modelport.plugins.split_model_id(model_id) == (provider_id, model_name)
    assert modelport.get_model(model_id, api_key=KEY).name == model_name


def test_a_long_model_id_is_shown_bounded() -> None:
    with pytest.raises(UnknownModelError) as info:
        modelport.get_model("google/" + "x" * 10_000 + "?")
    assert str(info.value) == f"model id {'google/' + 'x' * 193!r}... [9808 more]: {_char('?')}"


# Issue 15: ``async_transport`` (what the async client modelport builds runs on) -----------------


@pytest.mark.usefixtures("installed")
@pytest.mark.parametrize(
    ("value", "message"),
    [
        (
            "aiohtp",
            "async_transport must be 'auto', 'aiohttp' or 'httpx', got 'aiohtp' (did you mean 'aiohttp'?)",
        ),
        (
            "HTTPX",
            "async_transport must be 'auto', 'aiohttp' or 'httpx', got 'HTTPX' (did you mean 'httpx'?)",
        ),
        ("curl", "async_transport must be 'auto', 'aiohttp' or 'httpx', got 'curl'"),
        (None, "async_transport must be 'auto', 'aiohttp' or 'httpx', got NoneType"),
    ],
)
def test_an_unknown_async_transport_is_rejected_with_a_suggestion(value: object, message: str) -> None:
    with pytest.raises(ConfigurationError) as info:
        modelport.get_model("regional/m", async_transport=value)
    assert str(info.value) == message


@pytest.mark.usefixtures("installed")
def test_a_misspelled_async_transport_keyword_is_suggested() -> None:
    with pytest.raises(ConfigurationError, match=r"'async_transprt' \(did you mean 'async_transport'\?\)"):
        modelport.get_model("regional/m", async_transprt="httpx")


@pytest.mark.usefixtures("installed")
def test_async_transport_cannot_contradict_an_injected_client_or_transport() -> None:
    mock = httpx.MockTransport(lambda r: httpx.Response(200))
    with pytest.raises(ConfigurationError) as info:
        modelport.get_model("regional/m", async_transport="httpx", transport=mock)
    assert str(info.value) == (
        "async_transport='httpx' has no effect with an async transport, which async calls use as is; "
        "pass one or the other"
    )
    with pytest.raises(ConfigurationError, match="has no effect with async_http_client"):
        modelport.get_model("regional/m", async_transport="aiohttp", async_http_client=httpx.AsyncClient())
    # "auto" (the default) simply yields to what was passed, and a sync transport serves sync calls only.
    modelport.get_model("regional/m", transport=mock)
    modelport.get_model("regional/m", async_transport="httpx", transport=httpx.HTTPTransport())
    for value in ("auto", "aiohttp", "httpx"):
        assert (
            modelport.get_model("regional/m", async_transport=value).provider.config.async_transport == value
        )


@pytest.mark.usefixtures("installed")
def test_async_transport_aiohttp_without_the_extra_is_a_configuration_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from modelport.http import _clients  # the check sits beside the clients it configures

    monkeypatch.setattr(_clients, "_aiohttp_installed", lambda: False)
    with pytest.raises(ConfigurationError) as info:
        modelport.get_model("regional/m", async_transport="aiohttp")
    assert str(info.value) == (
        "async_transport='aiohttp' needs aiohttp and httpx-aiohttp: pip install 'modelport[aiohttp]'"
    )
    modelport.get_model("regional/m")  # "auto" falls back to httpx's transport
