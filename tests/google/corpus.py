"""Loader for the recorded Gemini corpus vendored in ``tests/corpus/gemini`` (see its MANIFEST.md).

Unwraps the container formats: vcrpy YAML (``parsed_body`` or ``body.string``, gzip bodies included),
vercel ``*.chunks.txt`` (one SSE payload per line), Firebase ``.txt`` (raw SSE) and ``.json`` (raw
JSON). Files are read as recorded; nothing here invents response shapes.

Sources (per the corpus MANIFEST): pydantic/pydantic-ai (MIT), vercel/ai (Apache-2.0),
FirebaseExtended/vertexai-sdk-test-data (Apache-2.0), simonw/llm-gemini (Apache-2.0).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from tests import recordings

PYDANTIC = "pydantic__pydantic-ai"
VERCEL = "vercel__ai"
FIREBASE = "FirebaseExtended__vertexai-sdk-test-data"
LLM_GEMINI = "simonw__llm-gemini"


def path(source: str, name: str) -> Path:
    """The corpus file ``source/name``; a missing file fails the test, naming it."""
    return recordings.gemini(f"{source}/{name}")


@dataclass
class Interaction:
    """One recorded HTTP exchange."""

    method: str
    uri: str
    request_body: Any
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        """The response body as JSON."""
        return json.loads(self.body)

    def frames(self) -> list[Any]:
        """The response body's SSE ``data:`` payloads as JSON."""
        return sse_payloads(self.body)


def _request_body(request: dict[str, Any]) -> Any:
    if "parsed_body" in request:
        return request["parsed_body"]
    raw = recordings.vcr_body(request.get("body"))
    try:
        return json.loads(raw) if raw else None
    except ValueError:
        return raw  # an upload or a form, not JSON


def cassette(source: str, name: str) -> list[Interaction]:
    """The interactions of a vcrpy YAML cassette."""
    data = yaml.safe_load(path(source, name).read_text(encoding="utf-8"))
    out = []
    for item in data["interactions"]:
        request, response = item["request"], item["response"]
        body = response.get("parsed_body")
        raw = json.dumps(body).encode() if body is not None else recordings.vcr_body(response.get("body"))
        headers = {k.lower(): v[0] if isinstance(v, list) else v for k, v in response["headers"].items()}
        out.append(
            Interaction(
                method=request["method"],
                uri=request["uri"],
                request_body=_request_body(request),
                status=response["status"]["code"],
                headers=headers,
                body=raw,
            )
        )
    return out


def sse_payloads(body: bytes) -> list[Any]:
    """The JSON payloads of an SSE body's ``data:`` lines."""
    text = body.decode("utf-8")
    return [json.loads(line[5:].strip()) for line in text.splitlines() if line.startswith("data:")]


def chunks(source: str, name: str) -> list[Any]:
    """Frames of a vercel ``*.chunks.txt`` file (one payload per line)."""
    lines = path(source, name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def raw(source: str, name: str) -> bytes:
    """A file's bytes (Firebase ``.txt`` is a raw SSE body)."""
    return path(source, name).read_bytes()


def load_json(source: str, name: str) -> Any:
    """A raw JSON response body."""
    return json.loads(path(source, name).read_bytes())


def sse_body(frames: list[Any]) -> bytes:
    """Frames written back as an SSE body (as Gemini sends it: ``data: ...\\r\\n\\r\\n``)."""
    return b"".join(b"data: " + json.dumps(f).encode() + b"\r\n\r\n" for f in frames)
