"""Credentials in text: the one table of key shapes, the encoded forms of a known key, and how both
are found and replaced.

Two ways find a credential:

- *by value*: a key the caller knows (the one sent, every credential header value), in each form it
  can take in text (:func:`encoded_forms`: raw, URL-quoted, JSON- and ``repr``-escaped, hex, base64
  at any alignment), whatever its letter case (base64 excepted), each piece of it a split left at a
  string boundary (:mod:`modelport._secrets.key_forms` says which), and also behind any mix of JSON escapes
  (``\\/``, ``\\uXXXX``, several levels deep) and HTML numeric character references
  (``&#115;``, ``&#x73;``): the text is decoded the way a JSON or HTML reader would decode it,
  searched, and each match is replaced at its place in the original text;
- *by shape*: :data:`PATTERNS` (credential shapes of no one provider: bearer tokens, JWTs, private
  keys, ``key=`` in a URL, a credential header with a value), the key shapes each loaded plugin
  declares (``Provider.secret_patterns``, through :func:`declare`), plus a caller's own
  ``patterns`` (the conformance scanner's well-known key shapes, a suite's ``secret_patterns``),
  also searched through the same decoding. Shapes match as the providers issue keys (their case).

The core's error scrubbing (:func:`modelport.errors.scrub`) and the conformance suite's recorder and
scan both use this module, so an error message, a cassette and a scan agree on what a secret is.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, NamedTuple

from ._secrets.escapes import LEVELS, views
from ._secrets.key_forms import MIN_FRAGMENT_LENGTH, MIN_SECRET_LENGTH, encoded_forms, present, value_finder

__all__ = [
    "CREDENTIAL_HEADER",
    "CREDENTIAL_HEADERS",
    "MAX_DATA_DEPTH",
    "MIN_FRAGMENT_LENGTH",
    "MIN_SECRET_LENGTH",
    "PATTERNS",
    "SecretMatch",
    "all_patterns",
    "credential_headers",
    "declare",
    "encoded_forms",
    "find",
    "holds",
    "redact",
    "redact_data",
]

#: Request headers whose values are credentials on any HTTP API. A plugin declares the headers of
#: its own API as data (``Provider.credential_headers``, e.g. Google's ``x-goog-api-key``); see
#: :func:`credential_headers` for both.
CREDENTIAL_HEADERS = frozenset({"authorization", "proxy-authorization", "x-api-key", "api-key"})

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


# Through escapes ----------------------------------------------------------------------------------


_Finder = Callable[[str], Iterator[tuple[str, int, int]]]


def _matches(text: str, finders: Iterable[_Finder]) -> list[SecretMatch]:
    """Every match of every finder in ``text`` or any decoded view of it, as places in ``text``."""
    finders = list(finders)
    found: dict[tuple[int, int], str] = {}
    for view, levels in views(text):
        for finder in finders:
            for kind, start, end in finder(view):
                for level in reversed(levels):
                    start, end = level.raw(start), level.raw(end)
                found.setdefault((start, end), kind)
    return [SecretMatch(kind, start, end) for (start, end), kind in sorted(found.items())]


# Public faces ------------------------------------------------------------------------------------


def find(
    text: str, secrets: Iterable[str] = (), *, patterns: Mapping[str, str] | None = None
) -> list[SecretMatch]:
    """Every credential in ``text``: each of ``secrets`` in any encoded form (kind
    ``"known credential"``), and each key shape of :func:`all_patterns` and ``patterns`` (a suite's
    kind → regular expression; the whole match), also behind JSON escapes; in order of position."""
    return _matches(text, (value_finder(secrets), _shape_finder(patterns, flags=True)))


def holds(text: str, secrets: Iterable[str]) -> bool:
    """Whether ``text`` holds any of ``secrets`` (in any form :func:`find` knows, or a fragment of
    one), shapes aside: the quick test before anything kept from a response is scrubbed (most texts
    are answered by a few substring searches)."""
    secrets = tuple(secrets)
    return present(text, secrets) and bool(_matches(text, [value_finder(secrets)]))


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
    finders: list[_Finder] = [value_finder(secrets)]
    if shapes:
        finders.append(_shape_finder(patterns, flags=False))
    for _ in range(LEVELS):  # a replacement can join the pieces of a shape split by an escape
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
        items = [redact_data(item, secrets, _depth=_depth + 1, **options) for item in value]
        if type(value) is list:
            return items
        make = getattr(type(value), "_make", None)  # a named tuple takes its fields one by one
        return make(items) if make is not None else type(value)(items)
    return value
