"""Conformance owns its hook and its suite record: ``modelport_conformance_suites`` is specified by
modelport-conformance on the core's plugin manager, a plugin implements it with ``@modelport.hookimpl``
as before, and the names that used to live in the core still work for one minor version, warning."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

import modelport
import modelport_conformance
from modelport import hookimpl, plugins
from modelport._registry import registry
from modelport_conformance import ConformanceSuite, conformance_suites
from modelport_conformance import hookspecs as conformance_hookspecs

from .servers import plugin_module

if TYPE_CHECKING:
    from modelport_conformance import SuiteRegistrar

OLD_NAMES = [
    ("modelport.hookspecs", "SuiteRegistrar"),
    ("modelport.plugins", "ConformanceSuite"),
    ("modelport.plugins", "conformance_suites"),
]


def _example_cases() -> Any:
    """Where the Example plugin registers its own cases."""
    from importlib.resources import files

    return files("modelport_example") / "cases"


@hookimpl
def _old_style_suites(register: Any) -> None:
    register("example", Path("/old/cases"), unsupported={"embed": "no"}, credential_env=("OLD_KEY",))


def test_a_plugin_registering_suites_the_old_way_still_works_with_a_warning(example_installed):
    with pytest.warns(
        DeprecationWarning, match=r"modelport.hookspecs.SuiteRegistrar moved to modelport_conformance"
    ):
        from modelport.hookspecs import SuiteRegistrar as OldRegistrar  # how old plugins typed `register`
    assert OldRegistrar is modelport_conformance.SuiteRegistrar
    modelport.register_plugin(plugin_module(modelport_conformance_suites=_old_style_suites), name="old")
    with pytest.warns(
        DeprecationWarning, match=r"modelport.plugins.conformance_suites moved to modelport_conformance"
    ):
        old = plugins.conformance_suites()
    with pytest.warns(DeprecationWarning, match=r"the old name goes in modelport 0.2"):
        assert plugins.ConformanceSuite is ConformanceSuite
    new = conformance_suites()
    assert old == new
    assert [(s.cases, s.unsupported, s.credential_env) for s in new["example"]] == [
        (_example_cases(), {"embed": "the Example API has no embeddings endpoint"}, ()),
        (Path("/old/cases"), {"embed": "no"}, ("OLD_KEY",)),
    ]
    assert plugins.load_errors() == {}


def test_the_old_names_warn_and_the_new_ones_do_not():
    for module, name in OLD_NAMES:
        with pytest.warns(DeprecationWarning):
            assert getattr(sys.modules[module], name) is getattr(modelport_conformance, name)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert modelport_conformance.hookspecs.SuiteRegistrar is modelport_conformance.SuiteRegistrar
        assert "SuiteRegistrar" not in modelport.hookspecs.__all__
        assert {"ConformanceSuite", "conformance_suites"}.isdisjoint(plugins.__all__)


def test_the_hook_is_specified_by_conformance_on_the_core_manager(example_installed):
    plugins.providers()  # the Example plugin loaded: its suites hook is held, unverified
    pm = registry().manager()
    assert not hasattr(modelport.hookspecs, "modelport_conformance_suites")
    assert not pm.hook.modelport_conformance_suites.has_spec()  # held until conformance asks
    assert list(conformance_suites()) == ["example"]
    assert pm.hook.modelport_conformance_suites.spec.namespace is conformance_hookspecs


def test_plugins_with_suites_load_without_modelport_conformance():
    code = """
import json, sys
sys.modules["modelport_conformance"] = None  # as if not installed
from modelport import plugins
from modelport._registry import registry
providers = [p for p in ("anthropic", "deepseek", "google") if p in plugins.providers()]
caller = registry().manager().hook.modelport_conformance_suites
print(json.dumps([providers, plugins.load_errors(), caller.has_spec(), len(caller.get_hookimpls())]))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == [["anthropic", "deepseek", "google"], {}, False, 4]


def test_without_modelport_conformance_an_old_name_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "modelport_conformance", None)
    with (
        pytest.warns(DeprecationWarning),
        pytest.raises(AttributeError, match="pip install modelport-conformance"),
    ):
        plugins.ConformanceSuite  # noqa: B018


@hookimpl
def modelport_conformance_suite(register: Any) -> None:  # one letter short
    register("example", Path("/typo"))


@hookimpl
def _suites_asking_for_more(register: Any, project: Any) -> None:
    register("example", Path("/more"))


def test_a_misspelled_suite_hook_is_recorded_when_conformance_asks(example_installed):
    typo = plugin_module(modelport_conformance_suite=modelport_conformance_suite)
    modelport.register_plugin(typo, name="typo")  # held: the family is not known yet
    assert [s.cases for s in conformance_suites()["example"]] == [_example_cases()]
    assert plugins.load_errors() == {"typo": "unknown hook 'modelport_conformance_suite'; not called"}
    late = plugin_module(modelport_conformance_suite=modelport_conformance_suite)
    with pytest.raises(
        modelport.ConfigurationError, match="failed to register: unknown hook 'modelport_conformance_suite'"
    ):
        modelport.register_plugin(late, name="late")


def test_a_suite_hook_asking_for_an_argument_the_spec_lacks_is_refused(example_installed):
    modelport.register_plugin(
        plugin_module(modelport_conformance_suites=_suites_asking_for_more), name="more"
    )
    assert [s.cases for s in conformance_suites()["example"]] == [_example_cases()]
    assert plugins.load_errors() == {
        "more": "hook 'modelport_conformance_suites' offers no argument 'project'; plugin unregistered"
    }


def _typed(register: SuiteRegistrar) -> None:
    register("example", Path("/typed"), secret_patterns={"K": "k_[0-9]{8}"})


def test_a_suite_record_is_what_the_register_callback_was_given(example_installed):
    modelport.register_plugin(plugin_module(modelport_conformance_suites=hookimpl(_typed)), name="typed")
    [_, typed] = conformance_suites()["example"]
    assert typed == ConformanceSuite("example", Path("/typed"), secret_patterns={"K": "k_[0-9]{8}"})
