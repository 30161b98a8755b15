"""The module-level calls take the connection settings (``base_url=``, ``api_key=``), so the one-liner
reaches a local server; one shared model per model id and settings, the key never kept as given.
``openai-compatible`` also finds its server in ``OPENAI_COMPATIBLE_BASE_URL``."""

from __future__ import annotations

import asyncio
import gc

import pytest

import modelport
from modelport import _api
from tests.cli.openai_server import ANSWER, STREAMED, OpenAIServer


def _local_key() -> str:
    return "-".join(("sk", "local", "module", "level", "0123456789"))


@pytest.fixture(autouse=True)
def no_shared_models(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_api, "_DEFAULT_MODELS", {})
    monkeypatch.delenv("OPENAI_COMPATIBLE_BASE_URL", raising=False)
    monkeypatch.delenv("OPENAI_COMPATIBLE_API_KEY", raising=False)


def test_generate_stream_and_agenerate_reach_a_local_server() -> None:
    key = _local_key()
    with OpenAIServer() as server:
        result = modelport.generate("openai-compatible/x", base_url=server.base_url, api_key=key, prompt="Hi")
        streamed = modelport.stream("openai-compatible/x", base_url=server.base_url, api_key=key, prompt="Hi")
        streamed_text = "".join(e.delta for e in streamed if e.type == "text-delta")
        awaited = asyncio.run(
            modelport.agenerate("openai-compatible/x", base_url=server.base_url, api_key=key, prompt="Hi")
        )
    assert (result.text, streamed_text, awaited.text) == (ANSWER, STREAMED, ANSWER)
    assert [r.headers["authorization"] for r in server.received] == [f"Bearer {key}"] * 3
    assert [b["messages"] for b in server.bodies()] == [[{"role": "user", "content": "Hi"}]] * 3
    assert len(_api._DEFAULT_MODELS) == 1  # one shared model for the three calls


def test_the_shared_models_are_told_apart_by_url_and_key_and_keep_no_key() -> None:
    key = _local_key()
    with OpenAIServer() as first, OpenAIServer() as second:
        modelport.generate("openai-compatible/x", base_url=first.base_url, prompt="Hi")
        modelport.generate("openai-compatible/x", base_url=second.base_url, prompt="Hi")
        modelport.generate("openai-compatible/x", base_url=second.base_url, api_key=key, prompt="Hi")
    assert (len(first.received), len(second.received)) == (1, 2)
    assert "authorization" not in second.received[0].headers
    assert second.received[1].headers["authorization"] == f"Bearer {key}"
    keys = list(_api._DEFAULT_MODELS)
    assert [k[:2] for k in keys] == [
        ("openai-compatible/x", first.base_url),
        ("openai-compatible/x", second.base_url),
        ("openai-compatible/x", second.base_url),
    ]
    assert keys[0][2] is None and keys[2][2] is not None and key not in repr(keys)


def test_the_server_url_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    with OpenAIServer() as server:
        monkeypatch.setenv("OPENAI_COMPATIBLE_BASE_URL", server.base_url)
        assert modelport.generate("openai-compatible/x", prompt="Hi").text == ANSWER
    assert server.bodies()[0]["model"] == "x"


def test_without_a_url_the_error_names_every_way_to_give_one() -> None:
    with pytest.raises(modelport.ConfigurationError) as raised:
        modelport.generate("openai-compatible/x", prompt="Hi")
    assert str(raised.value) == (
        "provider 'openai-compatible' needs the server's URL: base_url=..., "
        "OPENAI_COMPATIBLE_BASE_URL in the environment, or --base-url on the command line"
    )


def test_bad_connection_settings_are_refused_before_any_model_is_made() -> None:
    with pytest.raises(modelport.ConfigurationError, match="api_key must be a string, got int"):
        modelport.generate("openai-compatible/x", base_url="http://127.0.0.1:1/v1", api_key=5, prompt="Hi")  # type: ignore[arg-type]
    with pytest.raises(modelport.ConfigurationError, match="base_url must be a string"):
        modelport.generate("openai-compatible/x", base_url=b"http://x", prompt="Hi")  # type: ignore[arg-type]
    assert _api._DEFAULT_MODELS == {}


def test_the_shared_models_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_api, "_MAX_DEFAULT_MODELS", 3)
    with OpenAIServer() as server:
        for n in range(5):
            modelport.generate(
                "openai-compatible/x", base_url=server.base_url, api_key=f"{_local_key()}{n}", prompt="Hi"
            )
    gc.collect()
    assert len(_api._DEFAULT_MODELS) == 3
    assert len(server.received) == 5
