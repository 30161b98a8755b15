"""The neutral tools of :mod:`modelport.tools` as Google provider tools, per backend.

``web_search`` is ``google.google_search``: its time range is ``timeRangeFilter`` on the Gemini
API, its blocked domains ``excludeDomains`` on Vertex AI; nothing else is expressible (no allowed
domains, location, use limit or context size). ``web_fetch`` is ``google.url_context`` and
``code_execution`` is ``google.code_execution``, neither with options.
"""

from __future__ import annotations

from typing import Any

from modelport.tools import NeutralToolMapping, WebSearchOptions

from ._timestamps import timestamp

__all__ = ["neutral_tool"]


def _search_args(options: WebSearchOptions) -> dict[str, Any]:
    args: dict[str, Any] = {}
    if options.time_range is not None:
        window = options.time_range
        args["timeRangeFilter"] = {
            "startTime": timestamp(window.start, "google.google_search"),
            "endTime": timestamp(window.end, "google.google_search"),
        }
    if options.blocked_domains is not None:
        args["excludeDomains"] = list(options.blocked_domains)
    return args


_SHARED = {
    "web_fetch": NeutralToolMapping("google.url_context"),
    "code_execution": NeutralToolMapping("google.code_execution"),
}
_BY_BACKEND: dict[str, dict[str, NeutralToolMapping]] = {
    "gemini": {
        **_SHARED,
        "web_search": NeutralToolMapping("google.google_search", frozenset({"time_range"}), _search_args),
    },
    "vertex": {
        **_SHARED,
        "web_search": NeutralToolMapping(
            "google.google_search", frozenset({"blocked_domains"}), _search_args
        ),
    },
}


def neutral_tool(backend: str, name: str) -> NeutralToolMapping | None:
    """How ``backend`` (``"gemini"`` or ``"vertex"``) expresses the neutral tool ``name``."""
    return _BY_BACKEND.get(backend, {}).get(name)
