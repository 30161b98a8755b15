"""Google Cloud credentials for HTTP providers: Vertex AI hosts, project and location, bearer tokens.

One place for what every provider on Google Cloud needs, whoever's models it serves (Gemini on
``google-vertex``, Claude on ``anthropic-vertex``, a third party's):

- :func:`vertex_host`: the Vertex AI host of a location (regional, the ``eu``/``us`` multi-regions
  of :data:`MULTI_REGION_HOSTS`, or ``global``);
- :class:`GoogleCloudCredentials`: the project and location (options, else :data:`VERTEX_ENV_VARS`,
  else application default credentials' project) and an :class:`httpx.Auth` that sends
  ``authorization: Bearer <token>`` from, in order, a fixed ``token``, a ``token_provider``
  callable (sync or async), or application default credentials through the optional
  ``google-auth`` package (refreshed when expired, in a thread for async calls);
- :class:`TokenProviderAuth` and :class:`AdcAuth`, the two ``httpx.Auth`` flows behind it.

A token only ever lands in a header: never in a URL, a message or a ``repr``. A failed refresh is a
:class:`~modelport.errors.ProviderAuthError` naming only the kind of failure (google-auth's own text
may quote the token exchange).
"""

from __future__ import annotations

import os
import threading
from collections.abc import AsyncGenerator, Callable, Generator, Mapping, Sequence
from typing import Any

import httpx

from ..errors import ConfigurationError, MissingCredentialsError, ProviderAuthError
from ..provider import Secret
from ._auth import HeaderAuth, check_header_value

__all__ = [
    "CLOUD_PLATFORM_SCOPE",
    "DEFAULT_LOCATION",
    "MULTI_REGION_HOSTS",
    "VERTEX_ENV_VARS",
    "AdcAuth",
    "GoogleCloudCredentials",
    "TokenProviderAuth",
    "reveal_credential",
    "vertex_host",
]

#: The environment variables of the Google Cloud project and location, read when the ``project``
#: and ``location`` options are not given.
VERTEX_ENV_VARS = ("GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION")
#: The OAuth scope application default credentials are asked for.
CLOUD_PLATFORM_SCOPE = "https://www.googleapis.com/auth/cloud-platform"
#: The location used when neither the ``location`` option nor ``GOOGLE_CLOUD_LOCATION`` is set.
DEFAULT_LOCATION = "us-central1"
#: Vertex multi-region locations and their hosts (``eu-aiplatform...`` does not exist).
MULTI_REGION_HOSTS = {"eu": "aiplatform.eu.rep.googleapis.com", "us": "aiplatform.us.rep.googleapis.com"}


def vertex_host(location: str) -> str:
    """The Vertex AI host of ``location``: regional, multi-regional (``eu``, ``us``) or global."""
    if location == "global":
        return "aiplatform.googleapis.com"
    if location in MULTI_REGION_HOSTS:
        return MULTI_REGION_HOSTS[location]
    return f"{location}-aiplatform.googleapis.com"


def reveal_credential(value: Any, what: str = "credential") -> str | None:
    """``value`` (a string or a :class:`~modelport.secrets.Secret`) as header text, ``None`` when
    unset or empty; anything else, or a value no header can carry, is a ``ConfigurationError``
    that never shows it."""
    if value is None:
        return None
    if isinstance(value, Secret):
        value = value.reveal()
    if not isinstance(value, str):
        raise ConfigurationError("credentials must be strings")
    return check_header_value(value, what) if value else None


def _first_set(names: Sequence[str]) -> str | None:
    return next((os.environ[name] for name in names if os.environ.get(name)), None)


class TokenProviderAuth(httpx.Auth):
    """A bearer token from a user callable: awaited in async calls, called in sync ones."""

    def __init__(self, token_provider: Callable[[], Any]) -> None:
        self._token_provider = token_provider

    def sync_auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        import inspect

        value = self._token_provider()
        if inspect.iscoroutine(value):
            value.close()
            raise ConfigurationError("an async token_provider can only serve async calls")
        request.headers["authorization"] = f"Bearer {reveal_credential(value, 'token')}"
        yield request

    async def async_auth_flow(self, request: httpx.Request) -> AsyncGenerator[httpx.Request, httpx.Response]:
        import asyncio

        value = self._token_provider()
        if asyncio.iscoroutine(value) or isinstance(value, asyncio.Future):
            value = await value
        request.headers["authorization"] = f"Bearer {reveal_credential(value, 'token')}"
        yield request

    def __repr__(self) -> str:
        return "TokenProviderAuth(...)"


class AdcAuth(httpx.Auth):
    """A bearer token from ``fresh_token`` (application default credentials): called in a thread in
    async calls, since a refresh is blocking I/O."""

    def __init__(self, fresh_token: Callable[[], str]) -> None:
        self._fresh_token = fresh_token

    def sync_auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        request.headers["authorization"] = f"Bearer {self._fresh_token()}"
        yield request

    async def async_auth_flow(self, request: httpx.Request) -> AsyncGenerator[httpx.Request, httpx.Response]:
        import asyncio

        token = await asyncio.to_thread(self._fresh_token)
        request.headers["authorization"] = f"Bearer {token}"
        yield request

    def __repr__(self) -> str:
        return "AdcAuth(...)"


