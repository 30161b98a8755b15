"""Credentials in text: the one table of key shapes, the encoded forms of a known key, and how both
are found and replaced.

Two ways find a credential:

- *by value*: a key the caller knows (the one sent, every credential header value), in each form it
  can take in text (:func:`encoded_forms`: raw, URL-quoted, JSON- and ``repr``-escaped, base64 at
  any alignment) and also behind any mix of JSON escapes (``\\/``, ``\\uXXXX``, several levels
  deep): the text is decoded the way a JSON reader would decode it, searched, and each match is
  replaced at its place in the original text;
- *by shape*: :data:`PATTERNS` (credential shapes of no one provider: bearer tokens, JWTs, private
  keys, ``key=`` in a URL, a credential header with a value), the key shapes each loaded plugin
  declares (``Provider.secret_patterns``, through :func:`declare`), plus a suite's own
  ``secret_patterns``, also searched through the same decoding.

The core's error scrubbing (:func:`modelport.errors.scrub`) and the conformance suite's recorder and
scan both use this module, so an error message, a cassette and a scan agree on what a secret is.
"""

from __future__ import annotations

import base64
import bisect
import functools
import json
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, NamedTuple
from urllib.parse import quote, quote_plus

__all__ = [
    "CREDENTIAL_HEADER",
    "CREDENTIAL_HEADERS",
    "MAX_DATA_DEPTH",
    "MIN_SECRET_LENGTH",
    "PATTERNS",
    "SecretMatch",
    "all_patterns",
    "credential_headers",
    "declare",
    "encoded_forms",
    "find",
    "redact",
    "redact_data",
]

#: Request headers whose values are credentials on any HTTP API. A plugin declares the headers of
#: its own API as data (``Provider.credential_headers``, e.g. Google's ``x-goog-api-key``); see
#: :func:`credential_headers` for both.
CREDENTIAL_HEADERS = frozenset({"authorization", "proxy-authorization", "x-api-key", "api-key"})
#: A known credential shorter than this is removed only in its raw form (its encodings would match
#: ordinary text).
MIN_SECRET_LENGTH = 8

_ALNUM_BEFORE = r"(?<![0-9A-Za-z])"
_TOKEN = r"[0-9A-Za-z_\-]"
#: (kind, expression): the credential shapes of no one provider. A named group ``secret`` marks the
#: part to replace (else the whole match). Flags are scoped (``(?i:…)``), never global, so that the
#: table also compiles as one alternation. A plugin declares its providers' key shapes as data
#: (``Provider.secret_patterns``, e.g. Google's ``AIza…`` keys); :func:`all_patterns` gives all.
PATTERNS: tuple[tuple[str, str], ...] = (
    ("AWS access key id", r"(?<![0-9A-Za-z])(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Za-z])"),
    ("JSON web token", rf"{_ALNUM_BEFORE}eyJ{_TOKEN}{{8,}}\.{_TOKEN}{{8,}}\.{_TOKEN}*"),
    ("bearer token", r"\b(?i:bearer)\s+(?P<secret>[0-9A-Za-z._~+/\-]{16,}=*)"),
    ("private key", r"-----BEGIN [A-Z ]*PRIVATE KEY-----"),
    ("credential in URL", r"[?&](?i:key|api_key|apikey|access_token)=(?P<secret>[^&\s'\"\\]{8,})"),
)
#: The kind that flags a credential header holding a value (no value to replace).
CREDENTIAL_HEADER = "credential header"
#: Kinds that only flag a place (no value to replace).
FLAG_ONLY = frozenset({CREDENTIAL_HEADER})


def _header_pattern(headers: Iterable[str]) -> str:
    names = "|".join(re.escape(name) for name in sorted(headers))
    return rf"(?m:^)\s*-?\s*['\"]?(?i:{names})['\"]?\s*:(?![\s\[\-'\"]*<credential>)"


