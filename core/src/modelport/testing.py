"""A small in-process provider for tests: scripted results, scripted streams, recorded requests.

It registers through the same plugin path as real plugins (a pluggy hookimpl module)::

    from modelport import testing
    script = testing.Script(results=[testing.text_result("hi")])
    testing.install()
    model = modelport.get_model("scripted/any-model", script=script)
    assert model.generate(prompt="hello").text == "hi"
    assert script.requests[0].messages[0].text == "hello"

A script entry that is an exception instance is raised instead, which makes error and retry paths
testable. A stream script may end with an exception to simulate a broken stream.
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .errors import ConfigurationError
from .events import (
    FinishEvent,
    StreamEvent,
    StreamStartEvent,
    TextDeltaEvent,
    TextEndEvent,
    TextStartEvent,
)
from .hookspecs import ProviderRegistrar, hookimpl
from .provider import Capabilities, EmbedRequest, Prepared, Provider
from .types import EMBEDDING_TYPES, EmbeddingResult, Request, Result, TextPart, Usage

__all__ = ["Script", "ScriptedProvider", "install", "text_events", "text_result"]


@dataclass
class Script:
    """What the scripted provider answers, in order, and what it was asked."""

    results: list[Result | BaseException] = field(default_factory=list)
    streams: list[Sequence[StreamEvent | BaseException]] = field(default_factory=list)
    embeddings: list[EmbeddingResult | BaseException] = field(default_factory=list)
    requests: list[Request] = field(default_factory=list)
    embed_requests: list[EmbedRequest] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def _next(self, queue: list[Any], what: str) -> Any:
        with self._lock:
            if not queue:
                raise ConfigurationError(f"the script has no more {what}")
            return queue.pop(0)


def text_result(text: str, **fields: Any) -> Result:
    """A plain stop result with one text part."""
    fields.setdefault("finish_reason", "stop")
    return Result(content=[TextPart(text=text)], **fields)


def text_events(*deltas: str, usage: Usage | None = None) -> list[StreamEvent]:
    """A well-formed stream of one text part made of ``deltas``."""
    events: list[StreamEvent] = [StreamStartEvent(), TextStartEvent(id="0")]
    events += [TextDeltaEvent(id="0", delta=d) for d in deltas]
    events += [TextEndEvent(id="0"), FinishEvent(finish_reason="stop", usage=usage or Usage())]
    return events


class ScriptedProvider(Provider):
    """Answers from the :class:`Script` passed as ``script=`` to :func:`modelport.get_model`."""

    id: ClassVar[str] = "scripted"
    display_name: ClassVar[str] = "Scripted (tests)"
    capabilities: ClassVar[Capabilities] = Capabilities(
        embed=True, function_tools=True, reasoning=True, structured_output=True
    )
    #: Every type: a script answers with whatever embeddings it holds.
    embedding_types: ClassVar[frozenset[str]] = frozenset(EMBEDDING_TYPES)

    @property
    def script(self) -> Script:
        script = self.config.options.get("script")
        if not isinstance(script, Script):
            raise ConfigurationError("the scripted provider needs script=modelport.testing.Script(...)")
        return script

    def send(self, model_name: str, prepared: Prepared) -> Result:
        script = self.script
        script.requests.append(prepared.request)
        item = script._next(script.results, "results")
        if isinstance(item, BaseException):
            raise item
        return item  # type: ignore[no-any-return]

    def send_stream(self, model_name: str, prepared: Prepared) -> Iterator[StreamEvent]:
        script = self.script
        script.requests.append(prepared.request)
        events = script._next(script.streams, "streams")
        for event in events:
            if isinstance(event, BaseException):
                raise event
            yield event

    async def asend(self, model_name: str, prepared: Prepared) -> Result:
        return self.send(model_name, prepared)

    async def asend_stream(self, model_name: str, prepared: Prepared) -> AsyncIterator[StreamEvent]:  # type: ignore[override]
        for event in self.send_stream(model_name, prepared):
            yield event

    def embed(self, model_name: str, request: EmbedRequest) -> EmbeddingResult:
        script = self.script
        script.embed_requests.append(request)
        item = script._next(script.embeddings, "embeddings")
        if isinstance(item, BaseException):
            raise item
        return item  # type: ignore[no-any-return]

    async def aembed(self, model_name: str, request: EmbedRequest) -> EmbeddingResult:
        return self.embed(model_name, request)


class _Plugin:
    """The hookimpl object registered for the scripted provider."""

    @hookimpl
    def modelport_register_providers(self, register: ProviderRegistrar) -> None:
        register(ScriptedProvider, aliases=("scripted-test",))


_PLUGIN = _Plugin()


def install() -> None:
    """Register the scripted provider (idempotent), through the normal plugin path."""
    from ._registry import register_plugin

    register_plugin(_PLUGIN, name="modelport.testing")
