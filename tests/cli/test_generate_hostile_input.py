"""X3: ``modelport generate`` against hostile input: a model's text with bidirectional controls and
zero-width characters is printed with them shown as escapes (no reordering, nothing hidden), and an
``-o`` value nested past the core's JSON depth is a usage error (exit 2), not a ``RecursionError``."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from modelport.cli.terminal import safe, visible
from modelport.wire import MAX_DEPTH

from ..hardening.test_terminal_safety import _run_cli

GOOGLE = "google/gemini-2.5-flash"
#: "Pay $1 to [RLO]1234[PDF]" shows "4321" on a bidi terminal; the isolates, marks, zero-width
#: characters, BOM and a tag character hide or reorder the rest.
SPOOF = "Pay $1 to \u202e1234\u202c, \u2066ok\u2069 \u200bno\u200bspace \u200f\u061c\u2060\ufeff\U000e0041."
SHOWN = (
    "Pay $1 to \\u202e1234\\u202c, \\u2066ok\\u2069 \\u200bno\\u200bspace \\u200f\\u061c\\u2060\\ufeff"
    "\\U000e0041."
)


def _run(
    monkeypatch: pytest.MonkeyPatch, args: list[str], handler: Callable[[httpx.Request], httpx.Response]
) -> Any:
    return _run_cli(monkeypatch, args, handler, color=True)


def _answer(text: str) -> dict[str, Any]:
    return {"candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP"}]}


def test_visible_escapes_bidi_and_invisible_characters_only() -> None:
    assert visible(SPOOF) == SHOWN
    # Joiners that scripts and emoji need stay; so does ordinary right-to-left text.
    kept = (
        "\U0001f468\u200d\U0001f469 \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645 \u05e9\u05dc\u05d5\u05dd"
    )
    assert visible(kept) == kept
    assert safe("a\x1b[2J\u202eb") == "a\\u202eb"


def test_generate_shows_bidi_controls_as_escapes(monkeypatch: pytest.MonkeyPatch) -> None:
    result = _run(
        monkeypatch, ["generate", GOOGLE, "hi"], lambda request: httpx.Response(200, json=_answer(SPOOF))
    )
    assert (result.exit_code, result.output) == (0, SHOWN + "\n")


def test_generate_stream_shows_bidi_controls_as_escapes(monkeypatch: pytest.MonkeyPatch) -> None:
    def frame(text: str, **extra: Any) -> str:
        body = {"candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, **extra}]}
        return f"data: {json.dumps(body)}\r\n\r\n"

    body = frame(SPOOF[:12]) + frame(SPOOF[12:30]) + frame(SPOOF[30:], finishReason="STOP")
    result = _run(
        monkeypatch,
        ["generate", GOOGLE, "hi", "--stream"],
        lambda request: httpx.Response(
            200, content=body.encode(), headers={"content-type": "text/event-stream"}
        ),
    )
    assert (result.exit_code, result.output) == (0, SHOWN + "\n")


def test_generate_json_escapes_them_and_keeps_the_text(monkeypatch: pytest.MonkeyPatch) -> None:
    result = _run(
        monkeypatch,
        ["generate", GOOGLE, "hi", "--json"],
        lambda request: httpx.Response(200, json=_answer(SPOOF)),
    )
    assert result.exit_code == 0
    assert visible(result.output) == result.output  # no invisible character printed
    assert json.loads(result.output)["result"]["text"] == SPOOF


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 5_000, 200_000])
def test_a_deeply_nested_option_is_a_usage_error(monkeypatch: pytest.MonkeyPatch, depth: int) -> None:
    sent: list[httpx.Request] = []
    value = "[" * depth + "]" * depth
    result = _run(
        monkeypatch,
        ["generate", GOOGLE, "hi", "-o", f"temperature={value}"],
        lambda request: sent.append(request) or httpx.Response(200, json=_answer("x")),
    )
    assert result.exit_code == 2
    assert f"the value of 'temperature' is JSON nested deeper than {MAX_DEPTH} levels" in result.output
    assert not isinstance(result.exception, RecursionError) and "Traceback" not in result.output
    assert sent == []


def test_an_option_at_the_depth_limit_reaches_the_sdk(monkeypatch: pytest.MonkeyPatch) -> None:
    value = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    result = _run(
        monkeypatch,
        ["generate", GOOGLE, "hi", "-o", f"temperature={value}"],
        lambda request: httpx.Response(200, json=_answer("x")),
    )
    assert result.exit_code == 1  # the SDK's own typed validation error, not a usage error
    assert result.output.startswith("error: ") and "temperature" in result.output
