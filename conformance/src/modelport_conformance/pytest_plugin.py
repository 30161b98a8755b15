"""pytest plugin of the conformance suite (entry point ``pytest11``), loaded automatically.

It parametrizes the standard tests of every :class:`~modelport_conformance.ProviderConformanceTests`
subclass with that provider's cases, and adds the record-mode option::

    pytest --modelport-record-mode=none        # default: replay only, never the network
    pytest --modelport-record-mode=regenerate  # propose expected files from a replay, offline
    pytest --modelport-record-mode=accept      # accept the proposals (expected.proposed.json), then replay
    pytest --modelport-record-mode=all         # record real traffic (needs the provider's key)

``MODELPORT_RECORD_MODE`` sets the same when the option is not given.
"""

from __future__ import annotations

from typing import Any

import pytest

__all__ = ["modelport_record_mode", "pytest_addoption", "pytest_generate_tests"]


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add ``--modelport-record-mode``."""
    group = parser.getgroup("modelport", "modelport conformance")
    group.addoption(
        "--modelport-record-mode",
        action="store",
        default=None,
        choices=("none", "all", "regenerate", "accept"),
        help="none (replay only, default), regenerate (propose expected files offline, refused when CI "
        "is set), accept (accept the proposals), all (record live)",
    )


@pytest.fixture
def modelport_record_mode(request: pytest.FixtureRequest) -> str:
    """The active record mode; in ``all`` mode the case is recorded live before the checks run."""
    from .recording import resolve_record_mode

    mode = resolve_record_mode(request.config.getoption("--modelport-record-mode"))
    if mode == "all" and "conformance_case" in request.fixturenames:
        _record_once(request)
        return "recorded"
    return mode


def _record_once(request: pytest.FixtureRequest) -> None:
    from .recording import record_case

    cls: Any = request.cls
    case = request.getfixturevalue("conformance_case")
    recorded: set[str] = cls.__dict__.get("_recorded") or set()
    if case.name not in recorded:
        record_case(cls.conformance_suite(), case)
        recorded.add(case.name)
        cls._recorded = recorded
        cls._outcomes.clear()
        cls._suite = None


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrize ``conformance_case`` with the cases of the test class's provider."""
    if "conformance_case" not in metafunc.fixturenames or metafunc.cls is None:
        return
    from .base import ProviderConformanceTests

    if not issubclass(metafunc.cls, ProviderConformanceTests):
        return
    cases = metafunc.cls.conformance_cases()
    metafunc.parametrize("conformance_case", cases, ids=[case.name for case in cases])
