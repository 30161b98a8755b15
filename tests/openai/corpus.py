"""Loader for the recorded OpenAI corpus vendored in ``tests/corpus/openai`` (see its MANIFEST.md).

Unwraps the containers: vcrpy YAML (``parsed_body`` JSON, or ``body.string`` text, gzip ``!!binary``
included) and vercel raw bodies (``*.json`` is one response body, ``*.chunks.txt`` one SSE payload a
line, ``data: `` and ``[DONE]`` stripped). Files are read as recorded; nothing here invents shapes.

Sources (per the MANIFEST): pydantic/pydantic-ai (MIT), vercel/ai, simonw/llm,
open-telemetry/opentelemetry-python-contrib, traceloop/openllmetry, Future-House/ldp (Apache-2.0).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from tests import recordings

FOLDER = recordings.CORPUS / "openai"


def path(name: str) -> Path:
    """The corpus file ``name`` (``<source>/<file>``); a missing file fails the test, naming it."""
    return recordings.openai(name)


def all_files() -> list[str]:
    """Every recording in the corpus folder (the MANIFEST excluded), as ``<source>/<file>``."""
    return sorted(
        p.relative_to(FOLDER).as_posix() for p in FOLDER.rglob("*") if p.is_file() and p.name != "MANIFEST.md"
    )


@dataclass
class Interaction:
    """One recorded HTTP exchange (``request_body`` is ``None`` for body-only recordings)."""

    method: str
    uri: str
    request_body: Any
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def is_sse(self) -> bool:
        return b"data:" in self.body[:4096] and not self.body.lstrip().startswith(b"{")

    def json(self) -> Any:
        """The response body as JSON."""
        return json.loads(self.body)

    def frames(self) -> list[Any]:
        """The JSON payloads of the SSE body's ``data:`` lines (``[DONE]`` left out)."""
        return sse_payloads(self.body)


def _request_body(request: dict[str, Any]) -> Any:
    if "parsed_body" in request:
        return request["parsed_body"]
    raw = recordings.vcr_body(request.get("body"))
    return json.loads(raw) if raw else None


def cassette(name: str) -> list[Interaction]:
    """The interactions of a vcrpy YAML cassette."""
    data = yaml.safe_load(path(name).read_text(encoding="utf-8"))
    out = []
    for item in data["interactions"]:
        request, response = item["request"], item["response"]
        parsed = response.get("parsed_body")
        body = (
            json.dumps(parsed).encode() if parsed is not None else recordings.vcr_body(response.get("body"))
        )
        headers = {k.lower(): (v[0] if isinstance(v, list) else v) for k, v in response["headers"].items()}
        headers.pop("content-encoding", None)  # bodies are stored decompressed here
        out.append(
            Interaction(
                method=request["method"],
                uri=request["uri"],
                request_body=_request_body(request),
                status=int(response["status"]["code"]),
                headers=headers,
                body=body,
            )
        )
    return out


def sse_payloads(body: bytes) -> list[Any]:
    """The JSON payloads of an SSE body's ``data:`` lines."""
    lines = body.decode("utf-8").splitlines()
    return [
        json.loads(line[5:].strip()) for line in lines if line.startswith("data:") and "[DONE]" not in line
    ]


def chunks(name: str) -> list[Any]:
    """Frames of a vercel ``*.chunks.txt`` file (one payload per line)."""
    lines = path(name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def streams(frames: list[Any]) -> list[list[Any]]:
    """Frames split where the response id changes (a file that holds two streams concatenated);
    a frame with an empty id (Azure's first) belongs to the stream it starts."""
    out: list[list[Any]] = []
    current: str | None = None
    for frame in frames:
        ident = frame.get("id") or None
        if not out or (ident is not None and current is not None and ident != current):
            out.append([])
        current = ident or current
        out[-1].append(frame)
    return out


def load_json(name: str) -> Any:
    """A raw JSON body (vercel ``*.json``)."""
    return json.loads(path(name).read_bytes())


def sse_body(frames: list[Any], *, done: bool = False) -> bytes:
    """Frames written back as an SSE body (``data: ...\\n\\n``), optionally with ``[DONE]``."""
    body = b"".join(b"data: " + json.dumps(f).encode() + b"\n\n" for f in frames)
    return body + (b"data: [DONE]\n\n" if done else b"")


def interactions(name: str) -> list[Interaction]:
    """Every recording as interactions: a vercel body becomes one 200 (or error) exchange."""
    if name.endswith(".yaml"):
        return cassette(name)
    if name.endswith(".chunks.txt"):
        sse = {"content-type": "text/event-stream"}
        # The file keeps each payload but not the closing ``[DONE]``, which vercel's own tests
        # append to every stream (``chunks.push('data: [DONE]\\n\\n')``): so does this.
        return [
            Interaction("POST", "", None, 200, sse, sse_body(part, done=True))
            for part in streams(chunks(name))
        ]
    data = load_json(name)
    if isinstance(data, dict) and "capturedResponses" in data:
        return [
            Interaction(
                "POST",
                c["url"],
                None,
                int(c["status"]),
                {"content-type": "application/json"},
                json.dumps(c["body"]).encode(),
            )
            for c in data["capturedResponses"]
        ]
    status = 400 if isinstance(data, dict) and "error" in data else 200
    return [
        Interaction("POST", "", None, status, {"content-type": "application/json"}, json.dumps(data).encode())
    ]
