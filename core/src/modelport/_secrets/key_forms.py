"""A known key in every form it can take in text, and the pieces of it a split leaves: what
:mod:`modelport.secrets` searches *by value*.

- :func:`encoded_forms`: raw, URL-quoted (some characters or every byte), JSON- and
  ``repr``-escaped, hex (``736b2d…``, ``\\x73\\x6b…``) and base64 at any alignment. Every form but
  base64 matches whatever its letter case (a server that upper- or lower-cases the key echoes it
  still), base64 exactly (its case is its content).
- fragments: a key split across two strings (``"sk-proj-ab" + "cd…"``) leaves a *prefix* of the key
  that ends a string and a *suffix* that starts one. A fragment of at least
  :data:`MIN_FRAGMENT_LENGTH` characters of a key of at least :data:`MIN_SECRET_LENGTH` is found
  when it touches a string boundary: the start or end of the text, a quote (``"``, ``'``,
  `````) or white space on the side where the key was cut. Limits: a piece shorter than
  :data:`MIN_FRAGMENT_LENGTH` is left (5 characters of a key are not a key), so is a piece of only
  letters shorter than :data:`MIN_WORD_FRAGMENT_LENGTH` (it may be a word: a token ``session-…``
  must not take ``session`` out of every message), and so is a middle piece of a key cut in three
  or more.
"""

from __future__ import annotations

import base64
import functools
import json
import re
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple
from urllib.parse import quote, quote_plus

__all__ = [
    "MIN_FRAGMENT_LENGTH",
    "MIN_SECRET_LENGTH",
    "MIN_WORD_FRAGMENT_LENGTH",
    "encoded_forms",
    "present",
    "presence",
    "span",
    "value_finder",
]

#: A known credential shorter than this is removed only in its raw form (its encodings would match
#: ordinary text).
MIN_SECRET_LENGTH = 8
#: The shortest piece of a split key that is found (at a string boundary).
MIN_FRAGMENT_LENGTH = 6
#: A fragment of only letters is found from this length on (a shorter one may be a word).
MIN_WORD_FRAGMENT_LENGTH = 12
#: Characters that end or start a string around a fragment (with the text's own ends).
_BOUNDARY = frozenset("\"'` \t\r\n\f\v")

#: What a finder yields: (kind, start, end).
Finder = Callable[[str], Iterator[tuple[str, int, int]]]
KIND = "known credential"


def encoded_forms(secret: str) -> list[str]:
    """``secret`` as it can appear in text, longest first (see the module's text)."""
    return sorted(_text_forms(secret) + _base64_forms(secret), key=lambda form: (-len(form), form))


@functools.lru_cache(maxsize=256)
def _text_forms(secret: str) -> tuple[str, ...]:
    if not secret:
        return ()
    escaped = json.dumps(secret)[1:-1]
    data = secret.encode("utf-8", "surrogatepass")
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
        forms.update(
            (data.hex(), "".join(f"\\x{byte:02x}" for byte in data), "".join(f"%{byte:02x}" for byte in data))
        )
    return tuple(sorted({f for f in forms if f}))


@functools.lru_cache(maxsize=256)
def _base64_forms(secret: str) -> tuple[str, ...]:
    if len(secret) < MIN_SECRET_LENGTH:
        return ()
    return tuple(sorted(set(_base64_cores(secret.encode("utf-8", "surrogatepass")))))


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


class _Probes(NamedTuple):
    """What is looked for, for one set of secrets: the forms matched in any case (lower-cased), the
    base64 forms (exact), and the first and last :data:`MIN_FRAGMENT_LENGTH` characters of each
    secret long enough to be split (lower-cased)."""

    folded: tuple[str, ...]
    exact: tuple[str, ...]
    heads: tuple[tuple[str, str], ...]  # (probe, secret)
    tails: tuple[tuple[str, str], ...]


