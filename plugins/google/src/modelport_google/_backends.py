"""Who we talk to: the Gemini API (G1) and Vertex AI (G2) — model URLs and authentication.

Pure except for Vertex credentials: a backend turns a model name into the model's URL and says how
requests are authenticated (an :class:`httpx.Auth`, whose sync and async flows fetch or refresh a
token without twin methods). The key or token only ever lands in a header, never in a URL, message
or ``repr``.
"""

from __future__ import annotations

import os
import threading
from collections.abc import AsyncGenerator, Callable, Generator
from dataclasses import replace
from typing import Any

import httpx

from modelport.errors import ConfigurationError, MissingCredentialsError, ProviderAuthError
from modelport.http import HeaderAuth, check_header_value
from modelport.http.urls import check_base_url
from modelport.provider import ProviderConfig, Secret

__all__ = [
    "API_KEY_ENV_VARS",
    "BASE_URL_ENV_VAR",
    "GEMINI_BASE_URL",
    "GeminiBackend",
    "MULTI_REGION_HOSTS",
    "VertexBackend",
    "VERTEX_ENV_VARS",
    "vertex_host",
    "with_credential",
]

#: The Gemini API's base URL (the ``google`` provider's default).
GEMINI_BASE_URL = "https://generativelanguage.googleapis.com/v1beta"
#: Where the Gemini API key is looked up, in order.
API_KEY_ENV_VARS = ("GOOGLE_API_KEY", "GOOGLE_GENERATIVE_AI_API_KEY", "GEMINI_API_KEY")
#: The environment variable that overrides the Gemini API's base URL.
BASE_URL_ENV_VAR = "GOOGLE_GEMINI_BASE_URL"
#: The environment variables of the Vertex AI project and location, read when the ``project`` and
#: ``location`` options are not given.
VERTEX_ENV_VARS = ("GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION")
_CLOUD_SCOPE = "https://www.googleapis.com/auth/cloud-platform"


def _reveal(value: Any, what: str = "credential") -> str | None:
    if value is None:
        return None
    if isinstance(value, Secret):
        value = value.reveal()
    if not isinstance(value, str):
        raise ConfigurationError("credentials must be strings")
    return check_header_value(value, what) if value else None


#: Vertex multi-region locations and their hosts (``eu-aiplatform...`` does not exist).
MULTI_REGION_HOSTS = {"eu": "aiplatform.eu.rep.googleapis.com", "us": "aiplatform.us.rep.googleapis.com"}


def vertex_host(location: str) -> str:
    """The Vertex AI host of ``location``: regional, multi-regional (``eu``, ``us``) or global."""
    if location == "global":
        return "aiplatform.googleapis.com"
    if location in MULTI_REGION_HOSTS:
        return MULTI_REGION_HOSTS[location]
    return f"{location}-aiplatform.googleapis.com"


def _resource_location(name: str) -> str | None:
    """The ``locations/{l}`` segment of a resource name, if any."""
    parts = name.split("/")
    for i, part in enumerate(parts[:-1]):
        if part == "locations":
            return parts[i + 1]
    return None


def model_path(model_name: str) -> str:
    """``models/{model}`` for a bare model name; ``tunedModels/x`` and the like stay as given."""
    return model_name if "/" in model_name else f"models/{model_name}"


def publisher_model(model_name: str) -> str:
    """A Vertex model path: ``publishers/google/models/{m}`` for a bare name (``models/`` dropped);
    a name with a slash (``publishers/x/models/y``, a full resource name) stays as given."""
    name = model_name.removeprefix("models/")
    return name if "/" in name else f"publishers/google/models/{name}"


class GeminiBackend:
    """The Gemini API's URLs. Its base URL and key are the HTTP kit's, from
    :class:`~.provider.GoogleProvider`'s declared ``base_url_env``, ``api_key_env`` and
    ``api_key_header`` (``x-goog-api-key``); ``base_url`` is that provider's."""

    name = "gemini"
    vertex = False

    def __init__(self, base_url: Callable[[], str]) -> None:
        self.base_url = base_url

    def model_url(self, model_name: str) -> str:
        """``{base}/models/{model}``."""
        return f"{self.base_url()}/{model_path(model_name)}"

    def resource_name(self, name: str, collection: str) -> str:
        """``{collection}/{id}`` for a bare id; anything with a slash stays as given."""
        return name if "/" in name else f"{collection}/{name}"


