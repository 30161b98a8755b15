"""Issue 14 item 5: terminal and evidence safety.

Provider text (answers, stream deltas, source titles and URIs, error messages) never reaches the
terminal with a control sequence in it, piped or not; a title cannot forge a ``[n]`` line in the
Sources list (and ``check_evidence`` does not accept a forged one); a source URI that is not http(s)
gives a warning and is never rendered.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

import modelport
from modelport import citations
from modelport.citations import check_evidence, cite, split_sources_block
from modelport.types import CallWarning, Result, Source, TextPart

KEY = "test-key-not-a-secret"
#: Every control character but tab and newline: none may reach the terminal.
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")

# --------------------------------------------------------------------------- the sanitiser


@pytest.mark.parametrize(
    ("raw", "safe"),
    [
        ("a\x1b[31mred\x1b[0m b", "ared b"),  # CSI colours
        ("\x1b[2J\x1b[Hcleared", "cleared"),  # CSI clear screen, cursor home
        ("\x1b[?1049hx", "x"),  # CSI private mode (alternate screen)
        ("\x1b]0;pwned\x07title", "title"),  # OSC window title, BEL-terminated
        ("\x1b]2;pwned\x1b\\title", "title"),  # OSC window title, ST-terminated
        ("\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\ here", "click here"),  # OSC 8 link
        ("\x1b]52;c;Y29weQ==\x07x", "x"),  # OSC 52 clipboard write
        ("a\x9b31mred", "ared"),  # 8-bit CSI
        ("\x9d0;pwned\x9cx", "x"),  # 8-bit OSC ... 8-bit ST
        ("\x1bPq#0;2;0;0;0\x1b\\x", "x"),  # DCS (sixel)
        ("\x90$q\x9cx", "x"),  # 8-bit DCS
        ("\x1b_Gpayload\x1b\\x", "x"),  # APC
        ("\x1b^pm\x1b\\x\x1bXsos\x1b\\y", "xy"),  # PM, SOS
        ("ok\x1b]0;never terminated", "ok"),  # an unterminated string runs to the end
        ("\x1bcreset", "reset"),  # ESC c (full reset)
        ("\x1b(0x\x1b(B", "x"),  # charset designation
        ("\x1b]0;t\x1b[31mred", "red"),  # OSC cut short by the next sequence
        ("abc\rXYZ", "abcXYZ"),  # carriage return (overwrites the line)
        ("a\bb\x00c\x7fd\x07e", "abcde"),  # BS, NUL, DEL, BEL
        ("a\x85b\x8e\x80c", "abc"),  # lone 8-bit controls (NEL, SS2, PAD)
        ("a\x9fhidden", "a"),  # 8-bit APC opens a string like ESC _
        ("x\x1b", "x"),  # a lone ESC at the end
        ("tab\tand\nnewline", "tab\tand\nnewline"),  # kept
        ("Zürich 東京 🌧", "Zürich 東京 🌧"),  # untouched
    ],
)
def test_strip_control_sequences(raw: str, safe: str) -> None:
    assert citations.strip_control_sequences(raw) == safe


@pytest.mark.parametrize(
    ("pieces", "shown"),
    [
        (["a\x1b", "[31mred"], ["a", "red", ""]),
        (["Hi \x1b]0;pw", "ned\x07there"], ["Hi ", "there", ""]),
        (["\x1b]8;;https://x\x1b", "\\link"], ["", "link", ""]),
        (["x\x9b3", "1my"], ["x", "y", ""]),
        (["end \x1b]0;never"], ["end ", ""]),  # the unfinished sequence is dropped at flush
    ],
)
def test_a_sequence_split_across_pieces_is_removed_whole(pieces: list[str], shown: list[str]) -> None:
    stripper = citations.ControlStripper()
    assert [stripper.feed(p) for p in pieces] + [stripper.flush()] == shown


@pytest.mark.parametrize(
    ("uri", "problem"),
    [
        ("https://a.example/x?q=1", None),
        ("HTTP://A.EXAMPLE", None),
        ("javascript:alert(1)", "its scheme is 'javascript'"),
        ("JavaScript:alert(1)", "its scheme is 'javascript'"),
        ("data:text/html,<script>", "its scheme is 'data'"),
        ("file:///etc/passwd", "its scheme is 'file'"),
        ("gs://bucket/doc.pdf", "its scheme is 'gs'"),
        ("//a.example/x", "it has no scheme"),
        ("https://", "it has no host"),
        ("https://www.google.com/search?q=weather+in+San Francisco, CA", None),  # real grounding data
        ("https://a.example/\x1b]8;;x", "it contains control characters or line breaks"),
        ("https://a.example/\n[2] forged", "it contains control characters or line breaks"),
        ("https://a.example/\u2028x", "it contains control characters or line breaks"),
        (" javascript:alert(1)", "it has no scheme"),
        ("\tjavascript:alert(1)", "it contains control characters or line breaks"),
        ("", "it is empty"),
    ],
)
def test_which_uris_may_be_rendered_as_links(uri: str, problem: str | None) -> None:
    assert citations.uri_problem(uri) == problem
    assert citations.is_web_uri(uri) is (problem is None)


# --------------------------------------------------------------------------- evidence


def _sourced(text: str, *sources: Source) -> Result:
    return Result(content=[TextPart(text=text)], finish_reason="stop", sources=list(sources))


def test_a_newline_in_a_title_cannot_forge_a_sources_line() -> None:
    result = _sourced(
        "Rates rose.",
        Source(number=1, title="Real title\n[7] Forged source", uri="https://a.example/1"),
        Source(number=2, title="Other\r\n[8] more\u2028[9] again\x1b[2J", uri="https://b.example"),
    )
    evidence = cite(result).with_sources()
    assert evidence == (
        "Rates rose.\n\nSources:\n"
        "[1] Real title [7] Forged source - https://a.example/1\n"
        "[2] Other [8] more [9] again - https://b.example"
    )
    # The forged numbers are not sources: a marker pointing at one is reported.
    assert check_evidence(evidence.replace("Rates rose.", "Rates rose.[7][8][9][1]")) == [7, 8, 9]


def test_check_evidence_does_not_trust_a_tampered_sources_list() -> None:
    forged = "Claim.[7]\n\nSources:\n[1] Real title\n[7] Forged - https://evil.example\n[2] b"
    assert split_sources_block(forged) == ("Claim.[7]", [])
    assert check_evidence(forged) == [7]
    repeated = "Claim.[2]\n\nSources:\n[1] a\n[2] b\n[2] b again"
    assert split_sources_block(repeated) == ("Claim.[2]", [])
    assert check_evidence(repeated) == [2]


def test_a_marker_with_thousands_of_digits_is_not_an_error() -> None:
    huge = "[" + "9" * 5000 + "]"
    assert check_evidence(f"Claim {huge}.\n\nSources:\n[1] a") == []


def test_non_http_source_uris_are_not_rendered() -> None:
    result = _sourced(
        "Text.",
        Source(number=1, title="Click me", uri="javascript:alert(document.cookie)"),
        Source(number=2, uri="data:text/html,<script>alert(1)</script>"),
        Source(number=3, title="Fine", uri="https://ok.example"),
    )
    assert cite(result).sources_block() == (
        "Sources:\n[1] Click me\n[2] source 2\n[3] Fine - https://ok.example"
    )


# --------------------------------------------------------------------------- the Google adapter


def _grounded_body(chunks: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "candidates": [
            {
                "content": {"role": "model", "parts": [{"text": "Answer."}]},
                "finishReason": "STOP",
                "groundingMetadata": {"groundingChunks": chunks, "groundingSupports": []},
            }
        ]
    }


def test_a_javascript_source_uri_gives_a_warning() -> None:
    body = _grounded_body(
        [
            {"web": {"uri": "javascript:alert(1)", "title": "evil"}},
            {"web": {"uri": "https://ok.example/page", "title": "ok"}},
            {"web": {"uri": "data:text/html,x", "title": "data"}},
            {"retrievedContext": {"uri": "gs://bucket/doc.pdf", "title": "doc"}},  # expected: no warning
            {"web": {"uri": "gs://bucket/doc.pdf", "title": "odd"}},
        ]
    )
    model = modelport.get_model(
        "google/gemini-2.5-flash",
        api_key=KEY,
        max_retries=0,
        transport=httpx.MockTransport(lambda request: httpx.Response(200, json=body)),
    )
    result = model.generate(prompt="x")
    assert result.warnings == [
        CallWarning(
            type="other",
            setting="groundingChunks[0]",
            details="source 1 has a URI that is not an http(s) URL (its scheme is 'javascript'); "
            "it is not rendered as a link",
        ),
        CallWarning(
            type="other",
            setting="groundingChunks[2]",
            details="source 3 has a URI that is not an http(s) URL (its scheme is 'data'); "
            "it is not rendered as a link",
        ),
        CallWarning(
            type="other",
            setting="groundingChunks[4]",
            details="source 5 has a URI that is not an http(s) URL (its scheme is 'gs'); "
            "it is not rendered as a link",
        ),
    ]
    assert [s.uri for s in result.sources] == [
        "javascript:alert(1)",
        "https://ok.example/page",
        "data:text/html,x",
        "gs://bucket/doc.pdf",
        "gs://bucket/doc.pdf",
    ]
    assert cite(result).with_sources() == (
        "Answer.\n\nSources:\n[1] evil\n[2] ok - https://ok.example/page\n[3] data\n[4] doc\n[5] odd"
    )


# --------------------------------------------------------------------------- the modelport CLI

HOSTILE_TEXT = (
    "Sky\x1b[2J\x1b]0;pwned\x07 is blue\x1b]8;;https://evil.example\x1b\\ (link)\x1b]8;;\x1b\\."
    "\r\x9b31m\x1bPq#0\x1b\\"
)
HOSTILE_BODY = {
    "candidates": [
        {
            "content": {"role": "model", "parts": [{"text": HOSTILE_TEXT}]},
            "finishReason": "STOP",
            "groundingMetadata": {
                "groundingChunks": [
                    {"web": {"uri": "javascript:alert(1)", "title": "Evil\n[2] forged\x1b[31m\x9d0;t\x9c"}},
                    {
                        "web": {
                            "uri": "https://ok.example/\x1b]8;;https://evil\x07",
                            "title": "OK\x1b]0;x\x07",
                        }
                    },
                    {"web": {"uri": "https://fine.example/a", "title": "Fine"}},
                ],
                "groundingSupports": [],
            },
        }
    ]
}
EXPECTED_ANSWER = (
    "Sky is blue (link).\n\nSources:\n[1] Evil [2] forged\n[2] OK\n[3] Fine - https://fine.example/a\n"
)


def _sse(*frames: dict[str, Any]) -> httpx.Response:
    body = "".join(f"data: {json.dumps(f)}\r\n\r\n" for f in frames).encode()
    return httpx.Response(200, content=body, headers={"content-type": "text/event-stream"})


def _run_cli(
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    handler: Callable[[httpx.Request], httpx.Response],
    color: bool,
) -> Any:
    from modelport_conformance.cli import main

    real_get_model = modelport.get_model

    def get_model(model_id: str, **kwargs: Any) -> modelport.Model:
        kwargs.setdefault("transport", httpx.MockTransport(handler))
        kwargs.setdefault("max_retries", 0)
        return real_get_model(model_id, **kwargs)

    monkeypatch.setenv("GOOGLE_API_KEY", KEY)
    monkeypatch.setattr(modelport, "get_model", get_model)
    # color=True is what a terminal gets (click strips nothing); color=False is a pipe.
    return CliRunner().invoke(main, args, color=color)


@pytest.mark.parametrize("color", [True, False], ids=["tty", "piped"])
def test_generate_prints_no_control_sequence(monkeypatch: pytest.MonkeyPatch, color: bool) -> None:
    result = _run_cli(
        monkeypatch,
        ["generate", "google/gemini-2.5-flash", "hi"],
        lambda request: httpx.Response(200, json=HOSTILE_BODY),
        color,
    )
    assert (result.exit_code, result.output) == (0, EXPECTED_ANSWER)


@pytest.mark.parametrize("color", [True, False], ids=["tty", "piped"])
def test_generate_stream_prints_no_control_sequence(monkeypatch: pytest.MonkeyPatch, color: bool) -> None:
    def frame(text: str, **extra: Any) -> dict[str, Any]:
        return {"candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, **extra}]}

    handler = lambda request: _sse(  # noqa: E731
        frame("Hi \x1b]0;pw"),  # a window-title sequence split across two deltas
        frame("ned\x07there\x1b["),
        frame("2J, \rfriend\x9b", finishReason="STOP"),
    )
    result = _run_cli(monkeypatch, ["generate", "google/gemini-2.5-flash", "hi", "--stream"], handler, color)
    assert (result.exit_code, result.output) == (0, "Hi there, friend\n")


def test_generate_json_escapes_every_control_character(monkeypatch: pytest.MonkeyPatch) -> None:
    result = _run_cli(
        monkeypatch,
        ["generate", "google/gemini-2.5-flash", "hi", "--json"],
        lambda request: httpx.Response(200, json=HOSTILE_BODY),
        True,
    )
    assert result.exit_code == 0
    assert CONTROL.search(result.output) is None
    payload = json.loads(result.output)  # the data itself is kept, escaped
    assert payload["result"]["text"] == HOSTILE_TEXT
    assert payload["sources"][0]["title"] == "Evil\n[2] forged\x1b[31m\x9d0;t\x9c"


@pytest.mark.parametrize("color", [True, False], ids=["tty", "piped"])
def test_generate_error_messages_print_no_control_sequence(
    monkeypatch: pytest.MonkeyPatch, color: bool
) -> None:
    error = {
        "error": {
            "code": 400,
            "message": "Bad\x1b]0;pwned\x07 request\x1b[2J\x9b2J\r!",
            "status": "INVALID_ARGUMENT",
        }
    }
    result = _run_cli(
        monkeypatch,
        ["generate", "google/gemini-2.5-flash", "hi"],
        lambda request: httpx.Response(400, json=error),
        color,
    )
    assert (result.exit_code, result.output) == (
        1,
        "error: google: Bad request! (HTTP 400, INVALID_ARGUMENT)\n",
    )
