"""Provider contract versions: the one the core implements, and the adapter from the previous minor.

A provider class states the contract version it was written for (``contract_version``; the default
is :data:`~modelport.provider.CONTRACT_VERSION`, now ``"2.3"``). At registration
(:func:`adapted`):

- a provider for ``2.3``, ``2.2`` or ``2.1`` (:data:`COMPATIBLE_VERSIONS`: what came since only
  added optional surface, or moved a hook as below), is registered as it is;
- a provider for ``2.0`` is registered through the adapter below: a subclass whose results and
  stream events pass through :func:`result_from_2_0` / :func:`event_from_2_0`, at the one place the
  core receives them (``send``, ``asend``, ``send_stream``, ``asend_stream``), so generate, stream,
  sync and async are translated alike;
- any other version (another major, a later minor, a string that is no version) is refused with a
  :class:`~modelport.errors.ConfigurationError` naming it: the core cannot know what it means.

What 2.3 changed: one provider contract. The model calls ``prepare`` once and sends what it made
with ``send``, ``asend``, ``send_stream`` or ``asend_stream``, the only generation hooks;
``generate``, ``stream`` and their async twins call ``prepare`` then a send, for a caller holding
the provider itself, and are no longer hooks. A provider class that overrides one of them but not
its send is refused at registration, naming the method to rename (:func:`old_generation_hooks`):
nothing would call the override. The model no longer retries ``embed`` (the provider retries each
request alone, as the HTTP kit does) and no longer runs ``check_request`` before ``count_tokens``
(the provider applies its own rules there, before any I/O, as the kit does by building the count
request first): the flags ``checks_on_send`` and ``embed_retries_per_request`` are gone. A provider built on
:class:`~modelport.http.HttpProvider` changes nothing.

2.3 also adds ``embed(..., embedding_type=...)`` (:data:`~modelport.types.EmbeddingType`) and
``EmbeddingResult.embedding_type`` (default ``"float"``, so stored results still load): a provider
lists the types it maps in ``Provider.embedding_types`` (default ``{"float"}``) and the core refuses
any other before any I/O, so an older plugin keeps working and refuses every type but float.

It also adds, with nothing for a 2.2 provider to change: the ``documents`` request keyword
(mapped only by a provider whose ``Capabilities.documents`` is true; the core refuses documents
for any other before any I/O, so a 2.2 provider never drops them unseen), ``Source.id`` and
``Source.kind`` (``None`` by default), the usage rule for a provider whose billed input leaves
cached tokens out (docs/usage.md), the neutral ``mcp_server`` tool (``Capabilities.mcp_server``,
off by default), ``ToolCallPart.approval`` (``None`` by default; ``"requested"`` for a call the
provider runs once the tool loop's ``approve=`` hook says so) and ``HttpRequest.secrets`` (empty
by default: credentials a request body carries, scrubbed like the key).

What 2.2 added (nothing for a 2.1 provider to change): neutral server tools (the ``Capabilities``
flags ``web_search``, ``web_fetch``, ``code_execution`` and :meth:`Provider.neutral_tool
<modelport.provider.Provider.neutral_tool>`, both off by default), ``Usage.server_tool_calls``,
``Citation.cited_text``, ``Source.file_id`` and ``Source.excerpt`` (all ``None`` by default).

What changed from 2.0 to 2.1, and what the adapter does with each:

- **Usage meaning.** 2.0 did not say whether the parts of a count (reasoning, cache reads, tool-use
  prompts) were inside it; 2.1 says they are (``docs/usage.md``). :func:`usage_from_2_0` adds in a
  part that the 2.0 counts show was reported beside its whole (see there). ``cache_write_input_tokens``
  is new: a 2.0 provider leaves it ``None``, "not known", which is right.
- **Grounding** moved into Google's ``provider_metadata`` namespace: a ``grounding_metadata`` a 2.0
  provider gives is moved as the result is validated (no adapter needed).
- **``Warning`` is ``CallWarning``**: the old name still works for one minor version.
- **Declared credentials, telemetry name, origin, replay policy**: declarations a 2.0 provider does
  not make have defaults that keep it working (the core stamps the origin); a key shape or header
  the core used to know must be declared by the plugin (nothing can adapt what is not known).
"""

