"""The provider-tools registry: specs of tools a provider runs itself, and their strict validation.

A spec names its tool ``<namespace>.<name>`` (``google.google_search``), gives a pydantic argument
class that forbids unknown fields, and says on which backends each argument is allowed. Every rule
is checked before any HTTP request is sent; nothing is dropped silently. Names arriving as strings
(JSON, CLI) resolve only through :func:`resolve_tool_names`, a lookup in the registered table:
no import or attribute access is driven by untrusted input.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import ProviderToolError, validation_message

if TYPE_CHECKING:
    from pydantic import BaseModel

    from .types import ProviderTool

__all__ = [
    "ProviderToolSpec",
    "get_provider_tool",
    "provider_tool_specs",
    "register_provider_tool",
    "resolve_tool_names",
    "validate_provider_tool",
]


@dataclass(frozen=True)
class ProviderToolSpec:
    """A provider-executed tool.

    ``backend_args`` maps an argument (its field name, or its alias) to the backends on which it
    is allowed; arguments not listed are allowed everywhere.
    """

    id: str
    name: str
    namespace: str
    args_type: type[BaseModel]
    description: str = ""
    backend_args: Mapping[str, frozenset[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.id != f"{self.namespace}.{self.name}":
            raise ProviderToolError(
                f"provider tool id {self.id!r} must be '{self.namespace}.{self.name}'", tool_id=self.id
            )
        if self.args_type.model_config.get("extra") != "forbid":
            raise ProviderToolError(
                f"provider tool {self.id!r}: its argument class must forbid unknown fields",
                tool_id=self.id,
            )

    def validate_args(self, args: Mapping[str, Any], backend: str) -> BaseModel:
        """Check ``args`` for this backend and return the parsed arguments."""
        for key in args:
            allowed = self.backend_args.get(key)
            if allowed is None:
                alias_to_name = {f.alias: n for n, f in self.args_type.model_fields.items() if f.alias}
                allowed = self.backend_args.get(alias_to_name.get(key, key))
            if allowed is not None and backend not in allowed:
                raise ProviderToolError(
                    f"provider tool {self.id!r}: argument {key!r} is not supported on the "
                    f"{backend!r} backend (only on {', '.join(sorted(allowed))})",
                    tool_id=self.id,
                )
        from pydantic import ValidationError

        try:
            return self.args_type.model_validate(dict(args))
        except ValidationError as error:
            problems = validation_message(error, root="(arguments)")
            raise ProviderToolError(
                f"provider tool {self.id!r}: invalid arguments: {problems}", tool_id=self.id
            ) from None
        except (ArithmeticError, RecursionError, TypeError, ValueError) as error:
            # A validator that failed in a way pydantic does not wrap (a date out of range raises
            # OverflowError): still the caller's arguments, still rejected before any request.
            raise ProviderToolError(
                f"provider tool {self.id!r}: invalid arguments: {type(error).__name__}: {error}",
                tool_id=self.id,
            ) from None


_LOCK = threading.RLock()
_SPECS: dict[str, ProviderToolSpec] = {}


def _clear() -> None:
    with _LOCK:
        _SPECS.clear()


def register_provider_tool(spec: ProviderToolSpec) -> None:
    """Add a spec; a second spec with the same id is an error."""
    with _LOCK:
        existing = _SPECS.get(spec.id)
        if existing is not None and existing != spec:
            raise ProviderToolError(f"duplicate provider tool id {spec.id!r}", tool_id=spec.id)
        _SPECS[spec.id] = spec


def _ensure_loaded(namespace: str | None) -> None:
    from ._registry import registry

    registry().load_tool_namespace(namespace)


def provider_tool_specs() -> dict[str, ProviderToolSpec]:
    """Every registered spec by id (loads all plugins)."""
    _ensure_loaded(None)
    with _LOCK:
        return dict(_SPECS)


def get_provider_tool(tool_id: str) -> ProviderToolSpec:
    """The spec registered under ``tool_id``."""
    namespace = tool_id.split(".", 1)[0] if "." in tool_id else None
    with _LOCK:
        spec = _SPECS.get(tool_id)
    if spec is None and namespace:
        _ensure_loaded(namespace)
        with _LOCK:
            spec = _SPECS.get(tool_id)
    if spec is None:
        raise ProviderToolError(f"unknown provider tool {tool_id!r}", tool_id=tool_id)
    return spec


def validate_provider_tool(tool: ProviderTool, *, namespace: str | None, backend: str) -> BaseModel:
    """Check one provider tool against its spec and the selected provider and backend."""
    spec = get_provider_tool(tool.id)
    if namespace != spec.namespace:
        accepted = f"only {namespace}.* tools" if namespace else "no provider tools"
        raise ProviderToolError(
            f"provider tool {tool.id!r} belongs to provider {spec.namespace!r}; "
            f"the selected provider accepts {accepted}",
            tool_id=tool.id,
        )
    if tool.name != spec.name:
        raise ProviderToolError(
            f"provider tool {tool.id!r} must be named {spec.name!r}, not {tool.name!r}",
            tool_id=tool.id,
        )
    return spec.validate_args(tool.args, backend)


def validate_provider_tools(
    tools: Iterable[Any], *, namespace: str | None, backend: str
) -> dict[str, BaseModel]:
    """Validate every provider tool of a request; returns parsed arguments by tool id."""
    from .types import ProviderTool

    parsed: dict[str, BaseModel] = {}
    for tool in tools:
        if not isinstance(tool, ProviderTool):
            continue
        if tool.id in parsed:
            raise ProviderToolError(f"provider tool {tool.id!r} is given twice", tool_id=tool.id)
        parsed[tool.id] = validate_provider_tool(tool, namespace=namespace, backend=backend)
    return parsed


def resolve_tool_names(names: Iterable[object], *, namespace: str) -> list[ProviderTool]:
    """Turn untrusted names (``["google_search"]``) into provider tools via the registered table."""
    from .types import ProviderTool

    _ensure_loaded(namespace)
    with _LOCK:
        allowed = {s.name: s for s in _SPECS.values() if s.namespace == namespace}
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
