"""Every first-party provider declares a wire map, and each finish table lives once: the map holds
the very table its decoder reads (kept in the plugin's ``_wire_map`` module, so that loading a
provider class loads no mapping module), never a copy that could drift from it."""

from __future__ import annotations

from pathlib import Path

import pytest

from modelport import plugins
from modelport.wire_map import WireMap

from .conftest import FIRST_PARTY_IDS


@pytest.mark.parametrize("provider_id", FIRST_PARTY_IDS)
def test_the_provider_declares_a_wire_map(provider_id: str) -> None:
    wire_map = plugins.provider_class(provider_id).wire_map
    assert isinstance(wire_map, WireMap)
    assert wire_map.response.text and wire_map.stream.text and wire_map.request.prompt


def test_the_maps_finish_tables_are_the_decoders() -> None:
    from modelport_anthropic import _blocks
    from modelport_anthropic import _wire_map as anthropic
    from modelport_openai import _decode, _responses_stream
    from modelport_openai import _wire_map as openai

    from modelport_google import _decode as gemini
    from modelport_google import _wire_map as google

    assert anthropic.ANTHROPIC_WIRE_MAP.finish_reasons == _blocks.STOP_REASONS
    assert _blocks.STOP_REASONS is anthropic.STOP_REASONS
    assert openai.CHAT_WIRE_MAP.finish_reasons == openai.XAI_WIRE_MAP.finish_reasons == _decode.FINISH
    assert _decode.FINISH is openai.FINISH
    assert openai.RESPONSES_WIRE_MAP.finish_reasons == _responses_stream.INCOMPLETE
    assert _responses_stream.INCOMPLETE is openai.INCOMPLETE
    assert google.GEMINI_WIRE_MAP.finish_reasons == gemini.FINISH_REASONS
    assert gemini.FINISH_REASONS is google.FINISH_REASONS


@pytest.mark.parametrize(
    ("module", "table"),
    [
        ("modelport_openai._decode", "FINISH"),
        ("modelport_openai._responses_stream", "INCOMPLETE"),
        ("modelport_google._decode", "FINISH_REASONS"),
        ("modelport_anthropic._blocks", "STOP_REASONS"),
    ],
)
def test_no_decoder_defines_a_finish_table_of_its_own(module: str, table: str) -> None:
    import ast
    import importlib

    source = Path(importlib.import_module(module).__file__ or "").read_text(encoding="utf-8")
    defined = [
        target.id
        for node in ast.walk(ast.parse(source))
        if isinstance(node, (ast.Assign, ast.AnnAssign))
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name)
    ]
    assert table not in defined
