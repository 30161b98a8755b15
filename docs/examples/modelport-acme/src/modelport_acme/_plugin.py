"""Registers the Acme provider and its recorded conformance cases (entry point ``modelport: acme``)."""

from __future__ import annotations

from importlib.resources import files
from typing import Any

from modelport import hookimpl
from modelport.hookspecs import ProviderRegistrar

from .provider import wire_call


@hookimpl
def modelport_register_providers(register: ProviderRegistrar) -> None:
    from .provider import AcmeProvider

    register(AcmeProvider)


def merge_frames(chunks: list[dict[str, Any]]) -> dict[str, Any]:
    """Stream chunks → the body a non-streamed call returns (the suite checks both decode alike)."""
    message: dict[str, Any] = {"role": "assistant", "content": None}
    merged: dict[str, Any] = {"choices": [{"index": 0, "message": message}]}
    calls: dict[int, dict[str, Any]] = {}
    for chunk in chunks:
        merged.update({k: chunk[k] for k in ("id", "model", "usage") if chunk.get(k)})
        for choice in chunk.get("choices") or []:
            delta = choice.get("delta") or {}
            if delta.get("content"):
                message["content"] = (message["content"] or "") + delta["content"]
            for call in delta.get("tool_calls") or []:
                fragment = call["function"]
                function = calls.setdefault(
                    call.get("index", 0), wire_call(call.get("id"), {**fragment, "arguments": ""})
                )
                function["function"]["arguments"] += fragment.get("arguments") or ""
            if choice.get("finish_reason"):
                merged["choices"][0]["finish_reason"] = choice["finish_reason"]
    if calls:
        message["tool_calls"] = [calls[i] for i in sorted(calls)]
    return merged


@hookimpl
def modelport_conformance_suites(register: Any) -> None:
    cases = files("modelport_acme") / "cases"
    register("acme", cases, merge_frames=merge_frames, credential_env=("ACME_API_KEY",))
