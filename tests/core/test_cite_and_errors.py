"""Citation rendering (C3) and error behaviour (C6): messages, bounds, credentials."""

from __future__ import annotations

import pickle

import pytest

import modelport
from modelport import errors
from modelport.provider import ProviderConfig, Secret
from modelport.types import Citation, Result, Source, TextPart

FAKE_KEY = "AIza" + "Sy" + "C4n4ryK3yF0rT3st1ngOnly0123456789"


def grounded(text: str, citations: list[Citation], n_sources: int = 2) -> Result:
    sources = [
        Source(number=i, title=f"site{i}.org", uri=f"https://site{i}.org/") for i in range(1, n_sources + 1)
    ]
    return Result(content=[TextPart(text=text)], sources=sources, citations=citations)


def test_cite_inserts_markers_at_span_ends() -> None:
    result = grounded(
        "Zürich is 18 °C. Tokyo is 東京.",
        [
            Citation(start=0, end=16, sources=[1]),
            Citation(start=17, end=29, sources=[2, 1]),
        ],
    )
    cited = modelport.cite(result)
    assert cited.text == "Zürich is 18 °C.[1] Tokyo is 東京.[1][2]"
    assert cited.with_sources() == (
        "Zürich is 18 °C.[1] Tokyo is 東京.[1][2]\n\nSources:\n"
        "[1] site1.org - https://site1.org/\n[2] site2.org - https://site2.org/"
    )
    assert modelport.check_markers(cited.text, cited.sources) == []


def test_cite_merges_markers_and_ignores_bad_spans() -> None:
    result = grounded(
        "abc",
        [
            Citation(start=0, end=3, sources=[2]),
            Citation(start=1, end=3, sources=[2, 1]),
            Citation(start=0, end=99, sources=[1]),
            Citation(start=0, end=1, sources=[7]),
        ],
    )
    cited = modelport.cite(result)
    assert cited.text == "abc[1][2]"
    assert len(cited.citations) == 2


def test_cite_without_grounding_is_the_plain_text() -> None:
    cited = modelport.cite(Result(content=[TextPart(text="plain")]))
    assert (cited.text, cited.sources, cited.with_sources()) == ("plain", [], "plain")


def test_check_markers_finds_dangling_markers() -> None:
    assert modelport.check_markers("a[1] b[3] c[12]", [Source(number=1), Source(number=3)]) == [12]


def test_error_hierarchy() -> None:
    assert issubclass(errors.ProviderRateLimitError, errors.ProviderError)
    assert issubclass(errors.ProviderToolError, errors.InvalidRequestError)
    assert issubclass(errors.MissingCredentialsError, errors.ConfigurationError)
    retryable = {
        c.__name__
        for c in vars(errors).values()
        if isinstance(c, type) and issubclass(c, errors.ModelportError) and c.retryable
    }
    assert retryable == {"ProviderOverloadedError", "ProviderRateLimitError"}


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
