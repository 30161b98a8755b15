"""Images and documents on ``bedrock``: a file part becomes the Converse ``image`` or ``document``
block that pydantic-ai's real client sent (its recordings in tests/corpus/bedrock), and what
Converse cannot carry is refused before any request."""

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
from modelport.types import Request
from tests import recordings
from tests.aws.replay import P, answering, keys, recorded

NOVA_PRO = "bedrock/us.amazon.nova-pro-v1:0"


def downloaded(name: str) -> bytes:
    """The file pydantic-ai downloaded before its Converse call (the recording's first interaction)."""
    data = yaml.safe_load(recordings.bedrock(P + name).read_text(encoding="utf-8"))
    body: bytes = data["interactions"][0]["response"]["body"]["string"]
    return body


def user_with(text: str, *files: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {"role": "system", "content": "You are a helpful chatbot."},
        {"role": "user", "content": [{"type": "text", "text": text}, *files]},
    ]


def test_an_image_is_sent_as_its_bytes_the_way_the_recording_has_it() -> None:
    sent, answer = recorded("test_image_url_input.yaml", 1)
    jpeg = downloaded("test_image_url_input.yaml")
    assert len(jpeg) == 31812
    seen: list[httpx.Request] = []
    model = modelport.get_model(NOVA_PRO, transport=answering(answer, seen=seen), **keys())
    image = {"type": "file", "media_type": "image/jpeg", "data": base64.b64encode(jpeg).decode()}
    result = model.generate(
        messages=user_with("What is this vegetable?", image),
        provider_options={"bedrock": {"inferenceConfig": {}}},
    )
    assert json.loads(seen[0].content) == sent
    assert sent["messages"][0]["content"][1]["image"]["format"] == "jpeg"
    assert result.text.startswith("The image shows a potato. It is oval in shape")
    assert (result.usage.input_tokens, result.usage.output_tokens) == (1837, 82)


def test_a_pdf_is_a_document_named_document_1() -> None:
    sent, answer = recorded("test_document_url_input.yaml", 1)
    pdf = downloaded("test_document_url_input.yaml")
    seen: list[httpx.Request] = []
    model = modelport.get_model(
        "bedrock/anthropic.claude-v2", transport=answering(answer, seen=seen), **keys()
    )
    document = {"type": "file", "media_type": "application/pdf", "data": base64.b64encode(pdf).decode()}
    result = model.generate(
        messages=user_with("What is the main content on this document?", document),
        provider_options={"bedrock": {"inferenceConfig": {}}},
    )
    assert json.loads(seen[0].content) == sent
    block = sent["messages"][0]["content"][1]["document"]
    assert (block["name"], block["format"]) == ("Document 1", "pdf")
    assert result.text.startswith(
        'Based on the provided XML data, the main content of the document is "Dummy PDF'
    )


def _blocks(*parts: dict[str, Any]) -> list[dict[str, Any]]:
    request = Request.model_validate({"messages": [{"role": "user", "content": list(parts)}]})
    content: list[dict[str, Any]] = build_request("amazon.nova-pro-v1:0", request, stream=False).body[
        "messages"
    ][0]["content"]
    return content


def test_documents_are_numbered_in_order_unless_named_and_s3_is_a_location() -> None:
    text = base64.b64encode(b"a,b\n1,2\n").decode()
    blocks = _blocks(
        {"type": "file", "media_type": "text/csv", "data": text},
        {
            "type": "file",
            "media_type": "text/markdown",
            "data": text,
            "provider_metadata": {"bedrock": {"name": "Notes (v2)"}},
        },
        {"type": "file", "media_type": "text/plain", "data": text},
        {"type": "file", "media_type": "image/PNG; name=cat", "uri": "s3://bucket/cat.png"},
    )
    assert [b["document"]["name"] for b in blocks[:3]] == ["Document 1", "Notes (v2)", "Document 3"]
    assert [b["document"]["format"] for b in blocks[:3]] == ["csv", "md", "txt"]
    assert blocks[0]["document"]["source"] == {"bytes": "YSxiCjEsMgo="}
    assert blocks[3] == {"image": {"format": "png", "source": {"s3Location": {"uri": "s3://bucket/cat.png"}}}}


@pytest.mark.parametrize(
    ("part", "message"),
    [
        ({"media_type": "image/bmp", "data": "AAAA"}, "Converse takes no 'image/bmp' file"),
        ({"media_type": "image/png", "uri": "https://example.com/a.png"}, "Bedrock fetches no URL"),
        (
            {"media_type": "image/png", "data": base64.b64encode(b"\0" * 3_932_161).decode()},
            "3932161 bytes is over Bedrock's limit of 3932160",
        ),
        (
            {
                "media_type": "application/pdf",
                "data": "AAAA",
                "provider_metadata": {"bedrock": {"name": "a  b"}},
            },
            "the document name 'a  b' is not one Bedrock takes",
        ),
    ],
)
def test_a_file_converse_cannot_carry_is_refused_before_any_request(
    part: dict[str, Any], message: str
) -> None:
    seen: list[httpx.Request] = []
    model = modelport.get_model(NOVA_PRO, transport=answering({}, seen=seen), **keys())
    with pytest.raises(InvalidRequestError, match=message):
        model.generate(messages=user_with("Look.", {"type": "file", **part}))
    assert seen == []


def test_a_file_in_an_assistant_turn_is_refused() -> None:
    seen: list[httpx.Request] = []
    model = modelport.get_model(NOVA_PRO, transport=answering({}, seen=seen), **keys())
    history = [
        {"role": "user", "content": "Draw."},
        {"role": "assistant", "content": [{"type": "file", "media_type": "image/png", "data": "AAAA"}]},
        {"role": "user", "content": "Again."},
    ]
    with pytest.raises(
        InvalidRequestError, match=r"messages\.1\.content\.0: Converse takes files in user turns"
    ):
        model.generate(messages=history)
    assert seen == []
