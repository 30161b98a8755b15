"""Q5 / K2: the recorder removes a key the server echoes *escaped*, and ``scan_text`` finds one left.

A local server rejects the key and echoes it inside JSON strings as ``\\/``, as ``\\uXXXX`` escapes
(all or some characters), inside a JSON document held in a JSON string, and base64 (a ``Basic``
credential). A cassette stores a JSON body decoded, so each of those would be written as the plain
key. Keys: one holding ``/``, 32 hex digits, 40 plain characters (no shape any pattern knows).
"""

from __future__ import annotations

import base64
import json

import pytest
import yaml

from modelport.secrets import encoded_forms
from modelport_conformance import scan_text
from modelport_conformance.cases import Suite, load_cases
from modelport_conformance.recording import record_case
from modelport_conformance.runner import run_case
from modelport_conformance.scrub import Scrubber

from .servers import Answer, LocalServer, Seen
from .test_recording_credentials import _bearer, _case_dir, echo_registered  # noqa: F401 - a fixture

SLASHED = "k3y/with+slash/AbCdEfGhIjKlMnOp=="
HEX32 = "0123456789abcdef" + "fedcba9876543210"
PLAIN40 = "Zq8" + "plainFortyCharacterCredential" + "xY7wV6uT"
KEYS = pytest.mark.parametrize("key", [SLASHED, HEX32, PLAIN40], ids=["slash", "hex32", "plain40"])


def _unicode(key: str, every: int = 1) -> str:
    return "".join(f"\\u{ord(c):04x}" if i % every == 0 else c for i, c in enumerate(key)).replace("/", "\\/")


def _escaped_echo(seen: Seen) -> Answer:
    key = _bearer(seen)
    inner = json.dumps({"key": key}).replace("/", "\\/")
    body = (
        '{"error": {"message": "Incorrect API key provided: '
        + key.replace("/", "\\/")
        + '", "type": "invalid_request_error", "param": "'
        + _unicode(key)
        + '", "hint": "'
        + _unicode(key, every=3)
        + '", "nested": '
        + json.dumps(inner)
        + ', "basic": "'
        + base64.b64encode(f"user:{key}".encode()).decode()
        + '"}}'
    )
    return Answer(401, body.encode(), {"content-type": "application/json"})


def _plain_anywhere(key: str, text: str) -> list[str]:
    decoded = json.dumps(yaml.safe_load(text), ensure_ascii=False)
    return [form for form in encoded_forms(key) if form in text or form in decoded]


@KEYS
def test_an_escaped_echo_of_the_key_is_not_recorded(echo_registered, tmp_path, key):  # noqa: F811
    directory = _case_dir(tmp_path, "auth-error")
    suite = Suite("echo", load_cases(tmp_path / "cases"))
    with LocalServer(_escaped_echo) as server:
        outcome = record_case(suite, suite.cases[0], api_key=key, base_url=f"{server.url}/v1")
    assert outcome.status == "pass", outcome.message
    text = (directory / "cassette.yaml").read_text()
    assert _plain_anywhere(key, text) == []
    assert scan_text(text, secrets=[key]) == []
    [interaction] = yaml.safe_load(text)["interactions"]
    error = interaction["response"]["body"]["json"]["error"]
    basic = error.pop("basic")
    assert error == {
        "message": "Incorrect API key provided: REDACTED",
        "type": "invalid_request_error",
        "param": "REDACTED",
        "hint": "REDACTED",
        "nested": '{"key": "REDACTED"}',
    }
    assert basic.startswith("dXNlcj") and "REDACTED" in basic
    replay = run_case(suite, load_cases(tmp_path / "cases")[0])
    assert (replay.status, replay.message) == ("pass", "")


