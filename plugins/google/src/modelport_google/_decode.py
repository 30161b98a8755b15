"""Gemini response JSON → :class:`~modelport.types.Result` (G13-G16), and the pieces the stream shares.

Real responses omit fields freely (G14): ``content`` may be ``{}`` or missing, ``parts`` absent, counts
absent, text parts empty but signed. Every lookup here tolerates that; anything of the wrong type
becomes a :class:`~modelport.errors.ProviderResponseError` (Q1), never a bare ``KeyError``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from modelport.errors import ProviderMetadataError, ProviderResponseError
from modelport.types import (
    MAX_SAFE_INTEGER,
    CallWarning,
    Citation,
    Derived,
    FinishReason,
    Part,
    Result,
    Source,
    TokenLogprob,
    ToolCallPart,
    TopLogprob,
    Usage,
)
from modelport.wire import source_bytes

from ._parts import PartMapper, answered_calls, text_of
from ._replay import replay_metadata
from ._wire_map import FINISH_REASONS
from .grounding import validate_grounding_metadata

if TYPE_CHECKING:
    from ._wire import Candidate
    from ._wire import Part as WirePart

__all__ = [
    "CANDIDATE_KEYS",
    "blocked_reason",
    "candidate_metadata",
    "candidate_parts",
    "decode_response",
    "finish_reason",
    "grounding_fields",
    "string_or_none",
    "first_candidate",
    "guarded",
    "MALFORMED",
    "malformed",
    "logprobs_from",
    "text_of",
    "server_tool_calls",
    "usage_from",
]

T = TypeVar("T")

#: Candidate fields copied into ``provider_metadata["google"]`` when present.
CANDIDATE_KEYS = ("safetyRatings", "citationMetadata", "finishMessage", "urlContextMetadata", "avgLogprobs")


#: What decoding code raises on a shape it did not expect (made a typed error by :func:`guarded`).
MALFORMED = (KeyError, TypeError, ValueError, AttributeError, IndexError)


def malformed(provider: str, error: Exception) -> ProviderResponseError:
    """The typed error (Q1) for a bare ``error`` raised by decoding code."""
    return ProviderResponseError(
        f"malformed Gemini response: {type(error).__name__}: {error}", provider=provider
    )


def guarded(provider: str, decode: Callable[[], T]) -> T:
    """Run ``decode``; a shape it cannot handle becomes :class:`ProviderResponseError` (Q1)."""
    try:
        return decode()
    except (ProviderResponseError, ProviderMetadataError):
        raise
    except MALFORMED as error:
        raise malformed(provider, error) from None


def finish_reason(raw: str | None, has_function_calls: bool) -> FinishReason:
    """G13: Gemini's ``finishReason`` → the canonical reason (the table :data:`FINISH_REASONS`)."""
    if raw == "STOP" and has_function_calls:
        return "tool-calls"
    return FINISH_REASONS.get(raw, "other") if raw is not None else "other"


def _count(meta: dict[str, Any], key: str) -> int | None:
    """A count as :class:`Usage` keeps it: a JSON integer from 0 to ``MAX_SAFE_INTEGER``, else ``None``
    (not reported), as Usage's own validation would make it."""
    value = meta.get(key)
    if type(value) is int or (isinstance(value, int) and not isinstance(value, bool)):
        return value if 0 <= value <= MAX_SAFE_INTEGER else None
    return None


def _sum(*counts: int | None) -> int | None:
    """The sum of the reported counts (``None`` when none was reported, as Usage keeps it)."""
    reported = [count for count in counts if count is not None]
    total = sum(reported)
    return total if reported and total <= MAX_SAFE_INTEGER else None


def server_tool_calls(raw_parts: list[Any], grounding: object, candidate: object) -> int | None:
    """Gemini's own tool runs in one answer: its search queries (``webSearchQueries``), the URLs
    it fetched (``urlContextMetadata.urlMetadata``) and its code runs (``executableCode`` parts);
    ``None`` when there were none (Gemini reports no count)."""
    queries = grounding.get("webSearchQueries") if isinstance(grounding, dict) else None
    fetched = candidate.get("urlContextMetadata") if isinstance(candidate, dict) else None
    urls = fetched.get("urlMetadata") if isinstance(fetched, dict) else None
    runs = sum(1 for part in raw_parts if isinstance(part, dict) and "executableCode" in part)
    total = (
        runs
        + (len(queries) if isinstance(queries, list) else 0)
        + (len(urls) if isinstance(urls, list) else 0)
    )
    return total or None


