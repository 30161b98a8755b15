"""A misspelled request keyword gets a suggestion: ``max_tokens=`` points to ``max_output_tokens=``."""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from typing import Any

#: Names other SDKs use for a request keyword of modelport's, and the keyword they mean.
PEER_NAMES: Mapping[str, str] = {
    "max_tokens": "max_output_tokens",
    "max_completion_tokens": "max_output_tokens",
    "max_new_tokens": "max_output_tokens",
    "maxOutputTokens": "max_output_tokens",
    "stop": "stop_sequences",
    "system_prompt": "system",
    "instructions": "system",
    "input": "prompt",
    "user": "user_id",
    "metadata": "request_labels",
    "labels": "request_labels",
    "functions": "tools",
    "response_model": "response_format",
    "output_type": "response_format",
    "text_format": "response_format",
    "thinking": "reasoning",
    "reasoning_effort": "reasoning",
    "extra_body": "provider_options",
}

#: Connection settings: keywords of ``get_model`` (and of the module-level calls), not of a request.
CONNECTION_KEYWORDS = frozenset(
    {
        "api_key",
        "base_url",
        "http_client",
        "async_http_client",
        "transport",
        "timeout",
        "max_retries",
        "max_retry_delay",
        "deadline",
        "limits",
        "follow_redirects",
        "async_transport",
    }
)


def request_keywords() -> list[str]:
    """The keywords a call takes (:class:`~modelport.types.RequestKeywords`' names)."""
    from .._contract.request import RequestKeywords

    return list(RequestKeywords.__annotations__)


def suggestion(name: str, keywords: Sequence[str]) -> str | None:
    """What to say after ``name: Extra inputs are not permitted``, or None when nothing is close."""
    if name in CONNECTION_KEYWORDS:
        return f"{name}= is a connection setting: pass it to get_model(...), not to the call"
    meant = PEER_NAMES.get(name)
    if meant is None:
        close = difflib.get_close_matches(name, keywords, n=1, cutoff=0.7)
        meant = close[0] if close else None
    return f"did you mean {meant}=?" if meant is not None else None


def with_suggestions(problems: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """pydantic's problems with a suggestion added to each unknown top-level keyword."""
    keywords = request_keywords()
    out = []
    for problem in problems:
        loc = problem.get("loc", ())
        hint = None
        if problem.get("type") == "extra_forbidden" and len(loc) == 1 and isinstance(loc[0], str):
            hint = suggestion(loc[0], keywords)
        out.append({**problem, "msg": f"{problem['msg']} ({hint})"} if hint else dict(problem))
    return out
