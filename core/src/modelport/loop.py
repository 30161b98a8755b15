"""An opt-in tool loop: call the model, run the function tools it asks for, feed the results back.

``model.run(prompt=..., tools=[get_weather], max_steps=8)`` (``arun`` for async, ``run_stream`` for
events) repeats until the model answers without asking for a tool, ``max_steps`` model calls were
made, or ``stop_when(step)`` says so. Calls the model asked for together run in parallel (threads in
sync code, tasks in async code). A tool that raises, or arguments that do not validate, become an
error tool result the model sees. Provider-executed calls (search, code execution) are never run
locally. Each turn is appended with ``result.message``, which carries what the provider needs
replayed (thought signatures), so every provider's multi-step rules hold.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from .errors import InvalidRequestError
from .functions import PythonTool, ToolArgumentsError

if TYPE_CHECKING:
    from ._model import Model
    from .events import StreamEvent
    from .types import Message, Request, Result, ToolCallPart, ToolResultPart, Usage

__all__ = ["RunResult", "RunStream", "Step", "arun", "run", "run_stream"]

StopReason = Literal["answer", "max-steps", "stopped"]


@dataclass(frozen=True)
class Step:
    """One model call of a run: what was asked, what came back, and the tool results sent next."""

    request: Request
    result: Result
    tool_results: list[ToolResultPart] = field(default_factory=list)


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
        from .types import Usage

        totals: dict[str, int | None] = {}
        for step in self.steps:
            for name, value in step.result.usage.model_dump(exclude={"cached_input_tokens"}).items():
                if value is not None:
                    totals[name] = (totals.get(name) or 0) + value
        return Usage(**totals)


class _Conversation:
    """What sync, async and streaming runs share: the history, the tools and the stop rules."""

    def __init__(
        self, kwargs: dict[str, Any], max_steps: int, stop_when: Callable[[Step], bool] | None
    ) -> None:
        if not isinstance(max_steps, int) or isinstance(max_steps, bool) or max_steps < 1:
            raise InvalidRequestError("max_steps must be a positive integer")
        from .types import Message

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
        self.steps: list[Step] = []

    def request_kwargs(self) -> dict[str, Any]:
        return {**self.kwargs, "messages": list(self.messages)}

    def calls(self, result: Result) -> list[ToolCallPart]:
        """The calls to run locally: function calls of this run's tools (never provider-executed)."""
        return [c for c in result.tool_calls if not c.provider_executed]

    def record(self, request: Request, result: Result, results: list[ToolResultPart]) -> StopReason | None:
        """Append the step; the stop reason, or ``None`` to go on."""
        from .types import Message

        step = Step(request, result, results)
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

    def prepare(self, call: ToolCallPart) -> tuple[PythonTool, dict[str, Any]] | ToolResultPart:
        function = self.functions.get(call.name)
        if function is None:
            return _error(call, f"no tool named {call.name!r} is available")
        try:
            return function, function.arguments(call.args)
        except ToolArgumentsError as error:
            return _error(call, str(error))


def _request(kwargs: dict[str, Any]) -> Request:
    """The canonical request of a step, for :attr:`Step.request`. The call itself validates it
    fully (provider checks included); this only builds the value, without a second wire body."""
    from ._model import _canonical, build_request

    return build_request(_canonical(kwargs))


def _result(call: ToolCallPart, output: Any) -> ToolResultPart:
    from .types import ToolResultPart

    try:
        from pydantic import TypeAdapter

        value = TypeAdapter(Any).dump_python(output, mode="json")
    except Exception:  # an output JSON cannot carry: its text
        value = str(output)
    return ToolResultPart(call_id=call.id, name=call.name, output=value)


def _error(call: ToolCallPart, message: str) -> ToolResultPart:
    from .types import ToolResultPart

    return ToolResultPart(call_id=call.id, name=call.name, output=message, is_error=True)


def _run_sync(conversation: _Conversation, call: ToolCallPart) -> ToolResultPart:
    prepared = conversation.prepare(call)
    if not isinstance(prepared, tuple):
        return prepared
    function, args = prepared
    try:
        output = asyncio.run(function.fn(**args)) if function.is_async else function.fn(**args)
    except Exception as error:
        return _error(call, f"{type(error).__name__}: {error}")
    return _result(call, output)


async def _run_async(conversation: _Conversation, call: ToolCallPart) -> ToolResultPart:
    prepared = conversation.prepare(call)
    if not isinstance(prepared, tuple):
        return prepared
    function, args = prepared
    try:
        if function.is_async:
            output = await function.fn(**args)
        else:
            output = await asyncio.to_thread(function.fn, **args)
    except Exception as error:
        return _error(call, f"{type(error).__name__}: {error}")
    return _result(call, output)


def _run_calls(conversation: _Conversation, calls: Sequence[ToolCallPart]) -> list[ToolResultPart]:
    if len(calls) <= 1:
        return [_run_sync(conversation, c) for c in calls]
    with ThreadPoolExecutor(max_workers=min(8, len(calls))) as pool:
        return list(pool.map(lambda c: _run_sync(conversation, c), calls))


def run(
    model: Model, *, max_steps: int = 8, stop_when: Callable[[Step], bool] | None = None, **kwargs: Any
) -> RunResult:
    """Run the tool loop (see the module documentation)."""
    conversation = _Conversation(kwargs, max_steps, stop_when)
    while True:
        request_kwargs = conversation.request_kwargs()
        request = _request(request_kwargs)
        result = model.generate(**request_kwargs)
        reason = conversation.record(request, result, _run_calls(conversation, conversation.calls(result)))
        if reason is not None:
            return conversation.finished(reason)


async def arun(
    model: Model, *, max_steps: int = 8, stop_when: Callable[[Step], bool] | None = None, **kwargs: Any
) -> RunResult:
    """Async twin of :func:`run`; calls asked for together run as concurrent tasks."""
    conversation = _Conversation(kwargs, max_steps, stop_when)
    while True:
        request_kwargs = conversation.request_kwargs()
        request = _request(request_kwargs)
        result = await model.agenerate(**request_kwargs)
        calls = conversation.calls(result)
        results = list(await asyncio.gather(*(_run_async(conversation, c) for c in calls)))
        reason = conversation.record(request, result, results)
        if reason is not None:
            return conversation.finished(reason)


class RunStream:
    """The events of every step of a run, as they arrive; :meth:`result` gives the :class:`RunResult`."""

    def __init__(
        self, model: Model, max_steps: int, stop_when: Callable[[Step], bool] | None, kwargs: dict[str, Any]
    ):
        self._model = model
        self._conversation = _Conversation(kwargs, max_steps, stop_when)
        self._iterator: Iterator[StreamEvent] | None = None
        self._result: RunResult | None = None

    def __iter__(self) -> Iterator[StreamEvent]:
        if self._iterator is None:
            self._iterator = self._run()
        return self._iterator

    def _run(self) -> Iterator[StreamEvent]:
        conversation = self._conversation
        while True:
            request_kwargs = conversation.request_kwargs()
            request = _request(request_kwargs)
            with self._model.stream(**request_kwargs) as stream:
                yield from stream
                result = stream.result()
            reason = conversation.record(
                request, result, _run_calls(conversation, conversation.calls(result))
            )
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
    model: Model, *, max_steps: int = 8, stop_when: Callable[[Step], bool] | None = None, **kwargs: Any
) -> RunStream:
    """The streaming variant of :func:`run`."""
    return RunStream(model, max_steps, stop_when, kwargs)
