# ruff: noqa: E501  (a data table: long descriptions and corpus file names read better unwrapped)
"""The ``openai-responses`` cases for request settings whose mutants survived the suite or no case
reached (``modelport conformance --mutate``, docs/conformance.md): the highest effort on a model
whose family names it ``xhigh``, a sampling model asked for a reasoning budget alone or named
without its date, a reasoning model asked for a temperature, a JSON schema without a name, the
neutral MCP server with the recorded header, and option values just past their documented bounds
or without the option they need (refused before any request). Each is another case's request and
recorded answer with the value named in its ``source.note`` changed."""

from __future__ import annotations

import copy
from typing import Any

__all__ = ["bound_cases"]

NOT_SENT = "which the mapping refuses before any request: no interaction is recorded"


def _changed(base: dict[str, Any], name: str, description: str, note: str, **request: Any) -> dict[str, Any]:
    """``base`` with its request's top-level fields ``request`` (``None``: left out)."""
    spec = copy.deepcopy(base)
    spec["request"] = {k: v for k, v in {**spec["request"], **request}.items() if v is not None}
    if "attribution" in spec:  # a source of its own (not the corpus MANIFEST's): its note says how
        spec["attribution"] = {**spec["attribution"], "note": f"{spec['attribution']['note']}; {note}"}
        return {**spec, "name": name, "description": description}
    return {**spec, "name": name, "description": description, "note": f"{spec['note']}; {note}"}


def bound_cases() -> list[dict[str, Any]]:
    from openai_responses_cases import answer_cases
    from openai_responses_cases_built_in import built_in_cases
    from openai_responses_cases_reasoning import reasoning_cases
    from openai_responses_cases_requests import request_cases
    from openai_responses_cases_settings import settings_cases

    tables = [*answer_cases(), *reasoning_cases(), *built_in_cases(), *request_cases(), *settings_cases()]
    cases = {s["name"]: s for s in tables}
    person = copy.deepcopy(cases["stream-json-schema-object"]["request"]["response_format"])
    del person["name"]
    image = cases["generate-image-generation"]
    (tool,) = image["request"]["tools"]
    mcp = cases["generate-mcp-server-neutral"]
    (mcp_tool,) = mcp["request"]["tools"]
    out = [
        _changed(
            cases["stream-codex-reasoning-1"],
            "stream-codex-reasoning-effort-max",
            "gpt-5.1-codex-max asked for effort max: its family's highest level, sent as xhigh without a warning (the answer echoes the recorded effort).",
            "MOCK request: effort max (the recorded request asked for medium, which the answer echoes)",
            reasoning={"effort": "max"},
        ),
        _changed(
            cases["generate-sampling-model-reasoning-on-mock"],
            "generate-sampling-model-reasoning-budget-mock",
            "gpt-5.4-nano-2026-03-17 asked for a temperature and a reasoning budget alone: a budget asks it to reason, so no temperature is sent (a warning each for the temperature and the budget); reasoning.summary auto.",
            "here the reasoning asked for is a budget of 1024 tokens alone",
            reasoning={"budget_tokens": 1024},
        ),
        _changed(
            cases["stream-json-schema-object"],
            "stream-json-schema-without-name-mock",
            "json_schema structured output without a name: sent under the name response, the recorded stream.",
            "MOCK request: the schema without its name Person (the recorded request named it)",
            response_format=person,
        ),
        {
            **_changed(
                image,
                "error-image-generation-compression-negative",
                "image_generation output_compression -1: outside 0 to 100, refused before any request.",
                f"the recorded tools with output_compression -1, {NOT_SENT}",
                tools=[{**tool, "args": {**tool["args"], "output_compression": -1}}],
            ),
            "response": None,
        },
        {
            **_changed(
                cases["generate-text"],
                "error-top-logprobs-negative",
                "provider_options top_logprobs -1: below its bound 0, refused before any request.",
                f"the recorded question with top_logprobs -1, {NOT_SENT}",
                provider_options={"openai-responses": {"top_logprobs": -1}},
            ),
            "response": None,
        },
        {
            **_changed(
                image,
                "error-image-generation-compression-over-100",
                "image_generation output_compression 101: outside 0 to 100, refused before any request.",
                f"the recorded tools with output_compression 101, {NOT_SENT}",
                tools=[{**tool, "args": {**tool["args"], "output_compression": 101}}],
            ),
            "response": None,
        },
        {
            **_changed(
                cases["generate-text"],
                "error-top-logprobs-over-20",
                "provider_options top_logprobs 21: over its bound 20, refused before any request.",
                f"the recorded question with top_logprobs 21, {NOT_SENT}",
                provider_options={"openai-responses": {"logprobs": True, "top_logprobs": 21}},
            ),
            "response": None,
        },
        {
            **_changed(
                cases["generate-text"],
                "error-top-logprobs-without-logprobs",
                "provider_options top_logprobs 5 without logprobs: it needs logprobs, refused before any request.",
                f"the recorded question with top_logprobs 5, {NOT_SENT}",
                provider_options={"openai-responses": {"top_logprobs": 5}},
            ),
            "response": None,
        },
        {
            **_changed(
                cases["generate-sampling-model-dated-snapshot"],
                "generate-sampling-model-undated",
                "gpt-5.4-nano, the undated name of a reasoning model that takes a temperature while it does not reason: temperature 0 sent; the answer echoes its dated snapshot and effort none.",
                "the request names the model gpt-5.4-nano, as ellmer's batch did (the answer names its snapshot)",
            ),
            "model": "gpt-5.4-nano",
        },
        _changed(
            cases["generate-reasoning-encrypted-content"],
            "generate-reasoning-model-temperature-dropped",
            "gpt-5 asked for temperature 0.5: a reasoning model takes none, so it is not sent (a warning says why); the recorded reasoning answer.",
            "MOCK request: temperature 0.5 added, which the mapping does not send (the recorded request had none)",
            temperature=0.5,
        ),
        _changed(
            mcp,
            "generate-mcp-server-neutral-headers",
            "generate-mcp-server-neutral with the recorded header on the neutral mcp_server: sent as the mcp tool's headers (its value scrubbed as a credential).",
            "here with the recorded request's header (custom-header-key: custom-header-value, a placeholder)",
            tools=[
                {
                    **mcp_tool,
                    "options": {
                        **mcp_tool["options"],
                        "headers": {"custom-header-key": "custom-header-value"},
                    },
                }
            ],
        ),
    ]
    for spec in out:  # a refused request has no response
        if spec.get("response") is None:
            del spec["response"]
            spec.pop("interaction", None)
    return out
