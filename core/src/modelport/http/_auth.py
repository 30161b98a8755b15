"""Credentials in headers: a check that a value can be sent, and the one-header ``httpx.Auth``.

Public through :mod:`modelport.http`.
"""

from __future__ import annotations

import re
from collections.abc import Generator

import httpx

from ..errors import ConfigurationError

__all__ = ["HeaderAuth", "check_header_value"]


_HEADER_SAFE = re.compile(r"[\x21-\x7e]+(?: +[\x21-\x7e]+)*")


def check_header_value(value: str, what: str) -> str:
    """``value`` if it can be sent in an HTTP header, else a ``ConfigurationError`` that names the
    offending character and its position, never the value (copy-paste debris such as a non-breaking
    or zero-width space, or a newline, is the usual cause)."""
    if _HEADER_SAFE.fullmatch(value):
        return value
    for position, char in enumerate(value):
        if not ("\x21" <= char <= "\x7e" or (char == " " and 0 < position < len(value) - 1)):
            raise ConfigurationError(
                f"the {what} contains U+{ord(char):04X} at position {position}, which cannot be sent "
                "in an HTTP header (often copy-paste debris: a non-breaking or zero-width space, a newline)"
            )
    raise ConfigurationError(f"the {what} is empty")


class HeaderAuth(httpx.Auth):
    """Puts a credential in one header: ``authorization: Bearer <key>`` by default."""

    def __init__(self, header: str, value: str) -> None:
        self.header = header
        self.value = value

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        request.headers[self.header] = self.value
        yield request

    def __repr__(self) -> str:
        return f"HeaderAuth({self.header!r}, '**********')"
