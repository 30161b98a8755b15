"""Azure OpenAI's content filter and error shapes (pure).

Azure annotates every answer: ``prompt_filter_results`` (one entry per prompt) and each choice's
``content_filter_results`` on Chat Completions, ``content_filters`` on a Responses body. They are kept
as Azure sent them in ``provider_metadata[<provider id>]``; in a stream, where each chunk carries the
annotation of its own text, ``content_filter_results`` holds, per category, the most severe
annotation the stream carried (a filtered one before an unfiltered one, then ``detected``, then the
highest ``severity``), and :func:`merge_chat_frames` folds the chunks the same way.

A filtered answer ends with ``finish_reason: content_filter`` (Chat Completions) or
``incomplete_details.reason: content_filter`` (Responses): ``finish_reason="content-filter"``. A
filtered *prompt* is an HTTP 400 whose error has ``code: content_filter`` (with
``innererror.code: ResponsibleAIPolicyViolation`` and its ``content_filter_result``): the same typed
outcome, a result with no content, ``finish_reason="content-filter"`` and the filter's categories in
``provider_metadata[<provider id>]["prompt_filter"]`` (:func:`filtered_prompt`), not an error, as
Gemini's blocked prompt is; in a stream, the start event then a ``finish`` event of that outcome.
The typed error :func:`azure_error` builds carries it as ``partial``, and :func:`outcome_of` (the kit's
``outcome_of_error``) turns it into the call's answer.
Other Azure errors (``{"error": {"code": "401"|"DeploymentNotFound"|"429", "message"}}``) are typed
by their status; a numeric ``code`` is no provider status, the ``apim-request-id`` header is the
request id.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from modelport import events as ev
from modelport.errors import ProviderError
from modelport.http import error_message, status_error
from modelport.types import Result

from ._stream import merge_frames as merge_chat_chunks

__all__ = [
    "FilteredStream",
    "azure_error",
    "chat_filters",
    "filtered_categories",
    "filtered_prompt",
    "fold_results",
    "merge_chat_frames",
    "outcome_of",
    "responses_filters",
    "with_filters",
]

_SEVERITY = {"safe": 0, "low": 1, "medium": 2, "high": 3}


def _rank(entry: Any) -> tuple[bool, bool, int]:
    if not isinstance(entry, dict):
        return (False, False, -1)
    severity = entry.get("severity")
    return (entry.get("filtered") is True, entry.get("detected") is True, _SEVERITY.get(str(severity), -1))


def fold_results(into: dict[str, Any], found: Any) -> None:
    """Fold one ``content_filter_results`` into ``into``: per category, the more severe entry (the
    earlier one on a tie)."""
    if not isinstance(found, dict):
        return
    for category, entry in found.items():
        if category not in into or _rank(entry) > _rank(into[category]):
            into[category] = entry


def chat_filters(data: Mapping[str, Any]) -> dict[str, Any]:
    """The filter annotations of a ``chat.completion`` body: ``prompt_filter_results`` and the first
    choice's ``content_filter_results``, where Azure sent them (non-empty)."""
    found: dict[str, Any] = {}
    prompt = data.get("prompt_filter_results")
    if isinstance(prompt, list) and prompt:
        found["prompt_filter_results"] = prompt
    choices = data.get("choices")
    first = choices[0] if isinstance(choices, list) and choices and isinstance(choices[0], dict) else {}
    results = first.get("content_filter_results")
    if isinstance(results, dict) and results:
        found["content_filter_results"] = results
    return found


def responses_filters(data: Mapping[str, Any]) -> dict[str, Any]:
    """The ``content_filters`` of a Responses body, where Azure sent them (non-empty)."""
    filters = data.get("content_filters")
    return {"content_filters": filters} if isinstance(filters, list) and filters else {}


def with_filters(metadata: Mapping[str, Any], key: str, filters: Mapping[str, Any]) -> dict[str, Any]:
    """``metadata`` with ``filters`` added under ``key`` (beside what the decoder put there)."""
    if not filters:
        return dict(metadata)
    return {**metadata, key: {**(metadata.get(key) or {}), **filters}}


def merge_chat_frames(chunks: list[dict[str, Any]]) -> dict[str, Any]:
    """The Chat Completions ``merge_frames`` with Azure's annotations: the first
    ``prompt_filter_results`` and the folded ``content_filter_results`` of the first choice."""
    merged = merge_chat_chunks(chunks)
    folded: dict[str, Any] = {}
    for chunk in chunks:
        if "prompt_filter_results" not in merged and chunk.get("prompt_filter_results"):
            merged["prompt_filter_results"] = chunk["prompt_filter_results"]
        for choice in chunk.get("choices") or ():
            if isinstance(choice, dict) and choice.get("index", 0) == 0:
                fold_results(folded, choice.get("content_filter_results"))
    if folded:
        merged["choices"][0]["content_filter_results"] = folded
    return merged


