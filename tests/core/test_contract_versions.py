"""Contract versions: a provider written for 2.2 or 2.1 registers as it is, one written for 2.0 through the
adapter of ``modelport.contracts`` (usage read the 2.1 way, generate and stream, sync and async),
and any version the core cannot adapt is refused at registration with the version named.

The 2.0 usages are Gemini's real ``usageMetadata`` counts from the recorded cases named, as the
Google plugin mapped them under 2.0 (prompt, candidates, thoughts, tool-use prompt, cache read and
total each as reported); the 2.1 usage each must become is that case's ``expected.json``.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest

import modelport
from modelport import events as ev
from modelport.contracts import ADAPTED_VERSIONS, COMPATIBLE_VERSIONS, adapted, usage_from_2_0
from modelport.errors import ConfigurationError
from modelport.http import HttpProvider, HttpRequest
from modelport.provider import CONTRACT_VERSION
from modelport.types import Result, TextPart, Usage


def _register(provider: type[modelport.Provider], name: str = "") -> None:
    class Plugin:
        @modelport.hookimpl
        def modelport_register_providers(self, register: Any) -> None:
            register(provider)

    modelport.register_plugin(Plugin(), name=name or f"{provider.id}-plugin")


def _provider(version: str, ident: str = "versioned") -> type[HttpProvider]:
    return type("Versioned", (HttpProvider,), {"id": ident, "contract_version": version})


@pytest.mark.parametrize(
    ("version", "ident"), [("3.0", "future-major"), ("2.4", "future-minor"), ("1.9", "old"), ("two", "bad")]
)
def test_a_version_the_core_cannot_adapt_is_refused_at_registration(
    fresh_registry: None, version: str, ident: str
) -> None:
    with pytest.raises(ConfigurationError) as info:
        _register(_provider(version, ident))
    assert str(info.value).endswith(
        f"provider {ident!r} was written for provider contract {version}; this modelport implements 2.3, "
        "takes 2.2, 2.1 as is and adapts 2.0 (upgrade the plugin or modelport)"
    )
    assert ident not in modelport.plugins.providers()


def test_a_2_0_provider_registers_through_its_adapter_and_a_2_1_one_as_it_is(fresh_registry: None) -> None:
    assert (CONTRACT_VERSION, COMPATIBLE_VERSIONS, ADAPTED_VERSIONS) == ("2.3", ("2.2", "2.1"), ("2.0",))
    earlier, previous, current = (
        _provider("2.0", "earlier"),
        _provider("2.1", "previous"),
        _provider("2.3", "current"),
    )
    _register(earlier)
    _register(earlier, "earlier-again")  # the same class again (several entry points): no conflict
    _register(previous)
    _register(current)
    registered = modelport.plugins.provider_class("earlier")
    assert registered is not earlier and issubclass(registered, earlier)
    assert registered.adapted_from is earlier  # type: ignore[attr-defined]
    assert (registered.__name__, registered.__module__) == (earlier.__name__, earlier.__module__)
    assert adapted(earlier) is registered
    # 2.2 only added optional surface: a 2.1 provider is itself, with no neutral tools.
    assert modelport.plugins.provider_class("previous") is previous
    assert previous.capabilities.web_search is False and previous.neutral_tool(previous, "web_search") is None  # type: ignore[arg-type]
    assert modelport.plugins.provider_class("current") is current
    assert modelport.plugins.load_errors() == {}


GEMINI_2_0 = {
    # case: (2.0 usage as reported, the 2.1 usage of expected.json)
    "generate-code-execution": (
        Usage(
            input_tokens=257,
            output_tokens=170,
            reasoning_tokens=773,
            tool_use_prompt_tokens=1732,
            total_tokens=2932,
        ),
        Usage(
            input_tokens=1989,
            output_tokens=943,
            reasoning_tokens=773,
            tool_use_prompt_tokens=1732,
            total_tokens=2932,
        ),
    ),
    "generate-cached-content": (
        Usage(
            input_tokens=3520,
            output_tokens=2,
            reasoning_tokens=42,
            cache_read_input_tokens=3512,
            total_tokens=3564,
        ),
        Usage(
            input_tokens=3520,
            output_tokens=44,
            reasoning_tokens=42,
            cache_read_input_tokens=3512,
            total_tokens=3564,
        ),
    ),
    "generate-file-search-follow-up": (
        Usage(
            input_tokens=294,
            output_tokens=230,
            reasoning_tokens=158,
            tool_use_prompt_tokens=605,
            total_tokens=1287,
        ),
        Usage(
            input_tokens=899,
            output_tokens=388,
            reasoning_tokens=158,
            tool_use_prompt_tokens=605,
            total_tokens=1287,
        ),
    ),
    "grounding-gemini3-thinking-server-tools": (
        Usage(input_tokens=13, output_tokens=573, reasoning_tokens=554, total_tokens=1140),
        Usage(input_tokens=13, output_tokens=1127, reasoning_tokens=554, total_tokens=1140),
    ),
    "grounding-search-generate": (
        Usage(
            input_tokens=17,
            output_tokens=201,
            reasoning_tokens=213,
            tool_use_prompt_tokens=119,
            total_tokens=550,
        ),
        Usage(
            input_tokens=136,
            output_tokens=414,
            reasoning_tokens=213,
            tool_use_prompt_tokens=119,
            total_tokens=550,
        ),
    ),
    "grounding-search-time-range-filter": (
        Usage(
            input_tokens=11,
            output_tokens=105,
            reasoning_tokens=131,
            tool_use_prompt_tokens=90,
            total_tokens=337,
        ),
        Usage(
            input_tokens=101,
            output_tokens=236,
            reasoning_tokens=131,
            tool_use_prompt_tokens=90,
            total_tokens=337,
        ),
    ),
}


@pytest.mark.parametrize("case", sorted(GEMINI_2_0))
def test_gemini_2_0_usage_reads_as_its_2_1_expected_output(case: str) -> None:
    reported, expected = GEMINI_2_0[case]
    assert usage_from_2_0(reported) == expected


def test_a_usage_that_already_holds_its_parts_is_returned_unchanged() -> None:
    # OpenAI's prompt-cache write case: every part inside its whole, total = input + output.
    usage = Usage(input_tokens=4037, output_tokens=11, cache_write_input_tokens=4012, total_tokens=4048)
    assert usage_from_2_0(usage) is usage
    # a missing whole is not guessed (Gemini's max-tokens answer reported no candidates count)
    missing = Usage(input_tokens=15, reasoning_tokens=2, total_tokens=17)
    assert usage_from_2_0(missing) is missing


USAGE_METADATA = {"promptTokenCount": 294, "candidatesTokenCount": 230, "thoughtsTokenCount": 158}
USAGE_METADATA |= {"toolUsePromptTokenCount": 605, "totalTokenCount": 1287}


def _usage_2_0(raw: dict[str, int]) -> Usage:
    """The Google plugin's 2.0 mapping: each count as reported, parts beside their wholes."""
    return Usage(
        input_tokens=raw["promptTokenCount"],
        output_tokens=raw["candidatesTokenCount"],
        reasoning_tokens=raw["thoughtsTokenCount"],
        tool_use_prompt_tokens=raw["toolUsePromptTokenCount"],
        total_tokens=raw["totalTokenCount"],
    )


