"""What a call cost, in ``generate --usage`` and in the log, priced by the genai-prices catalog
(``modelport[cost]``). The loopback server answers with OpenAI's recorded ``gpt-4.1-nano`` answer
(vercel/ai fixture, REAL): 16 input and 363 output tokens at the catalog's $0.10 and $0.40 per
million are $0.0000016 + $0.0001452 = $0.0001468."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from modelport.cli import _cost, _turn, main

from .openai_server import OpenAIServer

pytest.importorskip("genai_prices")


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def test_usage_prints_the_cost_and_the_log_keeps_it() -> None:
    with OpenAIServer() as server:
        result = run(
            "generate", "openai/gpt-4o-mini", "--base-url", server.base_url, "--key", "sk-" + "x" * 20,
            "--no-stream", "--usage", "hi",
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    usage = [line for line in result.stderr.splitlines() if line.startswith("usage:")]
    assert len(usage) == 1
    assert usage == [
        "usage: input 16, output 363, reasoning 0, total 379, cache_read_input 0, cached_input 0 (tokens);"
        " cost $0.0001468"
    ]
    (logged,) = json.loads(run("logs", "--json", "-n", "1").output)
    assert logged["cost"] == "0.0001468"
    assert "cost $0.0001468" in run("logs").output


def test_a_compatible_server_is_unknown_never_billed_as_openai() -> None:
    """The server answers "gpt-4.1-nano", but ``openai-compatible`` is any server (a local one is
    free): the catalog would guess OpenAI from the model name; the cost is unknown instead."""
    with OpenAIServer() as server:
        result = run(
            "generate", "openai-compatible/x", "--base-url", server.base_url, "--no-stream", "--usage", "hi"
        )
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[-1].endswith("(tokens); cost unknown")
    (logged,) = json.loads(run("logs", "--json", "-n", "1").output)
    assert logged["cost"] is None


def test_without_the_catalog_usage_has_no_cost(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_cost, "catalog_installed", lambda: False)
    monkeypatch.setattr(_turn, "catalog_installed", lambda: False)
    with OpenAIServer() as server:
        result = run(
            "generate", "openai/gpt-4o-mini", "--base-url", server.base_url, "--key", "sk-" + "x" * 20,
            "--no-stream", "--usage", "hi",
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[-1].endswith("(tokens)")
