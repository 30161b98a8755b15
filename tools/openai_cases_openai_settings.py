# ruff: noqa: E501  (a data table: long descriptions read better unwrapped)
"""The ``openai`` cases of request settings no recording of the corpus sends (chosen from the
mutants no case reached on the whole ``openai`` list): a seed and stop sequences, the end user's
id and request labels, a ``top_k`` Chat Completions has no field for, an effort on a model that
does not reason, a schema's description.

Each is a recorded answer with its request changed in one setting (the note says which): the
answer does not depend on it, and the ``request`` check pins what the mapping sends for it, with
no golden read."""

from __future__ import annotations

from typing import Any

from openai_case_data import ADAPTED, P, T, refusal_request
from openai_corpus import vcr

__all__ = ["settings_cases"]

INSTRUCTIONS = P + "test_openai__test_openai_instructions.yaml"
REFUSED = T + "test_chat_parse__test_parsed_refused_completion.yaml"
QUESTION = {"system": "You are a helpful assistant.", "prompt": "What is the capital of France?"}


def _asked(name: str, description: str, settings: dict[str, Any], changed: str) -> dict[str, Any]:
    """pydantic-ai's instructions recording (gpt-4o: 'The capital of France is Paris.') asked with
    ``settings`` as well."""
    return {
        "name": name,
        "description": description,
        "method": "generate",
        "model": "gpt-4o",
        "request": {**QUESTION, **settings},
        "response": vcr(INSTRUCTIONS),
        "source": INSTRUCTIONS,
        "source_args": {
            "note": f"{ADAPTED}; the recorded request had no {changed}, set here (invented); the one-sentence answer does not depend on it"
        },
    }


def settings_cases() -> list[dict[str, Any]]:
    """The settings cases (see the module)."""
    return [
        _asked(
            "generate-seed-and-stop",
            "seed 42 and stop_sequences: sent as seed and stop.",
            {"seed": 42, "stop_sequences": ["\n\n", "END"]},
            "seed or stop",
        ),
        _asked(
            "generate-user-id-and-labels",
            "user_id and request_labels: sent as user and metadata.",
            {"user_id": "user-7f3a", "request_labels": {"team": "search", "env": "ci"}},
            "user or metadata",
        ),
        _asked(
            "generate-top-k-not-sent",
            "top_k 40: Chat Completions has no top_k, so it is not sent and an unsupported-setting warning names top_k.",
            {"top_k": 40},
            "top_k (none can be sent)",
        ),
        _asked(
            "generate-effort-on-non-reasoning-model",
            "reasoning.effort low on gpt-4o (not a reasoning model): no reasoning_effort is sent, an unsupported-setting warning names reasoning.",
            {"reasoning": {"effort": "low"}},
            "reasoning setting (gpt-4o takes none)",
        ),
        {
            "name": "generate-schema-description",
            "description": "A strict json_schema with a description: sent as json_schema.description beside the name; a refusal.",
            "method": "generate",
            "model": "gpt-4o",
            "request": {
                **refusal_request(),
                "response_format": {
                    **refusal_request()["response_format"],
                    "description": "An answer and the reasoning behind it.",
                },
            },
            "response": vcr(REFUSED, 2),
            "source": REFUSED,
            "source_args": {
                "interaction": 2,
                "note": "gzip body decompressed; the recorded schema had no description, set here (invented); the model refused the prompt, which a description does not change",
            },
        },
    ]
