"""Fixtures for the round-two hardening tests (issue 14)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from modelport._registry import reset_registry


@pytest.fixture
def fresh_registry() -> Iterator[None]:
    """A registry with nothing loaded, restored to a fresh one afterwards."""
    reset_registry()
    yield
    reset_registry()
