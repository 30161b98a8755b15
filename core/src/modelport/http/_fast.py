"""The speed shortcuts of the kit's I/O, behind one entry point (:func:`prepare`).

A request on a client modelport built (no event hooks, no mounts, no proxy, no cookies or params)
skips what httpx would redo for every call: its headers are merged with the client's once per
header set (P2), its :class:`httpx.Request` is assembled with the headers httpx would add given up
front (:func:`assembled`, P2, P4) or not built at all for a transport that sends the parts itself
(aiohttp's session: the ``lean`` parts, P4a), and it goes straight to the client's transport
(``direct``). Every other request takes the general path, ``client.build_request``: the reference
the shortcuts are held equal to (``tests/kit/test_request_building.py``).
"""

from __future__ import annotations

import weakref
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

import httpx

from ._file_body import FileBody

if TYPE_CHECKING:
    from ._clients import HttpClients

__all__ = ["Lean", "Merged", "Plan", "assembled", "client_defaults", "general", "parsed", "prepare"]


@lru_cache(maxsize=256)
def parsed(url: str) -> httpx.URL:
    """The parsed URL (parsing is a good part of building a request; a model calls one or two)."""
    return httpx.URL(url)


_DEFAULTS: weakref.WeakKeyDictionary[Any, dict[tuple[tuple[str, str], ...], Any]] = (
    weakref.WeakKeyDictionary()
)


class Merged(NamedTuple):
    """The client's headers merged with a call's: as httpx keeps them, and as the raw pairs
    :func:`assembled` starts from (``None`` when they hold a header httpx would add itself)."""

    headers: httpx.Headers
    raw: list[tuple[bytes, bytes]] | None


def client_defaults(
    client: httpx.Client | httpx.AsyncClient, headers: dict[str, str]
) -> tuple[Merged, dict[str, Any], dict[str, str]]:
    """The client's headers merged with ``headers`` (as :class:`Merged` and as a plain dict),
    and its timeout, as ``build_request`` makes them.

    Only for the clients modelport creates (nobody else changes their headers or timeout); a few
    entries per client (one per distinct header set: generate, stream, a changed key).
    """
    key = tuple(headers.items())
    per_client = _DEFAULTS.get(client)
    if per_client is None:
        per_client = _DEFAULTS.setdefault(client, {})
    cached = per_client.get(key)
    if cached is None:
        merged = httpx.Headers(client.headers)
        merged.update(headers)
        if len(per_client) >= 16:
            per_client.clear()
        raw = None if _AUTO_HEADERS.intersection(merged.keys()) else merged.raw
        cached = per_client[key] = (Merged(merged, raw), client.timeout.as_dict(), dict(merged.items()))
    return cached  # type: ignore[no-any-return]


#: Headers ``httpx.Request`` fills in itself (or leaves out) when they are given: a request with any
#: of them is built by httpx's own constructor, not by :func:`assembled`.
_AUTO_HEADERS = frozenset({"host", "content-length", "transfer-encoding"})
_BODY_METHODS = ("POST", "PUT", "PATCH")


def assembled(method: str, url: httpx.URL, merged: Merged, body: bytes | None, timeout: Any) -> httpx.Request:
    """``httpx.Request(method, url, content=body, headers=merged.headers, extensions=...)``, the same
    request (headers in the same order), with the headers httpx would add given up front (a third
    of the time: P2, P4).

    httpx adds ``Content-Length`` (at the end, or ``0`` at the front for a body method without a
    body) and ``Host`` (first); given a stream, it adds nothing, and ``read()`` loads the body as
    ``content=`` does. Headers that change what httpx adds take httpx's own constructor.
    """
    if merged.raw is None or not url.host:
        return httpx.Request(
            method, url, content=body, headers=merged.headers, extensions={"timeout": timeout}
        )
    front = [(b"Host", url.netloc)]
    if not body and method in _BODY_METHODS:
        front.append((b"Content-Length", b"0"))
    raw = front + merged.raw
    if body:
        raw.append((b"Content-Length", str(len(body)).encode("ascii")))
    request = httpx.Request(
        method, url, headers=raw, extensions={"timeout": timeout}, stream=httpx.ByteStream(body or b"")
    )
    request.read()
    return request


class Lean(NamedTuple):
    """A request on a client modelport built, as parts: what ``build_request`` would make, from
    cached client defaults (P2), for a transport that sends it without an :class:`httpx.Request`
    (aiohttp's session, P4a)."""

    method: str
    url: httpx.URL
    merged: Merged
    headers: dict[str, str]
    body: bytes | None
    timeout: Any


class Plan(NamedTuple):
    """How one request is sent: ``request`` built now (the general path) or ``lean`` parts, and
    the transport to hand it to directly (``None``: through ``client.send``)."""

    request: httpx.Request | None
    lean: Lean | None
    direct: Any


def general(
    client: httpx.Client | httpx.AsyncClient,
    method: str,
    url: httpx.URL,
    headers: dict[str, str],
    body: bytes | None,
    streamed: FileBody | None = None,
) -> httpx.Request:
    """The request as ``client.build_request`` makes it (a file body streamed as it is sent, its
    length known up front): the reference every shortcut equals."""
    if streamed is None:
        return client.build_request(method, url, content=body, headers=headers)
    headers["content-length"] = str(streamed.size)
    built = client.build_request(method, url, headers=headers)
    return httpx.Request(
        built.method, built.url, headers=built.headers, stream=streamed, extensions=built.extensions
    )


def prepare(
    clients: HttpClients,
    client: httpx.Client | httpx.AsyncClient,
    method: str,
    url: httpx.URL,
    headers: dict[str, str],
    body: bytes | None,
    streamed: FileBody | None,
    flow: bool,
) -> Plan:
    """The one entry point: the shortcuts where they give the same request, else :func:`general`.
    ``flow``: an :class:`httpx.Auth` flow runs for this request (it goes through the client)."""
    built = clients.built(client)
    direct = None if flow or not built else clients.direct(client)
    if streamed is not None or not built or client.cookies or client.params:
        return Plan(general(client, method, url, headers, body, streamed), None, direct)
    merged, timeout, plain = client_defaults(client, headers)
    return Plan(None, Lean(method, url, merged, plain, body, timeout), direct)