class _Table(NamedTuple):
    """The shapes every search uses: :data:`PATTERNS`, the plugins' declared ones and the credential
    header flag, with a prefilter that tells at once whether a text can hold any of them."""

    patterns: tuple[tuple[str, str], ...]
    headers: frozenset[str]
    any: re.Pattern[str]


def _table(declared: tuple[tuple[str, str], ...], headers: frozenset[str]) -> _Table:
    table = PATTERNS + declared + ((CREDENTIAL_HEADER, _header_pattern(headers)),)
    prefilter = re.compile("|".join(f"(?:{e.replace('(?P<secret>', '(?:')})" for _, e in table))
    return _Table(table, headers, prefilter)


_declare_lock = threading.Lock()
_current = _table((), CREDENTIAL_HEADERS)


def declare(patterns: Mapping[str, str] | None = None, headers: Iterable[str] = ()) -> None:
    """Add a plugin's key shapes (kind → regular expression, as :data:`PATTERNS`) and credential
    header names to those every search and scrub uses from now on.

    The core calls this for each :class:`~modelport.provider.Provider` class as it is defined, with
    its ``secret_patterns`` and ``credential_headers``, so the shapes of every loaded plugin are
    known to error scrubbing; declaring the same again changes nothing. An expression that does not
    compile is a :class:`ValueError` naming its kind.
    """
    global _current
    items = tuple((str(kind), expression) for kind, expression in (patterns or {}).items())
    for kind, expression in items:
        try:
            re.compile(expression)
        except (re.error, TypeError) as error:
            raise ValueError(f"secret pattern {kind!r} is not a valid regular expression: {error}") from None
    names = frozenset(name.lower() for name in headers)
    with _declare_lock:
        known = _current
        new = tuple(item for item in dict.fromkeys(items) if item not in known.patterns)
        if new or not names <= known.headers:
            declared = known.patterns[len(PATTERNS) : -1] + new
            _current = _table(declared, known.headers | names)


def all_patterns() -> tuple[tuple[str, str], ...]:
    """Every key shape searched for: :data:`PATTERNS`, those the loaded plugins declared, and the
    credential header flag (over :func:`credential_headers`)."""
    return _current.patterns


def credential_headers() -> frozenset[str]:
    """:data:`CREDENTIAL_HEADERS` and the credential headers the loaded plugins declared."""
    return _current.headers


class SecretMatch(NamedTuple):
    """A credential found in a text: its kind, and where it is in that text (``end`` exclusive)."""

    kind: str
    start: int
    end: int


# Encoded forms of a known value --------------------------------------------------------------------


def encoded_forms(secret: str) -> list[str]:
    """``secret`` as it can appear in text, longest first: raw, URL-quoted, JSON-escaped (``\\/`` and
    ``\\uXXXX`` alike), ``repr``-escaped and base64 (standard and URL-safe, at each of the three
    alignments a value can take inside a longer encoded text). Mixed JSON escapes are found by
    :func:`find` and :func:`redact` through decoding, not by listing them.
    """
    return list(_forms(secret))


@functools.lru_cache(maxsize=256)
def _forms(secret: str) -> tuple[str, ...]:
    if not secret:
        return ()
    escaped = json.dumps(secret)[1:-1]
    forms = {
        secret,
        quote(secret, safe=""),
        quote(secret),
        quote_plus(secret),
        escaped,
        escaped.replace("/", "\\/"),
        json.dumps(secret, ensure_ascii=False)[1:-1],
        "".join(f"\\u{ord(c):04x}" for c in secret),
        "".join(f"\\u{ord(c):04X}" for c in secret),
        quote(escaped, safe=""),
        repr(secret)[1:-1],
        repr(secret.encode("utf-8", "backslashreplace"))[2:-1],
    }
    if len(secret) >= MIN_SECRET_LENGTH:
        forms.update(_base64_cores(secret.encode("utf-8", "surrogatepass")))
    return tuple(sorted((f for f in forms if f), key=lambda form: (-len(form), form)))


