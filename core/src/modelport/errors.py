"""Every error modelport raises.

The hierarchy::

    ModelportError
    ├── ConfigurationError
    │   ├── UnknownProviderError          (unknown provider id; did-you-mean suggestions)
    │   ├── UnknownModelError             (unknown or malformed model id)
    │   ├── ProviderNotInstalledError     (a known first-party provider whose package is missing)
    │   └── MissingCredentialsError       (names the environment variables to set)
    ├── InvalidRequestError               (request validation, raised before any HTTP request)
    │   └── ProviderToolError             (provider-tool validation, T2)
    ├── OutputRefusedError                (the model refused to give the typed output asked for)
    └── ProviderError                     (anything the provider said or did)
        ├── ProviderOverloadedError       (retryable)
        │   ├── ProviderConnectionError   (no connection: refused, unreachable, no such host; names it)
        │   └── ProviderTimeoutError      (connecting, sending or reading timed out; names the host)
        ├── ProviderRateLimitError        (retryable, carries ``retry_after`` seconds)
        ├── ProviderQuotaError            (quota exhausted, not retryable)
        ├── ProviderAuthError             (invalid or missing credentials)
        ├── ProviderRequestError          (any other rejected request)
        ├── ProviderResponseError         (malformed or undecodable response)
        ├── StreamInterruptedError        (the transport broke mid-stream; carries what had arrived)
        ├── DeadlineExceededError         (the call's total deadline passed; not retried)
        └── ProviderMetadataError         (provider metadata failed validation or size bounds)

``retryable`` is a property of the class. Every :class:`ProviderError` carries ``partial``: the
:class:`~modelport.types.Result` accumulated from what had already arrived when the error happened
(``None`` when nothing had). Messages never contain credentials: bodies are excerpted, bounded and
scrubbed of anything that looks like a key or token.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from pydantic import ValidationError

    from ._contract.results import Result
    from ._contract.steps import Step

__all__ = [
    "BatchItemNotRunError",
    "ConfigurationError",
    "DeadlineExceededError",
    "InvalidRequestError",
    "MissingCredentialsError",
    "ModelportError",
    "OutputRefusedError",
    "ProviderAuthError",
    "ProviderConnectionError",
    "ProviderError",
    "ProviderMetadataError",
    "ProviderNotInstalledError",
    "ProviderOverloadedError",
    "ProviderQuotaError",
    "ProviderRateLimitError",
    "ProviderRequestError",
    "ProviderResponseError",
    "ProviderToolError",
    "ProviderTimeoutError",
    "StreamInterruptedError",
    "UnknownModelError",
    "UnknownProviderError",
    "scrub",
    "excerpt",
    "retry_reason",
    "validation_message",
]

#: Maximum number of characters of a response body kept on an error.
BODY_EXCERPT_LIMIT = 2_000

#: Maximum number of characters of a provider's error message kept on an error.
MESSAGE_LIMIT = 1_000


def _bounded(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"... [{len(text) - limit} more characters]"


def scrub(text: str, secrets: Sequence[str] = ()) -> str:
    """Replace each of ``secrets`` (in any encoded form, also behind JSON escapes) and anything shaped
    like a credential (:data:`modelport.secrets.PATTERNS`) with ``[REDACTED]``."""
    from .secrets import redact

    return redact(text, secrets)


#: Longest ``provider_status`` or ``request_id`` kept on an error (a server can send anything there).
FIELD_LIMIT = 200


def _field(value: str | None) -> str | None:
    if value is None:
        return None
    value = "".join(c if c.isprintable() else "?" for c in str(value)[: FIELD_LIMIT + 1])
    return _bounded(scrub(value), FIELD_LIMIT)


def retry_reason(error: BaseException) -> str:
    """Why a call is retried, in short, for logs and span attributes: the error's class and its HTTP
    status when it has one, never a body (``"ProviderRateLimitError (HTTP 429)"``)."""
    status = getattr(error, "status_code", None)
    return type(error).__name__ + (f" (HTTP {status})" if status is not None else "")


def excerpt(body: str | bytes | None, limit: int = BODY_EXCERPT_LIMIT) -> str | None:
    """A bounded, scrubbed excerpt of a response body for error messages."""
    if body is None:
        return None
    if isinstance(body, bytes):
        body = body[: limit * 4].decode("utf-8", errors="replace")
    return scrub(_bounded(body, limit))


class ModelportError(Exception):
    """Base class of every error raised by modelport."""

    retryable: ClassVar[bool] = False
    #: When the error ended a tool loop (``model.run``, ``arun``, ``run_stream``): the steps that
    #: finished before it; ``None`` otherwise.
    steps: list[Step] | None = None


class ConfigurationError(ModelportError):
    """The SDK or a provider is configured wrongly; nothing was sent."""


class UnknownProviderError(ConfigurationError):
    """No registered provider has this id."""

    def __init__(self, provider: str, suggestions: Sequence[str] = ()) -> None:
        self.provider = provider
        self.suggestions = list(suggestions)
        message = f"Unknown provider {provider!r}."
        if self.suggestions:
            message += " Did you mean " + " or ".join(repr(s) for s in self.suggestions) + "?"
        super().__init__(message)


class UnknownModelError(ConfigurationError):
    """The model id is malformed or names a model the provider does not know."""


class ProviderNotInstalledError(ConfigurationError):
    """A known first-party provider was asked for but its distribution is not installed."""

    def __init__(self, provider: str, display_name: str, distribution: str) -> None:
        self.provider = provider
        self.distribution = distribution
        super().__init__(
            f"{display_name} provider not installed. Install {distribution} to use {provider}/* models."
        )


class MissingCredentialsError(ConfigurationError):
    """No credential was given and none was found in the environment."""

    def __init__(self, provider: str, env_vars: Sequence[str], hint: str = "") -> None:
        self.provider = provider
        self.env_vars = list(env_vars)
        names = ", ".join(self.env_vars)
        message = f"No credentials for provider {provider!r}: pass api_key=... or set {names}."
        if hint:
            message += " " + hint
        super().__init__(message)


class InvalidRequestError(ModelportError):
    """The request is invalid; it was rejected before any HTTP request was sent."""


class ProviderToolError(InvalidRequestError):
    """A provider tool is unknown, misnamed, of another provider, or has invalid arguments."""

    def __init__(self, message: str, *, tool_id: str | None = None) -> None:
        self.tool_id = tool_id
        super().__init__(message)


class OutputRefusedError(ModelportError):
    """The model refused to answer in the requested output type (e.g. OpenAI's ``refusal``).

    ``refusal`` is the model's explanation (also :attr:`Result.refusal <modelport.types.Result.refusal>`);
    ``result`` is the whole result, usage included, so nothing received is lost.
    """

    def __init__(self, message: str, *, refusal: str, result: Result) -> None:
        super().__init__(message)
        self.refusal = refusal
        self.result = result


def validation_message(
    error: ValidationError | Sequence[Mapping[str, Any]], *, root: str = "", limit: int | None = None
) -> str:
    """pydantic's ``error`` as one line for a message: ``"where: problem; where: problem"``.

    Each problem is its location, dotted (``tools.0.name``), and pydantic's text for it; a problem
    with no location (the value as a whole) is placed at ``root``. ``limit`` keeps only the first
    problems. The input values are never quoted, so nothing the caller passed (a key, a long text)
    reaches the message. ``error`` may also be the list its ``errors()`` gives, as changed by the
    caller (locations rewritten, say)::

        except ValidationError as error:
            raise InvalidRequestError("invalid options: " + validation_message(error, root="options"))
    """
    problems = error if isinstance(error, Sequence) else error.errors(include_url=False, include_input=False)
    return "; ".join(
        f"{'.'.join(map(str, problem['loc'])) or root}: {problem['msg']}" for problem in problems[:limit]
    )


class ProviderError(ModelportError):
    """The provider rejected the request, failed, or answered with something unusable."""

    def __init__(
        self,
        message: str,
        *,
        provider: str,
        status_code: int | None = None,
        provider_status: str | None = None,
        request_id: str | None = None,
        body: str | bytes | None = None,
        retry_after: float | None = None,
        partial: Result | None = None,
        details: Any = None,
    ) -> None:
        self.provider = provider
        self.status_code = status_code
        self.provider_status = _field(provider_status)
        self.request_id = _field(request_id)
        self.body_excerpt = excerpt(body)
        self.retry_after = retry_after
        self.partial = partial
        self.details = _scrubbed_data(details)
        self.message = scrub(_bounded(message, MESSAGE_LIMIT))
        super().__init__(self._render())

    def _scrubbed(self, secrets: Sequence[str]) -> ProviderError:
        """This error with each of ``secrets`` removed by value from every field it holds (the
        decoded message, provider status, request id, body excerpt and ``details``), in any encoding."""
        from .secrets import redact_data

        if not any(secrets):
            return self
        for name in ("message", "provider_status", "request_id", "body_excerpt"):
            value = getattr(self, name)
            if value is not None:
                setattr(self, name, scrub(value, secrets))
        self.details = redact_data(self.details, secrets)
        Exception.__init__(self, self._render())
        return self

    def _render(self) -> str:
        bits = [f"{self.provider}: {self.message}"]
        meta = []
        if self.status_code is not None:
            meta.append(f"HTTP {self.status_code}")
        if self.provider_status:
            meta.append(self.provider_status)
        if self.request_id:
            meta.append(f"request id {self.request_id}")
        if self.retry_after is not None:
            meta.append(f"retry after {self.retry_after:g}s")
        if meta:
            bits.append("(" + ", ".join(meta) + ")")
        return " ".join(bits)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._render()!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self.__dict__.copy()))


def _scrubbed_data(details: Any) -> Any:
    if details is None:
        return None
    from .secrets import redact_data

    return redact_data(details)


def _rebuild(cls: type[ProviderError], state: dict[str, Any]) -> ProviderError:
    error = cls.__new__(cls)
    error.__dict__.update(state)
    Exception.__init__(error, error._render())
    return error


class ProviderOverloadedError(ProviderError):
    """The provider is overloaded, unavailable or failed transiently (HTTP 503, 500, 502, 504)."""

    retryable: ClassVar[bool] = True


class _Unreached(ProviderOverloadedError):
    """A transport failure before any answer, at the server ``host``:``port`` (the request's origin
    only: never its path, query or user info)."""

    def __init__(self, message: str, *, provider: str, host: str, port: int | None, **fields: Any) -> None:
        self.host = host
        self.port = port
        super().__init__(message, provider=provider, **fields)


class ProviderConnectionError(_Unreached):
    """No connection could be made to ``host``:``port``: refused, unreachable, or a host name that
    does not resolve. Retried (a subclass of :class:`ProviderOverloadedError`)."""


class ProviderTimeoutError(_Unreached):
    """Connecting to ``host``:``port``, sending the request or reading its answer timed out before
    any of the answer arrived (a stream that stalls later is a :class:`StreamInterruptedError`).
    Retried (a subclass of :class:`ProviderOverloadedError`)."""


class ProviderRateLimitError(ProviderError):
    """Rate-limited, with a server-given delay (``retry_after``, seconds) when one was sent."""

    retryable: ClassVar[bool] = True


class ProviderQuotaError(ProviderError):
    """A quota is exhausted and the server gave no delay after which to retry."""


class ProviderAuthError(ProviderError):
    """The credential is invalid, missing or lacks permission."""


class ProviderRequestError(ProviderError):
    """The provider rejected the request for another reason (HTTP 4xx)."""


class ProviderResponseError(ProviderError):
    """The response could not be decoded into the contract."""


class StreamInterruptedError(ProviderError):
    """The transport broke: the connection failed mid-stream, or the stream ended without its end
    (no ``finish``); ``partial`` holds everything that had arrived. An error the provider reports
    inside the stream is raised as the class its type maps to instead (docs/errors.md)."""


class DeadlineExceededError(ProviderError):
    """The call's total deadline (``deadline=`` seconds) passed before the answer was complete.

    Not retried: the deadline covers every attempt. A stream's ``partial`` holds what had arrived.
    """


class ProviderMetadataError(ProviderError):
    """Provider metadata (e.g. grounding) is malformed, not JSON, or over its size bound."""


class BatchItemNotRunError(ProviderError):
    """A request of a batch that never ran: the batch was cancelled or expired before it, or the
    provider's results have no entry for it. ``provider_status`` says which (``"cancelled"``,
    ``"expired"``, ``"missing"``); ``details["custom_id"]`` names the request."""
