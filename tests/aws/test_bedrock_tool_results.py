"""Tool results holding images and documents on ``bedrock``: a tool result whose output is text and
file parts becomes a Converse ``toolResult`` of ``text`` / ``image`` / ``document`` blocks, the body
ruby_llm's real client sent (its recording in tests/corpus/bedrock); ``status`` follows the result
unless the part's ``provider_metadata["bedrock"]["status"]`` says otherwise; what Converse cannot
carry is refused before any request."""

from __future__ import annotations

import base64
import json
from typing import Any

import httpx
import pytest
import yaml
from modelport_aws._request import build_request

import modelport
from modelport.errors import InvalidRequestError
from modelport.types import FilePart, Request, TextPart
from tests import recordings
from tests.aws.replay import answering, keys

IMAGE_FILE = (
    "crmne__ruby_llm/spec__fixtures__vcr_cassettes__chat_multimodal_tool_attachments_bedrock_"
    "claude-sonnet-4-5_describes_images_returned_from_tools.yml"
)
CALL = "tooluse_fZe5JXECegx58wobgRCyX9"
PDF = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n%%EOF\n"


def ruby_llm(index: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """(request body, response body) of the recording's interaction ``index``."""
    data = yaml.safe_load(recordings.bedrock(IMAGE_FILE).read_text(encoding="utf-8"))
    item = data["http_interactions"][index]
    return json.loads(item["request"]["body"]["string"]), json.loads(item["response"]["body"]["string"])


def recorded_png() -> bytes:
    sent, _ = ruby_llm(1)
    return base64.b64decode(
        sent["messages"][2]["content"][0]["toolResult"]["content"][1]["image"]["source"]["bytes"]
    )


def turns(output: Any, **part: Any) -> list[dict[str, Any]]:
    return [
        {
            "role": "user",
            "content": "Use the image_fetch tool, then describe exactly what the returned image shows.",
        },
        {
            "role": "assistant",
            "content": [{"type": "tool-call", "id": CALL, "name": "image_fetch", "args": {}}],
        },
        {
            "role": "tool",
            "content": [
                {"type": "tool-result", "call_id": CALL, "name": "image_fetch", "output": output, **part}
            ],
        },
    ]


def tool_result(output: Any, **part: Any) -> dict[str, Any]:
    request = Request.model_validate({"messages": turns(output, **part)})
    body = build_request("us.anthropic.claude-sonnet-4-5-20250929-v1:0", request, stream=False).body
    block: dict[str, Any] = body["messages"][2]["content"][0]["toolResult"]
    return block


EMPTY = {"type": "object", "properties": {}, "required": [], "additionalProperties": False, "strict": True}


def test_a_text_and_image_result_is_the_body_the_recorded_client_sent() -> None:
    sent, answer = ruby_llm(1)
    seen: list[httpx.Request] = []
    model = modelport.get_model(
        "bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0",
        transport=answering(answer, seen=seen),
        **keys(),
    )
    parts = [TextPart(text="Fetched the image."), FilePart(media_type="image/png", data=recorded_png())]
    result = model.generate(
        messages=turns(parts, provider_metadata={"bedrock": {"status": None}}),
        tools=[
            {
                "type": "function",
                "name": "image_fetch",
                "description": "Fetches the requested image",
                "parameters": EMPTY,
            }
        ],
        provider_options={"bedrock": {"inferenceConfig": {}}},
    )
    (request,) = seen
    assert json.loads(request.content) == sent
    assert result.text.startswith("The returned image shows a stylized ruby gemstone icon.")
    assert result.usage.input_tokens == 675


def test_the_recorded_image_block_and_its_bytes() -> None:
    png = recorded_png()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png.endswith(b"IEND\xaeB`\x82") and len(png) == 15941
    block = tool_result([TextPart(text="Fetched the image."), FilePart(media_type="image/png", data=png)])
    assert block == {
        "toolUseId": CALL,
        "content": [
            {"text": "Fetched the image."},
            {"image": {"format": "png", "source": {"bytes": base64.b64encode(png).decode("ascii")}}},
        ],
        "status": "success",
    }


def test_parts_given_as_dicts_map_as_the_objects_do() -> None:
    dicts = [
        {"type": "text", "text": "Here it is."},
        {"type": "file", "media_type": "image/jpeg", "data": base64.b64encode(b"\xff\xd8\xff\xe0").decode()},
    ]
    assert tool_result(dicts)["content"] == [
        {"text": "Here it is."},
        {"image": {"format": "jpeg", "source": {"bytes": "/9j/4A=="}}},
    ]


def test_a_document_in_a_result_is_a_named_document_block() -> None:
    block = tool_result([FilePart(media_type="application/pdf", data=PDF)])
    assert block["content"] == [
        {
            "document": {
                "format": "pdf",
                "name": "Document 1",
                "source": {"bytes": base64.b64encode(PDF).decode()},
            }
        }
    ]
    named = FilePart(
        media_type="text/csv", data=b"a,b\n1,2\n", provider_metadata={"bedrock": {"name": "Totals"}}
    )
    assert tool_result([named])["content"] == [
        {"document": {"format": "csv", "name": "Totals", "source": {"bytes": "YSxiCjEsMgo="}}}
    ]


def test_an_s3_image_in_a_result_is_an_s3_location() -> None:
    block = tool_result([FilePart(media_type="image/webp", uri="s3://bucket/shot.webp")])
    assert block["content"] == [
        {"image": {"format": "webp", "source": {"s3Location": {"uri": "s3://bucket/shot.webp"}}}}
    ]


def test_status_follows_the_result_unless_the_part_says() -> None:
    assert tool_result("done")["status"] == "success"
    assert tool_result("boom", is_error=True)["status"] == "error"
    assert tool_result("boom", is_error=True, provider_metadata={"bedrock": {"status": None}}) == {
        "toolUseId": CALL,
        "content": [{"text": "boom"}],
    }
    with pytest.raises(
        InvalidRequestError, match=r"messages\.2\.content\.0: bedrock status 'failed' is not one of"
    ):
        tool_result("x", provider_metadata={"bedrock": {"status": "failed"}})


def test_json_outputs_stay_json_blocks() -> None:
    assert tool_result({"temperature": 21})["content"] == [{"json": {"temperature": 21}}]
    assert tool_result([1, 2])["content"] == [{"json": [1, 2]}]
    assert tool_result([{"type": "chart", "points": 3}])["content"] == [
        {"json": [{"type": "chart", "points": 3}]}
    ]
    assert tool_result([])["content"] == [{"json": []}]


def test_what_converse_cannot_carry_is_refused_before_any_request() -> None:
    calls: list[httpx.Request] = []
    model = modelport.get_model(
        "bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0", transport=answering({}, seen=calls), **keys()
    )
    wav = FilePart(media_type="audio/wav", data=b"RIFF")
    with pytest.raises(
        InvalidRequestError, match=r"messages\.2\.content\.0\.output\.0: Converse takes no 'audio/wav' file"
    ):
        model.generate(messages=turns([wav]))
    with pytest.raises(InvalidRequestError, match="mixes content parts with other values"):
        model.generate(messages=turns([TextPart(text="a"), {"temperature": 21}]))
    with pytest.raises(InvalidRequestError, match=r"messages\.2\.content\.0\.output\.1: not a file part"):
        model.generate(
            messages=turns([{"type": "text", "text": "a"}, {"type": "file", "media_type": "image/png"}])
        )
    with pytest.raises(InvalidRequestError, match="Bedrock fetches no URL"):
        model.generate(messages=turns([FilePart(media_type="image/png", uri="https://example.com/a.png")]))
    assert calls == []
