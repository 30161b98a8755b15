"""Write the ``bedrock`` conformance cases (plugins/aws/src/modelport_aws/cassettes/bedrock) from the
vendored recordings in tests/corpus/bedrock: one interaction each, its request and response bodies
byte for byte (an event stream as base64), the credential header as ``<credential>``; and
``expected.json`` from the adapter's own decode, to be read against the recording before committing.

    python tools/bedrock_cases.py           # rewrite every case
"""

from __future__ import annotations

import base64
import gzip
import json
import sys
from pathlib import Path
from typing import Any

import httpx
import yaml

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "corpus" / "bedrock"
OUT = ROOT / "plugins" / "aws" / "src" / "modelport_aws" / "cassettes" / "bedrock"
sys.path.insert(0, str(ROOT))

SOURCES = {
    "pydantic__pydantic-ai": ("pydantic/pydantic-ai", "4fda38988f2939fa6ea9cdefcf120693e10ef491", "MIT"),
    "Mirascope__mirascope": ("Mirascope/mirascope", "64dee1d9c1ecccd91ad8211a21d082a9cd7d6fa6", "MIT"),
    "crmne__ruby_llm": ("crmne/ruby_llm", "fb5a49bf04da78d3e74496431ad1c99df5e7e5f0", "MIT"),
    "langchain-ai__langchain-aws": (
        "langchain-ai/langchain-aws",
        "0434c7f94f6c27bfa275534f8ff1b0c3f1738144",
        "MIT",
    ),
}


class _Loader(yaml.SafeLoader):
    pass


_Loader.add_constructor("!binary", lambda loader, node: base64.b64decode(loader.construct_scalar(node)))


def _text(value: Any) -> Any:
    return value.decode("utf-8") if isinstance(value, bytes) else value


def interaction(corpus_file: str, index: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """(request, response) of a vcrpy or Ruby VCR recording (or langchain-aws's gzipped vcrpy
    ``requests``/``responses`` lists): uri, method, body bytes, status, headers."""
    raw_file = (CORPUS / corpus_file).read_bytes()
    text = (gzip.decompress(raw_file) if corpus_file.endswith(".gz") else raw_file).decode("utf-8")
    data = yaml.load(text, Loader=_Loader)
    if "requests" in data:
        request, response = data["requests"][index], data["responses"][index]
    else:
        item = (data.get("interactions") or data.get("http_interactions"))[index]
        request, response = item["request"], item["response"]
    body = request.get("body")
    if isinstance(body, dict):
        body = body.get("string")
    raw = response.get("body")
    if isinstance(raw, dict):
        raw = raw.get("string", raw)
    if isinstance(response.get("parsed_body"), dict):
        raw = json.dumps(response["parsed_body"]).encode()
    headers = {
        k.lower(): [_text(x) for x in (v if isinstance(v, list) else [v])]
        for k, v in (response.get("headers") or {}).items()
    }
    if headers.get("content-type") == ["**REDACTED**"]:  # langchain-aws redacts every header value
        stream = request["uri"].endswith("/converse-stream")
        headers = {"content-type": ["application/vnd.amazon.eventstream" if stream else "application/json"]}
    if headers.get("content-type", [""])[0] == "application/vnd.amazon.eventstream" and isinstance(raw, str):
        raw = base64.b64decode(raw)  # Ruby VCR keeps an event stream as a base64 string
    status = response["status"]
    return (
        {"method": request["method"].upper(), "uri": request["uri"], "body": _text(body)},
        {"status": status.get("code"), "message": status.get("message"), "headers": headers, "body": raw},
    )


def cassette(corpus_file: str, index: int, *, uri: str | None = None) -> dict[str, Any]:
    request, response = interaction(corpus_file, index)
    owner = corpus_file.split("/")[0]
    repo, commit, license_ = SOURCES[owner]
    source = {
        "repo": repo,
        "commit": commit,
        "license": license_,
        "corpus_file": corpus_file,
        "interaction": index,
    }
    kept = {
        k: v
        for k, v in response["headers"].items()
        if k in ("content-type", "x-amzn-errortype", "x-amzn-requestid")
    }
    media = kept.get("content-type", ["application/json"])[0]
    raw = response["body"]
    if media == "application/vnd.amazon.eventstream":
        body: Any = {"base64": base64.b64encode(raw).decode("ascii")}
    else:
        body = {"json": json.loads(raw)}
    return {
        "version": 1,
        "metadata": {"source": source},
        "interactions": [
            {
                "request": {
                    "method": "POST",
                    "uri": uri or request["uri"],
                    "headers": {"content-type": ["application/json"], "authorization": ["<credential>"]},
                    "body": {"json": json.loads(request["body"])},
                },
                "response": {
                    "status": {"code": response["status"], "message": response["message"] or "OK"},
                    "headers": kept,
                    "body": body,
                },
            }
        ],
    }, source


def write(
    name: str,
    case: dict[str, Any],
    corpus_file: str,
    index: int,
    *,
    uri: str | None = None,
    response: dict[str, Any] | None = None,
    note: str | None = None,
) -> None:
    data, source = cassette(corpus_file, index, uri=uri)
    if response is not None:  # MOCK: the recorded request, an invented response
        data["interactions"][0]["response"] = response
        source.update(note=f"MOCK: {note}", mock=True)
    folder = OUT / name
    folder.mkdir(parents=True, exist_ok=True)
    case = {
        **case,
        "source": {k: source[k] for k in ("repo", "commit", "license", "corpus_file", "interaction")},
    }
    (folder / "case.yaml").write_text(
        yaml.safe_dump(case, sort_keys=False, allow_unicode=True), encoding="utf-8"
    )
    (folder / "cassette.yaml").write_text(
        yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100), encoding="utf-8"
    )
    (folder / "expected.json").write_text(json.dumps(expected(case, data), indent=2, sort_keys=True) + "\n")


