"""Where Azure OpenAI requests go and how they are authenticated (no mapping here).

The endpoint is the resource's origin (``https://{resource}.openai.azure.com``, or a
``*.cognitiveservices.azure.com`` / ``*.services.ai.azure.com`` one): ``base_url=`` or ``endpoint=``,
else ``resource=``, else ``AZURE_OPENAI_ENDPOINT``. The route follows the API version
(``api_version=``, else ``OPENAI_API_VERSION``, else ``v1``):

- ``v1`` (the default): ``{endpoint}/openai/v1/chat/completions``, ``/openai/v1/responses``... (the
  deployment name goes in the body's ``model``);
- ``preview``: the same routes with ``?api-version=preview``;
- a dated version (``2024-10-21``): the deployment routes,
  ``{endpoint}/openai/deployments/{deployment}/chat/completions?api-version=2024-10-21``, and
  ``{endpoint}/openai/responses?api-version=...`` for the Responses API.

Credentials: an API key (``api_key=`` or ``AZURE_OPENAI_API_KEY``) in the ``api-key`` header, else a
Microsoft Entra ID bearer token: ``token=``, a ``token_provider=`` callable (sync, such as
``azure.identity.get_bearer_token_provider(...)``), a ``credential=`` (an azure-identity
``TokenCredential``), or ``DefaultAzureCredential`` when the ``modelport-openai[azure]`` extra is
installed. Each is sent only to the endpoint's own origin (the kit refuses any other before I/O).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Generator
from typing import Any
from urllib.parse import quote

import httpx

from modelport.errors import ConfigurationError, MissingCredentialsError, ProviderAuthError
from modelport.http import HeaderAuth, check_header_value
from modelport.http.urls import check_base_url, check_resource_name
from modelport.provider import ProviderConfig, Secret

__all__ = [
    "API_KEY_ENV",
    "API_VERSION_ENV",
    "ENDPOINT_ENV",
    "ENTRA_SCOPE",
    "AzureConnection",
]

#: The standard environment variables of the Azure OpenAI clients.
ENDPOINT_ENV = "AZURE_OPENAI_ENDPOINT"
API_KEY_ENV = "AZURE_OPENAI_API_KEY"
API_VERSION_ENV = "OPENAI_API_VERSION"
#: The Microsoft Entra ID scope of Azure OpenAI (Azure AI services).
ENTRA_SCOPE = "https://cognitiveservices.azure.com/.default"
#: Options of ``get_model`` the Azure providers read.
AZURE_OPTIONS = frozenset(
    {"endpoint", "resource", "api_version", "token", "token_provider", "credential", "name"}
)
_V1 = frozenset({"v1", "latest"})


def _reveal(value: Any, what: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, Secret):
        value = value.reveal()
    if not isinstance(value, str):
        raise ConfigurationError(f"the {what} must be a string")
    return check_header_value(value, what) if value else None


class _TokenProviderAuth(httpx.Auth):
    """A bearer token from a sync callable, asked for each request (sync and async calls alike: the
    callable is azure-identity's ``get_bearer_token_provider`` or a credential, which cache tokens)."""

    def __init__(self, token_provider: Any) -> None:
        self._token_provider = token_provider

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        import inspect

        value = self._token_provider()
        if inspect.isawaitable(value):
            if inspect.iscoroutine(value):
                value.close()
            raise ConfigurationError(
                "token_provider must be a sync callable (azure.identity.get_bearer_token_provider, "
                "not its azure.identity.aio twin)"
            )
        request.headers["authorization"] = f"Bearer {_reveal(value, 'Entra ID token')}"
        yield request

    def __repr__(self) -> str:
        return "_TokenProviderAuth(<token provider>)"


class AzureConnection:
    """The endpoint, API version, routes and credentials of one Azure OpenAI model (read from
    ``config`` and the environment each time, so nothing is resolved before it is needed)."""

    def __init__(self, config: ProviderConfig) -> None:
        self._config = config
        self._lock = threading.Lock()
        self._credential: Any = None

    # Where --------------------------------------------------------------------------------------

    def endpoint(self) -> str:
        """The resource's endpoint, without a trailing ``/openai`` or ``/openai/v1``; a
        ``ConfigurationError`` (before any I/O) when none is given anywhere."""
        options = self._config.options
        if self._config.base_url:
            url, source = self._config.base_url, "base_url"
        elif options.get("endpoint"):
            url, source = str(options["endpoint"]), "endpoint"
        elif options.get("resource"):
            resource = str(options["resource"])
            check_resource_name(resource, what="an Azure resource name")
            if "/" in resource or "." in resource:
                raise ConfigurationError("resource= is the resource's name only (pass endpoint= for a URL)")
            url, source = f"https://{resource}.openai.azure.com", "resource"
        elif os.environ.get(ENDPOINT_ENV):
            url, source = os.environ[ENDPOINT_ENV], ENDPOINT_ENV
        else:
            raise ConfigurationError(
                f"provider {self._config.provider_id!r} needs the resource's endpoint: endpoint="
                f"'https://<resource>.openai.azure.com', resource='<resource>', or {ENDPOINT_ENV} "
                "in the environment"
            )
        url = check_base_url(url, source=source)
        for suffix in ("/openai/v1", "/openai"):
            if url.lower().endswith(suffix):
                return url[: -len(suffix)]
        return url

    def api_version(self) -> str:
        """``api_version=``, else ``OPENAI_API_VERSION``, else ``v1``."""
        value = self._config.options.get("api_version") or os.environ.get(API_VERSION_ENV) or "v1"
        if not isinstance(value, str):
            raise ConfigurationError("api_version must be a string ('v1', 'preview' or a date)")
        problem = next((c for c in value if not (c.isalnum() or c in "-._")), None)
        if problem is not None or not value:
            raise ConfigurationError(f"api_version {value[:40]!r} is not an Azure OpenAI API version")
        return value

    def v1(self) -> bool:
        """Whether requests take the v1 routes (``api_version`` ``v1`` or ``preview``)."""
        return self.api_version().lower() in (*_V1, "preview")

    def route(self, operation: str, deployment: str | None = None) -> str:
        """The path (with its query) of ``operation`` (``chat/completions``, ``embeddings``,
        ``responses``, ``models``...); ``deployment`` for the deployment routes of a dated version."""
        version = self.api_version()
        lowered = version.lower()
        if lowered in _V1:
            return f"/openai/v1/{operation}"
        if lowered == "preview":
            return f"/openai/v1/{operation}?api-version=preview"
        query = f"?api-version={quote(version, safe='')}"
        if deployment is None:
            return f"/openai/{operation}{query}"
        name = check_resource_name(deployment, what="an Azure deployment name")
        if "/" in name:
            raise ConfigurationError("an Azure deployment name cannot contain '/'")
        return f"/openai/deployments/{quote(name, safe='')}/{operation}{query}"

    # Who ------------------------------------------------------------------------------------------

    def api_key(self) -> str | None:
        """``api_key=``, else ``AZURE_OPENAI_API_KEY``, checked to be sendable; ``None`` if neither."""
        key = _reveal(self._config.api_key, "API key") if self._config.api_key is not None else None
        return key or _reveal(os.environ.get(API_KEY_ENV) or None, "API key")

    def token(self) -> str | None:
        return _reveal(self._config.options.get("token"), "Entra ID token")

    def auth(self) -> httpx.Auth:
        """The ``api-key`` header, a fixed bearer token, a token provider, an azure-identity
        credential or ``DefaultAzureCredential``; ``MissingCredentialsError`` before any I/O when
        there is none and azure-identity is not installed."""
        options = self._config.options
        key = self.api_key()
        if key:
            return HeaderAuth("api-key", key)
        token = self.token()
        if token:
            return HeaderAuth("authorization", f"Bearer {token}")
        if options.get("token_provider") is not None:
            if not callable(options["token_provider"]):
                raise ConfigurationError("token_provider must be a callable that returns a token")
            return _TokenProviderAuth(options["token_provider"])
        credential = options.get("credential")
        if credential is not None and not callable(getattr(credential, "get_token", None)):
            raise ConfigurationError("credential must be an azure-identity TokenCredential (with get_token)")
        if credential is None:
            credential = self._default_credential()
        return _TokenProviderAuth(self._bearer(credential))

    def secrets(self) -> list[str]:
        """Configured credentials, to scrub from messages (fetched tokens are learnt when sent)."""
        found = []
        for get in (self.api_key, self.token):
            try:
                value = get()
            except ConfigurationError:
                continue
            if value:
                found.append(value)
        return found

    def _missing(self) -> MissingCredentialsError:
        return MissingCredentialsError(
            self._config.provider_id,
            (API_KEY_ENV,),
            hint="Or pass token=... / token_provider=... / credential=... (Microsoft Entra ID), or "
            'install "modelport-openai[azure]" (azure-identity) for DefaultAzureCredential.',
        )

    def _default_credential(self) -> Any:
        try:
            from azure.identity import DefaultAzureCredential  # type: ignore[import-not-found,unused-ignore]
        except ImportError:
            raise self._missing() from None
        with self._lock:
            if self._credential is None:
                self._credential = DefaultAzureCredential()
            return self._credential

    def _bearer(self, credential: Any) -> Any:
        """A token callable over a sync azure-identity ``credential``: ``get_token(scope).token``
        for each request (the credential caches and refreshes its token)."""
        provider = self._config.provider_id

        def token() -> str:
            try:
                return str(credential.get_token(ENTRA_SCOPE).token)
            except Exception as error:  # azure-identity's text may quote the token exchange
                if isinstance(error, ConfigurationError):
                    raise
                raise ProviderAuthError(
                    f"Microsoft Entra ID gave no token for {ENTRA_SCOPE} ({type(error).__name__}); "
                    "check `az login`, the managed identity or AZURE_CLIENT_ID / AZURE_TENANT_ID",
                    provider=provider,
                ) from None

        return token
