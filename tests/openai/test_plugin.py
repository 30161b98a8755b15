"""The distribution: entry points, lazy loading, first-party reservation, public names only."""

from __future__ import annotations

import re
import subprocess
import sys
from importlib.metadata import distribution
from pathlib import Path

import pytest

import modelport
from modelport import _registry, plugins
from modelport.errors import ProviderNotInstalledError

PROVIDERS = [
    "openai",
    "openai-compatible",
    "openai-responses",
    "groq",
    "deepseek",
    "openrouter",
    "xai",
    "together",
    "mistral",
    "ollama",
    "azure-openai",
    "azure-openai-responses",
]
SOURCE = Path(__file__).resolve().parents[2] / "plugins" / "openai" / "src" / "modelport_openai"


def test_entry_points_name_every_provider() -> None:
    points = [ep for ep in distribution("modelport-openai").entry_points if ep.group == "modelport"]
    assert sorted(ep.name for ep in points) == sorted(PROVIDERS)
    assert {ep.value for ep in points} == {"modelport_openai._plugin"}
    assert set(PROVIDERS) <= set(plugins.providers())


def test_import_loads_no_plugin_and_get_model_no_mapping_module() -> None:
    code = (
        "import sys, modelport\n"
        "print(sorted(m for m in sys.modules if m.startswith('modelport_')))\n"
        "modelport.get_model('openai/gpt-4o-mini', api_key='sk-test-0123456789')\n"
        "print(sorted(m for m in ('pydantic.main', 'modelport_openai._request', 'modelport_openai._options',"
        " 'modelport_openai._stream', 'modelport_openai._decode') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == ["[]", "[]"]


@pytest.mark.usefixtures("_fresh_registry")
@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_missing_install_says_what_to_install(provider: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_registry.Registry, "_entry_points", staticmethod(lambda name=None: []))
    with pytest.raises(ProviderNotInstalledError) as info:
        modelport.get_model(f"{provider}/some-model")
    assert info.value.distribution == "modelport-openai"
    assert str(info.value).endswith(f"Install modelport-openai to use {provider}/* models.")


@pytest.fixture
def _fresh_registry() -> object:
    _registry.reset_registry()
    yield
    _registry.reset_registry()


def test_only_public_names_of_the_core() -> None:
    for path in SOURCE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"modelport\._", text), path.name
        # No I/O twins: the kit sends; the plugin only maps.
        assert not re.search(r"async def |httpx\.(Client|AsyncClient)", text), path.name


def test_public_names_are_pinned() -> None:
    import modelport_openai

    assert modelport_openai.__all__ == [
        "OPENAI_BASE_URL",
        "PRESETS",
        "ChatCompletionsProvider",
        "OpenAICompatibleProvider",
        "OpenAIOptions",
        "OpenAIProvider",
        "OpenAIResponsesProvider",
        "Quirks",
        "ResponsesOptions",
        "merge_frames",
    ]
    assert [p.id for p in modelport_openai.PRESETS] == PROVIDERS[3:10]
    assert modelport_openai.OpenAIOptions.model_fields["extra_body"].annotation is not None
    assert issubclass(modelport_openai.ResponsesOptions, modelport_openai.OpenAIOptions)
