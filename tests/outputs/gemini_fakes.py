"""Gemini-shaped fakes shared by the typed-output and tool-loop tests: an httpx mock transport that
answers with scripted bodies and records every request body, a ``Person`` output type and a
``weather`` function tool.

The response shapes are those of the recorded Gemini corpus: ``functionCall`` parts with a
``thoughtSignature`` on the first call of a turn (tests/corpus/gemini, vercel__ai
google-tool-call-gemini3.json), ``executableCode``/``codeExecutionResult`` for provider-run code.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
from pydantic import BaseModel

import modelport
from modelport import tool

KEY = "test-key-typed-outputs-1"
SIGNATURE = "CiIBVKhc7oDJLsh2CqvZbkmVMHXbgV8aaZ4c8OkrIS2qcfQf"


class Person(BaseModel):
    """A person."""

    name: str
    age: int


def answer(parts: list[dict[str, Any]], usage: tuple[int, int] = (10, 5)) -> dict[str, Any]:
    return {
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}],
        "usageMetadata": {
            "promptTokenCount": usage[0],
            "candidatesTokenCount": usage[1],
            "totalTokenCount": sum(usage),
        },
        "modelVersion": "gemini-3-flash-preview",
    }


class Fake:
    """Answers each request with the next scripted body; keeps every request body."""

    def __init__(self, *bodies: dict[str, Any]) -> None:
        self.bodies = list(bodies)
        self.requests: list[dict[str, Any]] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(json.loads(request.content))
        body = self.bodies.pop(0) if len(self.bodies) > 1 else self.bodies[0]
        if request.url.path.endswith(":streamGenerateContent"):
            return httpx.Response(200, content=b"data: " + json.dumps(body).encode() + b"\r\n\r\n",
                                  headers={"content-type": "text/event-stream"})  # fmt: skip
        return httpx.Response(200, json=body)

    def model(self) -> modelport.Model:
        return modelport.get_model(
            "google/gemini-3-flash-preview", api_key=KEY, transport=httpx.MockTransport(self)
        )


@tool
def weather(city: str, unit: str = "celsius") -> dict[str, Any]:
    """The current weather in a city.

    Longer notes that are not part of the description.
    """
    return {"city": city, "temperature": 21 if city == "Paris" else 25, "unit": unit}
