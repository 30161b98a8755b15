"""The function calls of one step of the tool loop: approval, validation, running them within the
step's deadline, and outputs made safe to send back.

Every way a call can go wrong on the tool's side (unknown name, invalid arguments, a refusal, an
exception, an output a request cannot carry) becomes an error result the model sees, so a finished
step is never lost to it. Sync tools run in worker threads, so the loop can stop waiting for them
when the deadline passes; a thread cannot be stopped, so such a tool runs on in the background.
"""

from __future__ import annotations

import asyncio
import inspect
import json
from collections.abc import Awaitable, Coroutine, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from contextlib import contextmanager
from contextvars import copy_context
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from ..tools.functions import PythonTool, ToolArgumentsError
from .approval import ALLOW, Approval, ApproveHook, Refusal, decision

if TYPE_CHECKING:
    from ..types import ToolCallPart, ToolResultPart

T = TypeVar("T")

#: Most sync tools of one step running at once.
MAX_THREADS = 8


@dataclass
class Round:
    """The function calls of one step, in the model's order: each as it runs (after the approval
    hook's edits) and its result; ``jobs`` are the calls still to run (index, tool, arguments)."""

    calls: list[ToolCallPart] = field(default_factory=list)
    results: list[ToolResultPart | None] = field(default_factory=list)
    jobs: list[tuple[int, PythonTool, dict[str, Any]]] = field(default_factory=list)

    def answered(self, call: ToolCallPart, result: ToolResultPart) -> None:
        self.calls.append(call)
        self.results.append(result)

    def pending(self) -> list[str]:
        """The names of the calls that have no result yet."""
        return [self.calls[i].name for i, result in enumerate(self.results) if result is None]

    def finished(self) -> list[ToolResultPart]:
        assert all(r is not None for r in self.results)
        return [r for r in self.results if r is not None]


def plan(
    functions: dict[str, PythonTool], calls: Sequence[ToolCallPart], decisions: Sequence[Approval | Refusal]
) -> Round:
    """The round of ``calls``, given the approval decision for each."""
    round_ = Round()
    for call, decided in zip(calls, decisions, strict=True):
        if call.approval == "requested":  # the provider runs it: only the decision goes back
            round_.answered(call, approval_answer(call, decided))
            continue
        function = functions.get(call.name)
        if function is None:
            round_.answered(call, error_result(call, f"no tool named {call.name!r} is available"))
            continue
        if isinstance(decided, Refusal):
            round_.answered(call, error_result(call, decided.reason))
            continue
        if decided.args is not None:
            call = call.model_copy(update={"args": decided.args})
            try:
                args = function.arguments(call.args)
            except ToolArgumentsError as error:  # the caller's edit: the caller's error
                raise ToolArgumentsError(f"the arguments approve gave to call {call.id!r}: {error}") from None
        else:
            try:
                args = function.arguments(call.args)
            except ToolArgumentsError as error:
                round_.answered(call, error_result(call, str(error)))
                continue
        round_.jobs.append((len(round_.calls), function, args))
        round_.calls.append(call)
        round_.results.append(None)
    return round_


def asks(functions: dict[str, PythonTool], call: ToolCallPart) -> bool:
    """Whether the approval hook is asked about ``call`` (a call of one of the run's tools, or one
    the provider asks approval for)."""
    return call.name in functions or call.approval == "requested"


def approval_answer(call: ToolCallPart, decided: Approval | Refusal) -> ToolResultPart:
    """The answer to a provider's approval request: a result that is not an error when approved,
    the refusal's reason as an error result when refused. Arguments cannot be edited."""
    from ..errors import InvalidRequestError
    from ..types import ToolResultPart

    if isinstance(decided, Refusal):
        return error_result(call, decided.reason)
    if decided.args is not None:
        raise InvalidRequestError(
            f"approve cannot edit the arguments of {call.name!r} (call {call.id!r}): the provider runs"
            " it as the model asked; approve or refuse it"
        )
    return ToolResultPart(call_id=call.id, name=call.name, output="approved")


def ask(hook: ApproveHook | None, call: ToolCallPart) -> Approval | Refusal:
    """The hook's decision for ``call`` (an async hook is run to its end)."""
    if hook is None:
        return ALLOW
    answer = hook(call)
    if inspect.isawaitable(answer):
        answer = run_coroutine(_awaited(answer))
    return decision(answer, call)


async def aask(hook: ApproveHook | None, call: ToolCallPart) -> Approval | Refusal:
    """Async twin of :func:`ask`."""
    if hook is None:
        return ALLOW
    answer = hook(call)
    if inspect.isawaitable(answer):
        answer = await answer
    return decision(answer, call)


async def _awaited(awaitable: Awaitable[T]) -> T:
    return await awaitable


