"""Issue 14 item 4: plugin isolation.

One plugin's broken tools hook must not unregister every plugin's tools; an id, alias or tool
namespace already taken (or reserved for a first-party plugin) is never taken over, and the refusal
is recorded against the plugin that tried; ``sys.exit`` in a plugin is a load error, not the end of
the process; a slow plugin import does not hold the registry's lock.
"""

from __future__ import annotations

import sys
import textwrap
import threading
import types
from pathlib import Path

import pytest
from click.testing import CliRunner

import modelport
from modelport._registry import registry
from modelport.errors import ConfigurationError
from modelport.provider_tools import get_provider_tool

from ..core.fake_dist import install_fake_distribution

pytestmark = pytest.mark.usefixtures("fresh_registry")

KEY = "test-key-not-a-secret"

BAD_TOOLS_PLUGIN = textwrap.dedent(
    """
    from modelport import Provider, hookimpl

    class BadToolsProvider(Provider):
        id = "aaa-badtools"

    @hookimpl
    def modelport_register_providers(register):
        register(BadToolsProvider)

    @hookimpl
    def modelport_register_provider_tools(register):
        raise RuntimeError("tools hook broken on purpose")
    """
)

SQUATTER_PLUGIN = textwrap.dedent(
    """
    from modelport import Provider, hookimpl

    class Squatter(Provider):
        id = "google"

    @hookimpl
    def modelport_register_providers(register):
        register(Squatter)
    """
)

ECHO_PLUGIN = textwrap.dedent(
    """
    from modelport import Provider, hookimpl

    class EchoProvider(Provider):
        id = "echo"

    @hookimpl
    def modelport_register_providers(register):
        register(EchoProvider, aliases=("echo-alias",))
    """
)

ECHO_SQUATTER_PLUGIN = textwrap.dedent(
    """
    from modelport import Provider, hookimpl

    class EchoSquatter(Provider):
        id = "echo"

    @hookimpl
    def modelport_register_providers(register):
        register(EchoSquatter)
    """
)

ALIAS_GRABBER_PLUGIN = textwrap.dedent(
    """
    from modelport import Provider, hookimpl

    class Grabber(Provider):
        id = "grabber"

    @hookimpl
    def modelport_register_providers(register):
        register(Grabber, aliases=("vertex", "grab", "google"))
    """
)

EXIT_PLUGIN = "import sys\nsys.exit(0)\n"

SLOW_PLUGIN = textwrap.dedent(
    """
    import mp_gate
    mp_gate.entered.set()
    mp_gate.release.wait(10)

    from modelport import Provider, hookimpl

    class SlowProvider(Provider):
        id = "slow"

    @hookimpl
    def modelport_register_providers(register):
        register(SlowProvider)
    """
)


def test_a_raising_tools_hook_leaves_the_other_plugins_tools_registered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install_fake_distribution(
        tmp_path,
        monkeypatch,
        "thirdparty",
        {"mp_badtools": BAD_TOOLS_PLUGIN},
        {"aaa-badtools": "mp_badtools"},
    )
    assert {"aaa-badtools", "google", "google-vertex"} <= set(registry().providers())
    assert get_provider_tool("google.google_search").id == "google.google_search"
    assert get_provider_tool("google.code_execution").id == "google.code_execution"
    model = modelport.get_model("google/gemini-2.5-flash", api_key=KEY)
    request = model.prepare(prompt="x", tools=[{"type": "provider", "id": "google.google_search"}])
    assert [t.id for t in request.tools or []] == ["google.google_search"]
    assert modelport.plugin_errors() == {
        "aaa-badtools": "modelport_register_provider_tools failed: RuntimeError: tools hook broken on purpose"
    }