class Stream:
    def __init__(self) -> None:
        self.usage: dict[str, int] = {}

    def feed(self, frame: dict[str, Any]) -> list[ev.StreamEvent]:
        self.usage = frame.get("usageMetadata") or self.usage
        return [
            ev.TextStartEvent(id="t"),
            ev.TextDeltaEvent(id="t", delta=frame["text"]),
            ev.TextEndEvent(id="t"),
        ]

    def finish(self) -> list[ev.StreamEvent]:
        return [ev.FinishEvent(finish_reason="stop", usage=_usage_2_0(self.usage))]


class Gemini20(HttpProvider):
    """A provider written for 2.0: its usage keeps thoughts and tool-use prompts beside the counts."""

    id = "gemini-2-0"
    contract_version = "2.0"
    default_base_url = "https://gemini.test/v1"

    def build_request(self, model_name: str, request: Any, *, stream: bool) -> HttpRequest:
        return HttpRequest("/generate", {"prompt": request.messages[-1].text}, stream=stream)

    def decode_response(self, data: Any, spec: HttpRequest) -> Result:
        return Result(
            content=[TextPart(text=data["text"])],
            finish_reason="stop",
            usage=_usage_2_0(data["usageMetadata"]),
        )

    def stream_decoder(self, spec: HttpRequest) -> Stream:
        return Stream()


def _answer(request: httpx.Request) -> httpx.Response:
    body = {"text": "ok", "usageMetadata": USAGE_METADATA}
    if json.loads(request.content).get("prompt") == "stream":
        sse = f"data: {json.dumps(body)}\n\n".encode()
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=sse)
    return httpx.Response(200, json=body)


WHOLE = Usage(
    input_tokens=899, output_tokens=388, reasoning_tokens=158, tool_use_prompt_tokens=605, total_tokens=1287
)


def test_a_2_0_provider_answers_with_2_1_usage_on_every_path(fresh_registry: None) -> None:
    _register(Gemini20)
    model = modelport.get_model("gemini-2-0/m", api_key="k", transport=httpx.MockTransport(_answer))
    assert model.generate(prompt="whole").usage == WHOLE
    events = list(model.stream(prompt="stream"))
    assert [e.usage for e in events if isinstance(e, ev.FinishEvent)] == [WHOLE]

    async def both() -> tuple[Usage, Usage]:
        generated = await model.agenerate(prompt="whole")
        streamed = await model.astream(prompt="stream").result()
        return generated.usage, streamed.usage

    assert asyncio.run(both()) == (WHOLE, WHOLE)
    model.close()
