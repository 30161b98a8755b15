"""S6: the versioned, provider-discriminated envelope for persisting a grounded outcome.

An envelope is plain JSON with exactly these keys::

    {"version": 1, "provider": "google", "type": "google_search_grounding",
     "outcome": {"status": "ok" | "tool-calls", "result": {...Result JSON...}}
                | {"status": "streamed"},
     "metadata": {...groundingMetadata...}}

:func:`build_envelope` makes one; :func:`decode` revalidates one that comes back from storage or
from a callback that may have changed it (a mapping, JSON text, or UTF-8 bytes) and returns the
outcome plus the event-safe metadata ``{"schema_version", "provider", "type", "metadata"}``.
Malformed envelopes, non-JSON values, invalid UTF-8 and metadata over the size bound are rejected
with :class:`~modelport.errors.ProviderMetadataError`. Unknown metadata fields are preserved.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from modelport.errors import ProviderMetadataError, validation_message
from modelport.types import Result

from ._validate import MAX_DEPTH, ensure_json, validate_grounding_metadata

__all__ = [
    "ENVELOPE_KEYS",
    "ENVELOPE_TYPE",
    "ENVELOPE_VERSION",
    "GroundingOutcome",
    "build_envelope",
    "decode",
]

#: The envelope format's version (``version``).
ENVELOPE_VERSION = 1
#: The envelope's ``type``.
ENVELOPE_TYPE = "google_search_grounding"
ENVELOPE_PROVIDER = "google"
#: The keys of an envelope, all required, no others.
ENVELOPE_KEYS = frozenset({"version", "provider", "type", "outcome", "metadata"})

#: How far a stored result nests its metadata (``outcome.result.provider_metadata.google``): the
#: outcome may nest that much deeper than the metadata, or a result kept whole is refused here.
_OUTCOME_DEPTH = MAX_DEPTH + 4

#: Largest accepted serialized envelope (outcome and metadata together): 16 MiB.
MAX_ENVELOPE_BYTES = 16 * 1024 * 1024


class GroundingOutcome(BaseModel):
    """What the grounded call produced: a result (``ok`` or ``tool-calls``), or ``streamed``.

    A streamed outcome carries no result: the stream's own accumulator holds it.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    status: Literal["ok", "tool-calls", "streamed"]
    result: Result | None = None

    @model_validator(mode="after")
    def _result_matches_status(self) -> GroundingOutcome:
        if (self.status == "streamed") != (self.result is None):
            raise ValueError("a 'streamed' outcome has no result; 'ok' and 'tool-calls' need one")
        return self

    def to_json(self) -> dict[str, Any]:
        """The outcome as it is stored in an envelope (exact keys)."""
        if self.result is None:
            return {"status": self.status}
        return {"status": self.status, "result": self.result.model_dump(mode="json")}


def _fail(message: str) -> ProviderMetadataError:
    return ProviderMetadataError(f"invalid grounding envelope: {message}", provider=ENVELOPE_PROVIDER)


def build_envelope(
    outcome: GroundingOutcome | Result | Literal["streamed"], metadata: object
) -> dict[str, Any]:
    """A version-1 envelope for ``outcome`` and its validated ``metadata``.

    A :class:`~modelport.types.Result` is stored as ``ok`` or, when it asks for tool calls,
    ``tool-calls``; ``"streamed"`` stores no result.
    """
    if outcome == "streamed":
        outcome = GroundingOutcome(status="streamed")
    elif isinstance(outcome, Result):
        status: Literal["ok", "tool-calls"] = "tool-calls" if outcome.tool_calls else "ok"
        outcome = GroundingOutcome(status=status, result=outcome)
    if not isinstance(outcome, GroundingOutcome):
        raise _fail(f"unsupported outcome {type(outcome).__name__}")
    checked = validate_grounding_metadata(metadata, provider=ENVELOPE_PROVIDER)
    stored = outcome.to_json()
    ensure_json(stored, provider=ENVELOPE_PROVIDER, what="outcome", limit=_OUTCOME_DEPTH)
    return {
        "version": ENVELOPE_VERSION,
        "provider": ENVELOPE_PROVIDER,
        "type": ENVELOPE_TYPE,
        "outcome": stored,
        "metadata": copy.deepcopy(checked),
    }


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def _load(raw: object) -> object:
    if isinstance(raw, (bytes, bytearray, memoryview)):
        if len(raw) > MAX_ENVELOPE_BYTES:
            raise _fail(f"larger than {MAX_ENVELOPE_BYTES} bytes")
        try:
            raw = bytes(raw).decode("utf-8")
        except UnicodeDecodeError:
            raise _fail("not valid UTF-8") from None
    if isinstance(raw, str):
        if len(raw) > MAX_ENVELOPE_BYTES:
            raise _fail(f"larger than {MAX_ENVELOPE_BYTES} bytes")
        try:
            return json.loads(raw, parse_constant=_reject_constant)
        except (ValueError, RecursionError) as error:
            raise _fail(f"not JSON ({error})") from None
    return raw


def _outcome(raw: object) -> GroundingOutcome:
    if not isinstance(raw, Mapping):
        raise _fail("outcome must be an object")
    status = raw.get("status")
    expected = {"status"} if status == "streamed" else {"status", "result"}
    if set(raw) != expected:
        raise _fail(f"outcome keys must be exactly {sorted(expected)}, got {sorted(map(str, raw))}")
    try:
        return GroundingOutcome.model_validate(dict(raw))
    except ValidationError as error:
        raise _fail("outcome." + validation_message(error, root="outcome", limit=1)) from None


def decode(envelope: object) -> tuple[GroundingOutcome, dict[str, Any]]:
    """Revalidate an envelope; returns ``(outcome, event_safe_metadata)``.

    ``envelope`` is a mapping (e.g. from a callback), JSON text or UTF-8 bytes (e.g. from
    storage). The event-safe metadata is a fresh copy, so later changes to ``envelope`` do not
    reach it: ``{"schema_version": 1, "provider": "google", "type": "google_search_grounding",
    "metadata": {...}}``.
    """
    data = _load(envelope)
    if not isinstance(data, Mapping):
        raise _fail(f"expected an object, got {type(data).__name__}")
    keys = set(data)
    if keys != ENVELOPE_KEYS:
        extra = sorted(map(str, keys - ENVELOPE_KEYS))
        missing = sorted(ENVELOPE_KEYS - keys)
        raise _fail(f"keys must be exactly {sorted(ENVELOPE_KEYS)} (extra: {extra}, missing: {missing})")
    version = data["version"]
    if type(version) is not int or version != ENVELOPE_VERSION:
        raise _fail(f"unsupported version {version!r} (expected {ENVELOPE_VERSION})")
    if data["provider"] != ENVELOPE_PROVIDER:
        raise _fail(f"provider must be {ENVELOPE_PROVIDER!r}, got {data['provider']!r}")
    if data["type"] != ENVELOPE_TYPE:
        raise _fail(f"type must be {ENVELOPE_TYPE!r}, got {data['type']!r}")
    ensure_json(data["outcome"], provider=ENVELOPE_PROVIDER, what="outcome", limit=_OUTCOME_DEPTH)
    outcome = _outcome(data["outcome"])
    metadata = copy.deepcopy(validate_grounding_metadata(data["metadata"], provider=ENVELOPE_PROVIDER))
    event_safe = {
        "schema_version": ENVELOPE_VERSION,
        "provider": ENVELOPE_PROVIDER,
        "type": ENVELOPE_TYPE,
        "metadata": metadata,
    }
    return outcome, event_safe
