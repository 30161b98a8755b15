"""AWS Signature Version 4 for the kit's requests, by botocore (the ``aws`` extra:
``pip install modelport[aws]``): never hand-written signing.

:class:`SigV4Auth` is an :class:`httpx.Auth` a plugin returns from
:meth:`~modelport.http.HttpProvider.auth`: each request is signed with botocore's own
:class:`botocore.auth.SigV4Auth` at the time it is sent, with credentials frozen at that moment (so
refreshed ones, from an SSO or instance role, are used as they rotate). It signs only requests to
the one origin it was made for: any other is refused before it is sent, so the credentials reach no
other host. Its ``repr`` and every error it raises name the service, region and origin, never a
credential; :func:`credential_values` gives the values the kit must scrub from every message.

:func:`aws_session` and :func:`aws_region` read the standard places: the credential chain of
botocore (the ``AWS_ACCESS_KEY_ID``/``AWS_SECRET_ACCESS_KEY``/``AWS_SESSION_TOKEN`` variables, the
shared ``~/.aws`` files and ``AWS_PROFILE``, SSO, web identity, container and instance roles), and
the region from ``region=``, ``AWS_REGION``, ``AWS_DEFAULT_REGION`` or the profile.
:class:`AwsCredentials` puts them together for a provider's options (``region=``, ``profile=``,
explicit keys, a bearer API key), so every AWS provider reads them by one rule, and
:class:`SigV4Provider` is the kit's provider that answers ``base_url``, ``auth`` and ``secrets``
from them, for a plugin to subclass.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from typing import Any, ClassVar

import httpx

from ..errors import ConfigurationError, InvalidRequestError, MissingCredentialsError
from ..provider import Secret
from ._kit import HttpProvider
from .urls import check_base_url

__all__ = [
    "AwsCredentials",
    "SigV4Auth",
    "SigV4Provider",
    "aws_credentials",
    "aws_region",
    "aws_session",
    "credential_values",
]

#: The request headers that are signed (with ``host``): what a proxy may not change. Other headers
#: httpx adds (``accept-encoding``, ``connection``, ``user-agent``) stay unsigned.
SIGNED_HEADERS = ("content-type", "accept")

_ENV = ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_PROFILE")


def _botocore() -> Any:
    try:
        import botocore.session
    except ImportError:  # pragma: no cover - the extra is installed wherever the tests run
        raise ConfigurationError("AWS signing needs botocore: pip install 'modelport[aws]'") from None
    return botocore.session


def aws_session(profile: str | None = None) -> Any:
    """A botocore session (``profile`` when given, else ``AWS_PROFILE`` or the default one)."""
    session_module = _botocore()
    try:
        return session_module.Session(profile=profile) if profile else session_module.Session()
    except Exception as error:  # botocore's ProfileNotFound and the like
        raise ConfigurationError(f"AWS configuration: {type(error).__name__}: {error}") from None


def aws_credentials(session: Any, provider: str) -> Any:
    """The session's credentials by the standard chain, or ``MissingCredentialsError``."""
    try:
        credentials = session.get_credentials()
    except Exception as error:  # a broken profile or SSO cache: said without any value in it
        raise ConfigurationError(
            f"{provider}: the AWS credentials cannot be read: {type(error).__name__}"
        ) from None
    if credentials is None:
        raise MissingCredentialsError(provider, _ENV)
    return credentials


def aws_region(session: Any, explicit: object = None) -> str:
    """``explicit`` (a ``region=`` option), else the session's region (``AWS_REGION``,
    ``AWS_DEFAULT_REGION``, the profile's ``region``), else a ``ConfigurationError``."""
    import os
    import re

    region = (
        explicit
        or os.environ.get("AWS_REGION")
        or os.environ.get("AWS_DEFAULT_REGION")
        or session.get_config_variable("region")
    )
    if not region:
        raise ConfigurationError("no AWS region: pass region=..., or set AWS_REGION (or a profile's region)")
    if not isinstance(region, str) or not re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)+", region):
        raise ConfigurationError(f"not an AWS region: {region!r}")
    return region


