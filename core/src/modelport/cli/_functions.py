"""Python functions as tools from the command line: ``generate -T MODULE:FUNC`` and
``--functions FILE.py`` (each repeatable).

Each function becomes a tool with :func:`modelport.tool` (one already decorated is used as it is),
and the call runs the tool loop, ``model.run`` (:mod:`modelport.loop`), with an approval hook
(:mod:`modelport.loop.approval`): on a terminal each call is shown and asked about before it runs
(a no, or Ctrl-D, refuses it: the model gets the refusal as the call's result); ``--yes`` allows
every call. Without a terminal and without ``--yes`` the command refuses before anything is sent:
functions run code the model chose the arguments of.

A ``FILE.py`` gives its public functions (those defined in it, not imported, not ``_private``).
A function that cannot be loaded is one line of error text, exit status 2.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import json
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import click

from ._templates import Refused
from ._turn import Outcome, Printing, _print_result, _report
from .terminal import safe

__all__ = ["FunctionRun", "approval_options", "function_options", "load_functions"]

_MAX_SHOWN = 300


def approval_options(command: Any) -> Any:
    """``--yes`` and ``--max-steps``: how the tool loop asks and how far it goes (``generate``,
    ``chat``)."""
    options = (
        click.option(
            "--max-steps",
            type=click.IntRange(1, 100),
            default=8,
            show_default=True,
            help="With -T / --functions / --mcp: the most model calls the tool loop makes (a turn's, in "
            "a chat).",
        ),
        click.option(
            "-y", "--yes", is_flag=True, help="Run every tool call (-T, --functions, --mcp) without asking."
        ),
    )
    for option in options:
        command = option(command)
    return command


def function_options(command: Any) -> Any:
    """``-T``, ``--functions``, ``--yes`` and ``--max-steps``."""
    options = (
        click.option(
            "--functions",
            "function_files",
            multiple=True,
            metavar="FILE.py",
            help="The public functions of a Python file, as tools (repeatable).",
        ),
        click.option(
            "-T",
            "--function",
            "function_specs",
            multiple=True,
            metavar="MODULE:FUNC",
            help="A Python function as a tool the model may call (repeatable); each call is asked "
            "about on a terminal, unless --yes.",
        ),
    )
    command = approval_options(command)
    for option in options:
        command = option(command)
    return command


def _tool(fn: Any, where: str) -> Any:
    from modelport.errors import ModelportError
    from modelport.tools.functions import PythonTool

    if isinstance(fn, PythonTool):
        return fn
    if not callable(fn):
        raise Refused(f"{where} is a {type(fn).__name__}, not a function")
    try:
        return PythonTool(fn)
    except ModelportError as error:
        raise Refused(f"{where}: {error}") from None
    except Exception as error:  # a signature pydantic cannot describe
        raise Refused(f"{where}: cannot be a tool: {type(error).__name__}: {error}") from None


def _from_spec(spec: str) -> Any:
    module_name, sep, attribute = spec.partition(":")
    if not sep or not module_name or not attribute:
        raise Refused(f"-T {spec!r}: expected MODULE:FUNC (e.g. myapp.tools:get_weather)")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        target: Any = importlib.import_module(module_name)
        for name in attribute.split("."):
            target = getattr(target, name)
    except Exception as error:  # the user's module: anything it raises is its failure
        raise Refused(f"-T {spec}: {type(error).__name__}: {error}") from None
    return _tool(target, f"-T {spec}")


def _from_file(file: str) -> list[Any]:
    from ._files import user_bytes

    path = Path(file).expanduser()
    user_bytes(path, param_hint="'--functions'")  # a regular file, bounded
    name = f"modelport_functions_{abs(hash(str(path.resolve())))}"
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise ImportError("not a Python file")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except Exception as error:  # the user's file: anything it raises is its failure
        raise Refused(f"--functions {file}: {type(error).__name__}: {error}") from None
    from modelport.tools.functions import PythonTool

    found = [
        value
        for key, value in vars(module).items()
        if not key.startswith("_")
        and (isinstance(value, PythonTool) or (inspect.isfunction(value) and value.__module__ == name))
    ]
    if not found:
        raise Refused(f"--functions {file}: no public function in it")
    return [
        _tool(fn, f"--functions {file}: {getattr(fn, 'name', None) or getattr(fn, '__name__', '?')}")
        for fn in found
    ]


def load_functions(specs: tuple[str, ...], files: tuple[str, ...]) -> list[Any]:
    """The tools of ``-T`` and ``--functions``, in order; two of one name are refused."""
    tools = [_from_spec(spec) for spec in specs]
    for file in files:
        tools += _from_file(file)
    names = [t.name for t in tools]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise Refused(f"two functions are named {twice[0]!r}")
    return tools


def _shown(call: Any) -> str:
    args = json.dumps(call.args, ensure_ascii=False, default=str)
    if len(args) > _MAX_SHOWN:
        args = args[:_MAX_SHOWN] + "..."
    return safe(f"{call.name}({args})").replace("\n", " ")


def _ask(call: Any, where: str = "") -> Any:
    from modelport.loop.approval import Refusal

    try:
        allowed = click.confirm(f"Run {_shown(call)}{where}?", default=False, err=True)
    except click.Abort:
        allowed = False
    return True if allowed else Refusal("the user refused the call")


@dataclass
class FunctionRun:
    """How a call with tools runs: its functions, the MCP servers it opens (:mod:`._mcp`), whether
    each call is asked about, its bound."""

    tools: list[Any]
    yes: bool
    max_steps: int
    verbose: bool = False
    servers: list[Any] = field(default_factory=list)
    _servers_of: dict[str, str] = field(default_factory=dict, init=False, repr=False)
    _open: bool = field(default=False, init=False, repr=False)

    @classmethod
    def checked(
        cls,
        specs: tuple[str, ...],
        files: tuple[str, ...],
        yes: bool,
        max_steps: int,
        verbose: bool,
        servers: list[Any] | None = None,
    ) -> FunctionRun | None:
        """The run ``-T`` / ``--functions`` / ``--mcp`` ask for (``None`` without them); refused
        when calls could be neither asked about (no terminal) nor allowed (no ``--yes``)."""
        if not (specs or files or servers):
            return None
        if not yes and not sys.stdin.isatty():
            given = " / ".join(
                [*(["-T / --functions"] if specs or files else []), *(["--mcp"] if servers else [])]
            )
            what = "run code the model asks for" if specs or files else "runs the tools the model asks for"
            raise Refused(
                f"{given} {what}: pass --yes to allow every call, "
                "or run on a terminal to be asked before each one"
            )
        return cls(load_functions(specs, files), yes, max_steps, verbose, list(servers or []))

    def approve(self, call: Any) -> Any:
        server = self._servers_of.get(call.name)
        if not self.yes:
            return _ask(call, f" on MCP server {safe(server)}" if server else "")
        if self.verbose:
            click.echo(f"modelport: running {_shown(call)}", err=True)
        return True

    def shown(self, step: Any) -> bool:
        """``-v``: each result of a step, on one line (a ``stop_when`` that never stops)."""
        from ._mcp import result_line

        for part in step.tool_results:
            click.echo(f"modelport: {result_line(part)}", err=True)
        return False

    @contextmanager
    def session(self) -> Iterator[FunctionRun]:
        """The MCP servers open for every run inside the block (a whole chat), their tools checked
        before any model call; closed when the block ends, however it ends."""
        from ._mcp import opened, served_tools

        with opened(self.servers):
            served_tools(self.servers, [t.name for t in self.tools])
            self._open = True
            try:
                yield self
            finally:
                self._open = False

    def run(self, model: Any, request: dict[str, Any], printing: Printing) -> Outcome:
        """``model.run`` with the tools, the MCP servers open (for this run only, outside a
        :meth:`session`); printed and reported as a single call is."""
        from ._mcp import served_tools

        if self.servers and not self._open:
            with self.session():
                return self.run(model, request, printing)
        served = served_tools(self.servers, [t.name for t in self.tools])
        self._servers_of = {t.name: t.server.name for t in served}
        return self._run(
            model, {**request, "tools": [*(request.get("tools") or []), *self.tools, *served]}, printing
        )

    def _run(self, model: Any, request: dict[str, Any], printing: Printing) -> Outcome:
        import modelport

        outcome = Outcome()
        started = time.monotonic()
        stop_when = self.shown if self.verbose else None
        try:
            ran = model.run(max_steps=self.max_steps, approve=self.approve, stop_when=stop_when, **request)
            outcome.result = ran.result.model_copy(update={"usage": ran.usage})
            outcome.messages = ran.messages
            if ran.stop_reason == "max-steps" and ran.result.tool_calls:
                click.echo(f"warning: the tool loop stopped after {self.max_steps} model calls", err=True)
        except modelport.ModelportError as error:
            outcome.error = error
            steps = getattr(error, "steps", None) or []
            outcome.result = steps[-1].result if steps else getattr(error, "partial", None)
        outcome.seconds = time.monotonic() - started
        if outcome.error is None:  # the loop's answer is whole: printed whole, even with --stream
            _print_result(outcome.result, replace(printing, stream=False))
        _report(model.id, outcome, printing)
        return outcome
