"""The provider contract version a plugin declares: another major version is refused at
registration with a clear error, an earlier minor version still loads."""

from __future__ import annotations

from typing import Any

import pytest

import modelport
from modelport.errors import ConfigurationError


def test_a_provider_for_another_major_contract_version_is_refused(fresh_registry: None) -> None:
    from modelport.http import HttpProvider

    class Future(HttpProvider):
        id = "future-contract"
        contract_version = "3.0"

    class Plugin:
        @modelport.hookimpl
        def modelport_register_providers(self, register: Any) -> None:
            register(Future)

    with pytest.raises(ConfigurationError) as info:
        modelport.register_plugin(Plugin(), name="future-plugin")
    assert str(info.value).endswith(
        "provider 'future-contract' was written for provider contract 3.0; this modelport implements 2.1 "
        "(upgrade the plugin or modelport)"
    )
    assert "future-contract" not in modelport.plugins.providers()


def test_a_provider_for_an_earlier_minor_contract_version_still_loads(fresh_registry: None) -> None:
    """2.1 added a usage field and fixed the meaning of the counts; a 2.0 plugin is still accepted."""
    from modelport.http import HttpProvider
    from modelport.provider import CONTRACT_VERSION

    class Earlier(HttpProvider):
        id = "earlier-contract"
        contract_version = "2.0"

    class Plugin:
        @modelport.hookimpl
        def modelport_register_providers(self, register: Any) -> None:
            register(Earlier)

    modelport.register_plugin(Plugin(), name="earlier-plugin")
    assert CONTRACT_VERSION == "2.1"
    assert modelport.plugins.provider_class("earlier-contract") is Earlier
