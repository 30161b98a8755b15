"""A real HTTP/1.1 server on 127.0.0.1 for tests where the transport matters (sockets, keep-alive,
gzip, redirects, slow bodies). It runs in a thread, answers every request with a handler, records
what it received, and is stopped by the test (a context manager). It never listens beyond loopback.

:class:`RawServer` is the raw-socket counterpart, for answers no HTTP server would send (a reset,
a stall, a malformed head): it reads one whole request and hands the connection to the test.
"""

from __future__ import annotations

import http.server
import socket
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Received:
    """One request as the server saw it."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Reply:
    """What to answer: a status, headers and a body (bytes, or chunks written one by one, with an
    optional pause before each; an iterable body is sent without a length, closing the connection)."""

    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes | Iterable[bytes] = b""
    pause: float = 0.0


Handler = Callable[[Received], Reply]


class Loopback:
    """``with Loopback(handler) as server: ... server.url ...``."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.received: list[Received] = []
        self.bytes_sent = 0
        self.connections = 0
        outer = self

        class _Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def setup(self) -> None:
                super().setup()
                outer.connections += 1

            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else b""
                received = Received(
                    self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body
                )
                outer.received.append(received)
                reply = outer.handler(received)
                self.send_response(reply.status)
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                if isinstance(reply.body, bytes):
                    self.send_header("content-length", str(len(reply.body)))
                    self.end_headers()
                    self._write(reply.body)
                    return
                self.send_header("connection", "close")
                self.end_headers()
                self.close_connection = True
                for chunk in reply.body:
                    if reply.pause:
                        time.sleep(reply.pause)
                    if not self._write(chunk):
                        return

            do_GET = do_POST  # noqa: N815

            def _write(self, data: bytes) -> bool:
                try:
                    self.wfile.write(data)
                    self.wfile.flush()
                except OSError:  # the client went away: that is what some tests want
                    return False
                outer.bytes_sent += len(data)
                return True

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05})
        self._thread.daemon = True

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> Loopback:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


class RawServer:
    """A loopback socket server that reads one request and then does ``act`` with the connection."""

    def __init__(self, act: Callable[[socket.socket], None]) -> None:
        self.act = act
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(5)
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/v1beta"
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        try:
            connection, _ = self.listener.accept()
        except OSError:
            return
        with connection:
            connection.settimeout(5)
            received = b""
            while b"\r\n\r\n" not in received or len(received) < request_length(received):
                data = connection.recv(65536)
                if not data:
                    return
                received += data
            # The whole request is read: closing with unread bytes would send a reset, not the act.
            self.act(connection)

    def close(self) -> None:
        self.thread.join(5)
        self.listener.close()


def request_length(received: bytes) -> int:
    """The length of the whole request once its head is in ``received`` (head plus content-length)."""
    head, _, _ = received.partition(b"\r\n\r\n")
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(head) + 4 + int(value)
    return len(head) + 4