from __future__ import annotations

import itertools
import weakref
from collections.abc import AsyncIterator, Iterator
from typing import TYPE_CHECKING, Any

from .errors import ConfigurationError

if TYPE_CHECKING:  # the types are imported when a 2.0 provider answers, not when one registers
    from .events import StreamEvent
    from .provider import Prepared, Provider
    from .types import Result, Usage

__all__ = [
    "ADAPTED_VERSIONS",
    "COMPATIBLE_VERSIONS",
    "GENERATION_HOOKS",
    "adapted",
    "event_from_2_0",
    "old_generation_hooks",
    "result_from_2_0",
    "usage_from_2_0",
]

#: The contract versions the core registers through an adapter (besides its own).
ADAPTED_VERSIONS = ("2.0",)
#: Earlier minor versions the core registers as they are: what changed since only added defaults.
COMPATIBLE_VERSIONS = ("2.2", "2.1")
#: The generation calls that were hooks before contract 2.3, and the send that replaced each.
GENERATION_HOOKS = (
    ("generate", "send"),
    ("agenerate", "asend"),
    ("stream", "send_stream"),
    ("astream", "asend_stream"),
)

_ADAPTERS: weakref.WeakKeyDictionary[type[Any], type[Any]] = weakref.WeakKeyDictionary()


def usage_from_2_0(usage: Usage) -> Usage:
    """A usage a 2.0 provider reported, with the 2.1 meaning: every part inside its whole.

    A part was reported beside its whole (and is added into it) when it is larger than the whole,
    or when ``total_tokens`` exceeds ``input_tokens + output_tokens`` by exactly the parts not yet
    added: the first set, in the order reasoning, tool-use prompt, cache read, whose sum is the
    difference (Gemini's 2.0 counts: ``totalTokenCount`` held ``thoughtsTokenCount`` and
    ``toolUsePromptTokenCount``, ``candidatesTokenCount`` and ``promptTokenCount`` did not). Any
    other usage is returned unchanged: what the counts do not show is not guessed.
    """
    added = {"input_tokens": 0, "output_tokens": 0}
    parts = [
        ("reasoning_tokens", "output_tokens"),
        ("tool_use_prompt_tokens", "input_tokens"),
        ("cache_read_input_tokens", "input_tokens"),
    ]
    known = [
        (part, whole) for part, whole in parts if getattr(usage, part) and getattr(usage, whole) is not None
    ]
    pending = []
    for part, whole in known:
        if getattr(usage, part) > getattr(usage, whole):
            added[whole] += getattr(usage, part)
        else:
            pending.append((part, whole))
    inside = (usage.input_tokens or 0) + (usage.output_tokens or 0) + sum(added.values())
    if usage.total_tokens is not None and usage.input_tokens is not None and usage.output_tokens is not None:
        beside = usage.total_tokens - inside
        for size in range(1, len(pending) + 1) if beside > 0 else ():
            match = next(
                (
                    c
                    for c in itertools.combinations(pending, size)
                    if sum(getattr(usage, p) for p, _ in c) == beside
                ),
                None,
            )
            if match is not None:
                for part, whole in match:
                    added[whole] += getattr(usage, part)
                break
    if not any(added.values()):
        return usage
    update = {whole: getattr(usage, whole) + extra for whole, extra in added.items() if extra}
    return usage.model_copy(update=update)


def result_from_2_0(result: Result) -> Result:
    """A result a 2.0 provider made, with its usage read the 2.1 way (:func:`usage_from_2_0`)."""
    usage = usage_from_2_0(result.usage)
    return result if usage is result.usage else result.model_copy(update={"usage": usage})


