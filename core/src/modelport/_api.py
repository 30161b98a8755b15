"""``get_model`` and the module-level convenience functions."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import httpx

from ._model import Model
from ._registry import registry
from .errors import ConfigurationError, UnknownModelError
from .provider import ProviderConfig, Secret

if TYPE_CHECKING:
    from ._streams import AsyncResultStream, ResultStream
    from .types import EmbeddingResult, Result

__all__ = ["aembed", "agenerate", "astream", "embed", "generate", "get_model", "split_model_id", "stream"]


def split_model_id(model_id: str) -> tuple[str, str]:
    """``"google/gemini-2.5-flash"`` → ``("google", "gemini-2.5-flash")``; split at the first ``/``."""
    if not isinstance(model_id, str):
        raise UnknownModelError(
            f"a model id must be a string like 'google/gemini-2.5-flash', got {type(model_id).__name__}"
        )
    provider_id, sep, model_name = model_id.partition("/")
    if not sep or not provider_id or not model_name:
        raise UnknownModelError(
            f"model id {model_id!r} must look like 'provider/model-name', e.g. 'google/gemini-2.5-flash'"
        )
    return provider_id, model_name


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
    **provider_config: Any,
) -> Model:
    """Resolve ``"provider/model-name"`` to a :class:`Model`, loading only the plugin it needs."""
    provider_id, model_name = split_model_id(model_id)
    if not isinstance(max_retries, int) or isinstance(max_retries, bool) or max_retries < 0:
        raise ConfigurationError("max_retries must be a non-negative integer")
    if not isinstance(max_retry_delay, (int, float)) or not max_retry_delay >= 0:  # also rejects NaN
        raise ConfigurationError("max_retry_delay must be a non-negative number of seconds")
    provider_cls = registry().provider_class(provider_id)
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
    )
    return Model(provider_cls(config), model_name)


_DEFAULT_MODELS: dict[str, Model] = {}
_DEFAULT_LOCK = threading.Lock()


def _default_model(model_id: str) -> Model:
    # Module-level calls share one Model (and so one pooled client) per id.
    model = _DEFAULT_MODELS.get(model_id)
    if model is None:
        with _DEFAULT_LOCK:
            model = _DEFAULT_MODELS.get(model_id)
            if model is None:
                model = get_model(model_id)
                _DEFAULT_MODELS[model_id] = model
    return model


def generate(model_id: str, **kwargs: Any) -> Result:
    """``get_model(model_id).generate(**kwargs)`` with a shared, default-configured model."""
    return _default_model(model_id).generate(**kwargs)


def stream(model_id: str, **kwargs: Any) -> ResultStream:
    """``get_model(model_id).stream(**kwargs)`` with a shared, default-configured model."""
    return _default_model(model_id).stream(**kwargs)


def embed(model_id: str, values: str | Sequence[str], **kwargs: Any) -> EmbeddingResult:
    """``get_model(model_id).embed(values, **kwargs)`` with a shared, default-configured model."""
    return _default_model(model_id).embed(values, **kwargs)


async def agenerate(model_id: str, **kwargs: Any) -> Result:
    """Async twin of :func:`generate`."""
    return await _default_model(model_id).agenerate(**kwargs)


def astream(model_id: str, **kwargs: Any) -> AsyncResultStream:
    """Async twin of :func:`stream`."""
    return _default_model(model_id).astream(**kwargs)


async def aembed(model_id: str, values: str | Sequence[str], **kwargs: Any) -> EmbeddingResult:
    """Async twin of :func:`embed`."""
    return await _default_model(model_id).aembed(values, **kwargs)
