"""What a provider plugin implements: the :class:`Provider` base class and its configuration.

A provider is "who we talk to and how we map": it receives a validated canonical
:class:`~modelport.types.Request` and returns a :class:`~modelport.types.Result` (or yields
:mod:`~modelport.events`). Retries, request validation, provider-tool validation and stream
bookkeeping are done by the core around it, identically for every provider.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal, NamedTuple, TypeVar

import httpx

from ..errors import InvalidRequestError
from ..lazy import lazy_attributes
from ._embed_request import EmbedRequest

if TYPE_CHECKING:
    from pydantic import BaseModel

    from ..events import StreamEvent
    from ..tools import NeutralToolMapping
    from ..types import CallWarning, EmbeddingResult, Message, Origin, Request, Result
    from ..wire_map import WireMap

__all__ = [
    "CONTRACT_VERSION",
    "Capabilities",
    "EmbedRequest",
    "ModelInfo",
    "ModelPage",
    "Prepared",
    "model_list_entries",
    "Provider",
    "ProviderConfig",
    "Secret",
    "TokenCount",
    "parse_provider_options",
]

#: The provider contract's version (this module, :mod:`modelport.http`, the events; see contracts).
CONTRACT_VERSION = "2.3"

#: Default total deadline of one call, in seconds (every attempt and every byte of the answer).
DEFAULT_DEADLINE = 600.0


class Secret:
    """A credential that never shows itself in ``repr``/``str``; read it with :meth:`reveal`."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        """The credential itself, for the one header that needs it."""
        return self._value

    def __repr__(self) -> str:
        return "Secret('**********')"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)

    def __reduce__(self) -> Any:
        raise TypeError("credentials are not picklable")


@dataclass(frozen=True)
class Capabilities:
    """What a provider can do, so callers and the conformance suite can ask before calling."""

    generate: bool = True
    stream: bool = True
    embed: bool = False
    function_tools: bool = False
    provider_tools: bool = False
    reasoning: bool = False
    structured_output: bool = False
    #: ``count_tokens`` / ``acount_tokens``: the provider counts a request's input tokens.
    count_tokens: bool = False
    #: ``submit_batch`` / ``get_batch``: the provider runs batches of requests (:mod:`modelport.batches`).
    batch: bool = False
    #: ``list_models`` / ``alist_models``: the provider lists the models its API serves.
    list_models: bool = False
    #: The provider maps the ``prompt_cache`` request keyword (:class:`~modelport.types.PromptCache`);
    #: without it, a request's ``prompt_cache`` is not sent, with an ``unsupported-setting`` warning.
    prompt_cache: bool = False
    #: The neutral tools of :mod:`modelport.tools` the provider compiles to its own provider tools
    #: (:meth:`Provider.neutral_tool`); asking for one it lacks fails before any I/O.
    web_search: bool = False
    web_fetch: bool = False
    code_execution: bool = False
    mcp_server: bool = False
    #: Maps ``documents`` (contract 2.3); else the core refuses them before any I/O.
    documents: bool = False

    def as_dict(self) -> dict[str, bool]:
        """Capabilities as a plain mapping."""
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


class Prepared(NamedTuple):
    """A request checked and built for one call before any I/O (:meth:`Provider.prepare`): what the
    pre-flight check built is what is sent, and sent again on a retry."""

    request: Request
    stream: bool = False
    #: What the provider built: an HTTP provider's :class:`~modelport.http.HttpRequest`, else ``None``.
    wire: Any = None


@dataclass(frozen=True)
class TokenCount:
    """What ``count_tokens`` returns: the input tokens a request would use, before sending it.

    ``cached_input_tokens`` is the part served from a cache, when the provider says so;
    ``provider_metadata`` keeps the provider's own details (e.g. per-modality counts).
    """

    input_tokens: int
    cached_input_tokens: int | None = None
    provider_metadata: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:  # what a plugin decoded, checked under the decoder guard
        from .._contract.content import check_counts

        check_counts(input_tokens=self.input_tokens, cached_input_tokens=self.cached_input_tokens)


@dataclass(frozen=True)
class ModelInfo:
    """One model of a provider's own model list (``list_models``): ``id`` is the name that goes after
    ``provider/`` in a model id; the rest is what the provider said, ``None`` when it said nothing.

    ``created`` is in Unix seconds; the token limits are the model's context input and output caps.
    """

    id: str
    display_name: str | None = None
    description: str | None = None
    created: int | None = None
    owned_by: str | None = None
    input_token_limit: int | None = None
    output_token_limit: int | None = None


@dataclass(frozen=True)
class ModelPage:
    """One page of a provider's model list: its models, and the token of the next page (``None``
    on the last one), which :meth:`modelport.http.HttpProvider.list_models_request` receives."""

    models: tuple[ModelInfo, ...]
    next_page: str | None = None


def model_list_entries(
    data: Any, key: str, id_field: str = "id", *, required: bool = True
) -> list[dict[str, Any]]:
    """The objects listed under ``key`` of a parsed model list answer that carry a string
    ``id_field``, in order (others are passed over), for a plugin's ``decode_model_page``. A
    ``KeyError`` when ``key`` is missing (unless not ``required``: then no models), a ``TypeError``
    when it holds no list; the core turns either into a typed error."""
    entries = data[key] if required else data.get(key, [])
    if not isinstance(entries, list):
        raise TypeError(f"{key!r} is a {type(entries).__name__}, not a list")
    return [e for e in entries if isinstance(e, dict) and isinstance(e.get(id_field), str)]


@dataclass(frozen=True, repr=False)
class ProviderConfig:
    """Everything :func:`modelport.get_model` received, for the provider to interpret."""

    provider_id: str
    api_key: Secret | None = None
    base_url: str | None = None
    http_client: httpx.Client | None = None
    async_http_client: httpx.AsyncClient | None = None
    transport: httpx.BaseTransport | httpx.AsyncBaseTransport | None = None
    timeout: float | httpx.Timeout | None = None
    max_retries: int = 2
    max_retry_delay: float = 60.0
    options: Mapping[str, Any] = field(default_factory=dict)
    #: Size bounds (a :class:`modelport.http.Limits`; ``None`` for the defaults).
    limits: Any = None
    #: Total seconds one call may take; ``None`` for no deadline.
    deadline: float | None = DEFAULT_DEADLINE
    #: Follow same-origin redirects (never across origins: requests carry credentials).
    follow_redirects: bool = False
    #: What the async client modelport builds runs on: ``"auto"`` (aiohttp when ``modelport[aiohttp]``
    #: is installed, else httpx's own transport), ``"aiohttp"`` or ``"httpx"``. An injected
    #: ``async_http_client`` or async ``transport`` is used as is, whatever this says.
    async_transport: str = "auto"

    def __repr__(self) -> str:
        key = "set" if self.api_key is not None else "unset"
        return (
            f"ProviderConfig(provider_id={self.provider_id!r}, api_key=<{key}>, "
            f"base_url={self.base_url!r}, max_retries={self.max_retries}, "
            f"options={sorted(self.options)})"
        )


class Provider:
    """Base class of provider adapters. Subclass, set the class attributes, override :meth:`prepare`
    and the sends (``send``, ``asend``, ``send_stream``, ``asend_stream``) and what else you support.

    Class attributes:

    - ``id``: the provider id used in model ids (``"google"`` in ``"google/gemini-2.5-flash"``).
    - ``display_name``: a human name for messages; ``capabilities``: a :class:`Capabilities`.
    - ``tool_namespace``: the namespace of provider tools this provider accepts (``"google"``
      accepts ``google.*`` tools), or ``None`` for none.
    - ``backend``: the backend name provider-tool argument rules are checked against.
    - ``api``: the name of the wire API the provider speaks (``"generate-content"``,
      ``"chat-completions"``), recorded in every result's :class:`~modelport.types.Origin`.
    - ``cross_model_replay``: the provider's rule for reasoning state another of its models produced
      (see :meth:`replay_from_model` and :mod:`modelport.reasoning`).
    - ``embedding_types``: the ``embedding_type`` values :meth:`embed` maps (see :meth:`check_embed`).
    - ``telemetry_name``, ``credential_headers``, ``secret_patterns``, ``request_bounds``,
      ``wire_map``: what the core and the conformance suite need to know about the API, as data.
    """

    id: ClassVar[str]
    display_name: ClassVar[str] = ""
    capabilities: ClassVar[Capabilities] = Capabilities()
    tool_namespace: ClassVar[str | None] = None
    backend: ClassVar[str] = "default"
    #: The ``embedding_type`` values ``embed`` maps (:data:`~modelport.types.EmbeddingType`); any
    #: other is refused before any I/O, naming the setting.
    embedding_types: ClassVar[frozenset[str]] = frozenset({"float"})
    #: Where the provider's API lives by default (the conformance recorder stores URLs against it).
    default_base_url: ClassVar[str | None] = None
    #: The ``**provider_config`` keywords ``get_model`` accepts for this provider (``None``: any).
    config_options: ClassVar[frozenset[str] | None] = None
    #: The contract version the provider was written against.
    contract_version: ClassVar[str] = CONTRACT_VERSION
    #: The wire API this provider speaks, recorded in the :class:`~modelport.types.Origin` of its results.
    api: ClassVar[str | None] = None
    #: What another model's (or API's) assistant turn keeps when sent to this model: ``"keep"`` (as
    #: it is) or ``"drop"`` (its reasoning and opaque state); or override :meth:`replay_from_model`.
    cross_model_replay: ClassVar[Literal["keep", "drop"]] = "drop"
    #: ``gen_ai.provider.name`` in telemetry, as the OpenTelemetry GenAI conventions name the
    #: provider (``"gcp.gemini"``); ``None``: the ``id``.
    telemetry_name: ClassVar[str | None] = None
    #: Request headers (lowercase) whose values are credentials, besides the generic
    #: :data:`modelport.secrets.CREDENTIAL_HEADERS`: scrubbed by value, kept in a cassette by name.
    credential_headers: ClassVar[frozenset[str]] = frozenset()
    #: The shapes of this provider's keys, kind → regular expression (``{"Acme key":
    #: r"acme_[0-9a-f]{32}"}``; a named group ``secret`` marks the part to replace): removed from
    #: every error message, and refused in a cassette.
    secret_patterns: ClassVar[Mapping[str, str]] = {}
    #: The inclusive ``(lowest, highest)`` of request values, by field (``{"temperature": (0, 1)}``).
    request_bounds: ClassVar[Mapping[str, tuple[float, float]]] = {}
    #: Where the wire carries what is decoded, for the conformance suite's edits (``None``: undeclared).
    wire_map: ClassVar[WireMap | None] = None
    #: Why a capability it lacks is missing, by capability (``{"batch": "..."}``): told in the refusal.
    unsupported_reasons: ClassVar[Mapping[str, str]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        from ..secrets import declare

        # Declared as the class is defined: a loaded plugin's key shapes are scrubbed from any error.
        declare(cls.secret_patterns, cls.credential_headers)

    def __init__(self, config: ProviderConfig) -> None:
        self.config = config

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id!r}>"

    # Validation (before any I/O) -------------------------------------------------------------

    def check_request(self, model_name: str, request: Request) -> None:
        """Provider-specific validation; raise :class:`InvalidRequestError` to reject. Never does I/O."""

    def prepare(self, model_name: str, request: Request, *, stream: bool = False) -> Prepared:
        """``request`` checked and built for sending, before any I/O: a provider that builds a wire
        request does so here, once, and the ``send`` methods send it. The default: :meth:`check_request`."""
        self.check_request(model_name, request)
        return Prepared(request, stream)

    def unmapped_settings(self, request: Request) -> list[CallWarning]:
        """An ``unsupported-setting`` warning for each setting of ``request`` that this provider's
        :attr:`capabilities` say it does not map (today ``prompt_cache``), for the result. No I/O."""
        if request.prompt_cache is None or self.capabilities.prompt_cache:
            return []
        from ..types import CallWarning

        name = self.display_name or self.id
        details = f"{name} has no per-request prompt caching; prompt_cache is not sent"
        return [CallWarning(type="unsupported-setting", setting="prompt_cache", details=details)]

    def neutral_tool(self, name: str) -> NeutralToolMapping | None:
        """How this provider, on its :attr:`backend`, expresses the neutral tool ``name``
        (``"web_search"``, ``"web_fetch"``, ``"code_execution"``, ``"mcp_server"``; see
        :mod:`modelport.tools`): the provider tool it compiles to and the options it can express, as
        data. Only asked for a tool the :attr:`capabilities` list. The default: none. Never does I/O."""
        return None

    def replay_from_model(self, message: Message, origin: Origin, model_name: str) -> Message:
        """The assistant ``message`` as it is sent to ``model_name`` when another model or API of this
        provider (``origin``) produced it: the provider's documented cross-model rule for reasoning
        state. Return ``message`` itself when nothing changes (anything else is reported with a
        warning, or refused under ``reasoning_replay="strict"``). The default follows
        :attr:`cross_model_replay`. Never does I/O."""
        if self.cross_model_replay == "keep":
            return message
        from .._contract.replay import without_reasoning_state

        return without_reasoning_state(message)

    # Sending what was prepared: the hooks the model calls --------------------------------------

    def send(self, model_name: str, prepared: Prepared) -> Result:
        """One generation of what :meth:`prepare` made, once per attempt (retries are the model's)."""
        raise self._unsupported("generate")

    async def asend(self, model_name: str, prepared: Prepared) -> Result:
        """Async twin of :meth:`send`."""
        raise self._unsupported("generate")

    def send_stream(self, model_name: str, prepared: Prepared) -> Iterator[StreamEvent]:
        """A streaming generation of what :meth:`prepare` made, as events (once per attempt)."""
        raise self._unsupported("stream")

    def asend_stream(self, model_name: str, prepared: Prepared) -> AsyncIterator[StreamEvent]:
        """Async twin of :meth:`send_stream`."""
        raise self._unsupported("stream")

    # Calling the provider directly: prepare, then send (not hooks: override the sends) ---------

    def generate(self, model_name: str, request: Request) -> Result:
        """:meth:`prepare` then :meth:`send` (a :class:`~modelport.Model` adds retries and the deadline)."""
        return self.send(model_name, self.prepare(model_name, request))

    async def agenerate(self, model_name: str, request: Request) -> Result:
        """Async twin of :meth:`generate`."""
        return await self.asend(model_name, self.prepare(model_name, request))

    def stream(self, model_name: str, request: Request) -> Iterator[StreamEvent]:
        """:meth:`prepare` (``stream=True``) then :meth:`send_stream`."""
        return self.send_stream(model_name, self.prepare(model_name, request, stream=True))

    def astream(self, model_name: str, request: Request) -> AsyncIterator[StreamEvent]:
        """Async twin of :meth:`stream`."""
        return self.asend_stream(model_name, self.prepare(model_name, request, stream=True))

    def check_embed(self, model_name: str, request: EmbedRequest) -> None:
        """Before any I/O of :meth:`embed` (the model calls it): an ``InvalidRequestError`` naming
        the setting when ``request.embedding_type`` is not in ``embedding_types``."""
        if request.embedding_type not in self.embedding_types:
            from ..types import EMBEDDING_TYPES

            offered = ", ".join(t for t in EMBEDDING_TYPES if t in self.embedding_types) or "none"
            name = getattr(self, "name", None) or self.id
            raise InvalidRequestError(
                f"embedding_type={request.embedding_type!r} is not supported by provider {name!r} "
                f"(it offers {offered})"
            )

    def embed(self, model_name: str, request: EmbedRequest) -> EmbeddingResult:
        """Embeddings for the request's values, in order, under the call's deadline; not retried by the
        model: the provider retries each request alone (as the kit does), never resending a success."""
        raise self._unsupported("embed")

    async def aembed(self, model_name: str, request: EmbedRequest) -> EmbeddingResult:
        """Async twin of :meth:`embed`."""
        raise self._unsupported("embed")

    def count_tokens(self, model_name: str, request: Request) -> TokenCount:
        """The input tokens of ``request`` (capability ``count_tokens``); nothing is generated. Retried by
        the model; the provider's own rules apply here, before any I/O (the kit builds its request first)."""
        raise self._unsupported("count_tokens")

    async def acount_tokens(self, model_name: str, request: Request) -> TokenCount:
        """Async twin of :meth:`count_tokens`."""
        raise self._unsupported("count_tokens")

    def list_models(self) -> list[ModelInfo]:
        """The models the provider's API serves, from its own model list endpoint (capability
        ``list_models``), every page of it."""
        raise self._unsupported("listing models")

    async def alist_models(self) -> list[ModelInfo]:
        """Async twin of :meth:`list_models`."""
        raise self._unsupported("listing models")

    def close(self) -> None:
        """Release what this provider created (an :class:`~modelport.http.HttpProvider` its clients)."""

    async def aclose(self) -> None:
        """Release what this provider created (async)."""

    def _unsupported(self, what: str) -> InvalidRequestError:
        return InvalidRequestError(f"provider {self.id!r} does not support {what}")


_Options = TypeVar("_Options", bound="BaseModel")


def parse_provider_options(
    options_type: type[_Options],
    provider_options: Mapping[str, Mapping[str, Any]] | None,
    key: str,
    *,
    reserved: frozenset[str] = frozenset(),
) -> _Options:
    """``provider_options[key]`` validated as ``options_type`` (a pydantic model, strict: unknown
    keys refused), for a plugin's typed options.

    Every problem is an :class:`~modelport.errors.InvalidRequestError` naming where it is, raised
    before any I/O; so is an ``extra_body`` (the options' escape hatch, when the model has one)
    that would set a body field in ``reserved`` (the fields the request mapping owns).
    """
    from pydantic import ValidationError

    from ..errors import validation_message

    given = (provider_options or {}).get(key) or {}
    try:
        options = options_type.model_validate(given)
    except ValidationError as error:
        problems = validation_message(error, root=key)
        raise InvalidRequestError(f"invalid provider_options[{key!r}]: {problems}") from None
    clash = sorted(reserved & set(getattr(options, "extra_body", None) or {}))
    if clash:
        raise InvalidRequestError(
            f"provider_options[{key!r}].extra_body cannot set {', '.join(clash)} (the request owns them)"
        )
    return options


# Moved to the HTTP kit, which alone holds HTTP state: still readable here, with a warning.
_MOVED = dict.fromkeys(("DEFAULT_TIMEOUT", "HttpClients"), "modelport.http")
__getattr__, _ = lazy_attributes(__name__, {}, moved=_MOVED)
