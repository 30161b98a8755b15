"""Build the ``anthropic-bedrock`` conformance cases from the recordings in tests/corpus/anthropic-bedrock.

    python tools/bedrock_anthropic_cases.py                              # (re)write case.yaml + cassette.yaml
    modelport conformance --provider anthropic-bedrock --regenerate      # then expected.json; review, commit

As for ``anthropic-vertex`` (tools/convert_vertex_anthropic_corpus.py): each case pairs a recorded
answer with the canonical request the recorded body means (:func:`anthropic_corpus.canonical`), and
the cassette's request body is the API reference's (:func:`anthropic_wire.wire`, independent of the
adapter) with Bedrock's changes: no ``model``, no ``stream``, ``anthropic_version:
bedrock-2023-05-31``. Requests go to ``/model/{id}/invoke`` and ``/invoke-with-response-stream``
with the credential by name only; event-stream answers are kept byte for byte (base64). The corpus
has one Bedrock error for Claude (langchaingo's 403); the others are MOCK, marked.
"""

from __future__ import annotations

import base64
import json
import re
import shutil
import sys
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus_attribution
from anthropic_corpus import canonical
from anthropic_wire import wire

from modelport_conformance.cassette import Cassette, Interaction, dump_cassette, store_body

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "corpus" / "anthropic-bedrock"
TARGET = ROOT / "plugins/anthropic/src/modelport_anthropic/cassettes/anthropic-bedrock"
VERSION = "bedrock-2023-05-31"
REGION = "us-east-1"
SOURCES = {
    "charmbracelet__fantasy": (
        "charmbracelet/fantasy",
        "f6d4d1e3022229bd6e77717416336bf50e1693ad",
        "Apache-2.0",
    ),
    "posit-dev__chatlas": ("posit-dev/chatlas", "ea4531130e56d3c5bb003d87a1792dd942554b8d", "MIT"),
    "tmc__langchaingo": ("tmc/langchaingo", "8fea3de63675b901cf7a2cdc435c204cb7a93643", "MIT"),
    "pydantic__pydantic-ai": ("pydantic/pydantic-ai", "4fda38988f2939fa6ea9cdefcf120693e10ef491", "MIT"),
}
F = "charmbracelet__fantasy/providertests__testdata__TestBedrockCommon__bedrock-anthropic-"
C = "posit-dev__chatlas/tests___vcr__test_provider_bedrock__"
L = "tmc__langchaingo/llms__bedrock__testdata__TestBedrockAnthropicToolCalling.httprr"
DOCS = "https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages.html"
ERRORS_DOCS = "https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModel.html"
HAIKU = "us.anthropic.claude-haiku-4-5-20251001-v1:0"
HI = {"messages": [{"role": "user", "content": [{"type": "text", "text": "Say hi in Portuguese"}]}]}
_STATUS = {
    200: "OK",
    400: "Bad Request",
    403: "Forbidden",
    429: "Too Many Requests",
    503: "Service Unavailable",
}
KEPT_HEADERS = ("x-amzn-errortype", "x-amzn-requestid")


def anthropic_name(model_id: str) -> str:
    """The Anthropic model name of a Bedrock id (as the adapter derives it, for the oracle)."""
    name = model_id.rsplit("/", 1)[-1]
    name = re.sub(r"^(?:[a-z]{2,6}(?:-[a-z]+)?\.)?anthropic\.", "", name)
    return re.sub(r"-v\d+(?::\d+)?$", "", name)


def url(model: str, *, stream: bool, region: str = REGION, action: str | None = None) -> str:
    action = action or ("invoke-with-response-stream" if stream else "invoke")
    return f"https://bedrock-runtime.{region}.amazonaws.com/model/{quote(model, safe='')}/{action}"