def run_coroutine(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run ``coroutine`` to its end from sync code: on this thread, or, when an event loop already
    runs here (a notebook, an async application calling sync code), on a helper thread of its own."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="modelport-coroutine") as helper:
        return helper.submit(asyncio.run, coroutine).result()


def run_round(round_: Round, timeout: float | None) -> bool:
    """Run the round's calls in worker threads, waiting at most ``timeout`` seconds; whether all
    finished. A call still running when the time is up keeps its thread (it cannot be stopped)."""
    if not round_.jobs:
        return True
    if timeout is not None and timeout <= 0:
        return False
    with _threads(len(round_.jobs)) as pool:
        futures = {
            pool.submit(copy_context().run, _call, round_.calls[i], fn, args): i
            for i, fn, args in round_.jobs
        }
        done, pending = wait(futures, timeout=timeout)
    for future in done:
        round_.results[futures[future]] = future.result()
    return not pending


async def arun_round(round_: Round, timeout: float | None) -> bool:
    """Async twin of :func:`run_round`: async tools as tasks (cancelled when the time is up), sync
    tools in worker threads of the round's own (so no event loop waits for them at its close)."""
    if not round_.jobs:
        return True
    if timeout is not None and timeout <= 0:
        return False
    with _threads(sum(not fn.is_async for _, fn, _ in round_.jobs)) as pool:
        tasks = {
            asyncio.ensure_future(_acall(round_.calls[i], fn, args, pool)): i for i, fn, args in round_.jobs
        }
        done, pending = await asyncio.wait(tasks, timeout=timeout)
    for task in pending:
        task.cancel()
    for task in done:
        round_.results[tasks[task]] = task.result()
    return not pending


@contextmanager
def _threads(count: int) -> Iterator[ThreadPoolExecutor]:
    """Worker threads for ``count`` sync calls, let go without waiting for them at the end."""
    pool = ThreadPoolExecutor(
        max_workers=max(1, min(MAX_THREADS, count)), thread_name_prefix="modelport-tool"
    )
    try:
        yield pool
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def _call(call: ToolCallPart, function: PythonTool, args: dict[str, Any]) -> ToolResultPart:
    try:
        output = run_coroutine(function.fn(**args)) if function.is_async else function.fn(**args)
    except Exception as error:
        return error_result(call, _describe(error))
    return result(call, output)


async def _acall(
    call: ToolCallPart, function: PythonTool, args: dict[str, Any], pool: ThreadPoolExecutor
) -> ToolResultPart:
    try:
        if function.is_async:
            output = await function.fn(**args)
        else:
            work = partial(copy_context().run, function.fn, **args)
            output = await asyncio.get_running_loop().run_in_executor(pool, work)
    except Exception as error:
        return error_result(call, _describe(error))
    return result(call, output)


def _describe(error: Exception) -> str:
    try:
        text = f"{type(error).__name__}: {error}"
    except Exception:  # an exception whose __str__ fails
        text = type(error).__name__
    return _sendable_text(text)


def _sendable_text(text: str) -> str:
    """``text`` with lone surrogates (which UTF-8 cannot carry) written as ``\\udxxx`` escapes."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def result(call: ToolCallPart, output: Any) -> ToolResultPart:
    """The result part of ``output``, or an error result saying why a request cannot carry it."""
    from pydantic import TypeAdapter

    from .._contract.content import MAX_VALUE_DEPTH, _too_deep
    from ..types import ToolResultPart

    try:
        value = TypeAdapter(Any).dump_python(output, mode="json")
    except Exception:  # an output JSON cannot carry: its text
        try:
            value = str(output)
        except Exception as error:  # e.g. RecursionError from a deeply nested value
            return error_result(call, f"the output of tool {call.name!r} has no text: {_describe(error)}")
    if _too_deep(value, MAX_VALUE_DEPTH):
        return error_result(
            call, f"the output of tool {call.name!r} is nested deeper than {MAX_VALUE_DEPTH} levels"
        )
    problem = _unencodable(value)
    if problem is not None:
        return error_result(call, f"the output of tool {call.name!r} cannot be sent: {problem}")
    return ToolResultPart(call_id=call.id, name=call.name, output=value)


def _unencodable(value: Any) -> str | None:
    """Why ``value`` cannot be part of a JSON request body, or ``None`` when it can."""
    try:
        json.dumps(value, ensure_ascii=False, allow_nan=False).encode("utf-8")
    except UnicodeEncodeError as error:
        return (
            f"it holds a lone surrogate {error.object[error.start : error.end]!r}, which UTF-8 cannot encode"
        )
    except (TypeError, ValueError, RecursionError) as error:
        return str(error)
    return None


def error_result(call: ToolCallPart, message: str) -> ToolResultPart:
    """An error result for ``call`` with ``message`` (made safe to send)."""
    from ..types import ToolResultPart

    return ToolResultPart(call_id=call.id, name=call.name, output=_sendable_text(message), is_error=True)
