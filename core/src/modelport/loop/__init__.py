"""An opt-in tool loop: call the model, run the function tools it asks for, feed the results back.

``model.run(prompt=..., tools=[get_weather], max_steps=8)`` (``arun`` for async, ``run_stream`` for
events) repeats until the model answers without asking for a tool, ``max_steps`` model calls were
made, or ``stop_when(step)`` says so. ``approve=hook`` lets the caller allow, refuse or edit each
call before it runs (see :mod:`modelport.loop.approval`). Calls the model asked for together run in
parallel (threads in sync code, tasks in async code). A tool that raises, arguments that do not
validate, a refused call or an output a request cannot carry become an error tool result the model
sees. Provider-executed calls (search, code execution) are never run locally; those the provider
runs only once approved (a remote MCP server's, ``approval="requested"``) go to ``approve`` and
its decision is sent back. Each turn is appended
with ``result.message``, which carries what the provider needs replayed (thought signatures), so
every provider's multi-step rules hold.

A step, the model call and the tools it asked for, is bounded by the model's ``deadline`` (the
time an ``approve`` hook takes to decide is not counted): when it passes while tools run,
:class:`~modelport.errors.DeadlineExceededError` is raised (a sync tool's thread cannot be stopped
and runs on in the background). Any error that ends a run carries the steps finished before it in
``error.steps``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar

from .._contract.steps import Step
from ..deadlines import Deadline
from ..errors import DeadlineExceededError, InvalidRequestError, ModelportError
from ..tools.functions import PythonTool
from ._tool_calls import Round, aask, arun_round, ask, asks, plan, run_round
from .approval import ALLOW

if TYPE_CHECKING:
    from collections.abc import Mapping
    from contextlib import AbstractContextManager

    from ..events import StreamEvent
    from ..provider import Provider
    from ..types import Message, Request, Result, ToolCallPart, Usage
    from .approval import ApproveHook

__all__ = ["ModelCalls", "RunResult", "RunStream", "Step", "arun", "run", "run_stream"]


class _Call(Protocol):
    """One call validated by the model: the loop reads its request (for :attr:`Step.request`)."""

    @property
    def request(self) -> Request: ...


class _Streamed(Protocol):
    def __iter__(self) -> Iterator[StreamEvent]: ...

    def result(self) -> Result: ...


_C = TypeVar("_C", bound=_Call)


class ModelCalls(Protocol[_C]):
    """The model calls a run makes, on the model it was started from (a :class:`~modelport.Model`
    makes them): validate a step's call once, then generate, await or stream it."""

    provider: Provider

    def _validate(self, kwargs: Mapping[str, Any]) -> _C: ...

    def _generate(self, call: _C) -> Result: ...

    async def _agenerate(self, call: _C) -> Result: ...

    def _stream(self, call: _C) -> AbstractContextManager[_Streamed]: ...


StopReason = Literal["answer", "max-steps", "stopped"]


@dataclass(frozen=True)
class RunResult:
    """Every step of a run; the last result, the summed usage and the whole conversation."""

    steps: list[Step]
    messages: list[Message]
    stop_reason: StopReason

    @property
    def result(self) -> Result:
        """The last model result."""
        return self.steps[-1].result

    @property
    def text(self) -> str:
        """The last result's text."""
        return self.result.text

    @property
    def parsed(self) -> Any:
        """The last result's validated output (with a Python type as ``response_format``)."""
        return self.result.parsed

    @property
    def usage(self) -> Usage:
        """Token counts summed over every step (a count no step reported stays ``None``)."""
        from ..types import Usage

        totals: dict[str, int | None] = {}
        for step in self.steps:
            for name, value in step.result.usage.model_dump(exclude={"cached_input_tokens"}).items():
                if value is not None:
                    totals[name] = (totals.get(name) or 0) + value
        return Usage(**totals)