class GoogleCloudCredentials:
    """A provider's Google Cloud project, location and OAuth credentials, from its options.

    ``options`` are the provider's configuration options: ``project``, ``location``, ``token`` (a
    string or :class:`~modelport.secrets.Secret`), ``token_provider`` (a callable returning one,
    or an awaitable of one) and ``credential`` (a ``google.auth`` credentials object, refreshed as
    needed). ``hint`` ends the :class:`~modelport.errors.MissingCredentialsError` raised when no
    project or no credentials can be found (say there which extra installs ``google-auth``).
    ``project_env`` and ``location_env`` are the variables read, in order, when the options are
    unset (``GOOGLE_CLOUD_PROJECT`` and ``GOOGLE_CLOUD_LOCATION`` by default).
    """

    def __init__(
        self,
        options: Mapping[str, Any],
        provider_id: str,
        *,
        hint: str,
        project_env: Sequence[str] = VERTEX_ENV_VARS[:1],
        location_env: Sequence[str] = VERTEX_ENV_VARS[1:],
    ) -> None:
        self._options = options
        self.project_env = tuple(project_env)
        self.location_env = tuple(location_env)
        self._provider_id = provider_id
        self._hint = hint
        self._lock = threading.Lock()
        self._credentials: Any = None
        self._adc_project: str | None = None

    def __repr__(self) -> str:
        return f"GoogleCloudCredentials(provider={self._provider_id!r})"

    # Where ------------------------------------------------------------------------------------

    def explicit_location(self) -> str | None:
        """The ``location`` option, else the first of ``location_env`` set, else ``None``."""
        value = self._options.get("location") or _first_set(self.location_env)
        return str(value) if value else None

    def location(self) -> str:
        """The explicit location, else :data:`DEFAULT_LOCATION` (``us-central1``)."""
        return self.explicit_location() or DEFAULT_LOCATION

    def project(self) -> str | None:
        """``project`` option, else the first of ``project_env`` set, else the ADC project once known."""
        value = self._options.get("project") or _first_set(self.project_env)
        return str(value) if value else self._adc_project

    def require_project(self) -> str:
        """The project, looked up from application default credentials when no option, variable or
        token names one; a :class:`~modelport.errors.MissingCredentialsError` (no I/O) when none."""
        project = self.project()
        if project is None and not self.has_token():
            self.adc()  # application default credentials may name the project
            project = self.project()
        if project is None:
            raise self.missing()
        return project

    # Who --------------------------------------------------------------------------------------

    def token(self) -> str | None:
        """The fixed ``token`` option, checked to be sendable."""
        return reveal_credential(self._options.get("token"), "token")

    def has_token(self) -> bool:
        """Whether a ``token`` or ``token_provider`` is configured (no ADC needed)."""
        return self.token() is not None or self._options.get("token_provider") is not None

    def auth(self) -> httpx.Auth:
        """A fixed token, a token provider, or application default credentials (in that order)."""
        token = self.token()
        if token is not None:
            return HeaderAuth("authorization", f"Bearer {token}")
        provider = self._options.get("token_provider")
        if provider is not None:
            if not callable(provider):
                raise ConfigurationError("token_provider must be a callable returning a token")
            return TokenProviderAuth(provider)
        return AdcAuth(self.adc_token)

    def secrets(self) -> list[str]:
        """The configured token, to scrub from messages (a provider's tokens are learnt when sent)."""
        token = self.token()
        return [token] if token else []

    def missing(self) -> MissingCredentialsError:
        """The error of a missing project or credentials, naming the project and location variables."""
        names = (*self.project_env, *self.location_env)
        return MissingCredentialsError(self._provider_id, names, hint=self._hint)

    def adc(self) -> Any:
        """The ``credential`` option, else application default credentials (looked up once)."""
        credentials = self._options.get("credential")
        try:
            import google.auth  # type: ignore[import-not-found,unused-ignore]  # optional extra
        except ImportError:
            if credentials is None:
                raise self.missing() from None
            raise ConfigurationError("google-auth is needed to refresh the given credential") from None
        with self._lock:
            if credentials is None:
                if self._credentials is None:
                    try:
                        self._credentials, self._adc_project = google.auth.default(
                            scopes=[CLOUD_PLATFORM_SCOPE]
                        )
                    except google.auth.exceptions.DefaultCredentialsError:
                        raise self.missing() from None
                credentials = self._credentials
        return credentials

    def adc_token(self) -> str:
        """A fresh access token from application default credentials (refreshed when expired)."""
        credentials = self.adc()
        try:
            import google.auth.transport.requests  # type: ignore[import-not-found,unused-ignore]
        except ImportError:
            raise ConfigurationError(
                "application default credentials need google-auth's HTTP transport (the 'requests' "
                'package): pip install "google-auth[requests]", or pass token= / token_provider='
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
                        provider=self._provider_id,
                    ) from None
            return check_header_value(str(credentials.token), "access token")
