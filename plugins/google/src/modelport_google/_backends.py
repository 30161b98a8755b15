"""Who we talk to: the Gemini API (G1) and Vertex AI (G2) — model URLs and authentication.

Pure except for Vertex credentials: a backend turns a model name into the model's URL and says how
requests are authenticated (an :class:`httpx.Auth`, whose sync and async flows fetch or refresh a
token without twin methods). The key or token only ever lands in a header, never in a URL, message
or ``repr``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from modelport.errors import ConfigurationError
from modelport.http import HeaderAuth
from modelport.http.google_cloud import (
    MULTI_REGION_HOSTS,
    VERTEX_ENV_VARS,
    GoogleCloudCredentials,
    reveal_credential,
    vertex_host,
)
from modelport.http.urls import check_base_url
from modelport.provider import ProviderConfig, Secret

if TYPE_CHECKING:
    import httpx

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
#: Where Vertex AI hosts, the project and location, and OAuth credentials come from: the kit's
#: :mod:`modelport.http.google_cloud` (``VERTEX_ENV_VARS``, ``MULTI_REGION_HOSTS`` and ``vertex_host``
#: are re-exported here, as before).
_HINT = (
    "Pass token=... or token_provider=..., or install modelport-google[vertex] "
    "(google-auth) for application default credentials."
)


def _reveal(value: object, what: str = "credential") -> str | None:
    return reveal_credential(value, what)


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


class VertexBackend:
    """Vertex AI: bearer token against ``{location}-aiplatform.googleapis.com/v1``.

    The token comes from the ``token`` option, a ``token_provider`` callable (sync or async), or
    application default credentials via the optional ``google-auth`` extra (all through the kit's
    :class:`~modelport.http.google_cloud.GoogleCloudCredentials`). An ``api_key`` without a project
    uses Vertex express mode (``x-goog-api-key``, no project in the path).
    """

    name = "vertex"
    vertex = True

    def __init__(self, config: ProviderConfig) -> None:
        self._config = config
        self.cloud = GoogleCloudCredentials(config.options, config.provider_id, hint=_HINT)

    def project(self) -> str | None:
        """``project`` option, else ``GOOGLE_CLOUD_PROJECT``, else the ADC project once known."""
        return self.cloud.project()

    def location(self) -> str:
        """``location`` option, else ``GOOGLE_CLOUD_LOCATION``, else ``us-central1``."""
        return self.cloud.location()

    def base_url(self, location: str | None = None) -> str:
        """``https://{location}-aiplatform.googleapis.com/v1``; ``global`` and express mode (unless a
        location is set) use the global ``aiplatform.googleapis.com``, the multi-regions ``eu``/``us`` their
        ``aiplatform.{eu,us}.rep.googleapis.com`` endpoints."""
        if self._config.base_url:
            return check_base_url(self._config.base_url)
        if location is None:
            explicit = self.cloud.explicit_location()
            location = "global" if self._express() and not explicit else self.location()
        return f"https://{vertex_host(location)}/v1"

    def _api_key(self) -> str | None:
        return _reveal(self._config.api_key, "API key")

    def express(self) -> bool:
        """Vertex express mode: an API key and no project (nor token) configured."""
        return self._express()

    def _express(self) -> bool:
        return not self.cloud.has_token() and bool(self._api_key()) and self.project() is None

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
        return f"projects/{self.cloud.require_project()}/locations/{self.location()}"

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
        if not self.cloud.has_token() and self._express():
            return HeaderAuth("x-goog-api-key", self._api_key() or "")
        return self.cloud.auth()

    def secrets(self) -> list[str]:
        """Configured credentials, to scrub from messages (tokens from a provider are learned when sent)."""
        return [s for s in (*self.cloud.secrets(), self._api_key()) if s]

    def adc_token(self) -> str:
        """A fresh access token from application default credentials (refreshed when expired)."""
        return self.cloud.adc_token()
