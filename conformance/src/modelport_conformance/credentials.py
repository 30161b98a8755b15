"""Credential scanning and scrubbing for cassettes: nothing that looks like a key is ever kept.

:func:`scan_text` finds credential-looking strings: the key shapes of common providers (Google
``AIza…`` keys and ``ya29.`` OAuth tokens, OpenAI ``sk-``/``sk-proj-``, Anthropic ``sk-ant-``, Groq
``gsk_``, xAI ``xai-``, OpenRouter ``sk-or-``), AWS access key ids, JWTs, bearer tokens, private
keys, ``key=`` in a URL, and a credential header with a real value. A suite adds its own shapes with
``secret_patterns`` (kind → regular expression), passed here as ``extra``. The suite runs the scan
over every file of every case and fails on any finding; the recorder runs it before writing and
refuses to write on any finding. Findings show only a masked excerpt, so a report never repeats a
credential.

:func:`remove_values` removes known credentials *by value* (the key the recorder was given and
every credential header value it saw), also in their URL-quoted and JSON-escaped forms: that catches
a key a server echoes in an error message, which no pattern can know.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from urllib.parse import quote, quote_plus

__all__ = [
    "CREDENTIAL_HEADERS",
    "CREDENTIAL_PLACEHOLDER",
    "CREDENTIAL_QUERY_PARAMS",
    "DROPPED_HEADERS",
    "MIN_SECRET_LENGTH",
    "REDACTED",
    "Finding",
    "header_secrets",
    "redact",
    "remove_values",
    "scan_text",
    "secret_forms",
]

#: Request headers that carry credentials: kept in a cassette by name, with this placeholder value,
#: so that replay can check the adapter still sends them.
CREDENTIAL_HEADERS = frozenset(
    {"authorization", "proxy-authorization", "x-goog-api-key", "x-api-key", "api-key"}
)
#: The value a credential header is stored with.
CREDENTIAL_PLACEHOLDER = "<credential>"
#: Headers never written at all (session state, not part of any mapping).
DROPPED_HEADERS = frozenset({"cookie", "set-cookie"})
#: URL query parameters that carry credentials; removed from recorded URIs.
CREDENTIAL_QUERY_PARAMS = frozenset({"key", "api_key", "apikey", "access_token", "token"})
#: What a credential found in a body, a URL or a kept header value is replaced with.
REDACTED = "REDACTED"
#: A credential shorter than this cannot be removed by value without mangling ordinary text.
MIN_SECRET_LENGTH = 8

_TOKEN = r"[0-9A-Za-z_\-]"
_ALNUM_BEFORE = r"(?<![0-9A-Za-z])"
#: (kind, expression). A named group ``secret`` marks the part to replace; else the whole match.
BUILTIN_PATTERNS: tuple[tuple[str, str], ...] = (
    ("Google API key", rf"(?<!{_TOKEN})AIza{_TOKEN}{{35}}(?!{_TOKEN})"),
    ("Google OAuth access token", r"ya29\.[0-9A-Za-z_\-.]{16,}"),
    ("Anthropic API key", rf"{_ALNUM_BEFORE}sk-ant-{_TOKEN}{{20,}}"),
    ("OpenRouter API key", rf"{_ALNUM_BEFORE}sk-or-{_TOKEN}{{20,}}"),
    ("OpenAI API key", rf"{_ALNUM_BEFORE}sk-(?!ant-|or-){_TOKEN}{{20,}}"),
    ("Groq API key", rf"{_ALNUM_BEFORE}gsk_[0-9A-Za-z]{{20,}}"),
    ("xAI API key", rf"{_ALNUM_BEFORE}xai-[0-9A-Za-z]{{20,}}"),
    ("AWS access key id", r"(?<![0-9A-Za-z])(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Za-z])"),
    ("JSON web token", rf"{_ALNUM_BEFORE}eyJ{_TOKEN}{{8,}}\.{_TOKEN}{{8,}}\.{_TOKEN}*"),
    ("bearer token", r"(?i)\bbearer\s+(?P<secret>[0-9A-Za-z._~+/\-]{16,}=*)"),
    ("private key", r"-----BEGIN [A-Z ]*PRIVATE KEY-----"),
    ("credential in URL", r"[?&](?:key|api_key|apikey|access_token)=(?P<secret>[^&\s'\"]{8,})"),
    (
        "credential header",
        r"(?im)^\s*-?\s*['\"]?(?:x-goog-api-key|authorization|x-api-key|proxy-authorization|api-key)['\"]?"
        rf"\s*:(?![\s\[\-'\"]*{re.escape(CREDENTIAL_PLACEHOLDER)})",
    ),
)
#: Kinds that only flag a place (no value to replace).
_FLAG_ONLY = frozenset({"credential header"})


@dataclass(frozen=True)
class Finding:
    """A credential-looking string: what kind, on which line (0: unknown), and a masked excerpt."""

    kind: str
    line: int
    masked: str

    def describe(self, where: str = "") -> str:
        """``cassette.yaml:12: Google API key (AIza…)``."""
        if not self.line:
            return f"{where or 'text'}: {self.kind} ({self.masked})"
        prefix = f"{where}:" if where else "line "
        return f"{prefix}{self.line}: {self.kind} ({self.masked})"


def mask(text: str) -> str:
    """The first four characters and an ellipsis: enough to recognise, never enough to use."""
    return text[:4] + "…" if len(text) > 4 else "…"


@functools.lru_cache(maxsize=64)
def _compiled(extra: tuple[tuple[str, str], ...]) -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple((kind, re.compile(expression)) for kind, expression in BUILTIN_PATTERNS + extra)


def _patterns(extra: Mapping[str, str] | None) -> tuple[tuple[str, re.Pattern[str]], ...]:
    return _compiled(tuple(sorted((extra or {}).items())))


def scan_text(text: str, extra: Mapping[str, str] | None = None) -> list[Finding]:
    """Every credential-looking string in ``text``, in order of position.

    ``extra`` adds kinds of the suite under test (its ``secret_patterns``).
    """
    found: list[tuple[int, Finding]] = []
    for kind, pattern in _patterns(extra):
        for match in pattern.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.append((match.start(), Finding(kind, line, mask(match.group(0).strip(" -'\"")))))
    return [finding for _, finding in sorted(found, key=lambda item: item[0])]


def _replace(match: re.Match[str]) -> str:
    if "secret" in match.re.groupindex and match.group("secret") is not None:
        whole, start = match.group(0), match.start("secret") - match.start(0)
        return whole[:start] + REDACTED + whole[match.end("secret") - match.start(0) :]
    return REDACTED


def redact(text: str, extra: Mapping[str, str] | None = None) -> str:
    """``text`` with every key/token pattern (and each of ``extra``) replaced by ``REDACTED``."""
    for kind, pattern in _patterns(extra):
        if kind not in _FLAG_ONLY:
            text = pattern.sub(_replace, text)
    return text


def secret_forms(secret: str) -> list[str]:
    """``secret`` as it may appear in a recording: raw, URL-quoted and JSON-escaped; longest first."""
    escaped = json.dumps(secret)[1:-1]
    forms = {
        secret,
        quote(secret, safe=""),
        quote(secret),
        quote_plus(secret),
        escaped,
        json.dumps(secret, ensure_ascii=False)[1:-1],
        quote(escaped, safe=""),
    }
    return sorted(forms, key=lambda form: (-len(form), form))


def remove_values(text: str, secrets: Iterable[str], replacement: str = REDACTED) -> str:
    """``text`` with every form of every secret (at least :data:`MIN_SECRET_LENGTH` long) replaced."""
    forms = {form for secret in secrets if len(secret) >= MIN_SECRET_LENGTH for form in secret_forms(secret)}
    for form in sorted(forms, key=lambda f: (-len(f), f)):
        text = text.replace(form, replacement)
    return text


def header_secrets(value: str) -> list[str]:
    """The credentials in a credential header's value: the value, and its last word (``Bearer <key>``).

    A value that was already scrubbed (it holds the placeholder or ``REDACTED``) holds none.
    """
    value = value.strip()
    if CREDENTIAL_PLACEHOLDER in value or REDACTED in value:  # already scrubbed
        return []
    words = value.split()
    candidates = [value, words[-1]] if words else []
    return [c for c in dict.fromkeys(candidates) if len(c) >= MIN_SECRET_LENGTH]
