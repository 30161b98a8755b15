"""Bounded reading of a response body's content-encoding (gzip and deflate inflated by the core,
64 KiB at a time, so a size bound stops a bomb just past it)."""

from __future__ import annotations

from collections.abc import Iterator

import httpx

__all__ = ["Inflater", "encoding_of", "inflated_encoding", "pieces"]


class Inflater:
    """Decodes a body's content-encoding in bounded pieces.

    httpx inflates each network chunk in one go, so a 64 KiB gzip chunk can become gigabytes before
    any size check sees it; here gzip and deflate are inflated at most 64 KiB at a time, so a bound
    stops a bomb after inflating just past it. Other encodings (br, zstd) are left to httpx.
    """

    __slots__ = ("_zlib",)

    def __init__(self, encoding: str) -> None:
        import zlib

        wbits = 16 + zlib.MAX_WBITS if encoding in ("gzip", "x-gzip") else zlib.MAX_WBITS
        self._zlib = zlib.decompressobj(wbits)

    def feed(self, data: bytes) -> Iterator[bytes]:
        import zlib

        try:
            piece = self._zlib.decompress(data, _PIECE)
            yield piece
            while self._zlib.unconsumed_tail:
                yield self._zlib.decompress(self._zlib.unconsumed_tail, _PIECE)
        except zlib.error as error:
            raise httpx.DecodingError(str(error)) from None


_PIECE = 64 * 1024


def encoding_of(response: httpx.Response) -> str | None:
    """The content-encoding we inflate ourselves (``gzip``/``deflate``), else ``None``."""
    return inflated_encoding(response.headers.get("content-encoding", ""))


def inflated_encoding(value: str) -> str | None:
    encoding = value.strip().lower()
    return encoding if encoding in ("gzip", "x-gzip", "deflate") else None


def pieces(response: httpx.Response) -> Iterator[bytes]:
    # A body already in memory (mock transports) has nothing left to inflate. A body with no
    # content-encoding is its raw chunks (no decoder and chunker layer a chunk); other encodings
    # than gzip and deflate are httpx's to decode.
    if response.is_stream_consumed:
        return response.iter_bytes()
    if "content-encoding" not in response.headers:
        return response.iter_raw()
    encoding = encoding_of(response)
    if encoding is None:
        return response.iter_bytes()
    return _inflated(response, Inflater(encoding))


def _inflated(response: httpx.Response, inflater: Inflater) -> Iterator[bytes]:
    for raw in response.iter_raw():
        yield from inflater.feed(raw)
