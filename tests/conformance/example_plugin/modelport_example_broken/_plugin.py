"""Two broken adapters, run against the Example provider's own cases.

``example-badrequest`` sends ``max_output_tokens`` instead of ``max_tokens`` (wrong request body);
``example-badresponse`` reads the token counts swapped (wrong response mapping).
"""

from __future__ import annotations

from importlib.resources import files
from typing import Any, ClassVar

from modelport_example.provider import ExampleProvider, decode, request_body

from modelport import hookimpl
from modelport.types import Request, Result, Usage


class BadRequestProvider(ExampleProvider):
    id: ClassVar[str] = "example-badrequest"

    def request_body(self, model_name: str, request: Request) -> dict[str, Any]:
        body = request_body(model_name, request)
        if "max_tokens" in body:
            body["max_output_tokens"] = body.pop("max_tokens")
        return body


class BadResponseProvider(ExampleProvider):
    id: ClassVar[str] = "example-badresponse"

    def decode(self, body: dict[str, Any]) -> Result:
        result = decode(body)
        raw = body.get("usage", {})
        swapped = Usage(input_tokens=raw.get("output"), output_tokens=raw.get("input"))
        return result.model_copy(update={"usage": swapped})


@hookimpl
def modelport_register_providers(register: Any) -> None:
    register(BadRequestProvider)
    register(BadResponseProvider)


@hookimpl
def modelport_conformance_suites(register: Any) -> None:
    cases = files("modelport_example") / "cases"
    register("example-badrequest", cases, unsupported={"stream": "only the generate path is under test"})
    register("example-badresponse", cases, unsupported={"stream": "only the generate path is under test"})
