"""The kit class of HTTP providers (:class:`HttpProvider`): the pure hooks a plugin supplies or
overrides, and the :class:`Endpoint` built from them once per model. What the core does with them is
in :mod:`._calls`; see :mod:`modelport.http` for the whole kit.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

import httpx

from .._runtime import retry as _retry
from .._runtime.decode_guard import decode_error
from ..deadlines import current as current_deadline
from ..errors import ConfigurationError, MissingCredentialsError, ProviderError, ProviderResponseError
from ..provider import (
    EmbedRequest,
    ModelInfo,
    ModelPage,
    Prepared,
    Provider,
    ProviderConfig,
    Secret,
    TokenCount,
)
from ..secrets import CREDENTIAL_HEADERS
from . import _calls
from ._auth import HeaderAuth, check_header_value
from ._clients import HttpClients
from ._endpoint import Endpoint
from ._errors import error_message, status_error
from ._logs import watch
from ._operation import Operation
from ._stream_end import StreamEnd
from ._types import DEFAULT_LIMITS, HttpRequest, HttpResponse, Limits, Steps, StreamDecoder
from .urls import check_base_url, credential_url

if TYPE_CHECKING:
    from ..events import StreamEvent
    from ..types import EmbeddingResult, Request, Result
    from .batch_records import BatchDownload, BatchLine, BatchRequest, BatchState, BatchValues

__all__ = ["HttpProvider"]

_T = TypeVar("_T")
#: The framings of a stream's body the kit reads (:attr:`HttpProvider.stream_framing`).
_FRAMINGS = frozenset({"sse", "aws-event-stream", "aws-event-stream-chunks"})


class HttpProvider(Provider):
    """A provider that speaks JSON over HTTP; subclasses supply pure mapping (see the module doc).

    Class attributes beyond :class:`~modelport.provider.Provider`'s:

    - ``default_base_url``: where requests go unless ``base_url=`` (or ``base_url_env``) says otherwise;
      ``None`` makes ``base_url`` required.
    - ``base_url_env``: an environment variable that overrides the default base URL.
    - ``api_key_env``: environment variables searched for the key, in order.
    - ``api_key_header``: the header the key goes in; ``"authorization"`` sends ``Bearer <key>``.
      It is one of the class's ``credential_headers`` without being listed there.
    - ``api_key_required``: ``False`` for servers that need no key (a local server).
    - ``credential_origins``: origins besides the base URL's that requests may go to with the
      credentials (``"https://storage.googleapis.com"``; ``*`` in a host stands for a label or part
      of one). Every other absolute URL, one a response names or a restored job keeps, is refused
      before any I/O, and a relative path may not hold a ``.`` or ``..`` segment
      (:func:`modelport.http.urls.credential_url`).
    - ``saved_options``: the options of ``get_model`` a saved batch job keeps, besides the base URL,
      to reach the same server again (a project, a location; never a credential):
      :meth:`saved_connection`.
    - ``stream_framing``: how a stream's body is framed: ``"sse"`` (server-sent events, the default)
      or ``"aws-event-stream"`` (AWS's binary event stream, :mod:`modelport.http.event_stream`), or
      ``"aws-event-stream-chunks"`` (the same, each ``chunk`` event's base64 ``bytes`` holding the
      JSON frame: Bedrock's ``InvokeModelWithResponseStream``).
    - ``stream_end``: when a stream is complete (:class:`StreamEnd`); the kit lets no ``finish``
      event through before, so a cut stream is a ``StreamInterruptedError``. ``None`` leaves it to
      the decoder alone (declare it: the scaffold does).
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # The key's own header is a credential header without being listed again in the plugin.
        header = cls.api_key_header.lower()
        if header not in CREDENTIAL_HEADERS | cls.credential_headers:
            cls.credential_headers = cls.credential_headers | {header}
        super().__init_subclass__(**kwargs)

    def __init__(self, config: ProviderConfig) -> None:
        super().__init__(config)
        #: The HTTP clients of this provider: the ones ``config`` injects, else its own, pooled.
        self.http = HttpClients(config)

    def close(self) -> None:
        """Release the clients this provider created (an injected client is the caller's)."""
        self.http.close()

    async def aclose(self) -> None:
        """Release the clients this provider created (async)."""
        await self.http.aclose()

    default_base_url: ClassVar[str | None] = None
    base_url_env: ClassVar[str | None] = None
    api_key_env: ClassVar[tuple[str, ...]] = ()
    api_key_header: ClassVar[str] = "authorization"
    api_key_required: ClassVar[bool] = True
    credential_origins: ClassVar[tuple[str, ...]] = ()
    saved_options: ClassVar[frozenset[str]] = frozenset()
    stream_end: ClassVar[StreamEnd | None] = None
    stream_framing: ClassVar[str] = "sse"
    _endpoint: Endpoint | None = None

    # What a plugin supplies (pure) -----------------------------------------------------------

    def build_request(self, model_name: str, request: Request, *, stream: bool) -> HttpRequest:
        """The HTTP request for a canonical request; raise ``InvalidRequestError`` to reject it."""
        raise self._unsupported("generate")

    def decode_response(self, data: Any, spec: HttpRequest) -> Result:
        """The :class:`Result` of a parsed JSON response (the request's warnings are added by the core)."""
        raise self._unsupported("generate")

    def stream_decoder(self, spec: HttpRequest) -> StreamDecoder:
        """A fresh :class:`StreamDecoder` for one stream."""
        raise self._unsupported("stream")

    def embed_requests(self, model_name: str, request: EmbedRequest) -> Sequence[HttpRequest]:
        """The HTTP requests (batches) for an embedding request, all built before any is sent."""
        raise self._unsupported("embed")

    def decode_embeddings(
        self, request: EmbedRequest, specs: Sequence[HttpRequest], responses: Sequence[Any]
    ) -> EmbeddingResult:
        """The embeddings of every response, in input order."""
        raise self._unsupported("embed")

    def count_tokens_request(self, model_name: str, request: Request) -> HttpRequest:
        """The HTTP request that counts a canonical request's input tokens (capability
        ``count_tokens``); raise ``InvalidRequestError`` to reject it."""
        raise self._unsupported("count_tokens")

    def decode_token_count(self, data: Any, spec: HttpRequest) -> TokenCount:
        """The :class:`~modelport.provider.TokenCount` of a parsed token-count response."""
        raise self._unsupported("count_tokens")

    # Batches (capability ``batch``): each hook is the pure steps of an Operation -------------

    def batch_submit(self, model_name: str, requests: Sequence[BatchRequest]) -> Steps[BatchState]:
        """Send a batch of requests (each built by :meth:`build_request`) and return its state.
        Check the provider's limits (count, bytes) before the first request."""
        raise self._unsupported("batches")
        yield  # pragma: no cover  (a generator)

    def batch_get(self, batch_id: str) -> Steps[BatchState]:
        """The state of a batch, by id."""
        raise self._unsupported("batches")
        yield  # pragma: no cover

    def batch_cancel(self, batch_id: str) -> Steps[BatchState]:
        """Ask for a batch to be cancelled; its state after asking."""
        raise self._unsupported("batches")
        yield  # pragma: no cover

    def batch_results(self, state: BatchState) -> Steps[Iterable[BatchLine | BatchDownload | BatchValues]]:
        """The result lines of an ended batch (in any order), the results files for the core to
        stream (:class:`~modelport.batches.BatchDownload`, never read whole), or results that came
        inline for the core to read one by one (:class:`~modelport.batches.BatchValues`): the core
        parses each under the decoder guard and decodes each body with :meth:`decode_response`, as
        it decodes a single call's."""
        raise self._unsupported("batches")
        yield  # pragma: no cover

    def list_models_request(self, page: str | None) -> HttpRequest:
        """The HTTP request for one page of the provider's model list (capability ``list_models``):
        ``page`` is ``None`` for the first, then the :attr:`~modelport.provider.ModelPage.next_page`
        the previous page's :meth:`decode_model_page` returned. Usually a ``GET``."""
        raise self._unsupported("listing models")

    def decode_model_page(self, data: Any, spec: HttpRequest) -> ModelPage:
        """The :class:`~modelport.provider.ModelPage` of a parsed model list response."""
        raise self._unsupported("listing models")

    def outcome_of_error(self, error: ProviderError) -> Result | None:
        """The call's outcome that a typed error answer carries, or ``None`` (the default: raised).

        For a provider that answers an outcome with an error status (Azure answers a filtered prompt
        with HTTP 400): ``generate`` returns the result, and a stream ends with its ``finish`` event
        (after what the stream already held). Called for every :class:`ProviderError` of a call."""
        return None

    def error_from_response(self, status: int, headers: Mapping[str, str], body: str) -> ProviderError:
        """The typed error for a non-2xx response (or an in-stream error object that carries its own
        status, with ``headers={}``; one without a status is typed by the core, see ``stream_error``).

        ``body`` and ``headers`` are already scrubbed of credentials. The default reads the common
        ``{"error": {"message", "type"}}`` shape and classifies by status.
        """
        message, kind, error = error_message(body)
        code = error.get("code") if isinstance(error, dict) else None
        quota = "insufficient_quota" in (kind, code)
        return status_error(
            status, headers, body, provider=self.name, message=message, provider_status=kind, quota=quota
        )

    # Configuration (override when a provider differs) ----------------------------------------

    @property
    def name(self) -> str:
        """The provider's name in errors (the ``name`` option, else the provider id)."""
        return str(self.config.options.get("name") or self.id)

    @property
    def limits(self) -> Limits:
        """Size bounds (``limits=`` of ``get_model``, else the defaults)."""
        limits = self.config.limits
        return limits if isinstance(limits, Limits) else DEFAULT_LIMITS

    def base_url(self) -> str:
        """``base_url=``, else ``base_url_env``, else ``default_base_url`` (without a trailing slash),
        checked by :func:`modelport.http.urls.check_base_url` wherever it came from."""
        if self.config.base_url:
            return check_base_url(self.config.base_url)
        from_env = os.environ.get(self.base_url_env) if self.base_url_env else None
        if from_env:
            return check_base_url(from_env, source=str(self.base_url_env))
        if not self.default_base_url:
            where = (
                f"base_url=..., {self.base_url_env} in the environment"
                if self.base_url_env
                else "base_url=..."
            )
            raise ConfigurationError(
                f"provider {self.id!r} needs the server's URL: {where}, or --base-url on the command line"
            )
        return check_base_url(self.default_base_url, source=f"{type(self).__name__}.default_base_url")

    def url(self, spec: HttpRequest) -> str:
        """The absolute URL of a request (by the kit's rule: :func:`modelport.http.urls.credential_url`)."""
        return credential_url(spec.url, self.base_url(), allowed=self.credential_origins, name=self.name)

    def saved_connection(self) -> dict[str, Any]:
        """What a saved batch job keeps to reach this server again (``get_model`` keywords): the base
        URL in use and each of ``saved_options`` that was given as a string, a number or a list of
        strings. Never a credential."""
        kept: dict[str, Any] = {"base_url": self.base_url()}
        for name in sorted(self.saved_options):
            value = self.config.options.get(name)
            if (isinstance(value, (str, int, float)) and not isinstance(value, bool)) or (
                isinstance(value, (list, tuple)) and all(isinstance(item, str) for item in value)
            ):
                kept[name] = list(value) if isinstance(value, (list, tuple)) else value
        return kept

    def api_key(self) -> str | None:
        """The key from ``api_key=`` or ``api_key_env``, checked to be sendable; ``None`` if optional."""
        key = self.config.api_key.reveal() if isinstance(self.config.api_key, Secret) else None
        if not key:
            key = next((os.environ[n] for n in self.api_key_env if os.environ.get(n)), None)
        if not key:
            if self.api_key_required:
                raise MissingCredentialsError(self.id, self.api_key_env)
            return None
        return check_header_value(key, "API key")

    def secrets(self) -> list[str]:
        """Credential values to scrub from every message (the key; the core adds what auth sent)."""
        try:
            key = self.api_key()
        except ConfigurationError:
            return []
        return [key] if key else []

    def auth(self) -> httpx.Auth | None:
        """How requests are authenticated: the key in ``api_key_header`` by default."""
        key = self.api_key()
        if key is None:
            return None
        value = f"Bearer {key}" if self.api_key_header == "authorization" else key
        return HeaderAuth(self.api_key_header, value)

    def headers(self) -> Mapping[str, str]:
        """Extra headers for every request (e.g. an organization id)."""
        return {}

    # The endpoint (built once) -----------------------------------------------------------------

    def endpoint(self) -> Endpoint:
        """The model's :class:`Endpoint`, built from the hooks above on the first request, then kept:
        the I/O reads it and never calls back into the provider."""
        built = self._endpoint
        if built is None:
            built = self._endpoint = self._build_endpoint()
        return built

    def _build_endpoint(self) -> Endpoint:
        config = self.config
        auth = self.auth()  # a missing credential is raised here, before any I/O (and nothing is kept)
        credential = None
        if isinstance(auth, HeaderAuth):  # a fixed header needs no auth flow (cheaper per call)
            credential, auth = (auth.header, auth.value), None
        base_url, problem = None, None
        try:
            base_url = self.base_url()
        except ConfigurationError as error:  # said only if a relative URL needs it
            problem = str(error)
        endpoint = Endpoint(
            name=self.name,
            base_url=base_url,
            headers={"content-type": "application/json", **self.headers()},
            credential=credential,
            auth=auth,
            limits=self.limits,
            deadline=config.deadline,
            follow_redirects=config.follow_redirects,
            error_from_response=self.error_from_response,
            secrets=tuple(self.secrets()),
            credential_headers=CREDENTIAL_HEADERS | self.credential_headers,
            retry=_retry.RetryPolicy(
                max_retries=config.max_retries, max_delay=config.max_retry_delay, deadline=config.deadline
            ),
            clients=self.http,
            base_url_problem=problem,
            credential_origins=self.credential_origins,
            framing=self._framing(),
        )
        # The HTTP libraries' loggers (httpcore logs response headers) are scrubbed of its credentials.
        watch(endpoint, (*endpoint.secrets, *(credential[1:] if credential else ())))
        return endpoint

    def _framing(self) -> str:
        framing = self.stream_framing
        if framing not in _FRAMINGS:
            raise ConfigurationError(
                f"{type(self).__name__}.stream_framing must be one of {sorted(_FRAMINGS)}, got {framing!r}"
            )
        return framing

    # What the core does (:mod:`._calls`) ----------------------------------------------------------

    def check_request(self, model_name: str, request: Request) -> None:
        """Build the request once: every mapping rule that can reject it does so before any I/O."""
        self.build_request(model_name, request, stream=False)

    def prepare(self, model_name: str, request: Request, *, stream: bool = False) -> Prepared:
        """The :class:`HttpRequest` of ``request``, built once for the check and the send."""
        return Prepared(request, stream, self.build_request(model_name, request, stream=stream))

    def send(self, model_name: str, prepared: Prepared) -> Result:
        return _calls.generate(self, model_name, prepared.wire)

    async def asend(self, model_name: str, prepared: Prepared) -> Result:
        return await _calls.agenerate(self, model_name, prepared.wire)

    # A stream reads the call's deadline when it is made: its generator runs later, between events.

    def send_stream(self, model_name: str, prepared: Prepared) -> Iterator[StreamEvent]:
        return _calls.stream(self, model_name, prepared.wire, current_deadline())

    def asend_stream(self, model_name: str, prepared: Prepared) -> AsyncIterator[StreamEvent]:
        return _calls.astream(self, model_name, prepared.wire, current_deadline())

    def embed(self, model_name: str, request: EmbedRequest) -> EmbeddingResult:
        return _calls.embed(self, model_name, request)

    async def aembed(self, model_name: str, request: EmbedRequest) -> EmbeddingResult:
        return await _calls.aembed(self, model_name, request)

    def count_tokens(self, model_name: str, request: Request) -> TokenCount:
        return _calls.count_tokens(self, model_name, request)

    async def acount_tokens(self, model_name: str, request: Request) -> TokenCount:
        return await _calls.acount_tokens(self, model_name, request)

    def decode_result(self, data: Any, spec: HttpRequest) -> Result:
        """The :class:`Result` of a response body that arrived another way than its own exchange (a
        batch's result line): :meth:`decode_response` run as a single call runs it (typed errors for
        malformed data, the request's warnings added)."""
        return _calls.decode_result(self, data, spec)

    def decode_embedding_result(self, request: EmbedRequest, spec: HttpRequest, data: Any) -> EmbeddingResult:
        """The embeddings of one response body that arrived another way (a batch's result line):
        :meth:`decode_embeddings` for that one request, with typed errors for malformed data."""
        return _calls.decode_embedding_result(self, request, spec, data)

    def list_models(self) -> list[ModelInfo]:
        return _calls.list_models(self)

    async def alist_models(self) -> list[ModelInfo]:
        return await _calls.alist_models(self)

    # Any other endpoint, through the same I/O ----------------------------------------------------

    def call_json(self, spec: HttpRequest, *, retry: bool = False) -> Any:
        """Send ``spec`` through the kit and return the parsed JSON answer (``None`` for an empty
        body): for a provider's other endpoints (token counting, files, caches...).

        Everything a generation gets applies: authentication, strict JSON, size bounds, the
        deadline, redirect rules, typed errors from :meth:`error_from_response`, scrubbing.
        ``retry=True`` retries retryable errors with the configured policy (leave it off for a
        request that must not be sent twice).
        """
        return _calls.call_json(self.endpoint(), spec, retry=retry)

    async def acall_json(self, spec: HttpRequest, *, retry: bool = False) -> Any:
        """Async twin of :meth:`call_json`."""
        return await _calls.acall_json(self.endpoint(), spec, retry=retry)

    def call(self, spec: HttpRequest, *, retry: bool | None = None) -> HttpResponse:
        """Send ``spec`` through the kit and return status, headers and body (JSON parsed): for
        exchanges that need response headers (a resumable upload's session URL) or raw bytes.

        ``retry=None`` retries retryable errors for idempotent methods (GET, HEAD, PUT, DELETE)
        only; ``True``/``False`` decide explicitly. A body may be raw ``bytes`` (set its
        ``content-type`` in ``headers``).
        """
        return _calls.call(self.endpoint(), spec, retry=retry)

    async def acall(self, spec: HttpRequest, *, retry: bool | None = None) -> HttpResponse:
        """Async twin of :meth:`call`."""
        return await _calls.acall(self.endpoint(), spec, retry=retry)

    def call_lines(self, spec: HttpRequest, *, bad_lines: bool = False) -> Iterator[Any]:
        """Send ``spec`` and yield the JSON value of each line of its JSON Lines answer as it
        arrives (a batch's results file): never the whole body in memory, each line within
        ``Limits.max_frame_bytes``, the whole within ``max_stream_bytes`` and the call's deadline,
        typed errors as for any call. Not retried (a half-read body cannot be resumed). A line that
        is not JSON ends it with a ``ProviderResponseError``; with ``bad_lines=True`` it is a
        :class:`~modelport.http.BadLine` in its place, and the lines after it still come."""
        return _calls.call_lines(self.endpoint(), spec, bad_lines=bad_lines)

    def acall_lines(self, spec: HttpRequest, *, bad_lines: bool = False) -> AsyncIterator[Any]:
        """Async twin of :meth:`call_lines`."""
        return _calls.acall_lines(self.endpoint(), spec, bad_lines=bad_lines)

    def decode_error(self, error: Exception) -> ProviderResponseError:
        """The typed error of a bare Python error (one of :data:`~modelport.http.DECODE_ERRORS`)
        that a plugin's parse step raised on data it did not expect: what the decoder guard raises."""
        return decode_error(self.name, error)

    def operation(self, steps: Callable[[], Steps[_T]]) -> Operation[_T]:
        """An :class:`Operation` of this provider's (run it with ``.run()`` or ``await`` it)."""
        return Operation(self, steps)
