"""Flawed variants of the Example provider, installed by the tests as the module ``modelport_variants``
(entry points named after each provider id), so the CLI and pytest find them like any plugin.

The Example provider class is taken from the Example plugin's own hook, whatever it is called.
``variant_cases/`` beside this module is written by the fixture that installs it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from importlib.resources import files
from pathlib import Path
from typing import Any

import modelport_example._plugin as example

from modelport import hookimpl
from modelport.events import FinishEvent
from modelport.types import Usage


def _example_provider() -> Any:
    found: list[Any] = []
    example.modelport_register_providers(register=lambda provider, **_: found.append(provider))
    return found[0]


Example = _example_provider()
CASES = Path(__file__).parent / "variant_cases"


class MergeBug(Example):  # its merge_frames (below) raises
    id = "example-mergebug"


class DecodeBug(Example):  # reads a field the response does not have
    id = "example-decodebug"

    def decode_response(self, data: Any, spec: Any) -> Any:
        return data["no_such_field"]


class Crash(Example):  # a bug after the call: not a modelport error at all
    id = "example-crash"

    def send(self, model_name: str, prepared: Any) -> Any:
        super().send(model_name, prepared)
        raise RuntimeError("post-processing failed")


class NoAuth(Example):  # forgot to authenticate
    id = "example-noauth"

    def auth(self) -> Any:
        return None


class Authenticated(Example):  # the same cases, authenticating: they pass
    id = "example-auth"


class Features(Example):  # declares no reasoning (as the Example does); one case needs it
    id = "example-features"


class _FinishUsage:
    """A stream decoder whose finish event's usage goes through ``change``."""

    def __init__(self, decoder: Any, change: Callable[[Usage], Usage]) -> None:
        self.decoder, self.change = decoder, change

    def _changed(self, events: Iterable[Any]) -> Iterator[Any]:
        for event in events:
            if isinstance(event, FinishEvent):
                event = event.model_copy(update={"usage": self.change(event.usage)})
            yield event

    def feed(self, frame: Any) -> Iterator[Any]:
        return self._changed(self.decoder.feed(frame))

    def finish(self) -> list[Any]:
        return list(self._changed(self.decoder.finish()))


def _counted_outside(usage: Usage) -> Usage:
    """Parts counted beside their wholes, as a decoder written for contract 2.0 might."""
    assert usage.input_tokens is not None and usage.output_tokens is not None
    return Usage(
        input_tokens=usage.input_tokens,
        output_tokens=usage.output_tokens,
        reasoning_tokens=usage.output_tokens + 1,
        cache_read_input_tokens=usage.input_tokens,
        cache_write_input_tokens=1,
        total_tokens=usage.input_tokens + usage.output_tokens + 1,
    )


class UsageBug(Example):  # reports reasoning and cache counts outside the totals that include them
    id = "example-usagebug"

    def decode_response(self, data: Any, spec: Any) -> Any:
        result = super().decode_response(data, spec)
        return result.model_copy(update={"usage": _counted_outside(result.usage)})

    def stream_decoder(self, spec: Any) -> Any:
        return _FinishUsage(super().stream_decoder(spec), _counted_outside)


class StreamUsageBug(Example):  # its stream loses the usage the whole answer reports
    id = "example-streamusage"

    def stream_decoder(self, spec: Any) -> Any:
        return _FinishUsage(super().stream_decoder(spec), lambda usage: Usage())


def _swapped(usage: Usage) -> Usage:
    return usage.model_copy(update={"input_tokens": usage.output_tokens, "output_tokens": usage.input_tokens})


class StreamSwap(Example):  # its stream decoder (only) swaps the input and output counts
    id = "example-streamswap"

    def stream_decoder(self, spec: Any) -> Any:
        return _FinishUsage(super().stream_decoder(spec), _swapped)


class Hang(Example):  # a decoder that never returns
    id = "example-hang"

    def decode_response(self, data: Any, spec: Any) -> Any:
        while True:
            pass


class Hog(Example):  # a decoder that allocates without end
    id = "example-hog"

    def decode_response(self, data: Any, spec: Any) -> Any:
        held = []
        while True:
            held.append(b"x" * (1 << 20))


def merge_frames(frames: list[Any]) -> Any:
    return {"output": frames[0]["missing"]}


@hookimpl
def modelport_register_providers(register: Any) -> None:
    providers = (
        MergeBug,
        DecodeBug,
        Crash,
        NoAuth,
        Authenticated,
        Features,
        UsageBug,
        StreamUsageBug,
        StreamSwap,
        Hang,
        Hog,
    )
    for provider in providers:
        register(provider)


@hookimpl
def modelport_conformance_suites(register: Any) -> None:
    cases = files("modelport_example") / "cases"
    register("example-mergebug", cases, merge_frames=merge_frames)
    register("example-decodebug", cases)
    register("example-crash", cases, unsupported={"stream": "only the generate path is under test"})
    register("example-noauth", CASES / "auth")
    register("example-auth", CASES / "auth")
    register("example-features", CASES / "features", options={"max_retries": 3})
    register("example-usagebug", CASES / "usagebug", merge_frames=example.merge_frames)
    register("example-streamusage", CASES / "streamusage", merge_frames=example.merge_frames)
    register("example-streamswap", cases)  # no merge_frames: the stream is held to expected.json
    register("example-hang", cases)
    register("example-hog", cases)