@functools.lru_cache(maxsize=64)
def _probes(secrets: tuple[str, ...]) -> _Probes:
    folded: set[str] = set()
    exact: set[str] = set()
    heads, tails = [], []
    for secret in secrets:
        if len(secret) < MIN_SECRET_LENGTH:
            folded.add(secret.lower())
            continue
        folded.update(form.lower() for form in _text_forms(secret))
        exact.update(_base64_forms(secret))
        heads.append((secret[:MIN_FRAGMENT_LENGTH].lower(), secret))
        tails.append((secret[-MIN_FRAGMENT_LENGTH:].lower(), secret))
    return _Probes(tuple(sorted(folded)), tuple(sorted(exact)), tuple(heads), tuple(tails))


def _places(text: str, probe: str) -> Iterator[int]:
    """Every start of ``probe`` in ``text``, overlapping ones too."""
    position = text.find(probe)
    while position >= 0:
        yield position
        position = text.find(probe, position + 1)


def _common(text: str, position: int, secret: str, step: int) -> int:
    """How many characters of ``text`` from ``position`` (forwards, or backwards with ``step=-1``)
    are ``secret``'s from its start (or its end), whatever their case."""
    count, size = 0, len(text)
    index = 0 if step > 0 else len(secret) - 1
    while 0 <= position < size and 0 <= index < len(secret):
        if text[position].lower() != secret[index].lower():
            break
        count += 1
        position += step
        index += step
    return count


def _fragments(text: str, lowered: str, probes: _Probes) -> Iterator[tuple[int, int]]:
    """Prefixes of a secret that end at a string boundary and suffixes that start at one."""
    size, least = len(text), MIN_FRAGMENT_LENGTH
    for probe, secret in probes.heads:
        for start in _places(lowered, probe):
            end = start + _common(text, start, secret, 1)
            if _fragment(text, start, end, secret) and (end == size or text[end] in _BOUNDARY):
                yield start, end
    for probe, secret in probes.tails:
        for start in _places(lowered, probe):
            end = start + least
            begin = end - _common(text, end - 1, secret, -1)
            if _fragment(text, begin, end, secret) and (begin == 0 or text[begin - 1] in _BOUNDARY):
                yield begin, end


def _fragment(text: str, start: int, end: int, secret: str) -> bool:
    """Whether ``text[start:end]`` (a piece of ``secret``, not all of it) counts as a fragment: at
    least :data:`MIN_WORD_FRAGMENT_LENGTH` characters, or one that is not a letter (a piece of only
    letters may be a word: a token ``session-…`` must not take ``session`` out of every message)."""
    size = end - start
    if not MIN_FRAGMENT_LENGTH <= size < len(secret):
        return False
    return size >= MIN_WORD_FRAGMENT_LENGTH or not text[start:end].isalpha()


def _lowered(text: str) -> str:
    """``text`` in lower case, character for character (a character whose lower case is longer,
    such as ``İ``, is kept as it is, so that positions still agree)."""
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(c if len(low := c.lower()) != 1 else low for c in text)


def value_finder(secrets: Iterable[str]) -> Finder:
    """Every form of each of ``secrets`` in a text, and every fragment a split left, as
    ``(KIND, start, end)``."""
    probes = _probes(tuple(sorted({s for s in secrets if s})))

    def found(text: str) -> Iterator[tuple[str, int, int]]:
        if not probes.folded:
            return
        lowered = _lowered(text)
        for form in probes.folded:
            for start in _places(lowered, form):
                yield KIND, start, start + len(form)
        for form in probes.exact:
            for start in _places(text, form):
                yield KIND, start, start + len(form)
        for start, end in _fragments(text, lowered, probes):
            yield KIND, start, end

    return found


#: An escape that can stand for a character of a key (ASCII): ``\u00XX`` below 0x80, ``\/``, an
#: HTML numeric reference. Other escapes (``\n``, ``\"``, ``\u00e9``) never hide a key's character.
_KEY_ESCAPE = re.compile(r"\\u00[0-7][0-9a-fA-F]|\\/|&#")


