"""The kit's Bedrock CountTokens pieces (:mod:`modelport.http.aws_count_tokens`), which ``bedrock``
(Converse form) and ``anthropic-bedrock`` (InvokeModel form) share."""

from __future__ import annotations

import base64

import pytest

from modelport.errors import InvalidRequestError
from modelport.http.aws_count_tokens import (
    COUNT_TOKENS_ACTION,
    converse_count_body,
    invoke_model_count_body,
    token_count,
)
from modelport.provider import TokenCount


def test_the_converse_form_wraps_the_fields_given() -> None:
    fields = {"messages": [{"role": "user", "content": [{"text": "hello"}]}], "system": []}
    assert converse_count_body(fields) == {"input": {"converse": fields}}
    assert COUNT_TOKENS_ACTION == "count-tokens"


def test_the_invoke_model_form_is_base64_of_compact_sorted_json() -> None:
    body = {
        "messages": [{"role": "user", "content": "Hi"}],
        "anthropic_version": "bedrock-2023-05-31",
        "max_tokens": 8,
    }
    encoded = invoke_model_count_body(body)["input"]["invokeModel"]["body"]
    assert encoded == (
        "eyJhbnRocm9waWNfdmVyc2lvbiI6ImJlZHJvY2stMjAyMy0wNS0zMSIsIm1heF90b2tlbnMiOjgsIm1lc3NhZ2VzIjpbeyJjb250"
        "ZW50IjoiSGkiLCJyb2xlIjoidXNlciJ9XX0="
    )
    assert base64.b64decode(encoded) == (
        b'{"anthropic_version":"bedrock-2023-05-31","max_tokens":8,"messages":[{"content":"Hi","role":"user"}]}'
    )
    with pytest.raises(InvalidRequestError, match="not JSON"):
        invoke_model_count_body({"data": b"\x00"})


def test_the_answer_is_input_tokens() -> None:
    assert token_count({"inputTokens": 375}) == TokenCount(input_tokens=375)
    with pytest.raises(KeyError):
        token_count({"input_tokens": 375})