def _base64_cores(data: bytes) -> Iterator[str]:
    """The part of the base64 text of any data holding ``data`` that does not depend on its
    neighbours, for each of the three byte offsets ``data`` can start at."""
    for offset in range(3):
        encoded = base64.b64encode(bytes(offset) + data)
        start = 4 if offset else 0  # the first group mixes in the unknown bytes before
        stop = ((offset + len(data)) // 3) * 4  # the last full group holds only ``data``'s bytes
        core = encoded[start:stop].decode("ascii")
        if len(core) >= MIN_SECRET_LENGTH:
            yield core
            yield core.replace("+", "-").replace("/", "_")


@functools.lru_cache(maxsize=64)
def _values_pattern(secrets: tuple[str, ...]) -> re.Pattern[str] | None:
    forms = {
        form
        for secret in secrets
        for form in (_forms(secret) if len(secret) >= MIN_SECRET_LENGTH else (secret,))
    }
    if not forms:
        return None
    return re.compile("|".join(re.escape(form) for form in sorted(forms, key=lambda f: (-len(f), f))))


# Key shapes --------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=64)
def _shapes(
    table: tuple[tuple[str, str], ...], extra: tuple[tuple[str, str], ...]
) -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple((kind, re.compile(expression)) for kind, expression in table + extra)


def _shape_finder(extra: Mapping[str, str] | None, *, flags: bool) -> Callable[[str], Iterator[SecretMatch]]:
    """Matches of the key shapes: whole, with the flag-only kinds (``flags``, to report), or only the
    part to replace (to redact)."""
    table = _current
    shapes = _shapes(table.patterns, tuple(sorted((extra or {}).items())))

    def found(text: str) -> Iterator[SecretMatch]:
        if not extra and not table.any.search(text):
            return
        for kind, pattern in shapes:
            if kind in FLAG_ONLY and not flags:
                continue
            for match in pattern.finditer(text):
                group = (
                    "secret"
                    if not flags and match.re.groupindex.get("secret") and match.group("secret")
                    else 0
                )
                if match.end(group) > match.start(group) or kind in FLAG_ONLY:
                    yield SecretMatch(kind, match.start(group), match.end(group))

    return found


# Through JSON escapes ----------------------------------------------------------------------------

_ESCAPE = re.compile(r"\\(?:u[0-9a-fA-F]{4}|[\"\\/bfnrt])")
_SIMPLE = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
#: How many levels of JSON-in-a-JSON-string are decoded.
_LEVELS = 4


class _Level(NamedTuple):
    """One level of JSON escapes decoded: the text, and where its escapes were (to map back)."""

    text: str
    decoded_at: list[int]  # where each escape's character is in ``text``
    raw_at: list[int]  # where that escape starts in the level above
    shift: list[int]  # characters removed up to and including that escape

    def raw(self, position: int) -> int:
        """Where the character at ``position`` of ``text`` starts in the level above."""
        index = bisect.bisect_right(self.decoded_at, position) - 1
        if index < 0:
            return position
        if self.decoded_at[index] == position:
            return self.raw_at[index]
        return position + self.shift[index]


def _unescaped(text: str) -> _Level:
    """``text`` with one level of JSON escapes decoded (memory in proportion to the escapes only)."""
    pieces: list[str] = []
    decoded_at: list[int] = []
    raw_at: list[int] = []
    shift: list[int] = []
    position = removed = 0
    for match in _ESCAPE.finditer(text):
        escape = match.group()
        pieces += [text[position : match.start()]]
        pieces += [chr(int(escape[2:], 16)) if escape[1] == "u" else _SIMPLE.get(escape[1], escape[1])]
        decoded_at.append(match.start() - removed)
        raw_at.append(match.start())
        removed += len(escape) - 1
        shift.append(removed)
        position = match.end()
    pieces.append(text[position:])
    return _Level("".join(pieces), decoded_at, raw_at, shift)


def _views(text: str) -> Iterator[tuple[str, list[_Level]]]:
    """``text`` itself, then each deeper level of its JSON escapes decoded, with the levels that map
    a position back into ``text``."""
    yield text, []
    levels: list[_Level] = []
    current = text
    for _ in range(_LEVELS):
        if "\\" not in current:
            return
        level = _unescaped(current)
        if not level.decoded_at:
            return
        levels = [*levels, level]
        current = level.text
        yield current, levels


def _matches(text: str, finders: Iterable[Callable[[str], Iterator[SecretMatch]]]) -> list[SecretMatch]:
    """Every match of every finder in ``text`` or any decoded view of it, as places in ``text``."""
    finders = list(finders)
    found: dict[tuple[int, int], str] = {}
    for view, levels in _views(text):
        for finder in finders:
            for kind, start, end in finder(view):
                for level in reversed(levels):
                    start, end = level.raw(start), level.raw(end)
                found.setdefault((start, end), kind)
    return [SecretMatch(kind, start, end) for (start, end), kind in sorted(found.items())]


def _value_finder(secrets: Iterable[str]) -> Callable[[str], Iterator[SecretMatch]]:
    pattern = _values_pattern(tuple(sorted({s for s in secrets if s})))

    def found(text: str) -> Iterator[SecretMatch]:
        if pattern is not None:
            for match in pattern.finditer(text):
                yield SecretMatch("known credential", match.start(), match.end())

    return found


# Public faces ------------------------------------------------------------------------------------


def find(
    text: str, secrets: Iterable[str] = (), *, patterns: Mapping[str, str] | None = None
) -> list[SecretMatch]:
    """Every credential in ``text``: each of ``secrets`` in any encoded form (kind
    ``"known credential"``), and each key shape of :func:`all_patterns` and ``patterns`` (a suite's
    kind → regular expression; the whole match), also behind JSON escapes; in order of position."""
    return _matches(text, (_value_finder(secrets), _shape_finder(patterns, flags=True)))


def redact(
    text: str,
    secrets: Iterable[str] = (),
    *,
    patterns: Mapping[str, str] | None = None,
    shapes: bool = True,
    replacement: str = "[REDACTED]",
) -> str:
    """``text`` with each of ``secrets`` (in any encoded form, also behind JSON escapes) and, unless
    ``shapes=False``, every key shape of :func:`all_patterns` and ``patterns`` replaced."""
    finders = [_value_finder(secrets)]
    if shapes:
        finders.append(_shape_finder(patterns, flags=False))
    for _ in range(_LEVELS):  # a replacement can join the pieces of a shape split by an escape
        spans = _merged(_matches(text, finders))
        if not spans:
            return text
        pieces, position = [], 0
        for start, end in spans:
            pieces += [text[position:start], replacement]
            position = end
        text = "".join(pieces) + text[position:]
    return text


def _merged(matches: list[SecretMatch]) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    for _, start, end in matches:
        if end <= start:
            continue
        if spans and start <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(spans[-1][1], end))
        else:
            spans.append((start, end))
    return spans


#: Deeper than this, :func:`redact_data` replaces a value whole (nothing decoded is that deep).
MAX_DATA_DEPTH = 128


def redact_data(value: Any, secrets: Iterable[str] = (), *, _depth: int = 0, **options: Any) -> Any:
    """``value`` (decoded JSON: dicts, lists, strings) with :func:`redact` applied to every string,
    keys included; other values as they are; a container nested deeper than
    :data:`MAX_DATA_DEPTH` is replaced by ``options``' replacement whole."""
    secrets = tuple(secrets)
    if isinstance(value, str):
        return redact(value, secrets, **options)
    if isinstance(value, (dict, list, tuple)) and _depth >= MAX_DATA_DEPTH:
        return options.get("replacement", "[REDACTED]")
    if isinstance(value, dict):
        return {
            redact_data(k, secrets, _depth=_depth + 1, **options): redact_data(
                v, secrets, _depth=_depth + 1, **options
            )
            for k, v in value.items()
        }
    if isinstance(value, (list, tuple)):
        return type(value)(redact_data(item, secrets, _depth=_depth + 1, **options) for item in value)
    return value
