"""What the ``bedrock`` tests share: a vendored pydantic-ai recording's bodies, a transport that
answers with one, and SigV4 keys built at run time (obviously fake)."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import httpx
import yaml

from tests import recordings

P = "pydantic__pydantic-ai/tests__models__cassettes__test_bedrock__"
ACCESS = "AKIA" + "B" * 16
SECRET = "k" * 20 + "/" + "q" * 19
TOKEN = "IQoJ" + "z" * 80
MODEL = "bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0"


@cache
def recorded(name: str, index: int = 0) -> tuple[dict[str, Any], Any]:
    """(request body, response body: parsed JSON or event-stream bytes) of a pydantic-ai recording."""
    data = yaml.safe_load(recordings.bedrock(P + name).read_text(encoding="utf-8"))
    item = data["interactions"][index]
    response = item["response"]
    body = response.get("parsed_body", response.get("body", {}).get("string"))
    return json.loads(item["request"]["body"]), body


def keys(**extra: Any) -> dict[str, Any]:
    return {"region": "us-east-1", "aws_access_key_id": ACCESS, "aws_secret_access_key": SECRET, **extra}


def answering(
    body: Any, status: int = 200, headers: dict[str, str] | None = None, seen: list[Any] | None = None
):
    def handler(request: httpx.Request) -> httpx.Response:
        if seen is not None:
            seen.append(request)
        if isinstance(body, bytes):
            kind = {"content-type": "application/vnd.amazon.eventstream"}
            return httpx.Response(status, content=body, headers={**kind, **(headers or {})})
        return httpx.Response(status, json=body, headers=headers)

    return httpx.MockTransport(handler)
