"""A stream's frames and the whole answer, both ways: :func:`merge_items` folds the frames into the
answer the same request gets unstreamed, as data (for an API whose stream sends the answer's items
one by one between frames that carry its other fields; a plugin's ``merge_frames`` for the
conformance suite's ``merged`` check is then one call, written from the API's description), and
:func:`decode_frames` decodes a whole answer through the stream decoder, as frames, so a stream
and a whole answer can never be mapped differently.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ..errors import ProviderError
from ..events import StreamAccumulator

if TYPE_CHECKING:
    from ..types import Result
    from ._types import StreamDecoder

__all__ = ["decode_frames", "merge_items"]


def decode_frames(decoder: StreamDecoder, frames: Iterable[Any]) -> Result:
    """The :class:`~modelport.types.Result` of ``frames`` fed to ``decoder`` (a fresh one) and its
    ``finish()``: a whole answer decoded as the stream of it would be. A typed error the decoder
    raises (an answer that reports a failure) carries what was decoded before it as ``partial``; a
    decoder that gives no ``finish`` event is a ``ValueError`` (a ``ProviderResponseError`` from
    ``decode_response``, through the decoder guard): a whole answer is never cut short."""
    accumulator = StreamAccumulator()
    try:
        for frame in frames:
            for event in decoder.feed(frame):
                accumulator.add(event)
        for event in decoder.finish():
            accumulator.add(event)
    except ProviderError as error:
        error.partial = accumulator.snapshot()
        raise
    if not accumulator.finished:
        raise ValueError("the answer's frames decoded to no finish event")
    return accumulator.result()


def merge_items(
    frames: Iterable[Mapping[str, Any]],
    *,
    items: Collection[str],
    fields: Collection[str] = (),
    join: Mapping[str, str] | None = None,
    kind: str = "type",
    into: str = "output",
) -> dict[str, Any]:
    """The whole answer of ``frames``: the frames whose ``kind`` key is one of ``items`` in order
    under ``into`` (consecutive frames of a kind in ``join`` become one item, the text at
    ``join[kind]`` concatenated), and every key but ``kind`` of the frames of a kind in ``fields``
    on the answer itself (a later frame's value replaces an earlier one's). Frames of any other kind,
    or whose kind is not a string, are left out, as a decoder skips kinds newer than it.

    ``merge_items(frames, items={"text", "tool_call"}, fields={"start", "stop"}, join={"text": "text"})``
    folds ``start``, two ``text``, ``stop`` into ``{"id", "model", "output": [{"type": "text", "text"}],
    "stop_reason", "usage"}``.
    """
    joined = join or {}
    answer: dict[str, Any] = {into: []}
    output: list[dict[str, Any]] = answer[into]
    for frame in frames:
        what = frame.get(kind)
        if not isinstance(what, str):
            continue  # a frame without a kind (or with one no API names so) is no item
        if what in items:
            key = joined.get(what)
            if key is not None and output and output[-1].get(kind) == what:
                output[-1] = {**output[-1], key: output[-1][key] + frame[key]}
            else:
                output.append(dict(frame))
        elif what in fields:
            answer.update({name: value for name, value in frame.items() if name != kind})
    return answer
