"""The plugin registry (R1-R4): lazy loading, isolation of broken plugins, blocking, lookup."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
from importlib import metadata
from pathlib import Path

import pytest

import modelport
from modelport import _registry
from modelport.errors import (
    ConfigurationError,
    ProviderNotInstalledError,
    UnknownModelError,
    UnknownProviderError,
)

from .fake_dist import install_fake_distribution

pytestmark = pytest.mark.usefixtures("fresh_registry")

OK_PLUGIN = textwrap.dedent(
    """
    from modelport import Provider, hookimpl
    from modelport.provider import Capabilities

    class EchoProvider(Provider):
        id = "echo"
        capabilities = Capabilities(stream=False)

    @hookimpl
    def modelport_register_providers(register):
        register(EchoProvider, aliases=("echo-alias",))
    """
)
BROKEN_PLUGIN = "raise ImportError('this plugin is broken on purpose')\n"


def test_import_modelport_loads_no_plugin() -> None:
    code = "import sys, modelport; print(sorted(m for m in sys.modules if m.startswith('modelport_')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_get_model_loads_only_the_needed_plugin() -> None:
    code = (
        "import sys, modelport\n"
        "m = modelport.get_model('google/gemini-2.5-flash')\n"
        "print(type(m.provider).__name__, m.name)\n"
        "print(sorted(m for m in sys.modules if m.startswith('modelport_conformance')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == ["GoogleProvider gemini-2.5-flash", "[]"]


def test_google_resolves_through_the_entry_point() -> None:
    model = modelport.get_model("google/gemini-2.5-flash")
    assert model.provider.id == "google"
    assert model.name == "gemini-2.5-flash"
    assert model.id == "google/gemini-2.5-flash"


def test_model_name_is_split_at_the_first_slash_and_passed_verbatim() -> None:
    model = modelport.get_model("google/tunedModels/my-model-123")
    assert model.name == "tunedModels/my-model-123"


@pytest.mark.parametrize("alias, provider", [("gemini", "google"), ("vertex", "google-vertex")])
def test_builtin_aliases(alias: str, provider: str) -> None:
    assert modelport.get_model(f"{alias}/gemini-2.5-flash").provider.id == provider


def test_misspelled_provider_suggests_google() -> None:
    with pytest.raises(UnknownProviderError) as info:
        modelport.get_model("gogle/x")
    assert info.value.suggestions == ["google"]
    assert str(info.value) == "Unknown provider 'gogle'. Did you mean 'google'?"


def test_unknown_provider_without_close_match() -> None:
    with pytest.raises(UnknownProviderError) as info:
        modelport.get_model("zzzzzz/x")
    assert info.value.suggestions == []
    assert str(info.value) == "Unknown provider 'zzzzzz'."


@pytest.mark.parametrize("bad", ["gemini-2.5-flash", "google/", "/gemini", ""])
def test_malformed_model_ids(bad: str) -> None:
    with pytest.raises(UnknownModelError, match="must look like 'provider/model-name'"):
        modelport.get_model(bad)


def test_missing_first_party_plugin_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    # Only the core installed: no entry point of the group exists.
    monkeypatch.setattr(_registry.Registry, "_entry_points", staticmethod(lambda name=None: []))
    with pytest.raises(ProviderNotInstalledError) as info:
        modelport.get_model("google/gemini-2.5-flash")
    assert str(info.value) == (
        "Google provider not installed. Install modelport-google to use google/* models."
    )
    assert info.value.distribution == "modelport-google"


def test_a_broken_plugin_does_not_stop_the_others(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    install_fake_distribution(
        tmp_path,
        monkeypatch,
        "thirdparty",
        {"mp_broken_plugin": BROKEN_PLUGIN, "mp_echo_plugin": OK_PLUGIN},
        {"aaa-broken": "mp_broken_plugin", "echo": "mp_echo_plugin"},
    )
    providers = _registry.registry().providers()
    assert {"echo", "google", "google-vertex"} <= set(providers)
    errors = modelport.plugin_errors()
    assert errors == {"aaa-broken": "ImportError: this plugin is broken on purpose"}
    assert modelport.get_model("echo-alias/m").provider.id == "echo"


def test_a_broken_plugin_is_reported_when_asked_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    install_fake_distribution(
        tmp_path,
        monkeypatch,
        "thirdparty",
        {"mp_broken_plugin": BROKEN_PLUGIN},
        {"broken": "mp_broken_plugin"},
    )
    with pytest.raises(ConfigurationError) as info:
        modelport.get_model("broken/m")
    assert str(info.value) == (
        "the plugin for provider 'broken' failed to load: ImportError: this plugin is broken on purpose"
    )


def test_lazy_lookup_loads_only_the_named_entry_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install_fake_distribution(
        tmp_path,
        monkeypatch,
        "thirdparty",
        {"mp_broken_plugin": BROKEN_PLUGIN, "mp_echo_plugin": OK_PLUGIN},
        {"broken": "mp_broken_plugin", "echo": "mp_echo_plugin"},
    )
    assert modelport.get_model("echo/m").provider.id == "echo"
    assert "mp_broken_plugin" not in sys.modules
    assert modelport.plugin_errors() == {}


def test_blocked_plugins_are_not_loaded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    install_fake_distribution(
        tmp_path, monkeypatch, "thirdparty", {"mp_echo_plugin": OK_PLUGIN}, {"echo": "mp_echo_plugin"}
    )
    monkeypatch.setenv("MODELPORT_BLOCK_PLUGINS", "echo, other")
    with pytest.raises(ConfigurationError, match="blocked by MODELPORT_BLOCK_PLUGINS"):
        modelport.get_model("echo/m")
    assert "mp_echo_plugin" not in sys.modules
    assert "echo" not in _registry.registry().providers()


def test_autoload_can_be_disabled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MODELPORT_DISABLE_PLUGIN_AUTOLOAD", "1")
    with pytest.raises(ProviderNotInstalledError):
        modelport.get_model("google/gemini-2.5-flash")
    # Explicit registration still works, through the same hook path.
    from modelport_google import _plugin

    modelport.register_plugin(_plugin)
    assert modelport.get_model("google/gemini-2.5-flash").provider.id == "google"


def test_google_entry_points_are_declared() -> None:
    names = {ep.name: ep.value for ep in metadata.entry_points(group="modelport")}
    assert names["google"] == "modelport_google._plugin"
    assert names["google-vertex"] == "modelport_google._plugin"


def test_capabilities_are_declared() -> None:
    caps = modelport.get_model("google/gemini-2.5-flash").provider.capabilities.as_dict()
    assert caps == {
        "generate": True,
        "stream": True,
        "embed": True,
        "function_tools": True,
        "provider_tools": True,
        "reasoning": True,
        "structured_output": True,
        "count_tokens": True,
        "batch": True,
        "list_models": True,
        "prompt_cache": False,
        "web_search": True,
        "web_fetch": True,
        "code_execution": True,
        "mcp_server": False,  # the Gemini API calls no MCP server itself
        "documents": False,  # generateContent has no documents to cite
    }


def test_registering_a_non_provider_is_an_error() -> None:
    class NotAProvider:
        pass

    class Plugin:
        @modelport.hookimpl
        def modelport_register_providers(self, register):  # type: ignore[no-untyped-def]
            register(NotAProvider)

    with pytest.raises(ConfigurationError, match="is not a modelport Provider subclass"):
        modelport.register_plugin(Plugin(), name="bad")


def test_a_misspelled_hook_fails_loudly() -> None:
    class Plugin:
        @modelport.hookimpl
        def modelport_register_provider(self, register):  # type: ignore[no-untyped-def]
            pass

    with pytest.raises(ConfigurationError, match="failed to register"):
        modelport.register_plugin(Plugin(), name="misspelled")
    assert "misspelled" in modelport.plugin_errors()


def test_concurrent_first_use_from_many_threads() -> None:
    barrier = threading.Barrier(16)
    seen: list[str] = []
    failures: list[BaseException] = []

    def worker() -> None:
        try:
            barrier.wait()
            seen.append(modelport.get_model("google/gemini-2.5-flash").provider.id)
        except BaseException as error:  # pragma: no cover - reported below
            failures.append(error)

    threads = [threading.Thread(target=worker) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert seen == ["google"] * 16
    assert modelport.plugin_errors() == {}


def test_get_model_runs_only_the_providers_hook() -> None:
    code = (
        "import sys, modelport\n"
        "modelport.get_model('google/gemini-2.5-flash')\n"
        "print(sorted(m for m in ('pydantic.main', 'modelport_google.tools', 'modelport_google._stream')"
        " if m in sys.modules))\n"
        "modelport.get_model('google/gemini-2.5-flash').prepare(prompt='x', tools=[{'type': 'provider', "
        "'id': 'google.code_execution'}])\n"
        "print('modelport_google.tools' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == ["[]", "True"]
