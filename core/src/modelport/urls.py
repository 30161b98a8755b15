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
"""

from __future__ import annotations

from urllib.parse import urlsplit

from .errors import ConfigurationError, InvalidRequestError

__all__ = ["check_base_url", "check_resource_name", "resource_name_problem"]

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
