"""Who we talk to: the Gemini API (G1) and Vertex AI (G2) — base URLs and credentials.

A backend turns a model name into an :class:`Endpoint` (the model's URL plus auth headers). The key or
token is read once per call from explicit configuration first, then the environment; it only ever
lands in a header, never in a URL, message or ``repr``.
"""

from __future__ import annotations

import inspect
import os
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from modelport.errors import ConfigurationError, MissingCredentialsError
from modelport.provider import ProviderConfig, Secret

__all__ = [
    "API_KEY_ENV_VARS",
    "BASE_URL_ENV_VAR",
    "GEMINI_BASE_URL",
    "Endpoint",
    "GeminiBackend",
    "VertexBackend",
    "VERTEX_ENV_VARS",
]

GEMINI_BASE_URL = "https://generativelanguage.googleapis.com/v1beta"
#: Where the Gemini API key is looked up, in order.
API_KEY_ENV_VARS = ("GOOGLE_API_KEY", "GOOGLE_GENERATIVE_AI_API_KEY", "GEMINI_API_KEY")
BASE_URL_ENV_VAR = "GOOGLE_GEMINI_BASE_URL"
VERTEX_ENV_VARS = ("GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION")
_CLOUD_SCOPE = "https://www.googleapis.com/auth/cloud-platform"


@dataclass(frozen=True, repr=False)
class Endpoint:
    """The model's base URL (``.../models/{model}``), auth headers and the secrets to scrub."""

    model_url: str
    headers: Mapping[str, str] = field(default_factory=dict)
    secrets: tuple[str, ...] = ()
    vertex: bool = False

    def url(self, method: str, *, sse: bool = False) -> str:
        """``{model_url}:{method}``, with ``?alt=sse`` for streams."""
        return f"{self.model_url}:{method}" + ("?alt=sse" if sse else "")

    def __repr__(self) -> str:
        return f"Endpoint({self.model_url!r})"


def _reveal(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, Secret):
        return value.reveal()
    if isinstance(value, str):
        return value
    raise ConfigurationError("credentials must be strings")


def _model_path(model_name: str) -> str:
    # "gemini-2.5-flash" → "models/gemini-2.5-flash"; "tunedModels/x" stays as given.
    return model_name if "/" in model_name else f"models/{model_name}"


class GeminiBackend:
    """The Gemini API: ``x-goog-api-key`` against ``generativelanguage.googleapis.com/v1beta``."""

    name = "gemini"

    def __init__(self, config: ProviderConfig) -> None:
        self._config = config

    def base_url(self) -> str:
        """Explicit ``base_url``, else ``GOOGLE_GEMINI_BASE_URL``, else the public endpoint."""
        url = self._config.base_url or os.environ.get(BASE_URL_ENV_VAR) or GEMINI_BASE_URL
        return url.rstrip("/")

    def api_key(self) -> str:
        """The key from ``api_key=``/``credential=`` or the environment, else a clear error."""
        key = _reveal(self._config.api_key) or _reveal(self._config.options.get("credential"))
        if not key:
            for name in API_KEY_ENV_VARS:
                key = os.environ.get(name)
                if key:
                    break
        if not key:
            raise MissingCredentialsError(self._config.provider_id, API_KEY_ENV_VARS)
        return key

    def endpoint(self, model_name: str) -> Endpoint:
        """Endpoint for sync calls."""
        key = self.api_key()
        return Endpoint(f"{self.base_url()}/{_model_path(model_name)}", {"x-goog-api-key": key}, (key,))

    async def aendpoint(self, model_name: str) -> Endpoint:
        """Endpoint for async calls (no I/O needed for an API key)."""
        return self.endpoint(model_name)


TokenProvider = Callable[[], Any]


class VertexBackend:
    """Vertex AI: bearer token against ``{location}-aiplatform.googleapis.com/v1``.

    The token comes from the ``token`` option, a ``token_provider`` callable (sync or async), or
    application default credentials via the optional ``google-auth`` extra. An ``api_key`` without a
    project uses Vertex express mode (``x-goog-api-key``, no project in the path).
    """

    name = "vertex"

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

    def base_url(self) -> str:
        """``https://{location}-aiplatform.googleapis.com/v1``; ``global`` has no prefix."""
        if self._config.base_url:
            return self._config.base_url.rstrip("/")
        location = self.location()
        host = "aiplatform.googleapis.com"
        if location != "global":
            host = f"{location}-{host}"
        return f"https://{host}/v1"

    def _model_url(self, model_name: str, project: str | None) -> str:
        model = model_name if "/" in model_name else f"publishers/google/models/{model_name}"
        if project is None:
            return f"{self.base_url()}/{model}"
        return f"{self.base_url()}/projects/{project}/locations/{self.location()}/{model}"

    def _api_key(self) -> str | None:
        return _reveal(self._config.api_key)

    def _missing(self) -> MissingCredentialsError:
        return MissingCredentialsError(
            self._config.provider_id,
            VERTEX_ENV_VARS,
            hint="Pass token=... or token_provider=..., or install modelport-google[vertex] "
            "(google-auth) for application default credentials.",
        )

    def _bearer(self, token: str, model_name: str) -> Endpoint:
        project = self.project()
        if project is None:
            raise self._missing()
        return Endpoint(
            self._model_url(model_name, project), {"authorization": f"Bearer {token}"}, (token,), True
        )

    def _express(self, key: str, model_name: str) -> Endpoint:
        return Endpoint(self._model_url(model_name, None), {"x-goog-api-key": key}, (key,), True)

    def endpoint(self, model_name: str) -> Endpoint:
        """Endpoint for sync calls; may refresh application default credentials."""
        options = self._config.options
        token = _reveal(options.get("token"))
        if token is None and options.get("token_provider") is not None:
            value = options["token_provider"]()
            if inspect.iscoroutine(value):
                value.close()
                raise ConfigurationError("an async token_provider can only serve async calls")
            token = _reveal(value)
        if token is None:
            key = self._api_key()
            if key and self.project() is None:
                return self._express(key, model_name)
            token = self._adc_token()
        return self._bearer(token, model_name)

    async def aendpoint(self, model_name: str) -> Endpoint:
        """Endpoint for async calls; an async ``token_provider`` is awaited, ADC runs in a thread."""
        import asyncio  # only async callers pay for it (P1: get_model stays cheap)

        options = self._config.options
        token = _reveal(options.get("token"))
        if token is None and options.get("token_provider") is not None:
            value = options["token_provider"]()
            if asyncio.iscoroutine(value) or isinstance(value, asyncio.Future):
                value = await value
            token = _reveal(value)
        if token is None:
            key = self._api_key()
            if key and self.project() is None:
                return self._express(key, model_name)
            token = await asyncio.to_thread(self._adc_token)
        return self._bearer(token, model_name)

    def _adc_token(self) -> str:
        credentials = self._config.options.get("credential")
        try:
            import google.auth  # type: ignore[import-not-found,unused-ignore]  # optional extra
            import google.auth.transport.requests
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
            if not credentials.valid:
                credentials.refresh(google.auth.transport.requests.Request())
            return str(credentials.token)
