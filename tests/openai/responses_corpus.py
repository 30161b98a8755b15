"""Loader and oracle for the Responses API corpus vendored in ``tests/corpus/openai-responses``.

Unwraps the containers (see the folder's MANIFEST.md): vcrpy YAML (``parsed_body`` JSON or
``body.string``), go-vcr YAML (``response.body`` text, ``code``), vercel raw bodies (``*.json`` one
body, ``*.chunks.txt`` one SSE payload a line, several streams concatenated in one file). The oracle
reads the expected values straight from the recorded final ``response`` object, independently of
the adapter. Sources: vercel/ai, charmbracelet/fantasy (Apache-2.0), pydantic/pydantic-ai,
Mirascope/mirascope (MIT).
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from typing import Any

import httpx
import yaml

import modelport
from tests import recordings

from .replay import KEY

FOLDER = recordings.CORPUS / "openai-responses"
_TERMINAL = ("response.completed", "response.incomplete", "response.failed")


@dataclass
class Exchange:
    """One recorded HTTP exchange (``request`` is ``None`` for body-only recordings)."""

    uri: str
    request: Any
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def is_sse(self) -> bool:
        return self.body.lstrip().startswith((b"event:", b"data:"))

    def frames(self) -> list[dict[str, Any]]:
        lines = self.body.decode("utf-8").splitlines()
        return [json.loads(line[5:]) for line in lines if line.startswith("data:") and "[DONE]" not in line]

    def final(self) -> dict[str, Any]:
        """The final ``response`` object: the body, or a stream's terminal event's ``response`` with
        the items of its ``response.output_item.done`` events (a reasoning item's
        ``encrypted_content`` there differs from the terminal event's copy: both are valid, and
        the stream's own item is what a streamed call keeps)."""
        if not self.is_sse:
            return json.loads(self.body)  # type: ignore[no-any-return]
        frames = self.frames()
        response = dict([f for f in frames if f.get("type") in _TERMINAL][-1]["response"])
        done = [f for f in frames if f.get("type") == "response.output_item.done"]
        if done:
            response["output"] = [f["item"] for f in sorted(done, key=lambda f: f["output_index"])]
        return response


def all_files() -> list[str]:
    """Every recording (the MANIFEST excluded), as ``<source>/<file>``."""
    return sorted(
        p.relative_to(FOLDER).as_posix() for p in FOLDER.rglob("*") if p.is_file() and p.name != "MANIFEST.md"
    )


def _text(body: Any) -> bytes:
    if isinstance(body, str):
        return body.encode("utf-8")
    return recordings.vcr_body(body)


def exchanges(name: str) -> list[Exchange]:
    """Every exchange of one recording."""
    path = recordings.openai_responses(name)
    if name.endswith(".chunks.txt"):
        frames = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        streams: list[list[Any]] = [[]]
        for frame in frames:
            streams[-1].append(frame)
            if frame.get("type") in _TERMINAL:
                streams.append([])
        sse = {"content-type": "text/event-stream"}
        return [
            Exchange("", None, 200, sse, b"".join(b"data: " + json.dumps(f).encode() + b"\n\n" for f in s))
            for s in streams
            if s
        ]
    if name.endswith(".json"):
        data = json.loads(path.read_bytes())
        status = 400 if isinstance(data, dict) and "error" in data and "output" not in data else 200
        return [Exchange("", None, status, {"content-type": "application/json"}, json.dumps(data).encode())]
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    out = []
    for item in data["interactions"]:
        request, response = item["request"], item["response"]
        status = response.get("code") or response["status"]["code"]
        if "parsed_body" in response:
            body = json.dumps(response["parsed_body"]).encode()
        else:
            body = _text(response.get("body"))
        raw = request.get("parsed_body")
        if raw is None and request.get("body"):
            text = _text(request["body"])
            raw = json.loads(text) if text.strip().startswith(b"{") else None
        headers = {
            k.lower(): (v[0] if isinstance(v, list) else v)
            for k, v in (response.get("headers") or {}).items()
        }
        headers.pop("content-encoding", None)
        headers.pop("content-length", None)
        out.append(Exchange(request.get("uri") or request.get("url"), raw, int(status), headers, body))
    return out


class Recorded:
    """Answers each request with the next recorded exchange; keeps the bodies sent."""

    def __init__(self, exchanges: list[Exchange]) -> None:
        self.exchanges = exchanges
        self.sent: list[dict[str, Any]] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.sent.append(json.loads(request.content))
        exchange = self.exchanges[len(self.sent) - 1]
        return httpx.Response(exchange.status, headers=exchange.headers, content=exchange.body)

    def model(self, name: str = "gpt-5") -> Any:
        return modelport.get_model(
            f"openai-responses/{name}", api_key=KEY, transport=httpx.MockTransport(self), max_retries=0
        )


# --------------------------------------------------------------------------- the oracle


#: The built-in tools' output items and the tool each call names (an MCP call names its own tool).
BUILT_IN = {
    "web_search_call": "web_search",
    "file_search_call": "file_search",
    "code_interpreter_call": "code_interpreter",
    "image_generation_call": "image_generation",
    "mcp_list_tools": "mcp_list_tools",
}


def _cited(base: int, content: dict[str, Any]) -> list[tuple[int, int, str]]:
    """Each annotation of one ``output_text`` as (start, end, url or file name) in the whole text."""
    out = []
    for note in content.get("annotations") or []:
        if note["type"] == "file_citation":
            out.append((base + note["index"], base + note["index"], note["filename"]))
        elif note["type"] == "url_citation":
            out.append((base + note["start_index"], base + note["end_index"], note["url"]))
        elif note["type"] == "container_file_citation":
            out.append((base + note["start_index"], base + note["end_index"], note["filename"]))
    return out


def expected(response: dict[str, Any]) -> dict[str, Any]:
    """What a result must hold, read from the recorded ``response`` object."""
    text: list[str] = []
    reasoning: list[tuple[str, list[str], str | None]] = []
    calls: list[tuple[str, str, Any]] = []
    built_in: list[tuple[str, str, bool]] = []
    images: list[tuple[str, bytes]] = []
    damaged: list[str] = []
    cited: list[tuple[int, int, str]] = []
    other: list[dict[str, Any]] = []
    approvals: list[tuple[str, str, Any]] = []
    for item in response.get("output") or []:
        kind = item["type"]
        if kind == "message":
            for content in item["content"]:
                cited += _cited(len("".join(text)), content)
                text.append(content.get("text") or content.get("refusal") or "")
        elif kind in BUILT_IN or kind == "mcp_call":
            failed = item.get("status") == "failed" or bool(item.get("error"))
            built_in.append((item["id"], item.get("name") if kind == "mcp_call" else BUILT_IN[kind], failed))
            if kind == "image_generation_call" and item.get("result"):
                try:  # vercel's fixtures elide the middle of the base64 ("...")
                    data = base64.b64decode(item["result"], validate=True)
                except ValueError:
                    damaged.append(item["result"])
                else:
                    images.append((f"image/{item.get('output_format') or 'png'}", data))
        elif kind == "reasoning":
            summary = [s["text"] for s in item.get("summary") or []]
            reasoning.append((item["id"], summary, item.get("encrypted_content")))
        elif kind == "function_call":
            calls.append((item["call_id"], item["name"], json.loads(item["arguments"] or "{}")))
        elif kind == "mcp_approval_request":  # a remote MCP call waiting for the client's decision
            approvals.append((item["id"], item["name"], json.loads(item["arguments"] or "{}")))
        else:
            other.append(item)
    usage = response.get("usage") or {}
    details = response.get("incomplete_details") or {}
    return {
        "response_id": response["id"],
        "model": response.get("model"),
        "text": "".join(text),
        "reasoning": reasoning,
        "calls": calls,
        "built_in": built_in,
        "images": images,
        "damaged_images": damaged,
        "cited": cited,
        "unmapped": other,
        "approvals": approvals,
        "raw_finish": details.get("reason") or response["status"],
        "usage": {
            "input": usage.get("input_tokens"),
            "output": usage.get("output_tokens"),
            "total": usage.get("total_tokens"),
            "cached": (usage.get("input_tokens_details") or {}).get("cached_tokens"),
            "reasoning": (usage.get("output_tokens_details") or {}).get("reasoning_tokens"),
        },
    }