@pytest.mark.parametrize("ep_name", ["aaa-squatter", "google"])
@pytest.mark.parametrize("first", ["get_model", "providers"])
def test_a_third_party_plugin_cannot_take_over_a_first_party_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ep_name: str, first: str
) -> None:
    install_fake_distribution(
        tmp_path, monkeypatch, "thirdparty", {"mp_squatter": SQUATTER_PLUGIN}, {ep_name: "mp_squatter"}
    )
    if first == "providers":
        registry().providers()
    model = modelport.get_model("google/gemini-2.5-flash", api_key=KEY)
    assert type(model.provider).__name__ == "GoogleProvider"
    assert type(model.provider).__module__ == "modelport_google.provider"
    registry().providers()
    label = "aaa-squatter" if ep_name == "aaa-squatter" else "google (thirdparty)"
    assert modelport.plugin_errors() == {
        label: "provider id 'google' is reserved for modelport-google; not registered"
    }


@pytest.mark.parametrize("first", ["get_model", "providers"])
def test_an_id_belongs_to_its_entry_point_not_to_whoever_loads_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, first: str
) -> None:
    install_fake_distribution(
        tmp_path,
        monkeypatch,
        "thirdparty",
        {"mp_echo": ECHO_PLUGIN, "mp_echo_squatter": ECHO_SQUATTER_PLUGIN},
        # "aaa-..." sorts first, so loading everything used to register its "echo" first
        {"aaa-echo-squatter": "mp_echo_squatter", "echo": "mp_echo"},
    )
    if first == "providers":
        registry().providers()
    assert modelport.get_model("echo/m").provider.__class__.__name__ == "EchoProvider"
    assert registry().providers()["echo"].__name__ == "EchoProvider"
    assert modelport.plugin_errors() == {
        "aaa-echo-squatter": "provider id 'echo' belongs to the entry point 'echo' (mp_echo); not registered"
    }


def test_the_first_registered_plugin_keeps_a_contested_id() -> None:
    class First(modelport.Provider):
        id = "contested"

    class Second(modelport.Provider):
        id = "contested"

    class PluginA:
        @modelport.hookimpl
        def modelport_register_providers(self, register):  # type: ignore[no-untyped-def]
            register(First)

    class PluginB:
        @modelport.hookimpl
        def modelport_register_providers(self, register):  # type: ignore[no-untyped-def]
            register(Second)

    modelport.register_plugin(PluginA(), name="plugin-a")
    with pytest.raises(ConfigurationError) as info:
        modelport.register_plugin(PluginB(), name="plugin-b")
    assert str(info.value) == (
        "plugin 'plugin-b': provider id 'contested' is already registered by 'plugin-a'; not registered"
    )
    assert registry().provider_class("contested") is First
    assert modelport.plugin_errors() == {
        "plugin-b": "provider id 'contested' is already registered by 'plugin-a'; not registered"
    }


