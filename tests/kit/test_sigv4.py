"""SigV4 signing of the kit's requests (``modelport.http.sigv4``), checked against botocore's own
signer on the same inputs at a fixed time; credentials go to the one origin only and are in no repr
or error. The credentials are built at run time (no credential-looking literal in the source)."""

from __future__ import annotations

import datetime

import httpx
import pytest
from botocore.auth import SigV4Auth as BotocoreSigV4
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

from modelport.errors import ConfigurationError, InvalidRequestError, MissingCredentialsError
from modelport.http.sigv4 import SigV4Auth, aws_credentials, aws_region, aws_session, credential_values

ORIGIN = "https://bedrock-runtime.us-east-1.amazonaws.com"
URL = ORIGIN + "/model/us.amazon.nova-micro-v1%3A0/converse"
BODY = b'{"messages":[{"role":"user","content":[{"text":"Hello!"}]}]}'
WHEN = datetime.datetime(2026, 12, 3, 12, 0, 0)
ACCESS = "AKIA" + "T" * 16
SECRET = "s" * 40
TOKEN = "IQoJ" + "t" * 60


@pytest.fixture
def fixed_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("botocore.auth.get_current_datetime", lambda: WHEN)


def reference(credentials: Credentials, headers: dict[str, str]) -> dict[str, str]:
    """What botocore signs for the same request, as its own clients call it."""
    request = AWSRequest(method="POST", url=URL, data=BODY, headers=headers)
    BotocoreSigV4(credentials, "bedrock", "us-east-1").add_auth(request)
    return {k.lower(): v for k, v in request.headers.items()}


@pytest.mark.parametrize("token", [None, TOKEN], ids=["keys", "session-token"])
def test_the_signature_is_botocores_for_the_same_inputs(fixed_time: None, token: str | None) -> None:
    credentials = Credentials(ACCESS, SECRET, token)
    request = httpx.Request("POST", URL, content=BODY, headers={"content-type": "application/json"})
    auth = SigV4Auth(credentials, service="bedrock", region="us-east-1", origin=ORIGIN)
    flow = auth.sync_auth_flow(request)
    signed = next(flow)
    expected = reference(
        credentials, {"host": "bedrock-runtime.us-east-1.amazonaws.com", "content-type": "application/json"}
    )
    assert signed.headers["authorization"] == expected["authorization"]
    assert signed.headers["x-amz-date"] == expected["x-amz-date"] == "20261203T120000Z"
    assert signed.headers["authorization"].startswith(
        f"AWS4-HMAC-SHA256 Credential={ACCESS}/20261203/us-east-1/bedrock/aws4_request, "
        "SignedHeaders=content-type;host;x-amz-date"
        + (";x-amz-security-token" if token else "")
        + ", Signature="
    )
    assert signed.headers.get("x-amz-security-token") == token


def test_a_changed_body_changes_the_signature(fixed_time: None) -> None:
    credentials = Credentials(ACCESS, SECRET)
    auth = SigV4Auth(credentials, service="bedrock", region="us-east-1", origin=ORIGIN)
    one = httpx.Request("POST", URL, content=BODY)
    two = httpx.Request("POST", URL, content=BODY + b" ")
    auth.sign(one)
    auth.sign(two)
    assert one.headers["authorization"] != two.headers["authorization"]


@pytest.mark.parametrize(
    "url",
    [
        "https://evil.example/model/m/converse",
        "http://bedrock-runtime.us-east-1.amazonaws.com/model/m/converse",
        "https://bedrock-runtime.us-east-1.amazonaws.com:8443/model/m/converse",
        "https://bedrock-runtime.us-west-2.amazonaws.com/model/m/converse",
    ],
)
def test_no_request_to_another_origin_is_signed(url: str) -> None:
    auth = SigV4Auth(Credentials(ACCESS, SECRET, TOKEN), service="bedrock", region="us-east-1", origin=ORIGIN)
    request = httpx.Request("POST", url, content=BODY)
    with pytest.raises(InvalidRequestError) as info:
        auth.sign(request)
    assert "authorization" not in request.headers
    for value in (ACCESS, SECRET, TOKEN):
        assert value not in str(info.value)


def test_the_repr_names_no_credential() -> None:
    auth = SigV4Auth(Credentials(ACCESS, SECRET, TOKEN), service="bedrock", region="us-east-1", origin=ORIGIN)
    text = repr(auth) + str(vars(auth).keys())
    assert text.startswith(
        "SigV4Auth(service='bedrock', region='us-east-1', origin='https://bedrock-runtime.us-east-1.amazonaws.com')"
    )
    for value in (ACCESS, SECRET, TOKEN):
        assert value not in repr(auth)


def test_the_standard_chain_reads_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    monkeypatch.setenv("AWS_CONFIG_FILE", "/nonexistent/config")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/credentials")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", ACCESS)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", SECRET)
    monkeypatch.setenv("AWS_SESSION_TOKEN", TOKEN)
    monkeypatch.setenv("AWS_REGION", "eu-west-3")
    session = aws_session()
    credentials = aws_credentials(session, "bedrock")
    assert credential_values(credentials) == [ACCESS, SECRET, TOKEN]
    assert aws_region(session) == "eu-west-3"
    assert aws_region(session, "ap-south-1") == "ap-south-1"


def test_no_credentials_is_a_missing_credentials_error(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", "/nonexistent/config")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/credentials")
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    monkeypatch.delenv("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", raising=False)
    monkeypatch.delenv("AWS_CONTAINER_CREDENTIALS_FULL_URI", raising=False)
    monkeypatch.delenv("AWS_WEB_IDENTITY_TOKEN_FILE", raising=False)
    with pytest.raises(MissingCredentialsError):
        aws_credentials(aws_session(), "bedrock")


@pytest.mark.parametrize("region", ["", "us east 1", "../x"])
def test_a_bad_or_missing_region_is_a_configuration_error(
    monkeypatch: pytest.MonkeyPatch, region: str
) -> None:
    monkeypatch.delenv("AWS_REGION", raising=False)
    monkeypatch.delenv("AWS_DEFAULT_REGION", raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", "/nonexistent/config")
    with pytest.raises(ConfigurationError):
        aws_region(aws_session(), region or None)
