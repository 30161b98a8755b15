"""What the derived fault cases replay: a case's recording with one response body changed.

A derived case is the recorded exchange with the body of one interaction replaced (a stream cut
after some of its frames or in the middle of one, a frame removed, a JSON body cut short); the
requests must still match the recording, so the replay is the case's own call through the same
:class:`~modelport_conformance.player.CassettePlayer`. :func:`replay_broken` sends a prefix and then
breaks the connection: the kit decodes what arrived (with what the decoder held back, its
``flush``), the reference a stream cut cleanly at the same place is held to.
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx

from .cases import Case, Suite
from .cassette import Cassette, Interaction, _sse_text
from .player import CassettePlayer
from .replay import Execution, call_case, replay_model

__all__ = [
    "Derived",
    "frame_blocks",
    "frame_kind",
    "replay_body",
    "replay_broken",
    "stream_interaction",
]


@dataclasses.dataclass(frozen=True)
class Derived:
    """One derived case: its name in messages (``cut after frame 3 of 9 (content_block_delta)``) and
    the body the changed interaction answers with."""

    label: str
    body: bytes


def stream_interaction(case: Case) -> int | None:
    """The index of the case's one SSE response (``None`` when it has none, or several)."""
    found = [
        i for i, item in enumerate(case.cassette.interactions) if "sse" in (item.response.get("body") or {})
    ]
    return found[0] if len(found) == 1 else None


def frame_blocks(case: Case, index: int) -> list[bytes]:
    """The wire bytes of each SSE entry of interaction ``index``, in order (their concatenation is
    the recorded body)."""
    body = case.cassette.interactions[index].response["body"]
    newline = body.get("newline", "\n")
    return [_sse_text([entry], newline).encode("utf-8") for entry in body["sse"]]


def frame_kind(entry: dict[str, Any], key: str | None = "type") -> str | None:
    """What an SSE entry is, for messages and for a provider's ``stream_end`` rule: its JSON data's
    ``key`` field (``"type"``), else its ``event:`` name, else the data itself when it is a string
    (``[DONE]``)."""
    data = entry.get("data")
    if key is not None and isinstance(data, dict) and isinstance(data.get(key), str):
        return str(data[key])
    if key in (None, "event") and isinstance(entry.get("event"), str):
        return str(entry["event"])
    if isinstance(data, str):
        return data
    return None


def _with_body(case: Case, index: int, body: bytes) -> Case:
    interactions = list(case.cassette.interactions)
    old = interactions[index]
    response = {**old.response, "body": {"string": body.decode("utf-8", "replace")}}
    interactions[index] = Interaction(request=old.request, response=response)
    return dataclasses.replace(case, cassette=Cassette(interactions, case.cassette.metadata))


class _Broken(httpx.SyncByteStream, httpx.AsyncByteStream):
    """A body that breaks (``httpx.ReadError``) after ``data``: the connection lost mid-stream."""

    def __init__(self, data: bytes) -> None:
        self._data = data

    def __iter__(self) -> Iterator[bytes]:
        if self._data:
            yield self._data
        raise httpx.ReadError("conformance: the connection broke here")

    async def __aiter__(self) -> AsyncIterator[bytes]:
        if self._data:
            yield self._data
        raise httpx.ReadError("conformance: the connection broke here")


class _BreakingPlayer(CassettePlayer):
    def __init__(self, cassette: Cassette, index: int, data: bytes) -> None:
        super().__init__(cassette)
        self.index, self.data = index, data

    def _response(self, interaction: Interaction) -> httpx.Response:
        response = super()._response(interaction)
        if interaction is not self.cassette.interactions[self.index]:
            return response
        return httpx.Response(response.status_code, headers=response.headers, stream=_Broken(self.data))


def _replay(suite: Suite, case: Case, player: CassettePlayer, run: Execution) -> Execution:
    try:
        model = replay_model(suite, case, player.transport)
        try:
            call_case(model, case, run)
        finally:
            model.close()
    except Exception as error:  # the outcome of a derived case is judged by its check
        run.error = error
    return run


def replay_broken(suite: Suite, case: Case, index: int, data: bytes) -> Execution:
    """Replay ``case`` with interaction ``index`` sending ``data`` and then losing the connection:
    the reference a cut stream's ``partial`` is held to (what the prefix decodes to)."""
    player = _BreakingPlayer(case.cassette, index, data)
    return _replay(suite, case, player, Execution(output={}, player=player))


def replay_body(suite: Suite, case: Case, index: int, body: bytes) -> Execution:
    """Replay ``case`` with interaction ``index`` answering ``body`` instead of its recording."""
    changed = _with_body(case, index, body)
    player = CassettePlayer(changed.cassette)
    return _replay(suite, changed, player, Execution(output={}, player=player))
