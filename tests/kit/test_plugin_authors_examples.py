"""The examples of docs/plugin-authors.md section 7 run as written, and its lists match the code.

Each block preceded by ``<!-- example: NAME -->`` is executed; its ``assert`` lines are the claims.
"""

from __future__ import annotations

import inspect
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from modelport_conformance import ProviderConformanceTests
from modelport_conformance.base import STANDARD_TESTS
from modelport_conformance.cassette import PINNED_REQUEST_HEADERS, REQUEST_HEADERS, RESPONSE_HEADERS

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "plugin-authors.md"
TEXT = GUIDE.read_text(encoding="utf-8")
EXAMPLES = dict(re.findall(r"<!-- example: (\S+) -->\n```python\n(.*?)```", TEXT, flags=re.S))


def _run(name: str, code: str, **names: Any) -> None:
    """Run ``code`` as the body of a module of its own (pydantic resolves annotations there)."""
    module = ModuleType(f"guide_{name.replace('-', '_')}")
    module.__dict__.update(names)
    sys.modules[module.__name__] = module
    try:
        exec(compile(code, f"docs/plugin-authors.md:{name}", "exec"), module.__dict__)
    finally:
        del sys.modules[module.__name__]


def test_the_guide_has_its_examples() -> None:
    assert sorted(EXAMPLES) == ["provider-options", "system"]


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_an_example_runs_as_written(name: str) -> None:
    _run(name, EXAMPLES[name])


def test_the_provider_options_example_reaches_both_errors() -> None:
    """An ``except`` branch that is never taken would leave its ``assert`` unchecked."""
    code = EXAMPLES["provider-options"]
    assert code.count("except InvalidRequestError as error:") == 2
    raised: list[str] = []
    _run(
        "provider-options",
        code.replace("    assert str(error)", "    raised.append(str(error))\n    assert str(error)"),
        raised=raised,
    )
    assert raised == [
        "invalid provider_options['acme']: safe_mod: Extra inputs are not permitted",
        "provider_options['acme'].extra_body cannot set model (the request owns them)",
    ]


def test_the_counts_paragraph_names_the_standard_tests() -> None:
    per_case = [
        name
        for name in STANDARD_TESTS
        if "conformance_case" in inspect.signature(getattr(ProviderConformanceTests, name)).parameters
    ]
    whole = [name for name in STANDARD_TESTS if name not in per_case] + ["test_standard_tests_intact"]
    assert len(per_case) == 12 and len(whole) == 4
    section = TEXT.split("### Counts: the command line and pytest", 1)[1]
    for name in per_case + whole:
        assert f"`{name}`" in section
    assert "12 × 17 + 4 = 208" in section


def test_the_header_list_is_the_cassettes() -> None:
    assert PINNED_REQUEST_HEADERS == {"anthropic-version", "anthropic-beta"}
    assert REQUEST_HEADERS - PINNED_REQUEST_HEADERS == {"content-type", "accept"}
    assert RESPONSE_HEADERS == {"content-type", "retry-after", "retry-after-ms", "x-request-id", "request-id"}
