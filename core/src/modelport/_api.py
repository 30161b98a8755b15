"""``get_model`` and the module-level convenience functions."""

from __future__ import annotations

import sys
import threading
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

import httpx
from typing_extensions import TypeVar

from ._model import Model
from ._registry import registry
from .errors import ConfigurationError, UnknownModelError
from .http import check_async_transport
from .http.urls import check_base_url, resource_name_problem
from .provider import DEFAULT_DEADLINE, ProviderConfig, Secret

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from ._contract.request import KeywordsBesidesFormat
    from ._model.streams import AsyncResultStream, ResultStream
    from .batches import BatchJob
    from .http import Limits
    from .types import EmbeddingResult, RequestKeywords, ResponseFormat, Result

#: The type ``parsed`` is, from ``response_format`` (``Any`` when it is not a Python type).
_T = TypeVar("_T", default=Any)


__all__ = [
    "aembed",
    "agenerate",
    "astream",
    "embed",
    "generate",
    "get_model",
    "restore_batch",
    "split_model_id",
    "stream",
]


def split_model_id(model_id: str) -> tuple[str, str]:
    """``"google/gemini-2.5-flash"`` → ``("google", "gemini-2.5-flash")``; split at the first ``/``."""
    if not isinstance(model_id, str):
        raise UnknownModelError(
            f"a model id must be a string like 'google/gemini-2.5-flash', got {type(model_id).__name__}"
        )
    provider_id, sep, model_name = model_id.partition("/")
    if not sep or not provider_id or not model_name:
        raise UnknownModelError(
            f"model id {_shown(model_id)} must look like 'provider/model-name', "
            "e.g. 'google/gemini-2.5-flash'"
        )
    problem = resource_name_problem(model_name, what="a model name")
    if problem is not None:
        raise UnknownModelError(f"model id {_shown(model_id)}: {problem}")
    return provider_id, model_name


def _shown(value: str, limit: int = 200) -> str:
    return repr(value) if len(value) <= limit else repr(value[:limit]) + f"... [{len(value) - limit} more]"


def get_model(
    model_id: str,
    *,
    api_key: str | None = None,
    base_url: str | None = None,
    http_client: httpx.Client | None = None,
    async_http_client: httpx.AsyncClient | None = None,
    transport: httpx.BaseTransport | httpx.AsyncBaseTransport | None = None,
    timeout: float | httpx.Timeout | None = None,
    max_retries: int = 2,
    max_retry_delay: float = 60.0,
    deadline: float | None = DEFAULT_DEADLINE,
    limits: Limits | None = None,
    follow_redirects: bool = False,
    async_transport: Literal["auto", "aiohttp", "httpx"] = "auto",
    **provider_config: Any,
) -> Model:
    """Resolve ``"provider/model-name"`` to a :class:`Model`, loading only the plugin it needs.

    ``deadline`` bounds the whole call (every attempt, the waits between them, every read); without
    it, a call has 600 s, or ``max_retry_delay`` + 600 s when ``max_retry_delay`` is above 600 s (so a
    server delay you allow can be waited for). A retry whose wait would end past the deadline is not
    made: the error is raised at once, with the server's delay in ``retry_after``.

    ``async_transport`` chooses what the async client modelport builds runs on: ``"auto"`` (the
    default) is aiohttp when ``modelport[aiohttp]`` is installed and httpx's own transport otherwise;
    ``"httpx"`` always httpx's; ``"aiohttp"`` always aiohttp (an error if it is not installed). An
    ``async_http_client`` or an async ``transport`` you pass is used as is.
    """
    provider_id, model_name = split_model_id(model_id)
    if not isinstance(max_retries, int) or isinstance(max_retries, bool) or max_retries < 0:
        raise ConfigurationError("max_retries must be a non-negative integer")
    if not isinstance(max_retry_delay, (int, float)) or not max_retry_delay >= 0:  # also rejects NaN
        raise ConfigurationError("max_retry_delay must be a non-negative number of seconds")
    _check_io_options(deadline, limits, follow_redirects)
    if deadline is DEFAULT_DEADLINE and max_retry_delay > DEFAULT_DEADLINE:  # not given (identity: 600.0)
        # A server delay you allow beyond the default deadline can be waited for, and the attempt
        # after it still has the default deadline's time; an explicit deadline= always wins.
        deadline = DEFAULT_DEADLINE + max_retry_delay
    _check_client_options(api_key, base_url, http_client, async_http_client, transport, timeout)
    check_async_transport(async_transport, async_http_client, transport)
    provider_cls = registry().provider_class(provider_id)
    _check_provider_options(provider_cls, provider_config)
    config = ProviderConfig(
        provider_id=provider_cls.id,
        api_key=Secret(api_key) if api_key is not None else None,
        base_url=base_url,
        http_client=http_client,
        async_http_client=async_http_client,
        transport=transport,
        timeout=timeout,
        max_retries=max_retries,
        max_retry_delay=max_retry_delay,
        options=provider_config,
        limits=limits,
        deadline=deadline,
        follow_redirects=follow_redirects,
        async_transport=async_transport,
    )
    return _model_class()(provider_cls(config), model_name)


