"""Build the ``anthropic-vertex`` conformance cases from the recordings in tests/corpus/vertex-anthropic.

    python tools/convert_vertex_anthropic_corpus.py                     # (re)write case.yaml + cassette.yaml
    modelport conformance --provider anthropic-vertex --regenerate      # then expected.json; review, commit

As for ``anthropic`` (tools/convert_anthropic_corpus.py): each case pairs a recorded answer with the
canonical request the recorded body means (:func:`anthropic_corpus.canonical`), and the cassette's
request body is the API reference's (:func:`anthropic_wire.wire`, independent of the adapter) with
Vertex AI's two changes: no ``model`` and ``anthropic_version: vertex-2023-10-16``. Requests go to
``:rawPredict`` / ``:streamRawPredict`` with the bearer token by name only. The Mirascope cassettes
begin with a Google OAuth token refresh (oauth2.googleapis.com/token), which is not a Vertex call:
it is dropped. The corpus has no Vertex error recording: the error cases are MOCK, marked.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus_attribution
from anthropic_corpus import canonical
from anthropic_wire import wire

from modelport_conformance.cassette import Cassette, Interaction, dump_cassette, store_body
from modelport_conformance.containers import read_recording

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "corpus" / "vertex-anthropic"
TARGET = ROOT / "plugins/anthropic/src/modelport_anthropic/cassettes/anthropic-vertex"
VERSION = "vertex-2023-10-16"
#: What every case's provider is configured with (the replay's own values, not the recordings').
CONFIG = {"project": "conformance-project", "location": "us-east5", "token": "conformance-replay-token"}
SOURCES = {
    "charmbracelet__fantasy": (
        "charmbracelet/fantasy",
        "f6d4d1e3022229bd6e77717416336bf50e1693ad",
        "Apache-2.0",
    ),
    "Mirascope__mirascope": ("Mirascope/mirascope", "78c8962314e26d058c33202396957610ff7557a5", "MIT"),
}
MIRASCOPE_NOTE = (
    "taken from a public pull-request head of Mirascope/mirascope (refs/pull/*/head), not the default "
    "branch; interaction 0 of the file, a Google OAuth token refresh, is not a Vertex call and is dropped"
)
F = "charmbracelet__fantasy/providertests__testdata__"
M = "Mirascope__mirascope/python__tests__e2e__"
_STATUS = {200: "OK", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found"}
_STATUS.update({429: "Too Many Requests", 529: "Overloaded"})
KEPT_HEADERS = ("request-id", "retry-after")


def url(model: str, *, stream: bool) -> str:
    method = "streamRawPredict" if stream else "rawPredict"
    project, location = CONFIG["project"], CONFIG["location"]
    return (
        f"https://{location}-aiplatform.googleapis.com/v1/projects/{project}/locations/{location}"
        f"/publishers/anthropic/models/{model}:{method}"
    )


def vertex_body(request: dict[str, Any], model: str, *, stream: bool) -> dict[str, Any]:
    """The oracle's Messages body, less ``model``, plus ``anthropic_version`` (Vertex AI's form)."""
    if request.get("response_format") is not None:  # Vertex's default: the forced answer tool
        options = dict(request.get("provider_options") or {})
        options["anthropic"] = {"structured_output": "tool", **options.get("anthropic", {})}
        request = {**request, "provider_options": options}
    body = wire(request, model, stream=stream)
    body.pop("model")
    body["anthropic_version"] = VERSION
    return body


def _request_headers(stream: bool) -> dict[str, list[str]]:
    headers = {"content-type": ["application/json"]}
    if stream:
        headers["accept"] = ["text/event-stream"]
    headers["authorization"] = ["<credential>"]
    return headers


def _as_format(request: dict[str, Any]) -> dict[str, Any]:
    """A recorded forced answer tool read back as the ``response_format`` that sends it."""
    (tool,) = request.pop("tools")
    request.pop("tool_choice", None)
    request.pop("provider_options", None)
    request["response_format"] = {
        "type": "json_schema",
        "name": tool["name"],
        "description": tool["description"],
        "schema": tool["parameters"],
    }
    return request


def recorded_case(spec: dict[str, Any]) -> tuple[dict[str, Any], list[Interaction]]:
    """A case from interaction ``spec["interaction"]`` (0-based, as in the file) of a recording."""
    saved, index = spec["saved"], spec["interaction"]
    exchange = read_recording(CORPUS / saved).exchanges[index]
    assert "aiplatform.googleapis.com" in exchange.uri, f"{saved}#{index} is not a Vertex call"
    import json

    recorded = json.loads(exchange.request_body or "{}")
    assert recorded.get("anthropic_version") == VERSION and "model" not in recorded
    model = exchange.uri.rsplit("/models/", 1)[1].split(":", 1)[0]
    stream = exchange.uri.endswith(":streamRawPredict")
    request = canonical(recorded)
    if spec.get("response_format"):
        request = _as_format(request)
    request.update(spec.get("request_update") or {})
    headers = {k.lower(): v[0] for k, v in exchange.response_headers.items() if v}
    content_type = headers.get("content-type", "application/json").split(";")[0]
    kept = {"content-type": [content_type], **{k: [headers[k]] for k in KEPT_HEADERS if k in headers}}
    interaction = Interaction(
        request={
            "method": "POST",
            "uri": url(model, stream=stream),
            "headers": _request_headers(stream),
            "body": {"json": vertex_body(request, model, stream=stream)},
        },
        response={
            "status": {"code": exchange.status, "message": _STATUS.get(exchange.status, "")},
            "headers": kept,
            "body": store_body(exchange.response_body, kept),
        },
    )
    note = MIRASCOPE_NOTE if saved.startswith("Mirascope") else ""
    note = "; ".join(filter(None, [note, spec.get("note", "")]))
    source = corpus_attribution.attribution(SOURCES, saved, interaction=index, note=note)
    case = {
        "description": spec["description"],
        "method": "stream" if stream else "generate",
        "model": model,
        **({"features": spec["features"]} if spec.get("features") else {}),
        "config": dict(CONFIG),
        "request": request,
        "source": source,
    }
    return case, [interaction]


def mock_case(spec: dict[str, Any]) -> tuple[dict[str, Any], list[Interaction]]:
    """A MOCK case: a written answer (an error in the documented shape), or none (a refusal)."""
    model, stream = spec["model"], spec.get("method") == "stream"
    source = {"mock": True, "docs": spec["docs"], "note": "MOCK: " + spec["why"]}
    case = {
        "description": spec["description"],
        "method": spec.get("method", "generate"),
        "model": model,
        "config": {**CONFIG, **(spec.get("config") or {})},
        "request": spec["request"],
        "source": source,
    }
    played: list[Interaction] = []
    if "status" in spec:
        headers = {
            "content-type": ["application/json"],
            **{k: [v] for k, v in spec.get("headers", {}).items()},
        }
        played.append(
            Interaction(
                request={
                    "method": "POST",
                    "uri": url(model, stream=stream),
                    "headers": _request_headers(stream),
                    "body": {"json": vertex_body(spec["request"], model, stream=stream)},
                },
                response={
                    "status": {"code": spec["status"], "message": _STATUS.get(spec["status"], "")},
                    "headers": headers,
                    "body": {"json": spec["body"]},
                },
            )
        )
    return case, played


def build(spec: dict[str, Any]) -> None:
    """Write one case directory (``expected.json``, when present, is kept)."""
    case, played = mock_case(spec) if spec.get("mock") else recorded_case(spec)
    directory = TARGET / spec["name"]
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "case.yaml").write_text(
        yaml.safe_dump(case, sort_keys=False, allow_unicode=True, width=100), encoding="utf-8"
    )
    cassette = Cassette(played, metadata={"source": case["source"]})
    (directory / "cassette.yaml").write_text(dump_cassette(cassette), encoding="utf-8")


def main() -> None:
    from vertex_anthropic_cases import cases

    specs = cases()
    keep = {spec["name"] for spec in specs}
    if TARGET.exists():
        for stale in TARGET.iterdir():
            if stale.is_dir() and stale.name not in keep:
                shutil.rmtree(stale)
    for spec in specs:
        build(spec)
    print(f"anthropic-vertex: {len(specs)} cases in {TARGET.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