def present(text: str, secrets: Iterable[str]) -> bool:
    """Whether ``text`` may hold any of ``secrets`` (a form, or a fragment's first or last
    characters), quickly: ``False`` is sure, ``True`` says to look closer (:func:`value_finder`)."""
    return presence(tuple(sorted({s for s in secrets if s})))(text)


class _Quick(NamedTuple):
    """What :func:`presence` looks for: probes in lower case, exact probes (base64), and probes made
    of escapes (looked for only in a text holding a backslash or a ``%``)."""

    lowered: tuple[str, ...]
    exact: tuple[str, ...]
    escaped: tuple[str, ...]


@functools.lru_cache(maxsize=64)
def _quick(secrets: tuple[str, ...]) -> _Quick:
    """The probes of :func:`presence`: every form of the first and of the last
    :data:`MIN_FRAGMENT_LENGTH` characters of each secret (a text holding a form of the whole
    secret, or a fragment, holds one of them: each form but base64 writes character by character),
    and the first 8 characters of each of its base64 forms. A secret holding another is left out
    (whatever holds it holds the other, in every form); a form holding its raw characters is implied
    by them."""
    folded = [s.lower() for s in secrets]
    least = [s for s, f in zip(secrets, folded, strict=True) if not any(o != f and o in f for o in folded)]
    lowered: set[str] = set()
    escaped: set[str] = set()
    exact: set[str] = set()
    for secret in least:
        if len(secret) < MIN_SECRET_LENGTH:
            lowered.add(secret.lower())
            continue
        for end in {secret[:MIN_FRAGMENT_LENGTH], secret[-MIN_FRAGMENT_LENGTH:]}:
            raw, data = end.lower(), end.encode("utf-8", "surrogatepass")
            lowered.update((raw, data.hex()))
            each_byte = ("".join(f"\\x{byte:02x}" for byte in data), "".join(f"%{byte:02x}" for byte in data))
            for form in (*_text_forms(end), *each_byte):
                low = form.lower()
                if raw not in low and ("\\" in low or "%" in low):
                    escaped.add(low)
        exact.update(form[:8] for form in _base64_forms(secret))
    return _Quick(tuple(sorted(lowered)), tuple(sorted(exact)), tuple(sorted(escaped)))


@functools.lru_cache(maxsize=64)
def presence(secrets: tuple[str, ...]) -> Callable[[str], bool]:
    """:func:`present` for one set of secrets, as a function built once (a stream asks at every
    chunk): a few substring searches (:func:`_quick`); a text holding escapes that can stand for a
    key's characters is asked again in its decoded views."""
    from .escapes import views

    lowered_probes, exact_probes, escaped_probes = _quick(secrets)
    search_escape = _KEY_ESCAPE.search

    def holds(text: str) -> bool:
        lowered = text.lower()
        for probe in lowered_probes:
            if probe in lowered:
                return True
        for probe in exact_probes:
            if probe in text:
                return True
        if "\\" in text or "%" in text:
            for probe in escaped_probes:
                if probe in lowered:
                    return True
        if ("\\u00" in text or "\\/" in text or "&#" in text) and search_escape(text):
            return any(holds(view) for view, levels in views(text) if levels)
        return False

    return holds if lowered_probes else _never


def _never(text: str) -> bool:
    return False


@functools.lru_cache(maxsize=64)
def span(secrets: tuple[str, ...]) -> int:
    """The longest text :func:`presence` looks for, for ``secrets``: how much of the text before a
    chunk must be searched with it so that nothing cut between the two is missed (an HTML reference
    of a character is up to 10 characters long, so its 6 characters are 60 at most)."""
    quick = _quick(secrets)
    probes = (*quick.lowered, *quick.exact, *quick.escaped)
    return max(60, *(len(p) for p in probes)) if probes else 0
