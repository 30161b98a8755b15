"""The thin I/O: POST a JSON body, or read an SSE stream of JSON frames, sync or async.

Everything else (bodies, decoding, errors) is pure and shared. The HTTP status is checked before any
SSE parsing, because Google sends errors as plain JSON even on ``text/event-stream``. SSE lines are
split from bytes and decoded as strict UTF-8 here (httpx would replace invalid bytes silently), then
fed to ``httpx-sse``'s decoder. A bare JSON error object in the middle of a stream (seen on Vertex)
ends the stream with the typed error it describes.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
from httpx_sse._decoders import SSEDecoder

from modelport.errors import (
    ProviderError,
    ProviderOverloadedError,
    ProviderResponseError,
    StreamInterruptedError,
    scrub,
)

from ._backends import Endpoint
from ._errors import error_from_response
from ._json import strict_loads

__all__ = ["FrameParser", "apost_json", "astream_frames", "post_json", "stream_frames"]


def _secret_free(text: str, endpoint: Endpoint) -> str:
    return scrub(text, endpoint.secrets)


def _http_error(response: httpx.Response, body: bytes, endpoint: Endpoint, provider: str) -> ProviderError:
    clean = _secret_free(body.decode("utf-8", errors="replace"), endpoint)
    return error_from_response(response.status_code, response.headers, clean, provider=provider)


def _describe(error: httpx.HTTPError, endpoint: Endpoint) -> str:
    # httpx messages can quote a header value (the key), so they are scrubbed, and the httpx
    # exception itself is never chained onto ours.
    return f"{type(error).__name__}: {_secret_free(str(error), endpoint)}"


def _connect_error(error: httpx.HTTPError, endpoint: Endpoint, provider: str) -> ProviderError:
    # Nothing was received: the provider was unreachable or too slow; safe to retry.
    return ProviderOverloadedError(f"request failed: {_describe(error, endpoint)}", provider=provider)


def _parse_json(data: bytes | str, endpoint: Endpoint, provider: str, what: str) -> Any:
    try:
        return strict_loads(data)
    except ValueError as error:
        head = data[:2000]
        text = head.decode("utf-8", errors="replace") if isinstance(head, bytes) else head
        # A JSONDecodeError's text is its reason and position, never the document itself.
        raise ProviderResponseError(
            f"{what} is not valid JSON: {error}",
            provider=provider,
            body=_secret_free(text, endpoint),
        ) from None


def _headers(endpoint: Endpoint, **extra: str) -> dict[str, str]:
    return {**endpoint.headers, "content-type": "application/json", **extra}


def post_json(client: httpx.Client, endpoint: Endpoint, method: str, body: bytes, provider: str) -> Any:
    """POST the encoded JSON ``body`` to ``{model}:{method}`` and return the parsed JSON answer."""
    try:
        response = client.post(endpoint.url(method), content=body, headers=_headers(endpoint))
    except httpx.HTTPError as error:
        raise _connect_error(error, endpoint, provider) from None
    if response.status_code >= 300:
        raise _http_error(response, response.content, endpoint, provider)
    return _parse_json(response.content, endpoint, provider, "the response body")


async def apost_json(
    client: httpx.AsyncClient, endpoint: Endpoint, method: str, body: bytes, provider: str
) -> Any:
    """Async twin of :func:`post_json`."""
    try:
        response = await client.post(endpoint.url(method), content=body, headers=_headers(endpoint))
    except httpx.HTTPError as error:
        raise _connect_error(error, endpoint, provider) from None
    if response.status_code >= 300:
        raise _http_error(response, response.content, endpoint, provider)
    return _parse_json(response.content, endpoint, provider, "the response body")


class FrameParser:
    """Bytes of an SSE body → parsed JSON frames; an error object becomes a typed error."""

    def __init__(self, endpoint: Endpoint, provider: str) -> None:
        self._endpoint = endpoint
        self._provider = provider
        self._buffer = bytearray()
        self._decoder = SSEDecoder()
        self._bare: list[str] | None = None  # lines of a bare JSON body (an error object)
        self._first_line = True
        self.frames = 0

    def feed(self, chunk: bytes) -> Iterator[Any]:
        """Frames completed by ``chunk``, each yielded as soon as it is parsed (so a fault later in
        the same chunk cannot hide the frames before it)."""
        self._buffer += chunk
        start = 0
        try:
            while True:
                end = self._buffer.find(b"\n", start)
                if end < 0:
                    break
                frames: list[Any] = []
                self._line(bytes(self._buffer[start:end]), frames)
                start = end + 1
                yield from frames
        finally:
            del self._buffer[:start]

    def close(self) -> list[Any]:
        """Frames left at the end of the body; raises the error of a trailing bare JSON object."""
        frames: list[Any] = []
        if self._buffer:
            self._line(bytes(self._buffer), frames)
            self._buffer.clear()
        self._event(self._decoder.decode(""), frames)
        if self._bare is not None:
            self._raise_bare("\n".join(self._bare))
        return frames

    def _line(self, raw: bytes, frames: list[Any]) -> None:
        try:
            line = raw.decode("utf-8").rstrip("\r")
        except UnicodeDecodeError as error:
            raise ProviderResponseError(
                f"stream is not valid UTF-8: {error}", provider=self._provider
            ) from None
        if self._first_line:
            self._first_line = False
            if line.startswith("\ufeff"):  # the SSE spec strips one leading byte-order mark
                line = line[1:]
        if self._bare is not None:
            self._bare.append(line)
            return
        if line.startswith(("{", "[")):
            self._bare = [line]
            return
        self._event(self._decoder.decode(line), frames)

    def _event(self, event: Any, frames: list[Any]) -> None:
        if event is None or not event.data:
            return
        frame = _parse_json(event.data, self._endpoint, self._provider, "a stream frame")
        if isinstance(frame, dict) and isinstance(frame.get("error"), dict):
            self._raise_error(frame, event.data)
        self.frames += 1
        frames.append(frame)

    def _raise_bare(self, text: str) -> None:
        frame = _parse_json(text, self._endpoint, self._provider, "a stream frame")
        if isinstance(frame, list) and len(frame) == 1:
            frame = frame[0]
        if isinstance(frame, dict) and isinstance(frame.get("error"), dict):
            self._raise_error(frame, text)
        raise ProviderResponseError(
            "unexpected JSON in the event stream",
            provider=self._provider,
            body=_secret_free(text, self._endpoint),
        )

    def _raise_error(self, frame: dict[str, Any], text: str) -> None:
        code = frame["error"].get("code")
        status = code if isinstance(code, int) and not isinstance(code, bool) else 500
        raise error_from_response(status, {}, _secret_free(text, self._endpoint), provider=self._provider)


def _interrupted(
    error: httpx.HTTPError, parser: FrameParser, endpoint: Endpoint, provider: str
) -> ProviderError:
    if parser.frames == 0:
        return _connect_error(error, endpoint, provider)
    return StreamInterruptedError(f"the stream broke: {_describe(error, endpoint)}", provider=provider)


def stream_frames(client: httpx.Client, endpoint: Endpoint, body: bytes, provider: str) -> Iterator[Any]:
    """POST to ``:streamGenerateContent?alt=sse`` and yield each parsed frame."""
    parser = FrameParser(endpoint, provider)
    headers = _headers(endpoint, accept="text/event-stream")
    try:
        with client.stream(
            "POST", endpoint.url("streamGenerateContent", sse=True), content=body, headers=headers
        ) as response:
            if response.status_code >= 300:
                raise _http_error(response, response.read(), endpoint, provider)
            for chunk in response.iter_bytes():
                yield from parser.feed(chunk)
            yield from parser.close()
    except httpx.HTTPError as error:
        raise _interrupted(error, parser, endpoint, provider) from None


async def astream_frames(
    client: httpx.AsyncClient, endpoint: Endpoint, body: bytes, provider: str
) -> AsyncIterator[Any]:
    """Async twin of :func:`stream_frames`."""
    parser = FrameParser(endpoint, provider)
    headers = _headers(endpoint, accept="text/event-stream")
    try:
        async with client.stream(
            "POST", endpoint.url("streamGenerateContent", sse=True), content=body, headers=headers
        ) as response:
            if response.status_code >= 300:
                raise _http_error(response, await response.aread(), endpoint, provider)
            async for chunk in response.aiter_bytes():
                for frame in parser.feed(chunk):
                    yield frame
            for frame in parser.close():
                yield frame
    except httpx.HTTPError as error:
        raise _interrupted(error, parser, endpoint, provider) from None
