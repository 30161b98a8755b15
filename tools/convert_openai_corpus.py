"""Build the OpenAI and OpenAI-compatible conformance cases from the recordings in tests/corpus/openai.

    python tools/convert_openai_corpus.py                     # (re)write case.yaml + cassette.yaml
    modelport conformance --provider openai --regenerate      # then expected.json (each provider),
                                                              # review against the recordings, commit

Each case keeps the recorded response as recorded in meaning (JSON parsed, SSE one event per entry
with its comments and ``event:`` lines; only allow-listed headers) and pairs it with a canonical
request. The request body in the cassette is what the API reference prescribes for that request
(:func:`openai_corpus.wire`, independent of the adapter); where the recording has a request, the
canonical request reproduces its intent and ``source.note`` says what differs. Attribution
(repository, commit, path, license) goes into ``case.yaml`` and the cassette metadata.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

from openai_cases import BASE_URLS, CASES, QUIRKS
from openai_corpus import attribution, embed_wire, wire

from modelport_conformance.cassette import Cassette, Interaction, dump_cassette, store_body

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "plugins/openai/src/modelport_openai/cassettes"
_STATUS = {
    200: "OK",
    400: "Bad Request",
    401: "Unauthorized",
    404: "Not Found",
    429: "Too Many Requests",
}


def _request(provider: str, spec: dict[str, Any]) -> tuple[str, dict[str, Any], bool]:
    """The URL, the body and whether it streams."""
    base = spec.get("config", {}).get("base_url") or BASE_URLS[provider]
    if spec["method"] == "embed":
        return f"{base}/embeddings", embed_wire(spec["request"], spec["model"], provider), False
    stream = spec["method"] == "stream"
    body = wire(spec["request"], spec["model"], stream=stream, quirks=QUIRKS[provider])
    return f"{base}/chat/completions", body, stream


def _interaction(uri: str, body: dict[str, Any], stream: bool, recorded: tuple[int, str, str]) -> Interaction:
    status, content_type, text = recorded
    headers = {"content-type": [content_type]}
    request_headers = {"content-type": ["application/json"]}
    if stream:
        request_headers["accept"] = ["text/event-stream"]
    # The credential header is kept by name (never its value): replay checks it is sent.
    request_headers["authorization"] = ["<credential>"]
    return Interaction(
        request={"method": "POST", "uri": uri, "headers": request_headers, "body": {"json": body}},
        response={
            "status": {"code": status, "message": _STATUS.get(status, "")},
            "headers": headers,
            "body": store_body(text, headers),
        },
    )


def build(provider: str, spec: dict[str, Any], target: Path) -> None:
    """Write one case directory (``expected.json``, when present, is kept)."""
    # ``responses: []``: a request refused before any I/O (no recording; the cassette is empty, and
    # no body is built: the oracle has no wire shape for what the API cannot take).
    recorded = spec["responses"] if "responses" in spec else [spec["response"]]
    interactions = []
    if recorded:
        uri, body, stream = _request(provider, spec)
        interactions = [_interaction(uri, body, stream, r) for r in recorded]
    source = spec.get("source_dict") or attribution(spec["source"], **spec.get("source_args", {}))
    write_case(target / spec["name"], spec, source, interactions)


def write_case(
    directory: Path, spec: dict[str, Any], source: dict[str, Any], interactions: list[Interaction]
) -> None:
    """Write ``case.yaml`` and ``cassette.yaml`` of one case (``expected.json``, when present, is kept)."""
    directory.mkdir(parents=True, exist_ok=True)
    case: dict[str, Any] = {
        "description": spec["description"],
        "method": spec["method"],
        "model": spec["model"],
    }
    if spec.get("features"):
        case["features"] = spec["features"]
    if spec.get("config"):
        case["config"] = spec["config"]
    case["request"] = spec["request"]
    case["source"] = source
    (directory / "case.yaml").write_text(
        yaml.safe_dump(case, sort_keys=False, allow_unicode=True, width=100), encoding="utf-8"
    )
    cassette = Cassette(interactions, metadata={"source": source})
    (directory / "cassette.yaml").write_text(dump_cassette(cassette), encoding="utf-8")


def main() -> None:
    """Write every provider's cases."""
    for provider, cases in CASES.items():
        target = TARGET / provider
        keep = {spec["name"] for spec in cases}
        if target.exists():
            for stale in target.iterdir():
                # batch-*: written by tools/batch_cases.py, from the batch corpus.
                if stale.is_dir() and stale.name not in keep and not stale.name.startswith("batch-"):
                    shutil.rmtree(stale)
        for spec in cases:
            build(provider, spec, target)
        print(f"{provider}: {len(cases)} cases in {target.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
