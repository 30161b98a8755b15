"""Helpers for the recording tests: a plugin made in a test, and a local HTTP server (127.0.0.1 only,
a random port, started and stopped by the test: ``with LocalServer(handler) as server: ...``).
Nothing reaches the network."""

from __future__ import annotations

import http.server
import threading
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


def plugin_module(**hooks: Any) -> types.ModuleType:
    """A plugin made in a test: a module object holding the given ``@hookimpl`` functions."""
    module = types.ModuleType("modelport_test_plugin")
    for name, function in hooks.items():
        setattr(module, name, function)
    return module


@dataclass
class Seen:
    """One request as the server received it."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Answer:
    """What the server sends back (``reason`` is the status line's phrase)."""

    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    reason: str | None = None


class LocalServer:
    """A threaded HTTP/1.1 server answering every request with ``handler(seen)``."""

    def __init__(self, handler: Callable[[Seen], Answer]) -> None:
        self.seen: list[Seen] = []
        outer = self

        class _Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                length = int(self.headers.get("content-length") or 0)
                seen = Seen(
                    self.command,
                    self.path,
                    {k.lower(): v for k, v in self.headers.items()},
                    self.rfile.read(length) if length else b"",
                )
                outer.seen.append(seen)
                answer = handler(seen)
                self.send_response(answer.status, answer.reason)
                for name, value in answer.headers.items():
                    self.send_header(name, value)
                self.send_header("content-length", str(len(answer.body)))
                self.end_headers()
                self.wfile.write(answer.body)

            do_GET = do_POST  # noqa: N815 - a GET has no body; the same handler answers it

            def log_message(self, format: str, *args: object) -> None:  # quiet
                pass

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        """``http://127.0.0.1:<port>``."""
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> LocalServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
