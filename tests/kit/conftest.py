"""Fixtures of the kit tests."""

from __future__ import annotations

import pytest

from modelport import _retry


@pytest.fixture
def sleeps(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Record retry delays instead of sleeping (sync and async)."""
    recorded: list[float] = []

    async def fake_async_sleep(delay: float) -> None:
        recorded.append(delay)

    monkeypatch.setattr(_retry, "sleep", recorded.append)
    monkeypatch.setattr(_retry, "async_sleep", fake_async_sleep)
    return recorded
