"""Fixtures for the wrappers' tests: the core tests' scripted provider and recorded retry sleeps,
and a fresh registry around every test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from modelport._registry import reset_registry
from tests.core.conftest import scripted, sleeps  # noqa: F401  (the core tests' fixtures)
from tests.telemetry.conftest import otel  # noqa: F401  (the in-memory OpenTelemetry fixture)


@pytest.fixture(autouse=True)
def fresh_registry() -> Iterator[None]:
    reset_registry()
    yield
    reset_registry()
