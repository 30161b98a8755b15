"""The kit's Google Cloud credentials (modelport.http.google_cloud): hosts, project and location
from options or the standard variables, and bearer tokens from a token, a provider or ADC."""

from __future__ import annotations

import asyncio
import sys

import httpx
import pytest

from modelport.errors import ConfigurationError, MissingCredentialsError
from modelport.http.google_cloud import (
    MULTI_REGION_HOSTS,
    VERTEX_ENV_VARS,
    AdcAuth,
    GoogleCloudCredentials,
    TokenProviderAuth,
    reveal_credential,
    vertex_host,
)
from modelport.provider import Secret
from tests.google_auth import fake_google_auth

#: A planted token, built at run time.
TOKEN = "ya29." + "c" * 24


@pytest.fixture(autouse=True)
def _no_cloud_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in VERTEX_ENV_VARS:
        monkeypatch.delenv(name, raising=False)


def _sent(auth: httpx.Auth) -> str:
    request = httpx.Request("POST", "https://us-east5-aiplatform.googleapis.com/v1/x")
    flow = auth.sync_auth_flow(request)
    return next(flow).headers["authorization"]


async def _asent(auth: httpx.Auth) -> str:
    request = httpx.Request("POST", "https://us-east5-aiplatform.googleapis.com/v1/x")
    flow = auth.async_auth_flow(request)
    return (await flow.__anext__()).headers["authorization"]


@pytest.mark.parametrize(
    ("location", "host"),
    [
        ("us-east5", "us-east5-aiplatform.googleapis.com"),
        ("europe-west1", "europe-west1-aiplatform.googleapis.com"),
        ("global", "aiplatform.googleapis.com"),
        ("eu", "aiplatform.eu.rep.googleapis.com"),
        ("us", "aiplatform.us.rep.googleapis.com"),
    ],
)
def test_vertex_hosts(location: str, host: str) -> None:
    assert vertex_host(location) == host
    assert set(MULTI_REGION_HOSTS) == {"eu", "us"}


def test_project_and_location_options_win_over_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    cloud = GoogleCloudCredentials({}, "p", hint="h")
    assert (cloud.project(), cloud.explicit_location(), cloud.location()) == (None, None, "us-central1")
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "env-project")
    monkeypatch.setenv("GOOGLE_CLOUD_LOCATION", "europe-west1")
    assert (cloud.project(), cloud.location()) == ("env-project", "europe-west1")
    given = GoogleCloudCredentials({"project": "opt", "location": "us-east5"}, "p", hint="h")
    assert (given.project(), given.location()) == ("opt", "us-east5")


def test_a_missing_project_names_the_variables_and_the_hint() -> None:
    cloud = GoogleCloudCredentials({"token": TOKEN}, "anthropic-vertex", hint="Install the extra.")
    with pytest.raises(MissingCredentialsError) as info:
        cloud.require_project()
    assert info.value.env_vars == ["GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION"]
    assert "Install the extra." in str(info.value)
    assert TOKEN not in str(info.value)


def test_a_fixed_token_and_a_secret() -> None:
    assert _sent(GoogleCloudCredentials({"token": TOKEN}, "p", hint="").auth()) == f"Bearer {TOKEN}"
    assert _sent(GoogleCloudCredentials({"token": Secret(TOKEN)}, "p", hint="").auth()) == f"Bearer {TOKEN}"
    assert GoogleCloudCredentials({"token": TOKEN}, "p", hint="").secrets() == [TOKEN]
    with pytest.raises(ConfigurationError, match="^credentials must be strings$"):
        reveal_credential(42)
    with pytest.raises(ConfigurationError, match="U\\+000A") as info:
        reveal_credential(TOKEN + "\n", "token")
    assert TOKEN not in str(info.value)


def test_a_token_provider_sync_and_async() -> None:
    calls: list[int] = []

    def provide() -> str:
        calls.append(1)
        return f"{TOKEN}{len(calls)}"

    auth = GoogleCloudCredentials({"token_provider": provide}, "p", hint="").auth()
    assert isinstance(auth, TokenProviderAuth)
    assert _sent(auth) == f"Bearer {TOKEN}1"
    assert asyncio.run(_asent(auth)) == f"Bearer {TOKEN}2"
    assert TOKEN not in repr(auth)

    async def aprovide() -> str:
        return TOKEN

    async_only = TokenProviderAuth(aprovide)
    assert asyncio.run(_asent(async_only)) == f"Bearer {TOKEN}"
    with pytest.raises(ConfigurationError, match="async token_provider"):
        _sent(async_only)
    with pytest.raises(ConfigurationError, match="callable"):
        GoogleCloudCredentials({"token_provider": TOKEN}, "p", hint="").auth()


def _fake_google_auth(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    return fake_google_auth(monkeypatch, TOKEN)


def test_application_default_credentials_name_the_project_and_refresh_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    refreshed = _fake_google_auth(monkeypatch)
    cloud = GoogleCloudCredentials({}, "p", hint="")
    assert cloud.require_project() == "adc-project"
    auth = cloud.auth()
    assert isinstance(auth, AdcAuth)
    assert _sent(auth) == f"Bearer {TOKEN}"
    assert asyncio.run(_asent(auth)) == f"Bearer {TOKEN}"
    assert refreshed == ["refresh"]  # kept while valid


def test_without_google_auth_no_credentials_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "google.auth", None)  # an import of it fails
    cloud = GoogleCloudCredentials({"project": "p"}, "anthropic-vertex", hint="Install it.")
    with pytest.raises(MissingCredentialsError, match="Install it."):
        _sent(cloud.auth())
