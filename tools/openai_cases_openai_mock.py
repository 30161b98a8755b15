# ruff: noqa: E501  (a data table: long descriptions read better unwrapped)
"""The ``openai`` cases marked MOCK: mappings no vendored recording exercises (a streamed answer with
logprobs, a streamed refusal, ``effort="max"`` on a model whose highest level is ``xhigh``, the sampling models'
temperature rule, ``effort="medium"``). Each says why in its
``source.note``; a recording that shows the same belongs in place of its case."""

from __future__ import annotations

import json
import re
from typing import Any

from openai_case_data import CREATE, F, T, refusal_request
from openai_corpus import JSON_TYPE, SSE_TYPE, Recorded, vcr

REFUSAL = T + "test_chat_parse__test_parsed_refused_completion.yaml"
LOGPROBS = F + "packages__lmi__tests__cassettes__TestLiteLLMModel.test_call[OpenAI-model-1].yaml"


#: The API reference's entry for the request fields these cases set.


def _mock(note: str, *anchors: str) -> dict[str, Any]:
    """The source of a case no recording is behind: the reference it follows, and why."""
    return {"mock": True, "docs": [f"{CREATE}#chat-create-{a}" for a in anchors], "note": "MOCK: " + note}


def _streamed_logprobs() -> Recorded:
    """The recorded ``logprobs`` answer as the API streams it: a role chunk, one chunk per token
    (its text and its ``logprobs.content`` item), the finish chunk, the usage chunk, ``[DONE]``."""
    _, _, text = vcr(LOGPROBS)
    body = json.loads(text)
    choice = body["choices"][0]
    head = {k: body[k] for k in ("id", "created", "model", "service_tier", "system_fingerprint")}
    head["object"] = "chat.completion.chunk"

    def chunk(delta: dict[str, Any], logprobs: Any = None, finish: str | None = None) -> dict[str, Any]:
        return {
            **head,
            "choices": [{"index": 0, "delta": delta, "logprobs": logprobs, "finish_reason": finish}],
        }

    frames = [chunk({"role": "assistant", "content": "", "refusal": None}, {"content": [], "refusal": None})]
    frames += [
        chunk({"content": item["token"]}, {"content": [item], "refusal": None})
        for item in choice["logprobs"]["content"]
    ]
    frames.append(chunk({}, None, choice["finish_reason"]))
    frames.append({**head, "choices": [], "usage": body["usage"]})
    return 200, SSE_TYPE, "".join(f"data: {json.dumps(f)}\n\n" for f in frames) + "data: [DONE]\n\n"


def _streamed_refusal() -> Recorded:
    """The recorded refusal as the API streams one: a role chunk (``content`` null, ``refusal``
    ""), the refusal a word a chunk under ``delta.refusal``, the finish chunk, the usage chunk."""
    _, _, text = vcr(REFUSAL, 0)
    body = json.loads(text)
    choice = body["choices"][0]
    head = {k: body[k] for k in ("id", "created", "model", "system_fingerprint") if k in body}
    head["object"] = "chat.completion.chunk"

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {**head, "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]}

    words = re.findall(r"\S+\s*", choice["message"]["refusal"])
    frames = [chunk({"role": "assistant", "content": None, "refusal": ""})]
    frames += [chunk({"refusal": word}) for word in words]
    frames.append(chunk({}, choice["finish_reason"]))
    frames.append({**head, "choices": [], "usage": body["usage"]})
    return 200, SSE_TYPE, "".join(f"data: {json.dumps(f)}\n\n" for f in frames) + "data: [DONE]\n\n"


def _completion(ident: str, model: str, text: str, usage: dict[str, Any]) -> Recorded:
    body = {
        "id": ident,
        "object": "chat.completion",
        "created": 1780000000,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text, "refusal": None, "annotations": []},
                "logprobs": None,
                "finish_reason": "stop",
            }
        ],
        "usage": usage,
        "service_tier": "default",
    }
    return 200, JSON_TYPE, json.dumps(body)