def _model_class() -> type[Model]:
    """:class:`~modelport.telemetry.InstrumentedModel` while telemetry is on, else :class:`Model`:
    decided once per model, here (an application that never imported OpenTelemetry pays a lookup)."""
    if "opentelemetry" in sys.modules:
        from .telemetry import InstrumentedModel, enabled

        if enabled():
            return InstrumentedModel
    return Model


def _check_io_options(deadline: object, limits: object, follow_redirects: object) -> None:
    import math

    if deadline is not None and (
        not isinstance(deadline, (int, float))
        or isinstance(deadline, bool)
        or not math.isfinite(deadline)
        or deadline <= 0
    ):
        raise ConfigurationError("deadline must be a positive number of seconds, or None for no deadline")
    if limits is not None:
        from .http import Limits

        if not isinstance(limits, Limits):
            raise ConfigurationError("limits must be a modelport.http.Limits")
    if not isinstance(follow_redirects, bool):
        raise ConfigurationError("follow_redirects must be True or False")


#: ``get_model``'s own keywords, offered as suggestions for a misspelled option.
_GET_MODEL_KEYWORDS = (
    "api_key",
    "base_url",
    "http_client",
    "async_http_client",
    "transport",
    "timeout",
    "max_retries",
    "max_retry_delay",
    "deadline",
    "limits",
    "follow_redirects",
    "async_transport",
)


def _check_client_options(
    api_key: object,
    base_url: object,
    http_client: object,
    async_http_client: object,
    transport: object,
    timeout: object,
) -> None:
    """Types of ``get_model``'s connection keywords, checked before anything is built or sent."""
    import math

    if api_key is not None and not isinstance(api_key, (str, Secret)):
        # Never show the value: it is meant to be a credential.
        raise ConfigurationError(f"api_key must be a string, got {type(api_key).__name__}")
    if base_url is not None:
        if not isinstance(base_url, str):
            raise ConfigurationError(f"base_url must be a string, got {type(base_url).__name__}")
        check_base_url(base_url)
    if http_client is not None and not isinstance(http_client, httpx.Client):
        if isinstance(http_client, httpx.AsyncClient):
            raise ConfigurationError(
                "http_client must be an httpx.Client; pass an httpx.AsyncClient as async_http_client="
            )
        raise ConfigurationError(f"http_client must be an httpx.Client, got {type(http_client).__name__}")
    if async_http_client is not None and not isinstance(async_http_client, httpx.AsyncClient):
        if isinstance(async_http_client, httpx.Client):
            raise ConfigurationError(
                "async_http_client must be an httpx.AsyncClient; pass an httpx.Client as http_client="
            )
        raise ConfigurationError(
            f"async_http_client must be an httpx.AsyncClient, got {type(async_http_client).__name__}"
        )
    if transport is not None and not isinstance(transport, (httpx.BaseTransport, httpx.AsyncBaseTransport)):
        raise ConfigurationError(
            "transport must be an httpx.BaseTransport or httpx.AsyncBaseTransport, "
            f"got {type(transport).__name__}"
        )
    if timeout is None or isinstance(timeout, httpx.Timeout):
        return
    if not isinstance(timeout, (int, float)) or isinstance(timeout, bool):
        raise ConfigurationError(
            f"timeout must be a positive number of seconds or an httpx.Timeout, got {type(timeout).__name__}"
        )
    if not math.isfinite(timeout) or timeout <= 0:
        raise ConfigurationError(
            f"timeout must be a positive number of seconds or an httpx.Timeout, got {timeout!r}"
        )


def _check_provider_options(provider_cls: type[Any], options: dict[str, Any]) -> None:
    """Reject ``**provider_config`` keywords the provider does not declare (``config_options``)."""
    accepted = getattr(provider_cls, "config_options", None)
    if accepted is None or not options:
        return
    unknown = sorted(name for name in options if name not in accepted)
    if not unknown:
        return
    import difflib

    candidates = sorted({*accepted, *_GET_MODEL_KEYWORDS})
    described = []
    for name in unknown:
        match = difflib.get_close_matches(name, candidates, n=1, cutoff=0.6)
        described.append(f"{name!r}" + (f" (did you mean {match[0]!r}?)" if match else ""))
    noun = "option" if len(unknown) == 1 else "options"
    allowed = ", ".join(sorted(accepted)) or "none"
    raise ConfigurationError(
        f"unknown {noun} {', '.join(described)} for provider {provider_cls.id!r}; its options are: {allowed}"
    )


