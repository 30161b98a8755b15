"""A request body streamed from a file as it is sent (:class:`FileBody`, public in ``modelport.http``)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from typing import BinaryIO

import httpx

from ..errors import InvalidRequestError

__all__ = ["FileBody"]

#: How much of the file is read at a time: what one upload holds in memory.
CHUNK_BYTES = 1024 * 1024


class FileBody(httpx.SyncByteStream, httpx.AsyncByteStream):
    """The first ``size`` bytes of the file at ``path``, read chunk by chunk while the request is sent,
    so an upload never holds the file in memory. Sync and async calls read the same object; each
    send opens the file anew (a followed redirect sends it again).

    A file that has become shorter than ``size`` by the time it is sent is an
    :class:`~modelport.errors.InvalidRequestError` (the length was announced already).
    """

    def __init__(self, path: str | os.PathLike[str], size: int) -> None:
        self.path = os.fspath(path)
        self.size = size

    def __repr__(self) -> str:
        return f"FileBody({self.path!r}, size={self.size})"

    def _chunk(self, handle: BinaryIO, left: int) -> bytes:
        chunk = handle.read(min(CHUNK_BYTES, left))
        if not chunk:
            raise InvalidRequestError(
                f"{self.path!r} became shorter than {self.size} bytes while it was sent"
            )
        return chunk

    def __iter__(self) -> Iterator[bytes]:
        with open(self.path, "rb") as handle:
            left = self.size
            while left > 0:
                chunk = self._chunk(handle, left)
                left -= len(chunk)
                yield chunk

    async def __aiter__(self) -> AsyncIterator[bytes]:
        import asyncio  # only async uploads need it

        handle = await asyncio.to_thread(open, self.path, "rb")
        try:
            left = self.size
            while left > 0:
                chunk = await asyncio.to_thread(self._chunk, handle, left)
                left -= len(chunk)
                yield chunk
        finally:
            handle.close()
