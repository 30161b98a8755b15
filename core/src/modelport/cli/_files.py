"""Every file the command reads from a path it is given, bounded: a regular file only (a FIFO would
block forever, ``/dev/zero`` would be read until memory runs out), at most a size limit, and, for
text, UTF-8; JSON is parsed by :func:`modelport.wire.loads` (nesting bounded, never a
``RecursionError``). Each refusal is one line naming the file (docs/cli.md, "Files the command
reads").

:func:`user_bytes`, :func:`user_text` and :func:`user_json` are for the command's own arguments
(``-a``, ``--schema``, ``--cassette``, ``batch submit FILE``...): a refusal is a
:class:`click.BadParameter` for the option named. :func:`read_bounded` is the same read for the
command's own files (settings, keys, caches): a refusal is a :class:`FileRefused` (a ``ValueError``).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import click

__all__ = [
    "MAX_BATCH_FILE_BYTES",
    "MAX_FILE_BYTES",
    "FileRefused",
    "check_user_file",
    "LineRefused",
    "NotText",
    "read_bounded",
    "stdin_line",
    "stdin_text",
    "user_bytes",
    "user_json",
    "user_text",
]

#: The largest file read from a path: an attachment, a schema, a cassette, the command's own files.
MAX_FILE_BYTES = 32 * 1024**2
#: The largest ``batch submit`` input file (OpenAI's own limit for a batch input file is 200 MB).
MAX_BATCH_FILE_BYTES = 200 * 1024**2

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class FileRefused(ValueError):
    """A file that is not read: not a regular file, too large, not UTF-8 or not JSON (the message
    says which, in one line, without the file's name)."""


def _kind(mode: int) -> str | None:
    """Why a file of ``mode`` is not read (``None``: a regular file)."""
    if stat.S_ISREG(mode):
        return None
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def _size(size: int) -> str:
    return f"{size / 1024**2:g} MiB" if size >= 1024**2 else f"{size} bytes"


def _checked(status: os.stat_result, limit: int) -> None:
    kind = _kind(status.st_mode)
    if kind is not None:
        raise FileRefused(f"{kind}, not a regular file")
    if status.st_size > limit:
        raise FileRefused(f"larger than the limit of {_size(limit)}")


def _why(error: OSError) -> str:
    return str(error.strerror or error)


def read_bounded(path: Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them; :class:`FileRefused`
    otherwise, ``OSError`` when it cannot be opened (``FileNotFoundError`` when it does not exist).

    The file is looked at before it is opened and again once open (it is opened without blocking,
    so a FIFO put in its place meanwhile is refused too), and never more than ``limit`` + 1 bytes
    are read, whatever it grows to.
    """
    _checked(os.stat(path), limit)
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    with os.fdopen(descriptor, "rb") as file:
        _checked(os.fstat(descriptor), limit)
        data = file.read(limit + 1)
    if len(data) > limit:
        raise FileRefused(f"larger than the limit of {_size(limit)}")
    return data


def decoded(data: bytes) -> str:
    """``data`` as UTF-8 text (a leading byte-order mark dropped); :class:`FileRefused` otherwise."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise FileRefused(
            f"not UTF-8 text (byte 0x{data[error.start]:02x} at offset {error.start})"
        ) from None


def parsed(text: str) -> Any:
    """``text`` as one JSON document, by :func:`modelport.wire.loads`; :class:`FileRefused` otherwise."""
    from modelport.wire import loads

    try:
        return loads(text)
    except ValueError as error:
        why = str(error).split("\n", 1)[0] or type(error).__name__
        raise FileRefused(f"not JSON: {why}") from None


def _refused(value: str | Path, why: str, param_hint: str) -> click.BadParameter:
    from .terminal import safe

    return click.BadParameter(safe(f"{value}: {why}").replace("\n", " "), param_hint=param_hint)


def check_user_file(value: str | Path, *, param_hint: str, limit: int = MAX_FILE_BYTES) -> Path:
    """``value`` as a path, once checked to be an existing regular file within ``limit`` (for a file
    another package reads, e.g. a cassette)."""
    path = Path(value).expanduser()
    try:
        _checked(os.stat(path), limit)
    except OSError as error:
        raise _refused(value, _why(error), param_hint) from None
    except FileRefused as error:
        raise _refused(value, str(error), param_hint) from None
    return path


def user_bytes(value: str | Path, *, param_hint: str, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the file a command was given (see :func:`read_bounded`); a refusal is a
    :class:`click.BadParameter` for ``param_hint``, naming the file."""
    try:
        return read_bounded(Path(value).expanduser(), limit)
    except OSError as error:
        raise _refused(value, _why(error), param_hint) from None
    except FileRefused as error:
        raise _refused(value, str(error), param_hint) from None


def user_text(value: str | Path, *, param_hint: str, limit: int = MAX_FILE_BYTES) -> str:
    """:func:`user_bytes` as UTF-8 text."""
    data = user_bytes(value, param_hint=param_hint, limit=limit)
    try:
        return decoded(data)
    except FileRefused as error:
        raise _refused(value, str(error), param_hint) from None


def user_json(value: str | Path, *, param_hint: str, limit: int = MAX_FILE_BYTES) -> Any:
    """:func:`user_text` parsed as one JSON document (nesting bounded, :func:`modelport.wire.loads`)."""
    text = user_text(value, param_hint=param_hint, limit=limit)
    try:
        return parsed(text)
    except FileRefused as error:
        raise _refused(value, str(error), param_hint) from None


def stdin_text(stream: Any, *, param_hint: str, limit: int = MAX_FILE_BYTES) -> str:
    """What is piped to standard input, as text: at most ``limit`` characters (more is refused, so
    ``< /dev/zero`` ends), and UTF-8 (a byte that is not is refused, not a ``UnicodeDecodeError``)."""
    try:
        text = str(stream.read(limit + 1))
    except UnicodeDecodeError as error:
        raise click.BadParameter(
            f"standard input is not UTF-8 text (byte 0x{error.object[error.start]:02x})",
            param_hint=param_hint,
        ) from None
    if len(text) > limit:
        raise click.BadParameter(
            f"standard input is larger than the limit of {_size(limit)}", param_hint=param_hint
        )
    return text


class LineRefused(ValueError):
    """A line of standard input that is not kept, being longer than the bound (the message says so,
    in one line). The rest of that line has been read and dropped: the next line can be read."""


class NotText(LineRefused):
    """Standard input that is not UTF-8 text: nothing after it can be read as lines."""


#: How much of an over-long line is read (and dropped) at a time.
_SKIP_CHARS = 64 * 1024


def stdin_line(stream: Any, *, limit: int = MAX_FILE_BYTES) -> str | None:
    """The next line of ``stream`` without its line end; ``None`` at the end of input.

    At most ``limit`` + 1 characters are read at once: a longer line (a paste of hundreds of MB,
    ``< /dev/zero``) is read on to its end :data:`_SKIP_CHARS` at a time and dropped, never held,
    and refused with a :class:`LineRefused`; input that is not UTF-8 is a :class:`NotText`.
    """
    try:
        line = str(stream.readline(limit + 1))
        if not line:
            return None
        if len(line) > limit and not line.endswith("\n"):
            while (rest := str(stream.readline(_SKIP_CHARS))) and not rest.endswith("\n"):
                pass
            raise LineRefused(f"the line is larger than the limit of {_size(limit)}; it is not sent")
    except UnicodeDecodeError as error:
        raise NotText(f"standard input is not UTF-8 text (byte 0x{error.object[error.start]:02x})") from None
    return line.removesuffix("\n").removesuffix("\r")
