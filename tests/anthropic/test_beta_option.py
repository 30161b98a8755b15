"""``beta=`` of the ``anthropic`` provider (issue 34, Low): the ``anthropic-beta`` header carries beta
names given as a string or a list of strings; anything else (``b"files-api-2025-04-14"`` was sent as
``102,105,108,…``) is a ``ConfigurationError`` with nothing sent."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from modelport.errors import ConfigurationError

from .fakes import message, model


@pytest.mark.parametrize(
    ("beta", "shape"),
    [
        (b"files-api-2025-04-14", "bytes"),
        (bytearray(b"files-api-2025-04-14"), "bytearray"),
        ([b"files-api-2025-04-14"], "a list holding bytes"),
        (("files-api-2025-04-14", 7), "a tuple holding int"),
        ({"files-api-2025-04-14"}, "set"),
        (20250414, "int"),
    ],
)
@pytest.mark.parametrize("call", ["generate", "stream", "agenerate", "count_tokens"])
def test_a_beta_that_is_no_name_is_refused_before_any_request(beta: Any, shape: str, call: str) -> None:
    m, answers = model([httpx.Response(200, json=message())], beta=beta)
    with pytest.raises(ConfigurationError) as info:
        if call == "agenerate":
            asyncio.run(m.agenerate(prompt="Hi"))
        elif call == "stream":
            m.stream(prompt="Hi").result()
        else:
            getattr(m, call)(prompt="Hi")
    assert type(info.value) is ConfigurationError
    assert str(info.value) == f"beta= takes a beta name or a list of them (strings), got {shape}"
    assert answers.requests == []


@pytest.mark.parametrize(
    ("beta", "header"),
    [
        ("files-api-2025-04-14", "files-api-2025-04-14"),
        (("files-api-2025-04-14", "context-1m-2025-08-07"), "files-api-2025-04-14,context-1m-2025-08-07"),
        (["web-fetch-2025-09-10"], "web-fetch-2025-09-10"),
    ],
)
def test_beta_names_are_sent_as_given(beta: Any, header: str) -> None:
    m, answers = model([httpx.Response(200, json=message())], beta=beta)
    m.generate(prompt="Hi")
    assert answers.requests[0].headers["anthropic-beta"] == header


@pytest.mark.parametrize("beta", [None, "", [], ()])
def test_no_beta_sends_no_header(beta: Any) -> None:
    m, answers = model([httpx.Response(200, json=message())], beta=beta)
    m.generate(prompt="Hi")
    assert "anthropic-beta" not in answers.requests[0].headers
