"""An MCP server's tool as a modelport function tool: usable in ``tools=`` wherever a
:func:`modelport.tool` function is (``generate``, ``stream``, ``run``, ``arun``, ``run_stream``).

Its name, description and parameter schema are the server's (``inputSchema``, annotations that never
constrain an argument left out); the schema is checked when the tool is made, and goes to the
provider as a :class:`~modelport.types.FunctionTool`, through the same checks as any other. The
arguments a model sends are validated against the schema (``jsonschema``) before the server is
called; calling the tool calls the server and gives :func:`~modelport.mcp.results.tool_output`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import validation_message
from ..tools.functions import PythonTool, ToolArgumentsError
from .results import McpError, tool_output

if TYPE_CHECKING:
    from mcp import types

__all__ = ["McpTool", "ToolServer"]


class ToolServer(Protocol):
    """What a tool reads of its server (an :class:`~modelport.mcp.McpServer` is one)."""

    @property
    def name(self) -> str: ...

    def call_tool(self, name: str, arguments: Mapping[str, Any] | None = None) -> types.CallToolResult: ...

    async def acall_tool(
        self, name: str, arguments: Mapping[str, Any] | None = None
    ) -> types.CallToolResult: ...


#: Schema keywords that only annotate: left out of what the provider is sent.
_ANNOTATIONS = ("$schema", "title")


class McpTool(PythonTool):
    """One tool of an open :class:`~modelport.mcp.McpServer`; ``mcp_name`` is its name on the server,
    :attr:`name` the one the model sees (with the prefix, if any)."""

    def __init__(self, server: ToolServer, tool: types.Tool, *, prefix: str = "") -> None:
        from jsonschema import SchemaError  # type: ignore[import-untyped]
        from jsonschema.validators import validator_for  # type: ignore[import-untyped]
        from pydantic import ValidationError

        from ..types import FunctionTool

        self.server = server
        self.mcp_name = tool.name
        self.name = f"{prefix}{tool.name}"
        self.description = tool.description or None
        self.is_async = True
        self.definition = tool
        schema = dict(tool.inputSchema or {"type": "object", "properties": {}})
        try:
            validator_type = validator_for(schema)
            validator_type.check_schema(schema)
        except SchemaError as error:
            raise McpError(
                f"MCP server {server.name}: tool {tool.name!r} has an invalid input schema: {error.message}"
            ) from None
        self._validator = validator_type(schema)
        self.parameters: dict[str, Any] = {k: v for k, v in schema.items() if k not in _ANNOTATIONS}
        try:
            FunctionTool(name=self.name, description=self.description, parameters=self.parameters)
        except ValidationError as error:
            problems = validation_message(error, root="tool")
            raise McpError(
                f"MCP server {server.name}: tool {tool.name!r} cannot be used: {problems}"
            ) from None

    def fn(self, **arguments: Any) -> Any:  # type: ignore[override]
        """Call the tool on its server (a coroutine): its output, or :class:`McpToolError`."""
        return self._acall(arguments)

    async def _acall(self, arguments: dict[str, Any]) -> Any:
        result = await self.server.acall_tool(self.mcp_name, arguments)
        return tool_output(result, tool=self.mcp_name)

    def arguments(self, args: dict[str, Any]) -> dict[str, Any]:
        """``args`` checked against the tool's input schema (unchanged: the server converts them)."""
        errors = sorted(self._validator.iter_errors(args), key=lambda e: list(e.absolute_path))
        if errors:
            problems = "; ".join(
                f"{'.'.join(map(str, e.absolute_path)) or '(arguments)'}: {e.message}" for e in errors[:5]
            )
            raise ToolArgumentsError(f"invalid arguments for tool {self.name!r}: {problems}")
        return dict(args)

    def call(self, **arguments: Any) -> Any:
        """Call the tool from sync code (a server opened with ``with``), arguments checked first."""
        checked = self.arguments(arguments)
        return tool_output(self.server.call_tool(self.mcp_name, checked), tool=self.mcp_name)

    async def acall(self, **arguments: Any) -> Any:
        """Async twin of :meth:`call`."""
        return await self._acall(self.arguments(arguments))

    def __repr__(self) -> str:
        return f"<mcp tool {self.name} of {self.server.name}>"
