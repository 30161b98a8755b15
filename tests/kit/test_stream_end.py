"""How a stream ends (docs/plugin-authors.md, "How a stream ends"): the rule a plugin declares as
data (``HttpProvider.stream_end``), which the kit enforces whatever the decoder says.

MOCK frames (the kit's own protocol, values invented): a ``meta`` frame, text frames and a
``stop`` frame, as a plugin of the Anthropic style sends them; the first-party providers' rules
are checked on their real recordings in their own tests and by ``modelport conformance``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any, ClassVar

import httpx
import pytest

import modelport
from modelport import events as ev
from modelport.errors import ConfigurationError, ProviderResponseError, StreamInterruptedError
from modelport.http import HttpProvider, HttpRequest, StreamEnd
from modelport.provider import Capabilities
from modelport.types import Request, Result


class Decoder:
    """Text frames become one text part; ``finish_on`` names the frame kind it finishes on (the
    decoder's own idea of the end, which the kit's rule overrides)."""

    def __init__(self, finish_on: str | None, ident: str) -> None:
        self.finish_on = finish_on
        self.ident = ident
        self.started = False
        self.finished = False

    def feed(self, frame: Any) -> Iterator[ev.StreamEvent]:
        if frame.get("text"):
            if not self.started:
                self.started = True
                yield ev.TextStartEvent(id="t")
            yield ev.TextDeltaEvent(id=self.ident, delta=frame["text"])
        if frame.get("type") == self.finish_on and not self.finished:
            self.finished = True
            yield ev.FinishEvent(finish_reason="stop")

    def finish(self) -> Iterator[ev.StreamEvent]:
        if self.started:
            yield ev.TextEndEvent(id="t")
        if not self.finished:
            yield ev.FinishEvent(finish_reason="stop")


class EndsProvider(HttpProvider):
    id: ClassVar[str] = "stream-ends"
    default_base_url: ClassVar[str | None] = "https://api.stream-ends.test"
    api_key_required: ClassVar[bool] = False
    capabilities: ClassVar[Capabilities] = Capabilities(generate=False, stream=True)
    stream_end: ClassVar[StreamEnd | None] = StreamEnd(
        kind="type", terminal=frozenset({"stop"}), required=frozenset({"meta"})
    )
    finish_on: ClassVar[str | None] = None
    ident: ClassVar[str] = "t"

    def build_request(self, model_name: str, request: Request, *, stream: bool) -> HttpRequest:
        return HttpRequest("/stream", {"model": model_name}, stream=stream)

    def stream_decoder(self, spec: HttpRequest) -> Decoder:
        return Decoder(self.finish_on, self.ident)


class Plugin:
    @modelport.hookimpl
    def modelport_register_providers(self, register: Any) -> None:
        register(EndsProvider)


META = {"type": "meta"}
TEXT = [{"type": "text", "text": "Transfer "}, {"type": "text", "text": "approved"}]
STOP = {"type": "stop", "status": "done"}


def body(frames: list[Any], done: bool = False) -> bytes:
    return b"".join(b"data: " + json.dumps(f).encode() + b"\n\n" for f in frames) + (
        b"data: [DONE]\n\n" if done else b""
    )


def run(
    frames: list[Any], *, done: bool = False, asynchronous: bool = False, **rule: Any
) -> tuple[list[str], Result]:
    transport = httpx.MockTransport(
        lambda request: httpx.Response(
            200, content=body(frames, done), headers={"content-type": "text/event-stream"}
        )
    )
    model = modelport.get_model("stream-ends/m", transport=transport, max_retries=0)
    seen: list[str] = []

    async def consume() -> Result:
        s = model.astream(prompt="Hi")
        async for event in s:
            seen.append(event.type)
        return await s.result()

    if asynchronous:
        return seen, asyncio.run(consume())
    s = model.stream(prompt="Hi")
    for event in s:
        seen.append(event.type)
    return seen, s.result()


@pytest.fixture
def ends(fresh_registry: None, monkeypatch: pytest.MonkeyPatch) -> type[EndsProvider]:
    modelport.register_plugin(Plugin(), name="stream-ends")
    return EndsProvider


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_a_stream_with_its_terminal_frame_after_the_required_ones_is_complete(
    ends: type[EndsProvider], asynchronous: bool
) -> None:
    seen, result = run([META, *TEXT, STOP], asynchronous=asynchronous)
    assert (result.text, result.finish_reason) == ("Transfer approved", "stop")
    assert seen[-1] == "finish"


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize(
    "frames",
    [[META, *TEXT], [*TEXT, STOP], [STOP], []],
    ids=["no-terminal", "no-required", "stop-only", "empty"],
)
def test_a_stream_that_ends_before_its_rule_holds_is_cut_whatever_the_decoder_says(
    ends: type[EndsProvider], frames: list[Any], asynchronous: bool
) -> None:
    with pytest.raises(StreamInterruptedError) as info:
        run(frames, asynchronous=asynchronous)
    assert "a complete stream ends with a stop frame after meta" in str(info.value)
    partial = info.value.partial
    assert partial is not None
    text = "Transfer approved" if TEXT[0] in frames else ""
    assert (partial.text, partial.finish_reason) == (text, "error")


def test_a_finish_the_decoder_sends_early_waits_for_the_terminal_frame(
    ends: type[EndsProvider], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(EndsProvider, "finish_on", "meta")  # the decoder thinks it is done at once
    seen, result = run([META, *TEXT, STOP])
    assert (result.text, result.finish_reason) == ("Transfer approved", "stop")
    assert seen[-2:] == ["text-end", "finish"]
    with pytest.raises(StreamInterruptedError) as info:
        run([META, *TEXT])
    assert info.value.partial is not None and info.value.partial.text == "Transfer approved"


def test_a_rule_with_status_values_reads_them_on_the_terminal_frame(
    ends: type[EndsProvider], monkeypatch: pytest.MonkeyPatch
) -> None:
    rule = StreamEnd(
        kind="type", terminal=frozenset({"stop"}), status=("status",), complete=frozenset({"done"})
    )
    monkeypatch.setattr(EndsProvider, "stream_end", rule)
    assert run([*TEXT, STOP])[1].finish_reason == "stop"
    for status in ("failed", None, ""):
        with pytest.raises(StreamInterruptedError, match="whose status is done"):
            run([*TEXT, {"type": "stop", "status": status}])


def test_a_rule_without_frame_kinds_reads_a_status_path_through_lists(
    ends: type[EndsProvider], monkeypatch: pytest.MonkeyPatch
) -> None:
    rule = StreamEnd(kind=None, status=("choices.*.finish", "blocked.reason"))
    monkeypatch.setattr(EndsProvider, "stream_end", rule)
    assert run([*TEXT, {"choices": [{}, {"finish": "STOP"}]}])[1].text == "Transfer approved"
    assert run([*TEXT, {"blocked": {"reason": "SAFETY"}}])[1].finish_reason == "stop"
    with pytest.raises(StreamInterruptedError, match="choices.\\*.finish or blocked.reason"):
        run([*TEXT, {"choices": [{"finish": None}]}, {"choices": "x"}])


def test_a_rule_that_needs_the_done_marker(ends: type[EndsProvider], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(EndsProvider, "stream_end", StreamEnd(kind=None, done=True))
    assert run(TEXT, done=True)[1].text == "Transfer approved"
    with pytest.raises(StreamInterruptedError, match="data: \\[DONE\\]") as info:
        run(TEXT)
    assert info.value.partial is not None and info.value.partial.text == "Transfer approved"


def test_without_a_rule_the_decoder_decides(
    ends: type[EndsProvider], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(EndsProvider, "stream_end", None)
    assert run(TEXT)[1].finish_reason == "stop"


@pytest.mark.parametrize(
    "rule",
    [
        {"kind": "type"},
        {"kind": ""},
        {"kind": None},
        {"kind": None, "terminal": frozenset({"stop"}), "done": True},
        {"kind": "type", "terminal": "stop"},
        {"kind": "type", "terminal": frozenset({""})},
        {"kind": None, "complete": frozenset({"done"}), "done": True},
        {"kind": None, "done": "yes"},
    ],
)
def test_a_rule_that_cannot_hold_is_refused_where_it_is_declared(rule: dict[str, Any]) -> None:
    with pytest.raises(ConfigurationError):
        StreamEnd(**rule)


# The core's accumulator folds whatever events a decoder sends; one it cannot fold (a delta for a
# part that never started) was a bare KeyError from the stream.


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_events_the_accumulator_cannot_fold_are_a_typed_error_with_the_partial(
    ends: type[EndsProvider], monkeypatch: pytest.MonkeyPatch, asynchronous: bool
) -> None:
    monkeypatch.setattr(EndsProvider, "ident", "never-started")
    with pytest.raises(ProviderResponseError) as info:
        run([META, *TEXT, STOP], asynchronous=asynchronous)
    assert "KeyError: 'never-started'" in str(info.value)
    assert info.value.partial is not None and info.value.partial.finish_reason == "error"


def test_every_first_party_provider_declares_its_stream_end() -> None:
    from modelport_anthropic.provider import AnthropicProvider
    from modelport_openai import presets
    from modelport_openai.provider import OpenAICompatibleProvider, OpenAIProvider, OpenAIResponsesProvider

    from modelport_google.provider import GoogleProvider, VertexProvider

    chat = [OpenAIProvider, OpenAICompatibleProvider] + [
        cls
        for cls in vars(presets).values()
        if isinstance(cls, type) and issubclass(cls, OpenAIProvider.__base__)
    ]
    assert len(chat) >= 9
    for cls in chat:
        assert cls.stream_end == StreamEnd(kind=None, done=True), cls
    for cls in (GoogleProvider, VertexProvider):
        assert cls.stream_end == StreamEnd(
            kind=None, status=("candidates.*.finishReason", "promptFeedback.blockReason")
        )
    assert AnthropicProvider.stream_end == StreamEnd(
        kind="type",
        terminal=frozenset({"message_stop"}),
        required=frozenset({"message_start", "message_delta"}),
    )
    assert OpenAIResponsesProvider.stream_end == StreamEnd(
        kind="type",
        terminal=frozenset({"response.completed", "response.incomplete"}),
        status=("response.status",),
        complete=frozenset({"completed", "incomplete"}),
    )
