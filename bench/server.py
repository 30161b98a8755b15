"""A local mock of the Gemini API and of OpenAI Chat Completions on 127.0.0.1, bounded in requests and time.

Run in its own process (``python -m bench.server --max-requests N --max-seconds S``) so that it uses
the second core and not the benchmark's: it prints ``PORT <n>`` and serves HTTP/1.1 keep-alive on an
asyncio loop until it has answered ``N`` requests, ``S`` seconds have passed, or its stdin closes
(the benchmark exited). :class:`MockServer` starts and stops it.

Routes (``{m}`` is any model name):

- ``POST /v1beta/models/{m}:generateContent``: ~1 KB answer plus grounding metadata; the same answer
  without grounding metadata when the request body (the prompt) has ``answer=plain``.
- ``POST /v1beta/models/{m}:streamGenerateContent?alt=sse``: SSE, one chunk per frame; the number of
  frames is read from ``frames=<n>`` in the request body (the prompt), default 10.
- ``POST /v1beta/models/{m}:embedContent`` and ``:batchEmbedContents``.
- ``POST /v1/chat/completions`` (OpenAI): a ``chat.completion`` with the same ~1 KB answer, or, when the
  body has ``"stream": true``, SSE ``chat.completion.chunk`` frames (``frames=<n>`` content chunks, then
  the finish, usage and ``[DONE]`` events; see :mod:`bench.payloads_openai`).

A streamed request whose body has ``pace=<µs>`` is answered one HTTP chunk (one SSE event) a write,
with that pause between writes (:func:`pace`); without it, the whole answer is one write.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import TracebackType

from . import payloads, payloads_anthropic, payloads_openai, payloads_openai_responses

_FRAMES = re.compile(rb"frames=(\d+)")
_STREAM = re.compile(rb'"stream"\s*:\s*true')
_PLAIN = b"answer=plain"
_PACED = re.compile(rb"pace=(\d+)")
_MAX_FRAMES = 100_000


def _head(status: str, content_type: str, length: int | None) -> bytes:
    size = f"Content-Length: {length}\r\n" if length is not None else "Transfer-Encoding: chunked\r\n"
    return (f"HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nServer: bench-mock\r\n{size}\r\n").encode()


def _frames(body: bytes) -> int:
    match = _FRAMES.search(body)
    return max(min(int(match.group(1)), _MAX_FRAMES), 1) if match else 10


def respond(target: bytes, body: bytes) -> bytes:
    """The full HTTP response for a request line target and request body."""
    path, _, _query = target.partition(b"?")
    if path.endswith(b":generateContent"):
        data = payloads.generate_body(grounded=_PLAIN not in body)
        return _head("200 OK", "application/json; charset=UTF-8", len(data)) + data
    if path.endswith(b":streamGenerateContent"):
        return _head("200 OK", "text/event-stream", None) + payloads.stream_body_chunked(_frames(body))
    if path.endswith(b"/chat/completions"):
        if _STREAM.search(body):
            stream = payloads_openai.stream_body_chunked(_frames(body))
            return _head("200 OK", "text/event-stream; charset=utf-8", None) + stream
        data = payloads_openai.completion_body()
        return _head("200 OK", "application/json", len(data)) + data
    if path.endswith(b"/v1/responses"):
        if _STREAM.search(body):
            stream = payloads_openai_responses.stream_body_chunked(_frames(body))
            return _head("200 OK", "text/event-stream; charset=utf-8", None) + stream
        data = payloads_openai_responses.response_body()
        return _head("200 OK", "application/json", len(data)) + data
    if path.endswith(b"/v1/messages"):
        if _STREAM.search(body):
            stream = payloads_anthropic.stream_body_chunked(_frames(body))
            return _head("200 OK", "text/event-stream; charset=utf-8", None) + stream
        data = payloads_anthropic.message_body()
        return _head("200 OK", "application/json", len(data)) + data
    if path.endswith(b":embedContent"):
        data = payloads.embed_body(None)
        return _head("200 OK", "application/json; charset=UTF-8", len(data)) + data
    if path.endswith(b":batchEmbedContents"):
        try:
            count = len(json.loads(body)["requests"])
        except (ValueError, KeyError, TypeError):
            count = 1
        data = payloads.embed_body(count)
        return _head("200 OK", "application/json; charset=UTF-8", len(data)) + data
    data = b'{"error": {"code": 404, "message": "not found", "status": "NOT_FOUND"}}'
    return _head("404 Not Found", "application/json; charset=UTF-8", len(data)) + data


def pieces(response: bytes) -> list[bytes]:
    """A chunked response split into its head and each HTTP chunk (the terminating one included)."""
    start = response.find(b"\r\n\r\n") + 4
    if b"Transfer-Encoding: chunked" not in response[:start]:
        return [response]
    out = [response[:start]]
    while start < len(response):
        line_end = response.find(b"\r\n", start)
        end = line_end + 2 + int(response[start:line_end], 16) + 2
        out.append(response[start:end])
        start = end
    return out


def pace(transport: asyncio.Transport, response: bytes, pause: float) -> None:
    """Write ``response`` one HTTP chunk at a time with ``pause`` seconds between writes (blocking
    this server's loop, which serves the one sequential client of a stream figure): each write goes
    out as its own segment, so the client reads one event at a time, as from a provider that
    generates tokens more slowly than the client reads them."""
    for piece in pieces(response):
        if transport.is_closing():
            return
        transport.write(piece)
        time.sleep(pause)


class _Budget:
    def __init__(self, max_requests: int, stop: asyncio.Event) -> None:
        self.left = max_requests
        self.stop = stop

    def take(self) -> bool:
        if self.left <= 0:
            return False
        self.left -= 1
        if self.left == 0:
            self.stop.set()
        return True


class _Http(asyncio.Protocol):
    def __init__(self, budget: _Budget) -> None:
        self.budget = budget
        self.buffer = b""
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while self.transport is not None:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head = self.buffer[:end]
            length = 0
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value.strip() or 0)
            if len(self.buffer) < end + 4 + length:
                return
            body = self.buffer[end + 4 : end + 4 + length]
            self.buffer = self.buffer[end + 4 + length :]
            parts = head.split(b"\r\n", 1)[0].split(b" ")
            if not self.budget.take() or len(parts) < 2:
                self.transport.close()
                self.transport = None
                return
            paced = _PACED.search(body)
            if paced is None:
                self.transport.write(respond(parts[1], body))
            else:  # one write per HTTP chunk, a pause between: frames arrive as a provider sends them
                pace(self.transport, respond(parts[1], body), int(paced.group(1)) / 1e6)

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None


async def serve(max_requests: int, max_seconds: float) -> None:
    """Serve until the request budget or the time is spent, or stdin closes."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    budget = _Budget(max_requests, stop)
    server = await loop.create_server(lambda: _Http(budget), "127.0.0.1", 0, backlog=1024)
    port = server.sockets[0].getsockname()[1]
    print(f"PORT {port}", flush=True)

    def watch_stdin() -> None:
        sys.stdin.buffer.read()
        loop.call_soon_threadsafe(stop.set)

    threading.Thread(target=watch_stdin, daemon=True).start()
    payloads.generate_body()
    payloads_openai.completion_body()
    payloads_anthropic.message_body()
    payloads_openai_responses.response_body()
    try:
        await asyncio.wait_for(stop.wait(), max_seconds)
    except asyncio.TimeoutError:
        pass
    server.close()
    await asyncio.sleep(0.2)  # let the last answers flush


class MockServer:
    """Start the mock server in a child process; ``with MockServer(...) as srv: srv.base_url``."""

    def __init__(self, max_requests: int, max_seconds: float) -> None:
        self.max_requests = max_requests
        self.max_seconds = max_seconds
        self.port = 0
        self._proc: subprocess.Popen[bytes] | None = None

    @property
    def root_url(self) -> str:
        """The server's root URL (google-genai adds the API version itself)."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def base_url(self) -> str:
        """The Gemini API's ``/v1beta`` base URL."""
        return f"{self.root_url}/v1beta"

    @property
    def openai_base_url(self) -> str:
        """The OpenAI ``/v1`` base URL."""
        return f"{self.root_url}/v1"

    def __enter__(self) -> MockServer:
        root = str(Path(__file__).resolve().parent.parent)
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])),
        }
        cmd = [sys.executable, "-m", "bench.server", f"--max-requests={self.max_requests}"]
        cmd.append(f"--max-seconds={self.max_seconds}")
        self._proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        assert self._proc.stdout is not None
        line = self._proc.stdout.readline().decode()
        if not line.startswith("PORT "):
            self.__exit__(None, None, None)
            raise RuntimeError(f"mock server failed to start: {line!r}")
        self.port = int(line.split()[1])
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        assert proc.stdin is not None
        proc.stdin.close()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()


def main(argv: list[str] | None = None) -> None:
    """Command line entry: ``python -m bench.server``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-requests", type=int, default=10_000)
    parser.add_argument("--max-seconds", type=float, default=300.0)
    args = parser.parse_args(argv)
    asyncio.run(serve(args.max_requests, args.max_seconds))


if __name__ == "__main__":
    main()
