"""The ``invariants`` check reads which provider an error names: a plugin that builds its errors
with ``provider=`` and ``message=`` swapped, or from another provider's table, fails without any
golden (an error case's expected.json pins only the type and the status)."""

from __future__ import annotations

from modelport.errors import InvalidRequestError, ProviderAuthError, ProviderRequestError
from modelport_conformance.invariants import check_error_provider


def test_an_error_naming_the_provider_called_passes():
    error = ProviderRequestError("API key not valid.", provider="google", status_code=400)
    assert check_error_provider(error, "google") == []


def test_an_error_naming_another_provider_is_reported():
    error = ProviderAuthError("invalid x-api-key", provider="anthropic", status_code=401)
    assert check_error_provider(error, "anthropic-vertex") == [
        "ProviderAuthError.provider is 'anthropic', but 'anthropic-vertex' was called"
    ]


def test_an_error_whose_provider_holds_its_message_is_reported():
    error = ProviderRequestError("", provider="API key not valid.", status_code=400)
    assert check_error_provider(error, "google") == [
        "ProviderRequestError.provider is 'API key not valid.', but 'google' was called"
    ]


def test_no_error_and_errors_raised_before_io_are_not_read():
    assert check_error_provider(None, "google") == []
    assert check_error_provider(InvalidRequestError("max_output_tokens: out of range"), "google") == []
