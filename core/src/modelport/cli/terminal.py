"""Terminal helpers for the ``modelport`` command and the subcommands plugins contribute.

- :func:`safe` strips every terminal control sequence (newline and tab stay), shows invisible
  format characters as escapes (:func:`visible`) and scrubs credentials: text from a provider, a
  plugin, a case or a cassette never reaches the terminal raw.
- :class:`Spinner` and :class:`ProgressBar` draw on standard error, and only when it is a terminal
  (:func:`is_terminal`); piped, they write nothing, so logs and redirected output stay clean.

Drawn by hand (no ``rich``): one line, redrawn with a carriage return, erased when done.
"""

from __future__ import annotations

import os
import re
import shutil
import threading
from types import TracebackType
from typing import IO, Any

__all__ = ["INVISIBLE", "ProgressBar", "Spinner", "is_terminal", "json_text", "safe", "visible"]

#: Erase the current line: carriage return, then "erase to end of line".
CLEAR_LINE = "\r\x1b[K"


#: Characters that reorder or hide text on a terminal: the bidirectional controls (embeddings,
#: overrides, isolates, marks: "Trojan Source" reordering), zero-width and invisible characters
#: (zero-width space, word joiner, invisible operators, BOM, Mongolian vowel separator) and the
#: invisible tag characters. Zero-width (non-)joiners stay: scripts and emoji sequences need them.
INVISIBLE = re.compile(
    "[\u061c\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\U000e0000-\U000e007f]"
)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def visible(text: str) -> str:
    """``text`` with each :data:`INVISIBLE` character shown as its escape (``\\u202e``), so that a
    model's answer can neither reorder nor hide what the terminal shows, and stays readable."""
    return INVISIBLE.sub(_escape, text)


def safe(text: str) -> str:
    """``text`` stripped of every terminal control sequence (newline and tab stay), its invisible
    format characters made visible (:func:`visible`), then scrubbed of credentials: provider text
    never reaches the terminal raw, on a TTY or piped."""
    from modelport.citations import strip_control_sequences
    from modelport.errors import scrub

    return scrub(visible(strip_control_sequences(text)))


def json_text(payload: Any) -> str:
    """``payload`` as JSON whose text holds no control character: JSON escapes 7-bit controls itself;
    DEL and 8-bit controls (one-byte CSI/OSC introducers) and :data:`INVISIBLE` characters are
    escaped here as ``\\u00XX``."""
    import json

    text = json.dumps(payload, indent=2, ensure_ascii=False)
    text = re.sub(r"[\x7f-\x9f]", lambda m: f"\\u{ord(m.group()):04x}", text)
    return INVISIBLE.sub(lambda m: json.dumps(m.group())[1:-1], text)  # astral: a surrogate pair


def is_terminal(stream: IO[str] | None) -> bool:
    """Whether ``stream`` is an interactive terminal that can redraw a line (a spinner or a progress
    bar may be drawn): not when piped, and not on ``TERM=dumb``."""
    if os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if isatty is not None else False
    except (OSError, ValueError):  # a closed or detached stream
        return False


def _width(stream: IO[str]) -> int:
    return max(20, shutil.get_terminal_size((80, 24)).columns - 1)


class Spinner:
    """A spinner on ``stream`` while waiting (e.g. for a model's first token); nothing unless enabled.

    ``with Spinner(stream, "waiting for gemini-2.5-flash", enabled=is_terminal(stream)) as spinner:``
    then ``spinner.stop()`` before the first byte of the answer is written (idempotent; leaving the
    block stops it too). The line is erased when it stops.
    """

    FRAMES = "|/-\\"

    def __init__(self, stream: IO[str], label: str, *, enabled: bool, interval: float = 0.08) -> None:
        self._stream = stream
        self._label = safe(label).replace("\n", " ")
        self._enabled = enabled
        self._interval = interval
        self._done = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._drawn = False

    def start(self) -> Spinner:
        """Start drawing (in a daemon thread) when enabled."""
        if self._enabled and self._thread is None:
            self._thread = threading.Thread(target=self._run, name="modelport-spinner", daemon=True)
            self._thread.start()
        return self

    def _run(self) -> None:
        frame = 0
        while True:
            with self._lock:
                if self._done.is_set():
                    return
                line = f"{self.FRAMES[frame % len(self.FRAMES)]} {self._label}"[: _width(self._stream)]
                self._stream.write("\r" + line)
                self._stream.flush()
                self._drawn = True
            frame += 1
            if self._done.wait(self._interval):
                return

    def stop(self) -> None:
        """Stop and erase the spinner (idempotent)."""
        with self._lock:
            if self._done.is_set():
                return
            self._done.set()
            if self._drawn:
                self._stream.write(CLEAR_LINE)
                self._stream.flush()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()

    def __enter__(self) -> Spinner:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


class ProgressBar:
    """``[#######.......]  12/80  label`` on ``stream``, redrawn per step; nothing unless enabled."""

    def __init__(self, stream: IO[str], total: int, *, enabled: bool, width: int = 24) -> None:
        self._stream = stream
        self.total = max(total, 0)
        self.done = 0
        self._enabled = enabled
        self._bar_width = width

    def render(self, label: str = "") -> str:
        """The bar's line after :attr:`done` of :attr:`total` steps (``label`` made safe, one line)."""
        filled = self._bar_width if self.total == 0 else self._bar_width * self.done // self.total
        bar = "#" * filled + "." * (self._bar_width - filled)
        digits = len(str(self.total))
        text = f"[{bar}] {self.done:>{digits}}/{self.total}"
        if label:
            text += "  " + safe(label).replace("\n", " ").replace("\t", " ")
        return text[: _width(self._stream)]

    def advance(self, label: str = "") -> None:
        """One more step done; redraw with ``label`` (e.g. the step just finished)."""
        self.done += 1
        if self._enabled:
            self._stream.write("\r" + self.render(label) + "\x1b[K")
            self._stream.flush()

    def close(self) -> None:
        """Erase the bar."""
        if self._enabled:
            self._stream.write(CLEAR_LINE)
            self._stream.flush()