class _Conversation:
    """What sync, async and streaming runs share: the history, the tools, the stop rules and the
    step's deadline."""

    def __init__(
        self,
        model: ModelCalls[Any],
        kwargs: dict[str, Any],
        max_steps: int,
        stop_when: Callable[[Step], bool] | None,
        approve: ApproveHook | None,
    ) -> None:
        if not isinstance(max_steps, int) or isinstance(max_steps, bool) or max_steps < 1:
            raise InvalidRequestError("max_steps must be a positive integer")
        if approve is not None and not callable(approve):
            raise InvalidRequestError(f"approve must be a callable, got {type(approve).__name__}")
        from ..types import Message

        kwargs = dict(kwargs)
        prompt = kwargs.pop("prompt", None)
        messages = kwargs.pop("messages", None)
        if (prompt is None) == (messages is None):
            raise InvalidRequestError("run needs exactly one of 'prompt' or 'messages'")
        start = [{"role": "user", "content": prompt}] if prompt is not None else list(messages)
        self.messages: list[Message] = [
            m if isinstance(m, Message) else Message.model_validate(m) for m in start
        ]
        self.functions = {t.name: t for t in kwargs.get("tools") or [] if isinstance(t, PythonTool)}
        self.kwargs = kwargs
        self.max_steps = max_steps
        self.stop_when = stop_when
        self.approve = approve
        self.provider = model.provider.id
        self.deadline = model.provider.config.deadline
        self.started = 0.0
        self.steps: list[Step] = []

    def begin(self, model: ModelCalls[Any]) -> Any:
        """A step starts: its call, validated once (its request is :attr:`Step.request`)."""
        self.started = time.monotonic()
        return model._validate({**self.kwargs, "messages": list(self.messages)})

    def calls(self, result: Result) -> list[ToolCallPart]:
        """The calls to answer: every call the provider did not execute itself and, with an
        ``approve`` hook, every call the provider asks approval for (without one, the run ends
        there: an approval is never given for the caller)."""
        asked = self.approve is not None
        return [
            c
            for c in result.content
            if c.type == "tool-call" and (not c.provider_executed or (asked and c.approval == "requested"))
        ]

    def remaining(self) -> float | None:
        """Seconds left of the step's deadline (``None`` without one)."""
        return None if self.deadline is None else self.started + self.deadline - time.monotonic()

    def timed_out(self, result: Result, round_: Round) -> DeadlineExceededError:
        """The error of a step whose tools did not finish within the deadline."""
        still = ", ".join(repr(name) for name in round_.pending())
        return DeadlineExceededError(
            f"step {len(self.steps) + 1} did not finish within its deadline of {self.deadline:g} s: "
            f"tool {still} still running (a sync tool's thread cannot be stopped; it runs on)",
            provider=self.provider,
            partial=result,
        )

    def record(self, request: Request, result: Result, round_: Round) -> StopReason | None:
        """Append the step; the stop reason, or ``None`` to go on."""
        from ..types import Message

        results = round_.finished()
        step = Step(request, result, results, list(round_.calls))
        self.steps.append(step)
        self.messages.append(result.message)
        if not results:
            return "answer"
        self.messages.append(Message(role="tool", content=list(results)))
        if self.stop_when is not None and self.stop_when(step):
            return "stopped"
        if len(self.steps) >= self.max_steps:
            return "max-steps"
        return None

    def finished(self, reason: StopReason) -> RunResult:
        return RunResult(list(self.steps), list(self.messages), reason)

    @contextmanager
    def keeping_steps(self) -> Iterator[None]:
        """An error that ends the run leaves with the steps finished before it (``error.steps``)."""
        try:
            yield
        except ModelportError as error:
            if error.steps is None:
                error.steps = list(self.steps)
            raise


def _tools(conversation: _Conversation, result: Result) -> Round:
    """Ask about, then run, the calls of ``result`` (sync)."""
    functions, calls = conversation.functions, conversation.calls(result)
    timeout = conversation.remaining()  # taken before the hook: a person's time to decide is not counted
    decisions = [ask(conversation.approve, c) if asks(functions, c) else ALLOW for c in calls]
    round_ = plan(functions, calls, decisions)
    with Deadline.for_call(timeout).applied():  # what the tools call (MCP servers) keeps to it
        finished = run_round(round_, timeout)
    if not finished:
        raise conversation.timed_out(result, round_)
    return round_


