"""Provider tools: specs of tools a provider runs itself, and their strict validation.

A spec names its tool ``<namespace>.<name>`` (``google.google_search``), gives a pydantic argument
class that forbids unknown fields, and says on which backends each argument is allowed. Every rule
is checked before any HTTP request is sent; nothing is dropped silently. Names arriving as strings
(JSON, CLI) resolve only through :func:`resolve_tool_names`, a lookup in the registered table:
no import or attribute access is driven by untrusted input.

The table itself is the plugin registry's (plugins fill it through the
``modelport_register_provider_tools`` hook); the functions that look specs up in it
(:func:`get_provider_tool`, :func:`provider_tool_specs`, :func:`register_provider_tool`,
:func:`resolve_tool_names`, :func:`validate_provider_tool`, :func:`validate_provider_tools`) live
beside it and are reachable here, loaded on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .lazy import lazy_attributes
from .tools.spec import ProviderToolSpec

if TYPE_CHECKING:
    from ._registry.tool_table import (
        get_provider_tool,
        provider_tool_specs,
        register_provider_tool,
        resolve_tool_names,
        validate_provider_tool,
        validate_provider_tools,
    )

__all__ = [
    "ProviderToolSpec",
    "get_provider_tool",
    "provider_tool_specs",
    "register_provider_tool",
    "resolve_tool_names",
    "validate_provider_tool",
    "validate_provider_tools",
]

# Every public name but the spec is a look-up in the registry's table, loaded on first use.
__getattr__, __dir__ = lazy_attributes(
    __name__,
    dict.fromkeys((name for name in __all__ if name != "ProviderToolSpec"), "modelport._registry.tool_table"),
)
