"""Error behaviour (C6): the hierarchy, messages, bounds, pickling and credentials never shown."""

from __future__ import annotations

import pickle

import pytest

import modelport
from modelport import errors
from modelport.provider import ProviderConfig, Secret

FAKE_KEY = "AIza" + "Sy" + "C4n4ryK3yF0rT3st1ngOnly0123456789"


def test_error_hierarchy() -> None:
    assert issubclass(errors.ProviderRateLimitError, errors.ProviderError)
    assert issubclass(errors.ProviderToolError, errors.InvalidRequestError)
    assert issubclass(errors.MissingCredentialsError, errors.ConfigurationError)
    retryable = {
        c.__name__
        for c in vars(errors).values()
        if isinstance(c, type) and issubclass(c, errors.ModelportError) and c.retryable
    }
    # a refused connection and a time-out are transient too: subclasses of the overloaded family
    assert retryable == {
        "ProviderOverloadedError",
        "ProviderRateLimitError",
        "ProviderConnectionError",
        "ProviderTimeoutError",
        "_Unreached",
    }


def test_provider_error_message_excerpt_and_scrubbing() -> None:
    modelport.plugins.provider_class("google")  # the plugin that declares the AIza key shape
    body = '{"error": {"message": "API key not valid: ' + FAKE_KEY + '"}}' + "x" * 5000
    error = errors.ProviderAuthError(
        f"bad key {FAKE_KEY}",
        provider="google",
        status_code=400,
        provider_status="INVALID_ARGUMENT",
        request_id="abc",
        body=body,
    )
    assert str(error) == "google: bad key [REDACTED] (HTTP 400, INVALID_ARGUMENT, request id abc)"
    assert FAKE_KEY not in repr(error)
    assert error.body_excerpt is not None
    assert FAKE_KEY not in error.body_excerpt
    assert len(error.body_excerpt) < 2_100
    assert error.body_excerpt.endswith("more characters]")


def test_provider_errors_pickle() -> None:
    error = errors.ProviderRateLimitError("slow", provider="google", status_code=429, retry_after=42.0)
    copy = pickle.loads(pickle.dumps(error))
    assert (type(copy), str(copy), copy.retry_after) == (
        errors.ProviderRateLimitError,
        "google: slow (HTTP 429, retry after 42s)",
        42.0,
    )


def test_missing_credentials_names_the_variables() -> None:
    error = errors.MissingCredentialsError("google", ["GOOGLE_API_KEY", "GEMINI_API_KEY"])
    assert str(error) == (
        "No credentials for provider 'google': pass api_key=... or set GOOGLE_API_KEY, GEMINI_API_KEY."
    )


def test_secrets_never_show() -> None:
    secret = Secret(FAKE_KEY)
    config = ProviderConfig(provider_id="google", api_key=secret)
    for text in (repr(secret), str(secret), repr(config), f"{config}"):
        assert FAKE_KEY not in text
    assert secret.reveal() == FAKE_KEY
    with pytest.raises(TypeError):
        pickle.dumps(secret)
    model = modelport.get_model("google/gemini-2.5-flash", api_key=FAKE_KEY)
    assert FAKE_KEY not in repr(model) + repr(model.provider) + repr(model.provider.config)