def credential_values(credentials: Any) -> list[str]:
    """The access key id, secret key and session token now in ``credentials`` (to scrub)."""
    frozen = credentials.get_frozen_credentials()
    return [value for value in (frozen.access_key, frozen.secret_key, frozen.token) if value]


class SigV4Auth(httpx.Auth):
    """Signs each request to ``origin`` (``https://bedrock-runtime.us-east-1.amazonaws.com``) for
    ``service`` in ``region`` with botocore's SigV4 signer; a request to any other origin is an
    ``InvalidRequestError`` before it is sent."""

    requires_request_body = True

    def __init__(self, credentials: Any, *, service: str, region: str, origin: str) -> None:
        self._credentials = credentials
        self.service = service
        self.region = region
        self.origin = httpx.URL(origin)

    def _same_origin(self, url: httpx.URL) -> bool:
        own = self.origin
        return (url.scheme, url.host, url.port) == (own.scheme, own.host, own.port)

    def sign(self, request: httpx.Request) -> None:
        """Put ``authorization``, ``x-amz-date`` (and ``x-amz-security-token``) on ``request``."""
        if not self._same_origin(request.url):
            raise InvalidRequestError(
                f"AWS credentials are sent only to {self.origin.scheme}://{self.origin.host}; "
                f"refused a request to {request.url.scheme}://{request.url.host}"
            )
        from botocore.auth import SigV4Auth as BotocoreSigV4
        from botocore.awsrequest import AWSRequest

        headers = {"host": request.headers["host"]}
        for name in SIGNED_HEADERS:
            if name in request.headers:
                headers[name] = request.headers[name]
        for name, value in request.headers.items():
            if name.lower().startswith("x-amz-"):
                headers[name.lower()] = value
        signed = AWSRequest(
            method=request.method, url=str(request.url), data=request.content, headers=headers
        )
        frozen = self._credentials.get_frozen_credentials()
        BotocoreSigV4(frozen, self.service, self.region).add_auth(signed)
        for name in ("Authorization", "X-Amz-Date", "X-Amz-Security-Token"):
            value = signed.headers.get(name)
            if value is not None:
                request.headers[name.lower()] = value

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        self.sign(request)
        yield request

    def __repr__(self) -> str:
        return f"SigV4Auth(service={self.service!r}, region={self.region!r}, origin='{self.origin}')"


def _option(value: object, provider: str, what: str) -> str | None:
    from ._auth import check_header_value

    if value is None:
        return None
    if isinstance(value, Secret):
        value = value.reveal()
    if not isinstance(value, str):
        raise ConfigurationError(f"{provider}: {what} must be a string")
    return check_header_value(value, what) if value else None


