"""Fixtures for the wrappers' tests: the scripted provider, retry sleeps recorded."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from modelport import testing
from modelport._registry import reset_registry
from modelport._runtime import retry as _retry
from tests.telemetry.conftest import otel  # noqa: F401  (the in-memory OpenTelemetry fixture)


@pytest.fixture(autouse=True)
def fresh_registry() -> Iterator[None]:
    reset_registry()
    yield
    reset_registry()


@pytest.fixture
def sleeps(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Record retry sleeps instead of sleeping."""
    recorded: list[float] = []
    monkeypatch.setattr(_retry, "sleep", recorded.append)

    async def fake_async_sleep(delay: float) -> None:
        recorded.append(delay)

    monkeypatch.setattr(_retry, "async_sleep", fake_async_sleep)
    return recorded


@pytest.fixture
def scripted() -> testing.Script:
    """An empty script with the scripted provider installed."""
    testing.install()
    return testing.Script()
