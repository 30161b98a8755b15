"""Plugins declare their credentials as data: the core knows only generic headers and shapes.

A provider class's ``credential_headers`` and ``secret_patterns`` are declared to
:mod:`modelport.secrets` as the class is defined, so a loaded plugin's key shapes leave every
error and its credential headers' values leave every message the transport reports; Google's
``x-goog-api-key`` and ``AIza…`` keys, OpenAI's ``sk-…`` keys are the plugins' own.
"""

from __future__ import annotations

import subprocess
import sys
from typing import ClassVar

import httpx
import pytest

from modelport import plugins, secrets
from modelport.errors import ProviderAuthError, ProviderError, scrub
from modelport.http import HttpProvider, HttpRequest
from modelport.provider import Provider, ProviderConfig, Secret

ACME_KEY = "acmk_" + "0123456789abcdef" * 2
TOKEN = "session-token-" + "f0e1d2c3b4a59687"


class Acme(HttpProvider):
    id: ClassVar[str] = "acme-declared"
    default_base_url: ClassVar[str | None] = "https://api.acme.test/v1"
    credential_headers: ClassVar[frozenset[str]] = frozenset({"x-acme-session"})
    secret_patterns = {"Acme key": r"acmk_[0-9a-f]{32}"}

    def headers(self) -> dict[str, str]:
        return {"x-acme-session": TOKEN}  # a credential the provider's secrets() does not list


def test_the_core_tables_hold_no_providers_credentials() -> None:
    assert secrets.CREDENTIAL_HEADERS == {"authorization", "proxy-authorization", "x-api-key", "api-key"}
    assert [kind for kind, _ in secrets.PATTERNS] == [
        "AWS access key id",
        "JSON web token",
        "bearer token",
        "private key",
        "credential in URL",
    ]


def test_google_and_openai_declare_their_own() -> None:
    google, vertex, openai = (plugins.provider_class(i) for i in ("google", "google-vertex", "openai"))
    assert google.credential_headers == vertex.credential_headers == {"x-goog-api-key"}
    assert set(google.secret_patterns) == {"Google API key", "Google OAuth access token"}
    assert set(openai.secret_patterns) == {"OpenAI API key"}
    assert (google.telemetry_name, vertex.telemetry_name, openai.telemetry_name) == (
        "gcp.gemini",
        "gcp.vertex_ai",
        "openai",
    )
    assert "x-goog-api-key" in secrets.credential_headers()
    assert {"Google API key", "OpenAI API key"} <= {kind for kind, _ in secrets.all_patterns()}


def test_a_key_shape_is_scrubbed_once_the_plugin_declaring_it_is_loaded() -> None:
    # A fresh interpreter: no plugin loaded yet, so the core alone does not know Google's shape.
    key = "AIza" + "SyD3cl4r3dByTh3Plug1nN0tTh3C0r3wxyz"
    program = (
        "from modelport import errors, plugins\n"
        f"before = errors.scrub('key {key}')\n"
        "plugins.provider_class('google')\n"
        f"print(before == 'key {key}', errors.scrub('key {key}'))\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
    assert done.stdout == "True key [REDACTED]\n"


def test_a_declared_shape_leaves_every_error() -> None:
    error = ProviderError(f"bad key {ACME_KEY}", provider="acme-declared", body=f'{{"key": "{ACME_KEY}"}}')
    assert ACME_KEY not in str(error) + repr(error) + (error.body_excerpt or "")
    assert scrub(f"k={ACME_KEY};") == "k=[REDACTED];"
    assert [m.kind for m in secrets.find(f"x {ACME_KEY}")] == ["Acme key"]


def test_a_declared_header_value_leaves_the_transports_messages() -> None:
    def echo(request: httpx.Request) -> httpx.Response:
        sent = request.headers["x-acme-session"]
        return httpx.Response(401, json={"error": {"message": f"session {sent} expired"}})

    client = httpx.Client(transport=httpx.MockTransport(echo))
    provider = Acme(ProviderConfig(provider_id=Acme.id, api_key=Secret("k" * 20), http_client=client))
    with pytest.raises(ProviderAuthError) as raised:
        provider.call_json(HttpRequest("/whoami", method="GET"))
    assert str(raised.value) == "acme-declared: session [REDACTED] expired (HTTP 401)"
    assert "x-acme-session" in secrets.credential_headers()


def test_a_pattern_that_does_not_compile_fails_the_class_naming_its_kind() -> None:
    with pytest.raises(ValueError, match="secret pattern 'Broken key' is not a valid regular expression"):

        class Broken(Provider):
            id: ClassVar[str] = "broken-declared"
            secret_patterns = {"Broken key": "brk_[0-9"}


def test_declaring_again_changes_nothing() -> None:
    before = secrets.all_patterns()
    secrets.declare(Acme.secret_patterns, Acme.credential_headers)
    assert secrets.all_patterns() is before


def test_redact_data_rebuilds_a_named_tuple_field_by_field() -> None:
    from typing import NamedTuple

    from modelport.secrets import redact_data

    class Line(NamedTuple):
        number: int
        problem: str

    key = "mp-named-tuple-key-0123456789"
    assert redact_data(Line(3, f"bad {key}"), [key]) == Line(3, "bad [REDACTED]")
    assert redact_data((1, key), [key]) == (1, "[REDACTED]")
    assert redact_data([key], [key]) == ["[REDACTED]"]
