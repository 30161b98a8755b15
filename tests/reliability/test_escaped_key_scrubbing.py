"""Q5 / C6: a key the server echoes *escaped* never reaches an error.

A server may echo the key inside a JSON string as ``\\/`` (a key holding ``/``), as ``\\uXXXX``
escapes (every character or some of them), inside a JSON document held in a JSON string, URL-quoted or
base64 (a ``Basic`` credential). The raw text does not show the key, the plugin's decoded message
does: the core scrubs by value after decoding, so ``str(error)``, ``repr``, the traceback, a pickle
and ``details`` hold none of it, on the Google and the OpenAI plugin, for unary calls and streams.

Keys: one holding ``/`` and ``+``, 32 hex digits, 40 plain characters (no shape any pattern knows).
"""

from __future__ import annotations

import base64
import json
import pickle
import traceback
from collections.abc import Callable
from urllib.parse import quote

import httpx
import pytest

import modelport
from modelport.errors import ProviderError
from modelport.secrets import encoded_forms, find, redact

SLASHED = "k3y/with+slash/AbCdEfGhIjKlMnOp=="
HEX32 = "0123456789abcdef" + "fedcba9876543210"
PLAIN40 = "Zq8" + "plainFortyCharacterCredential" + "xY7wV6uT"
assert (len(HEX32), len(PLAIN40)) == (32, 40)
KEYS = pytest.mark.parametrize("key", [SLASHED, HEX32, PLAIN40], ids=["slash", "hex32", "plain40"])


def _every_char(key: str) -> str:
    return "".join(f"\\u{ord(c):04x}" for c in key)


def _some_chars(key: str) -> str:
    return "".join(f"\\u{ord(c):04X}" if i % 3 == 0 else c for i, c in enumerate(key)).replace("/", "\\/")


def _slashes(key: str) -> str:
    return key.replace("/", "\\/")


def _hex(key: str) -> str:
    return key.encode().hex()


def _html_decimal(key: str) -> str:
    return "".join(f"&#{ord(c)};" for c in key)


def _html_hex(key: str) -> str:
    """Hexadecimal references, upper case and without the ``;`` (HTML parsers take both)."""
    return "".join(f"&#X{ord(c):X}" for c in key)


#: How the server writes the key into a JSON string literal of its error body (already escaped).
ECHOES: dict[str, Callable[[str], str]] = {
    "slash-escaped": _slashes,
    "all-unicode-escaped": _every_char,
    "some-unicode-escaped": _some_chars,
    "upper-cased": lambda key: _slashes(key.upper()),
    "lower-cased": lambda key: _slashes(key.lower()),
    "hex": _hex,
    "hex-upper-cased": lambda key: _hex(key).upper(),
    "html-decimal": _html_decimal,
    "html-hex": _html_hex,
}


def _literal(text: str) -> str:
    """``text`` (already JSON-escaped where the server escapes) inside a JSON string's quotes."""
    return '"' + text + '"'


def _google_error(key: str, echo: Callable[[str], str]) -> bytes:
    inner = json.dumps({"key": key}).replace("/", "\\/")  # a JSON document in a JSON string
    return (
        '{"error": {"code": 400, "status": "INVALID_ARGUMENT", "message": '
        + _literal(f"API key not valid: {echo(key)}.")
        + ', "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID",'
        + ' "metadata": {"key": '
        + _literal(echo(key))
        + ', "nested": '
        + json.dumps(inner)
        + ', "basic": '
        + _literal(base64.b64encode(f"user:{key}".encode()).decode())
        + ', "quoted": '
        + _literal(quote(key, safe=""))
        + "}}]}}"
    ).encode()


def _openai_error(key: str, echo: Callable[[str], str]) -> bytes:
    return (
        '{"error": {"message": '
        + _literal(f"Incorrect API key provided: {echo(key)}")
        + ', "type": "invalid_request_error", "param": '
        + _literal(echo(key))
        + ', "code": "invalid_api_key"}}'
    ).encode()


def _model(provider: str, key: str, body: bytes, *, stream: bool) -> modelport.Model:
    def handler(request: httpx.Request) -> httpx.Response:
        if stream and provider == "openai":  # an error object inside the event stream
            return httpx.Response(
                200, content=b"data: " + body + b"\n\n", headers={"content-type": "text/event-stream"}
            )
        return httpx.Response(
            400 if provider == "google" else 401, content=body, headers={"content-type": "application/json"}
        )

    model_id = "google/gemini-2.5-flash" if provider == "google" else "openai/gpt-4o-mini"
    return modelport.get_model(model_id, api_key=key, transport=httpx.MockTransport(handler), max_retries=0)


def _raised(model: modelport.Model, *, stream: bool) -> ProviderError:
    with pytest.raises(ProviderError) as info:
        if stream:
            for _ in model.stream(prompt="hi"):
                pass
        else:
            model.generate(prompt="hi")
    return info.value


def _everything_shown(error: ProviderError) -> str:
    """Every way the error is seen: str, repr, traceback, pickle (and its unpickled copy), fields."""
    copy = pickle.loads(pickle.dumps(error))
    shown = [
        str(error),
        repr(error),
        "".join(traceback.format_exception(type(error), error, error.__traceback__)),
        pickle.dumps(error).decode("latin-1"),
        str(copy),
        repr(copy.details),
        json.dumps(error.details),
        str(error.body_excerpt),
        str(error.message),
        str(error.provider_status),
    ]
    return "\n".join(shown)


