"""Build the ``anthropic`` conformance cases from the recordings in tests/corpus/anthropic.

    python tools/convert_anthropic_corpus.py                     # (re)write case.yaml + cassette.yaml
    modelport conformance --provider anthropic --regenerate      # then expected.json; review, commit

Each case keeps the recorded response as recorded in meaning (JSON parsed, SSE one event per entry;
only the headers a mapping reads) and pairs it with a canonical request. The request body in the
cassette is what the API reference prescribes for that request (:func:`anthropic_wire.wire`,
independent of the adapter), sent with ``anthropic-version: 2023-06-01`` (pinned: replay fails a
request without it) and the key by name only. Attribution goes into ``case.yaml`` and the cassette.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

from anthropic_cases import cases
from anthropic_corpus import MCP_BETA, Exchange, as_neutral, attribution, canonical
from anthropic_wire import count_wire, wire

from modelport_conformance.cassette import Cassette, Interaction, dump_cassette, store_body

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "plugins/anthropic/src/modelport_anthropic/cassettes/anthropic"
BASE_URL = "https://api.anthropic.com"
VERSION = "2023-06-01"
_STATUS = {200: "OK", 400: "Bad Request", 401: "Unauthorized", 404: "Not Found", 429: "Too Many Requests"}


def _one_text(message: dict[str, Any]) -> dict[str, Any]:
    """A message whose content is one text block, with the content as a string (the same request)."""
    content = message["content"]
    if isinstance(content, list) and len(content) == 1 and set(content[0]) == {"type", "text"}:
        return {"role": message["role"], "content": content[0]["text"]}
    return {"role": message["role"], "content": content}


def _differences(sent: dict[str, Any], recorded: dict[str, Any]) -> list[str]:
    """The top-level fields where the oracle's body differs from the recorded one in meaning."""
    recorded = {k: v for k, v in recorded.items() if not (k == "stream" and v is False)}
    recorded["messages"] = [_one_text(m) for m in recorded["messages"]]
    return sorted(k for k in set(sent) | set(recorded) if sent.get(k) != recorded.get(k))


def _interaction(
    uri: str, body: dict[str, Any], stream: bool, recorded: Exchange, beta: bool | str, version: str = VERSION
) -> Interaction:
    request_headers = {"content-type": ["application/json"], "anthropic-version": [version]}
    if beta:  # the MCP connector's beta, or the case's beta=; pinned: replay fails a request without it
        request_headers["anthropic-beta"] = [MCP_BETA if beta is True else beta]
    if stream:
        request_headers["accept"] = ["text/event-stream"]
    # 2026-10-21 takes the key as Authorization: Bearer (held by name only, as x-api-key is).
    request_headers["x-api-key" if version == VERSION else "authorization"] = ["<credential>"]
    headers = {"content-type": [recorded.content_type], **{k: [v] for k, v in recorded.headers.items()}}
    return Interaction(
        request={"method": "POST", "uri": uri, "headers": request_headers, "body": {"json": body}},
        response={
            "status": {"code": recorded.status, "message": _STATUS.get(recorded.status, "")},
            "headers": headers,
            "body": store_body(recorded.body, headers),
        },
    )


def build(spec: dict[str, Any]) -> None:
    """Write one case directory (``expected.json``, when present, is kept). A spec without an
    ``exchange`` is a request refused before any I/O: its cassette has no interaction."""
    recorded: Exchange | None = spec.get("exchange")
    note = spec.get("note", "")
    if recorded is not None and recorded.request is not None:
        request = canonical(recorded.request)
        if spec.get("neutral"):
            request = as_neutral(request)
        if spec.get("prompt_cache"):
            request["prompt_cache"] = spec["prompt_cache"]
        request.update(spec.get("request_update") or {})
        model = recorded.request["model"]
        stream = bool(recorded.request.get("stream"))
    else:
        request, model, stream = spec["request"], spec["model"], spec["method"] == "stream"
    method = spec.get("method") or ("stream" if stream else "generate")
    if method == "count_tokens":
        uri, body = f"{BASE_URL}/v1/messages/count_tokens", count_wire(request, model)
        request = {k: v for k, v in request.items() if k != "max_output_tokens"}
    elif recorded is not None:
        uri, body = f"{BASE_URL}/v1/messages", wire(request, model, stream=stream)
    if recorded is not None and recorded.request is not None:
        differing = _differences(body, recorded.request)
        if differing:
            adapted = "request adapted to the canonical mapping; the recorded body differs in: "
            note = "; ".join(filter(None, [note, adapted + ", ".join(differing)]))
    source = spec.get("source") or attribution(spec["saved"], interaction=spec["interaction"], note=note)
    directory = TARGET / spec["name"]
    directory.mkdir(parents=True, exist_ok=True)
    case: dict[str, Any] = {"description": spec["description"], "method": method, "model": model}
    if spec.get("features"):
        case["features"] = spec["features"]
    if spec.get("config"):
        case["config"] = spec["config"]
    case["request"] = request
    case["source"] = source
    (directory / "case.yaml").write_text(
        yaml.safe_dump(case, sort_keys=False, allow_unicode=True, width=100), encoding="utf-8"
    )
    # the MCP connector's beta, or the one the case's config names (beta=)
    beta: bool | str = any(t.get("name") == "mcp_server" for t in request.get("tools") or [])
    beta = (spec.get("config") or {}).get("beta") or beta
    version = (spec.get("config") or {}).get("api_version", VERSION)
    played = [] if recorded is None else [_interaction(uri, body, stream, recorded, beta, version)]
    cassette = Cassette(played, metadata={"source": source})
    (directory / "cassette.yaml").write_text(dump_cassette(cassette), encoding="utf-8")


def main() -> None:
    """Write every case."""
    specs = cases()
    keep = {spec["name"] for spec in specs}
    if TARGET.exists():
        for stale in TARGET.iterdir():
            if stale.is_dir() and stale.name not in keep and not stale.name.startswith("batch-"):
                shutil.rmtree(stale)
    for spec in specs:
        build(spec)
    print(f"anthropic: {len(specs)} cases in {TARGET.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
