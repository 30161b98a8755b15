"""The plugin registry: the providers, provider tools and conformance suites that plugins register.

- :mod:`.plugin_registry`: the :class:`Registry` (one per process, :func:`registry`), which loads
  plugins on first use and records each failure in :func:`plugin_errors`;
- :mod:`.registrants`: what a registered provider or tool must be, checked as it registers;
- :mod:`.hooks`: the hook specs of the core and of the families plugins add;
- :mod:`.first_party`: the first-party plugins and their aliases;
- :mod:`.tool_table`: the provider-tool table and its look-ups (:mod:`modelport.provider_tools`);
"""

from __future__ import annotations

from .plugin_registry import Registry, plugin_errors, register_plugin, registry, reset_registry

__all__ = ["Registry", "plugin_errors", "register_plugin", "registry", "reset_registry"]