def count_body(request: dict[str, Any], model: str) -> dict[str, Any]:
    """CountTokens' InvokeModel form: the InvokeModel body as compact, key-sorted UTF-8 JSON, base64."""
    raw = json.dumps(bedrock_body(request, model), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return {"input": {"invokeModel": {"body": base64.b64encode(raw.encode("utf-8")).decode("ascii")}}}


def bedrock_body(request: dict[str, Any], model: str) -> dict[str, Any]:
    """The oracle's Messages body, less ``model`` and ``stream``, plus ``anthropic_version``."""
    if request.get("response_format") is not None:  # the clouds' default: the forced answer tool
        options = dict(request.get("provider_options") or {})
        options["anthropic"] = {"structured_output": "tool", **options.get("anthropic", {})}
        request = {**request, "provider_options": options}
    body = wire(request, anthropic_name(model), stream=False)
    body.pop("model")
    body["anthropic_version"] = VERSION
    return body


def _request_headers() -> dict[str, list[str]]:
    return {
        "content-type": ["application/json"],
        "accept": ["application/json"],
        "authorization": ["<credential>"],
    }


def _httprr(path: Path) -> list[dict[str, Any]]:
    """The exchanges of an httprr trace: ``<request length> <response length>\\n<request><response>``."""
    data, out, at = path.read_bytes(), [], 0
    at = data.index(b"\n") + 1  # "httprr trace v1"
    while at < len(data):
        end = data.index(b"\n", at)
        sizes = data[at:end].split()
        at = end + 1
        request, at = data[at : at + int(sizes[0])], at + int(sizes[0])
        response, at = data[at : at + int(sizes[1])], at + int(sizes[1])
        head, _, body = (
            request.partition(b"\r\n\r\n") if b"\r\n\r\n" in request else request.partition(b"\n\n")
        )
        rhead, _, rbody = (
            response.partition(b"\r\n\r\n") if b"\r\n\r\n" in response else response.partition(b"\n\n")
        )
        lines = rhead.decode().splitlines()
        headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
        out.append(
            {
                "uri": head.decode().splitlines()[0].split()[1],
                "request_body": body.decode(),
                "status": int(lines[0].split()[1]),
                "headers": headers,
                "body": rbody,
            }
        )
    return out


def exchange(saved: str, index: int) -> dict[str, Any]:
    """One recorded exchange (uri, request body text, status, lowercase headers, body bytes)."""
    path = CORPUS / saved
    if saved.endswith(".httprr"):
        return _httprr(path)[index]
    item = yaml.safe_load(path.read_text(encoding="utf-8"))["interactions"][index]
    request, response = item["request"], item["response"]
    body = request["body"] if "body" in request else json.dumps(request["parsed_body"])
    if "parsed_body" in response:  # pydantic-ai keeps JSON bodies parsed
        raw = json.dumps(response["parsed_body"]).encode("utf-8")
    else:
        raw = response["body"]
        raw = raw.get("string", "") if isinstance(raw, dict) else raw
    status = response.get("code") or response["status"]["code"]
    headers = {
        k.lower(): (v[0] if isinstance(v, list) else v) for k, v in (response.get("headers") or {}).items()
    }
    return {
        "uri": request.get("url") or request["uri"],
        "request_body": body.get("string") if isinstance(body, dict) else body,
        "status": int(status),
        "headers": headers,
        "body": raw if isinstance(raw, bytes) else raw.encode("utf-8"),
    }


def recorded_case(spec: dict[str, Any]) -> tuple[dict[str, Any], list[Interaction]]:
    saved, index = spec["saved"], spec["interaction"]
    found = exchange(saved, index)
    assert "bedrock-runtime." in found["uri"], f"{saved}#{index} is not a Bedrock call"
    recorded = json.loads(found["request_body"])
    assert recorded.get("anthropic_version") == VERSION and "model" not in recorded
    path = unquote(found["uri"].split("/model/", 1)[1])
    model, action = path.rsplit("/", 1)
    stream = action == "invoke-with-response-stream"
    region = found["uri"].split("bedrock-runtime.", 1)[1].split(".", 1)[0]
    request = canonical(recorded)
    request.update(spec.get("request_update") or {})
    media = found["headers"].get("content-type", "application/json").split(";")[0]
    kept = {
        "content-type": [media],
        **{k: [found["headers"][k]] for k in KEPT_HEADERS if k in found["headers"]},
    }
    interaction = Interaction(
        request={
            "method": "POST",
            "uri": url(model, stream=stream, region=region),
            "headers": _request_headers(),
            "body": {"json": bedrock_body(request, model)},
        },
        response={
            "status": {"code": found["status"], "message": _STATUS.get(found["status"], "")},
            "headers": kept,
            "body": store_body(found["body"], kept),
        },
    )
    source = corpus_attribution.attribution(SOURCES, saved, interaction=index, note=spec.get("note", ""))
    case = {
        "description": spec["description"],
        "method": "stream" if stream else "generate",
        "model": model,
        **({"features": spec["features"]} if spec.get("features") else {}),
        **({"config": {"region": region}} if region != REGION else {}),
        "request": request,
        "source": source,
    }
    return case, [interaction]


def mock_case(spec: dict[str, Any]) -> tuple[dict[str, Any], list[Interaction]]:
    """A MOCK case: a written answer (an error in the documented shape), or none (a refusal)."""
    model, stream = spec.get("model", HAIKU), spec.get("method") == "stream"
    source = {"mock": True, "docs": spec["docs"], "note": "MOCK: " + spec["why"]}
    case = {
        "description": spec["description"],
        "method": spec.get("method", "generate"),
        "model": model,
        **({"features": spec["features"]} if spec.get("features") else {}),
        "request": spec["request"],
        "source": source,
    }
    played: list[Interaction] = []
    if "answer_from" in spec:  # a recorded answer (the request is not the recorded one)
        found = exchange(*spec["answer_from"])
        spec = {**spec, "status": found["status"], "body": json.loads(found["body"])}
        source["answer_from"] = f"tests/corpus/anthropic-bedrock/{spec['answer_from'][0]}"
    if "status" in spec:
        headers = {
            "content-type": ["application/json"],
            **{k: [v] for k, v in spec.get("headers", {}).items()},
        }
        counting = spec.get("method") == "count_tokens"
        played.append(
            Interaction(
                request={
                    "method": "POST",
                    "uri": url(model, stream=stream, action="count-tokens" if counting else None),
                    "headers": _request_headers(),
                    "body": {
                        "json": (count_body if counting else bedrock_body)(spec["request"], model)
                    },
                },
                response={
                    "status": {"code": spec["status"], "message": _STATUS.get(spec["status"], "")},
                    "headers": headers,
                    "body": {"json": spec["body"]},
                },
            )
        )
    return case, played


def derived_case(spec: dict[str, Any]) -> tuple[dict[str, Any], list[Interaction]]:
    """A MOCK case from a real recording of Claude on Vertex AI (tests/corpus/vertex-anthropic): the
    same Messages request and answer, sent and played at Bedrock's URL with Bedrock's body."""
    from modelport_conformance.containers import read_recording

    saved, index = spec["derived_from"], spec["interaction"]
    found = read_recording(ROOT / "tests" / "corpus" / "vertex-anthropic" / saved).exchanges[index]
    request = canonical(json.loads(found.request_body or "{}"))
    if spec.get("response_format"):
        (tool,) = request.pop("tools")
        request.pop("tool_choice", None)
        request["response_format"] = {
            "type": "json_schema",
            "name": tool["name"],
            "description": tool["description"],
            "schema": tool["parameters"],
        }
    model = spec["model"]
    kept = {"content-type": ["application/json"]}
    interaction = Interaction(
        request={
            "method": "POST",
            "uri": url(model, stream=False),
            "headers": _request_headers(),
            "body": {"json": bedrock_body(request, model)},
        },
        response={
            "status": {"code": found.status, "message": _STATUS.get(found.status, "")},
            "headers": kept,
            "body": store_body(found.response_body, kept),
        },
    )
    note = (
        "MOCK: the corpus has no Bedrock recording of this; request and answer are a real recording of "
        f"Claude on Vertex AI (the same Messages API), played at Bedrock's URL: {spec['why']}"
    )
    source = {"mock": True, "derived_from": f"tests/corpus/vertex-anthropic/{saved}", "interaction": index}
    source["note"] = note
    case = {
        "description": spec["description"],
        "method": "generate",
        "model": model,
        **({"features": spec["features"]} if spec.get("features") else {}),
        "request": request,
        "source": source,
    }
    return case, [interaction]


def build(spec: dict[str, Any]) -> None:
    """Write one case directory (``expected.json``, when present, is kept)."""
    if "derived_from" in spec:
        case, played = derived_case(spec)
    else:
        case, played = mock_case(spec) if spec.get("mock") else recorded_case(spec)
    directory = TARGET / spec["name"]
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "case.yaml").write_text(
        yaml.safe_dump(case, sort_keys=False, allow_unicode=True, width=100), encoding="utf-8"
    )
    cassette = Cassette(played, metadata={"source": case["source"]})
    (directory / "cassette.yaml").write_text(dump_cassette(cassette), encoding="utf-8")


def main() -> None:
    from bedrock_anthropic_case_table import cases

    specs = cases()
    keep = {spec["name"] for spec in specs}
    if TARGET.exists():
        for stale in TARGET.iterdir():
            if stale.is_dir() and stale.name not in keep:
                shutil.rmtree(stale)
    for spec in specs:
        build(spec)
    print(f"anthropic-bedrock: {len(specs)} cases in {TARGET.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