@KEYS
@pytest.mark.parametrize(
    "written",
    [
        lambda key: key,
        lambda key: key.replace("/", "\\/"),
        lambda key: _unicode(key),
        lambda key: _unicode(key, every=3),
        lambda key: json.dumps(json.dumps(key)),
        lambda key: base64.b64encode(b"user:" + key.encode()).decode(),
    ],
    ids=["raw", "slash-escaped", "unicode", "some-unicode", "json-in-json", "base64"],
)
def test_scan_text_finds_a_known_key_in_any_form(key, written):
    text = f'interactions:\n- response:\n    body: {{string: "{{\\"key\\": \\"{written(key)}\\"}}"}}\n'
    findings = scan_text(text, secrets=[key])
    assert [(f.kind, f.line) for f in findings] == [("the recording's credential", 3)]
    assert key not in findings[0].describe()
    assert Scrubber([key]).findings(text) != []


def test_scan_text_without_the_value_finds_no_shapeless_key():
    # A shapeless key is found by value only: the recorder passes the values it knows.
    assert scan_text(f"body: {PLAIN40}\n") == []
    assert [f.kind for f in scan_text(f"body: {PLAIN40}\n", secrets=[PLAIN40])] == [
        "the recording's credential"
    ]


#: How a server writes the key into its JSON error (already JSON-escaped where it escapes).
CASED_ECHOES = {
    "upper-cased": lambda key: key.upper().replace("/", "\\/"),
    "lower-cased": lambda key: key.lower().replace("/", "\\/"),
    "hex": lambda key: key.encode().hex().upper(),
    "html-decimal": lambda key: "".join(f"&#{ord(c)};" for c in key),
    "html-hex": lambda key: "".join(f"&#x{ord(c):x};" for c in key),
    "split": lambda key: key[: len(key) // 2] + '", "rest": "' + key[len(key) // 2 :],
}


def _recast_echo(written):
    def answer(seen: Seen) -> Answer:
        body = (
            '{"error": {"message": "bad key", "type": "invalid_request_error", "param": "'
            + written(_bearer(seen))
            + '"}}'
        )
        return Answer(401, body.encode(), {"content-type": "application/json"})

    return answer


@KEYS
@pytest.mark.parametrize("echo", list(CASED_ECHOES))
def test_a_recast_echo_of_the_key_is_not_recorded(echo_registered, tmp_path, key, echo):  # noqa: F811
    """Found here: an echo in upper or lower case passed the recorder's scrubbing *and* its final scan,
    so the cassette was written holding the upper-cased key; a key split in two strings left both."""
    directory = _case_dir(tmp_path, "auth-error")
    suite = Suite("echo", load_cases(tmp_path / "cases"))
    with LocalServer(_recast_echo(CASED_ECHOES[echo])) as server:
        outcome = record_case(suite, suite.cases[0], api_key=key, base_url=f"{server.url}/v1")
    assert outcome.status == "pass", outcome.message
    text = (directory / "cassette.yaml").read_text()
    decoded = json.dumps(yaml.safe_load(text), ensure_ascii=False)
    for piece in (key, key[: len(key) // 2], key[len(key) // 2 :], key.encode().hex()):
        assert piece.lower() not in text.lower() and piece.lower() not in decoded.lower()
    [interaction] = yaml.safe_load(text)["interactions"]
    error = interaction["response"]["body"]["json"]["error"]
    assert error["param"] == "REDACTED"
    assert error.get("rest", "REDACTED") == "REDACTED"
    assert scan_text(text, secrets=[key]) == []


@KEYS
@pytest.mark.parametrize("echo", list(CASED_ECHOES))
def test_the_final_scan_finds_a_recast_key(key, echo):
    text = (
        'interactions:\n- response:\n    body: {string: "{\\"key\\": \\"'
        + CASED_ECHOES[echo](key)
        + '\\"}"}\n'
    )
    findings = scan_text(text, secrets=[key])
    assert findings and {(f.kind, f.line) for f in findings} == {("the recording's credential", 3)}
    assert Scrubber([key]).findings(text) != []
