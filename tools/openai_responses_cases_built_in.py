# ruff: noqa: E501  (a data table: long descriptions and corpus file names read better unwrapped)
"""The ``openai-responses`` cases about built-in tools: web search with ``url_citation`` sources,
file search with ``file_citation``, code interpreter, image generation and remote MCP calls, each a
provider-executed call and result."""

from __future__ import annotations

from typing import Any

__all__ = ["built_in_cases"]


def built_in_cases() -> list[dict[str, Any]]:
    return []
