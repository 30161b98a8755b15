"""What may go into a request URL, checked in one place for the core and every plugin.

- :func:`check_base_url`: a provider's base URL, wherever it comes from (``base_url=``, an
  environment variable such as ``OPENAI_BASE_URL``, a preset's default), is an ``http(s)://`` URL
  with a host and no query, fragment, whitespace or control character. A bad one is a
  :class:`~modelport.errors.ConfigurationError` naming where it came from, never showing it (it may
  carry ``user:password``).
- :func:`check_resource_name`: a name that becomes part of a URL path (a model, a file, a cached
  content) cannot leave that path: no empty, ``.`` or ``..`` segment, no query, fragment, percent,
  backslash, whitespace, control or format character. A bad one is an
  :class:`~modelport.errors.InvalidRequestError`, before any I/O.
- :func:`credential_url`: where a request that carries the provider's credentials may go (the kit
  applies it to every request, as it applies the redirect rule to every answer). A relative path is
  joined to the API root (the base URL) and may not hold a ``.`` or ``..`` segment, plain or
  percent-encoded (``%2e``); an absolute URL (one a response named, or a restored job kept) must be
  on the API root's origin (scheme, host, port) or on an origin the plugin lists in
  ``HttpProvider.credential_origins``. Anything else is an :class:`~modelport.errors.InvalidRequestError`,
  before any I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import unquote, urlsplit

import httpx

from ..errors import ConfigurationError, InvalidRequestError

__all__ = [
    "check_base_url",
    "check_resource_name",
    "credential_url",
    "dot_segment",
    "origin_of",
    "origin_allowed",
    "resource_name_problem",
]

#: Characters a resource name cannot contain: they would end the path (query, fragment), escape it
#: (percent-encoding, backslash) or change its meaning once in a URL.
_NOT_IN_NAMES = frozenset("?#%\\")


def check_base_url(url: str, *, source: str = "base_url") -> str:
    """``url`` without its trailing slashes, once checked; ``source`` names where it came from
    (``"base_url"``, ``"OPENAI_BASE_URL"``...) in the error."""
    bad = next((c for c in url if c.isspace() or not c.isprintable()), None)
    if bad is not None:
        raise ConfigurationError(f"{source} cannot contain {bad!r} (whitespace or control characters)")
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        parts, host = None, None
    # The URL is not shown: it may carry user:password.
    if parts is None or parts.scheme.lower() not in ("http", "https") or not host:
        scheme = parts.scheme[:20] if parts is not None and parts.scheme else "none"
        raise ConfigurationError(
            f"{source} must be an http:// or https:// URL with a host (scheme: {scheme!r})"
        )
    if parts.query or parts.fragment or "?" in url or "#" in url:
        raise ConfigurationError(f"{source} cannot have a query or fragment ('?' or '#')")
    return url.rstrip("/")


def resource_name_problem(name: str, *, what: str = "a resource name") -> str | None:
    """Why ``name`` cannot be ``what`` in a URL path, or ``None``; slashes between segments are allowed
    (``tunedModels/x``, ``files/abc``)."""
    for char in name:
        if char in _NOT_IN_NAMES or char.isspace() or not char.isprintable():
            return (
                f"{what} cannot contain {char!r} "
                "(no query, fragment, percent, backslash, whitespace or control characters)"
            )
    if any(segment in ("", ".", "..") for segment in name.split("/")):
        return f"{what} cannot have an empty, '.' or '..' path segment"
    return None


def check_resource_name(name: object, *, what: str = "a resource name") -> str:
    """``name`` once checked (see :func:`resource_name_problem`); else an ``InvalidRequestError``."""
    if not isinstance(name, str) or not name:
        raise InvalidRequestError(f"{what} must be a non-empty string")
    problem = resource_name_problem(name, what=what)
    if problem is not None:
        shown = repr(name) if len(name) <= 200 else repr(name[:200]) + "..."
        raise InvalidRequestError(f"{shown}: {problem}")
    return name


# Where credentials may go -------------------------------------------------------------------------

#: An absolute URL: a scheme, then ``://`` (anything else is a path under the API root).
_ABSOLUTE = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*://")
_DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_of(url: str) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` of an absolute ``url`` as httpx sends it (the default port filled
    in), or ``None`` when it is no ``http(s)`` URL with a host."""
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError, ValueError):
        return None
    scheme = parsed.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parsed.host:
        return None
    return scheme, parsed.host.lower(), parsed.port or _DEFAULT_PORTS[scheme]


def origin_allowed(origin: tuple[str, str, int], allowed: Sequence[str]) -> bool:
    """Whether ``origin`` is one of ``allowed``: origins such as ``"https://storage.googleapis.com"``,
    where ``*`` in the host stands for one DNS label or part of one (``"https://*-aiplatform.googleapis.com"``)."""
    scheme, host, port = origin
    for entry in allowed:
        pattern = origin_of(entry.replace("*", "wildcard"))
        if pattern is None or pattern[0] != scheme or pattern[2] != port:
            continue
        regex = "^" + re.escape(pattern[1]).replace("wildcard", "[a-z0-9-]+") + "$"
        if re.match(regex, host):
            return True
    return False


def dot_segment(path: str) -> bool:
    """Whether a URL path (no query) has a ``.`` or ``..`` segment, plain or percent-encoded
    (``%2e``), also between backslashes (which some servers read as slashes)."""
    if "." not in path and "%" not in path:
        return False
    decoded = unquote(path) if "%" in path else path
    return any(segment in (".", "..") for segment in decoded.replace("\\", "/").split("/"))


def credential_url(url: str, base_url: str | None, *, allowed: Sequence[str] = (), name: str = "") -> str:
    """The absolute URL a request for ``url`` goes to with the provider's credentials (see the
    module doc), else an :class:`~modelport.errors.InvalidRequestError` naming only origins.
    ``base_url`` is the API root (checked, no trailing slash); ``name`` the provider, in errors."""
    prefix = f"{name}: " if name else ""
    if _ABSOLUTE.match(url) is None:
        if base_url is None:
            raise ConfigurationError(f"{prefix}no base URL")
        path = url.partition("?")[0].partition("#")[0]
        if dot_segment(path):
            raise InvalidRequestError(
                f"{prefix}refused a request path with a '.' or '..' segment: it would leave the API root"
            )
        return base_url + ("" if url.startswith("/") else "/") + url
    try:
        parts = urlsplit(url)
    except ValueError:  # a malformed IPv6 host
        raise InvalidRequestError(f"{prefix}refused a request URL that does not parse") from None
    if dot_segment(parts.path):
        raise InvalidRequestError(f"{prefix}refused a request URL with a '.' or '..' path segment")
    if base_url is not None:
        root = urlsplit(base_url)
        if url.startswith(f"{root.scheme}://{root.netloc}/"):  # the API root's own authority
            return url
    target = origin_of(url)
    if target is None:
        raise InvalidRequestError(f"{prefix}refused a request URL that is no http(s) URL with a host")
    if "@" in parts.netloc or "\\" in parts.netloc:  # parsers disagree on the host of such URLs
        raise InvalidRequestError(f"{prefix}refused a request URL with user information in its host part")
    if (base_url is not None and target == origin_of(base_url)) or origin_allowed(target, allowed):
        return url
    where = f"{target[0]}://{target[1]}:{target[2]}"
    raise InvalidRequestError(
        f"{prefix}refused to send credentials to {where}: not the API root's origin "
        "(nor one the provider allows)"
    )
