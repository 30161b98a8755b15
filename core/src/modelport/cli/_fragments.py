"""Fragments: context put before the prompt, ``generate -f PATH|URL|NAME`` (repeatable), and
``modelport fragments set NAME FILE`` / ``list`` / ``show`` / ``delete`` for stored ones.

``-f`` takes an ``http(s)://`` URL (fetched with httpx: :data:`FETCH_TIMEOUT` seconds, at most
:data:`MAX_FRAGMENT_BYTES`, 5 redirects), an existing file (bounded, UTF-8), else a stored
fragment's name. Each is one text part of the user turn, before the prompt, and is hashed
(:attr:`Fragment.sha256`, of its UTF-8 bytes) so that a log can keep each text once.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from ._files import FileRefused, decoded, read_bounded
from ._home import ensure_home, home, write_private
from ._templates import Refused, checked_name
from .terminal import safe

__all__ = ["FETCH_TIMEOUT", "MAX_FRAGMENT_BYTES", "Fragment", "fragment_option", "fragments_group", "resolve"]

FRAGMENTS_DIR = "fragments"
#: The largest fragment, a file's or a URL's.
MAX_FRAGMENT_BYTES = 8 * 1024**2
#: Seconds a URL has to connect, and between reads.
FETCH_TIMEOUT = 20.0
_HINT = "'-f' / '--fragment'"


@dataclass(frozen=True)
class Fragment:
    """One fragment: where it came from and its text."""

    source: str
    text: str

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()

    def part(self) -> dict[str, Any]:
        """The text part sent before the prompt."""
        return {"type": "text", "text": self.text}

    def logged(self) -> dict[str, str]:
        return {"source": self.source, "sha256": self.sha256}


def fragments_dir() -> Path:
    return home() / FRAGMENTS_DIR


def _stored(name: str) -> Path:
    return fragments_dir() / f"{checked_name(name, 'fragment')}.txt"


def _file_text(path: Path, where: str) -> str:
    try:
        return decoded(read_bounded(path, MAX_FRAGMENT_BYTES))
    except OSError as error:
        raise Refused(f"{where}: {error.strerror or error}") from None
    except FileRefused as error:
        raise Refused(f"{where}: {error}") from None


def fetch(url: str, *, transport: Any = None) -> str:
    """The text at ``url`` (a 2xx answer, at most :data:`MAX_FRAGMENT_BYTES`, decoded by its
    charset, else UTF-8); :class:`Refused` naming the URL otherwise."""
    import httpx

    where = f"fragment {url}"
    try:
        with (
            httpx.Client(
                timeout=FETCH_TIMEOUT, follow_redirects=True, max_redirects=5, transport=transport
            ) as client,
            client.stream("GET", url) as response,
        ):
            if not response.is_success:
                raise Refused(f"{where}: HTTP {response.status_code}")
            data = bytearray()
            for chunk in response.iter_bytes():
                data += chunk
                if len(data) > MAX_FRAGMENT_BYTES:
                    raise Refused(f"{where}: larger than the limit of {MAX_FRAGMENT_BYTES // 1024**2} MiB")
            charset = response.charset_encoding or "utf-8"
    except httpx.TimeoutException:
        raise Refused(f"{where}: no answer within {FETCH_TIMEOUT:g} s") from None
    except httpx.HTTPError as error:
        raise Refused(f"{where}: {type(error).__name__}: {error}") from None
    try:
        return bytes(data).decode(charset)
    except (UnicodeDecodeError, LookupError):
        raise Refused(f"{where}: not {charset} text") from None


def resolve(value: str) -> Fragment:
    """``-f VALUE``: a URL, an existing file, else a stored fragment's name."""
    if value.startswith(("http://", "https://")):
        return Fragment(value, fetch(value))
    path = Path(value).expanduser()
    if os.path.lexists(path):
        return Fragment(value, _file_text(path, f"fragment {value}"))
    try:
        stored = _stored(value)
    except Refused:
        raise Refused(f"fragment {value!r}: not a file, a URL or a stored fragment name") from None
    if not os.path.lexists(stored):
        raise Refused(f"fragment {value!r}: no such file or stored fragment (`modelport fragments list`)")
    return Fragment(value, _file_text(stored, f"fragment {value!r} ({stored})"))


def fragment_option(command: Any) -> Any:
    """``-f`` / ``--fragment`` (repeatable)."""
    return click.option(
        "-f",
        "--fragment",
        "fragments",
        multiple=True,
        metavar="PATH|URL|NAME",
        help="Context put before the prompt: a UTF-8 file, an http(s) URL or a stored fragment "
        "(`modelport fragments`); repeatable.",
    )(command)


# --------------------------------------------------------------------------- the commands


@click.group("fragments")
def fragments_group() -> None:
    """Stored fragments: text `generate -f NAME` puts before the prompt."""


@fragments_group.command("set")
@click.argument("name")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
def set_command(name: str, file: str) -> None:
    """Store the text of FILE (or a URL; `-` reads standard input) as the fragment NAME."""
    target = _stored(name)
    if file == "-":
        import sys

        from ._files import stdin_text

        text = stdin_text(sys.stdin, param_hint="'FILE'", limit=MAX_FRAGMENT_BYTES)
    elif file.startswith(("http://", "https://")):
        text = fetch(file)
    else:
        text = _file_text(Path(file).expanduser(), f"fragment {file}")
    ensure_home()
    write_private(target, text)
    size, digest = len(text.encode("utf-8")), Fragment(name, text).sha256[:12]
    click.echo(f"Saved the fragment {name!r} ({size} bytes, sha256 {digest}).")


def _names() -> list[str]:
    directory = fragments_dir()
    if not directory.is_dir():
        return []
    return sorted(p.stem for p in directory.iterdir() if p.suffix == ".txt")


@fragments_group.command("list")
def list_command() -> None:
    """The stored fragments: name, size, hash and first line."""
    for name in _names():
        try:
            fragment = resolve_stored(name)
        except Refused as error:
            click.echo(safe(f"{name}: (unreadable: {error.message})"))
            continue
        first = next(iter(fragment.text.strip().splitlines()), "")
        first = first if len(first) <= 50 else first[:50] + "..."
        size = len(fragment.text.encode("utf-8"))
        click.echo(safe(f"{name}: {size} bytes, sha256 {fragment.sha256[:12]}: {first}"))


def resolve_stored(name: str) -> Fragment:
    path = _stored(name)
    if not os.path.lexists(path):
        raise Refused(f"no fragment {name!r} (`modelport fragments list` lists them)")
    return Fragment(name, _file_text(path, f"fragment {name!r} ({path})"))


@fragments_group.command("show")
@click.argument("name")
def show_command(name: str) -> None:
    """The text of the fragment NAME."""
    click.echo(safe(resolve_stored(name).text), nl=False)


@fragments_group.command("delete")
@click.argument("name")
def delete_command(name: str) -> None:
    """Delete the fragment NAME."""
    resolve_stored(name)
    _stored(name).unlink()
    click.echo(f"Deleted the fragment {name!r}.")
