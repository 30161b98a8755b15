"""Credential scanning and scrubbing for cassettes: nothing that looks like a key is ever kept.

:func:`scan_text` finds credential-looking strings: the well-known key shapes of the big providers
(:data:`WELL_KNOWN_PATTERNS`: OpenAI ``sk-``/``sk-proj-``, Anthropic ``sk-ant-``, OpenRouter
``sk-or-v1-``, Groq ``gsk_``, xAI ``xai-``, Google ``AIza…`` keys and ``ya29.`` OAuth tokens), which
belong to the scanner and are found whatever plugins are installed (a gateway that takes OpenAI
keys is recorded without the OpenAI plugin); the key shapes every installed plugin declares for its
providers (``Provider.secret_patterns``; the registry is asked, which loads every plugin); the
core's generic shapes (AWS access key ids, JWTs, bearer tokens, private keys, ``key=`` in a URL)
and a credential header (generic or declared by a plugin, e.g. ``x-goog-api-key``) with a real
value. A suite adds its own shapes with ``secret_patterns`` (kind → regular expression), passed
here as ``extra``. The suite runs the scan over every file of every case and fails on any finding;
the recorder runs it before writing and refuses to write on any finding. Findings show only a
masked excerpt, so a report never repeats a credential.

:func:`remove_values` removes known credentials *by value* (the key the recorder was given and
every credential header value it saw), in every encoded form of :mod:`modelport.secrets` (in any
letter case, hex and HTML character references included) and behind any mix of JSON escapes, with
each piece a split left at a string boundary: that catches a key a server echoes in an error
message, which no pattern can know. :func:`scan_text` given those values finds them the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from modelport import plugins
from modelport.secrets import (
    CREDENTIAL_HEADERS,
    MIN_SECRET_LENGTH,
    PATTERNS,
    all_patterns,
    encoded_forms,
    find,
)
from modelport.secrets import credential_headers as _declared_headers
from modelport.secrets import redact as _redact

__all__ = [
    "BUILTIN_PATTERNS",
    "WELL_KNOWN_PATTERNS",
    "CREDENTIAL_HEADERS",
    "CREDENTIAL_PLACEHOLDER",
    "CREDENTIAL_QUERY_PARAMS",
    "DROPPED_HEADERS",
    "MIN_SECRET_LENGTH",
    "REDACTED",
    "Finding",
    "credential_headers",
    "header_secrets",
    "redact",
    "remove_values",
    "scan_text",
    "secret_forms",
]

#: Credential request headers (:func:`credential_headers`) are kept in a cassette by name with this
#: value, so that replay can check the adapter still sends them.
CREDENTIAL_PLACEHOLDER = "<credential>"
#: Headers never written at all (session state, not part of any mapping).
DROPPED_HEADERS = frozenset({"cookie", "set-cookie"})
#: URL query parameters that carry credentials; removed from recorded URIs.
CREDENTIAL_QUERY_PARAMS = frozenset({"key", "api_key", "apikey", "access_token", "token"})
#: What a credential found in a body, a URL or a kept header value is replaced with.
REDACTED = "REDACTED"
#: (kind, expression): the core's generic key shapes (:data:`modelport.secrets.PATTERNS`); the
#: plugins' own shapes and :data:`WELL_KNOWN_PATTERNS` are added to every scan.
BUILTIN_PATTERNS = PATTERNS
#: Kind → expression: the key shapes of the big providers, searched by every scan and scrub of this
#: package whatever plugins are installed. A plugin declaring one of them too changes nothing.
WELL_KNOWN_PATTERNS: dict[str, str] = {
    "OpenAI API key": r"(?<![0-9A-Za-z])sk-(?!ant-|or-)[0-9A-Za-z_\-]{20,}",
    "Anthropic API key": r"(?<![0-9A-Za-z])sk-ant-[0-9A-Za-z_\-]{20,}",
    "OpenRouter API key": r"(?<![0-9A-Za-z])sk-or-[0-9A-Za-z_\-]{20,}",
    "Groq API key": r"(?<![0-9A-Za-z])gsk_[0-9A-Za-z]{20,}",
    "xAI API key": r"(?<![0-9A-Za-z])xai-[0-9A-Za-z]{20,}",
    "Google API key": r"(?<![0-9A-Za-z_\-])AIza[0-9A-Za-z_\-]{35}(?![0-9A-Za-z_\-])",
    "Google OAuth access token": r"ya29\.[0-9A-Za-z_\-.]{16,}",
}
#: The kind a finding of a known credential's value is reported as.
KNOWN_CREDENTIAL = "the recording's credential"


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


def _declared_by_every_plugin() -> None:
    """Ask the registry for every provider: loading a plugin declares its providers' key shapes and
    credential headers (:func:`modelport.secrets.declare`), which every scan and scrub then uses."""
    plugins.providers()


def credential_headers() -> frozenset[str]:
    """The request headers whose values are credentials: the core's generic ones
    (:data:`CREDENTIAL_HEADERS`) and those every installed plugin declares (``x-goog-api-key``)."""
    _declared_by_every_plugin()
    return _declared_headers()


def mask(text: str) -> str:
    """The first four characters and an ellipsis: enough to recognise, never enough to use."""
    return text[:4] + "…" if len(text) > 4 else "…"


def scan_text(
    text: str, extra: Mapping[str, str] | None = None, secrets: Iterable[str] = ()
) -> list[Finding]:
    """Every credential-looking string in ``text``, in order of position, also behind JSON escapes.

    ``extra`` adds kinds of the suite under test (its ``secret_patterns``); ``secrets`` are known
    credentials (at least :data:`MIN_SECRET_LENGTH` long), found in any encoded form whatever their
    shape (a key with ``/``, 32 hex digits, 40 plain characters).
    """
    known = [s for s in secrets if len(s) >= MIN_SECRET_LENGTH]
    _declared_by_every_plugin()
    found = []
    for kind, start, end in find(text, known, patterns=_with_well_known(extra)):
        line = text.count("\n", 0, start) + 1
        kind = KNOWN_CREDENTIAL if kind == "known credential" else kind
        found.append(Finding(kind, line, mask(text[start:end].strip(" -'\""))))
    return found


def redact(text: str, extra: Mapping[str, str] | None = None) -> str:
    """``text`` with every key/token pattern (the well-known ones, and each of ``extra``) replaced
    by ``REDACTED``."""
    _declared_by_every_plugin()
    return _redact(text, patterns=_with_well_known(extra), replacement=REDACTED)


def _with_well_known(extra: Mapping[str, str] | None) -> dict[str, str]:
    """:data:`WELL_KNOWN_PATTERNS` with ``extra`` (a suite's shapes) and without those an installed
    plugin declares the same (searched already), so no shape is searched twice."""
    declared = set(all_patterns())
    merged = {k: v for k, v in WELL_KNOWN_PATTERNS.items() if (k, v) not in declared}
    return {**merged, **(extra or {})}


def secret_forms(secret: str) -> list[str]:
    """``secret`` as it may appear in a recording (:func:`modelport.secrets.encoded_forms`)."""
    return encoded_forms(secret)


def remove_values(text: str, secrets: Iterable[str], replacement: str = REDACTED) -> str:
    """``text`` with every form of every secret (at least :data:`MIN_SECRET_LENGTH` long) replaced,
    also behind any mix of JSON escapes."""
    known = [s for s in secrets if len(s) >= MIN_SECRET_LENGTH]
    return _redact(text, known, shapes=False, replacement=replacement) if known else text


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
