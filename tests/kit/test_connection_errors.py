"""A connection that is refused and a server that never answers are their own typed errors, on every
transport (sync httpx, async httpx, aiohttp), against real loopback sockets: each names the server's
host and port (never the path, user info or the key), and is retried like an overload (both are
subclasses of :class:`ProviderOverloadedError`)."""

from __future__ import annotations

import pickle
import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest

import modelport
from modelport.errors import ProviderConnectionError, ProviderOverloadedError, ProviderTimeoutError
from tests.loopback import RawServer

from .test_transport_real_sockets import KEY, MODES, generate, stream

#: User info that must never reach a message (a URL may carry a credential there).
USER = "user:url-secret-77@"


def _model(url: str, mode: str, **config: Any) -> modelport.Model:
    config.setdefault("max_retries", 0)
    if mode != "sync":
        config["async_transport"] = mode
    return modelport.get_model("google/gemini-2.5-flash", api_key=KEY, base_url=url, **config)


@pytest.fixture
def refusing_port() -> int:
    """A loopback port nothing listens on: bound, then closed."""
    probe = socket.create_server(("127.0.0.1", 0))
    port = int(probe.getsockname()[1])
    probe.close()
    return port


@pytest.fixture
def silent_server() -> Iterator[RawServer]:
    """A loopback server that accepts, reads the whole request and never answers (until the test
    ends)."""
    done = threading.Event()
    server = RawServer(lambda connection: done.wait(10))
    try:
        yield server
    finally:
        done.set()
        server.close()


def _port(server: RawServer) -> int:
    return int(server.listener.getsockname()[1])


@pytest.mark.parametrize("streaming", [False, True], ids=["generate", "stream"])
@pytest.mark.parametrize("mode", MODES)
def test_a_refused_connection_is_a_connection_error_naming_host_and_port(
    mode: str, streaming: bool, refusing_port: int
) -> None:
    m = _model(f"http://{USER}127.0.0.1:{refusing_port}/v1beta", mode)
    with pytest.raises(ProviderConnectionError) as info:
        stream(m, mode) if streaming else generate(m, mode)
    error = info.value
    assert type(error) is ProviderConnectionError
    assert (error.host, error.port, error.provider) == ("127.0.0.1", refusing_port, "google")
    assert str(error).startswith(f"google: cannot connect to 127.0.0.1:{refusing_port}: ConnectError: ")
    assert isinstance(error, ProviderOverloadedError) and error.retryable
    for hidden in ("url-secret-77", KEY, "/v1beta"):
        assert hidden not in str(error) and hidden not in repr(error)


@pytest.mark.parametrize("streaming", [False, True], ids=["generate", "stream"])
@pytest.mark.parametrize("mode", MODES)
def test_a_server_that_never_answers_is_a_timeout_error_naming_host_and_port(
    mode: str, streaming: bool, silent_server: RawServer
) -> None:
    port = _port(silent_server)
    m = _model(f"http://{USER}127.0.0.1:{port}/v1beta", mode, timeout=0.3)
    with pytest.raises(ProviderTimeoutError) as info:
        stream(m, mode) if streaming else generate(m, mode)
    error = info.value
    assert type(error) is ProviderTimeoutError
    assert (error.host, error.port, error.provider) == ("127.0.0.1", port, "google")
    assert str(error).startswith(f"google: timed out waiting for the answer of 127.0.0.1:{port}: ReadTimeout")
    assert isinstance(error, ProviderOverloadedError) and error.retryable
    for hidden in ("url-secret-77", KEY, "/v1beta"):
        assert hidden not in str(error) and hidden not in repr(error)


@pytest.mark.parametrize("mode", MODES)
def test_a_refused_connection_is_retried_like_an_overload(
    mode: str, refusing_port: int, sleeps: list[float]
) -> None:
    m = _model(f"http://127.0.0.1:{refusing_port}/v1beta", mode, max_retries=2)
    with pytest.raises(ProviderConnectionError):
        generate(m, mode)
    assert len(sleeps) == 2  # two retries after the first attempt, then the error


def test_the_errors_keep_host_and_port_through_pickle() -> None:
    for cls in (ProviderConnectionError, ProviderTimeoutError):
        error = cls("cannot connect to example.com:443", provider="p", host="example.com", port=443)
        copy = pickle.loads(pickle.dumps(error))
        assert (type(copy), copy.host, copy.port, str(copy)) == (cls, "example.com", 443, str(error))
        assert modelport.errors.retry_reason(copy) == cls.__name__


def test_an_unnamed_port_is_the_schemes_default(monkeypatch: pytest.MonkeyPatch) -> None:
    import httpx

    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("[Errno 111] Connection refused", request=request)

    m = modelport.get_model(
        "google/gemini-2.5-flash",
        api_key=KEY,
        base_url="https://user:pw-secret@gateway.example/v1beta",
        transport=httpx.MockTransport(refuse),
        max_retries=0,
    )
    with pytest.raises(ProviderConnectionError) as info:
        m.generate(prompt="hi")
    assert (info.value.host, info.value.port) == ("gateway.example", 443)
    assert "pw-secret" not in str(info.value)
    assert str(info.value) == (
        "google: cannot connect to gateway.example:443: ConnectError: [Errno 111] Connection refused"
    )