def expected(case: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    """The adapter's decode of the recorded response (read it against the recording)."""
    from modelport_aws._plugin import replay_options

    import modelport
    from modelport_conformance.replay import canonical, token_count

    response = data["interactions"][0]["response"]
    body = response["body"]
    content = base64.b64decode(body["base64"]) if "base64" in body else json.dumps(body["json"]).encode()
    headers = {k: v[0] for k, v in response["headers"].items()}
    transport = httpx.MockTransport(
        lambda r: httpx.Response(response["status"]["code"], content=content, headers=headers)
    )
    model = modelport.get_model(
        f"bedrock/{case['model']}",
        transport=transport,
        max_retries=0,
        api_key="ABSK" + "r" * 40,
        **replay_options(),
        **case.get("config", {}),
    )
    events: list[Any] = []
    try:
        if case["method"] == "stream":
            for event in model.stream(**case["request"]):
                events.append(canonical(event))
            return {"events": events}
        if case["method"] == "count_tokens":
            return {"token_count": token_count(model.count_tokens(**case["request"]))}
        if case["method"] == "embed":
            keywords = dict(case["request"])
            return {"embedding": canonical(model.embed(keywords.pop("values"), **keywords))}
        return {"result": canonical(model.generate(**case["request"]))}
    except modelport.ModelportError as error:
        out = {
            "type": type(error).__name__,
            "status_code": getattr(error, "status_code", None),
            "provider_status": getattr(error, "provider_status", None),
            "retryable": error.retryable,
        }
        found: dict[str, Any] = {"error": {k: v for k, v in out.items() if v is not None}}
        if events:
            found["events"] = events
        return found


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": text}]}


def system(text: str) -> dict[str, Any]:
    return {"role": "system", "content": [{"type": "text", "text": text}]}


#: What pydantic-ai sends with no system prompt and no settings (its real client's body).
RAW_EMPTY = {"bedrock": {"system": [], "inferenceConfig": {}}}

P = "pydantic__pydantic-ai/tests__models__cassettes__test_bedrock__"
M = "Mirascope__mirascope/python__tests__e2e__output__cassettes__"


def main() -> None:
    write(
        "generate-system-text",
        {
            "description": "Converse, nova-micro: a system block and Hello!; plain text, end_turn, usage.",
            "method": "generate",
            "model": "us.amazon.nova-micro-v1:0",
            "request": {
                "messages": [system("You are a chatbot."), user("Hello!")],
                "provider_options": {"bedrock": {"inferenceConfig": {}}},
            },
        },
        P + "test_bedrock_model.yaml",
        0,
    )
    write(
        "generate-multi-turn",
        {
            "description": "Converse, claude-sonnet-4-5: a system block, a replayed assistant turn, a "
            "second user turn; plain text answer.",
            "method": "generate",
            "model": "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
            "request": {
                "messages": [
                    system("Generate a short greeting."),
                    user("."),
                    {
                        "role": "assistant",
                        "content": [{"type": "text", "text": "Hello! How can I help you today?"}],
                    },
                    user("Now say goodbye."),
                ],
                "provider_options": {"bedrock": {"inferenceConfig": {}}},
            },
        },
        P + "test_bedrock_model_instructions_only_then_message_history[claude-sonnet-4-5].yaml",
        1,
    )
    write(
        "stream-system-text",
        {
            "description": "ConverseStream, nova-micro, a system block: 33 frames, end_turn, usage.",
            "method": "stream",
            "model": "us.amazon.nova-micro-v1:0",
            "request": {
                "messages": [system("You are a helpful chatbot."), user("What is the capital of France?")],
                "temperature": 0.0,
            },
        },
        P + "test_bedrock_model_stream.yaml",
        0,
    )
    write(
        "stream-max-tokens",
        {
            "description": "ConverseStream, nova-micro, maxTokens 50: stopReason max_tokens is length.",
            "method": "stream",
            "model": "amazon.nova-micro-v1:0",
            "request": {"messages": [user("List all U.S. states.")], "max_output_tokens": 50},
        },
        M + "test_max_tokens__bedrock_amazon_nova_micro_v1_0__stream.yaml",
        0,
    )
    write(
        "error-invalid-model",
        {
            "description": "Converse on an unknown model id: HTTP 400 ValidationException.",
            "method": "generate",
            "model": "us.does-not-exist-model-v1:0",
            "request": {"messages": [user("hello")], "provider_options": RAW_EMPTY},
        },
        P + "test_bedrock_error.yaml",
        0,
    )
    write(
        "stream-error-invalid-model",
        {
            "description": "ConverseStream on an unknown model id: HTTP 400 JSON, not an event stream.",
            "method": "stream",
            "model": "us.does-not-exist-model-v1:0",
            "request": {"messages": [user("hello")], "provider_options": RAW_EMPTY},
        },
        P + "test_bedrock_streaming_error.yaml",
        0,
    )
    write(
        "error-unrecognized-client",
        {
            "description": "Converse with a bad credential: HTTP 403 UnrecognizedClientException (auth).",
            "method": "generate",
            "model": "us.amazon.nova-2-lite-v1:0",
            "request": {
                "messages": [user("Hello")],
                "provider_options": {"bedrock": {"inferenceConfig": {}}},
            },
        },
        "crmne__ruby_llm/spec__fixtures__vcr_cassettes__chat_error_handling_with_bedrock_amazon_nova-2-lite-v1_0_raises_appropriate_auth_error.yml",
        0,
        uri="https://bedrock-runtime.us-east-1.amazonaws.com/model/us.amazon.nova-2-lite-v1%3A0/converse",
    )

    from bedrock_cases_content import content_cases  # tools/ is on sys.path as a script's folder
    from bedrock_cases_embed import embed_cases
    from bedrock_cases_tools import mock_cases, tools_cases

    tools_cases()
    mock_cases()
    content_cases()
    embed_cases()


if __name__ == "__main__":
    main()
