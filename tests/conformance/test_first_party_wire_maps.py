"""Every first-party provider declares a wire map, and the finish tables the maps keep (so that
loading a provider class loads no mapping module) are the decoders' own."""

from __future__ import annotations

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
    from modelport_openai import _decode
    from modelport_openai import _wire_map as openai

    assert anthropic.ANTHROPIC_WIRE_MAP.finish_reasons == _blocks.STOP_REASONS
    assert openai.CHAT_WIRE_MAP.finish_reasons == _decode.FINISH
    assert openai.XAI_WIRE_MAP.finish_reasons == _decode.FINISH
