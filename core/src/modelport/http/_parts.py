"""The stream event bookkeeping every decoder repeats (:class:`StreamParts`): which part is open,
its id, starting and ending it, the offset of the answer's text, and ending what is still open when
the stream finishes. A decoder says what its frames mean ("text for block 2", "arguments of call
0", "block 2 ended"); the tracker gives the events, with ids that are never reused.
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from .._contract.content import built
from ..events import (
    FinishEvent,
    ReasoningEndEvent,
    ReasoningStartEvent,
    StreamEvent,
    TextDeltaEvent,
    TextEndEvent,
    TextStartEvent,
    ToolCallDeltaEvent,
    ToolCallEndEvent,
    ToolCallStartEvent,
    reasoning_delta,
    text_delta,
    tool_call_part,
)
from ..types import ProviderMetadata, Usage
from ._settings import finish_reason

if TYPE_CHECKING:
    from ..types import Citation, FinishReason, Source

__all__ = ["StreamParts"]

_TEXT, _REASONING, _CALL = "text", "reasoning", "call"
_DELTA_FIELDS = {"id", "delta"}


class _Part:
    __slots__ = ("id", "kind", "start")

    def __init__(self, kind: str, ident: str, start: int) -> None:
        self.kind = kind
        self.id = ident
        self.start = start


class StreamParts:
    """Frames' meaning → stream events, for one stream (one instance per stream).

    Each part is found by a key of the decoder's choosing (a content block's index, an item id;
    ``0`` by default) and gets the id ``"<kind>-<n>"``, ``n`` counting the parts of the stream, so a
    key started again (a block repeated, text after its end) is a new part, never a part that ended.

    - :meth:`text` / :meth:`reasoning`: a fragment of the part at ``key``; the part starts with its
      first fragment (a part of another kind at ``key`` ends first).
    - :meth:`call_start`, :meth:`call_args`: a tool call whose arguments arrive in fragments;
      :meth:`call`: a call that arrives whole.
    - :meth:`end`: the part at ``key`` is complete; :meth:`finish`: every part still open ends, in
      the order they started (call it at the end of the stream, before the ``finish`` event);
      :meth:`stop`: those ends and the ``finish`` event, its reason read through a table.

    A decoder may subclass it (``class Decoder(StreamParts)``, its ``feed`` calling ``self.text``...):
    the tracker's :meth:`finish` is then the decoder's, as :class:`StreamDecoder` wants it.

    ``sequential=True`` is for an API whose parts come one after another (text pieces in a row are
    one part, anything else ends it): a part that starts ends the open ones. :attr:`offset` is the
    length of the answer's text so far (``Result.text``, where citation offsets count) and
    :meth:`started_at` where a text part began in it. A fragment that is not a string is a
    ``TypeError`` (which the decoder guard types) before anything changes; nothing else is
    validated beyond the event constructors' own checks, so the tracker keeps a decoder's per-frame
    cost.
    """

    __slots__ = ("_count", "_open", "offset", "sequential")

    def __init__(self, *, sequential: bool = False) -> None:
        self.sequential = sequential
        self.offset = 0
        self._open: dict[Hashable, _Part] = {}
        self._count = 0

    def text(
        self, fragment: str, key: Hashable = 0, *, metadata: ProviderMetadata | None = None
    ) -> list[StreamEvent]:
        """More text of the part at ``key`` (``metadata`` goes on its start, when this starts it)."""
        if type(fragment) is not str:
            raise _not_text(fragment)
        part = self._open.get(key)
        if part is not None and part.kind is _TEXT:
            # The hot path, once a frame: more text of an open part, built as text_delta builds it.
            if not fragment:
                return []
            self.offset += len(fragment)
            state = {"type": "text-delta", "id": part.id, "delta": fragment, "provider_metadata": None}
            return [built(TextDeltaEvent, state, _DELTA_FIELDS, None)]
        out = self._begin(_TEXT, key)
        out.append(TextStartEvent(id=self._open[key].id, provider_metadata=metadata))
        if fragment:
            self.offset += len(fragment)
            out.append(text_delta(self._open[key].id, fragment))
        return out

    def reasoning(
        self, fragment: str, key: Hashable = 0, *, metadata: ProviderMetadata | None = None
    ) -> list[StreamEvent]:
        """More reasoning text of the part at ``key`` (``metadata`` on its start)."""
        if type(fragment) is not str:
            raise _not_text(fragment)
        part = self._open.get(key)
        if part is None or part.kind != _REASONING:
            out = self._begin(_REASONING, key)
            part = self._open[key]
            out.append(ReasoningStartEvent(id=part.id, provider_metadata=metadata))
        else:
            out = []
        if fragment:
            out.append(reasoning_delta(part.id, fragment))
        return out

    def call_start(
        self, call_id: str, name: str, key: Hashable = 0, *, metadata: ProviderMetadata | None = None
    ) -> list[StreamEvent]:
        """A tool call starts at ``key``; its arguments follow by :meth:`call_args`."""
        out = self._begin(_CALL, key)
        ident = self._open[key].id
        out.append(ToolCallStartEvent(id=ident, call_id=call_id, name=name, provider_metadata=metadata))
        return out

    def call_args(self, fragment: str, key: Hashable = 0) -> list[StreamEvent]:
        """A fragment of the JSON text of the arguments of the call at ``key`` (one that did not
        start is a ``KeyError``: a fragment of no known call, for the decoder guard to type)."""
        part = self._open[key]
        if part.kind != _CALL:
            raise KeyError(f"part {part.id!r} at {key!r} is not a tool call")
        if type(fragment) is not str:
            raise _not_text(fragment)
        return [ToolCallDeltaEvent(id=part.id, delta=fragment)] if fragment else []

    def call(
        self,
        call_id: str,
        name: str,
        arguments: str | Mapping[str, Any],
        key: Hashable = 0,
        *,
        metadata: ProviderMetadata | None = None,
    ) -> list[StreamEvent]:
        """A tool call that arrived whole: its start, its arguments as one delta, its end. Arguments
        given as JSON text are parsed by the core as streamed ones are (text that is no JSON object
        is kept raw, with a warning on the result); an object is the call's ``args`` as it is."""
        out = self.call_start(call_id, name, key, metadata=metadata)
        ident = self._open.pop(key).id
        if isinstance(arguments, str):
            out += [ToolCallDeltaEvent(id=ident, delta=arguments)] if arguments else []
            out.append(ToolCallEndEvent(id=ident))
            return out
        args = dict(arguments)
        if args:
            out.append(ToolCallDeltaEvent(id=ident, delta=json.dumps(args, ensure_ascii=False)))
        out.append(ToolCallEndEvent(id=ident, part=tool_call_part(call_id, name, args, metadata)[0]))
        return out

    def end(
        self, key: Hashable = 0, *, metadata: ProviderMetadata | None = None, signature: str | None = None
    ) -> list[StreamEvent]:
        """The part at ``key`` is complete (none open there: no events). ``metadata`` goes on its end
        event; ``signature`` on a reasoning part's."""
        part = self._open.pop(key, None)
        if part is None:
            return []
        if part.kind == _TEXT:
            return [TextEndEvent(id=part.id, provider_metadata=metadata)]
        if part.kind == _REASONING:
            return [ReasoningEndEvent(id=part.id, signature=signature, provider_metadata=metadata)]
        return [ToolCallEndEvent(id=part.id, provider_metadata=metadata)]

    def finish(self) -> list[StreamEvent]:
        """The end of every part still open, in the order they started."""
        return self._end_open()

    def stop(
        self,
        raw_reason: str | None,
        reasons: Mapping[str, FinishReason],
        *,
        usage: Usage | None = None,
        sources: Iterable[Source] = (),
        citations: Iterable[Citation] = (),
        metadata: ProviderMetadata | None = None,
    ) -> list[StreamEvent]:
        """The end of every part still open, then the ``finish`` event: ``raw_reason`` mapped by
        ``reasons`` (:func:`~modelport.http.finish_reason`: any other is ``"other"``) and kept as
        ``raw_finish_reason``, with the answer's usage, sources, citations and provider metadata.
        A citation naming a source number that is not one of ``sources`` is a ``ValueError`` (which
        the decoder guard types): a citation never points at nothing."""
        found, cited = list(sources), list(citations)
        numbers = {source.number for source in found}
        for number in (n for citation in cited for n in citation.sources if n not in numbers):
            raise ValueError(f"a citation names source {number!r}, not one of the {len(found)} sent")
        end = FinishEvent(
            finish_reason=finish_reason(raw_reason, reasons),
            raw_finish_reason=raw_reason,
            usage=Usage() if usage is None else usage,
            provider_metadata=dict(metadata or {}),
            sources=found,
            citations=cited,
        )
        return [*self._end_open(), end]

    def is_open(self, key: Hashable = 0) -> bool:
        """Whether a part is open at ``key``."""
        return key in self._open

    def started_at(self, key: Hashable = 0) -> int:
        """Where the text part open at ``key`` began in the answer's text (its :attr:`offset` then)."""
        return self._open[key].start

    def _end_open(self) -> list[StreamEvent]:
        # Not finish(): a decoder that subclasses the tracker may override finish with its own ending.
        return [event for key in list(self._open) for event in self.end(key)]

    def _begin(self, kind: str, key: Hashable) -> list[StreamEvent]:
        out = self._end_open() if self.sequential else self.end(key)
        self._open[key] = _Part(kind, f"{kind}-{self._count}", self.offset)
        self._count += 1
        return out


def _not_text(fragment: object) -> TypeError:
    return TypeError(f"a text or arguments fragment must be a string, not {type(fragment).__name__}")
