"""Credential scanning and scrubbing for cassettes: nothing that looks like a key is ever kept.

:func:`scan_text` finds credential-looking strings (a Google API key ``AIza`` + 35 characters, an
OAuth ``ya29.`` token, a bearer token, a private key, ``key=`` in a URL, a credential header);
the suite runs it over every file of every case and fails the run on any finding. Findings show
only a masked excerpt, so the report itself never repeats the credential.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["CREDENTIAL_HEADERS", "CREDENTIAL_QUERY_PARAMS", "Finding", "redact", "scan_text"]

#: Request headers that carry credentials; never written to a cassette.
CREDENTIAL_HEADERS = frozenset(
    {"x-goog-api-key", "authorization", "proxy-authorization", "x-api-key", "api-key", "cookie", "set-cookie"}
)

#: URL query parameters that carry credentials; removed from recorded URIs.
CREDENTIAL_QUERY_PARAMS = frozenset({"key", "api_key", "apikey", "access_token", "token"})

_TOKEN_CHARS = r"[0-9A-Za-z_\-]"
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("Google API key", re.compile(rf"(?<!{_TOKEN_CHARS})AIza{_TOKEN_CHARS}{{35}}(?!{_TOKEN_CHARS})")),
    ("Google OAuth access token", re.compile(r"ya29\.[0-9A-Za-z_\-.]{16,}")),
    ("bearer token", re.compile(r"(?i)\bbearer\s+[0-9A-Za-z._~+/\-]{16,}=*")),
    ("private key", re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----")),
    ("credential in URL", re.compile(r"[?&](?:key|api_key|apikey|access_token)=[^&\s'\"]{8,}")),
    (
        "credential header",
        re.compile(
            r"(?im)^\s*-?\s*['\"]?(?:x-goog-api-key|authorization|x-api-key|proxy-authorization)['\"]?\s*:"
        ),
    ),
)


@dataclass(frozen=True)
class Finding:
    """A credential-looking string: what kind, on which line, and a masked excerpt."""

    kind: str
    line: int
    masked: str

    def describe(self, where: str = "") -> str:
        """``cassette.yaml:12: Google API key (AIza…)``."""
        prefix = f"{where}:" if where else "line "
        return f"{prefix}{self.line}: {self.kind} ({self.masked})"


def _mask(text: str) -> str:
    return text[:4] + "…" if len(text) > 4 else "…"


def scan_text(text: str) -> list[Finding]:
    """Every credential-looking string in ``text``, in order of position."""
    found: list[tuple[int, Finding]] = []
    for kind, pattern in _PATTERNS:
        for match in pattern.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.append((match.start(), Finding(kind, line, _mask(match.group(0).strip(" -'\"")))))
    return [finding for _, finding in sorted(found, key=lambda item: item[0])]


def redact(text: str) -> str:
    """``text`` with every key/token pattern replaced by ``REDACTED`` (used while recording)."""
    for kind, pattern in _PATTERNS:
        if kind == "credential header":
            continue
        text = pattern.sub("REDACTED", text)
    return text
