"""The spec of a provider tool (a tool a provider runs itself) and its strict validation.

A spec names its tool ``<namespace>.<name>`` (``google.google_search``), gives a pydantic argument
class that forbids unknown fields, and says on which backends each argument is allowed. Every rule
is checked before any HTTP request is sent; nothing is dropped silently. Names arriving as strings
(JSON, CLI) resolve only through :func:`resolve_tool_names`, a lookup in the registered table:
no import or attribute access is driven by untrusted input.

The table of specs is the plugin registry's; :mod:`modelport.provider_tools` is the face of both.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import ProviderToolError, validation_message

if TYPE_CHECKING:
    from pydantic import BaseModel

    from ..types import ProviderTool

__all__ = ["ProviderToolSpec"]


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

    def args_of(self, tool: ProviderTool, backend: str | None = None) -> BaseModel:
        """The parsed arguments of ``tool`` (one of this spec's), for a plugin to map: the parse the
        core carried when it validated the call, else (a request built by hand) ``tool.args``
        validated once here, for ``backend`` when one is given."""
        parsed = tool.parsed_args
        if isinstance(parsed, self.args_type):
            return parsed
        return self.validate_args(tool.args, backend)

    def validate_args(self, args: Mapping[str, Any], backend: str | None) -> BaseModel:
        """Check ``args`` for this backend (``None``: no backend rules) and return the parsed
        arguments."""
        if backend is not None:
            self._check_backend(args, backend)
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

    def _check_backend(self, args: Mapping[str, Any], backend: str) -> None:
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

    def check(self, tool: ProviderTool, *, namespace: str | None, backend: str) -> BaseModel:
        """Check ``tool`` (one of this spec's) against the selected provider's tool ``namespace`` and
        ``backend``; return its parsed arguments."""
        if namespace != self.namespace:
            accepted = f"only {namespace}.* tools" if namespace else "no provider tools"
            raise ProviderToolError(
                f"provider tool {tool.id!r} belongs to provider {self.namespace!r}; "
                f"the selected provider accepts {accepted}",
                tool_id=tool.id,
            )
        if tool.name != self.name:
            raise ProviderToolError(
                f"provider tool {tool.id!r} must be named {self.name!r}, not {tool.name!r}",
                tool_id=tool.id,
            )
        return self.validate_args(tool.args, backend)
