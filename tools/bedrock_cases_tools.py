"""The ``bedrock`` cases of tools and tool choice (from the recordings) and the MOCK throttling
cases (no recording of a throttled call exists), written by :mod:`bedrock_cases` with its helpers.

    python tools/bedrock_cases.py           # rewrites these with every other case
"""

from __future__ import annotations

import base64
from typing import Any

from bedrock_cases import M, P, interaction, system, user, write


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
    image_tool_result()
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


IMAGE_FILE = (
    "crmne__ruby_llm/spec__fixtures__vcr_cassettes__chat_multimodal_tool_attachments_bedrock_"
    "claude-sonnet-4-5_describes_images_returned_from_tools.yml"
)


def image_tool_result() -> None:
    """ruby_llm's turn 2: a toolResult holding a text block and the PNG the tool returned, no status."""
    import json

    sent = json.loads(interaction(IMAGE_FILE, 1)[0]["body"])
    result = sent["messages"][2]["content"][0]["toolResult"]
    image = result["content"][1]["image"]
    call_id = result["toolUseId"]
    empty = {
        "type": "object",
        "properties": {},
        "required": [],
        "additionalProperties": False,
        "strict": True,
    }
    write(
        "generate-image-tool-result",
        {
            "description": "Converse, claude-sonnet-4-5 turn 2: a tool result of a text part and a PNG "
            "file part is a toolResult of a text block and an image block (no status, as sent); the "
            "model describes the image.",
            "method": "generate",
            "model": "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
            "request": {
                "messages": [
                    user("Use the image_fetch tool, then describe exactly what the returned image shows."),
                    {
                        "role": "assistant",
                        "content": [{"type": "tool-call", "id": call_id, "name": "image_fetch", "args": {}}],
                    },
                    {
                        "role": "tool",
                        "content": [
                            {
                                "type": "tool-result",
                                "call_id": call_id,
                                "name": "image_fetch",
                                "output": [
                                    {"type": "text", "text": result["content"][0]["text"]},
                                    {
                                        "type": "file",
                                        "media_type": "image/png",
                                        "data": image["source"]["bytes"],
                                    },
                                ],
                                "provider_metadata": {"bedrock": {"status": None}},
                            }
                        ],
                    },
                ],
                "tools": [tool("image_fetch", "Fetches the requested image", empty)],
                "provider_options": {"bedrock": {"inferenceConfig": {}}},
            },
        },
        IMAGE_FILE,
        1,
        uri="https://bedrock-runtime.us-east-1.amazonaws.com/model/"
        "us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse",
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
