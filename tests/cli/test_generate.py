"""Issue 16: ``modelport generate`` streams tokens as they arrive, shows a spinner on a terminal only,
reads the prompt from standard input for ``-``, and takes ``--system``, ``--tool`` and ``-o``."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click
import httpx
import pytest
from click.testing import CliRunner

import modelport
from modelport.cli import main, terminal
from modelport.cli._generate import parse_options

from .conftest import EXAMPLE_CASES

KEY = "test-key-not-a-secret"
GOOGLE = "google/gemini-2.5-flash"
ANSWER = {
    "candidates": [{"content": {"role": "model", "parts": [{"text": "Blue."}]}, "finishReason": "STOP"}],
    "usageMetadata": {"promptTokenCount": 3, "candidatesTokenCount": 1, "totalTokenCount": 4},
}


def _frame(text: str, **extra: Any) -> bytes:
    body = {"candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, **extra}]}
    return f"data: {json.dumps(body)}\r\n\r\n".encode()


@pytest.fixture
def google(monkeypatch: pytest.MonkeyPatch) -> Callable[..., Any]:
    """Run ``modelport`` in-process against a mocked Gemini API; returns (result, requests)."""
    real_get_model = modelport.get_model

    def invoke(
        args: list[str], handler: Callable[[httpx.Request], httpx.Response], **kwargs: Any
    ) -> tuple[Any, list[httpx.Request]]:
        requests: list[httpx.Request] = []

        def recording(request: httpx.Request) -> httpx.Response:
            requests.append(request)
            return handler(request)

        def get_model(model_id: str, **options: Any) -> modelport.Model:
            options.setdefault("transport", httpx.MockTransport(recording))
            options.setdefault("max_retries", 0)
            return real_get_model(model_id, **options)

        monkeypatch.setenv("GOOGLE_API_KEY", KEY)
        monkeypatch.setattr(modelport, "get_model", get_model)
        return CliRunner().invoke(main, args, **kwargs), requests

    return invoke


# --------------------------------------------------------------------------- -o key=value


def test_option_values_are_json_when_they_parse_else_strings() -> None:
    assert parse_options(
        (
            "temperature=0.2",
            "max_output_tokens=100",
            'stop_sequences=["END", "STOP"]',
            "user_id=alice",
            'seed="7"',
            'reasoning={"effort": "low"}',
            "request_labels={}",
            "top_p = 1",
            "response_format=a=b",
        )
    ) == {
        "temperature": 0.2,
        "max_output_tokens": 100,
        "stop_sequences": ["END", "STOP"],
        "user_id": "alice",
        "seed": "7",
        "reasoning": {"effort": "low"},
        "request_labels": {},
        "top_p": 1,
        "response_format": "a=b",
    }


@pytest.mark.parametrize(
    ("pair", "problem"),
    [
        ("temperature", "expected key=value, got 'temperature'"),
        ("=1", "expected key=value, got '=1'"),
        ("prompt=x", "use the PROMPT argument for 'prompt'"),
        ("system=x", "use --system for 'system'"),
        ("tools=[]", "use --tool for 'tools'"),
    ],
)
def test_bad_options_are_usage_errors(pair: str, problem: str) -> None:
    with pytest.raises(click.BadParameter, match=problem):
        parse_options((pair,))
    result = CliRunner().invoke(main, ["generate", GOOGLE, "hi", "-o", pair])
    assert result.exit_code == 2
    assert problem in result.output


def test_options_reach_the_request(google: Callable[..., Any]) -> None:
    result, requests = google(
        ["generate", GOOGLE, "hi", "--system", "Be brief.", "-o", "temperature=0.2", "-o", "max_output_tokens=100",
         "-o", 'stop_sequences=["END"]'],
        lambda request: httpx.Response(200, json=ANSWER),
    )  # fmt: skip
    assert (result.exit_code, result.output) == (0, "Blue.\n")
    body = json.loads(requests[0].content)
    assert body["generationConfig"] == {"temperature": 0.2, "maxOutputTokens": 100, "stopSequences": ["END"]}
    assert body["systemInstruction"] == {"parts": [{"text": "Be brief."}]}


def test_an_unknown_option_is_the_sdks_own_error(google: Callable[..., Any]) -> None:
    result, requests = google(
        ["generate", GOOGLE, "hi", "-o", "temprature=0.2"], lambda request: httpx.Response(200, json=ANSWER)
    )
    assert (result.exit_code, requests) == (1, [])
    assert result.output == (
        "error: invalid request: temprature: Extra inputs are not permitted (did you mean temperature=?)\n"
    )


def test_options_and_system_replay_the_recorded_cassette(example_installed: Path) -> None:
    """The Example cassette was recorded with system, max_output_tokens 20 and temperature 0.5."""
    cassette = str(EXAMPLE_CASES / "generate-basic" / "cassette.yaml")
    args = ["generate", "example/tiny-1", "Say hello.", "--system", "Be brief.", "--cassette", cassette]
    result = CliRunner().invoke(main, [*args, "-o", "max_output_tokens=20", "-o", "temperature=0.5"])
    assert (result.exit_code, result.output) == (0, "Hello!\n")


# --------------------------------------------------------------------------- the prompt from stdin


def test_a_dash_reads_the_prompt_from_standard_input(example_installed: Path) -> None:
    cassette = str(EXAMPLE_CASES / "stream-basic" / "cassette.yaml")
    args = ["generate", "example/tiny-1", "-", "--stream", "--cassette", cassette]
    result = CliRunner().invoke(main, args, input="Say hello.\n")
    assert (result.exit_code, result.output) == (0, "Héllo wörld 👋\n")
    other = CliRunner().invoke(main, args, input="Say goodbye.\n")  # not what was recorded
    assert other.exit_code == 1
    assert "error: the request does not match the cassette:" in other.output


def test_an_empty_standard_input_is_a_usage_error() -> None:
    result = CliRunner().invoke(main, ["generate", GOOGLE, "-"], input="\n")
    assert result.exit_code == 2
    assert "standard input is empty" in result.output


# --------------------------------------------------------------------------- --tool


@pytest.mark.parametrize("name", ["google_search", "google.google_search"])
def test_a_registered_provider_tool_by_name(google: Callable[..., Any], name: str) -> None:
    result, requests = google(
        ["generate", GOOGLE, "weather?", "--tool", name, "--tool", "url_context"],
        lambda request: httpx.Response(200, json=ANSWER),
    )
    assert result.exit_code == 0, result.output
    assert json.loads(requests[0].content)["tools"] == [{"googleSearch": {}}, {"urlContext": {}}]


def test_an_unknown_tool_lists_the_registered_ones(google: Callable[..., Any]) -> None:
    result, requests = google(
        ["generate", GOOGLE, "hi", "--tool", "os.system"], lambda request: httpx.Response(200, json=ANSWER)
    )
    assert (result.exit_code, requests) == (1, [])
    assert result.output.startswith("error: unknown provider tool 'os.system' for 'google' (allowed: ")
    assert "google_search" in result.output


# --------------------------------------------------------------------------- streaming and the spinner


def test_tokens_are_printed_as_they_arrive(
    google: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    happened: list[str] = []
    real_echo = click.echo

    def echo(message: Any = None, *args: Any, **kwargs: Any) -> None:
        if message:
            happened.append(f"printed {message!r}")
        real_echo(message, *args, **kwargs)

    monkeypatch.setattr(click, "echo", echo)

    def body() -> Iterator[bytes]:
        for i, text in enumerate(["One ", "two ", "three."]):
            happened.append(f"sent {i}")
            yield _frame(text, **({"finishReason": "STOP"} if i == 2 else {}))

    result, _ = google(
        ["generate", GOOGLE, "count", "--stream"],
        lambda request: httpx.Response(200, content=body(), headers={"content-type": "text/event-stream"}),
    )
    assert (result.exit_code, result.output) == (0, "One two three.\n")
    assert happened == [
        "sent 0",
        "printed 'One '",
        "sent 1",
        "printed 'two '",
        "sent 2",
        "printed 'three.'",
    ]


def _slow(response: Callable[[], httpx.Response]) -> Callable[[httpx.Request], httpx.Response]:
    def handler(request: httpx.Request) -> httpx.Response:
        time.sleep(0.3)  # long enough for the spinner to draw
        return response()

    return handler


@pytest.mark.parametrize("stream", [False, True], ids=["generate", "stream"])
def test_a_spinner_on_a_terminal_until_the_first_token(
    google: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, stream: bool
) -> None:
    monkeypatch.setattr(terminal, "is_terminal", lambda stream: True)
    if stream:
        make = lambda: httpx.Response(  # noqa: E731
            200, content=_frame("Blue.", finishReason="STOP"), headers={"content-type": "text/event-stream"}
        )
    else:
        make = lambda: httpx.Response(200, json=ANSWER)  # noqa: E731
    args = ["generate", GOOGLE, "hi", "--stream" if stream else "--no-stream"]
    result, _ = google(args, _slow(make))
    assert result.exit_code == 0
    assert result.stdout == "Blue.\n"  # the answer is untouched
    assert result.stderr.startswith(f"\r| waiting for {GOOGLE}")
    assert result.stderr.endswith(terminal.CLEAR_LINE)  # erased before the answer
    assert "/ waiting" in result.stderr  # it turned
    # On the terminal the spinner is gone before the first token is written.
    assert result.output.index(terminal.CLEAR_LINE) < result.output.index("Blue.")


@pytest.mark.parametrize("stream", [False, True], ids=["generate", "stream"])
def test_no_spinner_when_piped(google: Callable[..., Any], stream: bool) -> None:
    if stream:
        make = lambda: httpx.Response(  # noqa: E731
            200, content=_frame("Blue.", finishReason="STOP"), headers={"content-type": "text/event-stream"}
        )
    else:
        make = lambda: httpx.Response(200, json=ANSWER)  # noqa: E731
    result, _ = google(["generate", GOOGLE, "hi", *(["--stream"] if stream else [])], _slow(make))
    assert (result.exit_code, result.stdout, result.stderr) == (0, "Blue.\n", "")


def test_the_spinner_is_erased_on_an_error(
    google: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(terminal, "is_terminal", lambda stream: True)
    error = {"error": {"code": 400, "message": "Bad request", "status": "INVALID_ARGUMENT"}}
    result, _ = google(["generate", GOOGLE, "hi"], _slow(lambda: httpx.Response(400, json=error)))
    assert result.exit_code == 1
    assert result.stderr.endswith(
        terminal.CLEAR_LINE + "error: google: Bad request (HTTP 400, INVALID_ARGUMENT)\n"
    )


def test_the_spinner_label_is_made_safe() -> None:
    import io

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    out = Tty()
    with terminal.Spinner(out, "x\x1b]0;pwned\x07y\nz", enabled=terminal.is_terminal(out)):
        time.sleep(0.05)
    assert out.getvalue().startswith("\r| xy z")
    quiet = io.StringIO()
    with terminal.Spinner(quiet, "x", enabled=terminal.is_terminal(quiet)):
        time.sleep(0.05)
    assert quiet.getvalue() == ""
