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
- another provider's other wire API (``Origin.api``: Responses to Chat Completions, Anthropic or
  Gemini, and so on): its provider-executed tool parts too, the records of what that API's server
  ran (server tool calls and results, remote MCP calls and tool listings, MCP approval requests),
  with the answers to them (an approval's decision in a tool message): no other API can take them,
  as each plugin already leaves out another API's server tool records it cannot express. A message
  left empty is not sent; the text that came of those calls is;
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
from .types import CallWarning, Message, Origin, ReasoningPart, Request, ToolCallPart, ToolResultPart

if TYPE_CHECKING:
    from .provider import Provider

__all__ = [
    "CORE_NAMESPACE",
    "apply_reasoning_replay",
    "origin_of",
    "without_reasoning_state",
    "without_server_tool_parts",
]


def _server_record(part: object) -> bool:
    return isinstance(part, (ToolCallPart, ToolResultPart)) and part.provider_executed


def without_server_tool_parts(message: Message) -> Message:
    """``message`` without its provider-executed tool calls and results (the records of what a
    provider's server ran), or ``message`` itself when it has none."""
    if not any(_server_record(part) for part in message.content):
        return message
    return message.model_copy(update={"content": [p for p in message.content if not _server_record(p)]})


def _other_api(origin: Origin, target: Origin) -> bool:
    """Whether ``origin`` is another provider's other wire API than ``target`` (whose
    provider-executed records ``target`` cannot take)."""
    return origin.provider != target.provider and (origin.api is None or origin.api != target.api)


def _dropped(before: Message, after: Message) -> str:
    """What the policy took out of ``before`` (``after`` is what is sent), in words."""
    reasoning = sum(isinstance(p, ReasoningPart) for p in before.content) - sum(
        isinstance(p, ReasoningPart) for p in after.content
    )
    what = [f"{reasoning} reasoning part{'s' if reasoning != 1 else ''}"] if reasoning > 0 else []
    records = sum(_server_record(p) for p in before.content) - sum(_server_record(p) for p in after.content)
    if records > 0:
        what.append(f"{records} provider-executed tool part{'s' if records != 1 else ''}")
    namespaces = sorted(
        {key for key in before.provider_metadata or {} if key != CORE_NAMESPACE}
        | {key for part in before.content for key in part.provider_metadata or {} if key != CORE_NAMESPACE}
    )
    if namespaces:
        what.append("opaque state (provider_metadata of " + ", ".join(namespaces) + ")")
    if not what:
        return "reasoning state"
    return " and ".join([", ".join(what[:-1]), what[-1]] if len(what) > 1 else what)


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
    unsent: set[str] = set()  # the ids of the provider-executed calls left out: their answers too
    for index, message in enumerate(request.messages):
        if message.role != "assistant":
            if unsent and any(isinstance(p, ToolResultPart) and p.call_id in unsent for p in message.content):
                messages = messages if messages is not None else list(request.messages)
                messages[index] = _without_answers(message, unsent, index, target, mode, warnings)
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
        if origin is not None and _other_api(origin, target) and without_server_tool_parts(sent) is not sent:
            unsent |= {p.id for p in sent.content if isinstance(p, ToolCallPart) and p.provider_executed}
            sent = without_server_tool_parts(sent)
            why = "another provider's API: reasoning state and server tool records are not portable"
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
    # A message that held only what was left out is not sent at all (no API takes an empty one).
    kept = [m for m, given in zip(messages, request.messages, strict=True) if m.content or m is given]
    return request.model_copy(update={"messages": kept}), warnings


def _without_answers(
    message: Message, unsent: set[str], index: int, target: Origin, mode: str, warnings: list[CallWarning]
) -> Message:
    """``message`` without its answers to the provider-executed calls left out (an MCP approval's
    decision: its request went to another API). ``"strict"`` refused at the call already."""
    answers = sum(isinstance(p, ToolResultPart) and p.call_id in unsent for p in message.content)
    if mode == "auto":
        details = (
            f"messages.{index}: {answers} answer{'s' if answers != 1 else ''} to a provider-executed "
            f"call of another provider's API not sent to {_name(target)} (the call is not sent either)"
        )
        warnings.append(CallWarning(type="other", setting="reasoning_replay", details=details))
    content = [p for p in message.content if not (isinstance(p, ToolResultPart) and p.call_id in unsent)]
    return message.model_copy(update={"content": content})
