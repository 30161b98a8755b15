"""Tool results holding images and documents on the Messages API (``anthropic``, and the same
mapping on ``anthropic-bedrock`` and ``anthropic-vertex``): an output of text and file parts is a
``tool_result`` whose ``content`` is ``text`` / ``image`` / ``document`` blocks, the block
charmbracelet/fantasy's real client sent with a screenshot (tests/corpus/anthropic). No recording
of such a tool result on Bedrock exists: the anthropic-bedrock test checks the body it sends."""

from __future__ import annotations

import base64
import json
from typing import Any

import httpx
import pytest
import yaml
from modelport_anthropic._request import build_body

import modelport
from modelport.errors import InvalidRequestError
from modelport.types import FilePart, Request, TextPart
from tests import recordings
from tests.anthropic.test_bedrock import answering, keys

SCREENSHOT = "charmbracelet__fantasy/providertests__testdata__TestAnthropicComputerUse__claude-sonnet-4__computer_use.yaml"
CALL = "toolu_01MpnnLwjqpqYWLUQ5F5SixE"
PDF = b"%PDF-1.4\n1 0 obj\n<<>>\nendobj\n%%EOF\n"
ANSWER = (
    b'{"id":"msg_bdrk_1","type":"message","role":"assistant","content":[{"type":"text","text":"A dot."}],'
    b'"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}'
)


def recorded_result() -> dict[str, Any]:
    data = yaml.safe_load(recordings.anthropic(SCREENSHOT).read_text(encoding="utf-8"))
    sent = json.loads(data["interactions"][1]["request"]["body"])
    block: dict[str, Any] = sent["messages"][2]["content"][0]
    return block


def turns(output: Any) -> list[dict[str, Any]]:
    return [
        {"role": "user", "content": "Take a screenshot of the desktop"},
        {
            "role": "assistant",
            "content": [
                {"type": "tool-call", "id": CALL, "name": "computer", "args": {"action": "screenshot"}}
            ],
        },
        {
            "role": "tool",
            "content": [{"type": "tool-result", "call_id": CALL, "name": "computer", "output": output}],
        },
    ]


def tool_result(output: Any) -> dict[str, Any]:
    body, _, _ = build_body(
        "claude-sonnet-4-20250514", Request.model_validate({"messages": turns(output)}), stream=False
    )
    block: dict[str, Any] = body["messages"][2]["content"][0]
    return block


def test_a_screenshot_result_is_the_block_the_recorded_client_sent() -> None:
    recorded = recorded_result()
    png = base64.b64decode(recorded["content"][0]["source"]["data"])
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) == 70
    assert tool_result([FilePart(media_type="image/png", data=png)]) == recorded
    as_dict = {"type": "file", "media_type": "image/png", "data": recorded["content"][0]["source"]["data"]}
    assert tool_result([as_dict]) == recorded


def test_text_image_and_pdf_blocks_in_order() -> None:
    parts = [
        TextPart(text="Here they are."),
        FilePart(media_type="image/jpeg", data=b"\xff\xd8\xff\xe0"),
        FilePart(
            media_type="application/pdf", data=PDF, provider_metadata={"anthropic": {"title": "Report"}}
        ),
        FilePart(media_type="image/png", uri="https://example.com/a.png"),
    ]
    assert tool_result(parts)["content"] == [
        {"type": "text", "text": "Here they are."},
        {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": "/9j/4A=="}},
        {
            "type": "document",
            "source": {
                "type": "base64",
                "media_type": "application/pdf",
                "data": base64.b64encode(PDF).decode(),
            },
            "title": "Report",
        },
        {"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}},
    ]


def test_other_outputs_stay_as_they_were() -> None:
    assert tool_result("done")["content"] == "done"
    assert tool_result({"temperature": 21})["content"] == '{"temperature":21}'
    assert tool_result([{"type": "chart", "points": 3}])["content"] == '[{"type":"chart","points":3}]'
    with pytest.raises(InvalidRequestError, match=r"messages\[2\]\.content\.0: a tool result's output mixes"):
        tool_result([TextPart(text="a"), 3])
    with pytest.raises(
        InvalidRequestError, match=r"messages\[2\]\.content\.0\.output\.0: media type 'audio/wav'"
    ):
        tool_result([FilePart(media_type="audio/wav", data=b"RIFF")])


def test_on_bedrock_the_invoke_model_body_carries_the_image_blocks() -> None:
    seen: list[httpx.Request] = []
    model = modelport.get_model(
        "anthropic-bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0",
        transport=answering(ANSWER, seen=seen),
        **keys(),
    )
    png = base64.b64decode(recorded_result()["content"][0]["source"]["data"])
    model.generate(
        messages=turns([TextPart(text="Screenshot:"), FilePart(media_type="image/png", data=png)]),
        max_output_tokens=64,
    )
    (request,) = seen
    block = json.loads(request.content)["messages"][2]["content"][0]
    assert block == {
        "type": "tool_result",
        "tool_use_id": CALL,
        "content": [{"type": "text", "text": "Screenshot:"}, recorded_result()["content"][0]],
    }


def test_on_bedrock_a_file_id_inside_a_result_is_refused_before_any_request() -> None:
    seen: list[httpx.Request] = []
    model = modelport.get_model(
        "anthropic-bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0",
        transport=answering(ANSWER, seen=seen),
        **keys(),
    )
    with pytest.raises(InvalidRequestError, match="has no Files API"):
        model.generate(
            messages=turns([FilePart(media_type="image/png", uri="file_011CNha8iCJcU1wXNR6q4V8w")])
        )
    assert seen == []