def with_credential(config: ProviderConfig) -> ProviderConfig:
    """``config`` with the Gemini API's ``credential=`` option read once, as ``api_key=``
    (``api_key=`` wins when both are given)."""
    credential = config.options.get("credential")
    if credential is None or (config.api_key is not None and config.api_key.reveal()):
        return config
    if isinstance(credential, Secret):
        credential = credential.reveal()
    if not isinstance(credential, str):
        raise ConfigurationError("credentials must be strings")
    return replace(config, api_key=Secret(credential)) if credential else config


class _TokenProviderAuth(httpx.Auth):
    """A bearer token from a user callable: awaited in async calls, called in sync ones."""

    def __init__(self, token_provider: Any) -> None:
        self._token_provider = token_provider

    def sync_auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        import inspect

        value = self._token_provider()
        if inspect.iscoroutine(value):
            value.close()
            raise ConfigurationError("an async token_provider can only serve async calls")
        request.headers["authorization"] = f"Bearer {_reveal(value, 'token')}"
        yield request

    async def async_auth_flow(self, request: httpx.Request) -> AsyncGenerator[httpx.Request, httpx.Response]:
        import asyncio

        value = self._token_provider()
        if asyncio.iscoroutine(value) or isinstance(value, asyncio.Future):
            value = await value
        request.headers["authorization"] = f"Bearer {_reveal(value, 'token')}"
        yield request


class _AdcAuth(httpx.Auth):
    """Application default credentials (``google-auth``): refreshed in a thread in async calls."""

    def __init__(self, backend: VertexBackend) -> None:
        self._backend = backend

    def sync_auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        request.headers["authorization"] = f"Bearer {self._backend.adc_token()}"
        yield request

    async def async_auth_flow(self, request: httpx.Request) -> AsyncGenerator[httpx.Request, httpx.Response]:
        import asyncio

        token = await asyncio.to_thread(self._backend.adc_token)
        request.headers["authorization"] = f"Bearer {token}"
        yield request


