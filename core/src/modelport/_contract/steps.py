"""One step of a tool loop (:func:`modelport.loop.run`): a record of contract types only, so that an
error (:attr:`~modelport.errors.ModelportError.steps`) can carry the steps a run finished."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .content import ToolCallPart, ToolResultPart
    from .request import Request
    from .results import Result

__all__ = ["Step"]


@dataclass(frozen=True)
class Step:
    """One model call of a run: what was asked, what came back, and the tool results sent next.

    ``tool_calls`` are the function calls the loop answered, in the model's order and as they ran
    (with the arguments an approval hook gave in place of the model's); ``tool_results`` holds the
    result of each, in the same order.
    """

    request: Request
    result: Result
    tool_results: list[ToolResultPart] = field(default_factory=list)
    tool_calls: list[ToolCallPart] = field(default_factory=list)
