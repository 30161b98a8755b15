"""A stand-in for google-auth (``google.auth.default`` and the modules the kit imports from it),
installed in ``sys.modules`` for one test: Application Default Credentials that name a project and
give ``token`` on their one refresh, without the package or the network."""

from __future__ import annotations

import sys
import types

import pytest


def fake_google_auth(monkeypatch: pytest.MonkeyPatch, token: str, project: str = "adc-project") -> list[str]:
    """Install the stand-in; the list it returns gets ``"refresh"`` for each refresh of the credentials."""
    refreshed: list[str] = []

    class Credentials:
        valid = False
        token: str | None = None

        def refresh(self, request: object) -> None:
            refreshed.append("refresh")
            self.token, self.valid = issued, True

    issued = token
    google = types.ModuleType("google")
    auth = types.ModuleType("google.auth")
    transport = types.ModuleType("google.auth.transport")
    requests = types.ModuleType("google.auth.transport.requests")
    exceptions = types.ModuleType("google.auth.exceptions")
    exceptions.DefaultCredentialsError = type("DefaultCredentialsError", (Exception,), {})  # type: ignore[attr-defined]
    exceptions.GoogleAuthError = type("GoogleAuthError", (Exception,), {})  # type: ignore[attr-defined]
    auth.default = lambda scopes: (Credentials(), project)  # type: ignore[attr-defined]
    auth.exceptions, auth.transport = exceptions, transport  # type: ignore[attr-defined]
    transport.requests, requests.Request = requests, object  # type: ignore[attr-defined]
    google.auth = auth  # type: ignore[attr-defined]
    for name, module in {
        "google": google,
        "google.auth": auth,
        "google.auth.transport": transport,
        "google.auth.transport.requests": requests,
        "google.auth.exceptions": exceptions,
    }.items():
        monkeypatch.setitem(sys.modules, name, module)
    return refreshed