def _usage(prompt: int, completion: int, reasoning: int) -> dict[str, Any]:
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
        "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
        "completion_tokens_details": {"reasoning_tokens": reasoning, "audio_tokens": 0},
    }


def mock_cases() -> list[dict[str, Any]]:
    """The MOCK cases (see the module)."""
    return [
        {
            "name": "stream-logprobs",
            "description": "A stream with logprobs (5 alternatives): each chunk's logprobs.content gathered into the finish event's logprobs.",
            "method": "stream",
            "model": "gpt-4o-mini-2024-07-18",
            "request": {
                "system": "Respond with single words.",
                "prompt": "What is the meaning of the universe?",
                "max_output_tokens": 56,
                "temperature": 0,
                "provider_options": {"openai": {"logprobs": True, "top_logprobs": 5}},
            },
            "response": _streamed_logprobs(),
            "source": LOGPROBS,
            "source_args": {
                "interaction": 0,
                "note": "MOCK: no recorded Chat Completions stream with logprobs is vendored; the chunks are this "
                "recording's answer (its id, model, tokens, logprobs and usage; gzip body decompressed) split "
                "one token a chunk, in the stream's documented shape",
            },
        },
        {
            "name": "stream-refusal",
            "description": "A streamed refusal under a strict json_schema: refusal deltas, one text part marked refusal; content-filter.",
            "method": "stream",
            "model": "gpt-4o",
            "request": refusal_request(),
            "response": _streamed_refusal(),
            "source": REFUSAL,
            "source_args": {
                "interaction": 0,
                "note": "MOCK: no recorded Chat Completions stream with a refusal is vendored; the chunks are this "
                "recording's answer (its id, model, refusal text and usage; gzip body decompressed) split a word "
                "a chunk under delta.refusal, in the stream's documented shape",
            },
        },
        {
            "name": "generate-reasoning-effort-max-xhigh",
            "description": "reasoning.effort max on gpt-5.5, whose highest level is xhigh: reasoning_effort xhigh, no warning.",
            "method": "generate",
            "model": "gpt-5.5",
            "features": ["reasoning"],
            "request": {"prompt": "What is the capital of France?", "reasoning": {"effort": "max"}},
            "response": _completion("chatcmpl-mock-xhigh", "gpt-5.5", "Paris.", _usage(12, 140, 128)),
            "source_dict": _mock(
                "no recorded Chat Completions call of a model that takes reasoning_effort xhigh is vendored; "
                "the request is the API reference's, the answer hand-written",
                "reasoning_effort",
            ),
        },
        {
            "name": "generate-reasoning-effort-medium",
            "description": "reasoning.effort medium on a reasoning model: reasoning_effort medium, no warning.",
            "method": "generate",
            "model": "o3-mini",
            "features": ["reasoning"],
            "request": {"prompt": "What is the capital of France?", "reasoning": {"effort": "medium"}},
            "response": _completion(
                "chatcmpl-mock-medium", "o3-mini-2025-01-31", "Paris.", _usage(12, 76, 64)
            ),
            "source_dict": _mock(
                "no recorded OpenAI Chat Completions call with reasoning_effort medium is vendored; the answer is hand-written",
                "reasoning_effort",
            ),
        },
        {
            "name": "generate-sampling-model-reasoning-on",
            "description": "gpt-5.4-nano takes temperature only without reasoning: with reasoning switched on, temperature is not sent (a warning each for it and for enabled).",
            "method": "generate",
            "model": "gpt-5.4-nano",
            "features": ["reasoning"],
            "request": {
                "prompt": "What is the capital of France?",
                "temperature": 0.2,
                "reasoning": {"enabled": True},
            },
            "response": _completion(
                "chatcmpl-mock-nano", "gpt-5.4-nano-2026-03-17", "Paris.", _usage(12, 20, 8)
            ),
            "source_dict": _mock(
                "no recorded Chat Completions call of gpt-5.4-nano is vendored (the one recording, "
                "tests/corpus/batch/tidyverse__ellmer state-capitals, is a Responses batch); the answer is hand-written",
                "temperature",
                "reasoning_effort",
            ),
        },
    ]