def usage_from(meta: object, *, server_tool_calls: int | None = None) -> Usage:
    """``usageMetadata`` → :class:`Usage`; absent counts stay ``None`` (G6, G15).

    Gemini bills ``promptTokenCount`` (cached content included) plus ``toolUsePromptTokenCount``
    as input, ``candidatesTokenCount`` plus ``thoughtsTokenCount`` as output; its
    ``totalTokenCount`` is the sum of all four, so it equals input + output.
    """
    if not isinstance(meta, dict):
        return Usage(server_tool_calls=server_tool_calls)
    tool_use = _count(meta, "toolUsePromptTokenCount")
    thoughts = _count(meta, "thoughtsTokenCount")
    return Usage.trusted(  # each count checked by _count or _sum (P4)
        input_tokens=_sum(_count(meta, "promptTokenCount"), tool_use),
        output_tokens=_sum(_count(meta, "candidatesTokenCount"), thoughts),
        reasoning_tokens=thoughts,
        total_tokens=_count(meta, "totalTokenCount"),
        cache_read_input_tokens=_count(meta, "cachedContentTokenCount"),
        tool_use_prompt_tokens=tool_use,
        server_tool_calls=server_tool_calls,
    )


def candidate_metadata(candidate: Mapping[str, Any], response: Mapping[str, Any]) -> dict[str, Any]:
    """The ``provider_metadata["google"]`` fields of a candidate and its response (may be empty)."""
    meta = {key: candidate[key] for key in CANDIDATE_KEYS if candidate.get(key) not in (None, {}, [])}
    feedback = response.get("promptFeedback")
    if isinstance(feedback, dict) and feedback:
        meta["promptFeedback"] = feedback
    return meta


def grounding_fields(
    metadata: dict[str, Any], text_parts: list[str], *, provider: str, from_wire: bool = False
) -> tuple[dict[str, Any], list[Source], list[Citation], list[CallWarning]]:
    """Validated grounding metadata and the sources, citations and warnings derived from it."""
    from .grounding import citations_from_grounding, validate_grounding_metadata

    validated = validate_grounding_metadata(metadata, provider=provider, from_wire=from_wire)
    sources, citations, warnings = citations_from_grounding(validated, text_parts, provider=provider)
    return validated, sources, citations, warnings


def _token(raw: object) -> tuple[str, float]:
    # proto3 JSON omits defaults: a missing token is "", a missing logProbability is 0.0.
    item = raw if isinstance(raw, dict) else {}
    token, logprob = item.get("token", ""), item.get("logProbability", 0.0)
    if not isinstance(token, str) or isinstance(logprob, bool) or not isinstance(logprob, (int, float)):
        raise TypeError("a logprobs candidate needs a string token and a number logProbability")
    return token, float(logprob)


def logprobs_from(result: object) -> list[TokenLogprob] | None:
    """``logprobsResult`` → per-token :class:`TokenLogprob` (chosen token, top alternatives)."""
    if not isinstance(result, dict):
        return None
    chosen = result.get("chosenCandidates") or []
    top = result.get("topCandidates") or []
    if not isinstance(chosen, list) or not isinstance(top, list):
        raise TypeError("logprobsResult lists must be lists")
    tokens: list[TokenLogprob] = []
    for i, raw in enumerate(chosen):
        token, logprob = _token(raw)
        alternatives = top[i].get("candidates") if i < len(top) and isinstance(top[i], dict) else None
        tops = [TopLogprob(token=t, logprob=p) for t, p in map(_token, alternatives or [])]
        tokens.append(TokenLogprob(token=token, logprob=logprob, top=tops))
    return tokens


def first_candidate(response: Mapping[str, Any]) -> Candidate | None:
    """The selected candidate (``candidates[0]``), or ``None`` when there is none."""
    candidates = response.get("candidates")
    if isinstance(candidates, list) and candidates:
        first: Candidate = candidates[0]
        if not isinstance(first, dict):
            raise TypeError("a candidate must be an object")
        return first
    return None