def _leaks(key: str, text: str) -> list[str]:
    forms = [*encoded_forms(key), _every_char(key), _some_chars(key), _slashes(key)]
    found = [form for form in forms if form in text]
    found += [f"decoded:{kind}" for kind, _, _ in find(text, [key]) if kind == "known credential"]
    return found


@KEYS
@pytest.mark.parametrize("echo", list(ECHOES), ids=list(ECHOES))
@pytest.mark.parametrize("provider", ["google", "openai"])
@pytest.mark.parametrize("stream", [False, True], ids=["generate", "stream"])
def test_an_escaped_echo_of_the_key_is_nowhere_in_the_error(
    provider: str, key: str, echo: str, stream: bool
) -> None:
    body = (_google_error if provider == "google" else _openai_error)(key, ECHOES[echo])
    with _model(provider, key, body, stream=stream) as model:
        error = _raised(model, stream=stream)
    shown = _everything_shown(error)
    assert _leaks(key, shown) == []
    assert ECHOES[echo](key) not in shown and key.lower() not in shown.lower()
    assert "[REDACTED]" in error.message
    if provider == "google":
        assert error.message == "API key not valid: [REDACTED]."
        assert error.details[0]["reason"] == "API_KEY_INVALID"
        metadata = dict(error.details[0]["metadata"])
        basic = metadata.pop("basic")
        assert metadata == {"key": "[REDACTED]", "nested": '{"key": "[REDACTED]"}', "quoted": "[REDACTED]"}
        assert basic.startswith("dXNlcj") and "[REDACTED]" in basic  # base64 of "user:" kept
    else:
        assert error.message == "Incorrect API key provided: [REDACTED]"


def test_the_error_keeps_everything_but_the_key() -> None:
    body = _openai_error(SLASHED, _slashes)
    with _model("openai", SLASHED, body, stream=False) as model:
        error = _raised(model, stream=False)
    assert type(error).__name__ == "ProviderAuthError"
    assert (error.status_code, error.provider_status) == (401, "invalid_api_key")
    assert str(error) == "openai: Incorrect API key provided: [REDACTED] (HTTP 401, invalid_api_key)"


@KEYS
def test_redact_finds_the_key_behind_any_mix_of_escapes(key: str) -> None:
    texts = [
        _slashes(key),
        _every_char(key),
        _some_chars(key),
        json.dumps(json.dumps(key)).replace("/", "\\\\\\/"),  # two levels deep
        base64.b64encode(b"ab" + key.encode()).decode(),  # base64 at another alignment
        quote(json.dumps(key)[1:-1], safe=""),
    ]
    for text in texts:
        cleaned = redact(f"before {text} after", [key])
        assert "[REDACTED]" in cleaned and _leaks(key, cleaned) == [], text
        assert cleaned.startswith("before ") and cleaned.endswith(" after")


@KEYS
@pytest.mark.parametrize("provider", ["google", "openai"])
@pytest.mark.parametrize("stream", [False, True], ids=["generate", "stream"])
def test_a_key_split_across_two_strings_leaves_neither_half(provider: str, key: str, stream: bool) -> None:
    """Found here: each half of a key cut in two JSON strings passed every scrubber."""
    cut = len(key) // 2
    head, tail = key[:cut], key[cut:]
    if provider == "google":
        body = json.dumps(
            {
                "error": {
                    "code": 400,
                    "status": "INVALID_ARGUMENT",
                    "message": f"API key not valid: {head}",
                    "details": [{"reason": "API_KEY_INVALID", "metadata": {"rest": tail}}],
                }
            }
        ).encode()
    else:
        body = json.dumps(
            {"error": {"message": f"Incorrect API key provided: {head}", "type": "x", "param": tail}}
        ).encode()
    with _model(provider, key, body, stream=stream) as model:
        error = _raised(model, stream=stream)
    shown = _everything_shown(error)
    assert head not in shown and tail not in shown
    assert error.message.endswith(": [REDACTED]")


@pytest.mark.parametrize(
    "text, cleaned",
    [
        (json.dumps({"a": PLAIN40[:20], "b": PLAIN40[20:]}), '{"a": "[REDACTED]", "b": "[REDACTED]"}'),
        (f"first {PLAIN40[:9]}\nthen {PLAIN40[9:]}", "first [REDACTED]\nthen [REDACTED]"),
        # Not fragments: under six characters, only letters under twelve, or not at a string's edge.
        (f'"{PLAIN40[:5]}" "{PLAIN40[-5:]}"', f'"{PLAIN40[:5]}" "{PLAIN40[-5:]}"'),
        (f'"{PLAIN40[3:14]}"', f'"{PLAIN40[3:14]}"'),
        (f"x{PLAIN40[:20]}y", f"x{PLAIN40[:20]}y"),
    ],
    ids=["two-strings", "two-words", "too-short", "inside", "not-at-an-edge"],
)
def test_which_pieces_of_a_split_key_are_found(text: str, cleaned: str) -> None:
    assert redact(text, [PLAIN40], shapes=False) == cleaned


def test_a_token_starting_with_a_word_leaves_the_word() -> None:
    token = "session-token-" + "f0e1d2c3b4a59687"
    assert redact("session expired", [token]) == "session expired"
    assert redact(f'"{token[:15]}"', [token]) == '"[REDACTED]"'