class FilteredStream:
    """A stream decoder (Chat Completions or Responses) whose ``finish`` event also carries Azure's
    filter annotations, read from the frames as they pass (``responses``: the Responses events)."""

    def __init__(self, inner: Any, *, key: str, responses: bool) -> None:
        self._inner = inner
        self._key = key
        self._responses = responses
        self._prompt: Any = None
        self._folded: dict[str, Any] = {}
        self._filters: Any = None

    def _watch(self, frame: Any) -> None:
        if not isinstance(frame, dict):
            return
        if self._responses:
            response = frame.get("response")
            if isinstance(response, dict) and response.get("content_filters"):
                self._filters = response["content_filters"]
            return
        if self._prompt is None and frame.get("prompt_filter_results"):
            self._prompt = frame["prompt_filter_results"]
        for choice in frame.get("choices") or ():
            if isinstance(choice, dict) and choice.get("index", 0) == 0:
                fold_results(self._folded, choice.get("content_filter_results"))

    def _filters_found(self) -> dict[str, Any]:
        if self._responses:
            return {"content_filters": self._filters} if self._filters else {}
        found: dict[str, Any] = {}
        if self._prompt:
            found["prompt_filter_results"] = self._prompt
        if self._folded:
            found["content_filter_results"] = dict(self._folded)
        return found

    def _amended(self, events: Iterable[ev.StreamEvent]) -> Iterator[ev.StreamEvent]:
        for event in events:
            if isinstance(event, ev.FinishEvent):
                filters = self._filters_found()
                if filters:
                    metadata = with_filters(event.provider_metadata, self._key, filters)
                    event = event.model_copy(update={"provider_metadata": metadata})
            yield event

    def feed(self, frame: Any) -> list[ev.StreamEvent]:
        self._watch(frame)
        return list(self._amended(self._inner.feed(frame)))

    def finish(self) -> list[ev.StreamEvent]:
        return list(self._amended(self._inner.finish()))

    def done(self) -> None:
        done = getattr(self._inner, "done", None)
        if done is not None:
            done()

    def flush(self) -> list[ev.StreamEvent]:
        flush = getattr(self._inner, "flush", None)
        return list(flush()) if flush is not None else []


# A filtered prompt ------------------------------------------------------------------------------------


def filtered_prompt(error: ProviderError, key: str) -> Result | None:
    """The outcome of a request whose prompt Azure's filter refused (see the module doc), or
    ``None`` when ``error`` is no such refusal."""
    details = error.details
    if error.status_code != 400 or error.provider_status != "content_filter" or not isinstance(details, dict):
        return None
    blocked: dict[str, Any] = {"code": "content_filter"}
    for name in ("param", "message"):
        if isinstance(details.get(name), str):
            blocked[name] = details[name]
    inner = details.get("innererror")
    if isinstance(inner, dict):
        if isinstance(inner.get("code"), str):
            blocked["innererror_code"] = inner["code"]
        if isinstance(inner.get("content_filter_result"), dict):
            blocked["content_filter_result"] = inner["content_filter_result"]
    if error.request_id:
        blocked["request_id"] = error.request_id
    return Result(
        finish_reason="content-filter",
        raw_finish_reason="content_filter",
        provider_metadata={key: {"prompt_filter": blocked}},
    )


def outcome_of(error: ProviderError) -> Result | None:
    """The ``content-filter`` outcome ``error`` carries (a filtered prompt), else ``None``."""
    outcome = error.partial
    if error.provider_status == "content_filter" and isinstance(outcome, Result):
        return outcome
    return None


def filtered_categories(metadata: Mapping[str, Any]) -> list[str]:
    """The categories Azure's filter flagged (``filtered: true``) in one provider's metadata (a
    result's or a finish event's ``provider_metadata[<provider id>]``), sorted, each once."""
    found: set[str] = set()

    def scan(results: Any) -> None:
        if isinstance(results, dict):
            found.update(name for name, entry in results.items() if _rank(entry)[0])

    for entry in metadata.get("prompt_filter_results") or ():
        if isinstance(entry, dict):
            scan(entry.get("content_filter_results"))
    scan(metadata.get("content_filter_results"))
    for entry in metadata.get("content_filters") or ():
        if isinstance(entry, dict):
            scan(entry.get("content_filter_results"))
    prompt = metadata.get("prompt_filter")
    if isinstance(prompt, dict):
        scan(prompt.get("content_filter_result"))
    return sorted(found)


# Errors ---------------------------------------------------------------------------------------------


def azure_error(
    status: int, headers: Mapping[str, str], body: str, *, provider: str, key: str
) -> ProviderError:
    """The typed error of an Azure error answer; a filtered prompt's carries its outcome as
    ``partial`` (:func:`filtered_prompt`)."""
    message, kind, found = error_message(body)
    error: dict[str, Any] = found if isinstance(found, dict) else {}
    code = error.get("code")
    inner = error.get("innererror")
    provider_status = code if isinstance(code, str) and not code.isdigit() else None
    if provider_status is None and isinstance(kind, str) and not kind.isdigit():
        provider_status = kind
    typed = status_error(
        status,
        headers,
        body,
        provider=provider,
        message=message,
        provider_status=provider_status,
        kinds=(provider_status, inner.get("code") if isinstance(inner, dict) else None),
        quota="insufficient_quota" in (provider_status, error.get("type")),
        details=error or None,
        request_id=headers.get("x-request-id") or headers.get("apim-request-id"),
    )
    outcome = filtered_prompt(typed, key)
    if outcome is not None:
        typed.partial = outcome
    return typed