class AwsCredentials:
    """Where an AWS provider signs for and with what, from its ``get_model`` options.

    ``region=`` (else ``AWS_REGION``, ``AWS_DEFAULT_REGION``, the profile's), ``profile=`` (else
    ``AWS_PROFILE``), explicit ``aws_access_key_id=``/``aws_secret_access_key=``/
    ``aws_session_token=``; without them botocore's standard credential chain, read once. A bearer
    API key (``api_key()``, e.g. a Bedrock API key) is used only when no explicit AWS key is given.
    ``auth`` gives the request authentication, ``secrets`` the values to scrub; nothing here logs or
    says a credential.
    """

    def __init__(self, options: Mapping[str, Any], provider: str, api_key: Callable[[], str | None]) -> None:
        self.options = options
        self.provider = provider
        self._api_key = api_key
        self._session: Any = None
        self._credentials: Any = None

    def session(self) -> Any:
        """The botocore session (of ``profile=`` when given)."""
        if self._session is None:
            self._session = aws_session(_option(self.options.get("profile"), self.provider, "profile"))
        return self._session

    def region(self) -> str:
        """The region requests are signed for and sent to (:func:`aws_region`)."""
        return aws_region(self.session(), self.options.get("region"))

    def explicit_keys(self) -> tuple[str, str, str | None] | None:
        """``(access key id, secret key, session token)`` given as options, else ``None``."""
        get = self.options.get
        access = _option(get("aws_access_key_id"), self.provider, "aws_access_key_id")
        secret = _option(get("aws_secret_access_key"), self.provider, "aws_secret_access_key")
        token = _option(get("aws_session_token"), self.provider, "aws_session_token")
        if access is None and secret is None:
            return None
        if access is None or secret is None:
            raise ConfigurationError(
                f"{self.provider}: give both aws_access_key_id and aws_secret_access_key"
            )
        return access, secret, token

    def credentials(self) -> Any:
        """botocore credentials: the explicit keys, else the standard chain (read once)."""
        if self._credentials is None:
            keys = self.explicit_keys()
            if keys is not None:
                from botocore.credentials import Credentials

                self._credentials = Credentials(*keys)
            else:
                self._credentials = aws_credentials(self.session(), self.provider)
        return self._credentials

    def bearer(self) -> str | None:
        """The bearer API key, unless explicit AWS keys are given."""
        return None if self.explicit_keys() is not None else self._api_key()

    def auth(self, *, service: str, origin: str) -> httpx.Auth:
        """``Authorization: Bearer`` for a bearer key, else :class:`SigV4Auth` for ``service``."""
        from ._auth import HeaderAuth

        bearer = self.bearer()
        if bearer is not None:
            return HeaderAuth("authorization", f"Bearer {bearer}")
        return SigV4Auth(self.credentials(), service=service, region=self.region(), origin=origin)

    def secrets(self) -> list[str]:
        """The bearer key, or the AWS key id, secret and session token (none if unreadable)."""
        try:
            bearer = self.bearer()
            return [bearer] if bearer else credential_values(self.credentials())
        except ConfigurationError:
            return []

    def __repr__(self) -> str:
        return f"AwsCredentials(provider={self.provider!r})"


class SigV4Provider(HttpProvider):
    """An :class:`~modelport.http.HttpProvider` of an AWS service, for a plugin to subclass: its
    :class:`AwsCredentials` from the ``get_model`` options (read once), the region, the endpoint
    ``https://{endpoint_prefix}.{region}.amazonaws.com`` (or ``base_url=``), and requests signed
    for ``signing_service`` (or a bearer API key), every credential among the values to scrub.

    A subclass of another provider puts this class first among its bases (``class
    ClaudeOnBedrock(SigV4Provider, AnthropicProvider)``) so that these hooks answer, not the other
    provider's key header."""

    #: The SigV4 service name requests are signed for (``"bedrock"``).
    signing_service: ClassVar[str] = ""
    #: The host's first label: ``https://{endpoint_prefix}.{region}.amazonaws.com``.
    endpoint_prefix: ClassVar[str] = ""

    _aws: AwsCredentials | None = None

    @property
    def aws(self) -> AwsCredentials:
        """The region, credentials and auth of this provider's options (read once)."""
        if self._aws is None:
            self._aws = AwsCredentials(self.config.options, self.id, lambda: HttpProvider.api_key(self))
        return self._aws

    def region(self) -> str:
        """The region requests are signed for and sent to."""
        return self.aws.region()

    def base_url(self) -> str:
        """``base_url=``, else ``https://{endpoint_prefix}.{region}.amazonaws.com``."""
        if self.config.base_url:
            return check_base_url(self.config.base_url)
        return f"https://{self.endpoint_prefix}.{self.region()}.amazonaws.com"

    def auth(self) -> httpx.Auth:
        """SigV4 for ``signing_service`` at this provider's origin (or the bearer API key)."""
        return self.aws.auth(service=self.signing_service, origin=self.base_url())

    def secrets(self) -> list[str]:
        """The bearer key, or the AWS key id, secret and session token."""
        return self.aws.secrets()
