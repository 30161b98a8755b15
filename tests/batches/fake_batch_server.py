"""A loopback fake of Anthropic's Message Batches (create, get, results) for large batches: it reads
the create body as it comes, keeps only the custom ids, and writes the results file line by line.

MOCK: the message bodies are invented (a fixed short answer); their shape is the recorded one
(tests/corpus/batch, crmne/ruby_llm)."""

from __future__ import annotations

import http.server
import json
import threading
from typing import Any

_MESSAGE = {
    "model": "claude-haiku-4-5-20251001",
    "type": "message",
    "role": "assistant",
    "content": [{"type": "text", "text": "ok"}],
    "stop_reason": "end_turn",
    "stop_sequence": None,
    "usage": {"input_tokens": 12, "output_tokens": 3},
}


class FakeBatches:
    """Serves one batch at a time on 127.0.0.1; ``url`` is its base URL."""

    def __init__(self) -> None:
        self.custom_ids: list[str] = []
        self.polls = 0
        self.cancelled = False
        self.keys: list[str | None] = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:  # noqa: N802
                outer.keys.append(self.headers.get("x-api-key"))
                length = int(self.headers["content-length"])
                body = json.loads(self.rfile.read(length))
                if self.path.endswith("/cancel"):
                    outer.cancelled = body == {}
                    self._json(outer._batch("canceling"))
                    return
                outer.custom_ids = [entry["custom_id"] for entry in body["requests"]]
                self._json(outer._batch("in_progress"))

            def do_GET(self) -> None:  # noqa: N802
                if self.path.endswith("/results"):
                    self.send_response(200)
                    self.send_header("content-type", "application/x-jsonl")
                    self.send_header("transfer-encoding", "chunked")
                    self.end_headers()
                    for number, custom_id in enumerate(outer.custom_ids):
                        line = {
                            "custom_id": custom_id,
                            "result": {"type": "succeeded", "message": {**_MESSAGE, "id": f"msg_{number}"}},
                        }
                        data = json.dumps(line).encode() + b"\n"
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                    self.wfile.write(b"0\r\n\r\n")
                    return
                outer.polls += 1
                self._json(outer._batch("ended" if outer.polls > 1 else "in_progress"))

            def _json(self, value: Any) -> None:
                data = json.dumps(value).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def _batch(self, status: str) -> dict[str, Any]:
        count = len(self.custom_ids)
        ended = status == "ended"
        return {
            "id": "msgbatch_fake",
            "type": "message_batch",
            "processing_status": status,
            "request_counts": {
                "processing": 0 if ended else count,
                "succeeded": count if ended else 0,
                "errored": 0,
                "canceled": 0,
                "expired": 0,
            },
            "created_at": "2026-08-19T14:44:51.493319+00:00",
            "ended_at": "2026-08-19T14:46:57.158324+00:00" if ended else None,
            "results_url": f"{self.url}/v1/messages/batches/msgbatch_fake/results" if ended else None,
        }

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> FakeBatches:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._server.shutdown()
        self._server.server_close()
