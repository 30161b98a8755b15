"""What the kit keeps of a response is scrubbed by value first: a parsed body (a generation, a batch
object, a token count, any ``call_json``), the raw body of :class:`~modelport.http.HttpResponse`,
and every frame of a stream or a JSON Lines body. So a key a server echoes in a successful answer
(in text, ``provider_metadata``, an id, a batch's ``errors``) reaches no result, event, saved job or
log: each of the exchange's credentials (:meth:`Exchange.kept_secrets`) in every form
:mod:`modelport.secrets` knows, in any letter case, and each piece of it a split left at a string
boundary, is replaced by ``[REDACTED]``.

Most answers hold none, and they are told apart by a few substring searches
(:func:`modelport._secrets.key_forms.presence`); only one that may hold a key is searched closely and
rebuilt. A stream is asked at every chunk, with the end of the chunk before (a key cut between two
chunks); once a chunk may hold a key, every frame from then on is scrubbed (a frame can take several
chunks to complete).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from .._secrets.key_forms import presence, span
from ..secrets import MIN_SECRET_LENGTH, redact, redact_data

__all__ = ["kept_content", "kept_data", "kept_frames"]


class Exchange(Protocol):
    """What is read of the exchange (:class:`._exchange.Exchange`): the credentials it sent."""

    def kept_secrets(self) -> list[str]: ...


class _Check:
    """The exchange's credentials (long enough to search for), how a text is told to hold none, and
    how a body's bytes are read for it (byte for byte, unless a credential is not ASCII)."""

    __slots__ = ("decode", "holds", "overlap", "secrets")

    def __init__(self, secrets: tuple[str, ...]) -> None:
        self.secrets = secrets
        self.holds = presence(secrets)
        self.overlap = span(secrets)
        self.decode: Callable[[bytes], str] = _latin1 if all(s.isascii() for s in secrets) else _replaced


def _latin1(data: bytes) -> str:
    return data.decode("latin-1")


def _replaced(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def _check(exchange: Exchange) -> _Check | None:
    return _checked(tuple(exchange.kept_secrets()))


@functools.lru_cache(maxsize=64)
def _checked(secrets: tuple[str, ...]) -> _Check | None:
    """The :class:`_Check` of one exchange's credentials (the same for every call of a model)."""
    known = tuple(sorted({s for s in secrets if len(s) >= MIN_SECRET_LENGTH}))
    return _Check(known) if known else None


def kept_data(exchange: Exchange, data: Any, body: bytes) -> Any:
    """``data`` (parsed from ``body``) with every credential of the exchange replaced."""
    check = _check(exchange)
    if check is None or not check.holds(check.decode(body)):
        return data
    return redact_data(data, check.secrets, shapes=False)


def kept_content(exchange: Exchange, body: bytes) -> bytes:
    """The raw ``body`` with every credential of the exchange replaced (its bytes otherwise kept)."""
    check = _check(exchange)
    if check is None or not check.holds(check.decode(body)):
        return body
    text = body.decode("utf-8", "surrogateescape")
    return redact(text, check.secrets, shapes=False).encode("utf-8", "surrogateescape")


class _Frames:
    """A parser's ``chunk → frames`` and ``close()``, with every frame scrubbed once a chunk (read
    with the end of the one before) may hold a credential."""

    __slots__ = ("check", "closing", "found", "frames", "tail")

    def __init__(
        self,
        check: _Check,
        frames: Callable[[bytes], Iterable[Any]],
        closing: Callable[[], Iterable[Any]],
    ) -> None:
        self.check, self.frames, self.closing = check, frames, closing
        self.tail, self.found = "", False

    def feed(self, chunk: bytes) -> Iterable[Any]:
        if not self.found:
            check = self.check
            window = self.tail + check.decode(chunk)
            if not check.holds(window):
                self.tail = window[-check.overlap :]
                return self.frames(chunk)
            self.found = True
        return self._scrubbed(self.frames(chunk))

    def close(self) -> Iterable[Any]:
        """The frames the parser still held (their bytes were searched with the chunks they came in)."""
        return self._scrubbed(self.closing()) if self.found else self.closing()

    def _scrubbed(self, frames: Iterable[Any]) -> Iterable[Any]:
        secrets = self.check.secrets
        return (redact_data(frame, secrets, shapes=False) for frame in frames)


def kept_frames(
    exchange: Exchange, frames: Callable[[bytes], Iterable[Any]], closing: Callable[[], Iterable[Any]]
) -> tuple[Callable[[bytes], Iterable[Any]], Callable[[], Iterable[Any]]]:
    """A parser's ``frames`` (chunk → parsed frames) and ``closing`` (the frames it still held at
    the end), with every frame scrubbed once a chunk may hold a credential of the exchange."""
    check = _check(exchange)
    if check is None:
        return frames, closing
    kept = _Frames(check, frames, closing)
    return kept.feed, kept.close