async def _atools(conversation: _Conversation, result: Result) -> Round:
    """Async twin of :func:`_tools`."""
    functions, calls = conversation.functions, conversation.calls(result)
    timeout = conversation.remaining()
    decisions = [await aask(conversation.approve, c) if asks(functions, c) else ALLOW for c in calls]
    round_ = plan(functions, calls, decisions)
    with Deadline.for_call(timeout).applied():
        finished = await arun_round(round_, timeout)
    if not finished:
        raise conversation.timed_out(result, round_)
    return round_


def run(
    model: ModelCalls[Any],
    *,
    max_steps: int = 8,
    stop_when: Callable[[Step], bool] | None = None,
    approve: ApproveHook | None = None,
    **kwargs: Any,
) -> RunResult:
    """Run the tool loop (see the module documentation)."""
    conversation = _Conversation(model, kwargs, max_steps, stop_when, approve)
    with conversation.keeping_steps():
        while True:
            call = conversation.begin(model)
            result = model._generate(call)
            reason = conversation.record(call.request, result, _tools(conversation, result))
            if reason is not None:
                return conversation.finished(reason)


async def arun(
    model: ModelCalls[Any],
    *,
    max_steps: int = 8,
    stop_when: Callable[[Step], bool] | None = None,
    approve: ApproveHook | None = None,
    **kwargs: Any,
) -> RunResult:
    """Async twin of :func:`run`; calls asked for together run as concurrent tasks, and an async
    ``approve`` hook is awaited."""
    conversation = _Conversation(model, kwargs, max_steps, stop_when, approve)
    with conversation.keeping_steps():
        while True:
            call = conversation.begin(model)
            result = await model._agenerate(call)
            reason = conversation.record(call.request, result, await _atools(conversation, result))
            if reason is not None:
                return conversation.finished(reason)


class RunStream:
    """The events of every step of a run, as they arrive; :meth:`result` gives the :class:`RunResult`.

    Each step's model events come as the model sends them (from ``stream-start`` to ``finish``);
    then, before the next step's ``stream-start``, one ``tool-result`` event for each function call
    the loop answered, in the model's order: the parts of :attr:`Step.tool_results`. They are not
    part of any step's :attr:`Step.result` (the model did not send them).
    """

    def __init__(
        self,
        model: ModelCalls[Any],
        max_steps: int,
        stop_when: Callable[[Step], bool] | None,
        kwargs: dict[str, Any],
        approve: ApproveHook | None = None,
    ):
        self._model = model
        self._conversation = _Conversation(model, kwargs, max_steps, stop_when, approve)
        self._iterator: Iterator[StreamEvent] | None = None
        self._result: RunResult | None = None

    def __iter__(self) -> Iterator[StreamEvent]:
        if self._iterator is None:
            self._iterator = self._run()
        return self._iterator

    def _run(self) -> Iterator[StreamEvent]:
        from ..events import ToolResultEvent

        conversation = self._conversation
        with conversation.keeping_steps():
            while True:
                call = conversation.begin(self._model)
                with self._model._stream(call) as stream:
                    yield from stream
                    result = stream.result()
                reason = conversation.record(call.request, result, _tools(conversation, result))
                for part in conversation.steps[-1].tool_results:
                    yield ToolResultEvent(part=part)
                if reason is not None:
                    self._result = conversation.finished(reason)
                    return

    def result(self) -> RunResult:
        """Consume what is left and return the run's result."""
        for _ in self:
            pass
        assert self._result is not None
        return self._result


def run_stream(
    model: ModelCalls[Any],
    *,
    max_steps: int = 8,
    stop_when: Callable[[Step], bool] | None = None,
    approve: ApproveHook | None = None,
    **kwargs: Any,
) -> RunStream:
    """The streaming variant of :func:`run`."""
    return RunStream(model, max_steps, stop_when, kwargs, approve)
