"""A message without its reasoning state: the one rule of :mod:`modelport.reasoning`'s replay policy
a provider applies itself (:meth:`Provider.replay_from_model
<modelport.provider.Provider.replay_from_model>`)."""

from __future__ import annotations

from .content import Message, ReasoningPart

__all__ = ["CORE_NAMESPACE", "without_reasoning_state"]


#: The ``provider_metadata`` namespace the core itself writes (e.g. a tool call's raw arguments): it
#: is no provider's opaque state and is kept wherever a message goes.
CORE_NAMESPACE = "modelport"


def _foreign(metadata: dict[str, dict[str, object]] | None) -> bool:
    return bool(metadata) and any(key != CORE_NAMESPACE for key in metadata)  # type: ignore[union-attr]


def _core_only(metadata: dict[str, dict[str, object]]) -> dict[str, dict[str, object]] | None:
    return {key: value for key, value in metadata.items() if key == CORE_NAMESPACE} or None


def without_reasoning_state(message: Message) -> Message:
    """``message`` without its reasoning parts and its providers' opaque state (every
    ``provider_metadata`` namespace but the core's), or ``message`` itself when it has none."""
    if not _foreign(message.provider_metadata) and not any(
        isinstance(part, ReasoningPart) or _foreign(part.provider_metadata) for part in message.content
    ):
        return message
    content = [
        part.model_copy(update={"provider_metadata": _core_only(part.provider_metadata)})
        if part.provider_metadata and _foreign(part.provider_metadata)
        else part
        for part in message.content
        if not isinstance(part, ReasoningPart)
    ]
    metadata = message.provider_metadata
    return message.model_copy(
        update={"content": content, "provider_metadata": _core_only(metadata) if metadata else None}
    )
