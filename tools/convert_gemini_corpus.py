"""Build the Google conformance cases from the real recordings in tests/corpus/gemini.

    python tools/convert_gemini_corpus.py            # (re)write the cases' case.yaml + cassette.yaml
    modelport conformance --provider google --regenerate   # then write expected.json, review, commit

Each case keeps the recorded response byte-for-byte in meaning (JSON parsed, SSE one event per
entry; only allow-listed headers) and pairs it with a canonical request. The request body in the
cassette is what the SPEC prescribes for that request (:func:`gemini_corpus.wire`); where the
recording has a request, the canonical request reproduces its intent (prompt, system, settings),
and ``source.note`` says what differs. Attribution (repository, commit, path, license) goes into
``case.yaml`` and the cassette metadata. A MOCK case (traffic the corpus has no recording of) has
a response written in the documented REST shape and ``source: {mock: true, docs, note}`` instead.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gemini_corpus import attribution, count_wire, wire
from google_cases import CASES, VERTEX_CASES

from modelport_conformance.cassette import Cassette, Interaction, dump_cassette, store_body

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "plugins/google/src/modelport_google/cassettes"
GEMINI = "https://generativelanguage.googleapis.com/v1beta/models/{model}:{method}"
VERTEX = (
    "https://us-central1-aiplatform.googleapis.com/v1/projects/conformance-project/locations/us-central1"
    "/publishers/google/models/{model}:{method}"
)
VERTEX_CONFIG = {
    "project": "conformance-project",
    "location": "us-central1",
    "token": "conformance-replay-token",
}
_STATUS = {
    200: "OK",
    400: "Bad Request",
    404: "Not Found",
    429: "Too Many Requests",
    500: "Internal Server Error",
}


def _endpoint(spec: dict[str, Any], index: int) -> str:
    method = spec["method"]
    if method == "count_tokens":
        return "countTokens"
    if method == "embed":
        values = spec["request"]["values"]
        return "batchEmbedContents" if isinstance(values, list) else "embedContent"
    return "streamGenerateContent?alt=sse" if method == "stream" else "generateContent"


def _embed_wire(spec: dict[str, Any]) -> dict[str, Any]:
    request, model = spec["request"], spec["model"]
    extra: dict[str, Any] = {}
    if "task_type" in request:
        extra["taskType"] = request["task_type"]
    if "output_dimensionality" in request:
        extra["outputDimensionality"] = request["output_dimensionality"]
    values = request["values"]
    if isinstance(values, str):
        return {"model": f"models/{model}", "content": {"parts": [{"text": values}]}, **extra}
    return {
        "requests": [
            {"model": f"models/{model}", "content": {"parts": [{"text": v}]}, **extra} for v in values
        ]
    }


def build(spec: dict[str, Any], target: Path, *, vertex: bool = False) -> None:
    """Write one case directory.

    ``response: None`` is a request refused before any I/O: its cassette has no interaction (a
    request sent would be an unexpected one). ``wire`` (optional) is the request body written out
    in the case table, for requests the oracle does not build (an edited assistant turn).
    """
    if isinstance(spec["source"], dict):  # a MOCK: gemini_corpus.documented
        source = spec["source"]
    else:
        source = attribution(spec["source"], **spec.get("source_args", {}))
    if spec["response"] is None:
        _write(spec, target, source, [], vertex=vertex)
        return
    status, content_type, text = spec["response"]
    endpoint = _endpoint(spec, 0)
    uri = (VERTEX if vertex else GEMINI).format(model=spec["model"], method=endpoint)
    if "wire" in spec:
        body = spec["wire"]
    elif spec["method"] == "embed":
        body = _embed_wire(spec)
    elif spec["method"] == "count_tokens":
        body = count_wire(spec["request"], spec["model"], vertex=vertex)
    else:
        body = wire(spec["request"], spec["model"])
    headers = {"content-type": [content_type]}
    interaction = Interaction(
        request={
            "method": "POST",
            "uri": uri,
            # The credential header is kept by name (never its value): replay checks it is sent.
            "headers": {
                "content-type": ["application/json"],
                ("authorization" if vertex else "x-goog-api-key"): ["<credential>"],
            },
            "body": {"json": body},
        },
        response={
            "status": {"code": status, "message": _STATUS.get(status, "")},
            "headers": headers,
            "body": store_body(text, headers),
        },
    )
    _write(spec, target, source, [interaction], vertex=vertex)


def _write(
    spec: dict[str, Any],
    target: Path,
    source: dict[str, Any],
    interactions: list[Interaction],
    *,
    vertex: bool,
) -> None:
    directory = target / spec["name"]
    directory.mkdir(parents=True, exist_ok=True)  # expected.json, when present, is kept
    case: dict[str, Any] = {
        "description": spec["description"],
        "method": spec["method"],
        "model": spec["model"],
        "requirements": spec["requirements"],
    }
    if spec.get("features"):
        case["features"] = spec["features"]
    if vertex:
        case["config"] = dict(VERTEX_CONFIG)
    case["request"] = spec["request"]
    case["source"] = source
    (directory / "case.yaml").write_text(
        yaml.safe_dump(case, sort_keys=False, allow_unicode=True, width=100), encoding="utf-8"
    )
    cassette = Cassette(interactions, metadata={"source": source})
    (directory / "cassette.yaml").write_text(dump_cassette(cassette), encoding="utf-8")


def main() -> None:
    """Write every Gemini API case and every Vertex AI case."""
    for sub, cases, vertex in (("google", CASES, False), ("google-vertex", VERTEX_CASES, True)):
        target = TARGET / sub
        keep = {spec["name"] for spec in cases}
        if target.exists():
            for stale in target.iterdir():
                # batch-* cases are tools/batch_cases.py's (python tools/convert_batch_corpus.py)
                if stale.is_dir() and stale.name not in keep and not stale.name.startswith("batch-"):
                    shutil.rmtree(stale)
        for spec in cases:
            build(spec, target, vertex=vertex)
        print(f"{sub}: {len(cases)} cases in {target.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
