"""Fixtures of the kit tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from modelport._registry import reset_registry
from modelport._runtime import retry as _retry


@pytest.fixture
def fresh_registry() -> Iterator[None]:
    """A registry with nothing loaded, restored afterwards."""
    reset_registry()
    yield
    reset_registry()


@pytest.fixture
def sleeps(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Record retry delays instead of sleeping (sync and async)."""
    recorded: list[float] = []

    async def fake_async_sleep(delay: float) -> None:
        recorded.append(delay)

    monkeypatch.setattr(_retry, "sleep", recorded.append)
    monkeypatch.setattr(_retry, "async_sleep", fake_async_sleep)
    return recorded