_DEFAULT_MODELS: dict[tuple[str, str | None, str | None], Model] = {}
_DEFAULT_LOCK = threading.Lock()
#: Shared models kept for the module-level calls; the oldest is let go past this many.
_MAX_DEFAULT_MODELS = 64


def _default_model(model_id: str, api_key: str | None = None, base_url: str | None = None) -> Model:
    # Module-level calls share one Model (and so one pooled client) per id and connection settings.
    # The key is never kept as given: a digest of it tells two keys apart. A shared model made
    # before tracing was turned on is traced from then on (the same provider and clients, wrapped):
    # the application never held it, so it cannot wrap it itself.
    _check_client_options(api_key, base_url, None, None, None, None)
    key = (model_id, base_url, _digest(api_key))
    model = _DEFAULT_MODELS.get(key)
    if model is None or type(model) is not _model_class():
        with _DEFAULT_LOCK:
            model = _DEFAULT_MODELS.get(key)
            if model is None:
                model = get_model(model_id, api_key=api_key, base_url=base_url)
                while len(_DEFAULT_MODELS) >= _MAX_DEFAULT_MODELS:
                    del _DEFAULT_MODELS[next(iter(_DEFAULT_MODELS))]
            elif type(model) is Model and _model_class() is not Model:
                from .telemetry import instrument_model

                model = instrument_model(model)
            _DEFAULT_MODELS[key] = model
    return model


def _digest(api_key: str | Secret | None) -> str | None:
    if api_key is None:
        return None
    import hashlib

    value = api_key.reveal() if isinstance(api_key, Secret) else api_key
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()


def generate(
    model_id: str,
    *,
    api_key: str | None = None,
    base_url: str | None = None,
    response_format: type[_T] | ResponseFormat | Mapping[str, Any] | Literal["text", "json"] | None = None,
    **kwargs: Unpack[KeywordsBesidesFormat],
) -> Result[_T]:
    """``get_model(model_id, api_key=..., base_url=...).generate(**kwargs)`` with a shared model
    (one per model id and connection settings, so its pooled client is reused across calls)."""
    model = _default_model(model_id, api_key, base_url)
    return model.generate(response_format=response_format, **kwargs)


def stream(
    model_id: str,
    *,
    api_key: str | None = None,
    base_url: str | None = None,
    **kwargs: Unpack[RequestKeywords],
) -> ResultStream:
    """``get_model(model_id, api_key=..., base_url=...).stream(**kwargs)`` with a shared model."""
    return _default_model(model_id, api_key, base_url).stream(**kwargs)


def embed(
    model_id: str,
    values: str | Sequence[str],
    *,
    api_key: str | None = None,
    base_url: str | None = None,
    **kwargs: Any,
) -> EmbeddingResult:
    """``get_model(model_id, api_key=..., base_url=...).embed(values, **kwargs)`` with a shared model."""
    return _default_model(model_id, api_key, base_url).embed(values, **kwargs)


async def agenerate(
    model_id: str,
    *,
    api_key: str | None = None,
    base_url: str | None = None,
    response_format: type[_T] | ResponseFormat | Mapping[str, Any] | Literal["text", "json"] | None = None,
    **kwargs: Unpack[KeywordsBesidesFormat],
) -> Result[_T]:
    """Async twin of :func:`generate`."""
    model = _default_model(model_id, api_key, base_url)
    return await model.agenerate(response_format=response_format, **kwargs)


def astream(
    model_id: str,
    *,
    api_key: str | None = None,
    base_url: str | None = None,
    **kwargs: Unpack[RequestKeywords],
) -> AsyncResultStream:
    """Async twin of :func:`stream`."""
    return _default_model(model_id, api_key, base_url).astream(**kwargs)


async def aembed(
    model_id: str,
    values: str | Sequence[str],
    *,
    api_key: str | None = None,
    base_url: str | None = None,
    **kwargs: Any,
) -> EmbeddingResult:
    """Async twin of :func:`embed`."""
    return await _default_model(model_id, api_key, base_url).aembed(values, **kwargs)


def restore_batch(
    saved: str | bytes | Mapping[str, Any], model: Model | None = None, **options: Any
) -> BatchJob:
    """A batch job saved with ``job.model_dump_json()`` (or its ``model_dump()``), ready to use in this
    process: bound to ``model`` when given, else to ``get_model("provider/model", **options)`` of the
    provider and model it was submitted to, on the server it was submitted to (the job's
    ``connection``: its base URL and provider options; ``options`` given here win). A damaged job is
    an :class:`~modelport.errors.InvalidRequestError` (see :mod:`modelport.batches`)."""
    from .batches import BatchJob

    job = BatchJob.restored(saved)
    if model is None:
        kept = getattr(registry().provider_class(job.provider), "saved_options", ())
        model = get_model(f"{job.provider}/{job.model}", **{**job.connection_options(kept), **options})
    return job.bind(model)
