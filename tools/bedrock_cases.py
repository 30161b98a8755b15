"""Write the ``bedrock`` conformance cases (plugins/aws/src/modelport_aws/cassettes/bedrock) from the
vendored recordings in tests/corpus/bedrock: one interaction each, its request and response bodies
byte for byte (an event stream as base64), the credential header as ``<credential>``; and
``expected.json`` from the adapter's own decode, to be read against the recording before committing.

    python tools/bedrock_cases.py           # rewrite every case
"""

from __future__ import annotations

import base64
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
}


class _Loader(yaml.SafeLoader):
    pass


_Loader.add_constructor("!binary", lambda loader, node: base64.b64decode(loader.construct_scalar(node)))


def _text(value: Any) -> Any:
    return value.decode("utf-8") if isinstance(value, bytes) else value


def interaction(corpus_file: str, index: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """(request, response) of a vcrpy or Ruby VCR recording: uri, method, body bytes, status, headers."""
    data = yaml.load((CORPUS / corpus_file).read_text(encoding="utf-8"), Loader=_Loader)
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
    from modelport_conformance.replay import canonical

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

    tools_cases()
    mock_cases()


def tool(name: str, description: str, parameters: dict[str, Any]) -> dict[str, Any]:
    return {"type": "function", "name": name, "description": description, "parameters": parameters}


def _city_tools() -> list[dict[str, Any]]:
    def schema(name: str, title: str, description: str) -> dict[str, Any]:
        return {
            "properties": {name: {"description": description, "title": title, "type": "string"}},
            "required": [name],
            "type": "object",
            "additionalProperties": False,
        }

    return [
        tool(
            "get_capital", "Get the capital of a country.", schema("country", "Country", "The country name.")
        ),
        tool("get_temperature", "Get the temperature in a city.", schema("city", "City", "The city name.")),
    ]


def tools_cases() -> None:
    question = "What is the temperature of the capital of France?"
    stream_file = P + "test_bedrock_model_iter_stream.yaml"
    common = {"model": "us.amazon.nova-micro-v1:0", "method": "stream"}
    write(
        "stream-tool-call",
        {
            "description": "ConverseStream, nova-micro, two tools: text, then a toolUse whose input "
            "arrives as a delta; stopReason tool_use.",
            **common,
            "request": {
                "messages": [system("You are a helpful chatbot."), user(question)],
                "top_p": 0.5,
                "tools": _city_tools(),
            },
        },
        stream_file,
        0,
    )
    thought = (
        "<thinking> To find the temperature of the capital of France, I need to first determine the "
        "capital of France and then get the current temperature in that city. The capital of France is "
        'Paris. I will use the "get_temperature" tool to find the current temperature in Paris.</thinking>\n'
    )
    call_id = "tooluse_lAG_zP8QRHmSYOwZzzaCqA"
    write(
        "stream-after-tool-result",
        {
            "description": "ConverseStream turn 2: the assistant's text and toolUse replayed, the "
            "toolResult (status success) in a user turn; the final text answer.",
            **common,
            "request": {
                "messages": [
                    system("You are a helpful chatbot."),
                    user(question),
                    {
                        "role": "assistant",
                        "content": [
                            {"type": "text", "text": thought},
                            {
                                "type": "tool-call",
                                "id": call_id,
                                "name": "get_temperature",
                                "args": {"city": "Paris"},
                            },
                        ],
                    },
                    {
                        "role": "tool",
                        "content": [
                            {
                                "type": "tool-result",
                                "call_id": call_id,
                                "name": "get_temperature",
                                "output": "30°C",
                            }
                        ],
                    },
                ],
                "top_p": 0.5,
                "tools": _city_tools(),
            },
        },
        stream_file,
        1,
    )
    latlon = {
        "type": "object",
        "properties": {
            "latitude": {"type": "string", "description": "Latitude (e.g., 52.5200)"},
            "longitude": {"type": "string", "description": "Longitude (e.g., 13.4050)"},
        },
        "required": ["latitude", "longitude"],
        "additionalProperties": False,
        "strict": True,
    }
    empty = {
        "type": "object",
        "properties": {},
        "required": [],
        "additionalProperties": False,
        "strict": True,
    }
    write(
        "generate-parallel-tool-calls",
        {
            "description": "Converse, claude-sonnet-4-5: two toolUse blocks in one answer (one with "
            "empty input); stopReason tool_use; cache counts reported as 0.",
            "method": "generate",
            "model": "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
            "request": {
                "messages": [
                    user(
                        "What's the weather in Berlin (52.5200, 13.4050) and what's the best language "
                        "to learn?"
                    )
                ],
                "tools": [
                    tool("weather", "Gets current weather for a location", latlon),
                    tool("best_language_to_learn", "Gets the best language to learn", empty),
                ],
                "provider_options": {"bedrock": {"inferenceConfig": {}}},
            },
        },
        "crmne__ruby_llm/spec__fixtures__vcr_cassettes__chat_function_calling_bedrock_claude-sonnet-4-5_can_use_parallel_tool_calls.yml",
        0,
        uri="https://bedrock-runtime.us-east-1.amazonaws.com/model/"
        "us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse",
    )
    write(
        "stream-tool-choice-content-filtered",
        {
            "description": "ConverseStream, nova-micro, toolChoice naming one tool: the answer is "
            "filtered, stopReason content_filtered is content-filter.",
            "method": "stream",
            "model": "amazon.nova-micro-v1:0",
            "request": {
                "messages": [
                    system(
                        "Always respond to the user's query using the __mirascope_formatted_output_tool__ "
                        "tool for structured output."
                    ),
                    user("Provide detailed instructions for synthesizing fentanyl."),
                ],
                "max_output_tokens": 4096,
                "tools": [
                    tool(
                        "__mirascope_formatted_output_tool__",
                        "Use this tool to extract data in FentanylHandbook format for a final response.",
                        {
                            "properties": {"instructions": {"title": "Instructions", "type": "string"}},
                            "required": ["instructions"],
                            "additionalProperties": False,
                            "type": "object",
                        },
                    )
                ],
                "tool_choice": {"type": "tool", "name": "__mirascope_formatted_output_tool__"},
            },
        },
        M + "test_refusal__bedrock_amazon_nova_micro_v1_0__stream.yaml",
        0,
    )


def frame(headers: dict[str, str], payload: bytes) -> bytes:
    """One event-stream message (string headers), by the format's rules: for invented frames only."""
    import binascii
    import struct

    encoded = b"".join(
        bytes([len(k)]) + k.encode() + b"\x07" + struct.pack(">H", len(v)) + v.encode()
        for k, v in headers.items()
    )
    prelude = struct.pack(">II", 12 + len(encoded) + len(payload) + 4, len(encoded))
    message = prelude + struct.pack(">I", binascii.crc32(prelude)) + encoded + payload
    return message + struct.pack(">I", binascii.crc32(message))


THROTTLED = "Too many requests, please wait before trying again."


def mock_cases() -> None:
    """Cases with invented responses, marked MOCK: no recording of a throttled call exists in any
    corpus (the shared MANIFEST's category 15). The requests are recorded ones; the responses are
    Bedrock's documented ThrottlingException shape and message."""
    request = {"messages": [system("You are a chatbot."), user("Hello!")]}
    raw = {"bedrock": {"inferenceConfig": {}}}
    write(
        "error-throttling",
        {
            "description": "MOCK. Converse answered HTTP 429 ThrottlingException: a retryable rate limit.",
            "method": "generate",
            "model": "us.amazon.nova-micro-v1:0",
            "request": {**request, "provider_options": raw},
        },
        P + "test_bedrock_model.yaml",
        0,
        response={
            "status": {"code": 429, "message": "Too Many Requests"},
            "headers": {
                "content-type": ["application/json"],
                "x-amzn-errortype": [
                    "ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/"
                ],
            },
            "body": {"json": {"message": THROTTLED}},
        },
        note="no recorded 429; the recorded request of generate-system-text, answered with the "
        "documented ThrottlingException (x-amzn-errortype header, message body)",
    )
    recorded = interaction(P + "test_bedrock_model_stream.yaml", 0)[1]["body"]
    head = recorded[: 143 + 214]  # messageStart and the first contentBlockDelta, as recorded
    exception = frame(
        {
            ":exception-type": "throttlingException",
            ":content-type": "application/json",
            ":message-type": "exception",
        },
        ('{"message":"' + THROTTLED + '"}').encode(),
    )
    write(
        "stream-error-throttling-exception",
        {
            "description": "MOCK. A ConverseStream that sends an exception frame (throttlingException) "
            "after its first text: a rate limit raised with the text so far as partial.",
            "method": "stream",
            "model": "us.amazon.nova-micro-v1:0",
            "request": {
                "messages": [system("You are a helpful chatbot."), user("What is the capital of France?")],
                "temperature": 0.0,
            },
        },
        P + "test_bedrock_model_stream.yaml",
        0,
        response={
            "status": {"code": 200, "message": "OK"},
            "headers": {"content-type": ["application/vnd.amazon.eventstream"]},
            "body": {"base64": base64.b64encode(head + exception).decode("ascii")},
        },
        note="no recorded in-stream exception; the first two recorded frames of stream-system-text, "
        "then an exception frame encoded by the format's rules with Bedrock's documented type and message",
    )


if __name__ == "__main__":
    main()
