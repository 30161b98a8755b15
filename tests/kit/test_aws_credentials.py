"""The kit's ``AwsCredentials`` (``modelport.http.sigv4``), shared by ``bedrock`` and
``anthropic-bedrock``: explicit keys, the standard chain, a bearer API key only without explicit
keys, the secrets to scrub, and no credential in a repr or an error. Values are built at run time."""

from __future__ import annotations

import pytest

from modelport.errors import ConfigurationError, MissingCredentialsError
from modelport.http import HeaderAuth
from modelport.http.sigv4 import AwsCredentials, SigV4Auth
from modelport.provider import Secret

ACCESS = "AKIA" + "N" * 16
SECRET = "m" * 40
TOKEN = "IQoJ" + "p" * 60
BEARER = "ABSK" + "b" * 40


def test_explicit_keys_sign_for_the_region_and_are_the_secrets() -> None:
    options = {
        "region": "ap-northeast-1",
        "aws_access_key_id": ACCESS,
        "aws_secret_access_key": Secret(SECRET),
    }
    aws = AwsCredentials({**options, "aws_session_token": TOKEN}, "acme", lambda: BEARER)
    auth = aws.auth(service="bedrock", origin="https://bedrock-runtime.ap-northeast-1.amazonaws.com")
    assert isinstance(auth, SigV4Auth) and (auth.service, auth.region) == ("bedrock", "ap-northeast-1")
    assert aws.bearer() is None  # explicit keys win over a bearer key
    assert aws.secrets() == [ACCESS, SECRET, TOKEN]
    assert repr(aws) == "AwsCredentials(provider='acme')"


def test_a_bearer_key_is_used_without_explicit_keys() -> None:
    aws = AwsCredentials({"region": "us-east-1"}, "acme", lambda: BEARER)
    auth = aws.auth(service="bedrock", origin="https://bedrock-runtime.us-east-1.amazonaws.com")
    assert isinstance(auth, HeaderAuth) and (auth.header, auth.value) == ("authorization", f"Bearer {BEARER}")
    assert aws.secrets() == [BEARER]


def test_the_standard_chain_supplies_keys_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", ACCESS)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", SECRET)
    monkeypatch.setenv("AWS_DEFAULT_REGION", "eu-west-3")
    aws = AwsCredentials({}, "acme", lambda: None)
    assert aws.region() == "eu-west-3"
    first = aws.credentials()
    assert aws.credentials() is first and aws.secrets() == [ACCESS, SECRET]


def test_half_a_key_pair_is_a_configuration_error_naming_no_value() -> None:
    aws = AwsCredentials({"region": "us-east-1", "aws_access_key_id": ACCESS}, "acme", lambda: None)
    with pytest.raises(
        ConfigurationError, match="^acme: give both aws_access_key_id and aws_secret_access_key$"
    ):
        aws.credentials()
    assert aws.secrets() == []


def test_a_key_that_is_not_a_string_is_refused() -> None:
    aws = AwsCredentials({"aws_access_key_id": 12, "aws_secret_access_key": SECRET}, "acme", lambda: None)
    with pytest.raises(ConfigurationError, match="^acme: aws_access_key_id must be a string$"):
        aws.explicit_keys()


def test_nothing_anywhere_is_missing_credentials() -> None:
    aws = AwsCredentials({"region": "us-east-1"}, "acme", lambda: None)
    with pytest.raises(MissingCredentialsError):
        aws.auth(service="bedrock", origin="https://bedrock-runtime.us-east-1.amazonaws.com")
