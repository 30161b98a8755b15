"""Registers the Example provider and its conformance cases (entry point ``modelport: example``)."""

from __future__ import annotations

from importlib.resources import files
from typing import Any

from modelport import hookimpl

from .provider import ExampleProvider, merge_frames


@hookimpl
def modelport_register_providers(register: Any) -> None:
    register(ExampleProvider)


@hookimpl
def modelport_conformance_suites(register: Any) -> None:
    register(
        "example",
        files("modelport_example") / "cases",
        unsupported={"embed": "the Example API has no embeddings endpoint"},
        merge_frames=merge_frames,
    )