class VertexBackend:
    """Vertex AI: bearer token against ``{location}-aiplatform.googleapis.com/v1``.

    The token comes from the ``token`` option, a ``token_provider`` callable (sync or async), or
    application default credentials via the optional ``google-auth`` extra. An ``api_key`` without a
    project uses Vertex express mode (``x-goog-api-key``, no project in the path).
    """

    name = "vertex"
    vertex = True

    def __init__(self, config: ProviderConfig) -> None:
        self._config = config
        self._lock = threading.Lock()
        self._credentials: Any = None
        self._adc_project: str | None = None

    def project(self) -> str | None:
        """``project`` option, else ``GOOGLE_CLOUD_PROJECT``, else the ADC project once known."""
        value = self._config.options.get("project") or os.environ.get("GOOGLE_CLOUD_PROJECT")
        return str(value) if value else self._adc_project

    def location(self) -> str:
        """``location`` option, else ``GOOGLE_CLOUD_LOCATION``, else ``us-central1``."""
        value = self._config.options.get("location") or os.environ.get("GOOGLE_CLOUD_LOCATION")
        return str(value) if value else "us-central1"

    def base_url(self, location: str | None = None) -> str:
        """``https://{location}-aiplatform.googleapis.com/v1``; ``global`` and express mode (unless a
        location is set) use the global ``aiplatform.googleapis.com``, the multi-regions ``eu``/``us`` their
        ``aiplatform.{eu,us}.rep.googleapis.com`` endpoints."""
        if self._config.base_url:
            return check_base_url(self._config.base_url)
        if location is None:
            explicit = self._config.options.get("location") or os.environ.get("GOOGLE_CLOUD_LOCATION")
            location = "global" if self._express() and not explicit else self.location()
        return f"https://{vertex_host(location)}/v1"

    def _api_key(self) -> str | None:
        return _reveal(self._config.api_key, "API key")

    def _token(self) -> str | None:
        return _reveal(self._config.options.get("token"), "token")

    def express(self) -> bool:
        """Vertex express mode: an API key and no project (nor token) configured."""
        return self._express()

    def _express(self) -> bool:
        options = self._config.options
        return (
            self._token() is None
            and options.get("token_provider") is None
            and bool(self._api_key())
            and self.project() is None
        )

    def _missing(self) -> MissingCredentialsError:
        return MissingCredentialsError(
            self._config.provider_id,
            VERTEX_ENV_VARS,
            hint="Pass token=... or token_provider=..., or install modelport-google[vertex] "
            "(google-auth) for application default credentials.",
        )

    def model_url(self, model_name: str) -> str:
        """The model's URL: with the project and location, or without them in express mode.

        A full resource name (``projects/{p}/locations/{l}/endpoints/{id}`` of a tuned model, or
        ``projects/.../publishers/google/models/{m}``) is used as is, on its own location's host.
        """
        if model_name.startswith("projects/"):
            return f"{self.base_url(_resource_location(model_name))}/{model_name}"
        model = publisher_model(model_name)
        if self._express():
            return f"{self.base_url()}/{model}"
        return f"{self.base_url()}/{self.parent()}/{model}"

    def parent(self) -> str:
        """``projects/{project}/locations/{location}``; the project is looked up (ADC) when needed."""
        project = self.project()
        if project is None and self._token() is None and self._config.options.get("token_provider") is None:
            self._adc()  # application default credentials may name the project
            project = self.project()
        if project is None:
            raise self._missing()
        return f"projects/{project}/locations/{self.location()}"

    def resource_name(self, name: str, collection: str) -> str:
        """A short resource name (``cachedContents/123`` or ``123``) expanded to
        ``projects/{p}/locations/{l}/{collection}/{id}``, as Vertex expects; full names stay."""
        if name.startswith("projects/"):
            return name
        if name.startswith("locations/"):
            return f"{self.parent().split('/locations/')[0]}/{name}"
        if not name.startswith(f"{collection}/"):
            name = f"{collection}/{name}"
        if self._express():
            return name
        return f"{self.parent()}/{name}"

    def auth(self) -> httpx.Auth:
        """A fixed token, a token provider, the express-mode key, or application default credentials."""
        token = self._token()
        if token is not None:
            return HeaderAuth("authorization", f"Bearer {token}")
        provider = self._config.options.get("token_provider")
        if provider is not None:
            return _TokenProviderAuth(provider)
        if self._express():
            return HeaderAuth("x-goog-api-key", self._api_key() or "")
        return _AdcAuth(self)

    def secrets(self) -> list[str]:
        """Configured credentials, to scrub from messages (tokens from a provider are learned when sent)."""
        return [s for s in (self._token(), self._api_key()) if s]

    def _adc(self) -> Any:
        credentials = self._config.options.get("credential")
        try:
            import google.auth  # type: ignore[import-not-found,unused-ignore]  # optional extra
        except ImportError:
            if credentials is None:
                raise self._missing() from None
            raise ConfigurationError("google-auth is needed to refresh the given credential") from None
        with self._lock:
            if credentials is None:
                if self._credentials is None:
                    try:
                        self._credentials, self._adc_project = google.auth.default(scopes=[_CLOUD_SCOPE])
                    except google.auth.exceptions.DefaultCredentialsError:
                        raise self._missing() from None
                credentials = self._credentials
        return credentials

    def adc_token(self) -> str:
        """A fresh access token from application default credentials (refreshed when expired)."""
        credentials = self._adc()
        try:
            import google.auth.transport.requests  # type: ignore[import-not-found,unused-ignore]
        except ImportError:
            raise ConfigurationError(
                "application default credentials need google-auth's HTTP transport (the 'requests' "
                'package): reinstall with pip install --upgrade "modelport-google[vertex]", or pass '
                "token= / token_provider="
            ) from None

        with self._lock:
            if not credentials.valid:
                try:
                    credentials.refresh(google.auth.transport.requests.Request())
                except google.auth.exceptions.GoogleAuthError as error:
                    # Only the kind of failure: google-auth's own text may quote the token exchange.
                    raise ProviderAuthError(
                        f"application default credentials could not be refreshed ({type(error).__name__}); "
                        "check GOOGLE_APPLICATION_CREDENTIALS or run `gcloud auth application-default login`",
                        provider=self._config.provider_id,
                    ) from None
            return check_header_value(str(credentials.token), "access token")
