"""Models that wrap models: middleware (:func:`wrap`), fallback across models (:class:`FallbackModel`),
the cost of a call (:func:`cost`) and a response cache (:class:`ResponseCache`).

Each returns an object with the :class:`~modelport.Model` API (``generate``, ``agenerate``,
``stream``, ``astream``, ``embed``, ``run`` ...), usable wherever a model is. Guide:
``docs/middleware.md``.
"""

from __future__ import annotations

from .cache import ResponseCache
from .fallback import FallbackCall, FallbackModel
from .middleware import (
    HOOKS,
    AsyncEmbed,
    AsyncGenerate,
    AsyncStream,
    Embed,
    Generate,
    Middleware,
    Stream,
    WrappedModel,
    wrap,
)
from .pricing import CATALOG_PROVIDERS, Cost, CostTracker, cost, priced_quantities

__all__ = [
    "CATALOG_PROVIDERS",
    "HOOKS",
    "AsyncEmbed",
    "AsyncGenerate",
    "AsyncStream",
    "Cost",
    "CostTracker",
    "Embed",
    "FallbackCall",
    "FallbackModel",
    "Generate",
    "Middleware",
    "ResponseCache",
    "Stream",
    "WrappedModel",
    "cost",
    "priced_quantities",
    "wrap",
]
