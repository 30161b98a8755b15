"""Grounding lives in Google's namespace of ``provider_metadata`` (contract 2.1, S4).

``Result.grounding_metadata`` and ``FinishEvent.grounding_metadata`` left the neutral contract; the
old attribute still reads the namespace with a ``DeprecationWarning`` for one minor version, and a
result or event stored by 2.0 (with a top-level ``grounding_metadata``) still loads. The response is
a REAL recording from the corpus (attribution in tests/corpus/gemini/MANIFEST.md).
"""

from __future__ import annotations

import json

import pytest
from pydantic import TypeAdapter

import modelport
from modelport.events import FinishEvent, StreamEvent
from modelport.types import Result
from modelport_google._decode import decode_response
from modelport_google.grounding import grounding_metadata

from .test_grounding_corpus import FIREBASE, _read

RAW = json.loads(_read(FIREBASE, "mock-responses__googleai__unary-success-google-search-grounding.json"))
METADATA = RAW["candidates"][0]["groundingMetadata"]


def test_a_grounded_result_keeps_the_metadata_only_in_the_google_namespace() -> None:
    result = decode_response(RAW)
    assert "grounding_metadata" not in Result.model_fields
    assert "grounding_metadata" not in FinishEvent.model_fields
    assert "grounding_metadata" not in result.model_dump()
    assert result.provider_metadata["google"]["groundingMetadata"] == METADATA
    assert grounding_metadata(result) == METADATA
    assert grounding_metadata(result)["webSearchQueries"] == METADATA["webSearchQueries"]  # type: ignore[index]


def test_an_ungrounded_result_has_none() -> None:
    assert grounding_metadata(Result(content=[modelport.TextPart(text="hi")])) is None
    assert grounding_metadata(FinishEvent(finish_reason="stop", provider_metadata={"google": {}})) is None


def test_the_old_attribute_warns_and_reads_the_namespace() -> None:
    result = decode_response(RAW)
    with pytest.warns(DeprecationWarning, match=r"Result\.grounding_metadata is deprecated"):
        assert result.grounding_metadata == METADATA  # type: ignore[attr-defined]
    event = FinishEvent(finish_reason="stop", provider_metadata={"google": {"groundingMetadata": METADATA}})
    with pytest.warns(DeprecationWarning, match=r"FinishEvent\.grounding_metadata is deprecated"):
        assert event.grounding_metadata == METADATA  # type: ignore[attr-defined]


def test_a_result_stored_by_contract_2_0_loads_with_the_metadata_moved() -> None:
    result = decode_response(RAW)
    stored = result.model_dump(mode="json")
    google = {k: v for k, v in stored["provider_metadata"]["google"].items() if k != "groundingMetadata"}
    old = {**stored, "provider_metadata": {"google": google}, "grounding_metadata": METADATA}
    assert Result.model_validate(old) == result
    assert Result.model_validate_json(json.dumps(old)) == result
    # Stored with both (as 2.0 wrote it): the namespace wins and nothing is duplicated.
    assert Result.model_validate({**stored, "grounding_metadata": METADATA}) == result
    assert Result.model_validate({**stored, "grounding_metadata": None}) == result


def test_a_finish_event_stored_by_contract_2_0_loads_with_the_metadata_moved() -> None:
    old = {"type": "finish", "finish_reason": "stop", "grounding_metadata": METADATA}
    event = TypeAdapter(StreamEvent).validate_python(old)
    assert isinstance(event, FinishEvent)
    assert event.provider_metadata == {"google": {"groundingMetadata": METADATA}}
    assert "grounding_metadata" not in event.model_dump()
