"""Where a result keeps Google's grounding: ``provider_metadata["google"]["groundingMetadata"]``.

Contract 2.1 took ``grounding_metadata`` off the core's :class:`~modelport.types.Result` and
:class:`~modelport.events.FinishEvent` (a provider's data lives in its namespace);
:func:`grounding_metadata` is the typed way to read it back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypedDict, cast

from modelport.types import ProviderMetadata, Result

if TYPE_CHECKING:  # the stream's event types load with a stream, not with every answer
    from modelport.events import FinishEvent

__all__ = ["GROUNDING_KEY", "NAMESPACE", "GroundingMetadata", "grounding_metadata", "with_grounding"]

#: The ``provider_metadata`` namespace of Google's data and the key of its grounding metadata.
NAMESPACE, GROUNDING_KEY = "google", "groundingMetadata"


class GroundingMetadata(TypedDict, total=False):
    """Google's ``groundingMetadata`` as it was sent (camelCase; unknown fields are kept too).

    https://ai.google.dev/api/generate-content#GroundingMetadata
    """

    webSearchQueries: list[str]
    imageSearchQueries: list[str]
    groundingChunks: list[dict[str, Any]]
    groundingSupports: list[dict[str, Any]]
    searchEntryPoint: dict[str, Any]
    retrievalMetadata: dict[str, Any]
    retrievalQueries: list[str]
    googleMapsWidgetContextToken: str


def grounding_metadata(result: Result | FinishEvent) -> GroundingMetadata | None:
    """The grounding metadata of a :class:`~modelport.types.Result` or
    :class:`~modelport.events.FinishEvent`, or ``None`` when the answer was not grounded."""
    found = (result.provider_metadata.get(NAMESPACE) or {}).get(GROUNDING_KEY)
    return cast(GroundingMetadata, found) if isinstance(found, dict) else None


def with_grounding(provider_metadata: ProviderMetadata, metadata: dict[str, Any] | None) -> ProviderMetadata:
    """``provider_metadata`` with ``metadata`` as its grounding (a copy; unchanged when ``None``)."""
    if metadata is None:
        return provider_metadata
    return {**provider_metadata, NAMESPACE: {**provider_metadata.get(NAMESPACE, {}), GROUNDING_KEY: metadata}}
