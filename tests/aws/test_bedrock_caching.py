"""Prompt caching on ``bedrock``: ``prompt_cache`` puts Converse ``cachePoint`` blocks where
pydantic-ai's recorded call had them (after the system text, the tools and the last user turn;
one more by hand), and the recorded cache write and read are counted in ``input_tokens``."""

from __future__ import annotations

import base64
import json
from typing import Any

import httpx
import pytest

import modelport
from modelport.errors import InvalidRequestError
from tests.aws.replay import MODEL, answering, keys, recorded

POINT = {"cachePoint": {"type": "default"}}
NAME = "test_bedrock_cache_write_and_read.yaml"


def recorded_call() -> dict[str, Any]:
    """The canonical keywords of the recorded call: its texts, its txt document and its tools."""
    sent = recorded(NAME)[0]
    first, document, newline, _, question, _ = sent["messages"][0]["content"]
    data = document["document"]["source"]["bytes"]
    assert base64.b64decode(data) == b"You are a great mathematician"
    return {
        "messages": [
            {"role": "system", "content": sent["system"][0]["text"]},
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": first["text"]},
                    {"type": "file", "media_type": "text/plain", "data": data},
                    {
                        "type": "text",
                        "text": newline["text"],
                        "provider_metadata": {"bedrock": {"cache_point": POINT["cachePoint"]}},
                    },
                    {"type": "text", "text": question["text"]},
                ],
            },
        ],
        "tools": [
            {
                "type": "function",
                "name": name,
                "parameters": {"additionalProperties": False, "properties": {}, "type": "object"},
            }
            for name in ("catalog_lookup", "diagnostics")
        ],
        "provider_options": {"bedrock": {"inferenceConfig": {}, "toolConfig": {"toolChoice": {"auto": {}}}}},
    }


@pytest.mark.parametrize(("index", "read", "write"), [(0, 0, 1322), (1, 1322, 0)])
def test_cache_points_are_where_the_recording_has_them(index: int, read: int, write: int) -> None:
    sent, answer = recorded(NAME, index)
    seen: list[httpx.Request] = []
    model = modelport.get_model(MODEL, transport=answering(answer, seen=seen), **keys())
    result = model.generate(**recorded_call(), prompt_cache={"ttl": "5m"})
    body = json.loads(seen[0].content)
    assert body == sent
    assert body["system"][-1] == POINT and body["toolConfig"]["tools"][-1] == POINT
    assert [i for i, b in enumerate(body["messages"][0]["content"]) if b == POINT] == [3, 5]
    usage = result.usage
    assert (usage.input_tokens, usage.cache_read_input_tokens, usage.cache_write_input_tokens) == (
        2 + 1322,
        read,
        write,
    )
    assert (usage.output_tokens, usage.total_tokens) == (5, 1329)
    assert result.warnings == []


def test_only_the_named_places_get_a_cache_point_and_a_key_is_a_warning() -> None:
    seen: list[httpx.Request] = []
    model = modelport.get_model(MODEL, transport=answering(recorded(NAME)[1], seen=seen), **keys())
    call = recorded_call()
    call["messages"][1]["content"][2].pop("provider_metadata")
    result = model.generate(**call, prompt_cache={"at": ["tools"], "key": "session-1"})
    body = json.loads(seen[0].content)
    assert body["toolConfig"]["tools"][-1] == POINT
    assert POINT not in body["system"] and POINT not in body["messages"][0]["content"]
    (warning,) = result.warnings
    assert (warning.type, warning.setting) == ("unsupported-setting", "prompt_cache.key")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"prompt_cache": {"ttl": "1h"}}, "keeps its prefix for 5 minutes only"),
        (
            {
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {
                                "type": "text",
                                "text": "a",
                                "provider_metadata": {"bedrock": {"cache_point": {"type": "long"}}},
                            }
                        ],
                    }
                ]
            },
            "cache_point {'type': 'long'} is not",
        ),
    ],
)
def test_a_cache_bedrock_cannot_keep_is_refused_before_any_request(
    change: dict[str, Any], message: str
) -> None:
    seen: list[httpx.Request] = []
    model = modelport.get_model(MODEL, transport=answering({}, seen=seen), **keys())
    with pytest.raises(InvalidRequestError, match=message):
        model.generate(**{"prompt": "Hi", **change} if "messages" not in change else change)
    assert seen == []
