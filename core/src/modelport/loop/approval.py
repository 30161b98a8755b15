"""Approving each function call before the tool loop runs it: ``model.run(..., approve=hook)``.

The hook receives the :class:`~modelport.types.ToolCallPart` the model asked for and returns a
decision (or an awaitable of one; ``arun`` awaits it, ``run`` and ``run_stream`` run it to the end):

- ``True`` or ``Approval()``: run the call as the model asked;
- ``Approval(args={...})``: run the call with these arguments instead (an edit). They are validated
  against the tool's parameters like the model's, and they are what :attr:`Step.tool_calls
  <modelport.loop.Step.tool_calls>` records;
- ``False`` or ``Refusal(reason)``: do not run it; the model gets ``reason`` as the call's error
  result (``is_error=True``), as it gets a failing tool's error.

A call the provider runs itself once approved (``call.approval == "requested"``, a remote MCP
server's tool with ``require_approval="always"``) is asked about the same way; the decision goes
back to the provider (an approval's ``args`` cannot edit it). Without a hook such a call is not
answered and the run ends with it.

Anything else is a :class:`~modelport.errors.InvalidRequestError` raised to the caller. The hook is
asked once per call, in the order the model gave them, before any call of the step runs; calls of
unknown tools are answered with an error result without asking it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Union

from ..errors import InvalidRequestError

if TYPE_CHECKING:
    from ..types import ToolCallPart

__all__ = ["Approval", "ApproveHook", "Decision", "Refusal"]

#: The reason the model sees when a call is refused with ``False``.
DEFAULT_REFUSAL = "the call was refused by the user"


@dataclass(frozen=True)
class Approval:
    """Run the call; with ``args``, run it with these arguments instead of the model's."""

    args: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        if self.args is not None and (
            not isinstance(self.args, dict) or not all(isinstance(k, str) for k in self.args)
        ):
            raise InvalidRequestError("Approval(args=...) takes a dict of argument names to values")


@dataclass(frozen=True)
class Refusal:
    """Do not run the call; the model gets ``reason`` as its error result."""

    reason: str = DEFAULT_REFUSAL

    def __post_init__(self) -> None:
        if not isinstance(self.reason, str) or not self.reason:
            raise InvalidRequestError("Refusal(reason=...) takes a non-empty string")


#: What an approval hook returns for one call.
Decision = Union[bool, Approval, Refusal]

#: An approval hook: sync, or async (returning an awaitable decision).
ApproveHook = Callable[["ToolCallPart"], Union[Decision, Awaitable[Decision]]]

ALLOW = Approval()


def decision(answer: object, call: ToolCallPart) -> Approval | Refusal:
    """The hook's ``answer`` for ``call`` as an :class:`Approval` or a :class:`Refusal`."""
    if answer is True:
        return ALLOW
    if answer is False:
        return Refusal()
    if isinstance(answer, (Approval, Refusal)):
        return answer
    raise InvalidRequestError(
        f"approve must return True, False, an Approval or a Refusal; for the call {call.id!r} of "
        f"{call.name!r} it returned {type(answer).__name__}"
    )
