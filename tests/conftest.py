"""Shared test configuration: hypothesis profiles and registry isolation."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=200, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile("long", max_examples=20_000, deadline=None)
#: The recorded long fuzz run of the decoders (docs/reliability.md): 100,000 cases per property.
settings.register_profile(
    "fuzz",
    max_examples=int(os.environ.get("MODELPORT_FUZZ_EXAMPLES", "100000")),
    deadline=None,
    database=None,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(autouse=True)
def _no_real_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No test reaches the network: credentials from the environment are removed."""
    for name in (
        "GOOGLE_API_KEY",
        "GOOGLE_GENERATIVE_AI_API_KEY",
        "GEMINI_API_KEY",
        "GOOGLE_GEMINI_BASE_URL",
        "GOOGLE_CLOUD_PROJECT",
        "GOOGLE_CLOUD_LOCATION",
        "GOOGLE_APPLICATION_CREDENTIALS",
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "OPENAI_ORG_ID",
        "OPENAI_PROJECT_ID",
        "OPENAI_COMPATIBLE_API_KEY",
        "GROQ_API_KEY",
        "DEEPSEEK_API_KEY",
        "OPENROUTER_API_KEY",
        "XAI_API_KEY",
        "TOGETHER_API_KEY",
        "MISTRAL_API_KEY",
        "OLLAMA_API_KEY",
        "OLLAMA_BASE_URL",
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_BASE_URL",
        "MODELPORT_BLOCK_PLUGINS",
        "MODELPORT_DISABLE_PLUGIN_AUTOLOAD",
        "MODELPORT_MODEL",
        "MODELPORT_KEYRING",
    ):
        monkeypatch.delenv(name, raising=False)
    _no_aws_credentials(monkeypatch)
    yield


def _no_aws_credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    """botocore's credential chain reads nothing of the machine's: no key in the environment, no
    shared files, no instance or container role (which would reach the network)."""
    for name in (
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
        "AWS_SESSION_TOKEN",
        "AWS_PROFILE",
        "AWS_DEFAULT_PROFILE",
        "AWS_REGION",
        "AWS_DEFAULT_REGION",
        "AWS_BEARER_TOKEN_BEDROCK",
        "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
        "AWS_CONTAINER_CREDENTIALS_FULL_URI",
        "AWS_WEB_IDENTITY_TOKEN_FILE",
        "AWS_ROLE_ARN",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", "/nonexistent/modelport-tests/aws-config")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/modelport-tests/aws-credentials")
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")


@pytest.fixture(autouse=True)
def _command_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The ``modelport`` command's directory (keys, logs, settings) is a fresh temporary one in every
    test: never the real home."""
    path = tmp_path_factory.mktemp("modelport-home")
    monkeypatch.setenv("MODELPORT_HOME", str(path))
    return path