def test_alias_collisions_are_reported_and_never_redirect_an_alias(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install_fake_distribution(
        tmp_path, monkeypatch, "thirdparty", {"mp_grabber": ALIAS_GRABBER_PLUGIN}, {"grabber": "mp_grabber"}
    )
    registry().providers()
    aliases = registry().aliases()
    assert (aliases["vertex"], aliases["grab"]) == ("google-vertex", "grabber")
    assert "google" not in aliases
    assert modelport.get_model("vertex/gemini-2.5-flash", api_key=KEY).provider.id == "google-vertex"
    assert modelport.get_model("grab/x").provider.id == "grabber"
    assert modelport.plugin_errors() == {
        "grabber": "alias 'vertex' already points at provider 'google-vertex'; not registered; "
        "alias 'google' of provider 'grabber' is another provider's id; not registered"
    }


def test_a_plugin_calling_sys_exit_is_a_load_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    install_fake_distribution(
        tmp_path, monkeypatch, "thirdparty", {"mp_exit": EXIT_PLUGIN}, {"aaa-exit": "mp_exit"}
    )
    assert {"google", "google-vertex"} <= set(registry().providers())
    assert modelport.plugin_errors() == {"aaa-exit": "SystemExit: the plugin called sys.exit(0)"}


def test_modelport_providers_survives_a_plugin_calling_sys_exit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from modelport_conformance.cli import main

    install_fake_distribution(
        tmp_path, monkeypatch, "thirdparty", {"mp_exit": EXIT_PLUGIN}, {"aaa-exit": "mp_exit"}
    )
    result = CliRunner().invoke(main, ["providers"])
    lines = result.output.splitlines()
    assert "google: Google (aliases: gemini, google-gemini)" in lines
    assert lines[-2:] == ["Plugin load errors:", "  aaa-exit: SystemExit: the plugin called sys.exit(0)"]


def test_a_tools_hook_calling_sys_exit_is_recorded_and_the_others_still_register() -> None:
    class Plugin:
        @modelport.hookimpl
        def modelport_register_provider_tools(self, register):  # type: ignore[no-untyped-def]
            sys.exit(2)

    modelport.register_plugin(Plugin(), name="exits-in-tools")
    assert get_provider_tool("google.google_search").id == "google.google_search"
    assert modelport.plugin_errors() == {
        "exits-in-tools": "modelport_register_provider_tools failed: SystemExit: the plugin called sys.exit(2)"
    }


def test_a_slow_plugin_import_does_not_block_other_lookups(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = types.ModuleType("mp_gate")
    gate.entered = threading.Event()  # type: ignore[attr-defined]
    gate.release = threading.Event()  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "mp_gate", gate)
    install_fake_distribution(
        tmp_path, monkeypatch, "thirdparty", {"mp_slow": SLOW_PLUGIN}, {"slow": "mp_slow"}
    )
    outcomes: dict[str, object] = {}

    def resolve(label: str, model_id: str) -> None:
        try:
            outcomes[label] = modelport.get_model(model_id, api_key=KEY).provider.id
        except BaseException as error:  # pragma: no cover - reported by the asserts
            outcomes[label] = error

    slow = threading.Thread(target=resolve, args=("slow", "slow/m"))
    slow.start()
    try:
        assert gate.entered.wait(5)  # type: ignore[attr-defined]
        # The slow plugin is importing now (and holds it): unrelated lookups answer at once...
        unrelated = threading.Thread(target=resolve, args=("google", "google/gemini-2.5-flash"))
        unrelated.start()
        unrelated.join(5)
        assert not unrelated.is_alive(), "get_model('google/...') waited for another plugin's import"
        assert outcomes["google"] == "google"
        # ... while a second lookup of the slow provider waits for it instead of failing.
        waiter = threading.Thread(target=resolve, args=("slow again", "slow/m"))
        waiter.start()
        waiter.join(0.2)
        assert waiter.is_alive()
    finally:
        gate.release.set()  # type: ignore[attr-defined]
        slow.join(10)
    waiter.join(10)
    assert (outcomes["slow"], outcomes["slow again"]) == ("slow", "slow")
    assert modelport.plugin_errors() == {}


def test_a_third_party_plugin_cannot_add_tools_to_the_google_namespace() -> None:
    from pydantic import BaseModel, ConfigDict

    from modelport.errors import ProviderToolError
    from modelport.provider_tools import ProviderToolSpec

    class Args(BaseModel):
        model_config = ConfigDict(extra="forbid")

    class Plugin:
        @modelport.hookimpl
        def modelport_register_provider_tools(self, register):  # type: ignore[no-untyped-def]
            register(
                ProviderToolSpec(
                    id="google.exfiltrate", name="exfiltrate", namespace="google", args_type=Args
                )
            )
            register(
                ProviderToolSpec(id="thirdns.lookup", name="lookup", namespace="thirdns", args_type=Args)
            )

    modelport.register_plugin(Plugin(), name="tool-squatter")
    with pytest.raises(ProviderToolError, match="unknown provider tool 'google.exfiltrate'"):
        get_provider_tool("google.exfiltrate")
    assert get_provider_tool("thirdns.lookup").id == "thirdns.lookup"
    assert get_provider_tool("google.google_search").id == "google.google_search"
    assert modelport.plugin_errors() == {
        "tool-squatter": "provider tool 'google.exfiltrate' is in the namespace 'google' reserved for "
        "modelport-google; not registered"
    }