def event_from_2_0(event: StreamEvent) -> StreamEvent:
    """A stream event a 2.0 provider made: a ``finish`` event's usage read the 2.1 way."""
    from .events import FinishEvent

    if not isinstance(event, FinishEvent):
        return event
    usage = usage_from_2_0(event.usage)
    return event if usage is event.usage else event.model_copy(update={"usage": usage})


def _adapter_2_0(provider: type[Provider]) -> type[Provider]:
    def send(self: Any, model_name: str, prepared: Prepared) -> Result:
        return result_from_2_0(super(adapter, self).send(model_name, prepared))

    async def asend(self: Any, model_name: str, prepared: Prepared) -> Result:
        return result_from_2_0(await super(adapter, self).asend(model_name, prepared))

    def send_stream(self: Any, model_name: str, prepared: Prepared) -> Iterator[StreamEvent]:
        events = super(adapter, self).send_stream(model_name, prepared)
        try:
            for event in events:
                yield event_from_2_0(event)
        finally:
            close = getattr(events, "close", None)
            if close is not None:
                close()

    async def asend_stream(self: Any, model_name: str, prepared: Prepared) -> AsyncIterator[StreamEvent]:
        events = super(adapter, self).asend_stream(model_name, prepared)
        try:
            async for event in events:
                yield event_from_2_0(event)
        finally:
            aclose = getattr(events, "aclose", None)
            if aclose is not None:
                await aclose()

    methods = {"send": send, "asend": asend, "send_stream": send_stream, "asend_stream": asend_stream}
    namespace = {
        "__module__": provider.__module__,
        "__qualname__": provider.__qualname__,
        "__doc__": provider.__doc__,
    }
    adapter: type[Provider] = type(provider.__name__, (provider,), namespace)
    for name, method in methods.items():  # after the class's own __init_subclass__ set its sends
        method.__qualname__ = f"{provider.__qualname__}.{name}"
        setattr(adapter, name, method)
    adapter.adapted_from = provider  # type: ignore[attr-defined]
    return adapter


def _defining(cls: type[Any], name: str) -> type[Any]:
    return next(klass for klass in cls.__mro__ if name in vars(klass))


def old_generation_hooks(provider: type[Provider]) -> list[tuple[str, str]]:
    """Each ``(call, send)`` of :data:`GENERATION_HOOKS` where ``provider`` overrides the call below
    the class that gives it its send: an override written for the contract before 2.3, which the
    model would never run."""
    from .provider import Provider

    found = []
    for call, send in GENERATION_HOOKS:
        where, sender = _defining(provider, call), _defining(provider, send)
        if where is not Provider and where is not sender and issubclass(where, sender):
            found.append((call, send))
    return found


def adapted(provider: type[Provider]) -> type[Provider]:
    """``provider`` as the core registers it: itself when written for this contract or one of
    :data:`COMPATIBLE_VERSIONS`, its adapter when written for one of :data:`ADAPTED_VERSIONS`; any
    other version is a ``ConfigurationError``."""
    from .provider import CONTRACT_VERSION

    wanted = str(getattr(provider, "contract_version", CONTRACT_VERSION))
    if old := old_generation_hooks(provider):
        renames = ", ".join(f"{call} -> {send}" for call, send in old)
        raise ConfigurationError(
            f"provider {provider.id!r} overrides {', '.join(call for call, _ in old)}, which the "
            f"model no longer calls (provider contract 2.3): override the send instead ({renames}; "
            "it receives what prepare made, the request as prepared.request)"
        )
    if wanted == CONTRACT_VERSION or wanted in COMPATIBLE_VERSIONS:
        return provider
    if wanted not in ADAPTED_VERSIONS:
        raise ConfigurationError(
            f"provider {provider.id!r} was written for provider contract {wanted}; this modelport "
            f"implements {CONTRACT_VERSION}, takes {', '.join(COMPATIBLE_VERSIONS)} as is and adapts "
            f"{', '.join(ADAPTED_VERSIONS)} (upgrade the plugin or modelport)"
        )
    adapter = _ADAPTERS.get(provider)
    if adapter is None:
        adapter = _ADAPTERS[provider] = _adapter_2_0(provider)
    return adapter
