"""The reasoning replay policy: what of a history's reasoning state is sent to a model.

An assistant turn's *reasoning state* is its reasoning parts (their text and ``signature``) and the
opaque state its provider attached to it: the provider namespaces of the message's and its parts'
``provider_metadata`` (Gemini's thought signatures on text and function-call parts, the raw parts
of ``Result.replay``; next Anthropic's signatures and redacted thinking, OpenAI's encrypted reasoning
items). ``Message.origin`` (:class:`~modelport.types.Origin`, stamped by the core on every result)
says which provider, API and model produced it. When a request is sent, the core applies the policy
to every assistant message, before the plugin maps the request, so every plugin gets it:

- same provider, API and model: sent exactly as it is;
- same provider, another model or API: the provider's documented rule,
  :meth:`Provider.replay_from_model <modelport.provider.Provider.replay_from_model>` (by default the
  plain data :attr:`Provider.cross_model_replay <modelport.provider.Provider.cross_model_replay>`);
- another provider: reasoning text and opaque state dropped;
- no origin (a history saved before origins existed, or built by hand): sent as it is.

The request keyword ``reasoning_replay`` chooses what happens when the policy drops or changes
something: ``"auto"`` (default) sends the rest and puts one warning per message on the result
(``type="other"``, ``setting="reasoning_replay"``); ``"strict"`` raises
:class:`~modelport.errors.InvalidRequestError` before any I/O; ``"drop"`` sends no reasoning state
at all, whatever the origin, without warnings. The core's own metadata (the ``"modelport"``
namespace) is never dropped.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from ._contract.replay import CORE_NAMESPACE, without_reasoning_state
from .errors import InvalidRequestError
from .types import CallWarning, Message, Origin, ReasoningPart, Request

if TYPE_CHECKING:
    from .provider import Provider

__all__ = ["CORE_NAMESPACE", "apply_reasoning_replay", "origin_of", "without_reasoning_state"]


def _dropped(before: Message, after: Message) -> str:
    """What the policy took out of ``before`` (``after`` is what is sent), in words."""
    reasoning = sum(isinstance(p, ReasoningPart) for p in before.content) - sum(
        isinstance(p, ReasoningPart) for p in after.content
    )
    what = [f"{reasoning} reasoning part{'s' if reasoning != 1 else ''}"] if reasoning > 0 else []
    namespaces = sorted(
        {key for key in before.provider_metadata or {} if key != CORE_NAMESPACE}
        | {key for part in before.content for key in part.provider_metadata or {} if key != CORE_NAMESPACE}
    )
    if namespaces:
        what.append("opaque state (provider_metadata of " + ", ".join(namespaces) + ")")
    return " and ".join(what) or "reasoning state"


def _name(origin: Origin) -> str:
    return f"{origin.provider}/{origin.model}" + (f" ({origin.api})" if origin.api else "")


@lru_cache(maxsize=64)
def _origin(provider: str, api: str | None, model: str) -> Origin:
    return Origin(provider=provider, api=api, model=model)


def origin_of(provider: Provider, model_name: str) -> Origin:
    """The :class:`~modelport.types.Origin` of what ``model_name`` of ``provider`` produces."""
    return _origin(provider.id, provider.api, model_name)


def apply_reasoning_replay(
    request: Request, provider: Provider, model_name: str
) -> tuple[Request, list[CallWarning]]:
    """The request as it is sent to ``model_name`` of ``provider`` under the reasoning replay policy,
    and the warnings for what it dropped; raises :class:`~modelport.errors.InvalidRequestError` for
    what ``reasoning_replay="strict"`` refuses. Never does I/O."""
    mode = request.reasoning_replay
    target = _origin(provider.id, provider.api, model_name)
    messages: list[Message] | None = None
    warnings: list[CallWarning] = []
    for index, message in enumerate(request.messages):
        if message.role != "assistant":
            continue
        origin = message.origin
        if mode == "drop":
            sent = without_reasoning_state(message)
        elif origin is None or origin == target:
            continue
        elif origin.provider == target.provider:
            sent = provider.replay_from_model(message, origin, model_name)
            why = f"another model of {target.provider}: its rule for reasoning across models"
        else:
            sent = without_reasoning_state(message)
            why = "another provider: reasoning state is not portable"
        if sent is message:
            continue
        if mode == "strict":
            assert origin is not None
            raise InvalidRequestError(
                f"messages.{index}: {_dropped(message, sent)} from {_name(origin)} cannot be sent to "
                f"{_name(target)} exactly ({why}); reasoning_replay='strict' refuses the request. "
                "Use reasoning_replay='auto' to send the rest with a warning, or 'drop'"
            )
        if mode == "auto":
            assert origin is not None
            warnings.append(
                CallWarning(
                    type="other",
                    setting="reasoning_replay",
                    details=f"messages.{index}: {_dropped(message, sent)} from {_name(origin)} not sent "
                    f"to {_name(target)} ({why})",
                )
            )
        if messages is None:
            messages = list(request.messages)
        messages[index] = sent
    if messages is None:
        return request, warnings
    return request.model_copy(update={"messages": messages}), warnings
