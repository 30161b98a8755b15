"""Stream frames folded into the whole answer the same request gets unstreamed, as data
(:func:`merge_items`): for an API whose stream sends the answer's items one by one (text in
pieces) between frames that carry the answer's other fields. A plugin's ``merge_frames`` for the
conformance suite's ``merged`` check is then one call, written from the API's description.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any

__all__ = ["merge_items"]


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
    on the answer itself (a later frame's value replaces an earlier one's). Frames of any other kind
    are left out, as a decoder skips kinds newer than it.

    ``merge_items(frames, items={"text", "tool_call"}, fields={"start", "stop"}, join={"text": "text"})``
    folds ``start``, two ``text``, ``stop`` into ``{"id", "model", "output": [{"type": "text", "text"}],
    "stop_reason", "usage"}``.
    """
    joined = join or {}
    answer: dict[str, Any] = {into: []}
    output: list[dict[str, Any]] = answer[into]
    for frame in frames:
        what = frame.get(kind)
        if what in items:
            key = joined.get(what)
            if key is not None and output and output[-1].get(kind) == what:
                output[-1] = {**output[-1], key: output[-1][key] + frame[key]}
            else:
                output.append(dict(frame))
        elif what in fields:
            answer.update({name: value for name, value in frame.items() if name != kind})
    return answer
