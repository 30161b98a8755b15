"""``wrap(model, *middleware)``: a model whose calls pass through middleware on their way.

A middleware is an object with any of the hooks of :class:`Middleware` (subclass it, or write a class
with just the methods it needs). Each hook gets the validated request and ``call_next``, the rest of
the chain; it may change the request before calling on, change what comes back, or answer itself::

    class Defaults(modelport.Middleware):
        def transform_request(self, request, model):
            if request.temperature is not None:
                return request
            return request.model_copy(update={"temperature": 0})

    model = modelport.wrap(modelport.get_model("openai/gpt-4o-mini"), Defaults(), Logging())

Order: the first middleware is the outermost. Its ``transform_request`` runs first, its
``wrap_generate`` sees the request first and the result last (``wrap(m, a, b)`` is
``wrap(wrap(m, b), a)``). A stream hook sees the events one by one as they arrive and yields the
events the caller gets; the wrapped stream's result is accumulated from those.

Sync and async calls have their own hooks (``wrap_generate``/``wrap_agenerate``,
``wrap_stream``/``wrap_astream``, ``wrap_embed``/``wrap_aembed``): a middleware wraps the calls it
defines a hook for and leaves the others alone. ``transform_request`` applies to every call that takes a
request: generate, stream, their async twins, each step of ``run``, ``count_tokens`` and batches.
With no middleware, or none with a hook for a call, the call is the wrapped model's own.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .._model import Model, ValidCall, _parsed
from ..errors import ConfigurationError
from ..telemetry import InstrumentedModel
from ._chain import chain as _chain

if TYPE_CHECKING:
    from .._model.streams import AsyncResultStream, ResultStream
    from ..events import StreamEvent
    from ..provider import EmbedRequest
    from ..types import EmbeddingResult, Request, Result

__all__ = [
    "AsyncEmbed",
    "AsyncGenerate",
    "AsyncStream",
    "Embed",
    "Generate",
    "HOOKS",
    "Middleware",
    "Stream",
    "WrappedModel",
    "wrap",
]

#: ``call_next`` of :meth:`Middleware.wrap_generate`: the rest of the chain, down to the model.
Generate = Callable[["Request"], "Result"]
#: ``call_next`` of :meth:`Middleware.wrap_agenerate`.
AsyncGenerate = Callable[["Request"], Awaitable["Result"]]
#: ``call_next`` of :meth:`Middleware.wrap_stream`: the events of the rest of the chain.
Stream = Callable[["Request"], Iterator["StreamEvent"]]
#: ``call_next`` of :meth:`Middleware.wrap_astream`.
AsyncStream = Callable[["Request"], AsyncIterator["StreamEvent"]]
#: ``call_next`` of :meth:`Middleware.wrap_embed`.
Embed = Callable[["EmbedRequest"], "EmbeddingResult"]
#: ``call_next`` of :meth:`Middleware.wrap_aembed`.
AsyncEmbed = Callable[["EmbedRequest"], Awaitable["EmbeddingResult"]]


class Middleware:
    """The hooks a middleware may have, each a pass-through here: override the ones you need.

    ``model`` is the wrapped model (its ``id``, ``provider`` and ``name`` say what is called).
    """

    def transform_request(self, request: Request, model: Model) -> Request:
        """The request to send instead of ``request`` (validated, the reasoning replay policy
        applied); return a ``request.model_copy(update=...)``, or ``request`` itself. The provider
        checks its own rules on what is returned, before any I/O."""
        return request

    def wrap_generate(self, request: Request, call_next: Generate, model: Model) -> Result:
        """Wrap a sync ``generate`` (and each step of ``run``): call ``call_next(request)`` (or
        not) and return the result."""
        return call_next(request)

    async def wrap_agenerate(self, request: Request, call_next: AsyncGenerate, model: Model) -> Result:
        """Async twin of :meth:`wrap_generate`."""
        return await call_next(request)

    def wrap_stream(self, request: Request, call_next: Stream, model: Model) -> Iterator[StreamEvent]:
        """Wrap a sync ``stream``: yield the events the caller gets, usually from
        ``call_next(request)`` one by one as they arrive."""
        return call_next(request)

    def wrap_astream(
        self, request: Request, call_next: AsyncStream, model: Model
    ) -> AsyncIterator[StreamEvent]:
        """Async twin of :meth:`wrap_stream` (an ``async def`` with ``yield``, or ``call_next(request)``)."""
        return call_next(request)

    def wrap_embed(self, request: EmbedRequest, call_next: Embed, model: Model) -> EmbeddingResult:
        """Wrap a sync ``embed``."""
        return call_next(request)

    async def wrap_aembed(
        self, request: EmbedRequest, call_next: AsyncEmbed, model: Model
    ) -> EmbeddingResult:
        """Async twin of :meth:`wrap_embed`."""
        return await call_next(request)


#: The hook names a middleware may define (:class:`Middleware`'s methods).
HOOKS = (
    "transform_request",
    "wrap_generate",
    "wrap_agenerate",
    "wrap_stream",
    "wrap_astream",
    "wrap_embed",
    "wrap_aembed",
)


def _defines(middleware: object, hook: str) -> bool:
    """Whether ``middleware`` has ``hook`` of its own (not :class:`Middleware`'s pass-through)."""
    method = getattr(type(middleware), hook, None)
    return callable(method) and method is not getattr(Middleware, hook)


class WrappedModel(Model):
    """A :class:`~modelport.Model` whose calls go through ``middleware`` (made by :func:`wrap`).

    It shares the wrapped model's provider, clients, retry policy and id; ``model`` is the wrapped one.
    """

    def __init__(self, model: Model, middleware: Sequence[object]) -> None:
        # Not Model.__init__: the provider and retry policy are the wrapped model's own.
        self.model = model
        self.provider = model.provider
        self.name = model.name
        self.retry_policy = model.retry_policy
        self.middleware = tuple(middleware)
        hooks: dict[str, list[Any]] = {
            hook: [getattr(m, hook) for m in self.middleware if _defines(m, hook)] for hook in HOOKS
        }
        self._hooks = hooks

    def __repr__(self) -> str:
        names = ", ".join(type(m).__name__ for m in self.middleware)
        return f"WrappedModel({self.model!r}, [{names}])"

    def _validate(self, kwargs: Mapping[str, Any]) -> ValidCall:
        call = self.model._validate(kwargs)
        transforms = self._hooks["transform_request"]
        if not transforms:
            return call
        request = call.request
        for transform in transforms:
            request = transform(request, self)
        return call._replace(request=request)

    # The innermost call of each chain is the wrapped model's, without the output type: the result
    # the chain returns (changed or not) is parsed once, here.

    def _generate(self, call: ValidCall) -> Result:
        hooks = self._hooks["wrap_generate"]
        if not hooks:
            return self.model._generate(call)
        inner = self.model._generate
        chain = _chain(hooks, lambda request: inner(_passed(call, request)), self)
        return _parsed(chain(call.request), call.output)

    async def _agenerate(self, call: ValidCall) -> Result:
        hooks = self._hooks["wrap_agenerate"]
        if not hooks:
            return await self.model._agenerate(call)
        inner = self.model._agenerate
        chain = _chain(hooks, lambda request: inner(_passed(call, request)), self)
        return _parsed(await chain(call.request), call.output)

    def _stream(self, call: ValidCall) -> ResultStream:
        hooks = self._hooks["wrap_stream"]
        if not hooks:
            return self._unhooked_stream(call)
        from ._streams import TracedWrappedStream, WrappedStream

        kind = TracedWrappedStream if isinstance(self, InstrumentedModel) else WrappedStream
        return kind(self, self.model, call, hooks)

    def _astream(self, call: ValidCall) -> AsyncResultStream:
        hooks = self._hooks["wrap_astream"]
        if not hooks:
            return self._unhooked_astream(call)
        from ._streams import AsyncWrappedStream, TracedAsyncWrappedStream

        kind = TracedAsyncWrappedStream if isinstance(self, InstrumentedModel) else AsyncWrappedStream
        return kind(self, self.model, call, hooks)

    def _unhooked_stream(self, call: ValidCall) -> ResultStream:
        return self.model._stream(call)

    def _unhooked_astream(self, call: ValidCall) -> AsyncResultStream:
        return self.model._astream(call)

    def _embed(self, request: EmbedRequest) -> EmbeddingResult:
        hooks = self._hooks["wrap_embed"]
        if not hooks:
            return self.model._embed(request)
        return _chain(hooks, self.model._embed, self)(request)  # type: ignore[no-any-return]

    async def _aembed(self, request: EmbedRequest) -> EmbeddingResult:
        hooks = self._hooks["wrap_aembed"]
        if not hooks:
            return await self.model._aembed(request)
        return await _chain(hooks, self.model._aembed, self)(request)  # type: ignore[no-any-return]


class TracedWrappedModel(InstrumentedModel, WrappedModel):
    """What :func:`wrap` makes of a traced model (:class:`~modelport.telemetry.InstrumentedModel`):
    the span stays the outermost layer. It wraps the middleware chain (it records the request as
    the middleware changed it and the result as they returned it) around the plain model."""

    def _unhooked_stream(self, call: ValidCall) -> ResultStream:
        return Model._stream(self, call)  # this model's traced stream of the same provider

    def _unhooked_astream(self, call: ValidCall) -> AsyncResultStream:
        return Model._astream(self, call)


def _passed(call: ValidCall, request: Request) -> ValidCall:
    """``call`` as the chain passes it on: ``request`` (the same object unless a hook changed it;
    unchanged, a call of several models keeps each model's own), without the output type."""
    if request is call.request:
        return call._replace(output=None)
    return call._replace(request=request, output=None)


def wrap(model: Model, *middleware: object) -> WrappedModel:
    """``model`` with its calls passed through ``middleware``, the first outermost.

    Each middleware is an object with at least one hook of :class:`Middleware` (an instance of a
    subclass, usually); anything else raises :class:`~modelport.errors.ConfigurationError` here.
    """
    if not isinstance(model, Model):
        raise ConfigurationError(
            f"wrap() needs a model (modelport.get_model(...)), got {type(model).__name__}"
        )
    for item in middleware:
        if not any(_defines(item, hook) for hook in HOOKS):
            raise ConfigurationError(
                f"{type(item).__name__} is not a middleware: it defines none of " + ", ".join(HOOKS)
            )
    if type(model) is InstrumentedModel:  # the span outside the chain, the plain model inside it
        return TracedWrappedModel(Model(model.provider, model.name), middleware)
    return WrappedModel(model, middleware)
