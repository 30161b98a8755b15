"""Loader for the recorded Anthropic corpus vendored in ``tests/corpus/anthropic`` (see its MANIFEST.md).

Unwraps the containers: vcrpy YAML (``parsed_body`` JSON or ``body.string``, gzip ``!!binary``
included), go-vcr YAML (``body`` strings), HAR 1.2, and raw bodies (``*.json`` one response body,
``*.chunks.txt`` one SSE payload a line, ``*.sse`` raw SSE). Files are read as recorded.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from tests import recordings

FOLDER = recordings.CORPUS / "anthropic"


@dataclass
class Interaction:
    """One recorded exchange (``request`` is ``None`` for body-only recordings)."""

    request: dict[str, Any] | None
    status: int
    headers: dict[str, str]
    body: bytes
    url: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def is_sse(self) -> bool:
        return "event-stream" in self.headers.get("content-type", "")

    def json(self) -> Any:
        return json.loads(self.body)

    def frames(self) -> list[dict[str, Any]]:
        """The SSE ``data:`` payloads, parsed."""
        text = self.body.decode("utf-8")
        return [json.loads(line[5:]) for line in text.splitlines() if line.startswith("data:")]


def all_files() -> list[str]:
    """Every recording (the MANIFEST excluded), as ``<source>/<file>``."""
    return sorted(
        p.relative_to(FOLDER).as_posix() for p in FOLDER.rglob("*") if p.is_file() and p.name != "MANIFEST.md"
    )


def _headers(raw: Any) -> dict[str, str]:
    if isinstance(raw, list):
        pairs = [(h["name"], h["value"]) for h in raw]
    else:
        pairs = [(k, v[0] if isinstance(v, list) else v) for k, v in (raw or {}).items()]
    # The bodies are stored decoded: the transfer headers no longer describe them.
    dropped = ("content-encoding", "content-length", "transfer-encoding")
    return {str(k).lower(): str(v) for k, v in pairs if str(k).lower() not in dropped}


def _request_body(raw: Any) -> dict[str, Any] | None:
    if isinstance(raw, dict) and "string" in raw:
        raw = raw["string"]
    if isinstance(raw, bytes):
        raw = raw.decode("utf-8")
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError:
            return None
    return raw if isinstance(raw, dict) else None


def interactions(name: str) -> list[Interaction]:
    """Every exchange of the recording ``name``."""
    path = recordings.anthropic(name)
    text = path.read_text(encoding="utf-8")
    if name.endswith(".json"):
        return [Interaction(None, 200, {"content-type": "application/json"}, text.encode())]
    if name.endswith(".chunks.txt"):
        lines = [line for line in text.splitlines() if line.strip()]
        body = "".join(f"data: {line}\n\n" for line in lines)
        return [Interaction(None, 200, {"content-type": "text/event-stream"}, body.encode())]
    if name.endswith(".sse"):
        return [Interaction(None, 200, {"content-type": "text/event-stream"}, text.encode())]
    if name.endswith(".har"):
        out = []
        for entry in json.loads(text)["log"]["entries"]:
            response = entry["response"]
            headers = _headers(response["headers"])
            headers["content-type"] = response["content"].get("mimeType") or "application/json"
            request = _request_body(entry["request"].get("postData", {}).get("text"))
            body = response["content"]["text"].encode()
            out.append(Interaction(request, int(response["status"]), headers, body, entry["request"]["url"]))
        return out
    data = yaml.safe_load(text)
    out = []
    for item in data["interactions"]:
        request, response = item["request"], item["response"]
        status = response.get("status")
        code = int(status["code"]) if isinstance(status, dict) else int(response.get("code") or 200)
        headers = _headers(response.get("headers"))
        if "parsed_body" in response:
            body = json.dumps(response["parsed_body"]).encode()
        else:
            body = recordings.vcr_body(response.get("body"))
        headers.setdefault("content-type", "application/json")
        raw = request.get("parsed_body") or request.get("body")
        out.append(
            Interaction(_request_body(raw), code, headers, body, request.get("uri") or request.get("url"))
        )
    return out


def endpoint(interaction: Interaction) -> str:
    """``messages``, ``count_tokens`` or ``files``: where the exchange went (body-only: messages)."""
    path = interaction.url.split("?")[0]
    if path.endswith("/count_tokens"):
        return "count_tokens"
    return "files" if "/v1/files" in path else "messages"


def api_exchanges(name: str) -> list[tuple[int, Interaction]]:
    """The exchanges of ``name`` with the Messages API (``/v1/messages`` and its ``count_tokens``)."""
    return [(i, x) for i, x in enumerate(interactions(name)) if endpoint(x) != "files"]


def path(name: str) -> Path:
    """The corpus file ``name``."""
    return recordings.anthropic(name)
