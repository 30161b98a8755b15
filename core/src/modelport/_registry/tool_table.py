"""Look-ups in the registry's provider-tool table, by id and by untrusted name (public through
:mod:`modelport.provider_tools`): a miss loads the plugin of the tool's namespace first."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..errors import ProviderToolError
from ..tools.spec import ProviderToolSpec
from .plugin_registry import registry

if TYPE_CHECKING:
    from pydantic import BaseModel

    from ..types import ProviderTool


def register_provider_tool(spec: ProviderToolSpec) -> None:
    """Add a spec; a second spec with the same id is an error."""
    registry().register_tool(spec)


def provider_tool_specs() -> dict[str, ProviderToolSpec]:
    """Every registered spec by id (loads all plugins)."""
    return registry().provider_tools()


def get_provider_tool(tool_id: str) -> ProviderToolSpec:
    """The spec registered under ``tool_id``."""
    return registry().provider_tool(tool_id)


def validate_provider_tool(tool: ProviderTool, *, namespace: str | None, backend: str) -> BaseModel:
    """Check one provider tool against its spec and the selected provider and backend."""
    return get_provider_tool(tool.id).check(tool, namespace=namespace, backend=backend)


def validate_provider_tools(
    tools: Iterable[Any], *, namespace: str | None, backend: str
) -> dict[str, BaseModel]:
    """Validate every provider tool of a request; returns parsed arguments by tool id.

    Each tool carries its parse on to the plugin (:attr:`ProviderTool.parsed_args
    <modelport.types.ProviderTool.parsed_args>`), which maps it without validating again.
    """
    from ..types import ProviderTool

    parsed: dict[str, BaseModel] = {}
    for tool in tools:
        if not isinstance(tool, ProviderTool):
            continue
        if tool.id in parsed:
            raise ProviderToolError(f"provider tool {tool.id!r} is given twice", tool_id=tool.id)
        parsed[tool.id] = args = validate_provider_tool(tool, namespace=namespace, backend=backend)
        tool._carry(args)
    return parsed


def resolve_tool_names(names: Iterable[object], *, namespace: str) -> list[ProviderTool]:
    """Turn untrusted names (``["google_search"]``) into provider tools via the registered table."""
    from ..types import ProviderTool

    allowed = {s.name: s for s in registry().provider_tools(namespace).values()}
    tools: list[ProviderTool] = []
    seen: set[str] = set()
    for name in names:
        if not isinstance(name, str):
            raise ProviderToolError(f"provider tool names must be strings, got {type(name).__name__}")
        spec = allowed.get(name)
        if spec is None:
            choices = ", ".join(sorted(allowed)) or "none"
            raise ProviderToolError(f"unknown provider tool {name!r} for {namespace!r} (allowed: {choices})")
        if name in seen:
            raise ProviderToolError(f"provider tool {name!r} is given twice", tool_id=spec.id)
        seen.add(name)
        tools.append(ProviderTool(id=spec.id, name=spec.name, args={}))
    return tools
