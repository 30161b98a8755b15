"""A package that extends the plugin contract specifies its own hooks on the core's plugin manager
(:func:`modelport.plugins.add_hookspecs`) and asks the plugins with :func:`modelport.plugins.collect`,
as modelport-conformance does for its suites: each plugin once, failures isolated and recorded."""

from __future__ import annotations

import types
from typing import Any

import pluggy
import pytest

import modelport
from modelport import hookimpl, plugins

hookspec = pluggy.HookspecMarker("modelport")


def _specs() -> types.ModuleType:
    """The hookspec module of a package of one's own: the family ``modelport_acme_``."""
    module = types.ModuleType("acme_hookspecs")

    @hookspec
    def modelport_acme_widgets(register: Any) -> None:
        """Register widgets."""

    module.modelport_acme_widgets = modelport_acme_widgets  # type: ignore[attr-defined]
    return module


class _Widgets:
    def __init__(self, *names: str) -> None:
        self.names = names
        self.asked = 0

    @hookimpl
    def modelport_acme_widgets(self, register: Any) -> None:
        self.asked += 1
        for name in self.names:
            register(name, size=len(name))


class _Broken:
    @hookimpl
    def modelport_acme_widgets(self, register: Any) -> None:
        register("ok", size=2)
        raise RuntimeError("widgets hook broken on purpose")


def test_collect_asks_each_plugin_once_and_keeps_every_record(fresh_registry, monkeypatch):
    monkeypatch.setenv("MODELPORT_DISABLE_PLUGIN_AUTOLOAD", "1")
    first, second = _Widgets("bolt", "nut"), _Widgets("gear")
    modelport.register_plugin(first, name="first")  # before the specs: held, not refused
    plugins.add_hookspecs(_specs())
    modelport.register_plugin(second, name="second")

    def record(name: str, *, size: int) -> tuple[str, int]:
        return (name, size)

    assert plugins.collect("modelport_acme_widgets", record) == [("bolt", 4), ("nut", 3), ("gear", 4)]
    assert plugins.collect("modelport_acme_widgets", record) == [("bolt", 4), ("nut", 3), ("gear", 4)]
    assert (first.asked, second.asked, plugins.load_errors()) == (1, 1, {})


def test_a_failing_hook_or_record_is_recorded_against_its_plugin(fresh_registry, monkeypatch):
    monkeypatch.setenv("MODELPORT_DISABLE_PLUGIN_AUTOLOAD", "1")
    specs = _specs()
    plugins.add_hookspecs(specs)
    plugins.add_hookspecs(specs)  # once
    with pytest.raises(
        modelport.ConfigurationError, match="'modelport_acme_widgets' is already specified by"
    ):
        plugins.add_hookspecs(_specs())  # another module specifying the same hook
    modelport.register_plugin(_Broken(), name="broken")
    modelport.register_plugin(_Widgets("x" * 11), name="big")

    def record(name: str, *, size: int) -> str:
        if size > 10:
            raise ValueError(f"{name[:3]}… is too big")
        return name

    assert plugins.collect("modelport_acme_widgets", record) == ["ok"]
    assert plugins.load_errors() == {
        "big": "modelport_acme_widgets failed: ValueError: xxx… is too big",
        "broken": "modelport_acme_widgets failed: RuntimeError: widgets hook broken on purpose",
    }


def test_a_hook_nobody_specifies_is_refused_only_in_a_known_family(fresh_registry, monkeypatch):
    monkeypatch.setenv("MODELPORT_DISABLE_PLUGIN_AUTOLOAD", "1")

    class Other:
        @hookimpl
        def modelport_other_things(self, register: Any) -> None: ...

    class Core:
        @hookimpl
        def modelport_register_provider(self, register: Any) -> None: ...

    class Foreign:
        @hookimpl
        def register_providers(self, register: Any) -> None: ...

    modelport.register_plugin(Other(), name="other")  # another package's hook: held
    for plugin, hook in ((Core(), "modelport_register_provider"), (Foreign(), "register_providers")):
        with pytest.raises(modelport.ConfigurationError, match=f"failed to register: unknown hook '{hook}'"):
            modelport.register_plugin(plugin, name=hook)
    assert sorted(plugins.load_errors()) == ["modelport_register_provider", "register_providers"]


def test_collecting_a_hook_no_plugin_implements_is_empty(fresh_registry, monkeypatch):
    monkeypatch.setenv("MODELPORT_DISABLE_PLUGIN_AUTOLOAD", "1")
    assert plugins.collect("modelport_acme_widgets", lambda *args: args) == []
