"""Frame-level state of a Gemini stream: the response and candidate keys kept over its frames.

Shared by :class:`~._stream.StreamDecoder` and :func:`~._stream.merge_frames`, so a stream's
accumulated result and its merged frames keep the same last-wins and accumulated keys.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from modelport.errors import ProviderMetadataError

from ._decode import CANDIDATE_KEYS

__all__ = ["MAX_CITATION_SOURCES", "FrameState", "part_kind"]


#: Most recitation sources (``citationMetadata.citationSources``) kept over one response: real
#: answers carry a handful; a stream repeating a thousand per frame would otherwise grow without end.
MAX_CITATION_SOURCES = 1_000

_LAST_RESPONSE_KEYS = ("usageMetadata", "modelVersion", "promptFeedback")
_LAST_CANDIDATE_KEYS = frozenset({"finishReason", *CANDIDATE_KEYS})
_ACCUMULATED_KEYS = frozenset({"citationMetadata", "groundingMetadata", "logprobsResult"})
#: A candidate with only these keys (nearly every frame) has nothing for :class:`FrameState`
#: to keep.
_PLAIN_CANDIDATE_KEYS = frozenset({"content", "index"})


def part_kind(raw: Mapping[str, Any]) -> str:
    return "reasoning" if raw.get("thought") is True else "text"


class FrameState:
    """What the frames of one stream leave behind: last wins, except the accumulated keys."""

    def __init__(self, provider: str) -> None:
        self.provider = provider
        self.response: dict[str, Any] = {}
        self.candidate: dict[str, Any] = {}
        self.citation_sources: list[Any] = []
        self.grounding: Any = None
        self.logprobs: dict[str, list[Any]] | None = None  # logprobsResult lists, over all frames

    def add(self, frame: Mapping[str, Any], candidate: Mapping[str, Any] | None) -> None:
        # Three lookups, and a key-set test for the candidate, keep the per-frame cost flat.
        for key in _LAST_RESPONSE_KEYS:
            value = frame.get(key)
            if value is not None:
                self.response[key] = value
        if "responseId" not in self.response and frame.get("responseId") is not None:
            self.response["responseId"] = frame["responseId"]
        if candidate is None or candidate.keys() <= _PLAIN_CANDIDATE_KEYS:
            return
        for key in candidate.keys() & _LAST_CANDIDATE_KEYS:
            if candidate[key] not in (None, {}, []):
                self.candidate[key] = candidate[key]
        if not candidate.keys() & _ACCUMULATED_KEYS:
            return
        logprobs = candidate.get("logprobsResult")
        if isinstance(logprobs, dict):
            if self.logprobs is None:
                self.logprobs = {"topCandidates": [], "chosenCandidates": []}
            for key in ("topCandidates", "chosenCandidates"):
                value = logprobs.get(key) or []
                if not isinstance(value, list):
                    raise TypeError(f"logprobsResult.{key} must be a list")
                self.logprobs[key].extend(value)
        citations = candidate.get("citationMetadata")
        if isinstance(citations, dict) and isinstance(citations.get("citationSources"), list):
            self.citation_sources.extend(citations["citationSources"])
            if len(self.citation_sources) > MAX_CITATION_SOURCES:
                raise ProviderMetadataError(
                    f"citationMetadata has more than {MAX_CITATION_SOURCES} sources over the stream",
                    provider=self.provider,
                )
            self.candidate["citationMetadata"] = {**citations, "citationSources": self.citation_sources}
        if "groundingMetadata" in candidate:
            if self.grounding is None:
                from .grounding import GroundingAccumulator

                self.grounding = GroundingAccumulator(provider=self.provider)
            self.grounding.add(candidate["groundingMetadata"])

    def grounding_result(self) -> dict[str, Any] | None:
        return None if self.grounding is None else self.grounding.result()  # type: ignore[no-any-return]
