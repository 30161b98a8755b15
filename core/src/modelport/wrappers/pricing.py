"""The price of a call: a :class:`~modelport.types.Result`'s usage priced with ``genai-prices``.

``genai-prices`` (pydantic's maintained price catalog, bundled with its package: no network) prices
each quantity at its own rate: fresh input, cache reads, cache writes (Anthropic's 5-minute and
1-hour writes apart, from ``provider_metadata["anthropic"]["cache_creation"]``), output and
reasoning (at the output rate unless the catalog has a rate of its own for it). modelport's usage
already has the catalog's meaning: ``input_tokens`` includes the cache reads and writes,
``output_tokens`` the reasoning, so nothing is counted twice::

    price = cost(result)            # Cost(total=Decimal('0.0024048'), currency='USD', ...) or None

``None`` when the price is not known: no usage counts, a provider or model the catalog does not
have; never a guessed zero. Install with ``pip install 'modelport[cost]'``. :class:`CostTracker` is a
middleware that sums the cost of every call of a model.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from ..errors import ConfigurationError
from ..events import FinishEvent, ResponseMetadataEvent
from .middleware import Middleware

if TYPE_CHECKING:
    from datetime import datetime

    from .._model import Model
    from ..events import StreamEvent
    from ..types import Request, Result, Usage
    from .middleware import AsyncGenerate, AsyncStream, Generate, Stream

__all__ = ["CATALOG_PROVIDERS", "Cost", "CostTracker", "cost", "priced_quantities"]

#: modelport provider ids that the catalog names otherwise (any other id is looked up as it is).
CATALOG_PROVIDERS = {
    "openai-responses": "openai",
    "xai": "x-ai",
    "azure-openai": "azure",
    "google-vertex": "google",
    "bedrock": "aws",
}

_log = logging.getLogger("modelport.cost")


@dataclass(frozen=True)
class Cost:
    """What a call cost: ``input`` (fresh input, cache reads and writes), ``output`` (reasoning
    included) and their ``total``, in ``currency``; the catalog's ``provider`` and ``model`` ids that
    priced it and the ``catalog`` (``"genai-prices 0.2.3"``)."""

    input: Decimal
    output: Decimal
    total: Decimal
    currency: str
    provider: str
    model: str
    catalog: str


def priced_quantities(
    usage: Usage, provider_metadata: dict[str, dict[str, Any]] | None = None
) -> dict[str, int] | None:
    """``usage`` as the catalog's quantities (``input_tokens``, ``cache_read_tokens``,
    ``cache_write_tokens``, ``output_tokens``, ``output_reasoning_tokens`` ...); ``None`` when the
    input or output count is unknown."""
    if usage.input_tokens is None or usage.output_tokens is None:
        return None
    quantities = {"input_tokens": usage.input_tokens, "output_tokens": usage.output_tokens}
    if usage.cache_read_input_tokens:
        quantities["cache_read_tokens"] = usage.cache_read_input_tokens
    if usage.cache_write_input_tokens:
        quantities["cache_write_tokens"] = usage.cache_write_input_tokens
        split = ((provider_metadata or {}).get("anthropic") or {}).get("cache_creation")
        if isinstance(split, dict):
            for ttl in ("5m", "1h"):
                count = split.get(f"ephemeral_{ttl}_input_tokens")
                if isinstance(count, int) and not isinstance(count, bool):
                    quantities[f"cache_write_{ttl}_tokens"] = count
    if usage.reasoning_tokens:
        quantities["output_reasoning_tokens"] = usage.reasoning_tokens
    return quantities


def _catalog() -> Any:
    try:
        import genai_prices
        import genai_prices.data  # the provider list cost() checks ids against
    except ImportError:
        raise ConfigurationError(
            "pricing needs the genai-prices catalog: pip install 'modelport[cost]'"
        ) from None
    return genai_prices


def cost(
    result: Result,
    *,
    provider: str | None = None,
    model: str | None = None,
    at: datetime | None = None,
) -> Cost | None:
    """The price of ``result``, or ``None`` when it is not known (see the module's docstring).

    ``provider`` and ``model`` default to the result's: ``origin.provider`` and the model that
    answered (``model_version``, else the one asked for, ``origin.model``). ``at``: the time of the
    call, for a catalog's dated prices (default: now).
    """
    catalog = _catalog()
    quantities = priced_quantities(result.usage, result.provider_metadata)
    origin = result.origin
    provider = provider or (origin.provider if origin is not None else None)
    if quantities is None or provider is None:
        return None
    provider = CATALOG_PROVIDERS.get(provider, provider)
    if provider not in {known.id for known in catalog.data.providers}:
        # The catalog would guess a provider from the model name: a local or compatible server
        # (``openai-compatible``, ``ollama``) answering "gpt-4.1-nano" is not billed as OpenAI.
        _log.debug("no price for provider %s: not in the catalog", provider)
        return None
    names = [model] if model else [n for n in (result.model_version, origin.model if origin else None) if n]
    usage = catalog.Usage(**quantities)
    for name in dict.fromkeys(names):
        try:
            price = catalog.calc_price(usage, name, provider_id=provider, genai_request_timestamp=at)
        except LookupError as error:
            _log.debug("no price for %s/%s: %s", provider, name, error)
            continue
        return Cost(
            input=price.input_price,
            output=price.output_price,
            total=price.total_price,
            currency="USD",
            provider=price.provider.id,
            model=price.model.id,
            catalog=f"genai-prices {catalog.__version__}",
        )
    return None


class CostTracker(Middleware):
    """A middleware that prices every call of the model it wraps (generate, stream and their async
    twins): ``total`` (:class:`~decimal.Decimal`, USD) sums the priced ones, ``calls`` counts every
    call that finished, ``unpriced`` those :func:`cost` could not price (they add nothing to
    ``total``). ``costs`` holds each call's :class:`Cost` (``None`` when unpriced), in order."""

    def __init__(self) -> None:
        _catalog()  # missing: said now, not at the first call
        self.total = Decimal(0)
        self.calls = 0
        self.unpriced = 0
        self.costs: list[Cost | None] = []
        self._lock = threading.Lock()

    def record(self, result: Result) -> Cost | None:
        """Price ``result`` and add it to the totals."""
        price = cost(result)
        with self._lock:
            self.calls += 1
            self.costs.append(price)
            if price is None:
                self.unpriced += 1
            else:
                self.total += price.total
        return price

    def wrap_generate(self, request: Request, call_next: Generate, model: Model) -> Result:
        result = call_next(request)
        self.record(result)
        return result

    async def wrap_agenerate(self, request: Request, call_next: AsyncGenerate, model: Model) -> Result:
        result = await call_next(request)
        self.record(result)
        return result

    def wrap_stream(self, request: Request, call_next: Stream, model: Model) -> Iterator[StreamEvent]:
        version = None
        for event in call_next(request):
            if isinstance(event, ResponseMetadataEvent):
                version = event.model_version or version
            elif isinstance(event, FinishEvent):
                self.record(_finished(event, model, version))
            yield event

    async def wrap_astream(
        self, request: Request, call_next: AsyncStream, model: Model
    ) -> AsyncIterator[StreamEvent]:
        version = None
        async for event in call_next(request):
            if isinstance(event, ResponseMetadataEvent):
                version = event.model_version or version
            elif isinstance(event, FinishEvent):
                self.record(_finished(event, model, version))
            yield event


def _finished(event: FinishEvent, model: Model, version: str | None) -> Result:
    """The result of a stream as far as pricing goes: its usage and who answered."""
    from ..types import Result

    metadata = event.provider_metadata or {}
    return Result(usage=event.usage, origin=model.origin, model_version=version, provider_metadata=metadata)