def candidate_parts(candidate: Candidate | None) -> list[WirePart]:
    """The raw parts of a candidate (``[]`` when ``content`` or ``parts`` is missing)."""
    content = (candidate or {}).get("content")
    parts = content.get("parts") if isinstance(content, dict) else None
    if parts is None:
        return []
    if not isinstance(parts, list) or not all(isinstance(p, dict) for p in parts):
        raise TypeError("content.parts must be a list of objects")
    return parts


def blocked_reason(response: dict[str, Any]) -> str | None:
    """``promptFeedback.blockReason`` when the prompt was blocked."""
    feedback = response.get("promptFeedback")
    reason = feedback.get("blockReason") if isinstance(feedback, dict) else None
    return reason if isinstance(reason, str) else None


def string_or_none(value: object) -> str | None:
    """``value`` when it is a string, else ``None`` (real responses omit and retype fields)."""
    return value if isinstance(value, str) else None


def decode_response(
    response: object,
    *,
    provider: str = "google",
    warnings: Iterable[CallWarning] = (),
    from_wire: bool = False,
) -> Result:
    """Decode one ``generateContent`` response body (parsed JSON).

    ``from_wire=True`` when ``response`` comes straight from the strict wire parser (see
    :mod:`._json`), so JSON-ness need not be proven again.
    """
    return guarded(provider, lambda: _decode(response, provider, list(warnings), from_wire))


def _decode(response: object, provider: str, warnings: list[CallWarning], from_wire: bool = False) -> Result:
    if not isinstance(response, dict):
        raise TypeError("the response must be an object")
    candidate = first_candidate(response)
    raw_parts = candidate_parts(candidate)
    mapper = PartMapper(answered_calls(raw_parts))
    content: list[Part] = [p for p in map(mapper.map, raw_parts) if p is not None]
    has_calls = any(isinstance(p, ToolCallPart) and not p.provider_executed for p in content)
    raw_reason = string_or_none((candidate or {}).get("finishReason"))
    blocked = blocked_reason(response) if raw_reason is None else None
    if blocked is not None:
        reason: FinishReason = "content-filter"
        raw_reason = blocked
    else:
        reason = finish_reason(raw_reason, has_calls) if raw_reason is not None else "other"
    google = candidate_metadata(candidate or {}, response)
    size = source_bytes() if from_wire else None
    replay, replay_warning = replay_metadata(raw_parts, source_bytes=size)
    if replay_warning is not None:
        warnings.append(replay_warning)
    grounding = (candidate or {}).get("groundingMetadata")
    validated: dict[str, Any] | None = None
    if grounding is not None and (not isinstance(grounding, dict) or grounding):
        # As the stream does (S5): a non-object groundingMetadata is malformed, never ignored.
        validated = validate_grounding_metadata(
            grounding, provider=provider, from_wire=from_wire, source_bytes=size
        )
        google["groundingMetadata"] = validated
    fields = {
        "content": content,
        "finish_reason": reason,
        "raw_finish_reason": raw_reason,
        "usage": usage_from(
            response.get("usageMetadata"),
            server_tool_calls=server_tool_calls(raw_parts, grounding, candidate),
        ),
        "warnings": warnings,
        "provider_metadata": {"google": google} if google else {},
        "response_id": string_or_none(response.get("responseId")),
        "model_version": string_or_none(response.get("modelVersion")),
        "replay": replay,
        "logprobs": logprobs_from((candidate or {}).get("logprobsResult")),
    }
    if validated is None:
        return Result.trusted(**fields)  # every value above has its field's type already (P4)
    # Sources and citations are derived on first use (P2): the metadata is validated already.
    texts = text_of(raw_parts)
    metadata: dict[str, Any] = validated
    return Result.deferred(lambda: guarded(provider, lambda: _citations(metadata, texts, provider)), **fields)


def _citations(metadata: dict[str, Any], texts: list[str], provider: str) -> Derived:
    from .grounding import citations_from_grounding

    return citations_from_grounding(metadata, texts, provider=provider)
